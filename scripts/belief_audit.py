"""How often the search player's worlds contradict the true hands, per kind of belief.

    python scripts/belief_audit.py [PLAYERS] [DEALS] [PRESET] [POLICIES]
    python scripts/belief_audit.py 4 1000 standard search,expert,expert,expert

Plays DEALS single deals (seed 11) and audits seat 0's beliefs at each of its turns
(vandatta_sim.play.beliefs): the share of turns at which the old lacks flags (search:beliefs=lacks)
or the public bookkeeping (beliefs=public, the default) rule out a card an opponent really
holds, with Wilson 95% intervals (turns of one deal are not independent: read them as a
description, the intervals as a rough guide), how many card types each rules out, and where
the true world's likelihood (search:beliefs=weighted) ranks among 16 public worlds.
"""

import sys

from vandatta_sim.play.beliefs import audit
from vandatta_sim.rules import get_preset
from vandatta_sim.stats import proportion


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    deals = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    rules = get_preset(sys.argv[3] if len(sys.argv) > 3 else "standard").replace(
        players=players)
    policies = sys.argv[4].split(",") if len(sys.argv) > 4 else ["search"] + ["expert"] * (
        players - 1)
    c = audit(rules, deals, seed=11, policies=policies)
    turns = c["turns"]

    def share(k, n):
        e = proportion(k, n)
        return f"{100 * e.value:.2f}% [{100 * e.low:.2f}, {100 * e.high:.2f}]"

    print(f"{deals} deals, {players} players, seat 0 = {policies[0]}, others "
          f"{', '.join(policies[1:])}: {turns} turns of seat 0")
    print(f"lacks flags (old rule): an opponent flagged at {c['opponents_flagged'] / turns:.2f} "
          f"per turn, {c['lacks_types_excluded'] / max(c['opponents_flagged'], 1):.1f} card "
          f"types ruled out per flagged opponent; the truth ruled out at "
          f"{share(c['turns_lacks_wrong'], turns)} of the turns")
    print(f"public bookkeeping (new): an opponent with a known constraint at "
          f"{c['opponents_tiered'] / turns:.2f} per turn, "
          f"{c['public_types_excluded'] / max(c['opponents_tiered'], 1):.1f} card types ruled "
          f"out for its older cards; the truth ruled out at "
          f"{share(c['turns_public_wrong'], turns)} of the turns")
    print(f"talon known after a reshuffle at {share(c['turns_talon_known'], turns)} of the "
          f"turns; wrong at {c['turns_talon_wrong']} of them")
    if c["worlds_compared"]:
        rank = c["worlds_below_true"] / c["worlds_compared"]
        print(f"likelihood (beliefs=weighted): at {c['weighed_turns']} turns the weights of "
              f"16 public worlds differed; the true world's weight ranked above "
              f"{100 * rank:.1f}% of them on average (50% = the weights carry no signal)")
    worse = c["turns_lacks_wrong"] > c["turns_public_wrong"]
    print("Verdict: the old lacks flags " + ("contradict the true hands more often than the "
          "public bookkeeping" if worse else "do not contradict the true hands more often")
          + f" ({c['turns_lacks_wrong']} against {c['turns_public_wrong']} turns).")


if __name__ == "__main__":
    main()
