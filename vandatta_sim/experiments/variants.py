"""The rule variants the reports compare (the variant catalogue), and single-deal rules.

The catalogue is every preset, then every house rule (docs/spec.md §2) toggled singly from
``standard``, each with the variant it is paired with (:func:`variants`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import PRESETS, Rules


@dataclass(frozen=True)
class Variant:
    """A rule set to compare: ``name`` (shown), ``group``, the rules, the seats' chance of
    forgetting a call, and the name of the variant it is compared with (paired)."""

    name: str
    group: str
    rules: Rules
    forget: float = 0.0
    baseline: str = "standard"
    note: str = ""


#: Calls only matter when somebody forgets one; call rules are compared at this chance.
CALL_FORGET = 0.1


def variants() -> list[Variant]:
    """Every preset, then every house rule (docs/spec.md §2) toggled singly from ``standard``."""
    std = PRESETS["standard"]
    out = [Variant(name, "preset", rules) for name, rules in PRESETS.items()]

    def toggle(group, note="", forget=0.0, baseline="standard", **changes):
        name = ", ".join(f"{k}={_show(v)}" for k, v in changes.items())
        out.append(Variant(name, group, std.replace(**changes), forget, baseline, note))

    toggle("table", hand_size=5)
    toggle("table", hand_size=6)
    toggle("table", hand_size=8)
    toggle("table", decks=2)
    toggle("table", jokers=2)
    toggle("table", jokers=2, joker_effect="draw_two")
    toggle("table", jokers=2, joker_effect="super_eight")
    toggle("start card", start_eight="dealer_names")
    toggle("start card", start_eight="forehand_names")
    toggle("start card", start_ace="all_but_dealer_draw")
    toggle("start card", start_ace="dealer_draws")
    toggle("start card", start_ace="bury")
    toggle("play", must_play=False)
    toggle("play", stacking=True)
    toggle("play", eight_follow="same_player")
    toggle("play", eight_on_ace=True)
    toggle("play", eight_on_eight=True)
    toggle("play", ace_on_eight=True)
    toggle("play", ace_on_ace="allowed")
    toggle("play", ace_on_ace="counter")
    toggle("play", ace_draw=0)
    toggle("play", ace_draw=2)
    toggle("play", ace_draw=3)
    toggle("play", ace_extra_turn=False)
    toggle("play", draw_limit=0)
    toggle("play", draw_limit=1)
    toggle("play", draw_limit=2)
    toggle("play", draw_limit=5)
    toggle("play", specials_only_must_draw=False)
    toggle("play", out_on_special=True)
    toggle("play", last_card_start_suit=True)
    toggle("play", two_draws_two=True)
    toggle("play", reshuffles=0)
    toggle("play", reshuffles=1)
    calls = f"every seat forgets a due call with probability {CALL_FORGET:g}"
    out.append(Variant(f"standard, forget={CALL_FORGET:g}", "calls", std, CALL_FORGET,
                       "standard", calls))
    for changes in ({"call_at": 3}, {"call_penalty": 0}, {"call_penalty": 1},
                    {"call_penalty": 5}):
        toggle("calls", calls, CALL_FORGET, f"standard, forget={CALL_FORGET:g}", **changes)
    toggle("scoring", scale="base")
    toggle("scoring", eliminate_at="pass", note="changes matches only")
    return out


def _show(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def single(rules: Rules, **changes) -> Rules:
    """``rules`` for single deals (plus any other changes)."""
    return rules.replace(match="single", **changes)
