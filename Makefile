# vandatta-sim: `make reports` runs the main job, `make test` the test suite.
# Both create the virtual environment .venv from pyproject.toml on first use.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
CLI := $(VENV)/bin/vandatta-sim
# numba's compiled kernels: the package picks their folder, this checkout's .numba_cache unless
# NUMBA_CACHE_DIR names another (vandatta_sim/kernel_cache.py), so what the install compiles
# serves every later command from any shell; the Makefile sets nothing and asks the package
ASK_CACHE_DIR = $(PY) -c "from vandatta_sim.kernel_cache import cache_dir; print(cache_dir() or '')"
export MPLBACKEND := Agg

.DEFAULT_GOAL := help
.PHONY: help install kernels test test-fast bench bench-ab replay-check reports players design docs clean-cache clean-results

help: ## List the targets
	@grep -E '^[a-zA-Z0-9_./-]+:.*## ' $(MAKEFILE_LIST) | sed -e 's/:.*## /\t/' | expand -t 24

# The install ends by compiling the engine's kernels into the cache (`make kernels`).
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test,dask,openspiel]"
	$(MAKE) --no-print-directory kernels
	touch $@

# The kernels every command and test needs, so none of them compiles later: the batch kernel of
# the heuristic players (simulate, sweeps) with standard's rules as constants and its general
# twin (any other rules), one after the other; beside them, on the other core (numba compiles
# on one), the one with the search player, which play (a traced game) shares, then the table's
# engine calls for play --human, which reuse the search's compiled functions. Two streams side
# by side take the wall time of the longer one instead of the sum (docs/speed.md, "CI and the
# tests"). They share the cache folder: numba writes each entry whole (a temporary file renamed
# into place), but reads, extends and rewrites a function's index without a lock, so two
# processes adding signatures of one function within the same milliseconds could lose one.
# The game feel's kernel (one for every rules): sweeps with --feel, the variants report and the
# designer's feel goals run it, and so do the tests; compiled here, in the shorter stream, it is
# compiled once instead of in whichever of them comes first (docs/speed.md). The belief audit
# (scripts/belief_audit.py and its test; one kernel for every rules) ends the search stream:
# it reuses the search's compiled player, and that stream is the shorter by more than its
# compile (docs/speed.md)
FEEL_KERNEL = from vandatta_sim.rules import get_preset; from vandatta_sim.simulate import simulate; \
	simulate(get_preset('seed000').replace(match='single'), 10, feel=True)
BELIEF_AUDIT = from vandatta_sim.rules import get_preset; from vandatta_sim.play.beliefs import audit; \
	audit(get_preset('standard').replace(match='single'), 2, policies=['search:budget=2'] + ['expert'] * 3)
kernels: ## Compile the engine's kernels into the cache (install ends with it; minutes, once)
	@echo "compiling the engine's kernels into $$($(ASK_CACHE_DIR)) (minutes, once; two at a time)"
	@start=$$SECONDS; \
	{ $(CLI) simulate --games 10 --match single > /dev/null && \
	  $(CLI) simulate --games 10 --match single --preset seed000 > /dev/null && \
	  $(PY) -c "$(FEEL_KERNEL)" && \
	  echo "  the heuristic kernels and the game feel's: $$((SECONDS - start)) s"; } & heuristic=$$!; \
	{ $(CLI) simulate --games 2 --match single --policy 0=search > /dev/null && \
	  $(PY) -c "from vandatta_sim.play.table import warm_up; warm_up()" && \
	  $(PY) -c "$(BELIEF_AUDIT)" && \
	  echo "  the search kernel, the table's engine calls and the belief audit: $$((SECONDS - start)) s"; } & search=$$!; \
	wait $$heuristic; first=$$?; wait $$search; second=$$?; \
	test $$first = 0 && test $$second = 0

install: $(VENV)/.installed ## Create .venv, install the package with test, dask and openspiel extras, compile the engine

test: install ## Run the whole test suite (one worker per core; a module stays in one worker)
	$(PY) -m pytest -q -n auto --dist loadfile --durations=20

test-fast: install ## Run the tests without the slow ones
	$(PY) -m pytest -q -m "not slow"

bench: install ## Deals/s by preset, players, policy, threads; one seat per bench.SEAT_POLICIES among experts; sweep overhead
	$(CLI) bench --sweep-overhead

# An engine change quotes `make bench-ab` in its closing note: this checkout (B) against BASE (A),
# by default the last commit on main that changed the engine; BASE may be any commit, from
# before the engine became a package too. Alternating fresh processes; a cold BASE compiles first.
BASE ?= $(shell git log -1 --format=%h main -- vandatta_sim/engine.py vandatta_sim/engine)
ROUNDS ?= 5
DEALS ?= 200000
PRESET ?= standard
bench-ab: install ## A/B random, expert deals and search decisions per CPU-s against BASE=REF (default: main's last engine change; PRESET=NAME: other rules)
	$(PY) scripts/bench_ab.py --rounds $(ROUNDS) --deals $(DEALS) --preset $(PRESET) $(BASE) .

# An engine change that must keep the games replays the first games of sampled stored chunks
# (results/, the current engine version) and requires them identical (exit 1 if any differs).
replay-check: install ## Replay sampled stored chunks of results/ with this engine; fails if any game differs
	$(PY) scripts/replay_store.py results 4 300

# --- reports: each report depends on its script and the library; `make reports` redoes only the
# stale ones, and the sweeps behind them reuse what results/ already holds.
# (the package's modules, subpackages included (engine/ too), except the command line)
REPORT_LIB := $(filter-out vandatta_sim/cli%,$(wildcard vandatta_sim/*.py vandatta_sim/*/*.py)) analyses/common.py

reports/eight-value.md: analyses/eight_value.py analyses/eight_players.py analyses/eight_house_rules.py $(REPORT_LIB) | $(VENV)/.installed
	$(PY) analyses/eight_value.py --out $@

reports/variants.md: analyses/variants.py $(REPORT_LIB) | $(VENV)/.installed
	$(PY) analyses/variants.py --out $@

# claims reads the eight-value runs back from results/, so eight-value runs first
reports/claims.md: analyses/claims.py analyses/claims_runs.py analyses/claims_figures.py $(REPORT_LIB) | $(VENV)/.installed reports/eight-value.md
	$(PY) analyses/claims.py --out $@

reports/players.md: analyses/players.py $(REPORT_LIB) | $(VENV)/.installed
	$(PY) analyses/players.py --out $@

# the designer's two worked examples (examples/*-design.toml), each as its file sizes it
reports/design.md: analyses/design.py examples/fair-two-player-design.toml examples/kids-table-design.toml examples/lively-table-design.toml $(REPORT_LIB) | $(VENV)/.installed
	$(PY) analyses/design.py --out $@

reports/README.md: analyses/index.py analyses/common.py analyses/players.py pyproject.toml reports/eight-value.md reports/variants.md reports/claims.md reports/players.md reports/design.md | $(VENV)/.installed
	$(PY) analyses/index.py --out $@

reports: reports/README.md ## Run the sweeps the reports need and write reports/ (only what is stale); then say which came out byte-identical to the committed ones
	@$(PY) scripts/compare_reports.py reports

players: reports/players.md ## Only the players' ladder report (reports/players.md)

design: reports/design.md ## Only the rules designer's worked examples (reports/design.md)

clean-cache: ## Remove numba's compiled-kernel cache (an engine edit needs none: one stamp covers its sources)
	@folder=$$($(ASK_CACHE_DIR)) && test -n "$$folder" && echo "rm -rf $$folder" && rm -rf "$$folder"

clean-results: ## Remove the stored sweep results (reports will recompute them)
	rm -rf results

docs/rules.md: vandatta_sim/rulebook.py vandatta_sim/rules.py | $(VENV)/.installed
	$(PY) -c "from vandatta_sim import rulebook; open('$@', 'w', encoding='utf-8').write(rulebook.reference_markdown())"

docs: docs/rules.md ## Regenerate the generated docs (the rules reference)
