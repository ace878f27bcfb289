"""Long, Sturtevant, Buro & Furtak's three properties of the game tree (AAAI-10, "Understanding
the Success of Perfect Information Monte Carlo Sampling in Game Tree Search"), measured on
Vändåtta: leaf correlation, bias and disambiguation factor. They predict how much a determinized
search (the `search` player) loses against play that reasons over information sets, and where.

    python scripts/tree_properties.py [--presets standard,crazy_eights,seed002]
                                      [--players 2,4] [--deals 1000] [--seed 36]

Single deals, every seat `expert`, driven one decision at a time by the step engine
(vandatta_sim.step). Deal g of a config is game g of the run with SEED (its random stream)
with its cards from the world below. The paper defines the properties on synthetic trees;
these operational readings on a real deal are ours:

* Worlds. Deal g is played in a scripted world (``takes``): the pack in one order seeded by
  (SEED, g); the deal, the start card and every draw take the talon's card that comes first
  in that order, before and after a reshuffle (a buried start card goes to the end). The
  reference deal is every seat playing its `expert` suggestion in that world.
* Sibling sets. At a decision of the reference deal with at least two options (the lappen call
  left out: always said), every option is played and the deal continued to its end by
  `expert` at every seat, all options in the same world and the same stream; the option the
  reference took replays the reference deal. An option's outcome is 1 if the mover wins.
* Leaf correlation: the share of sibling sets whose options all give the mover the same
  outcome, at each seat's *last choice* of the deal (its last decision with two or more
  options: the nodes nearest the leaves where the mover has a say). Also by phase, at one
  decision per deal drawn uniformly among all decisions with two or more options.
* Bias: at those last choices, the share of sibling outcomes that are wins for the mover
  (chance: 1/players), with the shares of sets that all win and all lose.
* Disambiguation factor: how fast the mover's information set shrinks. Its size at a turn is
  the number of placements of the cards it has not seen (the pack less its hand and the
  pile) into the other hands (public sizes) and the talon that agree with the public
  record: before the first reshuffle of the deal a multinomial; after one, the talon holds
  only cards of the old pile and every hand holds exactly as many of them as it drew since
  less the ones it played (the plays are public), so it is a product of multinomials.
  (An upper bound still: it ignores what failed plays show and a buried start card.) After
  a second reshuffle, the first one's cards still unseen stay where they were counted. With L
  the log10 of that size at the seat's first turn and at its last, the factor per turn is
  df = 1 - (L_last / L_first) ** (1 / (turns - 1)): the share of the remaining uncertainty,
  in log terms, one turn removes. A trick-taking deal (4 players, 13 cards, every card played
  face up, nothing drawn) is the reference, computed with the same measure.

Intervals: Wilson for one sample per deal, a percentile bootstrap over deals (2,000 resamples)
where a deal gives several samples. Sample size: DEALS deals per config; at the default 1000
deals the six configs take about 4 CPU-minutes together (220 s on the 2-core development
machine).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from vandatta_sim import engine as E
from vandatta_sim.rules import PRESETS, get_preset
from vandatta_sim.stats import Estimate, proportion
from vandatta_sim.step import Game, State
from vandatta_sim.formatting import format_estimate, format_table
from vandatta_sim.trace import Event

#: the names the issue uses for presets, where they differ from the preset's own
ALIASES = {"crazy_eights": "crazy-eights-scoring"}
BOOTSTRAP = 2000
PHASES = (0.25, 0.5, 0.75, 1.0)
PLIES = ((1, 5), (6, 20), (21, 10**9))  # buckets of decisions left to the end of the deal
NOT_CHOICES = ("call",)  # say/forget lappen: expert always says it; no search decides it
TURNS = ("move", "duty")  # the decisions that start a turn


# ------------------------------------------------------------------------------------------
# the information set
# ------------------------------------------------------------------------------------------
def log10_multinomial(total: int, parts) -> float:
    """log10 of total! / prod(part!) (the placements of ``total`` distinct cards into boxes of
    the given sizes, which must add up to ``total``)."""
    parts = list(parts)
    if any(p < 0 for p in parts) or sum(parts) != total:
        raise ValueError(f"parts {parts} do not split {total}")
    return (math.lgamma(total + 1) - sum(math.lgamma(p + 1) for p in parts)) / math.log(10)


@dataclass
class Pool:
    """Cards put into the talon by one reshuffle (the old pile less its top) and not seen
    since, and how many of them each other seat holds (it drew them later; plays are public)."""

    cards: set
    held: dict


@dataclass
class Knowledge:
    """What one seat knows of where the unseen cards are, kept from the public record of the
    current deal (see :func:`knowledge`)."""

    pile: list = field(default_factory=list)
    sizes: dict = field(default_factory=dict)  # seat -> cards held now
    pools: list = field(default_factory=list)  # one per reshuffle, the talon's in the last


def knowledge(events, seat: int) -> Knowledge:
    """Replay the seat's view of the record (cards of others read -1) from the current deal's
    start: the pile, the hand sizes and, per reshuffle, where its cards can be. A reshuffle
    happens on an empty talon, so from then on the talon holds only its cards, and every card
    a seat draws is one of them until the next."""
    k = Knowledge()
    for kind, who, a, _ in events:
        if kind == Event.NEW_DEAL:
            k = Knowledge()
        elif kind == Event.DEAL:
            k.sizes[who] = k.sizes.get(who, 0) + 1
        elif kind == Event.START:
            k.pile.append(a)
        elif kind == Event.BURY:
            k.pile.pop()
        elif kind == Event.PLAY:
            k.pile.append(a)
            k.sizes[who] -= 1
            for pool in k.pools:
                if a in pool.cards:
                    pool.cards.discard(a)
                    if who != seat:
                        pool.held[who] -= 1
        elif kind == Event.DRAW:
            k.sizes[who] += 1
            if k.pools and who == seat:
                k.pools[-1].cards.discard(a)
            elif k.pools:
                k.pools[-1].held[who] += 1
        elif kind == Event.RESHUFFLE:
            k.pools.append(Pool(set(k.pile[:-1]), {s: 0 for s in k.sizes if s != seat}))
            k.pile = k.pile[-1:]
        elif kind == Event.SWAP:
            raise ValueError("a swap (match rules) is not handled: use single deals")
    return k


def log10_information_set(obs, pack: int) -> float:
    """log10 of the number of placements of the cards ``obs.seat`` has not seen that agree
    with the public record (module docstring; an upper bound: failed plays are ignored):
    per reshuffle's pool, its cards into the hands that hold them and (the last pool) the
    talon; the other unseen cards into the rest of the hands and, before any reshuffle, the
    talon."""
    k = knowledge(obs.events, obs.seat)
    if tuple(k.pile) != tuple(obs.pile) or any(
            obs.hand_sizes[s] != n for s, n in k.sizes.items()):
        raise AssertionError(f"the record read at seat {obs.seat} disagrees with the state")
    others = [s for s in sorted(k.sizes) if s != obs.seat]
    rest = {s: obs.hand_sizes[s] for s in others}
    unseen = pack - len(obs.hand) - len(obs.pile)
    size = 0.0
    for index, pool in enumerate(k.pools):
        talon = obs.talon if index == len(k.pools) - 1 else 0
        size += log10_multinomial(len(pool.cards), [pool.held[s] for s in others] + [talon])
        unseen -= len(pool.cards)
        for s in others:
            rest[s] -= pool.held[s]
    talon = 0 if k.pools else obs.talon
    return size + log10_multinomial(unseen, [rest[s] for s in others] + [talon])


def trick_game_reference(players: int = 4, hand: int = 13) -> tuple[float, float, int]:
    """The same measure on a trick-taking deal (every card face up when played, nothing
    drawn; the mover leads each trick): (df per turn, L_last / L_first, turns)."""
    others = players - 1
    sizes = [log10_multinomial(others * (hand - t), [hand - t] * others) for t in range(hand)]
    ratio = sizes[-1] / sizes[0]
    return 1 - ratio ** (1 / (hand - 1)), ratio, hand


# ------------------------------------------------------------------------------------------
# sibling sets
# ------------------------------------------------------------------------------------------
def talon_of(state: State) -> list[int]:
    """The cards in the talon (the truth: for scripting worlds, never for a seat's view)."""
    _, G, _, _, _ = state.engine_state()
    return [int(c) for c in G[E.G_TALON: E.G_TALON + G[E.S_NT]]]


@dataclass(frozen=True)
class World:
    """One order of the pack. The talon always gives its card that comes first in this order
    (a buried start card goes to the end of it), before and after any reshuffle: every
    option of a decision then meets the same draws for the same talon."""

    order: tuple

    @classmethod
    def of_deal(cls, game: Game, seed: int, index: int) -> World:
        first = game.new_state(seed, index)
        pack = sorted(set(first.takes()) | set(talon_of(first)))
        np.random.default_rng([seed, index]).shuffle(pack)
        return cls(tuple(pack))

    def script(self, events) -> list[int]:
        """The cards this order gives at the takes of a game's trace (its own history), then
        the talon left in the order (the takes to come, until the next reshuffle)."""
        rank = {c: i for i, c in enumerate(self.order)}
        talon, pile, takes = list(self.order), [], []  # the talon kept in the world's order
        for kind, _, card, _ in events.tolist():
            if kind in (Event.DEAL, Event.START, Event.DRAW):
                takes.append(talon[0])
                talon.remove(card)
                if kind == Event.START:
                    pile.append(card)
            elif kind == Event.BURY:
                pile.pop()
                talon.append(card)  # last in the order from now on
            elif kind == Event.PLAY:
                pile.append(card)
            elif kind == Event.RESHUFFLE:
                talon, pile = sorted(pile[:-1], key=rank.__getitem__), pile[-1:]
        return takes + talon

    def settle(self, state: State) -> State:
        """``state`` replayed (same answers) with the script of this order until the script
        its own trace gives is the one it was played with: each replay corrects the first
        draw that differed, so it takes one more per reshuffle or buried start card at most;
        the settled script goes on with the talon left, in the order."""
        script = None
        for _ in range(len(self.order) + 1):
            wanted = self.script(state.events())
            if wanted == script:
                return state
            state, script = state.world(wanted), wanted
        raise AssertionError("the draws did not settle on the world's order")

    def start(self, game: Game, seed: int, index: int) -> State:
        return self.settle(game.new_state(seed, index, takes=self.order))

    def apply(self, state: State, action: int) -> State:
        """``action`` at a settled ``state``. A settled state's script goes on with its talon
        in the order, so the draws stay the order's unless the step reshuffled."""
        seen = len(state.events())
        state = state.clone()
        state.apply_action(action)
        if np.any(state.events()[seen:, 0] == Event.RESHUFFLE):
            return self.settle(state)
        return state


def play_out(world: World, state: State) -> State:
    while not state.is_terminal():
        state = world.apply(state, state.decision.suggestion)
    return state


def sibling_outcomes(world: World, at: State) -> list[int]:
    """Per option of the decision at ``at`` (a state of ``world``): 1 if its mover wins the
    deal when the option is played and every seat then plays its suggestion in that world."""
    return [int(play_out(world, world.apply(at, action)).winner() == at.decision.seat)
            for action in at.decision.actions]


@dataclass
class DealSample:
    last: list  # per seat with a last choice: (outcomes, plies to the end, kind)
    #: one random choice: (outcomes, fraction of the deal played, kind, plies to the end)
    phase: tuple | None
    info: dict  # seat -> [(fraction of the deal played, log10 size)] at its turns


def sample_deal(game: Game, seed: int, index: int, pack: int, rng) -> DealSample:
    world = World.of_deal(game, seed, index)
    state = world.start(game, seed, index)
    path, info = [], {}
    while not state.is_terminal():
        path.append(state)
        decision = state.decision
        if decision.kind in TURNS:
            info.setdefault(decision.seat, []).append(
                (len(path) - 1, log10_information_set(state.observation(decision.seat), pack)))
        state = world.apply(state, decision.suggestion)
    total = len(path)
    info = {s: [(i / total, v) for i, v in turns] for s, turns in info.items()}
    choices = [i for i, s in enumerate(path)
               if len(s.decision.actions) >= 2 and s.decision.kind not in NOT_CHOICES]
    last_of = {}
    for i in choices:
        last_of[path[i].decision.seat] = i
    last = [(sibling_outcomes(world, path[i]), total - i, path[i].decision.kind)
            for i in sorted(last_of.values())]
    phase = None
    if choices:
        i = choices[int(rng.integers(len(choices)))]
        phase = (sibling_outcomes(world, path[i]), i / total, path[i].decision.kind, total - i)
    return DealSample(last, phase, info)


# ------------------------------------------------------------------------------------------
# summaries
# ------------------------------------------------------------------------------------------
def correlated(outcomes) -> bool:
    """All options of a sibling set give the mover the same outcome."""
    return len(set(outcomes)) == 1


def cluster_ratio(numerators, denominators, rng, boot: int = BOOTSTRAP) -> Estimate:
    """sum(numerators) / sum(denominators), one pair per deal, with a percentile bootstrap
    interval over deals (the samples of one deal are not independent)."""
    num = np.asarray(numerators, dtype=np.float64)
    den = np.asarray(denominators, dtype=np.float64)
    n = int(den.sum())
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    value = float(num.sum() / den.sum())
    picks = rng.integers(0, len(num), size=(boot, len(num)))
    with np.errstate(invalid="ignore", divide="ignore"):
        ratios = num[picks].sum(axis=1) / den[picks].sum(axis=1)
    ratios = ratios[np.isfinite(ratios)]
    low, high = np.quantile(ratios, [0.025, 0.975])
    return Estimate(value, float(min(low, value)), float(max(high, value)), n)


def cluster_mean(groups, rng, boot: int = BOOTSTRAP) -> Estimate:
    """The mean of the values of all groups (one group per deal), bootstrapped over deals."""
    groups = [g for g in groups if len(g)]
    return cluster_ratio([sum(g) for g in groups], [len(g) for g in groups], rng, boot)


@dataclass
class Properties:
    preset: str
    players: int
    deals: int
    lc: Estimate  # at last choices
    bias: Estimate
    all_win: Estimate
    all_lose: Estimate
    plies: float  # median plies from a last choice to the end
    lc_phase: list  # per phase: Estimate at a random choice
    lc_plies: list  # per PLIES bucket of plies to the end: Estimate at a random choice
    lc_kind: dict  # kind -> Estimate at a random choice
    first: Estimate  # log10 size at the first turn
    left: Estimate  # L_last / L_first
    df: Estimate  # per turn
    left_at: list  # per phase: mean L / L_first at the seat's last turn in the phase
    rise: Estimate  # share of turns after which the size grew (draws can grow it)
    seconds: float


def measure(preset: str, players: int, deals: int, seed: int,
            boot: int = BOOTSTRAP) -> Properties:
    start = time.process_time()
    rules = get_preset(ALIASES.get(preset, preset)).replace(players=players, match="single")
    game = Game(rules, "expert")
    rng = np.random.default_rng([seed, players, deals])
    samples = [sample_deal(game, seed, g, rules.deck_size, rng) for g in range(deals)]
    brng = np.random.default_rng([seed, players, deals, 1])

    sets = [s.last for s in samples]
    lc = cluster_ratio([sum(correlated(o) for o, _, _ in d) for d in sets],
                       [len(d) for d in sets], brng, boot)
    bias = cluster_ratio([sum(sum(o) for o, _, _ in d) for d in sets],
                         [sum(len(o) for o, _, _ in d) for d in sets], brng, boot)
    all_win = cluster_ratio([sum(min(o) == 1 for o, _, _ in d) for d in sets],
                            [len(d) for d in sets], brng, boot)
    all_lose = cluster_ratio([sum(max(o) == 0 for o, _, _ in d) for d in sets],
                             [len(d) for d in sets], brng, boot)
    plies = float(np.median([p for d in sets for _, p, _ in d]))

    phased = [s.phase for s in samples if s.phase is not None]
    lc_phase = []
    for lo, hi in zip((0.0,) + PHASES[:-1], PHASES):
        inside = [correlated(o) for o, x, _, _ in phased if lo <= x < hi]
        lc_phase.append(proportion(sum(inside), len(inside)))
    lc_plies = []
    for lo, hi in PLIES:
        inside = [correlated(o) for o, _, _, p in phased if lo <= p <= hi]
        lc_plies.append(proportion(sum(inside), len(inside)))
    lc_kind = {}
    for kind in sorted({k for _, _, k, _ in phased}):
        inside = [correlated(o) for o, _, k, _ in phased if k == kind]
        lc_kind[kind] = proportion(sum(inside), len(inside))

    per_deal = [list(s.info.values()) for s in samples]
    first = cluster_mean([[t[0][1] for t in d] for d in per_deal], brng, boot)
    left = cluster_mean([[t[-1][1] / t[0][1] for t in d if len(t) >= 2] for d in per_deal],
                        brng, boot)
    df = cluster_mean([[1 - (t[-1][1] / t[0][1]) ** (1 / (len(t) - 1))
                        for t in d if len(t) >= 2] for d in per_deal], brng, boot)
    left_at = []
    for hi in PHASES:
        left_at.append(cluster_mean(
            [[[v for x, v in t if x < hi][-1] / t[0][1] for t in d if t[0][0] < hi]
             for d in per_deal], brng, boot))
    rise = cluster_ratio([sum(b[1] > a[1] + 1e-9 for t in d for a, b in zip(t, t[1:]))
                          for d in per_deal],
                         [sum(len(t) - 1 for t in d) for d in per_deal], brng, boot)
    return Properties(preset, players, deals, lc, bias, all_win, all_lose, plies, lc_phase,
                      lc_plies, lc_kind, first, left, df, left_at, rise,
                      time.process_time() - start)


# ------------------------------------------------------------------------------------------
# output
# ------------------------------------------------------------------------------------------
def pct(est: Estimate) -> str:
    return format_estimate(est, "pct", 1)


def num(est: Estimate, digits: int = 2) -> str:
    return format_estimate(est, "num", digits)


def tables(results: list[Properties]) -> str:
    name = [f"{r.preset} {r.players}p" for r in results]
    out = ["Leaf correlation and bias at each seat's last choice of the deal (bootstrap 95% "
           "intervals over deals):", ""]
    out.append(format_table(
        ["config", "deals", "last choices", "plies to end (median)", "leaf correlation",
         "bias (mover wins)", "chance", "all options win", "all options lose"],
        [[n, r.deals, r.lc.n, f"{r.plies:.0f}", pct(r.lc), pct(r.bias),
          f"{100 / r.players:.0f}%", pct(r.all_win), pct(r.all_lose)]
         for n, r in zip(name, results)]))
    out += ["", "Leaf correlation by phase, at one choice per deal drawn at random (Wilson "
            "95%; phase = share of the deal's decisions made before it):", ""]
    out.append(format_table(
        ["config"] + [f"{int(100 * lo)}–{int(100 * hi)}%"
                      for lo, hi in zip((0.0,) + PHASES[:-1], PHASES)] + ["by kind"],
        [[n] + [pct(e) for e in r.lc_phase]
         + ["; ".join(f"{k} {pct(e)} (n={e.n})" for k, e in r.lc_kind.items())]
         for n, r in zip(name, results)]))
    out += ["", "The same choices by decisions left to the end of the deal (Wilson 95%):", ""]
    out.append(format_table(
        ["config"] + [f"{lo}–{hi}" if hi < 10**9 else f"{lo} or more" for lo, hi in PLIES],
        [[n] + [f"{pct(e)} (n={e.n})" for e in r.lc_plies] for n, r in zip(name, results)]))
    out += ["", "Disambiguation: log10 of the mover's information set at its turns "
            "(bootstrap 95% over deals):", ""]
    df_ref, left_ref, turns_ref = trick_game_reference()
    out.append(format_table(
        ["config", "log10 size, first turn", "left at 25%", "50%", "75%", "left at last turn",
         "df per turn", "turns after which it grew"],
        [[n, num(r.first, 1)] + [pct(e) for e in r.left_at[:3]]
         + [pct(r.left), pct(r.df), pct(r.rise)] for n, r in zip(name, results)]
        + [["trick-taking reference (4p, 13 cards)", f"{log10_multinomial(39, [13] * 3):.1f}",
            "", "", "", f"{100 * left_ref:.1f}%", f"{100 * df_ref:.1f}%", "0%"]]))
    return "\n".join(out)


def summary(results: list[Properties]) -> str:
    """What the numbers predict, in plain words; every comparison reads the intervals."""
    df_ref, _, _ = trick_game_reference()
    lines = ["", "What this predicts:"]
    lowest = min(results, key=lambda r: r.lc.value)
    highest = max(results, key=lambda r: r.lc.value)
    lines.append(
        f"- Leaf correlation at the last choice runs from {pct(lowest.lc)} "
        f"({lowest.preset} {lowest.players}p) to {pct(highest.lc)} ({highest.preset} "
        f"{highest.players}p): in the rest of the sibling sets the last choice changes who "
        "wins, so a choice made on a wrong picture of the hidden cards can cost the deal. "
        "Low correlation is where Long et al. find determinization losing most.")
    for r in results:
        early, late = r.lc_phase[0], r.lc_phase[-1]
        if early.high < late.low:
            where = "rises toward the end of the deal"
        elif late.high < early.low:
            where = "falls toward the end of the deal"
        else:
            where = "is not shown to change across the deal"
        lines.append(f"  {r.preset} {r.players}p: correlation {where} "
                     f"({pct(early)} in the first quarter, {pct(late)} in the last).")
    for r in results:
        chance = 1 / r.players
        if r.bias.high < chance:
            lean = "leans against the mover"
        elif r.bias.low > chance:
            lean = "leans toward the mover"
        else:
            lean = "is not shown to lean from chance"
        lines.append(
            f"- Bias, {r.preset} {r.players}p: the mover wins {pct(r.bias)} of the leaves "
            f"(chance {100 * chance:.0f}%): it {lean}; {pct(r.all_lose)} of the sets lose "
            f"whatever the mover does and {pct(r.all_win)} win whatever it does.")
    for r in results:
        if r.df.high < df_ref:
            verdict = "slower than"
        elif r.df.low > df_ref:
            verdict = "faster than"
        else:
            verdict = "not shown to differ from"
        lines.append(
            f"- {r.preset} {r.players}p: information set shrinks by {pct(r.df)} of its log "
            f"per turn, {verdict} a trick-taking deal ({100 * df_ref:.1f}%); "
            f"{pct(r.left)} of its log is left at the mover's last turn.")
    if all(r.df.high < df_ref for r in results) and highest.lc.high < 1:
        lines.append(
            "- Read together: in every config the information set shrinks more slowly than "
            "in a trick-taking deal and some last choices decide the deal (every "
            "correlation's upper end is below 100%). A search that determinized below the "
            "root would plan as if it will know the cards at its later choices (strategy "
            "fusion) and would ignore what its moves reveal (non-locality): both cost most "
            "here. `search` avoids them by playing every later move as expert, and so leaves "
            "those choices unimproved; a search over information sets (ismcts) can improve "
            "them without assuming the cards known.")
    return "\n".join(lines)


def parse_list(text: str, what: str, allowed=None, convert=str) -> list:
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise ValueError(f"{what} is empty")
    out = []
    for item in items:
        if allowed is not None and item not in allowed:
            raise ValueError(f"{what} {item!r} is not allowed; allowed: {', '.join(allowed)}")
        out.append(convert(item))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", default="standard,crazy_eights,seed002")
    parser.add_argument("--players", default="2,4", help="table sizes, 2–5")
    parser.add_argument("--deals", default="1000", help="deals per config (at least 10)")
    parser.add_argument("--seed", default="36")
    args = parser.parse_args(argv)
    try:
        presets = parse_list(args.presets, "--presets", tuple(PRESETS) + tuple(ALIASES))
        players = parse_list(args.players, "--players", ("2", "3", "4", "5"), int)
        for name, low in (("deals", 10), ("seed", 0)):
            text = getattr(args, name)
            if not (text.isascii() and text.isdigit()) or int(text) < low:
                raise ValueError(f"--{name} {text!r} is not allowed; allowed: whole numbers "
                                 f"from {low}")
    except ValueError as error:
        print(f"Error: {error}", file=sys.stderr)
        return 2
    results = [measure(p, n, int(args.deals), int(args.seed))
               for p in presets for n in players]
    print(tables(results))
    print(summary(results))
    print(f"CPU time: {sum(r.seconds for r in results):.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
