"""The shipped tuned players against expert, and how they play their eights, per scale.

    python scripts/tuned_players.py [MATCHES] [DEALS] [PLAYERS]
    python scripts/tuned_players.py 20000 4000 4
    python scripts/tuned_players.py --shipped

``--shipped`` plays no games: it prints the table of every policy shipped with the package, each
figure read from the file's own provenance (its tuning run's held-out check and cost), as
docs/policies.md carries it (tests/test_tune.py checks that the two agree).

For each scale of `standard` (base, hundred, crazy_eights): ``tuned:standard-SCALE-PLAYERS`` in
one seat against ``expert``s, `standard`'s elimination matches to 100, the focal seat rotated,
on seed 77 (held out: the tunings trained on seed 0 and validated on seed 1), paired with
``expert`` in the same seat on the same games: the match-win difference with its 95% interval.
Then single deals (DEALS per scale and player, seed 78): the eights the focal seat still holds
when the deal ends, and its hand size when it plays an eight, for the tuned player and for
``expert``, with 95% intervals, and the tuned players' differences between scales.
"""

import sys

import numpy as np

from vandatta_sim import engine as E
from vandatta_sim import tuned
from vandatta_sim.experiments.eight_play import eight_play
from vandatta_sim.rules import get_preset
from vandatta_sim.stats import independent_difference, paired_difference
from vandatta_sim.tune import candidate_outcomes

SCALES = ("base", "hundred", "crazy_eights")
MATCH_SEED, DEAL_SEED = 77, 78


def pp(est) -> str:
    return f"{100 * est.value:+.2f} pp [{100 * est.low:+.2f}, {100 * est.high:+.2f}]"


def num(est, digits=3) -> str:
    return f"{est.value:.{digits}f} [{est.low:.{digits}f}, {est.high:.{digits}f}]"


def main() -> None:
    if sys.argv[1:] == ["--shipped"]:
        print(tuned.catalogue_markdown(), end="")
        names = tuned.shipped()
        better = [n for n in names if tuned.load(n).provenance["validation"]["low"] > 0]
        others = ", ".join(sorted(set(names) - set(better))) or "none"
        print(f"\nVerdict: {len(better)} of {len(names)} shipped tuned players beat expert on "
              f"their own held-out games (interval above 0); not shown better: {others}.")
        return
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    deals = int(sys.argv[2]) if len(sys.argv) > 2 else 4_000
    players = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    matches -= matches % players
    print(f"Tuned players against expert: standard, {players} players, one tuned seat among "
          f"experts, focal seat rotated; {matches:,} matches per scale (seed {MATCH_SEED}), "
          f"{deals:,} single deals per scale and player (seed {DEAL_SEED}).\n")
    print("| scale | tuned player | tuned match wins | expert's on the same games | "
          "tuned − expert (paired, 95%) |")
    print("|---|---|---|---|---|")
    verdicts, plays = [], {}
    for scale in SCALES:
        name = f"standard-{scale}-{players}"
        rules = get_preset("standard").replace(players=players, scale=scale)
        policy = tuned.load(name)
        mine = candidate_outcomes(rules, "match", policy.vector(), MATCH_SEED, 0, matches)
        base = candidate_outcomes(rules, "match", E.EXPERT_WEIGHTS, MATCH_SEED, 0, matches)
        diff = paired_difference(mine, base)
        print(f"| {scale} | `tuned:{name}` | {100 * mine.mean():.2f}% | {100 * base.mean():.2f}% "
              f"| {pp(diff)} |")
        verdicts.append(f"{scale}: tuned {'beats' if diff.low > 0 else 'does not beat'} expert "
                        f"in match wins ({pp(diff)})")
        for spec in (f"tuned:{name}", "expert"):
            plays[scale, spec] = eight_play(rules, spec, deals, DEAL_SEED)
    print("\nHow the eights are played (single deals against experts, 95% intervals):\n")
    print("| scale | player | eights left at the deal's end | hand size when it plays an eight "
          "| eights played |")
    print("|---|---|---|---|---|")
    for (scale, spec), play in plays.items():
        print(f"| {scale} | `{spec}` | {num(play.eights_left_mean())} | "
              f"{num(play.hand_at_eight_mean(), 2)} | {int(play.eights_played.sum()):,} |")
    print("\nBetween scales, tuned players (independent samples, 95%):\n")
    for a, b in ((SCALES[0], SCALES[1]), (SCALES[1], SCALES[2]), (SCALES[0], SCALES[2])):
        pa = plays[a, f"tuned:standard-{a}-{players}"]
        pb = plays[b, f"tuned:standard-{b}-{players}"]
        left = independent_difference(pb.eights_left_mean(), pa.eights_left_mean())
        hand = independent_difference(pb.hand_at_eight_mean(), pa.hand_at_eight_mean())
        differs = left.significant or hand.significant
        print(f"- {b} minus {a}: eights left {num(left)}, hand size at an eight {num(hand, 2)}"
              f" → {'plays its eights differently' if differs else 'no difference shown'}")
        verdicts.append(f"{b} vs {a}: {'different' if differs else 'not shown different'}")
    print("\nVerdict: " + "; ".join(verdicts) + ".")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
