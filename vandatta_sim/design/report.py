"""A design's outputs: the ranked table, the changes in words, the verdict, files and figure.

Everything here reads a :class:`~.search.DesignResult`: the finalists' fresh measurements (the
numbers reported) and the trials' own measurements (only in the figure, grey, to show how much
the re-measurement moved them).
"""

from __future__ import annotations

import math
from pathlib import Path

from ..atomic import write_atomically
from ..rulebook import PARAMETERS, show_value
from ..rules import Rules
from .search import Candidate, DesignResult, seeds_used
from .spec import DesignSpec

STANDARD = Rules()


def candidate_rules(spec: DesignSpec, cand: Candidate) -> Rules:
    """The rule set at the spec's first table size."""
    return spec.rules_for(cand.params, spec.players[0])


def _changes(spec: DesignSpec, cand: Candidate, players: bool = False) -> dict[str, object]:
    """Fields that differ from ``standard``; the table size (who sits down, not a rule) only
    with ``players`` and one table size (the rules file)."""
    diff = candidate_rules(spec, cand).diff(STANDARD)
    if not players or len(spec.players) > 1:
        diff.pop("players", None)
    return diff


def changes_short(spec: DesignSpec, cand: Candidate) -> str:
    diff = _changes(spec, cand)
    return ", ".join(f"{k}={show_value(v)}" for k, v in diff.items()) or "standard"


def changes_in_words(spec: DesignSpec, cand: Candidate) -> list[str]:
    """One line per change from standard: what the rule decides, the new and the usual value."""
    return [f"{PARAMETERS[k].summary}: {show_value(v)} (standard: "
            f"{show_value(getattr(STANDARD, k))})" for k, v in _changes(spec, cand).items()]


def _measures(spec: DesignSpec) -> dict[str, list[int]]:
    """Each measure the goals name, with the goals on it (two caps of one measure share it)."""
    out: dict[str, list[int]] = {}
    for i, g in enumerate(spec.goals):
        out.setdefault(g.measure, []).append(i)
    return out


def _goal_cell(spec: DesignSpec, cand: Candidate, goals: list[int], n: int) -> str:
    """The measure's fresh estimate, marked ``ok`` when every target or cap on it is met and
    ``MISSED`` when one is not."""
    est = cand.estimates[n][goals[0]]
    met = [spec.goals[i].met(est.value) for i in goals]
    judged = [m for m in met if m is not None]
    mark = "" if not judged else (" ok" if all(judged) else " MISSED")
    return spec.goals[goals[0]].measure_info.show_estimate(est) + mark


def _goal_headers(spec: DesignSpec) -> list[tuple[list[int], int, str]]:
    out = []
    for goals in _measures(spec).values():
        name = spec.goals[goals[0]].measure_info.words
        for n in spec.players:
            out.append((goals, n, name if len(spec.players) == 1 else f"{name} ({n}p)"))
    return out


def ranked_rows(result: DesignResult) -> tuple[list[str], list[list[str]]]:
    spec = result.spec
    cols = _goal_headers(spec)
    header = ["rank", "trial", "changes from standard", *(c[2] for c in cols),
              *(["caps met"] if spec.caps else [])]
    rows = []
    for rank, cand in enumerate(result.finalists, 1):
        rows.append([str(rank), str(cand.trial + 1), changes_short(spec, cand),
                     *(_goal_cell(spec, cand, i, n) for i, n, _ in cols),
                     *(["yes" if cand.feasible(spec) else "no"] if spec.caps else [])])
    return header, rows


def _goal_words(spec: DesignSpec, cand: Candidate) -> list[str]:
    """Each measure's fresh estimate in words, with whether its targets and caps are met
    (clearly: the whole interval inside the limits)."""
    out = []
    for goals in _measures(spec).values():
        m = spec.goals[goals[0]].measure_info
        for n in spec.players:
            est = cand.estimates[n][goals[0]]
            where = f" at {n} players" if len(spec.players) > 1 else ""
            judged = [spec.goals[i] for i in goals if spec.goals[i].met(0.0) is not None]
            if not judged:
                state = ""
            elif not all(g.met(est.value) for g in judged):
                state = " (missed)"
            elif all(g.met(est.low) and g.met(est.high) for g in judged):
                state = " (met)"
            else:
                state = " (met by the estimate; its interval reaches past the limit)"
            out.append(f"{m.words}{where} {m.show_estimate(est)}{state}")
    return out


def _pick_by_goal(spec: DesignSpec, finalists: list[Candidate]) -> str:
    """For a front: which finalist is best at each optimised goal (feasible ones only)."""
    pool = [c for c in finalists if c.feasible(spec)] or finalists
    parts = []
    for j, goal in enumerate(spec.objectives):
        i = spec.goals.index(goal)
        best = min(pool, key=lambda c: c.losses(spec)[j])
        rank = finalists.index(best) + 1
        est = best.estimates[spec.players[0]][i]
        parts.append(f"for {goal.words.split(':')[0]} first, rank {rank} "
                     f"({goal.measure_info.show_estimate(est)})")
    return "; ".join(parts)


def verdict(result: DesignResult) -> str:
    """The plain answer: the recommended rules and whether they give the table what it asked."""
    spec = result.spec
    best = result.finalists[0]
    missed = [g.measure_info.words for i, g in enumerate(spec.goals)
              if any(g.met(best.estimates[n][i].value) is False for n in spec.players)]
    changes = changes_in_words(spec, best)
    parts = [f"Play with: {'; '.join(changes) if changes else 'the standard rules as they are'}."]
    if spec.mode == "pareto" and len(result.finalists) > 1:
        parts.append("The finalists trade the goals against each other (a front); pick "
                     + _pick_by_goal(spec, result.finalists) + ".")
    measured = "; ".join(_goal_words(spec, best))
    if missed:
        parts.append(f"No rule set tried meets every goal with {spec.policy} in every seat; "
                     f"rank 1 is the closest and misses {', '.join(missed)}: {measured}.")
    elif any(g.met(0.0) is not None for g in spec.goals):
        parts.append(f"Played by {spec.policy} in every seat, rank 1 meets every goal with a "
                     f"limit: {measured}.")
    else:
        parts.append(f"Played by {spec.policy} in every seat, rank 1 gives: {measured}.")
    return " ".join(parts)


def how_measured(result: DesignResult) -> str:
    spec = result.spec
    unit = "deals" if spec.base.match == "single" else "games"
    seeds = sorted(seeds_used(result.final_seed, spec))
    return (f"{len(result.tried)} distinct rule sets tried in {result.trials} trials "
            f"({result.failed} could not be dealt or measured), each on the same "
            f"{spec.games:,} {unit} of seed {spec.seed} per table; the best "
            f"{len(result.finalists)} measured again on {spec.final_games:,} fresh {unit} each "
            f"(seeds {seeds[0]}…{seeds[-1]}, which no trial used), and only those "
            f"measurements are shown. Players: {spec.policy} in every seat"
            + (" (skill: the focal seat's player swapped, the others as the weak player)"
               if any(g.measure_info.needs == "skill" for g in spec.goals) else "")
            + f"; 95% intervals.")


def design_text(result: DesignResult, files: list[Path] | None = None) -> str:
    from ..tables import format_table

    spec = result.spec
    header, rows = ranked_rows(result)
    lines = [f"Design: {spec.title}",
             "Goals: " + "; ".join(g.words for g in spec.goals)
             + f" ({'one score' if spec.mode != 'pareto' else 'a Pareto front'})",
             format_table(header, rows, "rrl" + "r" * (len(header) - 3), style="text"),
             how_measured(result)]
    for rank, cand in enumerate(result.finalists, 1):
        words = changes_in_words(spec, cand) or ["no changes: the standard rules"]
        lines.append(f"rank {rank}: " + "; ".join(words))
    if files:
        lines.append("rules files: " + ", ".join(str(f) for f in files)
                     + " (use with --rules FILE)")
    lines.append("Verdict: " + verdict(result))
    return "\n".join(lines)


def rules_file_text(result: DesignResult, rank: int) -> str:
    """A rules file (``--rules``) of a finalist, with where it came from in comments."""
    spec, cand = result.spec, result.finalists[rank - 1]
    rules = candidate_rules(spec, cand)
    keep = _changes(spec, cand, players=True)
    body = [line for line in rules.to_toml().splitlines() if line.split(" = ")[0] in keep]
    comments = [f"Designed by `vandatta-sim design {spec.source}` for: {spec.title}",
                f"Rank {rank} of {len(result.finalists)} finalists (trial {cand.trial + 1} of "
                f"{result.trials}; {len(result.tried)} distinct rule sets tried).",
                "Measured on fresh games: " + "; ".join(_goal_words(spec, cand)) + ".",
                *(f"Change: {w}" for w in changes_in_words(spec, cand))]
    if len(spec.players) > 1:
        comments.append(f"Designed for {', '.join(map(str, spec.players))} players: add "
                        "--players N.")
    return "".join(f"# {c}\n" for c in comments) + 'preset = "standard"\n' + "\n".join(
        body) + ("\n" if body else "")


def write_rules_files(result: DesignResult, folder) -> list[Path]:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for rank in range(1, len(result.finalists) + 1):
        path = folder / f"rank-{rank}.toml"
        text = rules_file_text(result, rank)
        write_atomically(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"),
                         "rules file")
        out.append(path)
    # an earlier run's ranks beyond this one's (it had more finalists) would read as this
    # run's: removed, and only files of exactly that name
    for stale in folder.glob("rank-*.toml"):
        number = stale.name[len("rank-"):-len(".toml")]
        if number.isascii() and number.isdigit() and stale not in out and stale.is_file():
            stale.unlink()
    return out


def _number(x: float):
    return x if math.isfinite(x) else None


def design_json(result: DesignResult, files: list[Path] | None = None) -> dict:
    spec = result.spec
    finalists = []
    for rank, cand in enumerate(result.finalists, 1):
        goals = []
        for i, g in enumerate(spec.goals):
            for n in spec.players:
                est = cand.estimates[n][i]
                goals.append({"measure": g.measure, "goal": g.words, "players": n,
                              "value": _number(est.value), "low": _number(est.low),
                              "high": _number(est.high), "n": est.n,
                              "met": g.met(est.value)})
        finalists.append({"rank": rank, "trial": cand.trial + 1, "params": cand.labels,
                          "changes": {k: show_value(v) for k, v in _changes(spec, cand).items()},
                          "changes_in_words": changes_in_words(spec, cand),
                          "feasible": cand.feasible(spec), "goals": goals,
                          "rules_file": str(files[rank - 1]) if files else None})
    return {"title": spec.title, "spec": spec.source, "study": spec.study_name(),
            "storage": result.storage, "mode": spec.mode, "policy": spec.policy,
            "players": list(spec.players), "trials": result.trials,
            "new_trials": result.new_trials, "failed_trials": result.failed,
            "distinct_rule_sets": len(result.tried), "games": spec.games,
            "final_games": spec.final_games, "trial_seeds": sorted(seeds_used(spec.seed, spec)),
            "final_seeds": sorted(seeds_used(result.final_seed, spec)),
            "finalists": finalists, "verdict": verdict(result)}


def _axis_label(m) -> str:
    unit = "%" if m.kind == "share" else "pp" if m.kind == "edge" else m.unit
    return f"{m.words} ({unit})" if unit else m.words


def plot_design(result: DesignResult, path) -> None:
    """Per optimised goal: every distinct rule set's trial measurement (grey) and the
    finalists' fresh ones (interval, rank); with two goals or more, also the first two goals
    against each other (the front)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..plots import save_figure

    spec = result.spec
    n = spec.players[0]
    goals = [i for i, g in enumerate(spec.goals) if not g.is_cap]
    panels = len(goals) + (1 if len(goals) >= 2 else 0)
    fig, axes = plt.subplots(1, panels, figsize=(4.6 * panels, 3.8), squeeze=False)
    axes = axes[0]
    ok = [c for c in result.tried if c.feasible(spec)]
    bad = [c for c in result.tried if not c.feasible(spec)]
    for ax, i in zip(axes, goals):
        m = spec.goals[i].measure_info
        ax.scatter([c.trial + 1 for c in ok], [c.estimates[n][i].value * m.scale for c in ok],
                   s=12, color="0.6", label="trials (search games)")
        if bad:
            ax.scatter([c.trial + 1 for c in bad],
                       [c.estimates[n][i].value * m.scale for c in bad], s=14, marker="x",
                       color="0.75", label="trials breaking a cap")
        for rank, c in enumerate(result.finalists, 1):
            e = c.estimates[n][i]
            ax.errorbar([c.trial + 1], [e.value * m.scale],
                        yerr=[[(e.value - e.low) * m.scale], [(e.high - e.value) * m.scale]],
                        fmt="o", color=f"C{rank - 1}", capsize=3, label=f"rank {rank} (fresh)")
        ax.set_xlabel("trial")
        ax.set_ylabel(_axis_label(m))
    axes[0].legend(fontsize=7)
    if len(goals) >= 2:
        ax = axes[-1]
        (i, j), mi, mj = goals[:2], spec.goals[goals[0]].measure_info, \
            spec.goals[goals[1]].measure_info
        for group, marker, color in ((ok, "o", "0.6"), (bad, "x", "0.75")):
            ax.scatter([c.estimates[n][i].value * mi.scale for c in group],
                       [c.estimates[n][j].value * mj.scale for c in group], s=12,
                       marker=marker, color=color)
        for rank, c in enumerate(result.finalists, 1):
            a, b = c.estimates[n][i], c.estimates[n][j]
            ax.errorbar([a.value * mi.scale], [b.value * mj.scale],
                        xerr=[[(a.value - a.low) * mi.scale], [(a.high - a.value) * mi.scale]],
                        yerr=[[(b.value - b.low) * mj.scale], [(b.high - b.value) * mj.scale]],
                        fmt="o", color=f"C{rank - 1}", capsize=3)
            ax.annotate(str(rank), (a.value * mi.scale, b.value * mj.scale), fontsize=8,
                        xytext=(4, 4), textcoords="offset points")
        ax.set_xlabel(_axis_label(mi))
        ax.set_ylabel(_axis_label(mj))
        ax.set_title("the front", fontsize=9)
    fig.suptitle(f"{spec.title} ({n} players)", fontsize=9)
    fig.tight_layout()
    try:
        save_figure(fig, path, "figure", dpi=110)  # atomic and byte-stable
    finally:
        plt.close(fig)
