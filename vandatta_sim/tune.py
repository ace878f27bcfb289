"""Fitting `expert`'s weights to a table: CMA-ES on paired games, resumable, validated on held-out
seeds, stored as a named policy (``tuned:NAME``, :mod:`vandatta_sim.tuned`).

The target table is the one the answers are asked at: one seat plays the candidate weights, the
others `expert`, the focal seat rotated over the games (``games`` per candidate, split evenly
over the seats). Every candidate of a generation plays the *same* games (seed and game numbers:
common random numbers), so CMA ranks candidates on paired outcomes, not on luck; `expert` plays
those games too, so each generation's log says by how much the candidates beat it, paired. Each
generation draws new games (``generation * games`` onwards), so the fit does not learn one set of
deals. The objective is deal wins (single deals), penalty points (single deals, fewer is better)
or match wins (the rules' match format). The weights searched are :data:`KNOBS`, each moved in
units of its ``step`` from `expert`'s constants (CMA starts at `expert` with sigma 1).

Resumable: after every generation the whole optimiser state (CMA's object, numpy's random state,
the log, CPU seconds spent) is written atomically to ``STORE/tuned/NAME.run/state.pkl``; a rerun
of the same command continues where it stopped and gives the same weights as an uninterrupted
run (tests check this). With other settings under the same name it is an error. When all
generations are done, CMA's mean (rounded) is validated against `expert` on held-out games (seed
``2 * seed + 1``; training uses ``2 * seed``): the paired difference in the objective with its
95% interval. The policy file ``STORE/tuned/NAME.json`` then holds weights, rules, objective and
provenance.
"""

from __future__ import annotations

import os
import pickle
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from . import ENGINE_VERSION
from . import engine as E
from . import tuned
from .atomic import write_atomically
from .rules import Rules
from .simulate import Seats, SimulationError, simulate
from .stats import Estimate, paired_difference

#: objective name -> what it counts (bigger is better for the seat in every case)
OBJECTIVES = {"match": "match wins", "deals": "deal wins", "points": "penalty points (fewer)"}


@dataclass(frozen=True)
class Knob:
    """One weight the tuner moves: ``step`` weight units per unit of CMA's space, kept within
    ``[low, high]`` (rounded to an integer: the kernel's scores are integers)."""

    name: str
    step: float
    low: int
    high: int


#: The weights searched, with their steps (about a third of the range where the weight changes
#: decisions) and bounds. Not searched: the draw rule of must_play off (pass_at; no tuned rule
#: set has it).
KNOBS = (
    Knob("card_value", 4, 0, 200),
    Knob("eight_early", 5000, -200000, 20000),
    Knob("eight_late", 800, -20000, 20000),
    Knob("eight_late_at", 1.0, 0, 15),
    Knob("eight_threat_ratio", 2.0, 0, 100),
    Knob("joker", 2000, -50000, 50000),
    Knob("ace_threat", 5000, -100000, 200000),
    Knob("ace_follow", 1500, -20000, 20000),
    Knob("ace_keep", 1500, -20000, 20000),
    Knob("suit_length", 15, -500, 500),
    Knob("next_lacks", 150, -2000, 2000),
    Knob("dragging", 1.0, 0, 20),
)
#: Where the search starts: expert's weights with its two lexicographic constants brought
#: close to where they would start to matter, which plays the same games for every scale (a
#: card is worth 0–1000 points, so with card_value 10 an early eight scores at most
#: 10·1000 − 20000 + 30·26 + 200 < −5000, below every other card that does not strand the hand,
#: as with −100000; an ace for an opponent on one card scores at least 15000, above every
#: other card's 10·1000 + 30·26 + 200, as with 50000). tests/test_tune.py plays both.
START = {"eight_early": -20000, "ace_threat": 15000}
VALIDATION_GAMES = 20_000


class TuneError(SimulationError):
    """Bad tuning settings, or a stored run that does not match them; one line."""


@dataclass(frozen=True)
class TuneSettings:
    """Everything that decides a tuning run's result (stored with it; a resume must match)."""

    name: str
    rules: dict  # Rules.canonical() of the table (players included)
    objective: str = "match"
    generations: int = 10
    population: int = 8
    games: int = 800  # per candidate and generation, over all focal seats
    validation_games: int = VALIDATION_GAMES
    seed: int = 0

    def table(self) -> Rules:
        return Rules(**self.rules)


def check_settings(name: str, rules: Rules, objective: str, generations: int, population: int,
                   games: int, validation_games: int, seed: int) -> TuneSettings:
    """The settings checked: one-line TuneError naming the field and what is allowed."""
    name = tuned.check_name(name)
    if objective not in OBJECTIVES:
        raise TuneError(f"objective {objective!r} is not allowed; allowed: {', '.join(OBJECTIVES)}")
    if objective == "match" and rules.match_kind == "single":
        raise TuneError("objective 'match' needs a match format; allowed: the rules' match = "
                        "deals:N, elimination:T or best_of:N (or objective deals or points)")
    for what, value, low in (("generations", generations, 1), ("population", population, 4),
                             ("games", games, rules.players),
                             ("validation_games", validation_games, rules.players),
                             ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low or value > 1 << 40:
            raise TuneError(f"{what} = {value!r} is not allowed; allowed: an integer ≥ {low}")
    if games % rules.players or validation_games % rules.players:
        raise TuneError(f"games = {games}, validation_games = {validation_games}: allowed: "
                        f"multiples of players = {rules.players} (every seat plays as many)")
    return TuneSettings(name, rules.canonical(), objective, generations, population, games,
                        validation_games, seed)


# --- the weights of a point of CMA's space -------------------------------------------------------
def start_weights() -> dict[str, int]:
    """expert's weights as the search starts from them (:data:`START`: the same games)."""
    return {**dict(zip(E.WEIGHT_NAMES, E.EXPERT_WEIGHTS)), **START}


def weights_at(x) -> dict[str, int]:
    """`expert`'s weights moved by ``x`` (one number per knob, in steps), rounded and bounded."""
    weights = start_weights()
    for knob, value in zip(KNOBS, x):
        moved = weights[knob.name] + float(value) * knob.step
        weights[knob.name] = int(min(max(round(moved), knob.low), knob.high))
    return weights


def vector(weights: dict[str, int]) -> tuple[int, ...]:
    return tuple(int(weights[w]) for w in E.WEIGHT_NAMES)


# --- games ---------------------------------------------------------------------------------------
def played_rules(settings: TuneSettings) -> Rules:
    """The rules the games are played under: single deals for the deal objectives."""
    rules = settings.table()
    return rules if settings.objective == "match" else rules.replace(match="single")


def focal_outcomes(rules: Rules, objective: str, weights: tuple[int, ...], seed: int,
                   first_game: int, games: int, threads: int | None = None,
                   others: tuple[int, ...] | None = None) -> np.ndarray:
    """The focal seat's outcome in each of ``games`` games (seat k plays the k-th equal block,
    the others `expert`, or expert with the weights ``others``): 1/0 for a match or deal won,
    minus its points for ``points``."""
    P = rules.players
    per_seat = games // P
    out = []
    for k in range(P):
        policies = ["expert"] * P
        policies[k] = "tuned:candidate"
        rows = [others] * P
        rows[k] = weights
        seats = Seats(tuple(policies), (0.0,) * P, tuple(rows))
        df = simulate(rules, per_seat, seed=seed, policies=seats,
                      first_game=first_game + k * per_seat, threads=threads)
        if objective == "points":
            out.append(-df[f"points_{k}"].to_numpy(np.float64))
        else:
            out.append((df["winner"].to_numpy() == k).astype(np.float64))
    return np.concatenate(out)


Evaluate = Callable[[list[tuple[int, ...]], int], list[np.ndarray]]


def game_evaluator(settings: TuneSettings, threads: int | None = None) -> Evaluate:
    """Candidates' outcomes in generation g: each plays the same games (common random numbers)."""
    rules = played_rules(settings)

    def evaluate(vectors, generation):
        return [focal_outcomes(rules, settings.objective, v, 2 * settings.seed,
                               generation * settings.games, settings.games, threads)
                for v in vectors]
    return evaluate


# --- the run -------------------------------------------------------------------------------------
def run_folder(store: str | os.PathLike, name: str) -> Path:
    return Path(store) / tuned.STORE_FOLDER / f"{name}.run"


def policy_path(store: str | os.PathLike, name: str) -> Path:
    return Path(store) / tuned.STORE_FOLDER / f"{name}.json"


def _new_state(settings: TuneSettings) -> dict:
    import cma

    es = cma.CMAEvolutionStrategy(np.zeros(len(KNOBS)), 1.0, {
        "popsize": settings.population, "seed": settings.seed + 1, "verbose": -9,
        "verb_disp": 0, "verb_log": 0, "tolfun": 0, "tolflatfitness": 10**9,
        "tolstagnation": 10**9})
    return {"settings": asdict(settings), "es": es, "random": np.random.get_state(),
            "generation": 0, "log": [], "cpu_seconds": 0.0, "cma_version": cma.__version__}


def _load_state(settings: TuneSettings, path: Path) -> dict:
    with open(path, "rb") as f:
        state = pickle.load(f)
    stored = state["settings"]
    if stored != asdict(settings):
        diff = sorted(k for k in stored if stored[k] != asdict(settings).get(k))
        raise TuneError(f"tune {settings.name!r}: the stored run in {path.parent} has other "
                        f"settings ({', '.join(diff)}); allowed: the same settings to resume, "
                        f"or another name")
    return state


def _save_state(state: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)

    def write(tmp):
        with open(tmp, "wb") as f:
            pickle.dump(state, f)
    write_atomically(path, write, "tuning state")


@dataclass(frozen=True)
class TuneResult:
    policy: tuned.TunedPolicy
    validation: Estimate  # tuned minus expert in the objective, paired, held-out games
    log: list


def run(settings: TuneSettings, store: str | os.PathLike, evaluate: Evaluate | None = None,
        validate: Evaluate | None = None, threads: int | None = None, command: str = "",
        progress: Callable[[str], None] = lambda line: None) -> TuneResult:
    """Tune (resuming a stored run of these settings), validate and store ``tuned:NAME``.

    ``evaluate(vectors, generation)`` gives each candidate's outcomes (default: games at the
    settings' table); ``validate(vectors, 0)`` the held-out outcomes of (tuned, expert). Tests
    pass fakes for both."""
    done = policy_path(store, settings.name)
    if done.is_file():
        policy = tuned._read(str(done), done.stat().st_mtime_ns)
        if policy.provenance.get("settings") != asdict(settings):
            raise TuneError(f"tune {settings.name!r}: {done} holds a policy tuned with other "
                            f"settings; allowed: the same settings, or another name")
        v = policy.provenance["validation"]
        return TuneResult(policy, Estimate(v["value"], v["low"], v["high"], v["n"]),
                          policy.provenance["log"])
    evaluate = evaluate or game_evaluator(settings, threads)
    state_path = run_folder(store, settings.name) / "state.pkl"
    state = _load_state(settings, state_path) if state_path.is_file() else _new_state(settings)
    if state["generation"]:
        progress(f"resuming {settings.name} after generation {state['generation']}")
    base = E.EXPERT_WEIGHTS  # the table's own player, on the same games
    es = state["es"]
    while state["generation"] < settings.generations:
        started = time.process_time()
        np.random.set_state(state["random"])
        xs = es.ask()
        vectors = [vector(weights_at(x)) for x in xs]
        outcomes = evaluate([*vectors, base], state["generation"])
        means = [float(np.mean(o)) for o in outcomes]
        es.tell(xs, [-m for m in means[:-1]])  # CMA minimises
        state["random"] = np.random.get_state()
        best = int(np.argmax(means[:-1]))
        edge = paired_difference(outcomes[best], outcomes[-1])
        state["generation"] += 1
        state["cpu_seconds"] += time.process_time() - started
        entry = {"generation": state["generation"], "best": means[best], "expert": means[-1],
                 "best_minus_expert": [edge.value, edge.low, edge.high],
                 "mean_candidate": float(np.mean(means[:-1])), "sigma": float(es.sigma)}
        state["log"].append(entry)
        _save_state(state, state_path)
        progress(f"generation {state['generation']}/{settings.generations}: best candidate "
                 f"{means[best]:.4f}, expert {means[-1]:.4f} on the same games "
                 f"(best − expert {edge.value:+.4f} [{edge.low:+.4f}, {edge.high:+.4f}], "
                 f"a winner's pick), sigma {es.sigma:.2f}")
    final = weights_at(es.mean)
    validate = validate or _held_out_evaluator(settings, threads)
    started = time.process_time()
    tuned_out, expert_out = validate([vector(final), base], 0)
    cpu = state["cpu_seconds"] + time.process_time() - started
    estimate = paired_difference(tuned_out, expert_out)
    settings_dict = asdict(settings)
    provenance = {
        "settings": settings_dict, "command": command, "engine_version": ENGINE_VERSION,
        "optimiser": f"CMA-ES (cma {state['cma_version']}), population "
                     f"{settings.population}, sigma0 1 in knob steps",
        "knobs": [asdict(k) for k in KNOBS],
        "training_seed": 2 * settings.seed, "validation_seed": 2 * settings.seed + 1,
        "training_games": settings.generations * (settings.population + 1) * settings.games,
        "validation_games": settings.validation_games, "cpu_seconds": round(cpu, 1),
        "validation": {"what": f"tuned minus expert, {OBJECTIVES[settings.objective]}, paired, "
                               "held-out games", "value": estimate.value, "low": estimate.low,
                       "high": estimate.high, "n": estimate.n,
                       "tuned_mean": float(np.mean(tuned_out)),
                       "expert_mean": float(np.mean(expert_out))},
        "log": state["log"]}
    policy = tuned.TunedPolicy(settings.name, final, settings.rules, settings.objective,
                               provenance)
    done.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(done, lambda tmp: Path(tmp).write_text(policy.to_json(), encoding="utf-8"),
                     "tuned policy")
    return TuneResult(policy, estimate, state["log"])


def _held_out_evaluator(settings: TuneSettings, threads: int | None) -> Evaluate:
    rules = played_rules(settings)

    def validate(vectors, _generation):
        return [focal_outcomes(rules, settings.objective, v, 2 * settings.seed + 1, 0,
                               settings.validation_games, threads) for v in vectors]
    return validate


__all__ = ["KNOBS", "OBJECTIVES", "TuneError", "TuneResult", "TuneSettings", "check_settings",
           "focal_outcomes", "run", "weights_at"]
