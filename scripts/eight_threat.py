"""expert's threat rule for eights, measured: one seat that dumps its eights once an opponent is
short (engine weight ``eight_threat_ratio`` = R) against three experts without the rule (R = 0),
paired with an R = 0 seat on the same games.

    python scripts/eight_threat.py [MATCHES]
    python scripts/eight_threat.py 2000

`standard` at 4 players, elimination matches to 100, under each scale; the focal seat rotated,
seed 5. The rule dumps an eight once an opponent holds at most (the eight's cost in ordinary
cards) // R cards: at R = 7 one card under base and crazy_eights and never under hundred; at
R = 2, five cards under base, three under crazy_eights, one under hundred.
"""

import sys

from vandatta_sim import engine as E
from vandatta_sim.rules import get_preset
from vandatta_sim.stats import paired_difference
from vandatta_sim.tune import candidate_outcomes

RATIOS = (2, 4, 7, 10)


def with_ratio(ratio: int) -> tuple[int, ...]:
    weights = dict(zip(E.WEIGHT_NAMES, E.EXPERT_WEIGHTS), eight_threat_ratio=ratio)
    return tuple(weights.values())


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    matches -= matches % 4
    without = with_ratio(0)
    print(f"One seat with the threat rule (ratio R) against three experts without it; standard, "
          f"4 players, elimination:100, {matches:,} matches each, paired, 95% intervals\n")
    print("| scale | R | match wins with the rule | without, same games | difference |")
    print("|---|---|---|---|---|")
    best = {}
    for scale in ("base", "hundred", "crazy_eights"):
        rules = get_preset("standard").replace(players=4, scale=scale)
        base = candidate_outcomes(rules, "match", without, 5, 0, matches, others=without)
        for ratio in RATIOS:
            mine = candidate_outcomes(rules, "match", with_ratio(ratio), 5, 0, matches,
                                  others=without)
            d = paired_difference(mine, base)
            print(f"| {scale} | {ratio} | {100 * mine.mean():.2f}% | {100 * base.mean():.2f}% | "
                  f"{100 * d.value:+.2f} pp [{100 * d.low:+.2f}, {100 * d.high:+.2f}] |")
            if ratio == 7:
                best[scale] = d
    text = "; ".join(f"{s} {100 * d.value:+.1f} pp ({'better' if d.low > 0 else 'worse' if d.high < 0 else 'no difference shown'})"
                     for s, d in best.items())
    print(f"\nVerdict: expert's default (R = 7) against expert without the rule: {text}.")


if __name__ == "__main__":
    main()
