# vandatta-sim: `make reports` runs the main job, `make test` the test suite.
# Both create the virtual environment .venv from pyproject.toml on first use.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
CLI := $(VENV)/bin/vandatta-sim
# numba's compiled kernels are cached here (a fresh clone starts with an empty cache)
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache
export MPLBACKEND := Agg

.DEFAULT_GOAL := help
.PHONY: help install test test-fast bench reports clean-cache clean-results

help: ## List the targets
	@grep -E '^[a-zA-Z0-9_./-]+:.*## ' $(MAKEFILE_LIST) | sed -e 's/:.*## /\t/' | expand -t 24

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test,dask]"
	touch $@

install: $(VENV)/.installed ## Create .venv and install the package with test and dask extras

test: install ## Run the whole test suite
	$(PY) -m pytest -q

test-fast: install ## Run the tests without the slow ones
	$(PY) -m pytest -q -m "not slow"

bench: install ## Deals per second by preset, players, policy and threads, plus sweep overhead
	$(CLI) bench --sweep-overhead

clean-cache: ## Remove numba's compiled-kernel cache (after editing the engine by hand)
	rm -rf $(NUMBA_CACHE_DIR)

clean-results: ## Remove the stored sweep results (reports will recompute them)
	rm -rf results
