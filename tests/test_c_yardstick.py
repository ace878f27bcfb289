"""scripts/yardstick/vandatta.c, the C yardstick of scripts/c_yardstick.py, plays our game.

The C engine is written from the rules documents, not from the kernel, and uses another random
stream, so no game is the same: its statistics (turns, cards played and drawn per deal,
reshuffles, the share of deals won by the first player to move) must agree with our engine's
`random` table in distribution. A control built with one rule broken (a draw limit of 2) must
disagree, so that the comparison is known to see a different game. (Other broken rules that
these sample sizes see, tried by hand: an eight allowed on an ace, no extra move after an ace,
a random suit named after an eight. Rare ones they do not: a start ace without its draws, a
start eight kept, a hand of only specials allowed to play.) A few seconds with a warm kernel
cache; skipped without gcc."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from vandatta_sim.simulate import simulate

_SPEC = importlib.util.spec_from_file_location(
    "c_yardstick", Path(__file__).resolve().parent.parent / "scripts" / "c_yardstick.py")
Y = importlib.util.module_from_spec(_SPEC)
sys.modules["c_yardstick"] = Y
_SPEC.loader.exec_module(Y)

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc to build the C engine")

C_DEALS, OUR_DEALS = 200_000, 100_000  # about 0.3 s each
# the compared statistics: a share of 0 or 1 in both engines (blocked, capped) has no spread
COMPARED = ("turns_mean", "plays_mean", "draws_mean", "reshuffles_mean", "first_wins")
Z_BOUND = 4.0  # |difference| / its standard error; fixed seeds, so the test is deterministic


@pytest.fixture(scope="module")
def ours():
    games = simulate(Y.yardstick_rules(), OUR_DEALS, seed=11, policies="random", threads=1)
    return Y.stats_of(games)


def _c_stats(tmp_path, defines=()):
    binary = Y.build(tmp_path, defines)
    return Y.run_c(binary, C_DEALS, seed=11)


def test_the_c_engine_plays_our_game_in_distribution(tmp_path, ours):
    c = _c_stats(tmp_path)
    assert c["deals"] == C_DEALS and c["deals_per_s"] > 0
    assert c["won"] == ours["won"] == 1.0  # standard's random deals are never blocked or capped
    z = Y.z_scores([c], [ours])
    assert all(abs(z[name]) < Z_BOUND for name in COMPARED), z


def test_a_broken_rule_in_the_c_engine_is_seen(tmp_path, ours):
    c = _c_stats(tmp_path, defines=("DRAW_LIMIT=2",))
    z = Y.z_scores([c], [ours])
    assert max(abs(z[name]) for name in COMPARED) > 3 * Z_BOUND, z
