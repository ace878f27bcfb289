"""Milliseconds of the referee per deal, on the engine's own traces: CPU seconds of this process,
so that a busy shared machine does not read slow.

    python scripts/referee_speed.py [DEALS] [PLAYERS] [POLICY]
    python scripts/referee_speed.py 200 4 expert

Traces DEALS single deals of the standard rules at PLAYERS seats (every seat POLICY, seed 1),
then referees each one, timing only the referee. Prints the median of 5 rounds in ms per deal
and the deals a minute that makes. The test suite used to assert under 12 ms a deal (about
5,000 a minute, the rate a store's replay check needs); speed is measured here, not asserted.
"""

import statistics
import sys
import time

from vandatta_sim.referee import referee
from vandatta_sim.rules import PRESETS
from vandatta_sim.simulate import trace_game


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    policy = sys.argv[3] if len(sys.argv) > 3 else "expert"
    rules = PRESETS["standard"].replace(players=players, match="single")
    traces = [trace_game(rules, 1, game, policies=policy) for game in range(deals)]
    rounds = []
    for _ in range(5):
        start = time.process_time()
        for trace in traces:
            referee(trace, rules)
        rounds.append((time.process_time() - start) / deals)
    per_deal = statistics.median(rounds)
    print(f"referee: {per_deal * 1000:.2f} ms per deal (median of 5 rounds of {deals} deals, "
          f"{players} players, {policy}); {60 / per_deal:,.0f} deals a minute")


if __name__ == "__main__":
    main()
