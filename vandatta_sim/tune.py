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

Resumable: after every generation the run's state is written atomically to
``STORE/tuned/NAME.run/state.json``, as data only (every generation's fitnesses, the log, CMA's
mean and sigma, CPU seconds spent; never a pickle: a store is shared, and loading a pickle runs
whatever code it names). A rerun of the same command replays the fitnesses into a fresh seeded
optimiser, which rebuilds CMA's state exactly, continues where it stopped and gives the same
weights as an uninterrupted run (tests check this). With other settings under the same name it
is an error, and one tune of a name runs at a time in a store (``STORE/tuned/NAME.lock``). When all
generations are done, CMA's mean (rounded) is validated against `expert` on held-out games (seed
``2 * seed + 1``; training uses ``2 * seed``): the paired difference in the objective with its
95% interval. The policy file ``STORE/tuned/NAME.json`` then holds weights, rules, objective and
provenance.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from . import ENGINE_VERSION
from . import engine as E
from . import tuned
from .atomic import write_atomically
from .paths import PathError, check_output_file, read_json_file, shorten
from .rules import Rules
from .simulate import Seats, SimulationError, simulate
from .stats import Estimate, paired_difference

try:  # POSIX; elsewhere tunes of one name are not serialised
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None

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
    if name in tuned.shipped():  # a shipped policy is found first: the tune would never be
        raise TuneError(f"tune name {name!r} is a shipped policy's name (tuned:{name} is always "
                        "the shipped one); allowed: another name, not one of "
                        f"{', '.join(tuned.shipped())}")
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


def candidate_outcomes(rules: Rules, objective: str, weights: tuple[int, ...], seed: int,
                   first_game: int, games: int, threads: int | None = None,
                   others: tuple[int, ...] | None = None) -> np.ndarray:
    """The focal seat's outcome in each of ``games`` games (seat k plays the k-th equal block,
    the others `expert`, or expert with the weights ``others``): 1/0 for a match or deal won,
    minus its points for ``points``.

    The training layout: one seed, the focal seat rotated block by block. The package's
    focal-seat design (:func:`vandatta_sim.experiments.designs.focal_outcomes`: seat s on seed
    ``seed + s``) pairs the same way; this one is kept because the shipped tuned players were
    fitted on it, and rerunning a tuning must give them again."""
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
        return [candidate_outcomes(rules, settings.objective, v, 2 * settings.seed,
                               generation * settings.games, settings.games, threads)
                for v in vectors]
    return evaluate


# --- the run -------------------------------------------------------------------------------------
def run_folder(store: str | os.PathLike, name: str) -> Path:
    return Path(store) / tuned.STORE_FOLDER / f"{name}.run"


def policy_path(store: str | os.PathLike, name: str) -> Path:
    return Path(store) / tuned.STORE_FOLDER / f"{name}.json"


#: The saved state of an unfinished run (``STORE/tuned/NAME.run/state.json``): data only, never
#: code. It holds every generation's fitnesses; a resume replays them into a fresh optimiser
#: with the same seed, which rebuilds CMA's state exactly (CMA is deterministic given its seed
#: and what it is told), and checks that the replay reaches the stored mean and sigma.
STATE_FILE = "state.json"
STATE_FORMAT = "vandatta-sim tune state"
STATE_VERSION = 1
STATE_KEYS = ("format", "version", "settings", "cma_version", "generation", "fitnesses", "log",
              "cpu_seconds", "mean", "sigma")
#: The state file of older versions: a pickle, which can run code when loaded, so it never is.
LEGACY_STATE_FILE = "state.pkl"
#: A state file's size limit: a few hundred bytes per generation and candidate.
MAX_STATE_BYTES = 64 << 20
#: The lock that serialises tunes of one name (``STORE/tuned/NAME.lock``, ``fcntl.flock``).
LOCK_SUFFIX = ".lock"


def _new_optimiser(settings: TuneSettings):
    """CMA at expert's weights, seeded; and numpy's random state it draws from (CMA samples
    with the global generator, which the run sets before every ask: games may draw from it)."""
    import cma

    es = cma.CMAEvolutionStrategy(np.zeros(len(KNOBS)), 1.0, {
        "popsize": settings.population, "seed": settings.seed + 1, "verbose": -9,
        "verb_disp": 0, "verb_log": 0, "tolfun": 0, "tolflatfitness": 10**9,
        "tolstagnation": 10**9})
    return es, np.random.get_state()


def _new_state(settings: TuneSettings) -> dict:
    import cma

    return {"format": STATE_FORMAT, "version": STATE_VERSION, "settings": asdict(settings),
            "cma_version": cma.__version__, "generation": 0, "fitnesses": [], "log": [],
            "cpu_seconds": 0.0, "mean": [0.0] * len(KNOBS), "sigma": 1.0}


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and np.isfinite(value)


def _state_problem(state, settings: TuneSettings) -> str | None:
    """What is wrong with a loaded state's data (None: nothing), short of its settings."""
    if not isinstance(state, dict) or sorted(state) != sorted(STATE_KEYS):
        return f"it must be an object with exactly the fields {', '.join(STATE_KEYS)}"
    if state["format"] != STATE_FORMAT or state["version"] != STATE_VERSION:
        return (f"format {shorten(repr(state['format']))} version "
                f"{shorten(repr(state['version']))}, not {STATE_FORMAT!r} version {STATE_VERSION}")
    n = state["generation"]
    if not (isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= settings.generations):
        return f"generation must be an integer 0–{settings.generations}"
    rows = state["fitnesses"]
    if not (isinstance(rows, list) and len(rows) == n and all(
            isinstance(r, list) and len(r) == settings.population and all(map(_is_number, r))
            for r in rows)):
        return f"fitnesses must be {n} lists of {settings.population} finite numbers"
    if not (isinstance(state["log"], list) and len(state["log"]) == n
            and all(isinstance(e, dict) for e in state["log"])):
        return f"log must be {n} objects"
    mean = state["mean"]
    if not (isinstance(mean, list) and len(mean) == len(KNOBS) and all(map(_is_number, mean))
            and _is_number(state["sigma"]) and state["sigma"] > 0
            and _is_number(state["cpu_seconds"]) and state["cpu_seconds"] >= 0):
        return (f"mean must be {len(KNOBS)} finite numbers, sigma and cpu_seconds finite "
                "positive numbers")
    if not isinstance(state["cma_version"], str):
        return "cma_version must be a string"
    return None


def _load_state(settings: TuneSettings, path: Path) -> dict:
    """The saved state at ``path`` checked (JSON data, never code), or a one-line TuneError."""
    again = (f"allowed: remove {shorten(str(path.parent))} to start the run over, or another "
             "name")
    try:
        state = read_json_file(path, "saved tuning state", MAX_STATE_BYTES)
    except PathError as exc:
        raise TuneError(f"tune {settings.name!r}: {exc}; {again}") from None
    problem = _state_problem(state, settings)
    if problem:
        raise TuneError(f"tune {settings.name!r}: saved tuning state {shorten(str(path))} is "
                        f"damaged: {problem}; {again}")
    stored = state["settings"]
    if stored != asdict(settings):
        diff = (sorted(k for k in asdict(settings) if stored.get(k) != asdict(settings)[k])
                if isinstance(stored, dict) else ["all"])
        raise TuneError(f"tune {settings.name!r}: the stored run in {path.parent} has other "
                        f"settings ({', '.join(diff)}); allowed: the same settings to resume, "
                        f"or another name")
    return state


def _replay(es, random, state: dict, settings: TuneSettings, path: Path):
    """The optimiser told the stored generations' fitnesses again: CMA's state as it was."""
    for fitnesses in state["fitnesses"]:
        np.random.set_state(random)
        es.tell(es.ask(), [float(f) for f in fitnesses])
        random = np.random.get_state()
    if [float(v) for v in es.mean] != state["mean"] or float(es.sigma) != state["sigma"]:
        import cma

        raise TuneError(f"tune {settings.name!r}: the saved state in {path.parent} does not "
                        f"replay to its own mean and sigma (saved with cma "
                        f"{shorten(state['cma_version'])}, this is cma {cma.__version__}); "
                        f"allowed: remove {path.parent} to start the run over, or another name")
    return random


def _save_state(state: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(state, allow_nan=False) + "\n"
    write_atomically(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"),
                     "tuning state")


@contextlib.contextmanager
def tune_lock(store: str | os.PathLike, name: str):
    """Hold the lock of tune ``name`` in ``store`` (``fcntl.flock`` on ``tuned/NAME.lock``,
    released by the system when the process ends, however it ends; the file is removed on the
    way out). Another process holding it: a TuneError at once, never a wait for a long run."""
    folder = Path(store) / tuned.STORE_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}{LOCK_SUFFIX}"
    if fcntl is None:  # pragma: no cover (not POSIX)
        yield
        return
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            text = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            holder = f" (process {text})" if text.isdigit() else ""
            raise TuneError(f"tune {name!r}: another tune of this name is running in "
                            f"{shorten(str(Path(store)))}{holder}; allowed: wait for it to end "
                            f"(the same command then finds its result), or another name"
                            ) from None
        # the previous holder removed the file before we locked it: lock the current one
        if _same_file(fd, path):
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        try:
            os.unlink(path)  # while still held: a waiter then sees another file and retries
        except OSError:
            pass
        os.close(fd)


def _same_file(fd: int, path: Path) -> bool:
    try:
        a, b = os.fstat(fd), os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


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
    pass fakes for both. One run of a name at a time per store (:func:`tune_lock`): a second
    one refuses; everything below, the stored files' checks included, runs under the lock."""
    with tune_lock(store, settings.name):
        return _run_locked(settings, store, evaluate, validate, threads, command, progress)


def _finished(settings: TuneSettings, done: Path) -> tuned.TunedPolicy | None:
    """The stored policy of these settings (None: none stored), or a TuneError for other
    settings or a damaged file."""
    if not done.is_file():
        return None
    try:
        policy = tuned.read_file(done)
        ok = (policy.provenance.get("settings") == asdict(settings)
              and {"value", "low", "high", "n"} <= set(policy.provenance["validation"])
              and isinstance(policy.provenance["log"], list))
    except tuned.TunedPolicyError as exc:
        raise TuneError(f"tune {settings.name!r}: {exc}; allowed: remove it to tune again, "
                        "or another name") from None
    except (KeyError, TypeError):
        ok = False
    if not ok:
        raise TuneError(f"tune {settings.name!r}: {done} holds a policy tuned with other "
                        f"settings; allowed: the same settings, or another name")
    return policy


def _run_locked(settings, store, evaluate, validate, threads, command, progress) -> TuneResult:
    done = policy_path(store, settings.name)
    try:  # the result's path, checked before the games, not after them
        check_output_file(done, "tuned policy")
    except PathError as exc:
        raise TuneError(f"tune {settings.name!r}: {exc}") from None
    policy = _finished(settings, done)
    if policy is not None:
        v = policy.provenance["validation"]
        return TuneResult(policy, Estimate(v["value"], v["low"], v["high"], v["n"]),
                          policy.provenance["log"])
    folder = run_folder(store, settings.name)
    if (folder / LEGACY_STATE_FILE).exists():
        raise TuneError(f"tune {settings.name!r}: {folder / LEGACY_STATE_FILE} is an older "
                        "version's saved state, a pickle, which is never loaded (loading one "
                        f"can run any code); allowed: remove {folder} to start the run over, "
                        "or another name")
    state_path = folder / STATE_FILE
    state = _load_state(settings, state_path) if state_path.is_file() else _new_state(settings)
    es, random = _new_optimiser(settings)
    random = _replay(es, random, state, settings, state_path)
    if state["generation"]:
        progress(f"resuming {settings.name} after generation {state['generation']}")
    evaluate = evaluate or game_evaluator(settings, threads)
    base = E.EXPERT_WEIGHTS  # the table's own player, on the same games
    while state["generation"] < settings.generations:
        started = time.process_time()
        np.random.set_state(random)
        xs = es.ask()
        vectors = [vector(weights_at(x)) for x in xs]
        outcomes = evaluate([*vectors, base], state["generation"])
        means = [float(np.mean(o)) for o in outcomes]
        fitnesses = [-m for m in means[:-1]]  # CMA minimises
        es.tell(xs, fitnesses)
        random = np.random.get_state()
        best = int(np.argmax(means[:-1]))
        edge = paired_difference(outcomes[best], outcomes[-1])
        state["generation"] += 1
        state["cpu_seconds"] += time.process_time() - started
        state["fitnesses"].append(fitnesses)
        state["mean"], state["sigma"] = [float(v) for v in es.mean], float(es.sigma)
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
    # settings checked again at the write: a file put there meanwhile (by a tune of another
    # version, without the lock) is never overwritten by another settings' result
    _finished(settings, done)
    done.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(done, lambda tmp: Path(tmp).write_text(policy.to_json(), encoding="utf-8"),
                     "tuned policy")
    return TuneResult(policy, estimate, state["log"])


def _held_out_evaluator(settings: TuneSettings, threads: int | None) -> Evaluate:
    rules = played_rules(settings)

    def validate(vectors, _generation):
        return [candidate_outcomes(rules, settings.objective, v, 2 * settings.seed + 1, 0,
                               settings.validation_games, threads) for v in vectors]
    return validate


__all__ = ["KNOBS", "OBJECTIVES", "TuneError", "TuneResult", "TuneSettings", "check_settings",
           "candidate_outcomes", "run", "weights_at"]
