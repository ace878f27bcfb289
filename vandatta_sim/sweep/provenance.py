"""What ``provenance.json`` holds: how a configuration's games were made, run by run.

Rules, seats, seed, chunking, versions, command and backend, and a record of the last 20 runs,
each when started and when finished. So that a run can be found again (``results list``), it
also records its kind (``sweep``, ``value``, ``report``, ``design``), the rules as changes from
``standard`` (and the rules file they came from), the scale, the swapped rank and a user
label. What describes the configuration is kept from its first run: a later run of the same
key (another sweep with other labels, say) never relabels it; only ``--label`` or ``results
label`` set the user label. Callers hold the key's lock (:meth:`Store.lock`) from
:func:`start_provenance` to :func:`finish_provenance`, so the read-modify-write of the run history
is never interleaved with another run's, and every write is atomic (temporary file + rename).
"""

from __future__ import annotations

import importlib.metadata
import sys
from collections.abc import Iterable
from datetime import UTC, datetime

from .. import ENGINE_VERSION, __version__
from ..rules import PRESETS, get_preset
from ..store import Store
from .config import Config


def package_versions(extra: Iterable[str] = ()) -> dict:
    out = {"python": sys.version.split()[0]}
    for name in ("numpy", "numba", "pandas", "pyarrow", "scipy", "click", *extra):
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            pass
    return out


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


#: What a run may tell about itself beyond its configuration (``run_sweep(record=…)``).
RECORD_FIELDS = ("kind", "rules_file", "user_label")
#: The kinds of stored runs.
KINDS = ("sweep", "value", "report", "design")
#: Fields that describe the configuration, kept from its first run.
FIRST_RUN_FIELDS = ("label", "kind", "rules_file", "command", "created")


def _jsonable_diff(diff: dict) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in diff.items()}


def _provenance(config: Config, key: str, seed: int, chunk_size: int, command: str,
                backend: str, versions: dict) -> dict:
    preset = config.preset
    if preset is None:
        preset = next((n for n, r in PRESETS.items() if r == config.rules), None)
    diff = None
    if preset in PRESETS:
        diff = _jsonable_diff(config.rules.diff(get_preset(preset)))
    scale = config.rules.scale
    return {
        "key": key, "label": config.label, "rules": config.rules.canonical(),
        "rules_key": config.rules.key(), "rules_preset": preset, "rules_diff": diff,
        "changes": _jsonable_diff(config.rules.diff(get_preset("standard"))),
        "scale": list(scale) if isinstance(scale, tuple) else scale,
        "players": config.rules.players, "policies": list(config.seats.policies),
        "forget": [float(f) for f in config.seats.forget], "match": config.rules.match,
        "swap": config.swap, "swap_seat": config.swap_seat,
        "valuation": list(config.valuation) if isinstance(config.valuation, tuple)
        else config.valuation, "seed": seed,
        "chunk_size": chunk_size, "engine_version": ENGINE_VERSION,
        "simulator_version": __version__, "packages": versions, "command": command,
        "backend": backend,
    }


def start_provenance(store: Store, config: Config, key: str, seed: int, chunk_size: int,
                     stored: dict[int, int], command: str, backend: str, versions: dict,
                     settings: dict, record: dict | None = None) -> None:
    """Record a run of ``config`` starting: its description, the run (command, backend,
    ``settings``, ``record``'s kind) appended to the last 20 runs, and the ``stored`` chunks'
    rows. ``record``: :data:`RECORD_FIELDS` (kind, default ``sweep``; rules file; user label).
    The fields of :data:`FIRST_RUN_FIELDS` keep their first run's value; the user label is
    replaced only by one given."""
    record = {k: v for k, v in (record or {}).items() if v is not None}
    fresh = _provenance(config, key, seed, chunk_size, command, backend, versions)
    fresh |= {"kind": record.get("kind", "sweep"), "rules_file": record.get("rules_file"),
              "created": _now()}
    try:
        old = store.read_provenance(key)
    except (KeyError, ValueError):  # none yet, or damaged: start a fresh record
        old = {}
    kept = {k: old[k] for k in FIRST_RUN_FIELDS if old.get(k) is not None}
    label = {"user_label": record["user_label"]} if "user_label" in record else {}
    run = {"command": command, "backend": backend, "started": _now(),
           "kind": fresh["kind"]} | settings
    runs = (old.get("runs") or [])[-19:] + [run]
    store.write_provenance(key, old | fresh | kept | label | {
        "runs": runs, "games_stored": sum(stored.values()), "chunks_stored": len(stored)})


def finish_provenance(store: Store, key: str, *, interrupted: bool, new_games: int,
                      games: int | None, precision: float | None = None,
                      reached: float | None = None, target_reached: bool | None = None,
                      max_games: int | None = None) -> None:
    """Record the last run of ``key`` finishing: whether it was interrupted, the games it added
    and the games the configuration now has (None: fewer than asked), what is really stored,
    and for a precision run that was not interrupted, the target and the half-width
    ``reached`` after ``games`` games (``max_games`` the cap)."""
    prov = store.read_provenance(key)
    runs = prov.get("runs") or [{}]
    runs[-1] = runs[-1] | {"finished": _now(), "interrupted": interrupted,
                           "new_games": new_games, "games": games}
    rows = store.chunk_rows(key)  # what is really there, whatever failed
    fields = {"runs": runs, "games_stored": sum(rows.values()), "chunks_stored": len(rows),
              "updated": _now()}
    if precision is not None and not interrupted:
        fields["precision"] = {"target": precision, "reached": reached,
                               "target_reached": target_reached, "games": games,
                               "max_games": max_games}
    store.update_provenance(key, **fields)
