"""vandatta-sim: Monte Carlo rules-variant analysis for the Swedish card game Vändåtta.

The modules and subpackages, by layer (the map with the data's way: docs/layout.md):

* the game: :mod:`.cards` (card encoding, names, scoring scales), :mod:`.rules` (the validated
  rule set, presets, rule files), :mod:`.rulebook` (what each parameter means),
  :mod:`.engine` (the compiled kernels), :mod:`.kernel_cache` (where they are cached),
  :mod:`.simulate` (the batch API), :mod:`.step` (the game one decision at a time),
  :mod:`.trace` (event traces and their narration) and :mod:`.referee` (the independent
  referee);
* the players: :mod:`.tuned` (`expert` with stored weights, ``tuned:NAME``; the shipped ones in
  ``tuned_policies/``) and :mod:`.tune` (fitting them);
* at the table: :mod:`.play` (a game played decision by decision with people at some seats,
  their screen, the coach, and the search player's beliefs audited against the true hands);
  :mod:`.openspiel` (Vändåtta as an OpenSpiel game, an optional extra);
* the results: :mod:`.sweep` (grids of configurations run into the store), :mod:`.store` (the
  result store), :mod:`.atomic` (files written whole or not at all), :mod:`.paths` (the user's
  paths, files and typed numbers, checked), :mod:`.stats` (the estimators),
  :mod:`.formatting` (the one table and estimate formatter), :mod:`.plots` (the commands'
  charts), :mod:`.experiments` (the experiments, measures and verdicts the reports and
  commands share), :mod:`.design` (the rules designer) and :mod:`.bench` (the speed
  benchmarks);
* :mod:`.cli`: the command line, a thin layer over all of the above.
"""

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
# 7: ismcts's paired root switches from its rollout's move on a lead of one standard error, not
# two (games with an ismcts seat at its default margin change; all others are byte-identical:
# scripts/games_digest.py)
# 8: a start card kept because the talon held no card to turn is plain, as the rules say (a
# kept joker takes any card but a joker, a kept eight or ace is matched by its suit and rank
# and takes no joker; before, a kept joker put clubs in force and a kept ace asked for its suit
# as a played ace), and the start card is no longer buried while the talon holds no card that
# could stay (games change only where a start special is kept; all others are byte-identical:
# scripts/games_digest.py)
ENGINE_VERSION = 8
