"""What the report scripts in ``analyses/`` share: runs, designs, measures, verdicts, card value.

The scripts only choose game counts and seeds, call these modules and write Markdown and
figures; everything that turns per-game tables into numbers lives here, so it can be imported
and tested on small runs. Import the modules themselves (``from vandatta_sim.experiments import
designs``); this package re-exports nothing.

* :mod:`.runner`: running configurations, stored or directly;
* :mod:`.designs`: the paired experiments (swap experiment, policy substitution, hold vs dump);
* :mod:`.measures`: numbers read off one per-game table (deal length, förhand advantage, …);
* :mod:`.variants`: the catalogue of rule variants the reports compare;
* :mod:`.verdicts`: verdicts on claims and how parts combine;
* :mod:`.card_value`: the card-value experiment (``vandatta-sim value``) and its break-even;
* :mod:`.fair_score`: the fair score (``value --fair``), the score at which one more card gains
  nothing, by test inversion over a grid of scores;
* :mod:`.eight_play`: how a seat plays its eights, read from traced deals;
* :mod:`.plain`: the commands' plain verdicts, in two to four everyday sentences;
* :mod:`.summary_note`: the pasteable note of ``--summary FILE.md``.

Estimators (intervals, paired and relative differences) and estimates as ``_low``/``_high``
columns live in :mod:`vandatta_sim.stats`; estimates as text, and the table layout, in
:mod:`vandatta_sim.formatting`; the card-value chart in :mod:`vandatta_sim.plots`.
"""
