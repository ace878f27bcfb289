"""Tuned policies: expert's weight vector, the tuner (with fake objectives: no games), storage,
and the command's errors."""

import json
from pathlib import Path

import numpy as np
import pytest

from vandatta_sim import engine as E
from vandatta_sim import tune, tuned
from vandatta_sim.rules import Rules, get_preset
from vandatta_sim.simulate import Seats, SimulationError, check_policy, simulate


@pytest.fixture
def tuned_dir(tmp_path, monkeypatch):
    """A folder of tuned policies that names are looked up in (VANDATTA_TUNED)."""
    folder = tmp_path / "policies"
    folder.mkdir()
    monkeypatch.setenv("VANDATTA_TUNED", str(folder))
    return folder


@pytest.fixture
def store_tuned(tmp_path, monkeypatch):
    """A working folder with no tuned policies looked up yet: returns STORE/tuned of a store
    ``tmp_path / "s"`` (made), with VANDATTA_TUNED unset and no store in use."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VANDATTA_TUNED", raising=False)
    monkeypatch.setattr(tuned, "_store_folder", None)
    folder = tmp_path / "s" / "tuned"
    folder.mkdir(parents=True)
    return folder


def _store_policy(folder, name, weights, **extra):
    policy = tuned.TunedPolicy(name, dict(zip(E.WEIGHT_NAMES, weights)), {}, "match", extra)
    (folder / f"{name}.json").write_text(policy.to_json(), encoding="utf-8")


def _settings(name="fake", generations=4, **changes):
    rules = get_preset("standard").replace(players=2, **changes)
    return tune.check_settings(name, rules, "match", generations, 6, 20, 20, 3)


# --- the weight vector in the kernel ---------------------------------------------------------------
def test_expert_weights_name_every_row_slot_once():
    assert len(E.WEIGHT_NAMES) == len(E.EXPERT_WEIGHTS) == len(set(E.WEIGHT_NAMES))
    assert len(E.WEIGHT_NAMES) <= E.N_WEIGHTS
    assert E.C_ORDINARY_VALUE - E.C_WEIGHTS == E.MAX_SEATS * E.N_WEIGHTS
    assert {k.name for k in tune.KNOBS} <= set(E.WEIGHT_NAMES)


def test_a_tuned_policy_with_experts_weights_plays_experts_games(tuned_dir):
    """The weights reach the kernel through the seat's row; expert's own row is its constants,
    so a stored copy of them plays exactly expert's games, and other weights play others."""
    _store_policy(tuned_dir, "same", E.EXPERT_WEIGHTS)
    changed = dict(zip(E.WEIGHT_NAMES, E.EXPERT_WEIGHTS), suit_length=-30, card_value=1)
    _store_policy(tuned_dir, "other", tuple(changed.values()))
    rules = get_preset("standard").replace(players=3)
    base = simulate(rules, 150, seed=4, policies="expert")
    assert base.equals(simulate(rules, 150, seed=4, policies=["tuned:same", "expert", "expert"]))
    assert base.equals(simulate(rules, 150, seed=4, policies="all=tuned:same"))
    assert not base.equals(simulate(rules, 150, seed=4, policies=["tuned:other", "expert",
                                                                 "expert"]))
    rows = Seats.build(3, ["tuned:other", "expert", "tuned:same"]).weight_rows()
    assert tuple(rows[0, : len(E.WEIGHT_NAMES)]) == tuple(changed.values())
    assert (rows[1:3, : len(E.WEIGHT_NAMES)] == E.EXPERT_WEIGHTS).all()


def test_the_tuners_start_plays_experts_games(tuned_dir):
    """tune.START respells two lexicographic constants: the same games, cheap or costly cards."""
    _store_policy(tuned_dir, "start", tune.vector(tune.start_weights()))
    for rules in (get_preset("standard").replace(players=4, match="single"),
                  get_preset("crazy-eights-scoring").replace(players=3),
                  get_preset("seed001").replace(players=2, jokers=2, decks=1),
                  get_preset("standard").replace(match="single", scale={
                      "base": "base", "8": 1000, "A": 1000, "K": 1000})):
        seats = ["tuned:start"] + ["expert"] * (rules.players - 1)
        assert simulate(rules, 200, seed=6).equals(simulate(rules, 200, seed=6, policies=seats))


def test_tuned_specs_are_checked_and_canonical(tuned_dir):
    _store_policy(tuned_dir, "mine", E.EXPERT_WEIGHTS)
    assert check_policy(" tuned : mine ") == "tuned:mine"
    for bad, message in (("tuned:nobody", "no tuned policy of that name; allowed: .*mine"),
                         ("tuned", "allowed: tuned:NAME"), ("tuned:a:b", "allowed: tuned:NAME"),
                         ("tuned:../x", "name '../x' is not allowed")):
        with pytest.raises(SimulationError, match=message) as err:
            check_policy(bad)
        assert "\n" not in str(err.value)
    (tuned_dir / "broken.json").write_text("{\"name\": 1}")
    with pytest.raises(SimulationError, match="cannot be read"):
        check_policy("tuned:broken")


SHIPPED = tuned.shipped()
POLICIES_DOC = Path(__file__).resolve().parent.parent / "docs" / "policies.md"


def test_the_package_ships_tuned_policies():
    """Guards the parametrized test below against an empty catalogue."""
    assert {"standard-base-4", "standard-hundred-4", "standard-crazy_eights-4"} <= set(SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_policy_loads_names_its_table_and_plays_there(name):
    """Every shipped file reads, names exactly the table it was tuned for, carries its tuning
    run's provenance, and plays as a seat at that table (other games than expert's there)."""
    policy = tuned.load(name)
    assert policy.name == name and tuned.find(name).parent == tuned.CATALOGUE
    rules = Rules().replace(**policy.rules)
    assert rules.canonical() == policy.rules and name in tuned.for_rules(rules)
    assert policy.objective in tune.OBJECTIVES
    prov = policy.provenance
    assert prov["command"].startswith(f"vandatta-sim tune {name} ")
    assert prov["validation"]["n"] >= 20_000 and prov["cpu_seconds"] > 0
    assert prov["validation"]["low"] <= prov["validation"]["value"] <= prov["validation"]["high"]
    seats = [f"tuned:{name}"] + ["expert"] * (rules.players - 1)
    games = 20 * rules.players  # matches in the policy's own format: a few hundred deals
    assert not simulate(rules, games, seed=5).equals(simulate(rules, games, seed=5,
                                                              policies=seats))


def test_the_docs_table_of_shipped_policies_is_the_files_own():
    assert tuned.catalogue_markdown() in POLICIES_DOC.read_text(encoding="utf-8"), (
        "docs/policies.md's table of shipped tuned players is stale: paste "
        "`python scripts/tuned_players.py --shipped` into it")


# --- the tuner, on fake objectives -------------------------------------------------------------
TARGET = {"card_value": 30, "suit_length": 80, "next_lacks": -100}


def _fake(vectors, generation, noise=0.05):
    """Outcomes that peak where the knobs in TARGET sit at their targets (noisy, seeded by the
    generation so that a resumed run sees the same numbers)."""
    rng = np.random.default_rng(generation)
    out = []
    for v in vectors:
        w = dict(zip(E.WEIGHT_NAMES, v))
        loss = sum(((w[k] - t) / next(x.step for x in tune.KNOBS if x.name == k)) ** 2
                   for k, t in TARGET.items())
        out.append(-loss + noise * rng.standard_normal(20))
    return out


def _distance(weights):
    return sum(abs(weights[k] - t) for k, t in TARGET.items())


def test_the_tuner_moves_towards_the_better_weights(tmp_path):
    settings = _settings(generations=25)
    result = tune.run(settings, tmp_path, evaluate=_fake, validate=_fake)
    start = dict(zip(E.WEIGHT_NAMES, E.EXPERT_WEIGHTS))
    assert _distance(result.policy.weights) < 0.4 * _distance(start)
    assert len(result.log) == 25 and result.validation.n == 20
    stored = json.loads((tmp_path / "tuned" / "fake.json").read_text())
    assert stored["provenance"]["settings"]["generations"] == 25
    assert stored["rules"] == settings.rules and stored["objective"] == "match"


def test_an_interrupted_tuning_resumes_to_the_same_weights(tmp_path):
    settings = _settings(generations=6)
    straight = tune.run(settings, tmp_path / "a", evaluate=_fake, validate=_fake)

    calls = []

    def interrupted(vectors, generation):
        if generation == 3:
            raise KeyboardInterrupt
        calls.append(generation)
        return _fake(vectors, generation)

    with pytest.raises(KeyboardInterrupt):
        tune.run(settings, tmp_path / "b", evaluate=interrupted, validate=_fake)
    assert calls == [0, 1, 2] and not (tmp_path / "b" / "tuned" / "fake.json").exists()
    lines = []
    resumed = tune.run(settings, tmp_path / "b", evaluate=_fake, validate=_fake,
                       progress=lines.append)
    assert lines[0] == "resuming fake after generation 3"
    assert resumed.policy.weights == straight.policy.weights
    assert resumed.log == straight.log
    again = tune.run(settings, tmp_path / "b", evaluate=None, validate=None)  # no games: done
    assert again.policy.weights == straight.policy.weights


def test_a_stored_run_refuses_other_settings(tmp_path):
    tune.run(_settings(generations=2), tmp_path, evaluate=_fake, validate=_fake)
    with pytest.raises(tune.TuneError, match="other settings") as err:
        tune.run(_settings(generations=3), tmp_path, evaluate=_fake, validate=_fake)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("changes, message", [
    (dict(objective="wins"), "objective 'wins' is not allowed; allowed: match, deals, points"),
    (dict(population=2), "population = 2 is not allowed; allowed: an integer ≥ 4"),
    (dict(games=21), "allowed: multiples of players = 2"),
    (dict(generations=0), "generations = 0 is not allowed"),
    (dict(name="a b"), "name 'a b' is not allowed"),
])
def test_bad_settings_are_one_line_errors(changes, message):
    args = dict(name="x", rules=get_preset("standard").replace(players=2), objective="match",
                generations=2, population=6, games=20, validation_games=20, seed=0)
    args.update(changes)
    with pytest.raises(ValueError, match=message) as err:
        tune.check_settings(**args)
    assert "\n" not in str(err.value)


def test_the_match_objective_needs_a_match():
    with pytest.raises(tune.TuneError, match="needs a match format"):
        tune.check_settings("x", get_preset("standard").replace(match="single"), "match", 2, 6,
                            20, 20, 0)


def test_candidate_outcomes_rotate_the_seat_and_pair_the_games():
    rules = get_preset("standard").replace(players=2, match="single")
    a = tune.candidate_outcomes(rules, "deals", E.EXPERT_WEIGHTS, 5, 0, 40)
    b = tune.candidate_outcomes(rules, "deals", E.EXPERT_WEIGHTS, 5, 0, 40)
    assert a.shape == (40,) and set(np.unique(a)) <= {0.0, 1.0} and (a == b).all()
    df = simulate(rules, 40, seed=5)  # expert everywhere: seat 0 in games 0-19, seat 1 after
    expected = np.concatenate([(df.winner[:20] == 0), (df.winner[20:] == 1)]).astype(float)
    assert (a == expected).all()
    points = tune.candidate_outcomes(rules, "points", E.EXPERT_WEIGHTS, 5, 0, 40)
    assert (points == -np.concatenate([df.points_0[:20], df.points_1[20:]])).all()


def test_the_command_tunes_resumes_and_refuses_bad_input(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from vandatta_sim.cli import main

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    args = ["tune", "tiny", "--players", "2", "--set", "match=deals:2", "--generations", "1",
            "--population", "4", "--candidate-games", "8", "--validation-games", "8", "--seed", "1"]
    done = runner.invoke(main, args)
    assert done.exit_code == 0, done.output
    assert "Verdict: " in done.output and (tmp_path / "results/tuned/tiny.json").is_file()
    assert "tuned:tiny" in runner.invoke(main, ["tune", "--list"]).output
    played = runner.invoke(main, ["simulate", "--games", "5", "--players", "2", "--match",
                                  "single", "--policy", "0=tuned:tiny"])
    assert played.exit_code == 0, played.output
    for bad, message in ((["--objective", "x"], "objective 'x' is not allowed"),
                         (["--candidate-games", "7"], "multiples of players"),
                         (["--set", "match=single"], "needs a match format")):
        out = runner.invoke(main, args[:2] + ["--players", "2"] + bad + ["--store", "other"])
        assert out.exit_code == 2 and message in out.output, out.output
        assert len(out.output.strip().splitlines()) == 1
    assert not (tmp_path / "other").exists()


# --- the saved state is data, never code; one tune of a name at a time ---------------------------
PACKAGE = Path(__file__).resolve().parent.parent / "vandatta_sim"


def test_no_module_of_the_package_unpickles_anything():
    """A store is shared: nothing read from it may run code (pickle, marshal, shelve, eval)."""
    import re

    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\b(pickle|cPickle|dill|cloudpickle|marshal|shelve)\.(load|loads)"
                             r"\b|^\s*import (pickle|marshal|shelve)\b", text, re.M), path


def test_a_crafted_pickle_in_the_store_is_never_loaded(tmp_path):
    """An older version's (or an attacker's) state.pkl: refused by name, its code never run."""
    import pickle

    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (Path.touch, (marker,))

    folder = tune.run_folder(tmp_path, "fake")
    folder.mkdir(parents=True)
    (folder / "state.pkl").write_bytes(pickle.dumps(Payload()))
    assert not marker.exists()
    with pytest.raises(tune.TuneError, match="state.pkl is an older version's saved state, a "
                       "pickle, which is never loaded") as err:
        tune.run(_settings(), tmp_path, evaluate=_fake, validate=_fake)
    assert not marker.exists() and "\n" not in str(err.value)
    # a pickle under the new name is refused as damaged data, not run either
    (folder / "state.pkl").unlink()
    (folder / "state.json").write_bytes(pickle.dumps(Payload()))
    with pytest.raises(tune.TuneError, match="saved tuning state: cannot read .* not UTF-8"):
        tune.run(_settings(), tmp_path, evaluate=_fake, validate=_fake)
    assert not marker.exists()


def test_the_saved_state_is_checked_json(tmp_path):
    settings = _settings(generations=4)

    def stop_at_2(vectors, generation):
        if generation == 2:
            raise KeyboardInterrupt
        return _fake(vectors, generation)

    with pytest.raises(KeyboardInterrupt):
        tune.run(settings, tmp_path, evaluate=stop_at_2, validate=_fake)
    path = tune.run_folder(tmp_path, "fake") / "state.json"
    good = json.loads(path.read_text())
    assert good["generation"] == 2 and len(good["fitnesses"]) == 2
    for damage, message in (
            (lambda s: "[" * 100_000, "nested too deeply"),
            (lambda s: "{\"a\": NaN}", "NaN is not a JSON number"),
            (lambda s: json.dumps({**s, "fitnesses": [[1.0], [2.0]]}), "fitnesses must be 2 lists"),
            (lambda s: json.dumps({**s, "generation": 9}), "generation must be an integer 0–4"),
            (lambda s: json.dumps({**s, "version": 99}), "not 'vandatta-sim tune state' version 1"),
            (lambda s: json.dumps({**s, "extra": 1}), "exactly the fields"),
            (lambda s: json.dumps({**s, "mean": [0.5] * len(tune.KNOBS)}),
             "does not replay to its own mean and sigma"),
            (lambda s: json.dumps({**s, "settings": {**s["settings"], "seed": 9}}),
             r"other settings \(seed\)")):
        path.write_text(damage(good))
        with pytest.raises(tune.TuneError, match=message) as err:
            tune.run(settings, tmp_path, evaluate=_fake, validate=_fake)
        assert "\n" not in str(err.value)
    path.write_text(json.dumps(good))
    resumed = tune.run(settings, tmp_path, evaluate=_fake, validate=_fake)
    straight = tune.run(settings, tmp_path / "other", evaluate=_fake, validate=_fake)
    assert resumed.policy.weights == straight.policy.weights and resumed.log == straight.log


def test_a_second_tune_of_one_name_refuses_while_the_first_runs(tmp_path):
    """The lock is per name and store and is taken before anything is read: the second run
    refuses at once (another process holds it: its pid is named), a third after the first
    ended runs, and the lock file is gone with the run that held it."""
    import subprocess
    import sys

    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from vandatta_sim import tune\n"
         f"with tune.tune_lock({str(tmp_path)!r}, 'fake'):\n"
         "    print('held', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(tune.TuneError, match=f"another tune of this name is running in "
                           f".*\\(process {holder.pid}\\); allowed: wait") as err:
            tune.run(_settings(), tmp_path, evaluate=_fake, validate=_fake)
        assert "\n" not in str(err.value)
        assert not (tmp_path / "tuned" / "fake.json").exists()
        other = tune.run(_settings(name="other"), tmp_path, evaluate=_fake, validate=_fake)
        assert other.policy.name == "other"  # another name is not blocked
    finally:
        holder.stdin.close()
        holder.wait()
        holder.stdout.close()
    assert holder.returncode == 0 and not (tmp_path / "tuned" / "fake.lock").exists()
    tune.run(_settings(), tmp_path, evaluate=_fake, validate=_fake)
    assert (tmp_path / "tuned" / "fake.json").is_file()
    assert not (tmp_path / "tuned" / "fake.lock").exists()


def test_a_result_of_other_settings_written_meanwhile_is_not_overwritten(tmp_path):
    """Settings are checked again when the result is written: a policy file that appeared
    during the run (a writer without the lock) with other settings stays as it was."""
    other = tune.run(_settings(generations=1), tmp_path / "a", evaluate=_fake, validate=_fake)
    target = tmp_path / "b" / "tuned" / "fake.json"

    def sneaky(vectors, generation):
        if generation == 1:
            target.write_text(other.policy.to_json())
        return _fake(vectors, generation)

    with pytest.raises(tune.TuneError, match="holds a policy tuned with other settings"):
        tune.run(_settings(generations=2), tmp_path / "b", evaluate=sneaky, validate=_fake)
    assert target.read_text() == other.policy.to_json()


def test_a_tune_may_not_take_a_shipped_name():
    name = tuned.shipped()[0]
    with pytest.raises(tune.TuneError, match=f"tune name '{name}' is a shipped policy's name"):
        _settings(name=name)


# --- names lead where they say ----------------------------------------------------------------------
def test_a_policy_tuned_into_a_store_is_found_from_that_store(store_tuned, tmp_path,
                                                              monkeypatch):
    folder = store_tuned
    _store_policy(folder, "mine", E.EXPERT_WEIGHTS)
    with pytest.raises(SimulationError, match="no tuned policy of that name; .*found by commands "
                       "given --store DIR, by others with VANDATTA_TUNED=DIR/tuned"):
        check_policy("tuned:mine")
    tuned.use_store(tmp_path / "s")  # what a command given --store s does
    assert check_policy("tuned:mine") == "tuned:mine"
    monkeypatch.setattr(tuned, "_store_folder", None)
    monkeypatch.setenv("VANDATTA_TUNED", str(folder))
    assert check_policy("tuned:mine") == "tuned:mine"


def test_tune_list_honours_the_store_and_survives_a_bad_file(store_tuned):
    from click.testing import CliRunner

    from vandatta_sim.cli import main

    folder = store_tuned
    _store_policy(folder, "good", E.EXPERT_WEIGHTS, validation={"value": 0.01, "low": -0.01,
                                                                 "high": 0.03, "n": 20})
    (folder / "bad.json").write_text("{\"name\": ")
    (folder / "deep.json").write_text("[" * 100_000)
    _store_policy(folder, "odd", E.EXPERT_WEIGHTS, validation="none")
    out = CliRunner().invoke(main, ["tune", "--list", "--store", "s"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert any(ln.startswith("tuned:good  ") for ln in lines), out.output
    for name, why in (("bad", "cannot be read"), ("deep", "nested too deeply"),
                      ("odd", "lacks its rules or held-out check")):
        assert any(ln.startswith(f"warning: tuned:{name} is left out") and why in ln
                   for ln in lines), out.output
    assert "Traceback" not in out.output
    without = CliRunner().invoke(main, ["tune", "--list"])  # results/ holds none of them
    assert without.exit_code == 0 and "tuned:good" not in without.output


def test_the_tune_command_refuses_a_shipped_name_and_a_running_name(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from vandatta_sim.cli import main

    monkeypatch.chdir(tmp_path)
    args = ["--players", "2", "--set", "match=deals:2", "--generations", "1", "--population",
            "4", "--candidate-games", "8", "--validation-games", "8"]
    out = CliRunner().invoke(main, ["tune", tuned.shipped()[0], *args])
    assert out.exit_code == 2 and out.output.startswith("Error: tune name"), out.output
    with tune.tune_lock("results", "busy"):
        out = CliRunner().invoke(main, ["tune", "busy", *args])
    assert out.exit_code == 2 and "another tune of this name is running" in out.output
    assert len(out.output.strip().splitlines()) == 1
    assert not (tmp_path / "results" / "tuned" / "busy.json").exists()
