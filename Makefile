# Quick start: `make run` and `make test` on a machine with Python 3.11+ and pip.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test bench lint clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,dask]'
	touch $(STAMP)

# The main job. Until the batch runner lands (issue 3) this is the benchmark, which plays
# Paris d'amis games on both the compiled kernel and the Python API and prints games/s.
run: $(STAMP)
	$(BIN)/python -m sim.bench paris-damis

# The whole suite, then the fast subset again with numba switched off (rules as plain Python).
test: $(STAMP)
	$(BIN)/python -m pytest
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -m jitless

bench: $(STAMP)
	$(BIN)/python -m sim.bench

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
	find . -name __pycache__ -prune -exec rm -rf {} +
