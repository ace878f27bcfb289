"""A digest of the games the engine plays, for an engine change that must not change them:
`python scripts/games_digest.py` before and after; the same lines mean the same games.

Each line is one configuration and the sha256 of every column of its ``simulate`` table (or of a
traced game's event rows): standard single deals at 4 players with each heuristic policy, a
two-deck 7-player table with forgetting and a swap experiment, the match formats (deals, best-of,
elimination), the seed presets, the search player at a small budget (single deal and a match
objective), the tree search player at 16 iterations and traced games with ``trace_game``. Run it
against another checkout with ``PYTHONPATH=TREE NUMBA_CACHE_DIR=TREE/.numba_cache python
scripts/games_digest.py``. A few thousand games per configuration: a minute or two on a warm cache
(the first run compiles).
"""
import hashlib

import numpy as np

from vandatta_sim.rules import get_preset
from vandatta_sim.simulate import simulate, trace_game


def frame_digest(frame) -> str:
    h = hashlib.sha256()
    for name in frame.columns:
        h.update(name.encode())
        h.update(np.ascontiguousarray(frame[name].to_numpy()).tobytes())
    return h.hexdigest()[:16]


def array_digest(rows) -> str:
    return hashlib.sha256(np.ascontiguousarray(rows, dtype=np.int32).tobytes()).hexdigest()[:16]


standard = get_preset("standard")
single = standard.replace(match="single", players=4)
CONFIGS = [
    (f"standard single 4p {pol}", single, dict(games=5000, seed=11, policies=pol))
    for pol in ("expert", "random", "greedy", "eight-dumper", "expert:eights=dump",
                "expert:eights=3")
] + [
    ("standard single 4p mixed seats", single,
     dict(games=5000, seed=12, policies=["random", "greedy", "expert", "eight-dumper"])),
    ("7p two decks, forget, swap 8", standard.replace(match="single", players=7, decks=2),
     dict(games=3000, seed=13, forget=0.3, swap="8")),
    ("jokers super_eight, stacking, not must_play", single.replace(
        jokers=2, joker_effect="super_eight", stacking=True, must_play=False),
     dict(games=3000, seed=24, policies=["random", "greedy", "expert", "expert"])),
    ("jokers draw_two, twos, counter aces, same_player", single.replace(
        jokers=1, joker_effect="draw_two", two_draws_two=True, ace_on_ace="counter",
        eight_follow="same_player", draw_limit=0, call_at=3, out_on_special=True),
     dict(games=3000, seed=25, forget=0.5)),
    ("standard deals:5", standard.replace(match="deals:5"), dict(games=1000, seed=14)),
    ("standard best_of:3", standard.replace(match="best_of:3"), dict(games=1000, seed=15)),
    ("standard elimination:100", standard, dict(games=500, seed=16)),
] + [
    (f"preset {name}", get_preset(name), dict(games=300, seed=17))
    for name in ("seed000", "seed001", "seed001-hundred", "seed002", "svang-atta")
] + [
    ("search budget 4 single", single,
     dict(games=200, seed=18, policies=["search:budget=4", "expert", "expert", "expert"])),
    ("search budget 2 points, random rollout", single,
     dict(games=200, seed=19, policies=["search:budget=2:objective=points:rollout=random"])),
    ("search budget 2 match objective deals:3", standard.replace(match="deals:3"),
     dict(games=40, seed=20,
          policies=["search:budget=2:objective=match", "expert", "random", "expert"])),
    ("ismcts 16 iterations single, beliefs lacks", single,
     dict(games=200, seed=26,
          policies=["ismcts:iterations=16", "expert", "ismcts:iterations=16:beliefs=lacks",
                    "expert"])),
    ("ismcts 16 iterations plain root, 2p", single.replace(players=2),
     dict(games=200, seed=27, policies=["ismcts:iterations=16:root=plain", "expert"])),
]
TRACES = [
    ("trace standard single game 3", single, dict(seed=21, game=3)),
    ("trace seed002 match game 1", get_preset("seed002"), dict(seed=22, game=1)),
    ("trace search budget 4", single,
     dict(seed=23, game=0, policies=["search:budget=4", "expert", "random", "greedy"])),
]

if __name__ == "__main__":
    for label, rules, kwargs in CONFIGS:
        kwargs = dict(kwargs)
        games = kwargs.pop("games")
        print(f"{label:50s} {frame_digest(simulate(rules, games, threads=2, **kwargs))}",
              flush=True)
    for label, rules, kwargs in TRACES:
        print(f"{label:50s} {array_digest(trace_game(rules, **kwargs))}", flush=True)
