"""vandatta-sim: Monte Carlo rules-variant analysis for the Swedish card game Vändåtta."""

from . import kernel_cache

__version__ = "0.1.0"

# numba's cache folder, chosen before any module of the package decorates a kernel: the one the
# install compiled into, from any shell and working directory (see kernel_cache)
kernel_cache.choose()

#: Bumped whenever the engine's behaviour changes (same seed, different games); stored with
#: every result so that results from different engine behaviour are never mixed.
# 6: the search player plays no option twice, races its options, deals its worlds with the
# public bookkeeping and scores its playouts at the valuation (games with a search seat change;
# all others are byte-identical: a digest of simulate outputs of five configurations matched);
# and expert weighs an eight by its cost: it dumps one once an opponent is short, by how many
# ordinary cards the eight is worth (games change under base and crazy_eights scales and other
# valuations; hundred-scale games are byte-identical: scripts/games_digest.py)
ENGINE_VERSION = 6
