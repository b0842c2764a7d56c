"""Run directories (``sim.results``): manifest, documented table columns and types,
consistency of the three tables with each other and with the rules, ``sim.load``, and the
atomic chunk writes."""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import re
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
import sim
from engines.core.cards import SUIT_NAMES
from sim import results
from sim.batch.backends import BACKENDS
from sim.batch.spec import RunSpec
from sim.batch.tables import arrow_array, numpy_column, play_chunk, text_array
from sim.manifest import ManifestError
from tests.sim.test_batch_support import (
    ROOT,
    batch_main,
    json_summary,
    make_spec,
    part_files,
    run_batch,
)

# --------------------------------------------------------------------------------------
# Runs under test: the command line with defaults, and two variants (in process)
# --------------------------------------------------------------------------------------
RUNS = {
    "default": ["paris-damis", "--games", 200, "--seed", 13, "--chunk-size", 64, "--jobs", 2],
    "3p-jokers-total-random-seats": [
        "paris-damis", "--games", 90, "--seed", 8, "--players", 3, "--variant", "jokers=1",
        "--variant", "scoring=total", "--variant", "mulligan=false", "--seating", "random",
        "--chunk-size", 25, "--jobs", 1],
    "2p-discard-all-four-bets-fixed": [
        "paris-damis", "--games", 60, "--seed", 21, "--players", 2, "--variant", "discard=all",
        "--variant", "bet_options=four", "--variant", "rounds=5", "--variant",
        "initial_hand=6", "--seating", "fixed", "--chunk-size", 60, "--jobs", 1],
}


class Run:
    def __init__(self, name: str, path: Path, args: list, summary: dict, before: float,
                 after: float) -> None:
        self.name, self.path, self.args, self.summary = name, path, args, summary
        self.before, self.after = before, after
        self.manifest = results.read_manifest(path)
        self.spec = make_spec(*args)
        self.params = self.spec.params
        self.tables = results.load(path)


@pytest.fixture(scope="module", params=list(RUNS))
def run(request, tmp_path_factory):
    name = request.param
    args = RUNS[name]
    path = tmp_path_factory.mktemp(name) / "run"
    before = time.time()
    if name == "default":       # through the command line, as a user runs it
        proc = run_batch(*args, "--out", path, "--format", "json", "--no-progress",
                         cwd=path.parent)
        assert proc.returncode == 0, proc.stderr
        out = proc.stdout
    else:
        code, out, err = batch_main(*args, "--out", path, "--format", "json", "--no-progress")
        assert code == 0, err
    return Run(name, path, args, json_summary(out), before, time.time())


# --------------------------------------------------------------------------------------
# manifest.json
# --------------------------------------------------------------------------------------
@pytest.mark.slow
def test_manifest_records_the_run(run):
    m = run.manifest
    spec = m["spec"]
    assert spec["game"] == "paris-damis"
    # every parameter, defaults included
    expected = dict(item.split("=", 1) for item in run.params.to_strings())
    assert spec["params"] == expected
    assert set(spec["params"]) == set(engines.params_class("paris-damis").keys())
    assert spec["agents"] == ["random"] * run.params.players
    assert spec["seating"] == run.spec.seating
    assert spec["seed"] == run.spec.seed
    assert spec["games"] == run.spec.games
    assert spec["chunk_size"] == run.spec.chunk_size
    assert RunSpec.from_json(spec) == run.spec
    assert m["status"] == "complete"
    assert m["version"] == metadata.version("tapis-vert")
    if (ROOT / ".git").exists():
        assert re.fullmatch(r"[0-9a-f]{40}", m["git_revision"] or ""), m["git_revision"]
    started = dt.datetime.fromisoformat(m["started"])
    finished = dt.datetime.fromisoformat(m["finished"])
    assert started.utcoffset() == dt.timedelta(0) == finished.utcoffset()
    assert math.floor(run.before) - 1 <= started.timestamp() <= finished.timestamp() \
        <= run.after + 1
    assert m["games_per_second"] > 0 and math.isfinite(m["games_per_second"])
    assert m["games_per_second"] == pytest.approx(run.spec.games / m["wall_seconds"])
    assert m["games_per_second"] == pytest.approx(run.summary["games_per_second"])
    assert m["kernel"] is True
    assert m["backend"] in BACKENDS
    assert m["jobs"] == run.args[run.args.index("--jobs") + 1]


def test_manifest_defaults_for_a_bare_command_line(tmp_path):
    code, _, err = batch_main("paris-damis", "--games", 3, "--out", tmp_path / "run",
                              "--no-progress")
    assert code == 0, err
    spec = results.read_manifest(tmp_path / "run")["spec"]
    defaults = engines.params_class("paris-damis")()
    assert spec["params"] == dict(i.split("=", 1) for i in defaults.to_strings())
    assert spec["params"]["players"] == "4" and spec["params"]["jokers"] == "0"
    assert spec["agents"] == ["random"] * 4
    assert spec["seating"] == "rotate" and spec["seed"] == 0 and spec["games"] == 3


# --------------------------------------------------------------------------------------
# Documented columns and types (docs/results.md)
# --------------------------------------------------------------------------------------
LIST_INT8 = pa.list_(pa.int8())
CATEGORY = pa.dictionary(pa.int8(), pa.string())      # text stored as codes (pandas category)
SCHEMAS = {
    "games": {"game_id": pa.int64(), "seed": pa.int64(), "n_players": pa.int8(),
              "decisions": pa.int32(), "rounds": pa.int16(), "winner_seats": LIST_INT8,
              "shared_win": pa.bool_(), "decided_by_bet_tiebreak": pa.bool_()},
    "players": {"game_id": pa.int64(), "seat": pa.int8(), "agent": CATEGORY,
                "agent_index": pa.int8(), "score": pa.float32(), "rank": pa.int8(),
                "win_share": pa.float32(), **{f"points_{s}": pa.int8() for s in SUIT_NAMES},
                "total_points": pa.int16(), "correct_bets": pa.int16(),
                "cards_placed": pa.int16(), "exchanges": pa.int16(), "decisions": pa.int32()},
    "rounds": {"game_id": pa.int64(), "round": pa.int16(), "trump": CATEGORY,
               "seat": pa.int16(), "bet": pa.int16(), "bet_position": pa.int16(),
               "bet_correct": pa.bool_(), "k": pa.int16(), "cards_placed": pa.int16(),
               "hand_start": pa.int16(), "hand_end": pa.int16(), "exchanged": pa.bool_(),
               "points_cards_won": pa.int16(), "cards_short": pa.int16(),
               "score": pa.int16()},
}


@pytest.mark.parametrize("table", list(SCHEMAS))
def test_tables_have_the_documented_columns_and_types(run, table):
    files = part_files(run.path, table)
    assert [f.name for f in files] == [results.part_name(s) for s, _ in run.spec.chunks()]
    for f in files:
        schema = pq.read_schema(f)
        got = {name: schema.field(name).type for name in schema.names}
        assert set(got) == set(SCHEMAS[table]), sorted(set(got) ^ set(SCHEMAS[table]))
        for name, kind in SCHEMAS[table].items():
            assert got[name] in (kind, pa.large_string() if kind == pa.string() else kind), name
    assert list(run.tables[table].columns) == pq.read_schema(files[0]).names


COLUMN_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.float32, np.float64,
                np.bool_]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(COLUMN_TYPES), st.integers(0, 40), st.integers(1, 3),
       st.randoms(use_true_random=False))
def test_columns_are_the_arrays_pyarrow_would_make(kind, size, step, random):
    values = np.array([random.randint(-100, 100) for _ in range(size)]).astype(kind)[::step]
    assert arrow_array(values).equals(pa.array(values))
    texts = [random.choice(["", "all_cards", "cycle", "é"]) for _ in range(size)]
    assert arrow_array(np.array(texts, dtype=str)).equals(pa.array(np.array(texts, dtype=str)))
    assert text_array(texts).equals(pa.array(texts, type=pa.string()))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(COLUMN_TYPES), st.integers(0, 40), st.integers(0, 5), st.integers(1, 3),
       st.randoms(use_true_random=False))
def test_numeric_columns_read_back_as_the_arrays_they_were_made_of(kind, size, cut, pieces,
                                                                   random):
    values = np.array([random.randint(-100, 100) for _ in range(size)]).astype(kind)
    column = arrow_array(values)
    assert np.array_equal(numpy_column(pa.table({"c": column}), "c"), values)
    assert numpy_column(pa.table({"c": column}), "c").dtype == values.dtype
    sliced = column.slice(min(cut, size))                       # an offset into its buffers
    assert np.array_equal(numpy_column(pa.table({"c": sliced}), "c"), values[min(cut, size):])
    bounds = sorted(random.randint(0, size) for _ in range(pieces - 1))
    chunks = [column.slice(a, b - a) for a, b in zip([0] + bounds, bounds + [size], strict=True)]
    chunked = pa.table({"c": pa.chunked_array(chunks, type=column.type)})
    assert np.array_equal(numpy_column(chunked, "c"), values)


def test_a_chunk_is_played_written_and_summed_up_without_pandas(tmp_path):
    # pyarrow's generic conversions, to_numpy included, import pandas: 0.3 CPU s more in
    # every batch process
    code = ("import sys\n"
            "from pathlib import Path\n"
            "import engines\n"
            "from sim import results\n"
            "from sim.batch.backends import run_chunk\n"
            "from sim.batch.spec import RunSpec\n"
            "for game in ('paris-damis', 'bataille'):\n"
            "    rules = engines.load(game)\n"
            "    spec = RunSpec(game, rules.params, ('random',) * rules.num_players,\n"
            "                   'rotate', 1, 20, 20)\n"
            f"    out = Path({str(tmp_path)!r}) / game; out.mkdir()\n"
            "    figures, _ = run_chunk(spec, str(out), 0, 20)\n"
            "    assert abs(sum(figures.seat_wins) - 20) < 1e-9 and len(figures.decisions) == 20\n"
            "assert 'pandas' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "bataille" / "games" / results.part_name(0)).exists()


def test_pyarrow_registers_its_compute_functions_before_any_chunk_is_written():
    # registering them (at pyarrow.compute's first import) while another thread writes
    # Parquet can fail that write ("No function registered with name: take") or abort
    code = ("import sys\n"
            "import sim.results\n"
            "assert 'pyarrow.compute' in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


def test_no_stray_files_in_a_complete_run(run):
    names = sorted(p.relative_to(run.path).as_posix() for p in run.path.rglob("*"))
    chunks = [results.part_name(s) for s, _ in run.spec.chunks()]
    expected = [".lock", "games", "manifest.json", "players", "rounds"]
    expected += [f"{t}/{c}" for t in ("games", "players", "rounds") for c in chunks]
    assert names == sorted(expected)


# --------------------------------------------------------------------------------------
# Contents
# --------------------------------------------------------------------------------------
def test_games_table(run):
    games = run.tables["games"]
    n, k = run.spec.games, run.params.players
    assert sorted(games.game_id) == list(range(n))
    assert (games.seed == run.spec.seed).all()
    assert (games.n_players == k).all()
    assert games.rounds.between(1, run.params.rounds).all()
    assert (games.decisions > 0).all()
    for seats in games.winner_seats:
        seats = list(seats)
        assert seats == sorted(set(seats)) and len(seats) >= 1
        assert all(0 <= s < k for s in seats)
    assert (games.shared_win == (games.winner_seats.map(len) > 1)).all()


def test_players_table(run):
    players, games = run.tables["players"], run.tables["games"]
    k = run.params.players
    assert len(players) == run.spec.games * k
    seats = players.sort_values(["game_id", "seat"]).groupby("game_id").seat.apply(list)
    assert (seats.map(lambda s: s == list(range(k)))).all()
    assert players["rank"].between(1, k).all()
    # win shares: sum to 1 per game; 1/w for each of w winners, 0 otherwise
    sums = players.groupby("game_id").win_share.sum()
    np.testing.assert_allclose(sums.to_numpy(), 1.0, rtol=0, atol=1e-6)
    winners = players[players["rank"] == 1].groupby("game_id").seat.apply(sorted)
    w = players.game_id.map(winners.map(len))
    expected_share = np.where(players["rank"] == 1, 1.0 / w, 0.0)
    np.testing.assert_allclose(players.win_share, expected_share, atol=1e-6)
    by_game = games.set_index("game_id")
    for game_id, seats_won in winners.items():
        assert list(by_game.winner_seats[game_id]) == [int(s) for s in seats_won]
    # points and score
    suits = players[[f"points_{s}" for s in SUIT_NAMES]].to_numpy(dtype=np.int64)
    assert (suits >= 0).all()
    assert (players.total_points == suits.sum(axis=1)).all()
    if run.params.scoring == "total":
        assert (players.score == suits.sum(axis=1)).all()
    else:
        assert (players.score == suits.min(axis=1)).all()
    # rank 1 has the best score (ties are broken by the rules, never against the score)
    best = players.groupby("game_id").score.transform("max")
    assert (players.loc[players["rank"] == 1, "score"] == best[players["rank"] == 1]).all()
    names = np.array(run.spec.agents)
    assert (players.agent == names[players.agent_index]).all()
    if run.spec.seating == "fixed":
        assert (players.agent_index == players.seat).all()
    if not run.params.mulligan:
        assert (players.exchanges == 0).all()


def test_rounds_table(run):
    rounds, games = run.tables["rounds"], run.tables["games"]
    k, params = run.params.players, run.params
    per_round = rounds.groupby(["game_id", "round"])
    assert (per_round.seat.apply(sorted).map(lambda s: s == list(range(k)))).all()
    # rounds are numbered 1.. in every game, as many as the games table says
    numbers = rounds.groupby("game_id")["round"].apply(lambda r: sorted(set(r)))
    counts = games.set_index("game_id").rounds
    for game_id, seen in numbers.items():
        assert seen == list(range(1, counts[game_id] + 1))
    assert sorted(numbers.index) == sorted(games.game_id)
    # trump cycles hearts, diamonds, spades, clubs
    expected_trump = np.array(SUIT_NAMES, dtype=object)[(rounds["round"] - 1) % 4]
    assert (rounds.trump.astype(str).to_numpy() == expected_trump).all()
    top_bet = 4 if params.bet_options == "four" else k
    assert rounds.bet.between(1, top_bet).all()
    assert (per_round.bet_position.apply(sorted).map(lambda p: p == list(range(k)))).all()
    assert (rounds.bet_correct == (rounds.bet == rounds.k)).all()
    won_any = (rounds.points_cards_won > 0).groupby([rounds.game_id, rounds["round"]]).sum()
    assert (won_any == per_round.k.first()).all(), "k = seats that won a points card"
    assert (per_round.k.nunique() == 1).all()
    assert rounds.cards_placed.between(0, params.markers).all()
    assert (rounds.hand_end >= 0).all() and (rounds.points_cards_won >= 0).all()
    first = rounds[rounds["round"] == 1]
    assert not first.exchanged.any()
    assert (first.cards_short == 0).all() and (rounds.cards_short >= 0).all()
    assert (rounds.cards_short <= max(params.correct_bet_cards + (params.wrong_bet_cards,))).all()
    assert (first.hand_start == params.initial_hand).all()
    assert (first.hand_end == first.hand_start - first.cards_placed).all()
    if not params.mulligan:
        assert not rounds.exchanged.any()


def test_tables_agree_with_each_other(run):
    games, players, rounds = (run.tables[t] for t in ("games", "players", "rounds"))
    totals = rounds.groupby(["game_id", "seat"]).agg(
        correct=("bet_correct", "sum"), placed=("cards_placed", "sum"),
        exchanged=("exchanged", "sum")).reset_index()
    totals["seat"] = totals.seat.astype(np.int8)
    merged = players.merge(totals, on=["game_id", "seat"], how="left", validate="1:1")
    assert (merged.correct_bets == merged.correct).all()
    assert (merged.cards_placed == merged.placed).all()
    assert (merged.exchanges == merged.exchanged).all()
    decisions = players.groupby("game_id").decisions.sum()
    assert (games.set_index("game_id").decisions == decisions).all()
    assert set(rounds.game_id) == set(players.game_id) == set(games.game_id)


# --------------------------------------------------------------------------------------
# sim.load
# --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    path = tmp_path_factory.mktemp("load") / "run"
    code, _, err = batch_main("paris-damis", "--games", 50, "--seed", 1, "--chunk-size", 20,
                              "--jobs", 1, "--out", path, "--no-progress")
    assert code == 0, err
    return path


def test_load_returns_every_table_as_dataframes(small_run):
    tables = results.load(small_run)
    assert sorted(tables) == ["games", "players", "rounds"]
    assert all(isinstance(t, pd.DataFrame) for t in tables.values())
    assert len(tables["games"]) == 50 and len(tables["players"]) == 200
    assert list(tables["games"].game_id) == list(range(50)), "chunks in game order"
    assert sim.load is results.load
    same = sim.load(str(small_run))
    for name, frame in tables.items():
        pd.testing.assert_frame_equal(same[name], frame)


def test_load_reads_one_table_or_some_columns(small_run):
    players = results.load(small_run, "players")
    assert isinstance(players, pd.DataFrame) and len(players) == 200
    some = results.load(small_run, "players", columns=["seat", "win_share"])
    assert list(some.columns) == ["seat", "win_share"]
    pd.testing.assert_frame_equal(some, players[["seat", "win_share"]])
    two = results.load(small_run, ["games", "rounds"], columns=["game_id", "bet"])
    assert sorted(two) == ["games", "rounds"]
    assert list(two["games"].columns) == ["game_id"]
    assert list(two["rounds"].columns) == ["game_id", "bet"]
    # every table is also a plain Parquet dataset
    assert pq.read_table(small_run / "players").num_rows == 200


def test_load_errors_name_the_problem(small_run, tmp_path):
    with pytest.raises(ValueError, match="games, players, rounds"):
        results.load(small_run, "hands")
    with pytest.raises(ManifestError, match="not a run directory"):
        results.load(tmp_path)
    with pytest.raises(ManifestError, match="no such run directory"):
        results.load(tmp_path / "missing")


def test_load_skips_chunks_that_are_not_recorded(small_run, tmp_path):
    import shutil
    copy = tmp_path / "run"
    shutil.copytree(small_run, copy)
    (copy / "games" / results.part_name(20)).unlink()   # killed between a chunk's files
    manifest = results.read_manifest(copy)              # ... before it was recorded
    del manifest["chunks"]["20"]
    results.write_manifest(copy, manifest | {"status": "running"})
    assert results.done_chunks(copy) == {0, 40}
    tables = results.load(copy)
    assert set(tables["games"].game_id) == set(range(20)) | set(range(40, 50))
    assert set(tables["players"].game_id) == set(tables["games"].game_id)
    assert set(tables["rounds"].game_id) == set(tables["games"].game_id)


# --------------------------------------------------------------------------------------
# write_chunk: atomic files, games last
# --------------------------------------------------------------------------------------
def test_write_chunk_writes_games_last_and_a_failed_write_leaves_no_done_chunk(
        tmp_path, monkeypatch):
    spec = make_spec("paris-damis", "--games", 10, "--jobs", 1)
    tables = play_chunk(spec, 0, 10)
    renamed = []
    real_replace = results.os.replace

    def recording_replace(src, dst):
        renamed.append(Path(dst).parent.name)
        assert Path(src).name.endswith(".tmp")
        return real_replace(src, dst)

    monkeypatch.setattr(results.os, "replace", recording_replace)
    record = results.write_chunk(tmp_path, 0, tables)
    assert renamed[-1] == "games" and sorted(renamed) == ["games", "players", "rounds"]
    assert record["games"] == 10 and sorted(record["files"]) == ["games", "players", "rounds"]
    for name, entry in record["files"].items():
        path = tmp_path / name / results.part_name(0)
        assert entry == {"rows": tables[name].num_rows, "bytes": path.stat().st_size,
                         "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    assert list(tmp_path.rglob("*.tmp")) == []

    real_write = results.pq.write_table

    def failing_write(table, where, *a, **kw):
        if Path(where).parent.name == "rounds":
            raise OSError("disk full")
        return real_write(table, where, *a, **kw)

    monkeypatch.setattr(results.pq, "write_table", failing_write)
    with pytest.raises(OSError, match="disk full"):
        results.write_chunk(tmp_path, 10, tables)
    assert not (tmp_path / "games" / results.part_name(10)).exists()
