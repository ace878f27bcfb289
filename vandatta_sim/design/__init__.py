"""The rules designer: a search of the rule space for the house rules a table wants.

A design spec (TOML, :mod:`.spec`) names the fixed rules, the parameters free to vary with
their allowed values, the table sizes, the players and the goals. The search (:mod:`.search`)
asks optuna for candidate rule sets (TPE for one score, NSGA-II for a Pareto front), plays each
candidate's games through the result store on one seed, so that every candidate is played on
the same deals (common random numbers) and a rule set seen before is read back, not replayed,
and measures the goals (:mod:`.goals`). The best candidates are then measured again on fresh
seeds, which no trial used, with more games (the winner's curse: the best of many noisy
measurements is flattered by its noise), and :mod:`.report` turns them into the ranked table,
the verdict, the figure and one rules file per recommended rule set. :mod:`.plan` is the dry
run: the trials and games to run, with a time estimate.
"""

from .spec import DesignSpec, Goal, SpecError, load_spec, parse_spec

__all__ = ["DesignSpec", "Goal", "SpecError", "load_spec", "parse_spec"]
