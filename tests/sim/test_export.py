"""``python -m sim.export`` and ``sim.export.export(...)``: a run's tables as CSV files or an
Excel workbook, list columns readable in a spreadsheet, ``sim.batch --csv``, and one-line
errors (exit 2, nothing written)."""

from __future__ import annotations

import shutil
from functools import partial

import numpy as np
import openpyxl
import pandas as pd
import pytest

import sim
import sim.export as export_cli
from sim import results
from tests.sim.report_support import make_run
from tests.sim.test_batch_support import batch_main, call_main

export_main = partial(call_main, export_cli.main)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A small paris-damis run (it has games, players and rounds tables)."""
    return make_run(tmp_path_factory.mktemp("export") / "run")


def as_lists(text: pd.Series) -> list[list[int]]:
    """A list column written by the export, read back as lists of ints."""
    return [[int(item) for item in str(cell).split(", ")] for cell in text]


def test_csv_writes_every_table_with_its_rows_and_list_columns_as_text(run, tmp_path):
    out = tmp_path / "csv"
    code, stdout, stderr = export_main(run, "--out", out)
    assert code == 0, stderr
    assert sorted(p.name for p in out.iterdir()) == ["games.csv", "players.csv", "rounds.csv"]
    assert stdout.split() == [str(out / f"{t}.csv") for t in results.TABLES]
    for table in results.TABLES:
        original = sim.load(run, table)
        written = pd.read_csv(out / f"{table}.csv")
        assert list(written.columns) == list(original.columns)
        assert len(written) == len(original)
    games, written = sim.load(run, "games"), pd.read_csv(out / "games.csv")
    assert as_lists(written["winner_seats"]) == [list(v) for v in games["winner_seats"]]
    # a shared win reads as "0, 2": one cell of text, not a decimal number
    shared = games["winner_seats"].map(len) > 1
    assert shared.any()
    assert written.loc[shared.to_numpy(), "winner_seats"].str.contains(", ").all()
    assert np.array_equal(written["decisions"], games["decisions"])


def test_xlsx_writes_a_sheet_per_table(run, tmp_path):
    book = tmp_path / "run.xlsx"
    code, stdout, stderr = export_main(run, "--format", "xlsx", "--table", "games",
                                       "--table", "players", "--out", book)
    assert code == 0, stderr
    assert stdout.strip() == str(book)
    workbook = openpyxl.load_workbook(book, read_only=True)
    assert workbook.sheetnames == ["games", "players"]
    sheet = pd.read_excel(book, sheet_name="games")
    games = sim.load(run, "games")
    assert len(sheet) == len(games)
    assert as_lists(sheet["winner_seats"]) == [list(v) for v in games["winner_seats"]]
    assert sheet["winner_seats"].map(lambda v: isinstance(v, str | int)).all()


def test_the_default_places_are_in_the_run(run):
    written = export_cli.export(run, "xlsx", "games")
    assert written == [run / f"{run.name}.xlsx"]
    assert written[0].is_file()
    written = export_cli.export(run, "csv", ["players"])
    assert written == [run / "csv" / "players.csv"]
    written[0].unlink()
    written[0].parent.rmdir()
    (run / f"{run.name}.xlsx").unlink()


def test_export_from_python_returns_the_files_written(run, tmp_path):
    written = sim.export.export(run, format="csv", tables="games", out=tmp_path / "x")
    assert written == [tmp_path / "x" / "games.csv"]
    assert len(pd.read_csv(written[0])) == len(sim.load(run, "games"))


def test_batch_writes_csv_beside_its_parquet_when_asked(tmp_path):
    out = tmp_path / "run"
    code, stdout, stderr = batch_main("paris-damis", "--games", 50, "--jobs", 1,
                                      "--no-progress", "--csv", "--out", out)
    assert code == 0, stderr
    assert f"csv: {out / 'csv'}" in stdout
    for table in results.TABLES:
        assert len(pd.read_csv(out / "csv" / f"{table}.csv")) == len(sim.load(out, table))


@pytest.mark.parametrize("args, message", [
    (["--format", "ods"], "unknown format 'ods'; formats: csv, xlsx"),
    (["--table", "hands"], "unknown table 'hands'; tables: games, players, rounds"),
    (["--table", "rounds"], "has no rounds table; its tables: games, players"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(run, tmp_path, args, message):
    without_rounds = tmp_path / "run"
    shutil.copytree(run, without_rounds)
    shutil.rmtree(without_rounds / "rounds")
    out = tmp_path / "out"
    code, stdout, stderr = export_main(without_rounds, *args, "--out", out)
    assert code == 2 and stdout == ""
    assert stderr.count("\n") == 1 and stderr.startswith("sim.export: error: ")
    assert message in stderr, stderr
    assert not out.exists()
    assert sorted(p.name for p in without_rounds.iterdir() if p.name != ".lock") == [
        "games", "manifest.json", "players"]                    # .lock: the writers' lock


def test_a_missing_run_is_one_line_exit_2(tmp_path):
    code, _, stderr = export_main(tmp_path / "nowhere", "--out", tmp_path / "out")
    assert code == 2 and stderr.count("\n") == 1
    assert "is not a run directory (no manifest.json)" in stderr
    assert not (tmp_path / "out").exists()


def test_a_table_longer_than_a_worksheet_is_refused_before_writing(run, tmp_path,
                                                                   monkeypatch):
    monkeypatch.setattr(export_cli, "XLSX_ROWS", 10)
    book = tmp_path / "big.xlsx"
    code, _, stderr = export_main(run, "--format", "xlsx", "--table", "games", "--out", book)
    assert code == 2 and "more than a worksheet holds (10); export it as csv" in stderr
    assert not book.exists() and list(tmp_path.iterdir()) == []


def test_list_columns_become_text_and_others_are_untouched():
    table = pd.DataFrame({"winner_seats": [np.array([0, 2]), np.array([1])],
                          "names": ["a", "b"], "score": [1.5, 2.0]})
    shown = export_cli.readable(table)
    assert list(shown["winner_seats"]) == ["0, 2", "1"]
    assert list(shown["names"]) == ["a", "b"]
    assert shown["score"].dtype == np.float64
    assert isinstance(table.loc[0, "winner_seats"], np.ndarray)      # the input is kept
