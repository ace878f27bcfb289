"""CPU time per step of vandatta_sim.step: `python scripts/step_speed.py [DEALS]` plays DEALS
(default 20) single deals of `standard` at 4 players, every seat external and answered with its
`expert` suggestion, and prints the CPU microseconds per apply_action (each one replays the deal
so far in the compiled engine) and the decisions a deal. docs/step.md quotes it."""

import sys
import time

from vandatta_sim import step
from vandatta_sim.rules import get_preset

deals = int(sys.argv[1]) if len(sys.argv) > 1 else 20
game = step.Game(get_preset("standard").replace(players=4, match="single"))
game.new_state(0, 0)  # compiled (or loaded) before the clock starts
steps = 0
start = time.process_time()
for index in range(deals):
    state = game.new_state(1, index)
    while not state.is_terminal():
        state.apply_action(state.decision.suggestion)
        steps += 1
seconds = time.process_time() - start
print(f"{steps} steps in {deals} deals: {seconds / steps * 1e6:.0f} µs CPU a step, "
      f"{steps / deals:.0f} decisions a deal")
