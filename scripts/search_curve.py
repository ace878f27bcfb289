"""The search players' strength against their speed: one seat among experts, budget by budget.

    python scripts/search_curve.py PLAYERS BUDGETS DEALS [SPEC,...]
    python scripts/search_curve.py 4 8,16,32,64,128,256 16000 search:beliefs=oracle
    python scripts/search_curve.py 4 32,ismcts:iterations=64,ismcts 16000

For each budget N, ``search:budget=N`` (a policy spec in the list plays as given) plays the focal seat of DEALS deals against three (or
one) `expert`s: `standard`, single deals, the seat rotated, the deals of
scripts/search_variants.py (seed 5 + seat). `expert` in the same seat on the same deals is the
paired reference; each SPEC after the budgets (e.g. the oracle cheat) is one more row on the
same deals. Everything runs on one thread and is timed with the process's CPU clock, so the
speed is decisions per CPU second (per core) as in ``vandatta-sim bench``: the deals' CPU time
over the focal seat's decisions (its turns per deal, counted on 100 traced deals). Prints a
Markdown table (budget, decisions per CPU second, win rate with its Wilson 95% interval, the
paired difference from `expert` with its 95% interval), then a verdict against the issue's
bars for each search player at its default budget (31% at 4 players with the lower end above
29%, 55% at 2 with the lower end above 53%, at least 2,000 decisions per second), and where both
ran, `ismcts` against `search` paired on the same deals.
"""

from __future__ import annotations

import sys
import time

from search_variants import focal_wins

from vandatta_sim import bench
from vandatta_sim.rules import get_preset
from vandatta_sim.simulate import check_policy
from vandatta_sim.stats import paired_difference, proportion

BARS = {4: (0.31, 0.29), 2: (0.55, 0.53)}  # (win rate, lower end) the issue asks for
SPEED_BAR = 2000


def main() -> None:
    players = int(sys.argv[1])
    budgets = [f"search:budget={b}" if b.isdigit() else b for b in sys.argv[2].split(",")]
    deals = int(sys.argv[3])
    extra = sys.argv[4].split(",") if len(sys.argv) > 4 else []
    rules = get_preset("standard").replace(players=players, match="single")
    seed = 5
    reference = focal_wins(rules, "expert", "expert", deals, seed, threads=1)
    ref = proportion(int(reference.sum()), len(reference))
    print(f"| spec | decisions / CPU s | win rate, {players} players | Δ vs `expert` |")
    print("|---|---|---|---|")
    print(f"| `expert` | – | {100 * ref.value:.1f}% [{100 * ref.low:.1f}, "
          f"{100 * ref.high:.1f}] | (reference) |", flush=True)
    found = {}
    for spec in budgets + extra:
        start = time.process_time()
        wins = focal_wins(rules, spec, "expert", deals, seed, threads=1)
        seconds = time.process_time() - start
        speed = len(wins) * bench.seat_turns_per_deal(rules, spec) / seconds
        rate = proportion(int(wins.sum()), len(wins))
        d = paired_difference(wins, reference)
        found[check_policy(spec)] = rate, speed, wins
        print(f"| `{spec}` | {speed:,.0f} | {100 * rate.value:.1f}% [{100 * rate.low:.1f}, "
              f"{100 * rate.high:.1f}] | {100 * d.value:+.1f} pp [{100 * d.low:+.1f}, "
              f"{100 * d.high:+.1f}] |", flush=True)
    print(f"(n = {deals:,} deals a row, the same deals for every row; "
          f"{time.strftime('%Y-%m-%d')})")
    for name in ("search", "ismcts"):
        if name not in found or players not in BARS:
            print(f"Verdict: `{name}` at its default budget was not run, or the issue sets no "
                  "bar at this table size.")
            continue
        (rate, speed, _), (bar, low_bar) = found[name], BARS[players]
        reached = rate.value >= bar and rate.low > low_bar and speed >= SPEED_BAR
        print(f"Verdict: at {players} players `{name}` at its default budget wins "
              f"{100 * rate.value:.1f}% of the deals ({100 * rate.low:.1f}–{100 * rate.high:.1f}%)"
              f" at {speed:,.0f} decisions a second; the bar ({100 * bar:.0f}%, lower end above "
              f"{100 * low_bar:.0f}%, at least {SPEED_BAR:,} a second) is "
              f"{'reached' if reached else 'not reached'}.")
    if "search" in found and "ismcts" in found:
        d = paired_difference(found["ismcts"][2], found["search"][2])
        print(f"`ismcts` against `search`, both at their default budgets, on the same deals: "
              f"{100 * d.value:+.1f} pp [{100 * d.low:+.1f}, {100 * d.high:+.1f}] "
              f"({found['ismcts'][1] / found['search'][1]:.2f}× the decisions a second).")


if __name__ == "__main__":
    main()
