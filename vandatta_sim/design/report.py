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
from ..rules import Rules, RulesError, load_rules_text
from .search import Candidate, DesignResult, seeds_used
from .spec import DesignSpec

STANDARD = Rules()


def candidate_rules(spec: DesignSpec, cand: Candidate) -> Rules:
    """The rule set at the spec's first table size."""
    return spec.rules_for(cand.params, spec.players[0])


def fixed_rules(spec: DesignSpec) -> Rules:
    """The spec's fixed rules (preset, rules file, ``set``) at its first table size: what every
    candidate shares before the search changes anything."""
    return spec.base.replace(players=spec.players[0])


def _changes(spec: DesignSpec, cand: Candidate) -> dict[str, object]:
    """Fields that differ from ``standard``, fixed and searched alike, without the table size
    (who sits down, not a rule)."""
    diff = candidate_rules(spec, cand).diff(STANDARD)
    diff.pop("players", None)
    return diff


def search_changes(spec: DesignSpec, cand: Candidate) -> dict[str, object]:
    """What the search changed: the free parameters whose value differs from the fixed rules'
    (never the preset's or ``set``'s own settings, which every candidate shares)."""
    return candidate_rules(spec, cand).diff(fixed_rules(spec))


def fixed_changes(spec: DesignSpec) -> dict[str, object]:
    """The fixed rules' differences from ``standard`` (the table size apart)."""
    diff = fixed_rules(spec).diff(STANDARD)
    diff.pop("players", None)
    return diff


def _short(diff: dict) -> str:
    return ", ".join(f"{k}={show_value(v)}" for k, v in diff.items())


def changes_short(spec: DesignSpec, cand: Candidate) -> str:
    """The search's changes as ``field=value, …`` (``none`` where it kept the fixed rules)."""
    return _short(search_changes(spec, cand)) or "none"


def changes_in_words(spec: DesignSpec, cand: Candidate) -> list[str]:
    """One line per change the search made: what the rule decides, the new value and the one it
    replaces (the fixed rules', said as standard's where the two agree)."""
    fixed = fixed_rules(spec)
    out = []
    for k, v in search_changes(spec, cand).items():
        before = getattr(fixed, k)
        where = "standard" if before == getattr(STANDARD, k) else "fixed rules"
        out.append(f"{PARAMETERS[k].summary}: {show_value(v)} ({where}: {show_value(before)})")
    return out


def fixed_text(spec: DesignSpec) -> str:
    """The fixed rules in a few words: ``standard`` or its changes from it."""
    return _short(fixed_changes(spec)) or "standard"


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
    header = ["rank", "trial", "changed by the search", *(c[2] for c in cols),
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


def _objective_goals(spec: DesignSpec) -> list[int]:
    """The indices (in ``spec.goals``) of the optimised goals, in ``spec.objectives`` order."""
    return [i for i, g in enumerate(spec.goals) if not g.is_cap]


def places(spec: DesignSpec, finalists: list[Candidate]) -> list[list[int]]:
    """Per finalist, its place at each optimised goal among the finalists, on their fresh
    measurements (1 = best; equal losses share a place)."""
    losses = [c.losses(spec) for c in finalists]
    return [[1 + sum(other[j] < row[j] for other in losses) for j in range(len(row))]
            for row in losses]


def _goal_value(spec: DesignSpec, cand: Candidate, i: int) -> str:
    """Goal ``i``'s fresh value of ``cand`` (first table size), as the measure shows it."""
    return spec.goals[i].measure_info.show(cand.estimates[spec.players[0]][i].value)


def _goal_name(spec: DesignSpec, i: int) -> str:
    return spec.goals[i].words.split(":")[0]


def why_rank_1(spec: DesignSpec, finalists: list[Candidate]) -> str:
    """Why rank 1 is recommended, from the finalists' fresh numbers: for one goal, the best
    value (and what rank 2 gives); for a weighted score, the lowest score; for a front, which
    goal each other finalist would favour and what it would cost in the others."""
    if len(finalists) < 2:
        return "Rank 1 is the only finalist."
    best, goals = finalists[0], _objective_goals(spec)
    capped = ""
    if best.feasible(spec) and not all(c.feasible(spec) for c in finalists):
        capped = " (finalists that break a cap rank after those that meet every cap)"
    if spec.mode == "single":
        i = goals[0]
        return (f"Why rank 1: the best {_goal_name(spec, i)} of the {len(finalists)} finalists "
                f"on fresh games, {_goal_value(spec, best, i)} (rank 2: "
                f"{_goal_value(spec, finalists[1], i)}){capped}.")
    if spec.mode == "weighted":
        weights = ", ".join(f"{_goal_name(spec, i)} × {g.weight:g}"
                            for i, g in zip(goals, spec.objectives))
        return (f"Why rank 1: the lowest weighted score of the finalists ({weights}): "
                f"{best.score(spec):.2f} against rank 2's {finalists[1].score(spec):.2f}"
                f"{capped}.")
    where = places(spec, finalists)
    mine = ", ".join(f"{_goal_name(spec, i)} {_goal_value(spec, best, i)} "
                     f"({where[0][j]} of {len(finalists)})" for j, i in enumerate(goals))
    if all(p == 1 for p in where[0]):
        return f"Why rank 1: it is the best finalist at every goal: {mine}{capped}."
    pool = [c for c in finalists if c.feasible(spec)] or finalists
    trades = []
    for j, i in enumerate(goals):
        other = min(pool, key=lambda c: (c.losses(spec)[j], finalists.index(c)))
        if other is best or other.losses(spec)[j] >= best.losses(spec)[j]:
            continue
        costs = [f"{_goal_name(spec, k)} {_goal_value(spec, other, k)} against "
                 f"{_goal_value(spec, best, k)}" for m, k in enumerate(goals)
                 if m != j and other.losses(spec)[m] > best.losses(spec)[m]]
        trades.append(f"for {_goal_name(spec, i)} first, rank {finalists.index(other) + 1} "
                      f"({_goal_value(spec, other, i)} against {_goal_value(spec, best, i)}"
                      + (f"; it gives up {', '.join(costs)}" if costs else "") + ")")
    tied = [str(k + 1) for k in range(1, len(finalists))
            if sum(where[k]) == sum(where[0]) and finalists[k] in pool]
    even = ("the most even of them (its places at the goals add up lowest" if not tied else
            f"as even as any of them (its places at the goals add up lowest, tied with rank "
            f"{', '.join(tied)}; the tie goes to the earlier trial")
    return (f"Why rank 1: the finalists trade the goals against each other (a front), and rank "
            f"1 is {even}): {mine}{capped}. "
            + ("Instead, " + "; ".join(trades) + "." if trades else "")).strip()


def verdict(result: DesignResult) -> str:
    """The plain answer: the recommended rules (the search's changes on top of the fixed
    rules), why rank 1, and whether it gives the table what it asked."""
    spec = result.spec
    best = result.finalists[0]
    missed = [g.measure_info.words for i, g in enumerate(spec.goals)
              if any(g.met(best.estimates[n][i].value) is False for n in spec.players)]
    changes = changes_in_words(spec, best)
    fixed = fixed_text(spec)
    on_top = "" if fixed == "standard" else f", on top of the fixed rules ({fixed})"
    parts = [f"Play with: {'; '.join(changes) if changes else 'the fixed rules as they are'}"
             f"{on_top}.", why_rank_1(spec, result.finalists)]
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


def front_size(spec: DesignSpec, cands: list[Candidate]) -> int:
    """The rule sets on the front of ``cands`` (those meeting every cap, where any do)."""
    from .search import pareto_ranks

    pool = [c for c in cands if c.feasible(spec)] or list(cands)
    return sum(r == 1 for r in pareto_ranks([c.losses(spec) for c in pool]))


def _finalists_chosen(spec: DesignSpec, result: DesignResult) -> str:
    """How the finalists were chosen from the trials, in words."""
    k = len(result.finalists)
    caps = "those meeting every cap first, then " if spec.caps else ""
    if spec.mode == "pareto":
        return (f"the {k} chosen by their trial measurements ({caps}the front first, "
                f"{front_size(spec, result.tried)} rule set(s) on it, and on it the most even "
                "across the goals)")
    return (f"the best {k} by their trial measurements ({caps}the lowest "
            + ("loss at the goal" if spec.mode == "single" else "weighted score") + ")")


def how_measured(result: DesignResult) -> str:
    spec = result.spec
    unit = "deals" if spec.base.match == "single" else "games"
    seeds = sorted(seeds_used(result.final_seed, spec))
    return (f"{len(result.tried)} distinct rule sets tried in {result.trials} trials "
            f"({result.failed} could not be dealt or measured), each on the same "
            f"{spec.games:,} {unit} of seed {spec.seed} per table; "
            f"{_finalists_chosen(spec, result)} measured again on {spec.final_games:,} fresh "
            f"{unit} each "
            f"(seeds {seeds[0]}…{seeds[-1]}, which no trial used), and only those "
            f"measurements are shown. Players: {spec.policy} in every seat"
            + (" (skill: the focal seat's player swapped, the others as the weak player)"
               if any(g.measure_info.needs == "skill" for g in spec.goals) else "")
            + f"; 95% intervals.")


def design_text(result: DesignResult, files: list[Path] | None = None) -> str:
    from ..formatting import format_table

    spec = result.spec
    header, rows = ranked_rows(result)
    lines = [f"Design: {spec.title}",
             "Goals: " + "; ".join(g.words for g in spec.goals)
             + f" ({'one score' if spec.mode != 'pareto' else 'a Pareto front'})",
             format_table(header, rows, "rrl" + "r" * (len(header) - 3), style="text"),
             how_measured(result),
             f"fixed rules (every rank): {fixed_text(spec)}"]
    for rank, cand in enumerate(result.finalists, 1):
        words = changes_in_words(spec, cand) or ["no changes: the fixed rules"]
        lines.append(f"rank {rank}: " + "; ".join(words))
    if files:
        lines.append("rules files: " + ", ".join(str(f) for f in files)
                     + f" (use with --rules FILE {play_options(spec)})")
    lines.append("Verdict: " + verdict(result))
    return "\n".join(lines)


#: Fields a rules file leaves out unless the search varied them: how many sit down and how long
#: they play are the table's choice (``--players``, ``--match``), and a file that pinned them
#: would refuse those options ("given twice").
TABLE_FIELDS = ("players", "match")


def play_options(spec: DesignSpec) -> str:
    """The options that play a rules file as the design measured it (``--players 2 --match
    single``; several table sizes: ``--players N``)."""
    free = {p.name for p in spec.free}
    size = (f"--players {spec.players[0]}" if len(spec.players) == 1
            else f"--players N (N = {', '.join(map(str, spec.players))})")
    match = "" if "match" in free else f" --match {show_value(spec.base.match)}"
    return size + match


def rules_file_text(result: DesignResult, rank: int) -> str:
    """A rules file (``--rules``) of a finalist, with where it came from in comments: the
    fixed rules and the search's changes, never the table size or the match format (unless
    the search varied them), so that ``--players`` and ``--match`` combine with it."""
    spec, cand = result.spec, result.finalists[rank - 1]
    rules = candidate_rules(spec, cand)
    free = {p.name for p in spec.free}
    keep = {k for k in _changes(spec, cand) if k not in TABLE_FIELDS or k in free}
    lines = rules.to_toml().splitlines()
    body = [line for line in lines if line.split(" = ")[0] in keep]
    try:  # rules that standard's table size cannot deal keep the designed size
        load_rules_text("\n".join(body))
    except RulesError:
        keep.add("players")
        body = [line for line in lines if line.split(" = ")[0] in keep]
    comments = [f"Designed by `vandatta-sim design {spec.source}` for: {spec.title}",
                f"Rank {rank} of {len(result.finalists)} finalists (trial {cand.trial + 1} of "
                f"{result.trials}; {len(result.tried)} distinct rule sets tried).",
                "Measured on fresh games: " + "; ".join(_goal_words(spec, cand)) + ".",
                f"Fixed rules: {fixed_text(spec)}.",
                *(f"Change by the search: {w}" for w in changes_in_words(spec, cand)),
                f"Play it as measured with: --rules FILE {play_options(spec)} (the table size "
                "and match format are left to those options)."]
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
                          "search_changes": {k: show_value(v) for k, v in
                                             search_changes(spec, cand).items()},
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
