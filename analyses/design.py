"""reports/design.md: the rules designer on the three worked examples in examples/.

    python analyses/design.py --out reports/design.md [--quick]

Each example (``examples/*-design.toml``) runs as written (its [search] section sets the
trials, seed and game counts); ``--quick`` cuts them to a few trials of a few hundred deals.
The studies live in the store (``STORE/designs/``), so a rerun reads them back.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import common

from vandatta_sim.design import parse_spec
from vandatta_sim.design.report import (changes_in_words, fixed_text, how_measured, ranked_rows,
                                        rules_file_text, verdict)
from vandatta_sim.design.search import run_design
from vandatta_sim.formatting import format_table

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SPECS = ("fair-two-player-design.toml", "kids-table-design.toml", "lively-table-design.toml")
QUICK_SEARCH = {"trials": 6, "games": 300, "final_games": 600, "finalists": 2}


def load(name: str, quick: bool):
    path = EXAMPLES / name
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    if quick:
        data["search"] |= QUICK_SEARCH
    return parse_spec(data, f"examples/{name}", path.parent)


def curse_table(result) -> str:
    """Each finalist's optimised goals at its trial (the search's games) and on fresh seeds:
    how much being picked as best flattered it."""
    spec = result.spec
    n = spec.players[0]
    by_trial = {c.trial: c for c in result.tried}
    rows = []
    for rank, cand in enumerate(result.finalists, 1):
        for i, goal in enumerate(spec.goals):
            if goal.is_cap:
                continue
            m = goal.measure_info
            rows.append([str(rank), m.words, m.show_estimate(by_trial[cand.trial].estimates[n][i]),
                         m.show_estimate(cand.estimates[n][i])])
    return format_table(["rank", "goal", f"at its trial ({spec.games:,} deals)",
                         f"fresh ({spec.final_games:,} deals)"], rows, "rlrr")


def section(ctx: common.Context, name: str) -> str:
    spec = load(name, ctx.quick)
    ctx.log(f"{name}: {spec.trials} trials of {spec.games:,} deals")
    result = run_design(spec, store=ctx.runner.store, threads=ctx.args.threads, log=ctx.log)
    header, rows = ranked_rows(result)
    figure, link = ctx.figure_path(f"design-{Path(name).stem}")
    from vandatta_sim.design.report import plot_design

    plot_design(result, figure)
    free = "; ".join(f"`{p.name}` ∈ {{{', '.join(p.labels)}}}" for p in spec.free)
    best = changes_in_words(spec, result.finalists[0])
    return "\n".join([
        f"## {spec.title[0].upper()}{spec.title[1:]}", "",
        f"Spec: [`examples/{name}`](../examples/{name}). Free: {free}. Goals: "
        + "; ".join(g.words for g in spec.goals)
        + (" (one score: TPE)." if spec.mode != "pareto" else " (a Pareto front: NSGA-II)."),
        "", f"Size: {spec.trials} trials of {spec.games:,} deals each, {spec.finalists} finalists "
        f"of {spec.final_games:,}; seed {spec.seed}.",
        "", format_table(header, rows, "rrl" + "r" * (len(header) - 3)),
        how_measured(result), "",
        "The winner's curse, measured: the finalists' optimised goals at their trial and "
        "on fresh seeds.", "", curse_table(result),
        f"![{spec.title}: trials and finalists]({link})", "",
        f"**Verdict:** {verdict(result)}", "",
        "The rank-1 rules file (`vandatta-sim design` writes it as `rank-1.toml`):", "",
        "```toml", rules_file_text(result, 1).rstrip(), "```", "",
        f"Changed by the search in rank 1: {'; '.join(best) if best else 'nothing'} (the fixed "
        f"rules: {fixed_text(spec)}).", ""])


def main() -> None:
    args = common.parse_args(__doc__.splitlines()[0], "reports/design.md")
    ctx = common.Context(args, "design")
    parts = [common.header("Designing house rules: a search of the rule space", ctx,
                           "design.py"),
             "`vandatta-sim design SPEC.toml` searches the free rule parameters of a spec for "
             "the rules that best meet its goals (optuna: TPE for one score, NSGA-II for a "
             "front). Every candidate is played on the same deals (one seed: common random "
             "numbers) through the result store; the best few are then measured again on "
             "seeds no trial used, because the best of many noisy measurements is flattered "
             "by its own noise. Only those fresh measurements are reported. Each "
             "example runs as its file says (its [search] section).", ""]
    for name in SPECS:
        parts.append(section(ctx, name))
    ctx.write("\n".join(parts))


if __name__ == "__main__":
    main()
