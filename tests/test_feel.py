"""The game feel (docs/columns.md): the engine's measures agree exactly with a plain-Python
recount from the traced games (tests/feel_recount.py: the trace, the rules and the referee's
legality, no engine code), under any rules, table size, match format and policy; recording them
changes no game."""

from __future__ import annotations

import pandas as pd
from feel_recount import recount
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_engine import rule_sets

from vandatta_sim.rules import PRESETS, Rules
from vandatta_sim.simulate import (
    FEEL_COLUMNS, MATCH_FEEL_COLUMNS, SEAT_FEEL_COLUMNS, simulate, trace_game)

MIXED = ["search:budget=2", "random", "greedy", "expert", "eight-dumper", "expert:eights=3",
         "expert:eights=dump", "greedy", "random", "expert"]


def feel_names(rules: Rules) -> list[str]:
    names = list(FEEL_COLUMNS)
    if rules.match != "single":
        names += MATCH_FEEL_COLUMNS
    return names + [f"{name}_{s}" for name in SEAT_FEEL_COLUMNS for s in range(rules.players)]


def check_against_traces(rules: Rules, seed: int, policies, games: int) -> pd.DataFrame:
    forget = {"all": 0.3}
    felt = simulate(rules, games, seed=seed, policies=policies, forget=forget, feel=True)
    plain = simulate(rules, games, seed=seed, policies=policies, forget=forget)
    # the same games: the feel kernel only observes
    pd.testing.assert_frame_equal(felt[list(plain.columns)], plain)
    assert list(felt.columns) == list(plain.columns) + feel_names(rules)
    for game in range(games):
        trace = trace_game(rules, seed, game, policies=policies, forget=forget)
        expected = recount(trace, rules)
        got = {name: int(felt.iloc[game][name]) for name in expected}
        assert got == expected, (game, {k: (got[k], v) for k, v in expected.items()
                                        if got[k] != v})
    return felt


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=st.integers(0, 2**32), policy=st.sampled_from(
    ["random", "greedy", "expert", "eight-dumper", "search:budget=2", "mixed"]))
@example(rules=Rules(  # a start joker kept (the talon holds nothing else to turn)
    players=7, decks="auto", hand_size=15, jokers=1, joker_effect="reverse", start_eight="bury",
    start_ace="all_draw", must_play=False, stacking=False, eight_follow="next_player",
    eight_on_ace=False, eight_on_eight=False, ace_on_eight=False, ace_on_ace="forbidden",
    ace_draw=0, ace_extra_turn=False, draw_limit=0, specials_only_must_draw=False,
    out_on_special=False, last_card_start_suit=False, two_draws_two=False, call_at=1,
    call_penalty=0, reshuffles=0, scale="base", match="single"), seed=2, policy="random")
def test_the_engine_measures_agree_with_a_recount_from_the_traces(rules, seed, policy):
    policies = MIXED[: rules.players] if policy == "mixed" else policy
    check_against_traces(rules, seed, policies, 6)


def test_the_measures_are_consistent_and_vary():
    """Bounds that hold by definition, on standard's deals and on a match: a deal's decisive
    turns are at least one (the winner leads after its last turn) and at most its turns, a
    comeback at most one a deal won, options at least one a turn, every turn counted for one
    seat; and the measures are not
    constant (a recount that always agreed on zeros would prove nothing)."""
    for rules in (PRESETS["standard"].replace(match="single", players=4),
                  PRESETS["standard"].replace(match="deals:3", players=3)):
        df = check_against_traces(rules, 5, "expert", 40)
        assert (df.won_deals <= df.deals).all()
        assert (df.decisive_turns >= df.won_deals).all()
        assert (df.decisive_turns <= df.won_turns).all()
        assert (df.comebacks <= df.won_deals).all()
        for s in range(rules.players):
            assert (df[f"options_{s}"] >= df[f"seat_turns_{s}"]).all()
            assert (df[f"choice_turns_{s}"] <= df[f"seat_turns_{s}"]).all()
        # every turn's first move is counted once, for the seat whose turn it is
        assert (sum(df[f"seat_turns_{s}"] for s in range(rules.players)) == df.turns).all()
        for name in ("lead_changes", "behind", "comebacks", "decisive_turns", "choice_turns_0"):
            assert df[name].nunique() > 1, name
        if rules.match != "single":
            assert df.points_lead_changes.nunique() > 1
            assert df.points_comeback.isin([0, 1]).all()


# --- the sweep: stored, summarised with intervals, compared in pairs ---------------------------

def test_a_sweep_prints_and_stores_the_feel_with_intervals_and_paired_differences(tmp_path):
    import json

    from conftest import run_cli

    from vandatta_sim.sweep.summary import FEEL_MEASURES

    args = ["sweep", "--preset", "kids", "--match", "single", "--vary", "stacking=false,true",
            "--players", 3, "--games", 400, "--seed", 2, "--store", tmp_path / "s", "--feel"]
    plain = run_cli(*args[:-1], "--store", tmp_path / "lean")  # without --feel: none of it
    assert plain.exit_code == 0 and "game feel" not in plain.output, plain.output
    shown = run_cli(*args, "--summary", tmp_path / "note.md")
    assert shown.exit_code == 0, shown.output
    assert "game feel:" in shown.output and "game feel, Δ:" in shown.output
    note = (tmp_path / "note.md").read_text(encoding="utf-8")
    assert "game feel:" in note and "comeback_share" in note
    data = json.loads(run_cli(*args, "--json").stdout)
    base, other = data["configs"]
    for record in (base, other):
        for name, _, _ in FEEL_MEASURES:
            assert record[f"{name}_low"] <= record[name] <= record[f"{name}_high"], name
    for name, _, _ in FEEL_MEASURES:
        assert other[f"delta_{name}_low"] <= other[f"delta_{name}"] <= other[
            f"delta_{name}_high"]
        assert f"delta_{name}" not in base
    # the summary's numbers are the means of the stored games' per-game values
    from vandatta_sim.store import Store
    from vandatta_sim.sweep.summary import feel_values

    games = Store(tmp_path / "s").load(base["key"])
    values = feel_values(games, 3)
    for name, _, _ in FEEL_MEASURES:
        assert abs(values[name].mean() - base[name]) < 1e-12


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 3), st.integers(1, 5)),
                min_size=2, max_size=40))
def test_feel_values_are_per_game_ratios_that_stay_in_their_range(rows):
    """Shares stay in [0, 1] and a game nobody won counts 0, whatever the counts."""
    from vandatta_sim.sweep.summary import feel_values

    df = pd.DataFrame({
        "winner": [0 if won else -1 for _, won, _ in rows],
        "deals": [deals for _, _, deals in rows],
        "lead_changes": [changes for changes, _, _ in rows],
        "won_deals": [min(won, deals) for _, won, deals in rows],
        "won_turns": [10 * min(won, deals) for _, won, deals in rows],
        "behind": [3 * min(won, deals) for _, won, deals in rows],
        "comebacks": [min(won, deals) // 2 for _, won, deals in rows],
        "decisive_turns": [4 * min(won, deals) for _, won, deals in rows],
        "seat_turns_0": [5] * len(rows), "seat_turns_1": [0] * len(rows),
        "choice_turns_0": [c % 6 for c, _, _ in rows], "choice_turns_1": [0] * len(rows),
        "options_0": [5 + c for c, _, _ in rows], "options_1": [0] * len(rows)})
    values = feel_values(df, 2)
    won = df.won_deals.to_numpy() > 0
    for name in ("comeback_share", "decisiveness", "choice_share", "choice_share_0"):
        assert ((values[name] >= 0) & (values[name] <= 1)).all(), name
    assert (values["winner_behind"][~won] == 0).all() and (values["winner_behind"][won] == 3).all()
    assert (values["choice_share_1"] == 0).all() and (values["mean_options_0"] >= 1).all()


def test_a_key_stored_without_the_feel_keeps_its_columns_and_shows_none(tmp_path, capsys):
    """A key whose chunks were stored without the feel columns gets more chunks of the same
    columns (a chunk with other columns could not be read with them), says so, and its
    summary and comparisons leave the feel out instead of failing."""
    from vandatta_sim.simulate import Seats
    from vandatta_sim.store import Store
    from vandatta_sim.sweep import Config, run_sweep
    from vandatta_sim.sweep.compare import compared_measures, paired_comparison
    from vandatta_sim.sweep.summary import stored_feel_columns

    rules = PRESETS["kids"].replace(players=3, match="single")
    seats = Seats.build(3, "expert")
    old, new = Config(rules, seats), Config(rules.replace(stacking=True), seats)
    store = Store(tmp_path / "s")
    key = old.key(3, 100)
    store.write_chunk(key, 0, simulate(rules, 100, seed=3), first_game=0)
    summary = run_sweep([old, new], games=300, seed=3, chunk_size=100, store=store, feel=True)
    assert f"{key}: its games were stored without the game feel" in capsys.readouterr().err
    assert stored_feel_columns(store, key) == ()
    assert all(set(store.chunk_columns(key, c)) == set(store.chunk_columns(key, 0))
               for c in range(3))
    assert stored_feel_columns(store, new.key(3, 100))
    assert pd.isna(summary.loc[0, "comeback_share"]) and summary.loc[1, "comeback_share"] > 0
    rows = paired_comparison(list(summary["key"]), 0, store, None,
                             compared_measures(3, False))
    assert "delta_comeback_share" not in rows[1] and "delta_mean_turns" in rows[1]
