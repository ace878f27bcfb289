"""vandatta-sim: Monte Carlo rules-variant analysis for the Swedish card game Vändåtta."""

__version__ = "0.1.0"

#: Bumped whenever the engine's behaviour changes (same seed, different games); stored with
#: every result so that results from different engine behaviour are never mixed.
ENGINE_VERSION = 6
