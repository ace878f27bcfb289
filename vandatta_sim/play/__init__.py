"""At the table: a game played decision by decision, people at some seats, and what helps them.

* :mod:`.table`: the game of ``play --human`` on the engine's step (the engine decides every
  bot's move and checks every person's);
* :mod:`.person`: the person at the table, the terminal screen and what they type, checked;
* :mod:`.coach`: the hints (each option's value with its interval) and the review of a deal;
* :mod:`.beliefs`: the search player's beliefs about the hidden hands, audited against the
  true ones.

Import the modules themselves (``from vandatta_sim.play.table import Table``); this package
re-exports nothing, so the command line's ``play`` loads only what a game needs.
"""
