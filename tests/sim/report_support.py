"""Helpers shared by the report tests (test_report*.py).  This module holds no tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.sim.test_batch_support import batch_main

GAMES, SEED = 1000, 3


def make_run(out: Path, *args: Any) -> Path:
    """A small complete paris-damis run in ``out`` (``args``: more sim.batch options)."""
    code, _, err = batch_main("paris-damis", "--games", GAMES, "--seed", SEED, "--jobs", 1,
                              "--no-progress", "--out", out, *args)
    assert code == 0, err
    return out
