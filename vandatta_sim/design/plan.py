"""The design's dry run: trials to run, games per trial and re-measurement, a time estimate.

Nothing is written: an existing study is read (a default SQLite study only if its file
exists), and the time is estimated by timing a few games of one representative candidate (the
free parameters at their first values) with :func:`vandatta_sim.sweep.dry_run.estimate_time`.
"""

from __future__ import annotations

from pathlib import Path

from ..experiments.designs import focal_policies
from ..experiments.runner import make_config
from ..sweep.dry_run import estimate_time, format_seconds
from .search import default_storage, study_trials
from .spec import DesignSpec


def games_per_measure(spec: DesignSpec, games: int, skill_games: int) -> dict[int, list]:
    """Per table size, the representative candidate's configurations and the games each
    plays in one measurement (the first values of the free parameters)."""
    params = {p.name: p.values[0] for p in spec.free}
    out = {}
    for n in spec.players:
        rules = spec.rules_for(params, n)
        needs = {g.measure_info.needs for g in spec.goals}
        work = []
        if needs & {"table", "eight"}:
            work.append((make_config(rules, spec.policy), games))
        if "eight" in needs:
            work.append((make_config(rules, spec.policy, swap="8"), games))
        pairs = dict.fromkeys((g.strong, g.weak) for g in spec.goals
                              if g.measure_info.needs == "skill")
        for strong, weak in pairs:
            for policy in (strong, weak):  # seat 0 focal; the other seats play alike
                work.append((make_config(rules, focal_policies(n, 0, policy, weak)),
                             skill_games * n))
        out[n] = work
    return out


def dry_run_text(spec: DesignSpec, store, storage: str | None = None,
                 threads: int | None = None, estimate: bool = True) -> str:
    storage = storage or default_storage(spec, store)
    # a SQLite study is read only where its file exists: opening one creates it (a dry run
    # writes nothing); another database is read as it is
    exists = (not storage.startswith("sqlite:///")
              or Path(storage[len("sqlite:///"):]).is_file())
    done = len(study_trials(spec, storage)) if exists else 0
    left = max(0, spec.trials - done)
    skill_final = max(1, round(spec.final_games * spec.skill_games / spec.games))
    search = games_per_measure(spec, spec.games, spec.skill_games)
    final = games_per_measure(spec, spec.final_games, skill_final)
    per_trial = sum(g for work in search.values() for _, g in work)
    per_final = sum(g for work in final.values() for _, g in work)
    lines = [f"Design: {spec.title} ({spec.mode}: "
             + ("one score, TPE" if spec.mode != "pareto" else "a Pareto front, NSGA-II") + ")",
             f"study {spec.study_name()} in {storage}: {done} of {spec.trials} trials done, "
             f"{left} to run",
             f"free: " + "; ".join(f"{p.name} ∈ {{{', '.join(p.labels)}}}" for p in spec.free)
             + f" ({_space(spec):,} rule sets)",
             f"per trial: at most {per_trial:,} games (a rule set tried before is read "
             f"back from {store}); re-measurement: {spec.finalists} finalists × at most "
             f"{per_final:,} games on fresh seeds"]
    if estimate:
        configs, counts = [], []
        for n in spec.players:
            for (config, g), (_, f) in zip(search[n], final[n]):
                configs.append(config)
                counts.append(left * g + spec.finalists * f)
        est = estimate_time(configs, counts, threads, games=500, budget_s=5.0)
        if est is not None:
            lines.append(f"estimated time ≈ {format_seconds(est.seconds)} of games on "
                         f"{est.threads} thread(s) if none is stored yet (timed on the free "
                         "parameters' first values; rule sets differ in length), plus the "
                         "store's and optuna's bookkeeping, about 1 s per trial")
    return "\n".join(lines)


def _space(spec: DesignSpec) -> int:
    size = 1
    for p in spec.free:
        size *= len(p.values)
    return size
