"""The command line's parameter types: numbers in ASCII digits within stated limits.

Each type refuses a bad value with one line naming the option and the allowed values, before
any arithmetic sees it. Nothing here imports the engine (the count check loads it only when a
count is converted, i.e. when a command plays).
"""

from __future__ import annotations

import click

from ..paths import is_ascii_number, shorten

#: Seeds fit a signed 64-bit integer, the widest integer the store's tables and JSON readers
#: in other languages keep exactly (numpy's SeedSequence itself would take any size).
MAX_SEED = 2**63 - 1
#: The kernel holds a game index as a signed 64-bit integer and adds the index within the run
#: to the first game's (first_game + g): 2^62 leaves room for any run that starts there.
MAX_GAME_INDEX = 2**62
#: The most games one simulate run plays (the limit it had before these types).
MAX_SIMULATE_GAMES = 10**9
#: A sweep configuration's games are game indices 0 … games - 1 of its seed.
MAX_SWEEP_GAMES = MAX_GAME_INDEX


class AsciiInt(click.ParamType):
    """A whole number written in ASCII digits (an optional sign, ``_`` between digits): click's
    INT takes whatever int() reads, "٣" included, and converts a million digits slowly."""

    name = "integer"
    #: More digits than any limit of this command line has.
    MAX_DIGITS = 25

    def _refuse(self, value, param, ctx):
        self.fail(f"{shorten(repr(str(value).strip()))} is not allowed; allowed: an integer "
                  "in ASCII digits", param, ctx)

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        digits = text.lstrip("+-").replace("_", "")
        try:
            if not is_ascii_number(digits) or len(digits) > self.MAX_DIGITS:
                raise ValueError
            return int(text)
        except ValueError:
            self._refuse(value, param, ctx)


class CountType(AsciiInt):
    """An :class:`AsciiInt` from ``low`` to ``high``, checked by
    :func:`~vandatta_sim.simulate.check_count`; the message states the limits."""

    def __init__(self, what: str, low: int, high: int, high_text: str):
        self.what, self.low, self.high, self.high_text = what, low, high, high_text

    def _refuse(self, value, param, ctx):
        self.fail(f"{self.what} = {shorten(str(value).strip())} is not allowed; allowed: an "
                  f"integer {self.low}–{self.high_text}", param, ctx)

    def convert(self, value, param, ctx):
        from ..simulate import SimulationError, check_count  # the engine loads only to play

        number = super().convert(value, param, ctx)
        try:
            return check_count(number, self.what, self.low, self.high)
        except SimulationError:
            self._refuse(value, param, ctx)


ASCII_INT = AsciiInt()
SEED_TYPE = CountType("seed", 0, MAX_SEED, "2^63−1")


def player_counts(ctx, param, value):
    """A comma list of player counts (--players 2,3,4) as a tuple of ints."""
    if value is None:
        return ()
    out = []
    for part in value.split(","):
        part = part.strip()
        if not is_ascii_number(part) or len(part) > AsciiInt.MAX_DIGITS:
            raise click.BadParameter(f"{value!r}: allowed: player counts 2–10, e.g. 2,3,4")
        if int(part) in out:  # the one "given twice" rule: never two identical tables
            raise click.BadParameter(f"{int(part)} is given twice in {value!r}; give each "
                                     "player count once")
        out.append(int(part))
    return tuple(out)
