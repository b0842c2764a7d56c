"""Orchestration and analysis: runners, batch runs, results, benchmarks, command-line tools.

``sim.load(run_dir)`` reads a batch run's tables (see :mod:`sim.results`);
``sim.export(run_dir, format="csv"|"xlsx")`` writes them for a spreadsheet (see
:mod:`sim.export`)."""

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    if name == "load":                      # imported lazily: pandas and pyarrow are heavy
        from sim.results import load
        return load
    if name == "export":                    # the module, callable as sim.export.export
        return importlib.import_module("sim.export")
    raise AttributeError(f"module 'sim' has no attribute {name!r}")
