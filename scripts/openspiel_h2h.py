"""OpenSpiel's IS-MCTS in one seat against our experts, paired with our own players (issues 35, 36).

    python scripts/openspiel_h2h.py [DEALS] [SIMULATIONS] [WORLDS] [PLAYERS]
    python scripts/openspiel_h2h.py 60 16 4 4
    python scripts/openspiel_h2h.py acceptance [GAMES]

``acceptance`` measures the world sampler instead: for standard rules at 2 and 4 players
(single deals) and a 4-player match of 3 deals, GAMES games played by experts, 5 worlds drawn
for the seat to move at its early, middle and late decisions (10%, 50%, 90% of the game):
the share of tries accepted (consistent, the same information state) and the worlds not found.

Standard rules, single deals, seed 35. Deal k (game index k) puts the focal seat at k mod
PLAYERS; every other seat plays our ``expert``. The focal seat is played three times on the
same deal (the same seed and game index, so the same cards until the players part ways):

* OpenSpiel's Python ``ISMCTSBot`` through ``python_vandatta`` (SIMULATIONS simulations per
  decision, UCT c = 2, one random rollout per leaf, WORLDS worlds per decision from our world
  sampler, ``allow_inconsistent_action_sets``: the seats' legal cards differ between worlds);
* our ``expert`` (the same game as the others');
* our ``search`` (its default budget), through vandatta_sim.simulate;
* our tree search ``ismcts`` at the same number of iterations as OpenSpiel's simulations
  (SIMULATIONS must be one of its iteration counts: 16, 32, 64, …), once with its `expert`
  playouts and once with random ones as OpenSpiel's bot plays out (the same algorithm then:
  the difference is the implementation, its worlds and its selection).

Prints each player's win rate with a Wilson 95% interval (vandatta_sim.stats.proportion) and
the paired difference of each of ours to OpenSpiel's IS-MCTS (stats.paired_difference: same
deals), and how many of the IS-MCTS decisions fell back to the expert's move because no world
was found (counted; none is hidden).
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from vandatta_sim import openspiel as V
from vandatta_sim import stats
from vandatta_sim.rules import get_preset
from vandatta_sim.simulate import simulate
from vandatta_sim.step import StepError

SEED = 35


def ismcts_deal(game, index: int, focal: int, simulations: int, worlds: int) -> tuple[int, int, int]:
    """One deal with IS-MCTS at ``focal``: (won, its decisions, fallbacks to the expert)."""
    numbers = np.random.RandomState(index)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, numbers), uct_c=2.0,
        max_simulations=simulations, max_world_samples=worlds, random_state=numbers,
        allow_inconsistent_action_sets=True)
    sampler = random.Random(index)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler.random))
    state = game.new_initial_state(str(index))
    decisions = fallbacks = 0
    while not state.is_terminal():
        if state.current_player() == focal:
            decisions += 1
            try:
                action = int(bot.step(state))
            except StepError:  # no world agreed with the seat's view within the tries
                fallbacks += 1
                action = state.suggestion
        else:
            action = state.suggestion
        state.apply_action(action)
    return int(state.step.winner() == focal), decisions, fallbacks


def ours(rules, policy: str, index: int, focal: int) -> int:
    policies = ["expert"] * rules.players
    policies[focal] = policy
    row = simulate(rules, 1, seed=SEED, first_game=index, policies=policies, threads=1).iloc[0]
    return int(row.winner == focal)


def acceptance(games: int) -> None:
    for players, match in ((2, "single"), (4, "single"), (4, "deals:3")):
        rules = get_preset("standard").replace(players=players, match=match)
        game = pyspiel.load_game(V.SHORT_NAME, {"players": players, "match": match,
                                                "seed": SEED})
        tries: dict[str, list] = {"early": [], "middle": [], "late": []}
        for index in range(games):
            state, states = game.new_initial_state(str(index)), []
            while not state.is_terminal():
                states.append(state.clone())
                state.apply_action(state.suggestion)
            for where, at in (("early", 0.1), ("middle", 0.5), ("late", 0.9)):
                point = states[int(at * (len(states) - 1))].step
                rng = random.Random(index)
                for _ in range(5):
                    used: list = []
                    try:
                        V.resample(point, point.current_player(), rng, attempts=used)
                    except StepError:
                        pass
                    tries[where].append(used[0])
        for where, used in tries.items():
            found = [n for n in used if n is not None]
            spent = sum(found) + V.RESAMPLE_TRIES * (len(used) - len(found))
            print(f"{players} players, {match}, {where} decisions: {len(found)} of "
                  f"{len(used)} worlds found, {len(found)}/{spent} = "
                  f"{len(found) / spent:.0%} of tries accepted", flush=True)


def main() -> None:
    if sys.argv[1:2] == ["acceptance"]:
        acceptance(int(sys.argv[2]) if len(sys.argv) > 2 else 6)
        return
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    simulations = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    worlds = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    players = int(sys.argv[4]) if len(sys.argv) > 4 else 4
    rules = get_preset("standard").replace(players=players, match="single")
    game = pyspiel.load_game(V.SHORT_NAME, {"players": players, "match": "single",
                                            "seed": SEED})
    trees = [f"ismcts:iterations={simulations}", f"ismcts:iterations={simulations}:rollout=random"]
    wins = {"openspiel": [], "expert": [], "search": [], **{tree: [] for tree in trees}}
    decisions = fallbacks = 0
    start = time.perf_counter()
    for index in range(deals):
        focal = index % players
        won, made, fell = ismcts_deal(game, index, focal, simulations, worlds)
        wins["openspiel"].append(won)
        decisions, fallbacks = decisions + made, fallbacks + fell
        for name in ("expert", "search", *trees):
            wins[name].append(ours(rules, name, index, focal))
        print(f"deal {index}: focal seat {focal}, wins " + " ".join(
            f"{name}={w[-1]}" for name, w in wins.items()), flush=True)
    seconds = time.perf_counter() - start
    print(f"\nstandard rules, {players} players, single deals, seed {SEED}, {deals} paired deals "
          f"(focal seat rotated), the other seats expert; OpenSpiel's IS-MCTS: {simulations} "
          f"simulations, "
          f"{worlds} worlds a decision, uct_c 2, one random rollout a leaf; {seconds:.0f} s")
    for name, won in wins.items():
        print(f"  {name:34s} wins "
              f"{stats.proportion(sum(won), len(won)).format(3, percent=True)}")
    for name in ("expert", "search", *trees):
        diff = stats.paired_difference(wins[name], wins["openspiel"])
        print(f"  {name} − OpenSpiel's IS-MCTS: {diff.format(3, percent=True)} "
              "(paired, same deals)")
    print(f"  IS-MCTS decisions {decisions}, fell back to the expert's move {fallbacks} "
          f"(no world found)")


if __name__ == "__main__":
    main()
