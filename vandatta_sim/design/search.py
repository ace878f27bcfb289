"""The design search: optuna trials over the free parameters, then the finalists re-measured.

Reproducible and resumable
--------------------------
The study lives in an optuna storage: by default SQLite in the result store
(``STORE/designs/NAME.db``, NAME from the spec's content), or any RDB URL several worker
processes share. Each trial's sampler is created afresh, seeded from the spec's seed and the
trial's number, so a trial's parameters depend only on the spec, its number and the trials
before it: run sequentially, an interrupted and resumed study asks exactly the trials an
uninterrupted one asks. A trial that a dead process (Ctrl-C, ``kill -9``) left running is
measured again under the same number and parameters by the next run on the same host; a study
with all its trials done runs none. Several workers on one shared RDB study (PostgreSQL, MySQL;
SQLite serialises its writers) each ask for the next trial until the study has ``trials``;
their order then depends on timing, so only a sequential study is reproducible trial by trial.

Honest evaluation
-----------------
Every candidate plays games ``0 … games-1`` of the spec's seed (common random numbers: all
candidates on the same deals) through the result store, so a rule set tried twice, or shared
with another study or report, is read back. The best of many noisy measurements is flattered by
its own noise (the winner's curse), so the finalists are measured again with ``final_games``
games on seeds no trial used (:func:`final_seed`), and only those measurements are reported.
"""

from __future__ import annotations

import contextlib
import math
import os
import socket
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..experiments.runner import Runner
from ..rules import RulesError
from ..stats import Estimate
from .goals import is_feel_measure, measure_table
from .spec import DesignSpec

#: Seeds of the re-measurement: this far from the trials' seeds (trial seeds are the spec's seed
#: plus 0 … 9, one per focal seat), so the two sets never meet (spec seeds are below 2^62 - 16).
FINAL_SEED_OFFSET = 2**62
#: Sampler settings (fixed, so that a study extended to more trials keeps its first trials):
#: TPE's random start-up trials and NSGA-II's population.
TPE_STARTUP = 8
NSGA_POPULATION = 12


def final_seed(spec: DesignSpec) -> int:
    return spec.seed + FINAL_SEED_OFFSET


def seeds_used(seed: int, spec: DesignSpec) -> set[int]:
    """Every seed a measurement with ``seed`` plays: the seed itself and, for skill, one per
    focal seat (``seed + seat``)."""
    return {seed + s for s in range(max(spec.players))} | {seed}


def default_storage(spec: DesignSpec, store) -> str:
    path = Path(store) / "designs" / f"{spec.study_name()}.db"
    return f"sqlite:///{path.resolve()}"


@dataclass
class Candidate:
    """One rule set: its parameter values, the trial that first tried it, and its measures."""

    labels: dict[str, str]
    params: dict[str, object]
    trial: int
    estimates: dict[int, list[Estimate]] = field(default_factory=dict)  # players → per goal

    def goal_values(self, spec: DesignSpec, i: int) -> list[float]:
        return [self.estimates[n][i].value for n in spec.players]

    def losses(self, spec: DesignSpec) -> list[float]:
        """Per optimised goal, its loss at the worst table size."""
        return [max(g.loss(v) for v in self.goal_values(spec, i))
                for i, g in enumerate(spec.goals) if not g.is_cap]

    def violations(self, spec: DesignSpec) -> list[float]:
        """Per cap, its constraint value at the worst table size (≤ 0: met)."""
        return [max(g.loss(v) for v in self.goal_values(spec, i))
                for i, g in enumerate(spec.goals) if g.is_cap]

    def feasible(self, spec: DesignSpec) -> bool:
        return all(v <= 0 for v in self.violations(spec))

    def score(self, spec: DesignSpec) -> float:
        """The one score of single and weighted searches (lower is better)."""
        losses = self.losses(spec)
        if spec.mode == "single":
            return losses[0]
        return sum(g.weight * x for g, x in zip(spec.objectives, losses))


def measure(spec: DesignSpec, runner: Runner, params: dict, seed: int, games: int,
            skill_games: int) -> dict[int, list[Estimate]]:
    """Every goal at every table size for one rule set (RulesError where it cannot be dealt)."""
    return {n: measure_table(runner, spec.rules_for(params, n), spec.policy, spec.goals, games,
                             skill_games, seed) for n in spec.players}


def _values(spec: DesignSpec, cand: Candidate) -> list[float]:
    return [cand.score(spec)] if spec.mode != "pareto" else cand.losses(spec)


def _sampler(spec: DesignSpec, number: int):
    import optuna

    seed = (spec.seed * 1_000_003 + number) % 2**32
    if spec.mode == "pareto":
        return optuna.samplers.NSGAIISampler(seed=seed, population_size=NSGA_POPULATION)
    return optuna.samplers.TPESampler(seed=seed, n_startup_trials=TPE_STARTUP)


def _study(spec: DesignSpec, storage: str, number: int, create: bool = True):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    directions = ["minimize"] * (len(spec.objectives) if spec.mode == "pareto" else 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # optuna's experimental-feature notes
        if not create:
            return optuna.load_study(study_name=spec.study_name(), storage=storage,
                                     sampler=_sampler(spec, number))
        return optuna.create_study(storage=storage, study_name=spec.study_name(),
                                   directions=directions, load_if_exists=True,
                                   sampler=_sampler(spec, number))


class StudyStorageError(RuntimeError):
    """The study's storage cannot be used (a bad URL, a missing driver, a damaged file, a full
    disk); the message is one line naming the storage."""


def _is_storage_error(exc: BaseException) -> bool:
    """An error of optuna's storage layer: SQLAlchemy's, optuna's own, sqlite3's, or a
    database driver that is not installed (imported by SQLAlchemy when the URL is opened)."""
    import sqlite3
    import sys

    kinds = [sqlite3.Error]
    if "sqlalchemy" in sys.modules:
        kinds.append(sys.modules["sqlalchemy"].exc.SQLAlchemyError)
    if "optuna" in sys.modules:
        kinds.append(sys.modules["optuna"].exceptions.OptunaError)
    if isinstance(exc, ImportError):
        return not (exc.name or "").startswith(("vandatta_sim", "optuna"))
    return isinstance(exc, tuple(kinds))


@contextlib.contextmanager
def storage_errors(storage: str | None):
    """Errors of the study's storage, raised anywhere inside (opening, a trial's write, a full
    disk half-way), as one :class:`StudyStorageError` line: the library's own words, first
    line only (SQLAlchemy appends the SQL and a link)."""
    try:
        yield
    except Exception as exc:
        if not _is_storage_error(exc):
            raise
        cause = getattr(exc, "orig", None) or exc
        lines = str(cause).strip().splitlines() or [type(cause).__name__]
        reason = lines[0] if not isinstance(exc, ImportError) else (
            f"a database driver is not installed ({lines[0]})")
        where = "the study's storage" if storage is None else f"--storage {storage!r}"
        raise StudyStorageError(f"{where}: {reason}; allowed: a reachable RDB URL such as "
                                "sqlite:///study.db with its driver installed") from None


def open_storage(storage: str):
    """An optuna storage for a URL (a SQLite file's folder is created)."""
    import optuna

    if storage.startswith("sqlite:///"):
        Path(storage[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return optuna.storages.RDBStorage(storage)


def _mine_and_dead(trial) -> bool:
    """A running trial that this host's dead process (or this process) left behind."""
    attrs = trial.user_attrs
    if attrs.get("host") != socket.gethostname():
        return False
    pid = attrs.get("pid")
    if pid == os.getpid():
        return True
    try:
        os.kill(int(pid), 0)
    except (ProcessLookupError, TypeError, ValueError):
        return True
    except PermissionError:
        return False
    return False


def _tell(study, spec: DesignSpec, runner: Runner, trial) -> None:
    """Measure a trial's rule set and record the result (a failed trial where the rules
    cannot be dealt or a measure is undefined for them)."""
    import optuna

    labels = {p.name: trial.params[p.name] for p in spec.free}
    params = {p.name: p.values[p.labels.index(labels[p.name])] for p in spec.free}
    try:
        cand = Candidate(labels, params, trial.number,
                         measure(spec, runner, params, spec.seed, spec.games, spec.skill_games))
    except RulesError as exc:
        trial.set_user_attr("error", str(exc))
        study.tell(trial, state=optuna.trial.TrialState.FAIL)
        return
    values = _values(spec, cand)
    if not all(math.isfinite(v) for v in values + cand.violations(spec)):
        trial.set_user_attr("error", "a goal's measure is undefined for these rules")
        study.tell(trial, state=optuna.trial.TrialState.FAIL)
        return
    for k, v in enumerate(cand.violations(spec)):
        trial.set_constraint(f"cap{k}", v)
    trial.set_user_attr("measures", {str(n): [[float(e.value), float(e.low), float(e.high),
                                               int(e.n)] for e in ests]
                                     for n, ests in cand.estimates.items()})
    study.tell(trial, values)


def _suggest(spec: DesignSpec, trial) -> None:
    for p in spec.free:
        trial.suggest_categorical(p.name, list(p.labels))


def run_trials(spec: DesignSpec, runner: Runner, storage: str,
               log: Callable[[str], None] | None = None) -> int:
    """Run the study's missing trials (first those a dead run left running); return how many
    trials this call measured."""
    import optuna

    open_storage(storage)
    running = optuna.trial.TrialState.RUNNING
    done = 0
    study = _study(spec, storage, 0)
    for frozen in study.get_trials(deepcopy=False, states=(running,)):
        if _mine_and_dead(frozen):
            # the sampler seeded for this trial's number: parameters not yet suggested when the
            # run died are drawn as they would have been
            study = _study(spec, storage, frozen.number)
            trial = optuna.trial.Trial(study, frozen._trial_id)
            _claim(trial)
            _suggest(spec, trial)
            _tell(study, spec, runner, trial)
            done += 1
            _progress(spec, study, trial.number, log)
    while True:
        study = _study(spec, storage, len(study.get_trials(deepcopy=False)))
        if len(study.get_trials(deepcopy=False)) >= spec.trials:
            return done
        trial = study.ask()
        _claim(trial)
        _suggest(spec, trial)
        _tell(study, spec, runner, trial)
        done += 1
        _progress(spec, study, trial.number, log)


def _claim(trial) -> None:
    trial.set_user_attr("host", socket.gethostname())
    trial.set_user_attr("pid", os.getpid())


def candidates(spec: DesignSpec, trials) -> list[Candidate]:
    """The distinct rule sets the completed ``trials`` measured, each with the first trial
    that tried it and that trial's measures."""
    import optuna

    out: dict[tuple, Candidate] = {}
    for t in sorted(trials, key=lambda t: t.number):
        if t.state != optuna.trial.TrialState.COMPLETE:
            continue
        labels = {p.name: t.params[p.name] for p in spec.free}
        key = tuple(labels.values())
        if key in out:
            continue
        params = {p.name: p.values[p.labels.index(labels[p.name])] for p in spec.free}
        ests = {int(n): [Estimate(*row) for row in rows]
                for n, rows in t.user_attrs["measures"].items()}
        out[key] = Candidate(labels, params, t.number, ests)
    return list(out.values())


def study_trials(spec: DesignSpec, storage: str) -> list:
    """Every trial of the spec's study in ``storage`` (none when it has no such study)."""
    import optuna

    try:
        return _study(spec, storage, 0, create=False).get_trials(deepcopy=False)
    except KeyError:  # optuna: no study of that name
        return []


def _progress(spec: DesignSpec, study, number: int, log) -> None:
    """One line: the trial just measured and the best candidate so far."""
    if log is None:
        return
    trials = study.get_trials(deepcopy=False)
    best = choose_finalists(spec, candidates(spec, trials), 1)
    last = next(t for t in trials if t.number == number)
    what = ", ".join(f"{k}={v}" for k, v in last.params.items())
    text = f"trial {last.number + 1}/{spec.trials} ({what})"
    if best and spec.mode == "pareto":  # a front has no single best: its size so far
        pool = [c for c in candidates(spec, trials) if c.feasible(spec)]
        ranks = pareto_ranks([c.losses(spec) for c in pool])
        caps = " meeting every cap" if spec.caps else ""
        text += (f"; front so far: {sum(r == 1 for r in ranks)} rule set(s){caps}"
                 if pool else "; no rule set so far meets every cap")
    elif best:
        b = best[0]
        text += (f"; best so far: trial {b.trial + 1} ("
                 f"{', '.join(f'{k}={v}' for k, v in b.labels.items())}), "
                 + summary_text(spec, b))
    log(text)


def summary_text(spec: DesignSpec, cand: Candidate) -> str:
    """A candidate's measures in a few words (first table size, each measure once), for
    progress lines."""
    n = spec.players[0]
    first = {g.measure: i for i, g in reversed(list(enumerate(spec.goals)))}
    return ", ".join(f"{spec.goals[i].measure_info.words} "
                     f"{spec.goals[i].measure_info.show(cand.estimates[n][i].value)}"
                     for i in sorted(first.values()))


def _dominates(a: Sequence[float], b: Sequence[float]) -> bool:
    return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))


def pareto_ranks(points: Sequence[Sequence[float]]) -> list[int]:
    """Non-dominated sorting: 1 for the front, 2 for the front without it, …"""
    ranks = [0] * len(points)
    left, level = set(range(len(points))), 1
    while left:
        front = {i for i in left if not any(_dominates(points[j], points[i]) for j in left)}
        for i in front:
            ranks[i] = level
        left -= front
        level += 1
    return ranks


def order(spec: DesignSpec, cands: Sequence[Candidate]) -> list[Candidate]:
    """Best first: feasible ones (every cap met) before the others; then by score (single,
    weighted) or by Pareto rank and the sum of the goals' ranks (a front)."""
    cands = list(cands)
    if not cands:
        return []
    if spec.mode != "pareto":
        return sorted(cands, key=lambda c: (not c.feasible(spec),
                                            sum(max(v, 0) for v in c.violations(spec)),
                                            c.score(spec), c.trial))
    losses = [c.losses(spec) for c in cands]
    ranks = pareto_ranks(losses)
    goal_ranks = [sorted(col).index for col in zip(*losses)]
    spread = [sum(r(x) for r, x in zip(goal_ranks, row)) for row in losses]
    keyed = sorted(range(len(cands)), key=lambda i: (
        not cands[i].feasible(spec), ranks[i], spread[i], cands[i].trial))
    return [cands[i] for i in keyed]


def choose_finalists(spec: DesignSpec, cands: Sequence[Candidate], k: int) -> list[Candidate]:
    return order(spec, cands)[:k]


def remeasure(spec: DesignSpec, runner: Runner, finalists: Sequence[Candidate]
              ) -> list[Candidate]:
    """The finalists measured again on fresh seeds with ``final_games`` games (skill: the
    same multiple of ``skill_games``), ranked on those measurements alone."""
    seed = final_seed(spec)
    skill = max(1, round(spec.final_games * spec.skill_games / spec.games))
    fresh = [Candidate(c.labels, c.params, c.trial,
                       measure(spec, runner, c.params, seed, spec.final_games, skill))
             for c in finalists]
    return order(spec, fresh)


@dataclass
class DesignResult:
    """A finished design: the study's size, its trials' candidates and the finalists ranked
    on their fresh measurements."""

    spec: DesignSpec
    storage: str
    trials: int            # trials in the study (any state)
    new_trials: int        # trials this run measured
    failed: int            # trials whose rules could not be dealt or measured
    tried: list[Candidate]  # distinct rule sets tried, in trial order (trial measures)
    finalists: list[Candidate]  # re-measured, best first

    @property
    def final_seed(self) -> int:
        return final_seed(self.spec)


def run_design(spec: DesignSpec, store="results", storage: str | None = None,
               threads: int | None = None, log: Callable[[str], None] | None = None
               ) -> DesignResult:
    """Run the study to ``spec.trials`` trials (resuming what is stored), re-measure the
    ``spec.finalists`` best distinct rule sets on fresh seeds, and return them ranked."""
    import optuna

    storage = storage or default_storage(spec, store)
    runner = Runner(store=str(store), threads=threads, progress=False,
                    command=f"vandatta-sim design {spec.source}", record={"kind": "design"},
                    feel=any(is_feel_measure(goal.measure) for goal in spec.goals))
    new = run_trials(spec, runner, storage, log)
    trials = study_trials(spec, storage)
    tried = candidates(spec, trials)
    if not tried:
        raise RulesError("design: no trial could be measured (every candidate's rules failed: "
                         "see the free parameters' combinations)")
    if log is not None:
        log(f"measuring the best {min(spec.finalists, len(tried))} of {len(tried)} distinct "
            f"rule sets again: {spec.final_games:,} games each on fresh seeds")
    finalists = remeasure(spec, runner, choose_finalists(spec, tried, spec.finalists))
    failed = sum(t.state == optuna.trial.TrialState.FAIL for t in trials)
    return DesignResult(spec, storage, len(trials), new, failed, tried, finalists)
