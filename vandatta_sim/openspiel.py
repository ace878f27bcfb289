"""Vändåtta as an OpenSpiel game: ``pyspiel.load_game("python_vandatta", {...})``.

Importing this module registers the Python game ``python_vandatta`` with ``pyspiel`` (the
optional extra ``open-spiel``; docs/openspiel.md shows how to run OpenSpiel's algorithms on it).
Every field of :class:`vandatta_sim.rules.Rules` is a game parameter with standard's value as
its default, plus ``seed``; the rules' own checks judge the values (a bad one is the
``RulesError`` that names the field and the values allowed; an unknown parameter or a wrong
type is OpenSpiel's error naming the parameter). ``decks``, ``reshuffles`` and ``scale`` take
more than one type of value, so they are strings here, spelled as in a rules file
(``"2"``, ``"unlimited"``, ``'{ base = "hundred", "8" = 40 }'``).

A state wraps one :class:`vandatta_sim.step.State` whose seats are all external: each call is
the compiled engine's, no rule is written here. The action space is the step's 63 ids
(docs/step.md), the returns the step's (zero-sum: +1 the winner of the deal or the match,
-1/(players - 1) the others, 0 for all when no one wins). Chance is sampled
(``SAMPLED_STOCHASTIC``): there are no chance nodes; the deal and every later draw come from the
engine's stream of the game's ``seed`` and the state's game index, which is the number of
``new_initial_state()`` calls before it (OpenSpiel's ``clone`` of a Python state calls it too),
or the index given as ``new_initial_state("17")``.

:meth:`VandattaState.resample_from_infostate` draws a world that agrees with everything one
seat has seen (:func:`resample`), which OpenSpiel's Python IS-MCTS needs.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import random
from collections import Counter

import numpy as np
import pyspiel

from . import step as S
from .cards import JOKER_TYPES, N_DECK_TYPES, N_SUITS, N_TYPES, card_name, is_special
from .engine.layout import EFFECT_NAMES
from .referee import GameState, RefereeError, card_fits, legal_plays
from .rules import Rules, RulesError, get_preset, parse_override
from .trace import Event

SHORT_NAME = "python_vandatta"
#: the fields whose values are not of one type (int or a word): strings, read as in a rules file
_TEXT_FIELDS = ("decks", "reshuffles", "scale")
_STANDARD = get_preset("standard")
#: decisions one turn can ask at most (a move, stacks, the eight's follow-up, a suit, a call),
#: a generous bound: OpenSpiel wants a maximum game length and a deal stops at TURN_CAP turns
_DECISIONS_PER_TURN = 16
#: tries of :func:`resample` before it gives up
RESAMPLE_TRIES = 20


def _default(name: str):
    value = getattr(_STANDARD, name)
    return str(value) if name in _TEXT_FIELDS else value


PARAMETERS = {f.name: _default(f.name) for f in dataclasses.fields(Rules)} | {"seed": 0}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Vändåtta (vandatta-sim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS)


def rules_from_params(params: dict) -> Rules:
    """The Rules of a game's parameters (standard's for those not given); RulesError if bad."""
    values = {}
    for name, value in params.items():
        if name == "seed":
            continue
        if name not in PARAMETERS:
            Rules().replace(**{name: value})  # the rules' own "unknown field" error
        if name in _TEXT_FIELDS and isinstance(value, str):
            value = parse_override(f"{name}={value}")[1]
        values[name] = value
    return Rules(**values)


def max_game_length(rules: Rules) -> int:
    """A bound on the decisions of one game (a deal, or a match of at most this many deals)."""
    deals = {"single": 1, "deals": rules.match_param, "best_of": 2 * rules.match_param - 1,
             "elimination": S.E.DEAL_CAP}[rules.match_kind]
    return S.E.TURN_CAP * _DECISIONS_PER_TURN * min(deals, S.E.DEAL_CAP)


def action_name(action: int) -> str:
    """The step's name of an action, the two joker types told apart (OpenSpiel wants every
    legal action's string distinct)."""
    name = S.action_to_string(action)
    return f"{name}{action - JOKER_TYPES[0] + 1}" if action in JOKER_TYPES else name


class VandattaGame(pyspiel.Game):
    """The game of some house rules; see the module's docstring."""

    def __init__(self, params=None):
        params = dict(params or {})
        self.rules = rules_from_params(params)
        seed = params.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise RulesError(f"seed = {seed!r} is not allowed; allowed: an integer ≥ 0")
        self.seed = seed
        self.step_game = S.Game(self.rules, "expert")  # every seat answers from outside
        self._games = 0  # new_initial_state calls so far: the next state's game index
        n = self.rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=S.NUM_ACTIONS, max_chance_outcomes=0, num_players=n,
            min_utility=-1.0 / (n - 1), max_utility=1.0, utility_sum=0.0,
            max_game_length=max_game_length(self.rules))
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self, index=None):
        """Game ``index`` of the seed's run; by default the next one (see the module)."""
        if index is None:
            index, self._games = self._games, self._games + 1
        else:
            text = str(index).strip()
            if not (text.isascii() and text.isdigit()):
                raise S.StepError(f"initial state {index!r} is not allowed; allowed: a game "
                                  f"index ≥ 0")
            index = int(text)
        return VandattaState(self, _Cell(self.step_game, self.seed, index))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if not isinstance(iig_obs_type, pyspiel.IIGObservationType):
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return VandattaObserver(self.rules.players, iig_obs_type)


class _Cell:
    """The step's state inside an OpenSpiel state, built on first use (OpenSpiel's clone of a
    Python state makes a fresh initial state and deep-copies the fields over it, so this one is
    never played) and copied by the step's own clone; pickled as its game and actions."""

    def __init__(self, game: S.Game, seed: int, index: int, state: S.State | None = None,
                 takes: tuple = ()):
        self.game, self.seed, self.index, self._state = game, seed, index, state
        self.takes = takes  # a resampled world's script (State.world)
        self.views: dict = {}  # (seat, perfect recall, private) → (string, tensor) at this point

    @property
    def state(self) -> S.State:
        if self._state is None:
            self._state = self.game.new_state(self.seed, self.index)
        return self._state

    def apply(self, action: int) -> None:
        self.state.apply_action(action)
        self.views = {}

    def __deepcopy__(self, memo) -> _Cell:
        twin = _Cell(self.game, self.seed, self.index, self.state.clone(), self.takes)
        twin.views = self.views  # never written, only replaced
        return twin

    def __reduce__(self):
        state = self.state
        return _restore, (self.game.rules.canonical(), self.seed, self.index,
                          self.takes, tuple(state.history()))


@functools.lru_cache(maxsize=16)
def _step_game(rules: Rules) -> S.Game:
    return S.Game(rules, "expert")


def _restore(rules: dict, seed: int, index: int, takes: tuple, history: tuple) -> _Cell:
    """A pickled cell played again: the same game, world script and actions."""
    rules = Rules(**{k: tuple(v) if isinstance(v, list) else v for k, v in rules.items()})
    game = _step_game(rules)
    state = game.new_state(seed, index, takes)
    for action in history:
        state.apply_action(action)
    return _Cell(game, seed, index, state, takes)


class VandattaState(pyspiel.State):
    """A game at a decision (or over); the step's state is ``self.step``."""

    def __init__(self, game: VandattaGame, cell: _Cell):
        super().__init__(game)
        self._cell = cell

    @property
    def step(self) -> S.State:
        return self._cell.state

    @property
    def suggestion(self) -> int:
        """The action our ``expert`` would take here (an expert bot plays it)."""
        return self.step.decision.suggestion

    def current_player(self):
        return self.step.current_player()

    def _legal_actions(self, player):
        return self.step.legal_actions(player)

    def _apply_action(self, action):
        self._cell.apply(int(action))

    def _action_to_string(self, player, action):
        return action_name(action)

    def is_terminal(self):
        return self.step.is_terminal()

    def returns(self):
        return self.step.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state that agrees with everything ``player_id`` has seen (see :func:`resample`),
        its random choices seeded from ``probability_sampler``."""
        rng = random.Random(int(probability_sampler() * 2**62))
        script: list = []
        world = resample(self.step, player_id, rng, script=script)
        twin = self.clone()
        twin._cell = _Cell(self._cell.game, self._cell.seed, self._cell.index, world,
                           tuple(script))
        return twin

    def __str__(self):
        state = self.step
        hands = " | ".join(" ".join(card_name(c) for c in state.hand(s))
                           for s in range(state.game.rules.players))
        view = state.observation(0)
        top = card_name(view.top) if view.top >= 0 else "-"
        return (f"game {self._cell.index} seed {self._cell.seed}, "
                f"{len(state.history())} actions; hands: {hands}; top {top}, "
                f"talon {view.talon}; {'over' if state.is_terminal() else 'to move: %d' % state.current_player()}")


# --- what a seat sees --------------------------------------------------------------------------
_KINDS = len(Event) + 1


def _pieces(players: int, perfect_recall: bool, private: bool) -> list[tuple[str, tuple]]:
    """The observation tensor's named parts (the information state's adds the history's)."""
    pieces = [("observer", (players,)), ("to_move", (players,))]
    if private:
        pieces.append(("hand", (N_TYPES,)))
    pieces += [("hand_sizes", (players,)), ("totals", (players,)), ("top", (N_TYPES + 1,)),
               ("suit", (N_SUITS + 1,)), ("effect", (len(EFFECT_NAMES),)), ("direction", (1,)),
               ("duty", (1,)), ("talon", (1,)), ("pile", (N_TYPES,))]
    if perfect_recall:
        pieces += [("played", (players, N_TYPES)), ("draws", (players,)),
                   ("deal", (1,))]
        if private:
            pieces.append(("taken", (N_TYPES,)))
    return pieces


class VandattaObserver:
    """OpenSpiel's observer of this game (PyObserver interface).

    The information state (``perfect_recall``) is a seat's whole view of the game: its hand and
    every event as it saw them (another seat's dealt and drawn cards hidden), so two histories
    one seat cannot tell apart give it the same string. Its tensor is a fixed-size summary of
    that view (cards each seat played, draws, cards this seat took): not perfect recall. The
    observation is the present only: hand, sizes, totals, pile, top, suit, effect, duty,
    direction, talon. ``private_info`` NONE leaves the seat's own cards out."""

    def __init__(self, players: int, iig_obs_type):
        self.players = players
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        pieces = _pieces(players, self.perfect_recall, self.private)
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict, at = {}, 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at: at + size].reshape(shape)
            at += size

    def _view(self, state: VandattaState, player: int):
        cell = state._cell
        key = (player, self.perfect_recall, self.private)
        if key not in cell.views:
            cell.views = dict(cell.views)
            cell.views[key] = self._compute(state.step, player)
        return cell.views[key]

    def _compute(self, state: S.State, player: int):
        view = state.observation(player)
        t = np.zeros_like(self.tensor)
        parts, at = {}, 0
        for name, shape in _pieces(self.players, self.perfect_recall, self.private):
            size = int(np.prod(shape))
            parts[name] = t[at: at + size].reshape(shape)
            at += size
        parts["observer"][player] = 1
        if view.to_move >= 0:
            parts["to_move"][view.to_move] = 1
        if self.private:
            for c in view.hand:
                parts["hand"][c] += 1
        parts["hand_sizes"][:] = view.hand_sizes
        parts["totals"][:] = view.totals
        parts["top"][view.top] = 1  # -1 (none) is the last slot
        parts["suit"][view.suit] = 1  # -1 (none) is the last slot
        parts["effect"][EFFECT_NAMES.index(view.effect)] = 1
        parts["direction"][0] = view.direction
        parts["duty"][0] = view.duty
        parts["talon"][0] = view.talon
        for c in view.pile:
            parts["pile"][c] += 1
        hand = " ".join(card_name(c) for c in view.hand) if self.private else "?"
        text = (f"p{player} hand[{hand}] sizes{list(view.hand_sizes)} "
                f"totals{list(view.totals)} top {card_name(view.top) if view.top >= 0 else '-'} "
                f"suit {view.suit} {view.effect} duty {view.duty} dir {view.direction} "
                f"talon {view.talon} pile {len(view.pile)} to_move {view.to_move}")
        if self.perfect_recall:
            first_deal = [i for i, row in enumerate(view.events) if row[0] == Event.NEW_DEAL]
            this_deal = first_deal[-1] if first_deal else 0
            for kind, seat, a, b in view.events:
                if kind == Event.PLAY:
                    parts["played"][seat, a] += 1
                elif kind == Event.DRAW:
                    parts["draws"][seat] += 1
            parts["deal"][0] = view.deal
            if self.private:
                for kind, seat, a, _ in view.events[this_deal:]:
                    if kind in (Event.DEAL, Event.DRAW) and seat == player:
                        parts["taken"][a] += 1
            if not self.private:  # the seat's own hidden cards hidden too
                events = [(k, s, -1 if k in (Event.DEAL, Event.DRAW, Event.SWAP) else a, b)
                          for k, s, a, b in view.events]
            else:
                events = view.events
            text += " | " + ";".join(f"{k},{s},{a},{b}" for k, s, a, b in events)
        return text, t

    def set_from(self, state: VandattaState, player: int) -> None:
        self.tensor[:] = self._view(state, player)[1]

    def string_from(self, state: VandattaState, player: int) -> str:
        return self._view(state, player)[0]


# --- worlds ------------------------------------------------------------------------------------
_TAKEN = (Event.DEAL, Event.START, Event.DRAW)


def _deck(rules: Rules) -> Counter:
    return Counter({c: rules.n_decks for c in (*range(N_DECK_TYPES),
                                              *range(N_DECK_TYPES, N_DECK_TYPES + rules.jokers))})


class _Talon:
    """How many copies of each card type a deal's talon holds over time, from the events: the
    full deck at the start, a buried start card and a reshuffled pile coming in, takes going out.
    A take of card c at time t keeps c out of the talon from then on (it is held, or played
    onto the pile, whose return by a reshuffle is an event of its own), so it fits only where
    the talon holds a copy of c at every time from t on."""

    def __init__(self, rules: Rules):
        self.changes = {c: [(-1, k)] for c, k in _deck(rules).items()}  # card → [(time, ±k)]

    def add(self, card: int, time: int, k: int) -> None:
        self.changes.setdefault(card, []).append((time, k))

    def spare(self, card: int, time: int) -> int:
        """The fewest copies of ``card`` in the talon at any time from ``time`` on."""
        net = Counter()
        for t, k in self.changes.get(card, ()):
            net[max(t, time)] += k  # a take put back nets out at its own time
        held = least = 0
        for t in sorted(net):
            held += net[t]
            least = held if t == time else min(least, held)
        return least

    def left(self) -> Counter:
        return +Counter({c: sum(k for _, k in changes) for c, changes in self.changes.items()})


class _Deal:
    """One deal's takes as one seat saw them, and a guess of the hidden ones (see _script)."""

    def __init__(self, events, first: int, rules: Rules):
        self.first, self.talon, pile = first, _Talon(rules), []
        self.decks = rules.n_decks
        self.slots: list[list[int]] = []  # [time, card, seat, hidden]
        for i, (kind, seat, a, _) in enumerate(events):
            if kind in _TAKEN:
                if a >= 0:
                    self.talon.add(a, i, -1)
                self.slots.append([i, a, seat, a < 0])
                if kind == Event.START:
                    pile.append(a)
            elif kind == Event.BURY:
                pile.remove(a)
                self.talon.add(a, i, 1)
            elif kind == Event.PLAY:
                pile.append(a)
            elif kind == Event.RESHUFFLE:
                for card in pile[:-1]:
                    self.talon.add(card, i, 1)
                del pile[:-1]

    def since(self, card: int, time: int) -> int:
        """With one deck: when ``card`` last came into the talon before ``time`` (buried or
        reshuffled: a card played at ``time`` was taken after that); else -1 (with two decks
        the other copy may have been taken before: the talon's counts judge)."""
        if self.decks > 1:
            return -1
        return max((t for t, k in self.talon.changes.get(card, ()) if k > 0 and t < time),
                   default=-1)

    def guess(self, events, declined: dict, rng: random.Random) -> bool:
        """The hidden takes: each card another seat played goes to one of its earlier hidden
        takes at random, where the talon could have given it and the seat did not decline a
        move it would have fitted while holding it (``declined``: seat → [(time, cards)]); the
        other hidden takes are random cards the talon could have given that no later declined
        move of the seat's forbids. False at a dead end."""
        talon = copy.deepcopy(self.talon)
        for slot in self.slots:
            if slot[3]:
                slot[1] = -1
        plays = [(i, seat, a) for i, (kind, seat, a, _) in enumerate(events)
                 if kind == Event.PLAY and any(s[3] and s[2] == seat for s in self.slots)]
        rng.shuffle(plays)
        options = [[j for j, slot in enumerate(self.slots)
                    if slot[3] and slot[2] == seat and self.since(a, i) < slot[0] < i
                    and self.talon.spare(a, slot[0]) > 0
                    and not any(slot[0] < at < i and a in cards
                                for at, cards in declined.get(seat, ()))]
                   for i, seat, a in plays]
        early = rng.random() < 0.5  # half the guesses take played cards as early as they can:
        for choices in options:  # the later takes are left to cards never played, which the
            rng.shuffle(choices)  # talon may only have given late (after a reshuffle)
            if early:
                choices.sort(key=lambda j: self.slots[j][0])
        taken: dict[int, int] = {}  # slot → play: a matching of every play (Kuhn's paths)

        def place(p: int, seen: set) -> bool:
            for j in options[p]:
                if j not in seen:
                    seen.add(j)
                    if j not in taken or place(taken[j], seen):
                        taken[j] = p
                        return True
            return False

        if not all(place(p, set()) for p in range(len(plays))):
            return False
        for j, p in taken.items():
            self.slots[j][1] = plays[p][2]
            talon.add(plays[p][2], self.slots[j][0], -1)
        if any(talon.spare(c, -1) < 0 for c in talon.changes):
            return False  # two plays' cards out of the talon at once: place again
        for slot in self.slots:
            if slot[1] >= 0:
                continue
            later = set().union(*(cards for at, cards in declined.get(slot[2], ())
                                  if at > slot[0]))
            spare = {c: talon.spare(c, slot[0]) for c in talon.changes if c not in later}
            cards = [c for c, k in spare.items() if k > 0]
            if not cards:
                return False
            slot[1] = rng.choices(cards, weights=[spare[c] for c in cards])[0]
            talon.add(slot[1], slot[0], -1)
        self.guessed = talon
        return True


def _script(view: S.Observation, rules: Rules, rng: random.Random,
            declined: dict | None = None, rounds: int = 32) -> list[int] | None:
    """One guess of every card taken from the talon, from what ``view``'s seat has seen.

    Its own takes and the turned cards stay as they were; each card another seat played goes
    to one of that seat's earlier hidden takes at random (:meth:`_Deal.guess`), the other
    hidden takes get random cards the talon could have given. The referee then replays the
    guess; where it finds a seat declining a move (drawing or passing) while it held a card it
    had to play (must_play), the cards that fit there are a public fact learned into
    ``declined`` (kept by the caller across tries) and the guess is made again. Last, the
    talon as it would be now, shuffled, is the world's own future (not the real game's).
    None where no guess passes."""
    declined = {} if declined is None else declined
    starts = [i for i, row in enumerate(view.events) if row[0] == Event.NEW_DEAL] or [0]
    bounds = list(zip(starts, starts[1:] + [len(view.events)]))  # a full deck each deal
    deals = [_Deal(view.events[first:end], first, rules) for first, end in bounds]
    guessed: dict = {}
    for _ in range(rounds):
        facts = {first: {seat: declined.get(first, {}).get(seat, [])
                         + guessed.get(first, {}).get(seat, [])
                         for seat in range(rules.players)} for first, _ in bounds}
        if not all(deal.guess(view.events[deal.first:end], facts[deal.first], rng)
                   for deal, (_, end) in zip(deals, bounds)):
            continue  # a dead end of the random placing: place again
        rows = list(view.events)
        for deal in deals:
            for time, card, _, _ in deal.slots:
                kind, seat, _, b = rows[deal.first + time]
                rows[deal.first + time] = (kind, seat, card, b)
        judge = GameState(rules)
        try:
            for index, row in enumerate(rows):
                judge.step(index, row)
            break
        except RefereeError as error:
            if not _learn(judge, error, deals, declined, guessed):
                return None
    else:
        return None
    script = [card for deal in deals for _, card, _, _ in deal.slots]
    future = list(deals[-1].guessed.left().elements())
    if len(future) == view.talon:  # else a card moved in a way not counted here: no future
        rng.shuffle(future)
        script += future
    return script[: S.E.MAX_TAKES]


def _learn(judge: GameState, error: RefereeError, deals: list[_Deal], declined: dict,
           guessed: dict) -> bool:
    """After the referee refused a guess at ``error``: where a seat declined a move (drew or
    passed) holding a card it had to play, learn that it held none of the ordinary cards that
    fit the top there (a public fact, into ``declined``) and, for this guess only (into
    ``guessed``), where it held a special it had to play, none of the specials that fit there
    (whether a special had to be played depends on the rest of the hand: rules 12, 13 and 15,
    so this is a choice of the guess, not a fact). False where nothing new is learned (the
    guess is dropped)."""
    kind, seat = error.row[:2] if error.row else (None, -1)
    if kind not in (Event.DRAW, Event.PASS) or not 0 <= seat < judge.P or judge.deal.duty:
        return False
    legal = legal_plays(judge, seat)
    fits = {c for c in range(N_TYPES) if card_fits(c, judge.deal.top, judge.rules)}
    public = set()
    if not (judge.rules.last_card_start_suit and judge.deal.hand_sizes[seat] == 1):
        public = {c for c in fits if not is_special(c)}
    special = (legal - public) | ({c for c in fits if is_special(c)} if legal - public else set())
    first = next(d.first for d in reversed(deals) if d.first <= error.index)
    at = error.index - first
    new = False
    for facts, cards in ((declined, public), (guessed, special)):
        known = facts.setdefault(first, {}).setdefault(seat, [])
        if cards and (at, frozenset(cards)) not in known:
            known.append((at, frozenset(cards)))
            new = True
    return new


def resample(state: S.State, seat: int, rng: random.Random, tries: int = RESAMPLE_TRIES,
             attempts: list | None = None, script: list | None = None) -> S.State:
    """A world that agrees with everything ``seat`` has seen in ``state``: the same actions
    replayed (:meth:`State.world`) with the takes of :func:`_script`, accepted only where the
    engine finds it consistent and ``seat``'s information state is the real one. The real
    state's hidden cards are never read, but through that check. ``attempts`` (a list) gets
    the number of tries used (None: none accepted), ``script`` (a list) the world's takes.
    :class:`StepError` after ``tries`` rejected worlds."""
    view = state.observation(seat)
    rules = state.game.rules
    want = _info_key(view)
    declined: dict = {}  # public facts the referee taught the guesses (see _script)
    for attempt in range(1, tries + 1):
        takes = _script(view, rules, rng, declined)
        if takes is None:
            continue
        world = state.world(takes)
        if world.consistent and _info_key(world.observation(seat)) == want:
            if attempts is not None:
                attempts.append(attempt)
            if script is not None:
                script[:] = takes
            return world
    if attempts is not None:
        attempts.append(None)
    raise S.StepError(f"no world agrees with seat {seat}'s view after {tries} tries")


def _info_key(view: S.Observation) -> tuple:
    """What the information state string is made of (everything a seat has seen)."""
    return dataclasses.astuple(view)


pyspiel.register_game(GAME_TYPE, VandattaGame)

__all__ = ["GAME_TYPE", "PARAMETERS", "RESAMPLE_TRIES", "SHORT_NAME", "VandattaGame",
           "VandattaObserver", "VandattaState", "action_name", "max_game_length", "resample",
           "rules_from_params"]
