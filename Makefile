# Quick start: `make run` and `make test` on a machine with Python 3.11+ and pip.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-fast mutants bench lint notebook paris-report betzanbloo-report ascenseur-report bataille-report \
        clean \
        clean-cache

# Python writes the byte code of what it imports, even where PYTHONDONTWRITEBYTECODE is set
# (as in some CI images): otherwise every test process would compile pandas and numba again.
# pip therefore compiles nothing at install (--no-compile): only what runs is compiled, once.
unexport PYTHONDONTWRITEBYTECODE

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --no-compile -e '.[dev,dask]'
	touch $(STAMP)

# The main job: 100,000 seeded games of Paris d'amis on every core, results in runs/.
run: $(STAMP)
	$(BIN)/python -m sim.batch paris-damis --games 100000

# JupyterLab (the notebook extra) in .venv, then notebooks/ in it (Ctrl-C stops the server).
NOTEBOOK_STAMP := $(VENV)/.installed-notebook

$(NOTEBOOK_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --no-compile -e '.[dev,dask,notebook]'
	touch $(NOTEBOOK_STAMP)

notebook: $(NOTEBOOK_STAMP)
	$(BIN)/jupyter lab notebooks/

# pytest on every core (pytest-xdist); a test file runs whole on one worker, so its
# module-scoped fixtures (runs played once for many tests) are not played again elsewhere.
PYTEST := $(BIN)/python -m pytest -n auto --dist loadfile

# Every game's compiled code first, one game per core (the test processes would otherwise
# each compile the same code), then the whole suite, then the jitless subset again with numba
# switched off (rules as plain Python).  See docs/testing.md.
# The games whose batch kernel the tests play with search seats (tests/sim/test_kernels.py):
# their kernels are compiled with the searches too; a game left out here still passes, its
# searches compiled by the test process that first plays them.
SEARCHED_KERNELS := paris-damis,betzanbloo,rikiki,tarot,huit-americain,baccara,rami,ascenseur-atouts

test: $(STAMP)
	$(BIN)/python -m sim.compile --searches $(SEARCHED_KERNELS)
	$(PYTEST)
	NUMBA_DISABLE_JIT=1 $(PYTEST) -m jitless

# Everything but the tests marked slow: a few minutes at most once the code is compiled.
test-fast: $(STAMP)
	$(BIN)/python -m sim.compile --searches $(SEARCHED_KERNELS)
	$(PYTEST) -m "not slow"

# Do the tests catch broken rules?  Each curated mutation of tests/mutants.toml applied to a
# temporary copy of the repository, its tests run there (a compile each: minutes a mutant).
mutants: $(STAMP)
	$(BIN)/python -m tests.mutants

bench: $(STAMP)
	$(BIN)/python -m sim.bench

# The meta-games a report's build.py lists (--metagames: OUT|ARGUMENTS|ANALYSIS lines): a
# finished one is reused, an interrupted one resumed with its analysis settings given again.
# JOBS=N plays each on N cores (default: every core).
define play_metagames
	$(BIN)/python $(1) --metagames | while IFS='|' read -r out args analysis; do \
	  if [ -f $$out/metagame.json ]; then continue; \
	  elif [ -f $$out/metagame-settings.json ]; then $(BIN)/python -m sim.metagame --resume $$out \
	    $$analysis $(if $(JOBS),--jobs $(JOBS)); \
	  else $(BIN)/python -m sim.metagame $$args $$analysis --out $$out $(if $(JOBS),--jobs $(JOBS)); \
	  fi || exit 1; done
endef

# The Paris d'amis balance report: every experiment (finished cells are reused), the
# meta-games among good players at 2, 3 and 4 players and the fast good players' meta-game
# under each joker rule (listed by build.py --metagames), the decisions judged at the
# 3-player searches' tables and the rule design search (each resumed or reused when it
# exists), then reports/paris-damis/README.md and its figures.
paris-report: $(STAMP)
	$(BIN)/python -m sim.experiment experiments/[0-9]*.toml
	$(call play_metagames,reports/paris-damis/build.py)
	$(BIN)/python -m sim.decisions runs/experiments/metagame-3p/ismcts+ismcts+ismcts --games 12
	out=runs/experiments/design-paris-damis; \
	  if [ -f $$out/design-settings.json ]; then $(BIN)/python -m sim.design --resume $$out; \
	  else $(BIN)/python -m sim.design experiments/design-paris-damis.toml --out $$out; fi
	$(BIN)/python reports/paris-damis/build.py

# The Betzanbloo report: the contrast experiments (experiments/betzanbloo-*.toml, finished
# cells reused), then the meta-games among good players at 3, 4, 5, 6 and 8 players and
# under each of the authors' variants at 5 (listed by build.py --metagames: a finished one
# is reused, an interrupted one resumed; about 28 CPU minutes in all, 8 of them at 8
# players), then reports/betzanbloo/README.md and its figures (under 2 CPU minutes).
betzanbloo-report: $(STAMP)
	$(BIN)/python -m sim.experiment experiments/betzanbloo-*.toml $(if $(JOBS),--jobs $(JOBS))
	$(call play_metagames,reports/betzanbloo/build.py)
	$(BIN)/python reports/betzanbloo/build.py

# The Ascenseur aux atouts report: the experiments (experiments/ascenseur-*.toml, finished
# cells reused; the games with a search seat, ascenseur-good.toml, about 6 CPU minutes), then
# the meta-games of the search and the two estimators at 2, 3 and 4 players and under C6 at
# 3 and 4 (listed by build.py --metagames; about 40 CPU minutes), then
# reports/ascenseur-atouts/README.md and its figures.
ascenseur-report: $(STAMP)
	$(BIN)/python -m sim.experiment experiments/ascenseur-*.toml $(if $(JOBS),--jobs $(JOBS))
	$(call play_metagames,reports/ascenseur-atouts/build.py)
	$(BIN)/python reports/ascenseur-atouts/build.py

# La bataille: game length and cycle rate by pickup order (about a minute on one core).
bataille-report: $(STAMP)
	$(BIN)/python reports/bataille/build.py --games 10000 --seed 1

# Type-checked paths (settings in pyproject.toml's [tool.mypy]); add a package once it passes.
MYPY_PATHS := engines/core sim

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy $(MYPY_PATHS)

# Compiled code is cached in .numba-cache/<hash of the sources>; old folders pile up.
clean-cache:
	rm -rf .numba-cache

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache .mypy_cache
	find . -name __pycache__ -prune -exec rm -rf {} +
