"""Run directories: the manifest, the result tables (Parquet, one file per chunk and table),
and :func:`load` to read them back as pandas DataFrames.

Layout of a run directory::

    manifest.json
    games/part-000000000000.parquet     one file per chunk, named by its first game index
    players/part-....parquet
    rounds/part-....parquet             (games played in rounds only)
    decisions.parquet, decisions.json   (optional) decisions judged by ``sim.decisions``

A chunk's files are each written to a temporary name and renamed; the ``games`` file comes
last, so a chunk counts as done exactly when its ``games`` file exists.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

if TYPE_CHECKING:
    import pandas as pd

TABLES = ("games", "players", "rounds")
MANIFEST = "manifest.json"
DECISIONS = "decisions.parquet"         # sim.decisions: one row per judged decision
DECISIONS_SETTINGS = "decisions.json"   # sim.decisions: the judge's settings
# zstd: as fast to write as the default snappy here, and a quarter smaller on disk
COMPRESSION = "zstd"


def part_name(start: int) -> str:
    return f"part-{start:012d}.parquet"


def write_chunk(run_dir: Path, start: int, tables: dict[str, pa.Table]) -> None:
    """Write one chunk's tables atomically, ``games`` last (the chunk's completion mark)."""
    order = [t for t in TABLES if t != "games" and t in tables] + ["games"]
    for name in order:
        folder = run_dir / name
        folder.mkdir(exist_ok=True)
        final = folder / part_name(start)
        temporary = folder / (part_name(start) + ".tmp")
        pq.write_table(tables[name], temporary, compression=COMPRESSION)
        os.replace(temporary, final)


def read_chunk(run_dir: Path, start: int) -> dict[str, pa.Table]:
    """The tables of the chunk that starts at game ``start``, as :func:`write_chunk` wrote
    them."""
    tables = {}
    for name in TABLES:
        path = run_dir / name / part_name(start)
        if path.exists():
            tables[name] = pq.read_table(path)
    return tables


def done_chunks(run_dir: Path) -> set[int]:
    """First game indices of the chunks already complete."""
    folder = run_dir / "games"
    if not folder.is_dir():
        return set()
    return {int(p.name[5:17]) for p in folder.glob("part-*.parquet")}


def read_manifest(run_dir: Path) -> dict[str, Any]:
    with open(run_dir / MANIFEST, encoding="utf-8") as f:
        return json.load(f)


def write_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    temporary = run_dir / (MANIFEST + ".tmp")
    with open(temporary, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, sort_keys=True)
        f.write("\n")
    os.replace(temporary, run_dir / MANIFEST)


def load(run_dir: str | os.PathLike, tables: str | Iterable[str] = TABLES,
         columns: Iterable[str] | None = None) -> dict[str, pd.DataFrame] | pd.DataFrame:
    """A run's tables as pandas DataFrames, reading only what is asked.

    ``tables``: one name (returns a DataFrame) or several (returns a dict by name);
    ``columns``: restrict to these columns (those a table lacks are skipped).  Only complete
    chunks are read (an interrupted run's half-written chunk is left out)."""
    import pandas as pd  # imported here: batch workers never need it

    run = Path(run_dir)
    if not (run / MANIFEST).is_file():
        raise FileNotFoundError(f"{run} is not a run directory (no {MANIFEST})")
    single = isinstance(tables, str)
    names = [tables] if isinstance(tables, str) else list(tables)
    unknown = [n for n in names if n not in TABLES]
    if unknown:
        raise ValueError(f"unknown table {unknown[0]!r}; tables: {', '.join(TABLES)}")
    complete = {part_name(start) for start in done_chunks(run)}
    out = {}
    for name in names:
        folder = run / name
        files = sorted(f for f in folder.glob("part-*.parquet") if f.name in complete) \
            if folder.is_dir() else []
        if not files:
            out[name] = pd.DataFrame()
            continue
        schema = pq.read_schema(files[0])
        wanted = None if columns is None else [c for c in columns if c in schema.names]
        dataset = pq.ParquetDataset([str(f) for f in files])
        out[name] = dataset.read(columns=wanted).to_pandas()
    return out[names[0]] if single else out


def read_decisions(folder: str | os.PathLike) -> tuple[pd.DataFrame, dict[str, Any]] | None:
    """The decisions ``sim.decisions`` judged in ``folder`` and the judge's settings (None
    when it has not been run there)."""
    import pandas as pd

    folder = Path(folder)
    if not (folder / DECISIONS).is_file() or not (folder / DECISIONS_SETTINGS).is_file():
        return None
    with open(folder / DECISIONS_SETTINGS, encoding="utf-8") as f:
        settings = json.load(f)
    return pd.read_parquet(folder / DECISIONS), settings
