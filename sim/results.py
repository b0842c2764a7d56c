"""Run directories: the manifest, the result tables (Parquet, one file per chunk and table),
their integrity, and :func:`load` to read them back as pandas DataFrames.

Layout of a run directory::

    manifest.json
    games/part-000000000000.parquet     one file per chunk, named by its first game index
    players/part-....parquet
    rounds/part-....parquet             (games played in rounds only)
    decisions.parquet, decisions.json   (optional) decisions judged by ``sim.decisions``
    .lock                               the writers' lock (:mod:`sim.runlock`)

A chunk's files are each written to a temporary name and renamed, then the run's writer
records the chunk in the manifest: its files' rows, bytes and SHA-256 checksums.  A chunk
counts as done when it is recorded and its files match their record; reading a run checks
every file it reads against its record (:class:`DamagedRun` names the first that does not
match).  Runs written before checksums (manifest without ``format``) are read unverified,
their chunks done when their ``games`` file exists.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute  # noqa: F401 (see below)
import pyarrow.parquet as pq

from sim.manifest import MANIFEST, Manifest, RunError, read, validate

# pyarrow registers its compute functions when pyarrow.compute is first imported, and that is
# not safe while another thread writes Parquet, whose writer looks functions up: a batch
# whose worker thread imported it first (pandas does) could fail a chunk with "No function
# registered with name: take" (or "unique"), or abort.  Imported with this module, so in
# every process before any chunk is written.
# pyarrow.dataset is imported where it is used: it imports pandas, which the workers writing
# chunks never need
if TYPE_CHECKING:
    import pandas as pd
    import pyarrow.dataset as ds

__all__ = ["MANIFEST", "DamagedRun", "RunError", "load"]

TABLES = ("games", "players", "rounds")
DECISIONS = "decisions.parquet"         # sim.decisions: one row per judged decision
DECISIONS_SETTINGS = "decisions.json"   # sim.decisions: the judge's settings
# zstd: as fast to write as the default snappy here, and a quarter smaller on disk
COMPRESSION = "zstd"


class DamagedRun(RunError):
    """A chunk of a run is missing, truncated or altered (its record in the manifest no
    longer matches its files)."""


def part_name(start: int) -> str:
    return f"part-{start:012d}.parquet"


def digest(path: Path) -> str:
    """The SHA-256 checksum of a file, in hex."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def write_chunk(run_dir: Path, start: int, tables: dict[str, pa.Table]) -> dict[str, Any]:
    """Write one chunk's tables atomically, ``games`` last, and return its record for the
    manifest: its games and, for each file, its rows, bytes and checksum."""
    order = [t for t in TABLES if t != "games" and t in tables] + ["games"]
    files = {}
    for name in order:
        folder = run_dir / name
        folder.mkdir(exist_ok=True)
        final = folder / part_name(start)
        temporary = folder / (part_name(start) + ".tmp")
        pq.write_table(tables[name], temporary, compression=COMPRESSION)
        files[name] = {"rows": tables[name].num_rows, "bytes": temporary.stat().st_size,
                       "sha256": digest(temporary)}
        os.replace(temporary, final)
    return {"games": tables["games"].num_rows, "files": files}


def read_chunk(run_dir: Path, start: int) -> dict[str, pa.Table]:
    """The tables of the chunk that starts at game ``start``, as :func:`write_chunk` wrote
    them."""
    tables = {}
    for name in TABLES:
        path = run_dir / name / part_name(start)
        if path.exists():
            tables[name] = pq.read_table(path)
    return tables


def chunk_problem(run_dir: Path, start: int, record: dict[str, Any],
                  tables: Iterable[str] = TABLES) -> str | None:
    """What is wrong with the files of ``tables`` of a recorded chunk (None: they match its
    record)."""
    for name in tables:
        expected = record["files"].get(name)
        if expected is None:
            continue
        where = f"{name}/{part_name(start)}"
        try:
            size = (run_dir / name / part_name(start)).stat().st_size
        except FileNotFoundError:
            return f"{where} is missing"
        if size < expected["bytes"]:
            return f"{where} is truncated ({size} of {expected['bytes']} bytes)"
        if size != expected["bytes"]:
            return f"{where} is altered ({size} bytes, not {expected['bytes']})"
        if digest(run_dir / name / part_name(start)) != expected["sha256"]:
            return f"{where} is altered (its checksum differs from the manifest's)"
    return None


def chunk_label(start: int, record_or_count: dict[str, Any] | int) -> str:
    """A chunk as a user reads it: ``the chunk of games 500..999``."""
    count = record_or_count if isinstance(record_or_count, int) else record_or_count["games"]
    return f"the chunk of games {start}..{start + count - 1}"


def intact_chunks(run_dir: Path, manifest: dict[str, Any]) -> tuple[dict[int, dict[str, Any]],
                                                                   list[str]]:
    """The recorded chunks whose files match their record, by first game index, and a line
    for each other one (format 1 runs: none, nothing recorded)."""
    intact, problems = {}, []
    for key, record in (manifest.get("chunks") or {}).items():
        problem = chunk_problem(run_dir, int(key), record)
        if problem is None:
            intact[int(key)] = record
        else:
            problems.append(f"{chunk_label(int(key), record)}: {problem}")
    return intact, problems


def done_chunks(run_dir: Path) -> set[int]:
    """First game indices of the chunks done: recorded in the manifest (format 1 runs: whose
    ``games`` file exists)."""
    manifest = read_manifest(run_dir)
    if manifest.get("chunks") is not None:
        return {int(k) for k in manifest["chunks"]}
    return written_parts(run_dir / "games")


def written_parts(folder: Path) -> set[int]:
    """First game indices of the Parquet files in a table's ``folder`` (none if absent)."""
    if not folder.is_dir():
        return set()
    return {int(p.name[5:17]) for p in folder.glob("part-*.parquet")}


def read_manifest(run_dir: str | os.PathLike) -> dict[str, Any]:
    """The run's manifest as its JSON object, checked against the schema
    (:mod:`sim.manifest`; raises :class:`~sim.manifest.ManifestError`)."""
    return read(run_dir)[0]


def write_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    """Write the manifest atomically (checked against the schema first)."""
    text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    validate(json.loads(text), run_dir / MANIFEST)
    temporary = run_dir / (MANIFEST + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, run_dir / MANIFEST)


def load(run_dir: str | os.PathLike, tables: str | Iterable[str] = TABLES,
         columns: Iterable[str] | None = None, *, games: range | tuple[int, int] | None = None,
         seats: Iterable[int] | None = None, where: ds.Expression | None = None
         ) -> dict[str, pd.DataFrame] | pd.DataFrame:
    """A run's tables as pandas DataFrames, reading only what is asked.

    ``tables``: one name (returns a DataFrame) or several (returns a dict by name);
    ``columns``: a list of columns (a table lacking one skips it; one no asked table has is
    refused); ``games``: only games ``range(a, b)`` or ``(a, b)`` (only the chunks holding
    them are read); ``seats``: only these seats (tables with a ``seat`` column); ``where``: a
    pyarrow expression every asked table can evaluate (``pyarrow.compute.field("bet") >=
    2``).  Only chunks recorded in the manifest are read, each file checked against its
    record first: :class:`DamagedRun` names a missing, truncated or altered one;
    :class:`~sim.manifest.ManifestError` a bad manifest; ValueError or TypeError a bad
    argument."""
    run = Path(run_dir)
    data, manifest = read(run)
    names = table_names(tables)
    wanted = column_names(columns)
    span = game_span(games)
    filter_ = row_filter(span, seats, where)
    starts = verified_chunks(run, (data, manifest), names, span)
    files = {name: [run / name / part_name(s) for s in starts
                    if (run / name / part_name(s)).is_file()] for name in names}
    check_columns(files, wanted, seats)
    out = {name: read_table(paths, wanted, seats, filter_) for name, paths in files.items()}
    return out[names[0]] if isinstance(tables, str) else out


def verified_chunks(run: Path, manifest_read: tuple[dict[str, Any], Manifest] | None = None,
                    tables: Iterable[str] = TABLES, span: tuple[int, int] | None = None
                    ) -> list[int]:
    """The first game of every chunk of the run to read (those overlapping ``span``), each
    checked against its record (the files of ``tables``); :class:`DamagedRun` names the
    first that does not match.  ``manifest_read``: the run's manifest, already read
    (:func:`sim.manifest.read`)."""
    data, manifest = manifest_read or read(run)
    starts = chunks_to_read(run, manifest, span)
    for start in starts if manifest.chunks is not None else []:
        problem = chunk_problem(run, start, data["chunks"][str(start)], tables)
        if problem is not None:
            raise DamagedRun(f"{run}: {chunk_label(start, data['chunks'][str(start)])}: "
                             f"{problem}; play it again with python -m sim.batch --resume "
                             f"{run}")
    return starts


def table_names(tables: str | Iterable[str]) -> list[str]:
    """The asked tables as a list (ValueError for an unknown one)."""
    if not isinstance(tables, str) and not isinstance(tables, Iterable):
        raise TypeError(f"tables takes a table name or a list of them, got {tables!r}")
    names = [tables] if isinstance(tables, str) else list(tables)
    unknown = [n for n in names if n not in TABLES]
    if unknown or not names:
        raise ValueError(f"unknown table {unknown[0] if unknown else 'list []'!r}; tables: "
                         f"{', '.join(TABLES)}")
    return names


def column_names(columns: Iterable[str] | None) -> list[str] | None:
    """The asked columns as a list (a string, rather than a list of them, is refused)."""
    if columns is None:
        return None
    if isinstance(columns, str) or not isinstance(columns, Iterable):
        raise TypeError(f"columns takes a list of column names, got {columns!r}; write "
                        f"columns=[{columns!r}]")
    names = list(columns)
    if not all(isinstance(c, str) for c in names):
        raise TypeError(f"columns takes column names (strings), got {names!r}")
    return names


def game_span(games: range | tuple[int, int] | None) -> tuple[int, int] | None:
    """``games`` as (first, past the last), checked."""
    if games is None:
        return None
    if isinstance(games, range) and games.step == 1:
        return games.start, games.stop
    if isinstance(games, tuple) and len(games) == 2 \
            and all(isinstance(g, int) and not isinstance(g, bool) for g in games):
        return games[0], games[1]
    raise TypeError(f"games takes range(first, stop) or (first, stop), got {games!r}")


def row_filter(span: tuple[int, int] | None, seats: Iterable[int] | None,
               where: ds.Expression | None) -> ds.Expression | None:
    """The rows asked, as one pyarrow expression (None: every row)."""
    import pyarrow.dataset as ds
    parts = []
    if span is not None:
        parts.append((ds.field("game_id") >= span[0]) & (ds.field("game_id") < span[1]))
    if where is not None:
        if not isinstance(where, ds.Expression):
            raise TypeError(f"where takes a pyarrow expression (pyarrow.compute.field("
                            f"'bet') >= 2), got {where!r}")
        parts.append(where)
    if seats is not None:
        wanted = list(seats) if not isinstance(seats, str | bytes) else None
        if wanted is None or not all(isinstance(s, int) for s in wanted):
            raise TypeError(f"seats takes a list of seat numbers, got {seats!r}")
    out = None
    for part in parts:
        out = part if out is None else out & part
    return out


def chunks_to_read(run: Path, manifest: Manifest,
                   span: tuple[int, int] | None) -> list[int]:
    """The first game of every chunk to read, in order: the recorded ones (format 1: whose
    games file exists) overlapping ``span``; a complete run must have every chunk."""
    sizes = dict(manifest.spec.run_spec().chunks())
    records = manifest.records()
    if records is None:
        done = written_parts(run / "games")
    else:
        done = set(records)
        if manifest.status == "complete":
            missing = sorted(set(sizes) - done)
            if missing:
                raise DamagedRun(f"{run}: {chunk_label(missing[0], sizes[missing[0]])} has no "
                                 f"record in the manifest although the run is complete; play "
                                 f"it again with python -m sim.batch --resume {run}")
    starts = sorted(s for s in done if s in sizes)
    if span is not None:
        starts = [s for s in starts if s < span[1] and s + sizes[s] > span[0]]
    return starts


def check_columns(files: dict[str, list[Path]], wanted: list[str] | None,
                  seats: Iterable[int] | None) -> None:
    """ValueError for an asked column no asked table has, or seats without a seat column."""
    have = {name: set(pq.read_schema(paths[0]).names) for name, paths in files.items()
            if paths}
    known = set().union(*have.values()) if have else set()
    if not have:
        return
    unknown = [c for c in wanted or [] if c not in known]
    if unknown:
        raise ValueError(f"unknown column {unknown[0]!r} in {', '.join(have)}; columns: "
                         f"{', '.join(sorted(known))}")
    if seats is not None and "seat" not in known:
        raise ValueError(f"seats: {', '.join(have)} have no seat column")


def read_table(paths: Sequence[Path], wanted: list[str] | None, seats: Iterable[int] | None,
               filter_: ds.Expression | None) -> pd.DataFrame:
    """One table's files read as a DataFrame: only the asked columns and rows."""
    import pandas as pd  # imported here: batch workers never need it
    import pyarrow.dataset as ds

    if not paths:
        return pd.DataFrame()
    dataset = ds.dataset([str(p) for p in paths], format="parquet")
    names = dataset.schema.names
    columns = None if wanted is None else [c for c in wanted if c in names]
    if seats is not None and "seat" in names:
        seat = ds.field("seat").isin(list(seats))
        filter_ = seat if filter_ is None else filter_ & seat
    if filter_ is None:         # column by column: the Arrow copy of one column at a time
        return pd.DataFrame({c: dataset.to_table(columns=[c]).column(0).to_pandas()
                             for c in (names if columns is None else columns)}, copy=False)
    try:
        table = dataset.to_table(columns=columns, filter=filter_)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError) as error:
        raise ValueError(f"the row filter does not fit the table (columns: "
                         f"{', '.join(names)}): {error}") from None
    return table.to_pandas(split_blocks=True, self_destruct=True)


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
