"""``vandatta-sim tune``: fit `expert`'s weights to a table and store them as ``tuned:NAME``.

A thin layer over :mod:`vandatta_sim.tune` (CMA-ES on paired games, resumable, validated on
held-out seeds). ``--list`` shows the tuned policies that can be named here.
"""

from __future__ import annotations

import shlex
import sys
import textwrap
from dataclasses import dataclass

import click

from .interrupts import interrupts_end_the_run
from .builders import build_rules, check_store_path
from .errors import usage_errors
from .options import (overrides_option, players_option, preset_option, rules_file_option,
                      seed_option, store_option, threads_option)
from .paramtypes import ASCII_INT


@click.command("tune")
@click.argument("name", required=False)
@preset_option
@rules_file_option
@overrides_option
@players_option
@click.option("--objective", default="match", show_default=True, metavar="match|deals|points",
              help="What the seat maximises: match wins (the rules' match), deal wins, or "
                   "fewest penalty points (single deals).")
@click.option("--generations", type=ASCII_INT, default=10, show_default=True,
              help="CMA-ES generations (a rerun with more continues the stored run).")
@click.option("--population", type=ASCII_INT, default=8, show_default=True,
              help="Candidates per generation (≥ 4).")
@click.option("--candidate-games", "games", type=ASCII_INT, default=800, show_default=True,
              help="Games per candidate and generation, a multiple of the players (the focal "
                   "seat rotates).")
@click.option("--validation-games", type=ASCII_INT, default=20_000, show_default=True,
              help="Held-out games of the final check against expert (paired).")
@seed_option
@threads_option
@store_option
@click.option("--list", "list_only", is_flag=True, help="List the stored tuned policies.")
def tune_cmd(**options):
    """Tune expert's weights for a rule set, table size and objective; store tuned:NAME.

    One seat plays the candidate weights against expert at the others (the focal seat rotated);
    every candidate of a generation plays the same games. The state is saved after every
    generation in STORE/tuned/NAME.run/: the same command again resumes. Example:
    vandatta-sim tune std-hundred-4 --preset standard --players 4 --objective match.
    Training games use seed 2*SEED, the held-out check 2*SEED+1.
    """
    from .. import tuned

    o = TuneOptions(**options)
    tuned.use_store(o.store)  # --list and the names below see this store's tuned policies
    if o.list_only:
        _list()
        return
    from ..simulate import check_threads
    from ..tune import check_settings, run

    with usage_errors():
        if o.name is None:
            raise click.UsageError("NAME is missing; allowed: a name for the tuned policy "
                                   "(or --list)")
        rules = build_rules(o.preset, o.rules_file, o.overrides, players=o.players)
        settings = check_settings(o.name, rules, o.objective, o.generations, o.population,
                                  o.games, o.validation_games, o.seed)
        check_threads(o.threads)
        check_store_path(o.store)
    command = shlex.join(["vandatta-sim", *sys.argv[1:]])
    message = (f"interrupted: finished generations are stored in {o.store}/tuned/{o.name}.run; "
               "run the same command again to resume")
    with interrupts_end_the_run(message), usage_errors():  # e.g. a run of other settings
        result = run(settings, o.store, threads=o.threads, command=command, progress=click.echo)
    click.echo(result_text(result, o.store))


@dataclass(frozen=True)
class TuneOptions:
    """The options of ``tune`` as click parses them (one field per option)."""

    name: str | None
    preset: str | None
    rules_file: str | None
    overrides: tuple
    players: int | None
    objective: str
    generations: int | None
    population: int | None
    games: int | None
    validation_games: int | None
    seed: int | None
    threads: int | None
    store: str
    list_only: bool


def result_text(result, store) -> str:
    from ..tune import OBJECTIVES

    p = result.policy
    prov = p.provenance
    est = result.validation
    what = OBJECTIVES[p.objective]
    diff = held_out_text(p.objective, est.value, est.low, est.high)
    if est.low > 0:
        verdict = f"tuned:{p.name} does better than expert in {what} on held-out games"
    elif est.high < 0:
        verdict = f"tuned:{p.name} does worse than expert in {what} on held-out games"
    else:
        verdict = (f"tuned:{p.name} and expert cannot be told apart in {what} at this "
                   "precision")
    return "\n".join([
        f"tuned:{p.name}: one seat against expert, {p.rules['players']} players, match "
        f"{p.rules['match'] if p.objective == 'match' else 'single'}, objective {what}",
        f"weights: {weights_text(p.weights)}",
        f"held-out check ({est.n:,} games, seed {prov['validation_seed']}): tuned "
        f"{prov['validation']['tuned_mean']:.4f}, expert {prov['validation']['expert_mean']:.4f}"
        f", tuned − expert {diff} (paired, 95%)",
        f"cost: {prov['training_games']:,} training games, {prov['cpu_seconds']:,} CPU seconds; "
        f"stored in {store}/tuned/{p.name}.json{_where_found(store)}",
        f"Verdict: {verdict}."])


def _where_found(store) -> str:
    """How the next command finds the policy: the default store is always searched."""
    from pathlib import Path

    from ..sweep import DEFAULT_STORE

    if Path(store).resolve() == Path(DEFAULT_STORE).resolve():
        return ""
    return (f" (found by commands given --store {shlex.quote(str(store))}, by others with "
            f"VANDATTA_TUNED={shlex.quote(str(Path(store) / 'tuned'))})")


def held_out_text(objective: str, value: float, low: float, high: float) -> str:
    """tuned − expert: in percentage points of wins (match or deal objective), or in penalty
    points; the interval's bounds rounded outward (it never shows narrower than computed)."""
    from ..experiments.plain import outward

    scale, unit = (1, " points") if objective == "points" else (100, " pp")
    lo, hi = outward(low, high, 2, scale)
    return (f"{scale * value:+.2f}{unit} [{'' if lo.startswith('-') else '+'}{lo}, "
            f"{'' if hi.startswith('-') else '+'}{hi}]")


def weights_text(weights: dict, joiner: str = " ") -> str:
    """The weights that differ from expert's, each as ``name expert's → tuned`` with thousands
    separators (the rest as expert's), so a reader sees what the tuning changed; ``joiner``
    between the words of one weight (one that no wrapping breaks)."""
    from ..engine import EXPERT_WEIGHTS, WEIGHT_NAMES

    expert = dict(zip(WEIGHT_NAMES, EXPERT_WEIGHTS))
    changed = [joiner.join([k, f"{expert[k]:,}", "→", f"{int(v):,}"])
               for k, v in weights.items()
               if int(v) != expert.get(k)]
    return ("changed from expert's: " + ", ".join(changed) + "; the others as expert's"
            if changed else "expert's own (none changed)")


def table_text(rules: dict) -> str:
    """The table a policy was tuned for, in preset words, each preset with its one-line
    description (`rules list`)."""
    from ..rules import PRESET_NOTES
    from ..tuned import table_name

    text = table_name(rules).replace("`", "")
    if ", " in text:  # standard with changes: the changes say it
        return text
    return " = ".join(f"{n} ({PRESET_NOTES.get(n, '')})" for n in text.split(" = "))


def _list() -> None:
    """Three lines per tuned policy that can be named here: the table it was tuned for (its
    preset described), the held-out check in percentage points (penalty points for that
    objective) and the weights it changed; a file that cannot be read is said on stderr and
    the others are still listed."""
    from .. import tuned
    from ..tune import OBJECTIVES

    names = tuned.names()
    if not names:
        click.echo("no tuned policies stored")
    for n in names:
        try:
            p = tuned.load(n)
            v = p.provenance.get("validation", {})
            check = [float(v[k]) for k in ("value", "low", "high")]
            games = v.get("n")
            lines = [f"tuned:{n}  for {table_text(p.rules)}",
                     f"  {p.rules.get('players')} players, match {p.rules.get('match')}, scale "
                     f"{p.rules.get('scale')}; objective {OBJECTIVES.get(p.objective, p.objective)}",
                     f"  held-out tuned − expert {held_out_text(p.objective, *check)} (paired, "
                     f"95%" + (f", {int(games):,} games)" if games else ")"),
                     *(line.replace("\0", " ") for line in textwrap.wrap(
                         f"weights: {weights_text(p.weights, joiner=chr(0))}", 100,
                         initial_indent="  ", subsequent_indent="    "))]
        except tuned.TunedPolicyError as exc:
            click.echo(f"warning: tuned:{n} is left out: {exc}", err=True)
            continue
        except (AttributeError, KeyError, TypeError, ValueError):
            click.echo(f"warning: tuned:{n} is left out: {tuned.find(n)} lacks its rules or "
                       "held-out check", err=True)
            continue
        click.echo("\n".join(lines))
