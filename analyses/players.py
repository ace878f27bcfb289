"""reports/players.md: the ladder of players: each policy's seat against expert opponents,
ratings from the head-to-heads, and the time each policy takes.

    python analyses/players.py --out reports/players.md [--quick]

Every policy of :data:`LADDER` plays one seat against ``expert``s at 2 and 4 players under the
presets of :data:`PRESET_NAMES` (single deals), the focal seat rotated over the table (seat
``s`` plays the games of seed + s, as in every report). The heuristics also meet each other
heads-up (2 players), and one rating per policy and preset is fitted on all of it
(:func:`vandatta_sim.stats.fit_ratings`). A slow policy plays :data:`SLOW_GAMES` games per
seat instead of :data:`GAMES`, and its rows say so.
"""

from __future__ import annotations

import time

import common
import matplotlib.pyplot as plt
import numba
import numpy as np

from vandatta_sim import bench
from vandatta_sim.experiments.designs import focal_winners
from vandatta_sim.formatting import format_estimate as fmt
from vandatta_sim.rules import PRESETS
from vandatta_sim.simulate import check_policy
from vandatta_sim.stats import ELO_PER_LOGIT, fit_ratings, paired_difference, proportion
from vandatta_sim.formatting import format_table

#: The search player that sees the true hands: a cheat, on the ladder as the ceiling that
#: better beliefs could reach at the default budget, never a player (its rows say so).
ORACLE = "search:beliefs=oracle"
#: Every player on the ladder, in the order of the tables: the one place to add a policy. A
#: policy much slower than the heuristics (the search player) also gets its count in
#: SLOW_GAMES; it then plays only against OPPONENT (no heads-up round robin).
LADDER = ("random", "greedy", "eight-dumper", "expert", "expert:eights=dump",
          "tuned:standard-base-4", "tuned:standard-hundred-4", "tuned:standard-crazy_eights-4",
          "search:budget=16", "search", "search:budget=64", "search:alloc=flat:beliefs=lacks",
          "ismcts", ORACLE)
#: Games per (preset, table size, focal seat) of a slow policy, by full spec or by policy name
#: (the spec wins). Size it from `vandatta-sim bench --seat-only --seat-policy SPEC`: the
#: ladder plays 3 presets × (2 + 4 seats) × this many deals of the spec.
SLOW_GAMES: dict[str, int] = {"search:budget=16": 1_000, "search": 800,
                              "search:budget=64": 400, "search:alloc=flat:beliefs=lacks": 800,
                              "ismcts": 200, ORACLE: 800}
#: The opponents of the ladder and the reference (rating 0) of the ratings.
OPPONENT = "expert"
PRESET_NAMES = ("standard", "seed002", "crazy-eights-scoring")
TABLE_SIZES = (2, 4)
#: Games per (preset, table size, policy, focal seat) of the heuristics: full run, --quick.
GAMES = {"full": 40_000, "quick": 400}
SLOW_QUICK = 8
SEEDS = {"ladder": 7_100, "round_robin": 7_200}
#: The speed table: one seat among experts at 4 players, standard (bench's focal seat).
TIMING_SECONDS = {"full": 0.5, "quick": 0.02}
TRACED_DEALS = 100
#: The ladder's share of `make reports` (20 minutes on 2 cores in all): a slow spec whose
#: projected time passes this is logged with a smaller SLOW_GAMES count that would fit.
BUDGET_SECONDS = 240


def games_for(ctx: common.Context, spec: str) -> int:
    """Games per focal seat for ``spec`` in this run (full, --quick or --fraction)."""
    base = spec.split(":")[0]
    slow = SLOW_GAMES.get(spec, SLOW_GAMES.get(base))
    if ctx.quick:
        return min(slow, SLOW_QUICK) if slow else GAMES["quick"]
    full = slow or GAMES["full"]
    return full if ctx.args.fraction == 1.0 else max(int(full * ctx.args.fraction), 10)


def is_slow(spec: str) -> bool:
    return spec in SLOW_GAMES or spec.split(":")[0] in SLOW_GAMES


def label(spec: str) -> str:
    """A policy's name in the tables; the oracle is marked as the cheat it is."""
    return f"`{spec}` (cheat: sees the hands)" if spec == ORACLE else f"`{spec}`"


def single(preset: str, players: int):
    return PRESETS[preset].replace(players=players, match="single")


def run_ladder(ctx: common.Context, specs) -> dict:
    """(preset, players, spec) → focal table (:func:`focal_winners`) against OPPONENT."""
    out = {}
    for players in TABLE_SIZES:
        groups: dict[int, list[str]] = {}
        for spec in specs:
            groups.setdefault(games_for(ctx, spec), []).append(spec)
        for games, group in groups.items():
            started = time.monotonic()
            rule_sets = [single(p, players) for p in PRESET_NAMES]
            runs = focal_winners(ctx.runner, rule_sets, group, OPPONENT, games,
                                 SEEDS["ladder"])
            for preset, table in zip(PRESET_NAMES, runs):
                for spec in group:
                    out[(preset, players, spec)] = table[spec]
            ctx.log(f"ladder, {players} players: {', '.join(group)} ({games:,} games per seat, "
                    f"{time.monotonic() - started:.0f} s)")
    return out


def run_round_robin(ctx: common.Context, specs) -> dict:
    """(preset, a, b) → focal table of ``a`` heads-up against ``b`` (2 players), for every
    pair of the fast specs other than OPPONENT (the ladder holds their games against it)."""
    out = {}
    for j, b in enumerate(specs):
        if not specs[:j]:
            continue
        runs = focal_winners(ctx.runner, [single(p, 2) for p in PRESET_NAMES], specs[:j], b,
                             games_for(ctx, b), SEEDS["round_robin"])
        for preset, table in zip(PRESET_NAMES, runs):
            for a in specs[:j]:
                out[(preset, a, b)] = table[a]
    ctx.log(f"heads-up round robin of {', '.join(specs)}")
    return out


def win_counts(df) -> tuple[int, int, int]:
    """(focal wins, opponents' wins, deals without a winner) of a focal table."""
    wins, none = int(df["win"].sum()), int(df["no_winner"].sum())
    return wins, len(df) - wins - none, none


def rating_tables(preset: str, ladder: dict, round_robin: dict, specs,
                  sizes=TABLE_SIZES) -> list[tuple[tuple, tuple]]:
    """The (seats, wins) tables of one preset for :func:`fit_ratings`: the ladder at the
    table sizes ``sizes``, and the heads-up round robin when 2 is among them."""
    tables = []
    for players in sizes:
        for spec in specs:
            if spec != OPPONENT:
                w, lost, _ = win_counts(ladder[(preset, players, spec)])
                seats = (spec,) + (OPPONENT,) * (players - 1)
                tables.append((seats, (w, lost) + (0,) * (players - 2)))
    for (p, a, b), df in round_robin.items():
        if p == preset and 2 in sizes:
            w, lost, _ = win_counts(df)
            tables.append(((a, b), (w, lost)))
    return tables


def model_check(ratings, tables) -> tuple[float, str, int]:
    """The largest standardized gap between a table's observed focal win share (among deals
    with a winner) and the fitted model's, where it is, and how many tables there are."""
    worst, where = 0.0, ""
    for seats, wins in tables:
        z = np.exp([ratings.strength[ratings.names.index(s)] for s in seats])
        p, n = z[0] / z.sum(), sum(wins)
        gap = (wins[0] / n - p) / np.sqrt(p * (1 - p) / n)
        if abs(gap) > abs(worst):
            worst, where = float(gap), f"{seats[0]} vs {seats[1]} at {len(seats)} players"
    return worst, where, len(tables)


def section_ladder(ctx, ladder: dict, specs) -> str:
    text = ("## 1. The ladder: one seat against `expert`s\n\n"
            "Win rate of one seat of the policy against opponents who are all `expert`, single "
            "deals, the focal seat rotated over every position (equal games per seat), with "
            "Wilson 95 % intervals; the fair share is 1/players. Δ vs expert is the paired "
            "difference from an `expert` in the same seat on the same deals (the `expert` row "
            "is the all-expert table: its Δ is 0 by construction). Deals = deals per preset "
            "and table size; a slow policy plays fewer, and its wider intervals show it. "
            "`search` is the search player at its defaults (public bookkeeping of what each "
            "seat has seen, racing the options); `search:alloc=flat:beliefs=lacks` is the same "
            "search with the beliefs and allocation of engine version 5; `ismcts` is the "
            "information-set tree search at its defaults (a tree over what the seat has seen, "
            "paired at the root; the fewest deals here, its 16,000-deal curve is in "
            f"`docs/policies.md`); `{ORACLE}` is a "
            "cheat that deals its worlds from the true hands: its lead over `search` bounds "
            "what better beliefs could buy at the default budget (`docs/policies.md`).\n\n")
    for players in TABLE_SIZES:
        rows = []
        for spec in specs:
            cells = []
            for preset in PRESET_NAMES:
                df = ladder[(preset, players, spec)]
                ref = ladder[(preset, players, OPPONENT)]
                ref = ref[ref["game"] < df["game"].max() + 1]  # the same deals
                if not np.array_equal(ref["game"].to_numpy(), df["game"].to_numpy()):
                    raise AssertionError(f"{spec} and {OPPONENT} are not on the same deals")
                cells.append(fmt(proportion(int(df["win"].sum()), len(df)), "pct", 1))
                cells.append("(reference)" if spec == OPPONENT else fmt(paired_difference(
                    df["win"].to_numpy(float), ref["win"].to_numpy(float)), "pp", 1))
            deals = len(ladder[(PRESET_NAMES[0], players, spec)])
            rows.append([label(spec), f"{deals:,}" + (" (slow)" if is_slow(spec) else "")]
                        + cells)
        header = ["policy", "deals"] + [h for p in PRESET_NAMES
                                        for h in (f"win `{p}`", "Δ vs expert")]
        text += (f"### {players} players (fair share {100 / players:.0f}%)\n\n"
                 + format_table(header, rows, "ll" + "r" * 2 * len(PRESET_NAMES)) + "\n")
    return text + "\n" + ladder_figure(ctx, ladder, specs)


def ladder_figure(ctx, ladder: dict, specs) -> str:
    """Section 1's win rates as a dot chart: one panel per table size, one colour per preset."""
    fig, axes = plt.subplots(1, len(TABLE_SIZES), figsize=(11, 0.45 * len(specs) + 1.6))
    y = np.arange(len(specs), dtype=float)
    for ax, players in zip(axes, TABLE_SIZES):
        for i, preset in enumerate(PRESET_NAMES):
            rates = [proportion(int(ladder[(preset, players, s)]["win"].sum()),
                                len(ladder[(preset, players, s)])) for s in specs]
            common.hbars(ax, y + (i - 1) * 0.2, rates, 100, color=common.COLORS[i],
                         label=preset)
        ax.axvline(100 / players, color="black", linewidth=0.8)
        ax.set_yticks(y, specs)
        ax.invert_yaxis()
        ax.set_title(f"{players} players: one seat against {OPPONENT}s")
        ax.set_xlabel("win rate of the seat (%); the line is the fair share")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return common.save(fig, ctx, "players-ladder", "Win rate of one seat of each policy "
                       "against expert opponents, per preset and table size, with 95% intervals")


def section_ratings(ladder: dict, round_robin: dict, specs) -> str:
    fits, checks, pooled = {}, {}, {}
    for preset in PRESET_NAMES:
        for n in TABLE_SIZES:
            tables = rating_tables(preset, ladder, round_robin, specs, (n,))
            fits[(preset, n)] = fit_ratings(tables, reference=OPPONENT)
            checks[(preset, n)] = model_check(fits[(preset, n)], tables)
        tables = rating_tables(preset, ladder, round_robin, specs)
        pooled[preset] = model_check(fit_ratings(tables, reference=OPPONENT), tables)
    keys = [(p, n) for p in PRESET_NAMES for n in TABLE_SIZES]
    rows = [[label(spec)] + ["0 (reference)" if spec == OPPONENT
                             else fmt(fits[k].elo(spec), "num", 0) for k in keys]
            for spec in specs]
    fast = [s for s in specs if not is_slow(s)]
    heads_up = [k for k in keys if k[1] == 2]
    text = (
        "## 2. Ratings\n\n"
        "One rating per policy, preset and table size, in Elo points relative to `expert` "
        "(0; 400 points = 10:1 odds heads-up), with 95 % intervals from the observed "
        "information. The model (Bradley–Terry at two players, Luce's choice model at more): "
        "a deal is won by the seat of policy *i* with probability exp(θᵢ)/Σ exp(θ) over the "
        "policies seated. At 2 players it is fitted on the ladder (section 1) and a heads-up "
        "round robin (the same game counts, seeds "
        f"{SEEDS['round_robin']} + seat) between every pair of "
        + ", ".join(f"`{s}`" for s in fast) + "; at 4 players on the ladder alone (one "
        "table per policy, so the rating is a transform of its win rate: exp(θ)/(exp(θ)+3) "
        "= its share of the deals with a winner). "
        "**How a deal counts:** a 4-player deal is one observation of which seat won, not "
        "three pairwise wins of the winner over each loser (those three are one event; "
        "counting them as independent would narrow the intervals), so the intervals are "
        "those of the deals actually played. Deals without a winner are left out. Seat "
        "effects are not modelled; every design rotates the seats so they cancel. Slow "
        "policies meet only `expert`, so their rating rests on the ladder alone.\n\n")
    text += format_table(["policy"] + [f"Elo `{p}` {n}p" for p, n in keys], rows)
    text += ("\n**Model check.** For each kind of table the observed focal win share (among "
             "deals with a winner) is compared with the fitted one in standard errors (z). "
             "Heads-up fits, largest |z|: "
             + "; ".join(f"`{p}` {checks[k][0]:+.1f} ({checks[k][1]}, of {checks[k][2]} "
                         "tables)" for k in heads_up for p in [k[0]])
             + ". One rating per policy for both table sizes together would not fit: "
               "largest |z| "
             + "; ".join(f"`{p}` {pooled[p][0]:+.1f} ({pooled[p][1]})" for p in PRESET_NAMES)
             + ", which is why the sizes are fitted apart: how strong a policy is depends on "
               "the table size. |z| beyond about 3 means one number per policy does not "
               "summarise those head-to-heads, and section 1 is the better guide there.\n")
    return text + "\n"


def measure_speed(ctx, specs) -> dict:
    """:func:`vandatta_sim.bench.seat_speed` of every spec on one thread (section 3)."""
    seconds = TIMING_SECONDS["quick" if ctx.quick else "full"]
    traced = 10 if ctx.quick else TRACED_DEALS
    speed = {spec: bench.seat_speed(bench.SEAT_RULES, spec, [1], repeats=3, seconds=seconds,
                                    turn_games=traced) for spec in specs}
    ctx.log("timing done")
    return speed


def projected_seconds(ctx, spec: str, speed: dict) -> float:
    """About how long the ladder's deals of ``spec`` take on all threads: its deals at both
    table sizes at the 4-player table's time per deal (an upper bound for 2 players)."""
    deals = games_for(ctx, spec) * sum(TABLE_SIZES) * len(PRESET_NAMES)
    threads = ctx.args.threads or numba.config.NUMBA_NUM_THREADS
    return deals / speed[spec]["deals_per_s"][1] / threads


def section_speed(ctx, speed: dict, specs) -> str:
    traced = 10 if ctx.quick else TRACED_DEALS
    base = 1e6 / speed[OPPONENT]["deals_per_s"][1]
    rows = []
    for spec in specs:
        f = speed[spec]
        per_deal = 1e6 / f["deals_per_s"][1]
        rows.append([label(spec), f"{per_deal:,.1f}", f"{f['turns_per_deal']:.1f}",
                     f"{per_deal / f['turns_per_deal']:,.2f}",
                     f"{(per_deal - base) / f['turns_per_deal']:+,.2f}"])
    return ("## 3. Time per decision (machine-dependent)\n\n"
            "Measured by this script on the machine that made the report, so these numbers "
            "change from run to run and machine to machine (the rest of the report does not): "
            "one seat of the policy among three `expert`s, `standard`, single deals, one "
            "thread, median of 3 timed runs (`vandatta_sim.bench.seat_speed`; `vandatta-sim "
            "bench --seat-only --seat-policy SPEC` measures the same on 1 and all threads). "
            f"Its turns = that seat's turns per deal, counted on {traced} traced deals; per "
            "turn = the whole table's time per deal divided by them; over expert = the extra "
            "time per turn against an all-expert table (negative: cheaper than `expert`).\n\n"
            + format_table(["policy", "µs per deal", "its turns/deal", "µs per its turn",
                            "µs per turn over expert"], [*rows]) + "\n")


def section_reading(ladder: dict, specs, runtime_note: str) -> str:
    def rate(preset, players, spec):
        df = ladder[(preset, players, spec)]
        return proportion(int(df["win"].sum()), len(df))

    real_players = [s for s in specs if s != ORACLE]  # the cheat is no player
    order = sorted(real_players, key=lambda s: -rate("standard", 4, s).value)
    none = {p: sum(win_counts(ladder[(p, n, OPPONENT)])[2] for n in TABLE_SIZES)
            / sum(len(ladder[(p, n, OPPONENT)]) for n in TABLE_SIZES) for p in PRESET_NAMES}
    spread = {n: rate("standard", n, order[0]).value - rate("standard", n, order[-1]).value
              for n in TABLE_SIZES}
    return (
        "## 4. Which players made each number, and what it says\n\n"
        "- **Players.** Every number in sections 1–2 is a result of *these* policies "
        "(`docs/policies.md`): one seat of the named policy, every other seat `" + OPPONENT
        + "` (section 1), or the two named policies heads-up (round robin). Nothing else "
        "was played; no human or stronger player is represented. The `tuned:standard-SCALE-4` "
        "rows are `expert` with weights fitted for `standard`'s 4-player elimination matches "
        "under that scale (`vandatta-sim tune`, docs/policies.md); in single deals and other "
        "presets they play away from the table they were fitted for.\n"
        "- **About the players:** the order of the ladder (at 4 players, `standard`: "
        + " > ".join(f"`{s}`" for s in order)
        + ", by the point estimates of the win rate against `expert`s: an order of "
        "estimates, not a test; whether one policy beats another is read off a paired "
        "difference, its Δ with its interval, never off whether two intervals overlap), "
        "every Δ and every rating. A rating is relative to `expert` and to this pool of opponents: a "
        "new, stronger player can move the others' ratings, and it says nothing about play "
        "against people.\n"
        "- **About the game (as far as these players can show it):** the `expert` row is "
        "the all-expert table, whose rotated seat wins the fair share less the deals nobody "
        "wins (" + ", ".join(f"`{p}` {100 * v:.2f}%" for p, v in none.items())
        + " of all-expert deals at 2 and 4 players had no winner); and the spread between "
        "the best and worst policy (" + ", ".join(f"{100 * v:.1f} pp at {n} players"
                                                  for n, v in spread.items())
        + " under `standard`) is a lower bound on how much skill can matter in a deal, not "
        "its size: a stronger player would widen it.\n"
        + oracle_note(ladder, specs)
        + f"- **Runtime.** {runtime_note}\n")


def oracle_note(ladder: dict, specs) -> str:
    """The oracle's lead over the search at the same budget, paired on the same deals."""
    if ORACLE not in specs or "search" not in specs:
        return ""
    gaps = []
    for n in TABLE_SIZES:
        a, b = ladder[("standard", n, ORACLE)], ladder[("standard", n, "search")]
        gaps.append(fmt(paired_difference(a["win"].to_numpy(float), b["win"].to_numpy(float)),
                        "pp", 1) + f" at {n} players")
    return ("- **The oracle ceiling.** `" + ORACLE + "` minus `search`, paired on the same "
            "deals under `standard`: " + ", ".join(gaps) + ". It is not a player (it sees the "
            "other hands); it bounds what any better belief about the hidden cards could add "
            "to the search at its default budget, and it is left out of the order and the "
            "spread above. The search's strength against its speed (budgets 8 to 256 on 16,000 "
            "deals a table size, with `scripts/search_curve.py`) and what limits it are in "
            "`docs/policies.md`.\n")


def main() -> None:
    args = common.parse_args(__doc__.splitlines()[0], "reports/players.md")
    ctx = common.Context(args, "players")
    specs = tuple(check_policy(s) for s in LADDER)
    if OPPONENT not in specs:
        raise SystemExit(f"the ladder must hold its opponent {OPPONENT!r}")
    speed = measure_speed(ctx, specs)
    slow_total = sum(projected_seconds(ctx, s, speed) for s in specs if is_slow(s))
    for spec in (s for s in specs if is_slow(s)):
        projected = projected_seconds(ctx, spec, speed)
        ctx.log(f"{spec}: ~{projected:.0f} s projected for its ladder deals")
        if slow_total > BUDGET_SECONDS:
            fits = int(games_for(ctx, spec) * BUDGET_SECONDS / slow_total)
            ctx.log(f"warning: the slow specs need ~{slow_total:.0f} s, over the budget of "
                    f"{BUDGET_SECONDS} s; SLOW_GAMES[{spec!r}] = {fits} would fit")
    ladder = run_ladder(ctx, specs)
    fast = tuple(s for s in specs if not is_slow(s) and s != OPPONENT)
    round_robin = run_round_robin(ctx, fast)
    text = common.header("Players: the ladder, ratings and speed", ctx, "players.py")
    text += (f"Policies: {', '.join(f'`{s}`' for s in specs)} (`analyses/players.py` LADDER); "
             f"presets {', '.join(f'`{p}`' for p in PRESET_NAMES)}, single deals, "
             f"{' and '.join(map(str, TABLE_SIZES))} players. Games per (preset, table size, "
             f"policy, focal seat): {games_for(ctx, 'random'):,} for the heuristics"
             + "".join(f", {games_for(ctx, s):,} for `{s}`" for s in specs if is_slow(s))
             + f"; seeds {SEEDS['ladder']} + seat (ladder), {SEEDS['round_robin']} + seat "
             "(round robin).\n\n")
    text += section_ladder(ctx, ladder, specs)
    text += "\n" + section_ratings(ladder, round_robin, specs)
    text += section_speed(ctx, speed, specs)
    elapsed = time.monotonic() - ctx.started
    note = (f"This run took {elapsed:.0f} s (games played or read back from the store, the "
            "timing and the fits) on this machine; machine-dependent like section 3.")
    text += "\n" + section_reading(ladder, specs, note)
    ctx.write(text)


if __name__ == "__main__":
    main()
