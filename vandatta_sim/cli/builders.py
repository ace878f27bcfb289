"""From the parsed options to the library's objects: the rules, the seats, checked paths.

Each builder raises the library's own validation errors (turned into one ``Error:`` line by
:func:`~vandatta_sim.cli.errors.usage_errors`). Nothing here imports the engine at import time.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass

import click

from ..paths import check_output_file, check_store_folder
from ..rules import Rules, RulesError, given_twice, resolve_rules, same_preset, settings
from .errors import usage_errors


@dataclass(frozen=True)
class TableOptions:
    """What ``options.rules_options`` and ``options.seat_options`` give a command, as click
    parses them: a command's options dataclass extends it with its own."""

    preset: str | None
    rules_file: str | None
    overrides: tuple
    players: int | None
    match: str | None
    policies: tuple
    forget: tuple


def build_rules(preset, rules_file, overrides, players=None, match=None) -> Rules:
    """The rules of preset/file/``--set`` with the ``--players``/``--match`` shortcuts; a field
    given twice (by ``--set`` twice, or by a shortcut and ``--set``) is an error naming both,
    by the one rule of :func:`vandatta_sim.rules.settings`."""
    shortcuts = [("players", players, f"--players {players}"),
                 ("match", match, f"--match {match}")]
    settings(overrides, shortcuts)  # refuses a field given twice before anything is read
    check_preset_once(preset, rules_file)
    given = {name: f"--set {text.strip()}" for name, text in
             ((text.partition("=")[0].strip(), text) for text in overrides)}
    overrides = [*overrides, *(f"{name}={value}" for name, value, _ in shortcuts
                               if value is not None)]
    rules = resolve_rules(preset=preset, file=rules_file, overrides=overrides)
    # after resolve_rules: it has checked the file (regular, small, shallow) before this reads it
    check_file_fields_once(rules_file, {name: source for name, value, source in shortcuts
                                        if value is not None} | given)
    return rules


def check_preset_once(preset, rules_file) -> None:
    """A ``--preset`` other than the one the ``--rules`` file names is an error (the file's
    would win silently); a preset and its family name are one preset."""
    file_preset = _file_preset(rules_file) if preset is not None else None
    if file_preset is not None and not same_preset(file_preset, preset):
        raise RulesError(f"preset is given twice (--preset {preset} and preset = "
                         f"{file_preset!r} in {rules_file}); give it once")


def check_file_fields_once(rules_file, given: dict[str, str]) -> None:
    """A field that the ``--rules`` file sets and an option sets again (``given``: field →
    the option as typed) is an error, as a preset given twice is: one of them would win
    silently. Call it once the file has been read by
    :func:`~vandatta_sim.rules.resolve_rules` (which refuses a file that is not a small
    regular one)."""
    if rules_file is None or not given:
        return
    try:
        with open(rules_file, "rb") as f:
            fields = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return  # reported by resolve_rules, in its own words
    for name, option in given.items():
        if name in fields:
            raise given_twice(name, option, f"{name} in {rules_file}")


def _file_preset(rules_file) -> str | None:
    """The ``preset`` a rules file names, or None (an unreadable file is reported later, by
    :func:`~vandatta_sim.rules.resolve_rules`, in its own words)."""
    if rules_file is None:
        return None
    try:
        with open(rules_file, "rb") as f:
            preset = tomllib.load(f).get("preset")
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return preset if isinstance(preset, str) else None


def warn_inert(rules: Rules, seats=None, seen: set | None = None) -> None:
    """One line on stderr per rule setting that cannot change any game of this configuration
    (:func:`vandatta_sim.rulebook.inert_settings`), each distinct line once per ``seen`` set.

    Without ``seats`` (``rules show``) nobody's forgetting is known, so only the settings that
    are inert whatever the seats do are reported."""
    from ..rulebook import inert_settings, show_value

    forgetting = True if seats is None else any(seats.forget)
    for name, reason in inert_settings(rules, forgetting=forgetting):
        value = show_value(getattr(rules, name))
        line = f"Warning: {name} = {value} changes nothing here: {reason}"
        if seen is None or line not in seen:
            click.echo(line, err=True)
        if seen is not None:
            seen.add(line)


def changes_text(diff) -> str:
    """Rule changes as ``field=value, …`` (booleans as in TOML); empty when there are none."""
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in (diff or {}).items())


def build_seats(rules: Rules, policies, forget):
    """The :class:`~vandatta_sim.simulate.Seats` of the options (imported here: the engine
    loads only when a command plays)."""
    from ..simulate import Seats

    return Seats.build(rules.players, list(policies) or None, list(forget) or None)


def check_user_file(out: str | None, suffixes: tuple[str, ...], what: str = "--out") -> None:
    """A user file to write: one Error line (exit 2) before any work for a path that cannot
    be written (see :func:`vandatta_sim.paths.check_output_file`)."""
    if out is not None:
        with usage_errors():
            check_output_file(out, what, suffixes)


def check_store_path(store, write: bool = True) -> None:
    """The --store folder: one Error line (exit 2) before any work for a path that is not a
    folder or, with ``write``, where nothing can be created."""
    with usage_errors():
        check_store_folder(store, "--store", write=write)
