"""Orchestration and analysis: runners, batch runs, results, benchmarks, command-line tools.

``sim.load(run_dir)`` reads a batch run's tables (see :mod:`sim.results`);
``sim.export.export(run_dir, format="csv"|"xlsx")`` writes them for a spreadsheet."""

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "load":                      # imported lazily: pandas and pyarrow are heavy
        from sim.results import load
        return load
    raise AttributeError(f"module 'sim' has no attribute {name!r}")
