"""Tuned policies: `expert` with a weight vector of its own, stored by name.

`expert` scores every legal card as a sum of features times weights (``engine.WEIGHT_NAMES``,
today's constants in ``engine.EXPERT_WEIGHTS``). A tuned policy is the same player with other
weights, fitted by ``vandatta-sim tune`` (:mod:`vandatta_sim.tune`) for one rule set, table size
and objective. It is named ``tuned:NAME`` wherever a policy is (``--policy all=tuned:NAME``,
``simulate(..., policies="tuned:NAME")``, a sweep's ``policy``) and reaches the kernel as its
seat's row of weights in the run's constant vector; its kernel policy is `expert`'s.

Where a name is looked up, in this order: the policies shipped with the package
(``vandatta_sim/tuned_policies/NAME.json``), the running command's ``--store`` (its ``tuned/``
folder; :func:`use_store`), the folders of ``$VANDATTA_TUNED`` (``:``-separated) and the default
result store's ``results/tuned/``. ``tune --store DIR`` writes to ``DIR/tuned/``: a command with
``--store DIR`` finds it there, any other with ``VANDATTA_TUNED=DIR/tuned``. A tune may not take
a shipped name (the shipped policy would always be found first). Each file holds the
weights, the rules and table size it was tuned for, the objective and the tuning run's
provenance (command, seeds, games, evaluations, CPU time, engine version, held-out validation).
A stored policy's weights never change under its name: shipped weights are part of the engine
(changing them changes games, so ``ENGINE_VERSION`` with them).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from . import engine as E
from .paths import PathError, read_json_file, shorten
from .rules import PRESETS, Rules

PREFIX = "tuned"
CATALOGUE = Path(__file__).parent / "tuned_policies"
#: The default result store's folder of tuned policies (``tune --store results``).
STORE_FOLDER = "tuned"
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
NAME_ALLOWED = "1–64 letters, digits, '_', '.', '-' (starting with a letter or digit)"
#: What one weight may be (the kernel adds them to int64 scores; far from overflow).
WEIGHT_LIMIT = 1 << 31


class TunedPolicyError(ValueError):
    """A tuned policy that cannot be found or read; the message is one line."""


@dataclass(frozen=True)
class TunedPolicy:
    """One stored weight vector: the weights by name, what it was tuned for, and how."""

    name: str
    weights: dict[str, int]
    rules: dict = field(default_factory=dict)  # Rules.canonical() of the tuned-for table
    objective: str = ""
    provenance: dict = field(default_factory=dict)

    def vector(self) -> tuple[int, ...]:
        return tuple(int(self.weights[w]) for w in E.WEIGHT_NAMES)

    def to_json(self) -> str:
        data = {"name": self.name, "weights": {w: int(self.weights[w]) for w in E.WEIGHT_NAMES},
                "rules": self.rules, "objective": self.objective, "provenance": self.provenance}
        return json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def check_name(name) -> str:
    """A tuned policy's name as given, or TunedPolicyError (letters, digits, _ . -)."""
    text = str(name).strip()
    if not NAME_PATTERN.match(text):
        raise TunedPolicyError(f"tuned policy name {text!r} is not allowed; allowed: "
                               f"{NAME_ALLOWED}")
    return text


def check_weights(weights, where: str) -> dict[str, int]:
    """``weights`` (a mapping of every name in engine.WEIGHT_NAMES to an integer) checked."""
    if not isinstance(weights, dict) or set(weights) != set(E.WEIGHT_NAMES):
        raise TunedPolicyError(f"{where}: weights must name exactly {', '.join(E.WEIGHT_NAMES)}")
    for name, value in weights.items():
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= WEIGHT_LIMIT:
            raise TunedPolicyError(f"{where}: weight {name} = {value!r} is not allowed; allowed: "
                                   f"an integer of magnitude below 2^31")
    return {w: int(weights[w]) for w in E.WEIGHT_NAMES}


#: The running command's --store folder of tuned policies (:func:`use_store`), or None.
_store_folder: Path | None = None
#: How a policy tuned into another store is found: said wherever a name is not found.
ELSEWHERE = ("a policy tuned with --store DIR is found by commands given --store DIR, by others "
             "with VANDATTA_TUNED=DIR/tuned")


def use_store(store) -> None:
    """Look names up in ``STORE/tuned/`` too (after the shipped ones): a command's --store."""
    global _store_folder
    _store_folder = Path(store) / STORE_FOLDER


def folders() -> list[Path]:
    """Where names are looked up, first match wins (see the module's docstring)."""
    extra = [Path(p) for p in os.environ.get("VANDATTA_TUNED", "").split(":") if p.strip()]
    found: list[Path] = []
    for folder in (CATALOGUE, _store_folder, *extra, Path("results") / STORE_FOLDER):
        if folder is not None and folder not in found:
            found.append(folder)
    return found


def names() -> list[str]:
    """Every tuned policy that can be named here, in lookup order, each once."""
    seen: list[str] = []
    for folder in folders():
        try:
            paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
        except OSError:  # an unreadable folder on the search path holds nothing to name
            paths = []
        for path in paths:
            if NAME_PATTERN.match(path.stem) and path.stem not in seen:
                seen.append(path.stem)
    return seen


def find(name: str) -> Path:
    name = check_name(name)
    for folder in folders():
        path = folder / f"{name}.json"
        if path.is_file():
            return path
    known = ", ".join(names()) or "none"
    raise TunedPolicyError(f"policy 'tuned:{name}': no tuned policy of that name; allowed: "
                           f"{known} (make one with `vandatta-sim tune`; {ELSEWHERE})")


@lru_cache(maxsize=256)
def _read(path: str, mtime_ns: int) -> TunedPolicy:
    try:
        data = read_json_file(path, "tuned policy file")
        policy = TunedPolicy(name=str(data["name"]), weights=data["weights"],
                             rules=dict(data.get("rules", {})), objective=str(data["objective"]),
                             provenance=dict(data.get("provenance", {})))
    except PathError as exc:
        raise TunedPolicyError(str(exc)) from None
    except (ValueError, KeyError, TypeError) as exc:
        raise TunedPolicyError(f"tuned policy file {path!r} cannot be read: "
                               f"{shorten(str(exc))}") from None
    check_weights(policy.weights, f"tuned policy file {path!r}")
    return policy


def read_file(path: Path) -> TunedPolicy:
    """The tuned policy stored in the file ``path`` (TunedPolicyError if it is broken); read
    once per modification of the file."""
    return _read(str(path), path.stat().st_mtime_ns)


def load(name: str) -> TunedPolicy:
    """The stored tuned policy ``name`` (TunedPolicyError if there is none or it is broken)."""
    return read_file(find(name))


def is_tuned(spec: str) -> bool:
    return str(spec).strip().split(":", 1)[0].strip() == PREFIX


def check_spec(spec: str) -> str:
    """``tuned:NAME`` checked (the name must be stored) and spelled canonically."""
    head, _, rest = str(spec).strip().partition(":")
    if not rest.strip() or ":" in rest:
        known = ", ".join(names()) or "none stored yet"
        raise TunedPolicyError(f"policy {str(spec).strip()!r} is not allowed; allowed: "
                               f"tuned:NAME with NAME one of {known}")
    load(rest.strip())
    return f"{PREFIX}:{rest.strip()}"


def weights_of(spec: str) -> tuple[int, ...]:
    """The weight vector a seat with policy ``spec`` plays: its stored one for ``tuned:NAME``,
    `expert`'s constants for every other policy."""
    if is_tuned(spec):
        return load(str(spec).split(":", 1)[1].strip()).vector()
    return E.EXPERT_WEIGHTS


def for_rules(rules: Rules) -> list[str]:
    """The names of the stored policies tuned for exactly these rules (table size included)."""
    wanted = rules.canonical()
    return [n for n in names() if load(n).rules == wanted]


def shipped() -> list[str]:
    """The names of the policies shipped with the package: `standard`'s first, then by name."""
    found = [p.stem for p in CATALOGUE.glob("*.json") if NAME_PATTERN.match(p.stem)]
    return sorted(found, key=lambda n: (not n.startswith("standard-"), n))


def table_name(rules: dict) -> str:
    """The table a stored policy was tuned for, in preset words: the presets these rules are at
    their table size, else `standard` with the fields that differ."""
    mine = Rules().replace(**rules)
    same = [n for n, preset in PRESETS.items() if preset.replace(players=mine.players) == mine]
    if same:
        return " = ".join(f"`{n}`" for n in same)
    changed = mine.diff(PRESETS["standard"].replace(players=mine.players))
    return "`standard`, " + ", ".join(f"{k} = {v}" for k, v in changed.items())


def catalogue_markdown() -> str:
    """The shipped policies as a markdown table, every figure from the files' own provenance
    (docs/policies.md carries it verbatim: ``python scripts/tuned_players.py --shipped``)."""
    lines = ["| policy | rules | players | match | objective | held-out tuned − `expert` "
             "(paired, 95%) | held-out games | training games | CPU seconds |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name in shipped():
        p = load(name)
        prov, check = p.provenance, p.provenance["validation"]
        factor, unit = (1, " points") if p.objective == "points" else (100, " pp")
        verdict = ("better" if check["low"] > 0 else "worse" if check["high"] < 0
                   else "not told apart")
        lines.append(
            f"| `tuned:{name}` | {table_name(p.rules)} | {p.rules['players']} | "
            f"{p.rules['match']} | {p.objective} | {factor * check['value']:+.2f}{unit} "
            f"[{factor * check['low']:+.2f}, {factor * check['high']:+.2f}], {verdict} | "
            f"{check['n']:,} (seed {prov['validation_seed']}) | {prov['training_games']:,} "
            f"(seed {prov['training_seed']}) | {prov['cpu_seconds']:.0f} |")
    return "\n".join(lines) + "\n"


__all__ = ["TunedPolicy", "TunedPolicyError", "catalogue_markdown", "check_name", "check_spec",
           "check_weights", "folders", "use_store", "for_rules", "is_tuned", "load", "names",
           "read_file", "shipped", "table_name", "weights_of"]
