"""``python -m sim.export RUN_DIR --format csv|xlsx``: a run's tables for a spreadsheet.

    python -m sim.export runs/paris-damis-20261129T120000Z --format xlsx
    python -m sim.export runs/paris-damis-20261129T120000Z --format csv --table games

CSV writes one file per table, ``<table>.csv``, into a folder (default ``RUN_DIR/csv/``);
xlsx writes one workbook with a sheet per table (default ``RUN_DIR/<run name>.xlsx``).
Without ``--table`` every table the run has is written.  Columns holding lists (such as
``winner_seats``) are written as text, their items separated by ", " ("0, 2"), which a
spreadsheet reads as one cell and does not take for a decimal number.

From Python, ``sim.export.export(run_dir, format="xlsx")`` does the same and returns the files
written; a bad request raises ValueError (the command prints it as one line and exits with
status 2, having written nothing).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from sim import results
from sim.cli import Parser, UsageError, usage_error

FORMATS = ("csv", "xlsx")
XLSX_ROWS = 1_048_576 - 1           # a worksheet's rows, less the header
LIST_SEPARATOR = ", "


def readable(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with every list column (lists or arrays in its cells) as text, items joined
    by ``LIST_SEPARATOR``."""
    out = table.copy()
    for column in out.columns:
        if out[column].dtype != object:
            continue
        values = out[column]
        if values.map(lambda v: isinstance(v, list | tuple | np.ndarray)).any():
            out[column] = values.map(
                lambda v: LIST_SEPARATOR.join(map(str, v))
                if isinstance(v, list | tuple | np.ndarray) else v)
    return out


def chosen_tables(run_dir: Path, tables: str | Iterable[str] | None) -> list[str]:
    """The tables to export: those named (each must be a table the run has) or, by default,
    every table the run has.  Raises ValueError naming the valid choices."""
    if not (run_dir / results.MANIFEST).is_file():
        raise ValueError(f"{run_dir} is not a run directory (no {results.MANIFEST})")
    held = [name for name in results.TABLES if results.written_parts(run_dir / name)]
    names = list(held if tables is None else [tables] if isinstance(tables, str) else tables)
    for name in names:
        if name not in results.TABLES:
            raise ValueError(f"unknown table {name!r}; tables: {', '.join(results.TABLES)}")
        if name not in held:
            raise ValueError(f"{run_dir} has no {name} table; its tables: {', '.join(held)}")
    if not names:
        raise ValueError(f"{run_dir} has no tables yet (no chunk finished)")
    return names


def default_out(run_dir: Path, format: str) -> Path:
    """Where an export goes by default: ``RUN_DIR/csv/`` or ``RUN_DIR/<run name>.xlsx``."""
    return run_dir / "csv" if format == "csv" else run_dir / f"{run_dir.resolve().name}.xlsx"


def _write_csv(frames: dict[str, pd.DataFrame], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, frame in frames.items():
        final = folder / f"{name}.csv"
        temporary = folder / f".{name}.csv.tmp"
        frame.to_csv(temporary, index=False)
        os.replace(temporary, final)
        written.append(final)
    return written


def _write_xlsx(frames: dict[str, pd.DataFrame], path: Path) -> list[Path]:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".xlsx",
                                         dir=path.parent)
    os.close(handle)
    try:
        with pd.ExcelWriter(temporary, engine="openpyxl") as writer:
            for name, frame in frames.items():
                frame.to_excel(writer, sheet_name=name, index=False)
        os.replace(temporary, path)
    finally:
        Path(temporary).unlink(missing_ok=True)
    return [path]


def export(run_dir: str | os.PathLike, format: str = "csv",
           tables: str | Iterable[str] | None = None,
           out: str | os.PathLike | None = None) -> list[Path]:
    """Write a run's tables (``tables``: one name, several, or None for every table the run
    has) as CSV files in the folder ``out`` or as one xlsx workbook ``out`` (defaults: see
    :func:`default_out`), list columns as text; return the files written.

    Raises ValueError for an unknown format or table, a table the run does not have, a
    missing run or an xlsx sheet longer than a worksheet (nothing is written then)."""
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; formats: {', '.join(FORMATS)}")
    run = Path(run_dir)
    names = chosen_tables(run, tables)
    frames = {name: readable(results.load(run, name)) for name in names}
    if format == "xlsx":
        long = next((n for n, f in frames.items() if len(f) > XLSX_ROWS), None)
        if long is not None:
            raise ValueError(f"the {long} table has {len(frames[long]):,} rows, more than a "
                             f"worksheet holds ({XLSX_ROWS:,}); export it as csv")
    target = Path(out) if out is not None else default_out(run, format)
    if format == "csv":
        return _write_csv(frames, target)
    return _write_xlsx(frames, target)


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m sim.export`` argument parser (errors raise UsageError)."""
    p = Parser(prog="python -m sim.export",
               description="Write a run's result tables for a spreadsheet: CSV files (one per "
                           "table) or one Excel workbook (a sheet per table).  List columns "
                           "are written as text, items separated by ', '.",
               epilog="Examples:\n  python -m sim.export runs/paris-damis-20261129T120000Z "
                      "--format xlsx\n  python -m sim.export runs/paris-damis-20261129T120000Z "
                      "--table games --out games-csv",
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run_dir", metavar="RUN_DIR", help="a run directory (from python -m "
                                                      "sim.batch)")
    p.add_argument("--format", default="csv", metavar="|".join(FORMATS),
                   help="csv (default): one <table>.csv per table in a folder; xlsx: one "
                        "workbook, a sheet per table (at most 1,048,575 rows a sheet)")
    p.add_argument("--table", action="append", metavar="|".join(results.TABLES),
                   help="a table to export, repeatable (default: every table the run has)")
    p.add_argument("--out", metavar="PATH",
                   help="csv: the folder (default RUN_DIR/csv/); xlsx: the workbook (default "
                        "RUN_DIR/<run name>.xlsx); earlier files of the same names are "
                        "replaced")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input)."""
    try:
        args = build_parser().parse_args(argv)
        written = export(args.run_dir, args.format, args.table, args.out)
    except (UsageError, ValueError) as error:
        return usage_error("sim.export", error)
    except OSError as error:
        print(f"sim.export: error: cannot write the export: {error.strerror} "
              f"({error.filename})", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
