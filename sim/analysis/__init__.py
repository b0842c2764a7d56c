"""Analysis of batch runs: a run's figures (:mod:`sim.analysis.stats`) and runs compared
with a baseline (:mod:`sim.analysis.compare`), as pure functions of the result tables.

``Run.open(run_dir)`` opens a finished run, ``analyze(run)`` computes its figures,
``compare([baseline, variant, ...])`` tests their differences and ``headline(table)`` puts
the significant ones first."""

from sim.analysis.compare import compare, headline
from sim.analysis.run import Run
from sim.analysis.stats import analyze

__all__ = ["Run", "analyze", "compare", "headline"]
