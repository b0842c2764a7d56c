"""Helpers shared by the batch-runner tests (test_batch*.py, test_results*.py, test_replay*.py).

This module holds no tests.  It runs ``python -m sim.batch`` / ``python -m sim.replay`` as
subprocesses or in process, builds run specs exactly as the command line does, and compares
result tables independently of row order.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

import sim.replay as replay
from sim import results
from sim.batch.cli import build_parser, main, spec_from_args
from sim.batch.spec import RunSpec
from sim.batch.tables import play_chunk

ROOT = Path(__file__).resolve().parents[2]

# Sort keys that make a table independent of chunk order.
KEYS = {"games": ["game_id"], "players": ["game_id", "seat"],
        "rounds": ["game_id", "round", "seat"]}


def env() -> dict[str, str]:
    """The environment of a CLI subprocess: the project first on the path (whatever the
    working directory), no progress bar."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return os.environ | {"PYTHONPATH": path}


def run_module(module: str, *args: Any, cwd: Path, timeout: float = 600
               ) -> subprocess.CompletedProcess:
    """``python -m MODULE ARGS`` in ``cwd``, output captured as text."""
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], cwd=cwd, env=env(),
                          capture_output=True, text=True, timeout=timeout, check=False)


def run_batch(*args: Any, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    return run_module("sim.batch", *args, cwd=cwd, timeout=timeout)


def run_replay(*args: Any, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    return run_module("sim.replay", *args, cwd=cwd, timeout=timeout)


def call_main(main: Callable[[list[str]], int], *args: Any) -> tuple[int, str, str]:
    """A command's ``main`` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


batch_main = partial(call_main, main)
replay_main = partial(call_main, replay.main)


def json_summary(stdout: str) -> dict[str, Any]:
    return json.loads(stdout)


def make_spec(*args: Any) -> RunSpec:
    """The RunSpec the command line ``python -m sim.batch ARGS`` would run."""
    return spec_from_args(build_parser().parse_args([str(a) for a in args]))


def sort_tables(tables: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    return {name: frame.sort_values(KEYS[name]).reset_index(drop=True)
            for name, frame in tables.items()}


def load_sorted(run_dir: Path) -> dict[str, pd.DataFrame]:
    """A run directory's three tables, sorted by their keys."""
    return sort_tables(results.load(run_dir))


def chunk_frames(chunks: Sequence[dict[str, pa.Table]]) -> dict[str, pd.DataFrame]:
    """play_chunk outputs concatenated and sorted (the chunks may come in any order)."""
    names = chunks[0].keys()
    return sort_tables({n: pa.concat_tables([c[n] for c in chunks]).to_pandas()
                        for n in names})


def reference_tables(spec: RunSpec) -> dict[str, pd.DataFrame]:
    """The tables of a whole run played in one chunk, in this process."""
    return chunk_frames([play_chunk(spec, 0, spec.games)])


def assert_tables_equal(actual: dict[str, pd.DataFrame], expected: dict[str, pd.DataFrame]
                        ) -> None:
    assert sorted(actual) == sorted(expected) == sorted(KEYS)
    for name in KEYS:
        assert len(actual[name]) > 0, name
        pd.testing.assert_frame_equal(actual[name], expected[name], obj=f"table {name}")


def part_files(run_dir: Path, table: str = "games") -> list[Path]:
    folder = run_dir / table
    return sorted(folder.glob("part-*.parquet")) if folder.is_dir() else []
