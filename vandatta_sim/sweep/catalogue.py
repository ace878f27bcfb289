"""The catalogue of stored runs: what tells one configuration in a store from another.

One row per stored configuration, read from its ``provenance.json``: when it was last updated,
its key, kind (``sweep``, ``value``, ``report``), the command that made it, the rules as
changes from ``standard`` (with the rules file they came from), scale, swapped rank, players,
policies, the configuration's label and the user's. Runs stored before these fields were
recorded get their kind from their command and their changes from their full rules, so old
stores read the same way. :func:`select` filters rows by kind, ``field=value`` and date;
:func:`resolve_key` is the one reading of a key prefix.
"""

from __future__ import annotations

from datetime import UTC, datetime

from ..rules import Rules
from ..store import Store
from .config import SweepError
from .provenance import KINDS

#: The fields of a catalogue row, in the order ``results list`` shows them.
FIELDS = ("updated", "key", "kind", "kinds", "games", "chunks", "seed", "match", "players", "scale",
          "swap", "policies", "changes", "engine_version", "label", "user_label", "command")


def resolve_key(keys: list[str], given: str, store: str) -> str:
    """The key of ``keys`` that ``given`` names exactly or as a unique prefix; a one-line
    :class:`SweepError` otherwise (``ambiguous prefix: N keys match …`` or no such key)."""
    if given in keys:
        return given
    matches = [k for k in keys if k.startswith(given)] if given else []
    if len(matches) == 1:
        return matches[0]
    if matches:
        shown = ", ".join(matches[:10]) + (", …" if len(matches) > 10 else "")
        raise SweepError(f"ambiguous prefix: {len(matches)} keys match {given[:40]!r} in "
                         f"{store}: {shown}; give more of the key")
    raise SweepError(f"no configuration {given[:40]!r} in {store}; see `vandatta-sim results "
                     f"list --store {store}`")


#: The longest label a user may give a stored run.
MAX_LABEL = 200


def check_user_label(text, keys: list[str]) -> str | None:
    """A user's label for stored runs (``--label``, ``results label``) on one line, or None for
    none; a one-line SweepError where ``--baseline`` would read it as something else: all digits
    (an index) or the start of a stored key (``keys``: the store's and the run's own)."""
    if text is None:
        return None
    text = " ".join(str(text).split())
    if len(text) > MAX_LABEL:
        raise SweepError(f"label: it has {len(text)} characters; allowed: at most {MAX_LABEL}")
    if text.isascii() and text.isdigit():
        raise SweepError(f"label {text!r} looks like an index (--baseline {text} picks the "
                         "configuration of that number); allowed: a label with a letter in it")
    taken = [k for k in keys if text and k.startswith(text)]
    if taken:
        raise SweepError(f"label {text!r} is the start of the key {taken[0]} (--baseline "
                         f"{text} would no longer pick that key); allowed: another label")
    return text


def infer_kind(provenance: dict) -> str:
    """The run's kind as recorded, or for runs stored before kinds were recorded, read from
    the command that made them."""
    if provenance.get("kind") in KINDS:
        return provenance["kind"]
    words = str(provenance.get("command") or "").split()
    if "value" in words[1:3]:
        return "value"
    if any(w.startswith("analyses/") or w.endswith(".py") for w in words[:3]):
        return "report"
    return "sweep"


def rule_changes(provenance: dict) -> dict:
    """The rules as changes from ``standard`` (the defaults): recorded, or worked out from the
    full rules of an older record."""
    if isinstance(provenance.get("changes"), dict):
        return provenance["changes"]
    rules = provenance.get("rules")
    if not isinstance(rules, dict):
        return {}
    standard = Rules().canonical()
    return {k: v for k, v in rules.items() if k in standard and standard[k] != v}


def value_text(value) -> str:
    """A recorded value as people write it: booleans as in TOML, lists without brackets, and
    nothing (never ``None``) for an unset field."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ",".join(value_text(v) for v in value)
    return str(value)


def changes_text(changes: dict, rules_file: str | None = None) -> str:
    """``field=value, …`` (``standard`` when there are none), after the rules file's name."""
    text = ", ".join(f"{k}={value_text(v)}" for k, v in changes.items()) or "standard"
    return f"{rules_file}: {text}" if rules_file else text


def policies_text(policies) -> str:
    """Per-seat policies as ``all=expert`` or ``0=random 1=expert …``."""
    if not isinstance(policies, list) or not policies:
        return value_text(policies)
    if len(set(policies)) == 1:
        return f"all={policies[0]}"
    return " ".join(f"{s}={p}" for s, p in enumerate(policies))


def configuration_fields(p: dict) -> dict[str, str]:
    """What decides a stored configuration's games, field by field as people write them (every
    rule, then ``policy``, ``forget``, ``swap``, ``swap_seat``, ``valuation``), read from its
    provenance ``p``: the words a verdict names a configuration by, never its label's."""
    rules = p.get("rules")
    if not isinstance(rules, dict):  # an older record: its changes from standard
        rules = Rules().canonical() | rule_changes(p)
    out = {k: value_text(v) for k, v in rules.items()}
    out |= {"policy": policies_text(p.get("policies")), "forget": value_text(p.get("forget")),
            "swap": value_text(p.get("swap")) or "none",
            "swap_seat": value_text(p.get("swap_seat")) or "each",
            "valuation": value_text(p.get("valuation")) or "the rules' scale"}
    return out


def fields_apart(fields: dict[str, str], other: dict[str, str]) -> tuple[str, str]:
    """The fields in which two configurations differ (:func:`configuration_fields`), as each
    has them: ``("stacking=true", "stacking=false")``; two empty names where none differ."""
    apart = [k for k in dict.fromkeys([*fields, *other]) if fields.get(k) != other.get(k)]
    return (" ".join(f"{k}={fields.get(k, '')}" for k in apart),
            " ".join(f"{k}={other.get(k, '')}" for k in apart))


def run_kinds(p: dict) -> list[str]:
    """Every kind of run that used the configuration (its games serve any later run with the
    same key): its first run's, then those of the runs recorded since, each once."""
    later = [r.get("kind") for r in p.get("runs") or [] if isinstance(r, dict)]
    return list(dict.fromkeys([infer_kind(p), *(k for k in later if k in KINDS)]))


def _updated(provenance: dict) -> str:
    return str(provenance.get("updated") or provenance.get("created") or "")


def row(store: Store, key: str) -> dict:
    """The catalogue row of ``key`` (a damaged provenance gives a row with only the counts)."""
    chunk_rows = store.chunk_rows(key)
    try:
        p = store.read_provenance(key)
    except (KeyError, ValueError):
        p = {}
    return row_of(key, p) | {"games": sum(chunk_rows.values()), "chunks": len(chunk_rows)}


def row_of(key: str, p: dict) -> dict:
    """The catalogue row of ``key`` from its provenance ``p`` alone (games and chunks as the
    provenance last recorded them)."""
    scale = p.get("scale", (p.get("rules") or {}).get("scale"))
    return {"updated": _updated(p), "key": key, "kind": infer_kind(p) if p else "",
            "kinds": run_kinds(p) if p else [],
            "games": p.get("games_stored", 0), "chunks": p.get("chunks_stored", 0),
            "seed": p.get("seed"),
            "match": p.get("match"), "players": p.get("players"),
            "scale": "custom" if isinstance(scale, list) else scale, "swap": p.get("swap"),
            "swap_seat": p.get("swap_seat"), "policies": p.get("policies"),
            "changes": rule_changes(p), "rules_file": p.get("rules_file"),
            "engine_version": p.get("engine_version"), "label": p.get("label") or "",
            "user_label": p.get("user_label") or "", "command": p.get("command") or "",
            "internal": internal(p)}


def internal(p: dict) -> bool:
    """Whether a run is one no person asked for: games that a command plays for its own
    arithmetic, at rules nobody typed (``value``'s break-even runs, the card at a second
    score with the policies still valuing the table's own scale: a recorded ``valuation``)."""
    return p.get("valuation") is not None


def catalogue(store: Store) -> list[dict]:
    """Every stored configuration's row, oldest update first (newest last)."""
    rows = [row(store, key) for key in store.keys()]
    return sorted(rows, key=lambda r: (r["updated"], r["key"]))


def _field_text(r: dict, field: str) -> str:
    if field == "changes":
        return changes_text(r["changes"], r["rules_file"])
    if field == "policies":
        return policies_text(r["policies"])
    return value_text(r.get(field))


def parse_where(texts) -> list[tuple[str, str]]:
    """``field=value`` conditions (SweepError naming the allowed fields)."""
    out = []
    for text in texts:
        field, sep, value = str(text).partition("=")
        field = field.strip()
        if not sep or field not in FIELDS:
            raise SweepError(f"--where {str(text)[:60]!r} is not allowed; allowed: FIELD=VALUE "
                             f"with FIELD one of {', '.join(FIELDS)}")
        out.append((field, value.strip()))
    return out


def parse_since(text: str | None) -> str | None:
    """A date (``2026-12-01``) or time (``2026-12-01T14:00``, UTC) as the ISO text that
    recorded times compare with; SweepError otherwise."""
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(str(text).strip())
    except ValueError:
        raise SweepError(f"--since {str(text)[:40]!r} is not allowed; allowed: a date "
                         "YYYY-MM-DD or a time YYYY-MM-DDTHH:MM (UTC)") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).isoformat(timespec="seconds")


def matches(r: dict, kind: str | None, where: list[tuple[str, str]], since: str | None) -> bool:
    """Whether row ``r`` passes the filters: its kind, each ``field=value`` (the value equal
    to the field as listed, or for changes, policies, label, user_label and command, a part
    of it) and an update at or after ``since``."""
    if kind is not None and kind not in r["kinds"]:  # a sweep arm a value run stored first too
        return False
    if since is not None and not (r["updated"] and r["updated"] >= since):
        return False
    for field, value in where:
        text = _field_text(r, field)
        if field in ("changes", "policies", "label", "user_label", "command"):
            if value.lower() not in text.lower():
                return False
        elif text != value:
            return False
    return True


def select(store: Store, kind: str | None = None, where=(), since: str | None = None
           ) -> list[dict]:
    """The catalogue rows that pass :func:`matches`."""
    conditions, after = parse_where(where), parse_since(since)
    if kind is not None and kind not in KINDS:
        raise SweepError(f"--kind {kind!r} is not allowed; allowed: {', '.join(KINDS)}")
    return [r for r in catalogue(store) if matches(r, kind, conditions, after)]


#: ``results list`` fits a terminal this wide; the rest of a row is in ``results show KEY``.
LIST_WIDTH = 100
#: Digits of the key in ``results list`` (more where two keys of the list share them).
LIST_KEY_DIGITS = 8
LIST_HEADER = ["updated", "key", "kind", "games", "what (label, changes from standard, …)"]


def list_what(r: dict) -> str:
    """What tells a row apart, in the order people look for it: ``internal`` for a run no
    person asked for, the user's label (quoted), the rules as changes from standard, the
    swapped rank, the policies where not all expert."""
    swap = "" if r["swap"] is None else (
        f"swap {r['swap']}" + ("" if r["swap_seat"] is None else f"@{r['swap_seat']}"))
    policies = policies_text(r["policies"])
    parts = ["internal" if r.get("internal") else "",
             f'"{r["user_label"]}"' if r["user_label"] else "",
             changes_text(r["changes"], r["rules_file"]), swap,
             "" if policies in ("all=expert", "") else f"policies {policies}"]
    return "; ".join(p for p in parts if p)


def _short_keys(keys: list[str]) -> dict[str, str]:
    """Each key's first :data:`LIST_KEY_DIGITS` characters, or as many more as tell it from
    the other keys of the list (a prefix every ``results`` subcommand takes)."""
    digits = LIST_KEY_DIGITS
    while len({k[:digits] for k in keys}) < len(set(keys)) and digits < max(map(len, keys)):
        digits += 1
    return {k: k[:digits] for k in keys}


def list_cells(r: dict, key: str | None = None) -> list[str]:
    """The cells of ``results list`` for row ``r`` (:data:`LIST_HEADER`), the last one whole."""
    return [str(r["updated"])[:10], key or r["key"], ",".join(r["kinds"]),
            f"{int(r['games']):,}", list_what(r)]


def list_text(rows: list[dict], width: int = LIST_WIDTH) -> str:
    """``results list``'s table, every line at most ``width`` characters: the last column is
    cut (ending in …) where the row is longer; ``results show KEY`` has all of it (command,
    seed, policies, engine)."""
    from ..formatting import format_table

    short = _short_keys([r["key"] for r in rows])
    cells = [list_cells(r, short[r["key"]]) for r in rows]
    fixed = [max(len(str(x)) for x in col) for col in zip(LIST_HEADER[:-1], *(c[:-1] for c in cells))]
    room = max(width - sum(fixed) - 2 * len(fixed), 1)
    header = LIST_HEADER[:-1] + [_cut(LIST_HEADER[-1], room)]
    return format_table(header, [c[:-1] + [_cut(c[-1], room)] for c in cells], "lllrl",
                        style="text")


def _cut(text: str, room: int) -> str:
    return text if len(text) <= room else text[:room - 1] + "…"
