"""The batch runner (``python -m sim.batch``): seating, determinism across --jobs /
--chunk-size / --backend, kernel vs Python path, failing chunks, bad input, --list/--help and
the printed summary.

Resumption is in test_batch_resume.py, the run directory and its tables in test_results.py,
replays in test_replay.py.
"""

from __future__ import annotations

import dataclasses
import math
import re
import threading
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
import engines
from sim import results
from sim.analysis import ratings
from sim.batch.seating import SEATINGS
from sim.batch.seating import seating as seats_for
from sim.batch.spec import RunSpec, default_chunk_size
from sim.batch.summary import format_summary
from sim.batch.tables import play_chunk, uses_kernel
from sim.kernels import kernel_for
from sim.runner import play_python
from tests.sim.test_batch_support import (
    KEYS,
    assert_tables_equal,
    batch_main,
    chunk_frames,
    json_summary,
    load_sorted,
    make_spec,
    part_files,
    reference_tables,
    run_batch,
)


def spec_for(players: int = 4, seating: str = "rotate", seed: int = 0, games: int = 100,
             *extra: object) -> RunSpec:
    return make_spec("paris-damis", "--players", players, "--seating", seating, "--seed", seed,
                     "--games", games, "--jobs", 1, *extra)


# --------------------------------------------------------------------------------------
# Seating
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_rotate_puts_agent_i_at_seat_i_plus_game_index(players):
    start, count = 37, 29
    seats = seats_for(spec_for(players, "rotate"), start, count)
    assert seats.shape == (count, players)
    for row, game in enumerate(range(start, start + count)):
        for agent in range(players):
            assert seats[row, (agent + game) % players] == agent


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fixed_puts_agent_i_at_seat_i(players):
    seats = seats_for(spec_for(players, "fixed"), 13, 20)
    assert seats.shape == (20, players)
    assert (seats == np.arange(players)).all()


_RANDOM_BASE = spec_for(4, "random")


@settings(max_examples=60)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**40),
       cuts=st.lists(st.integers(1, 99), max_size=8))
def test_random_seating_depends_only_on_seed_and_game_index(players, seed, cuts):
    spec = dataclasses.replace(_RANDOM_BASE, agents=("random",) * players, seed=seed)
    whole = seats_for(spec, 0, 100)
    assert whole.shape == (100, players)
    assert (np.sort(whole, axis=1) == np.arange(players)).all(), "each row is a permutation"
    edges = [0, *sorted(set(cuts)), 100]
    parts = [seats_for(spec, a, b - a) for a, b in zip(edges, edges[1:], strict=False)]
    np.testing.assert_array_equal(np.concatenate(parts), whole)
    for game in (0, 15, 16, 17, 63, 99):
        np.testing.assert_array_equal(seats_for(spec, game, 1)[0], whole[game])
    # neither the run's size nor its chunking matter
    other = dataclasses.replace(spec, games=10_000, chunk_size=7)
    np.testing.assert_array_equal(seats_for(other, 0, 100), whole)


def test_random_seating_differs_between_games_and_seeds():
    spec = dataclasses.replace(_RANDOM_BASE, seed=3)
    seats = seats_for(spec, 0, 96)
    distinct = {tuple(row) for row in seats}
    assert len(distinct) >= 12, f"only {len(distinct)} seatings in 96 games"
    blocks = seats.reshape(6, 16, 4)
    for i in range(6):
        for j in range(i + 1, 6):
            assert not (blocks[i] == blocks[j]).all(), f"blocks {i} and {j} repeat"
    for agent in range(4):      # every agent sits at every seat at some point
        assert set(np.nonzero(seats == agent)[1]) == {0, 1, 2, 3}
    other = seats_for(dataclasses.replace(spec, seed=4), 0, 96)
    assert not (other == seats).all()


# --------------------------------------------------------------------------------------
# play_chunk: game i depends only on (seed, i)
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("seating", SEATINGS)
def test_chunk_split_does_not_change_the_tables(seating):
    spec = spec_for(3, seating, 21, 60, "--variant", "jokers=1")
    whole = reference_tables(spec)
    parts = [play_chunk(spec, start, count) for start, count in [(50, 10), (0, 7), (7, 43)]]
    assert_tables_equal(chunk_frames(parts), whole)
    singles = [play_chunk(spec, g, 1) for g in (0, 16, 59)]
    expected = {name: frame[frame.game_id.isin([0, 16, 59])].reset_index(drop=True)
                for name, frame in whole.items()}
    assert_tables_equal(chunk_frames(singles), expected)
    bigger = dataclasses.replace(spec, games=5_000, chunk_size=11)
    assert_tables_equal(chunk_frames([play_chunk(bigger, 0, 60)]), whole)


def test_the_seed_changes_the_games():
    one = reference_tables(spec_for(4, "rotate", 1, 20))
    two = reference_tables(spec_for(4, "rotate", 2, 20))
    assert (one["games"].seed == 1).all() and (two["games"].seed == 2).all()
    assert not one["rounds"].drop(columns="game_id").equals(two["rounds"].drop(columns="game_id"))


# --------------------------------------------------------------------------------------
# Kernel path and Python path
# --------------------------------------------------------------------------------------
PATH_CONFIGS = {
    "2p": (2, []),
    "3p": (3, []),
    "4p": (4, []),
    "3p-jokers=1": (3, ["jokers=1"]),
    "4p-discard=all": (4, ["discard=all"]),
    "2p-tiebreak-jokers-nobody-ties": (2, ["jokers=2", "joker_rule=tiebreak",
                                          "column_tie=nobody", "empty_column=discard"]),
    "3p-four-bets-total-no-mulligan": (3, ["bet_options=four", "scoring=total",
                                          "mulligan=false", "discard=half-up"]),
    "4p-order-table-short": (4, ["correct_bet_cards=1,2,3,4", "correct_bet_by=order",
                                 "rounds=3", "column_tie=last-placed", "first_player=2"]),
}


@pytest.mark.parametrize("seating", SEATINGS)
@pytest.mark.parametrize("config", PATH_CONFIGS)
def test_kernel_and_python_paths_give_identical_tables(monkeypatch, config, seating):
    players, variants = PATH_CONFIGS[config]
    extra = [a for v in variants for a in ("--variant", v)]
    spec = spec_for(players, seating, 99, 200, *extra)
    assert uses_kernel(spec)
    start, count = 29, 24           # crosses a 16-game seating block
    kernel = kernel_for(spec.game)
    kernel_calls = []
    real_play = type(kernel).play          # a Kernel is frozen: count on its class

    def counting_play(self, game, seat_policies, seed, first, n, **kw):
        kernel_calls.append((first, n))
        return real_play(self, game, seat_policies, seed, first, n, **kw)

    monkeypatch.setattr(type(kernel), "play", counting_play)
    compiled = play_chunk(spec, start, count)
    assert kernel_calls == [(start, count)]

    python_calls = []
    real_python = play_python

    def counting_python(game, bots, seed, index):
        python_calls.append(index)
        return real_python(game, bots, seed, index)

    monkeypatch.setattr("sim.batch.tables.uses_kernel", lambda spec: False)
    monkeypatch.setattr("sim.batch.tables.play_python", counting_python)
    python = play_chunk(spec, start, count)
    assert python_calls == list(range(start, start + count))
    assert kernel_calls == [(start, count)], "the Python path must not use the kernel"

    assert sorted(compiled) == sorted(python) == sorted(KEYS)
    for name in KEYS:
        assert compiled[name].schema == python[name].schema, name
        pd.testing.assert_frame_equal(compiled[name].to_pandas(), python[name].to_pandas(),
                                      obj=f"{config} {seating} {name}")
    assert compiled["games"].column("game_id").to_pylist() == list(range(start, start + count))


# --------------------------------------------------------------------------------------
# Agents and seats in the tables and the summary
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("seating", SEATINGS)
def test_agent_columns_and_summary_follow_the_seating(tmp_path, monkeypatch, seating):
    # a second agent name (the random bot under another name) makes the seating visible;
    # it has no compiled twin, so the run takes the Python path, in this process
    monkeypatch.setitem(agents._AGENTS, "twin", ("agents.random_agent:RandomAgent", None))
    names = ["twin", "random", "twin"]
    run = tmp_path / "run"
    code, out, err = batch_main("paris-damis", "--games", 48, "--players", 3, "--agents",
                                ",".join(names), "--seating", seating, "--seed", 5,
                                "--chunk-size", 10, "--jobs", 1, "--backend", "threads",
                                "--out", run, "--format", "json", "--no-progress")
    assert code == 0, err
    manifest = results.read_manifest(run)
    assert manifest["kernel"] is False
    assert manifest["spec"]["agents"] == names
    spec = RunSpec.from_json(manifest["spec"])
    tables = load_sorted(run)
    players = tables["players"]
    index = players.agent_index.to_numpy().reshape(48, 3)
    np.testing.assert_array_equal(index, seats_for(spec, 0, 48))
    assert (players.agent == np.array(names)[players.agent_index]).all()
    for game, row in enumerate(index):
        if seating == "rotate":
            for agent in range(3):
                assert row[(agent + game) % 3] == agent
        elif seating == "fixed":
            assert list(row) == [0, 1, 2]
        else:
            assert sorted(row) == [0, 1, 2]

    summary = json_summary(out)
    by_agent = summary["win_share_by_agent"]
    assert set(by_agent) == {"twin", "random"}
    assert by_agent["twin"]["n"] == 96 and by_agent["random"]["n"] == 48
    for name, share in by_agent.items():
        mean = players.loc[players.agent == name, "win_share"].astype(float).mean()
        assert share["p"] == pytest.approx(mean, abs=1e-6)
    assert sum(s["p"] * s["n"] for s in by_agent.values()) == pytest.approx(48, abs=1e-4)

    # the name is bookkeeping only: the same games as all-random agents in the kernel
    plain = reference_tables(dataclasses.replace(spec, agents=("random",) * 3))
    assert uses_kernel(dataclasses.replace(spec, agents=("random",) * 3))
    tables["players"] = players.drop(columns="agent")
    plain["players"] = plain["players"].drop(columns="agent")
    assert_tables_equal(tables, plain)


# --------------------------------------------------------------------------------------
# Determinism through the command line: --jobs, --chunk-size, --backend
# --------------------------------------------------------------------------------------
DEFAULT_RUN = ["paris-damis", "--games", 120, "--seed", 7]
VARIANT_RUN = ["paris-damis", "--games", 90, "--seed", 12, "--players", 3, "--variant",
               "jokers=1", "--seating", "random"]


@pytest.fixture(scope="module")
def default_reference():
    return reference_tables(make_spec(*DEFAULT_RUN, "--jobs", 1))


@pytest.fixture(scope="module")
def variant_reference():
    return reference_tables(make_spec(*VARIANT_RUN, "--jobs", 1))


@pytest.mark.parametrize("options,chunks", [
    (["--jobs", 1], 1),                                                  # default chunk size
    (["--jobs", 2, "--chunk-size", 7, "--backend", "loky"], 18),
    (["--jobs", 2, "--chunk-size", 50, "--backend", "threads"], 3),
    (["--jobs", 2, "--chunk-size", 30, "--backend", "dask"], 4),         # a LocalCluster
], ids=["jobs1-default-chunks", "jobs2-chunk7-loky", "jobs2-chunk50-threads",
        "jobs2-chunk30-dask"])
@pytest.mark.slow
def test_tables_are_the_same_whatever_jobs_chunks_and_backend(tmp_path, default_reference,
                                                              options, chunks):
    run = tmp_path / "run"
    proc = run_batch(*DEFAULT_RUN, *options, "--out", run, "--no-progress", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert_tables_equal(load_sorted(run), default_reference)
    assert len(part_files(run)) == chunks
    manifest = results.read_manifest(run)
    assert manifest["status"] == "complete"
    assert manifest["jobs"] == options[1]
    assert "seat 3" in proc.stdout and "bet accuracy" in proc.stdout


@pytest.mark.parametrize("options", [
    ["--jobs", 1, "--chunk-size", 16],
    ["--jobs", 2, "--chunk-size", 9, "--backend", "loky"],
], ids=["jobs1-chunk16", "jobs2-chunk9-loky"])
@pytest.mark.slow
def test_random_seating_variant_is_the_same_whatever_jobs_and_chunks(tmp_path,
                                                                     variant_reference,
                                                                     options):
    run = tmp_path / "run"
    proc = run_batch(*VARIANT_RUN, *options, "--out", run, "--no-progress", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert_tables_equal(load_sorted(run), variant_reference)


# --------------------------------------------------------------------------------------
# A chunk that raises
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_chunk_stops_the_run_and_keeps_finished_chunks(tmp_path, monkeypatch, jobs):
    real = play_chunk

    def failing(spec, start, count):
        if start == 40:
            raise RuntimeError("boom in the rules")
        return real(spec, start, count)

    monkeypatch.setattr("sim.batch.backends.play_chunk", failing)
    run = tmp_path / "run"
    args = ["paris-damis", "--games", 100, "--chunk-size", 10, "--seed", 3]
    threads_before = set(threading.enumerate())
    code, out, err = batch_main(*args, "--jobs", jobs, "--backend", "threads", "--out", run,
                                "--no-progress")
    # with 2 threads, a chunk already running may still be writing when main returns
    deadline = time.monotonic() + 60
    while set(threading.enumerate()) - threads_before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert code != 0
    assert code != 2, "a failing chunk is not a usage error"
    message = err.replace(str(run), "RUN")
    assert "boom in the rules" in message
    assert re.search(r"\b40\b", message), message          # the chunk's game index
    assert re.search(r"seed\D{0,3}3\b", message), message     # and the seed
    assert "--resume" in message

    done = results.done_chunks(run)         # the chunks the manifest records
    assert 40 not in done
    if jobs == 1:
        assert done == {0, 10, 20, 30}
    else:   # chunks a worker wrote but the run did not record are played again on resume;
        # on a loaded machine chunk 40 can fail before any earlier chunk is recorded
        assert done <= set(range(0, 100, 10))
    assert results.read_manifest(run)["status"] == "running"
    kept = results.load(run)
    finished = {g for s in done for g in range(s, s + 10)}
    assert set(kept["games"].game_id) == finished
    if jobs == 1:
        assert set(kept["players"].game_id) == set(kept["rounds"].game_id) == finished
    else:   # a chunk interrupted between its files has players/rounds but no games part
        assert set(kept["players"].game_id) >= finished
        assert set(kept["rounds"].game_id) >= finished

    monkeypatch.setattr("sim.batch.backends.play_chunk", real)
    code, out, err = batch_main("--resume", run, "--jobs", 1, "--no-progress")
    assert code == 0, err
    assert results.read_manifest(run)["status"] == "complete"
    assert_tables_equal(load_sorted(run), reference_tables(make_spec(*args, "--jobs", 1)))


def test_a_failing_game_is_named_by_its_own_index(tmp_path, monkeypatch):
    real = play_python

    def failing(game, bots, seed, index):
        if index == 45:
            raise RuntimeError("boom")
        return real(game, bots, seed, index)

    monkeypatch.setattr("sim.batch.tables.uses_kernel", lambda spec: False)
    monkeypatch.setattr("sim.batch.tables.play_python", failing)
    run = tmp_path / "run"
    code, out, err = batch_main("paris-damis", "--games", 60, "--chunk-size", 10, "--seed", 3,
                                "--jobs", 1, "--backend", "threads", "--out", run,
                                "--no-progress")
    assert code not in (0, 2)
    assert re.search(r"(game|index)\D{0,3}45\b", err.replace(str(run), "RUN")), err


# --------------------------------------------------------------------------------------
# Bad input: exit status 2, one line on stderr naming the valid choices, no run directory
# --------------------------------------------------------------------------------------
BAD_INPUT = {
    "unknown-game": (["nosuchgame"], ["nosuchgame", "paris-damis"]),
    "no-game": ([], ["paris-damis"]),
    "unknown-agent": (["paris-damis", "--agents", "wizard"], ["wizard", "random"]),
    "unknown-variant-key": (["paris-damis", "--variant", "colour=red"],
                            ["colour", "jokers", "discard", "scoring"]),
    "variant-without-value": (["paris-damis", "--variant", "jokers"], ["jokers", "discard"]),
    "bad-variant-value-range": (["paris-damis", "--variant", "jokers=9"], ["jokers", "0..2"]),
    "bad-variant-value-choice": (["paris-damis", "--variant", "discard=sideways"],
                                 ["sideways", "half-down", "half-up", "none", "all"]),
    "games-0": (["paris-damis", "--games", 0], ["--games", "1"]),
    "players-5": (["paris-damis", "--players", 5], ["players", "2..4"]),
    "3-agents-for-4-players": (["paris-damis", "--agents", "random,random,random"],
                               ["--agents", "4"]),
    "bad-seating": (["paris-damis", "--seating", "circle"], ["rotate", "fixed", "random"]),
    "bad-backend": (["paris-damis", "--backend", "spark"], ["loky", "dask"]),
    "jobs-0": (["paris-damis", "--jobs", 0], ["--jobs", "1"]),
    "negative-seed": (["paris-damis", "--seed", -1], ["--seed"]),
}


def assert_usage_error(result, words, tmp_path, before):
    """``result``: (exit status, stdout, stderr) of the command, in process or not."""
    code, out, err = result
    assert code == 2, (code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert "Traceback" not in err
    assert out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == before, "a run directory was created"


@pytest.mark.parametrize("case", BAD_INPUT)
def test_bad_input_is_one_line_and_exit_status_2(tmp_path, monkeypatch, case):
    monkeypatch.chdir(tmp_path)         # nothing may be written where the command runs either
    args, words = BAD_INPUT[case]
    assert_usage_error(batch_main(*args, "--out", tmp_path / "run", "--no-progress"), words,
                       tmp_path, [])


def test_the_command_exits_2_on_bad_input(tmp_path):
    # the tests around run main() in process; this one runs the command itself
    (tmp_path / "file").write_text("not a directory\n")
    out = tmp_path / "file" / "run"
    proc = run_batch("paris-damis", "--games", 5, "--out", out, "--no-progress", cwd=tmp_path)
    assert_usage_error((proc.returncode, proc.stdout, proc.stderr), [str(out)], tmp_path,
                       ["file"])
    assert (tmp_path / "file").read_text() == "not a directory\n"


def test_out_in_proc_is_refused(tmp_path):
    out = "/proc/tapis-vert-no-such-dir/run"
    result = batch_main("paris-damis", "--games", 5, "--out", out, "--no-progress")
    assert_usage_error(result, [out], tmp_path, [])


def test_out_that_exists_and_is_not_empty_is_refused(tmp_path):
    out = tmp_path / "full"
    out.mkdir()
    (out / "keep.txt").write_text("mine\n")
    result = batch_main("paris-damis", "--games", 5, "--out", out, "--no-progress")
    assert_usage_error(result, [str(out)], tmp_path, ["full"])
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]


def test_out_that_exists_and_is_empty_is_used(tmp_path):
    out = tmp_path / "empty"
    out.mkdir()
    code, _, err = batch_main("paris-damis", "--games", 5, "--jobs", 1, "--out", out,
                              "--no-progress")
    assert code == 0, err
    assert results.read_manifest(out)["status"] == "complete"


def test_out_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "file").write_text("not a directory\n")
    result = batch_main("paris-damis", "--games", 5, "--out", tmp_path / "file", "--no-progress")
    assert_usage_error(result, [str(tmp_path / "file")], tmp_path, ["file"])


def test_chunk_size_0_is_refused(tmp_path):
    result = batch_main("paris-damis", "--games", 20, "--chunk-size", 0, "--out",
                        tmp_path / "run", "--no-progress")
    assert_usage_error(result, ["--chunk-size", "1"], tmp_path, [])


def test_list_shows_games_agents_and_variant_keys_with_defaults(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = batch_main("--list")
    assert code == 0, err
    for slug in engines.available():
        assert slug in out
        assert f"rules: docs/rules/{slug}.md" in out               # the [A1] references' page
        for item in engines.params_class(slug)().to_strings():      # key=default
            assert item in out, item
        for name in agents.available(slug):
            assert name in out
    assert "jokers=0" in out and "discard=half-down" in out
    # a kernel shared by the tarots lists, for each, that game's compiled agents only
    kernels = dict(re.findall(r"\n  (\S+)  \(.*?kernel: ([^\n]*)", out, re.S))
    assert kernels["tarot"] == "flatmc, ismcts, prudent, random"
    assert kernels["tarot-tare"] == "ducker, flatmc, ismcts, random"
    assert list(tmp_path.iterdir()) == []


def test_help_exits_0(tmp_path):
    proc = run_batch("--help", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "usage" in proc.stdout.lower()
    for option in ("--games", "--jobs", "--chunk-size", "--backend", "--resume", "--seating"):
        assert option in proc.stdout
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------------------
# The summary
# --------------------------------------------------------------------------------------
Z95 = 1.959963984540054


def wilson(successes: int, n: int) -> tuple[float, float]:
    p = successes / n
    denominator = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denominator
    return centre - half, centre + half


@pytest.fixture(scope="module")
def json_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("summary") / "run"
    code, out, err = batch_main("paris-damis", "--games", 150, "--seed", 2, "--chunk-size", 40,
                                "--jobs", 1, "--out", run, "--format", "json", "--no-progress")
    assert code == 0, err
    return run, json_summary(out), results.load(run)


def check_share(share, n):
    assert share["n"] == n
    assert 0 <= share["low"] <= share["p"] <= share["high"] <= 1, share


def test_json_summary_win_shares(json_run):
    run, summary, tables = json_run
    players = tables["players"]
    assert summary["game"] == "paris-damis" and summary["games"] == 150
    assert summary["players"] == 4
    assert summary["run_dir"] == str(run)
    by_seat = summary["win_share_by_seat"]
    assert sorted(by_seat) == ["0", "1", "2", "3"]
    for seat, share in by_seat.items():
        check_share(share, 150)
        mean = players.loc[players.seat == int(seat), "win_share"].astype(float).mean()
        assert share["p"] == pytest.approx(mean, abs=1e-6)
    assert sum(s["p"] for s in by_seat.values()) == pytest.approx(1.0)
    assert list(summary["win_share_by_agent"]) == ["random"]
    share = summary["win_share_by_agent"]["random"]
    check_share(share, 600)
    assert share["p"] == pytest.approx(0.25)


def test_json_summary_bet_accuracy(json_run):
    _, summary, tables = json_run
    rounds = tables["rounds"]
    accuracy = summary["bet_accuracy"]
    check_share(accuracy, len(rounds))
    correct = int(rounds.bet_correct.sum())
    assert accuracy["p"] == pytest.approx(correct / len(rounds))
    low, high = wilson(correct, len(rounds))
    assert (accuracy["low"], accuracy["high"]) == pytest.approx((low, high), rel=1e-9)
    by_value = summary["bet_accuracy_by_value"]
    counts = rounds.groupby("bet").bet_correct.agg(["sum", "count"])
    assert sorted(by_value, key=int) == [str(v) for v in counts.index]
    for value, share in by_value.items():
        hits, n = counts.loc[int(value)]
        check_share(share, int(n))
        assert share["p"] == pytest.approx(hits / n)
        assert (share["low"], share["high"]) == pytest.approx(wilson(int(hits), int(n)),
                                                              rel=1e-9)


def test_json_summary_distributions_and_speed(json_run):
    run, summary, tables = json_run
    games = tables["games"]
    for name in ("decisions", "rounds"):
        values = games[name].to_numpy()
        assert summary[name]["mean"] == pytest.approx(values.mean())
        assert summary[name]["median"] == pytest.approx(np.median(values))
        assert summary[name]["p95"] == pytest.approx(np.percentile(values, 95))
    assert summary["games_per_second"] > 0 and math.isfinite(summary["games_per_second"])
    assert summary["games_per_second"] == pytest.approx(150 / summary["wall_seconds"])
    manifest = results.read_manifest(run)
    assert manifest["games_per_second"] == pytest.approx(summary["games_per_second"])


def test_json_summary_finishes_ahead_counts_every_meeting_of_two_agents(tmp_path):
    """Each two different agents' record, the first in the run's order: the share of the
    pairs of their seats in one game where the first ranked better (a tie ½), as
    sim.analysis.ratings counts it from the players table, over several chunks; none in a
    run of one agent."""
    run = tmp_path / "run"
    code, out, err = batch_main("paris-damis", "--games", 90, "--seed", 3, "--chunk-size", 40,
                                "--agents", "greedy,random,cautious,greedy", "--jobs", 1,
                                "--out", run, "--format", "json", "--no-progress")
    assert code == 0, err
    summary = json_summary(out)
    players = results.load(run)["players"].assign(match=0)
    record = ratings.head_to_head(ratings.pairwise(players)).set_index(["agent", "opponent"])
    ahead = summary["finishes_ahead"]
    assert {(a, b) for a, held in ahead.items() for b in held} == {
        ("greedy", "random"), ("greedy", "cautious"), ("random", "cautious")}
    for agent, held in ahead.items():
        for opponent, share in held.items():
            expected = record.loc[(agent, opponent)]
            check_share(share, int(expected["n"]))
            assert share["p"] == pytest.approx(expected["share"])
            assert (share["low"], share["high"]) == pytest.approx(
                (expected["low"], expected["high"]))
    # two greedy seats and one of each other agent in every game
    assert ahead["greedy"]["random"]["n"] == 2 * 90 and ahead["random"]["cautious"]["n"] == 90


def test_table_summary_prints_each_meeting_record(json_run):
    summary = dict(json_run[1], finishes_ahead={
        "greedy": {"random": {"n": 180, "p": 0.75, "low": 0.68, "high": 0.81}}})
    text = format_summary(summary)
    assert "finishes ahead (in the games where both sat; a tie counts 1/2)" in text
    assert re.search(r"greedy ahead of random +75\.0% +\[ *68\.0%, +81\.0%\] +n=180", text)


def test_json_summary_has_no_meetings_with_one_agent(json_run):
    assert json_run[1]["finishes_ahead"] == {}


def test_table_summary_mentions_seats_agents_and_bet_accuracy(tmp_path):
    run = tmp_path / "run"
    code, out, err = batch_main("paris-damis", "--games", 30, "--players", 3, "--seed", 4,
                                "--jobs", 1, "--out", run, "--no-progress")
    assert code == 0, err
    for text in ("seat 0", "seat 1", "seat 2", "win share by seat", "win share by agent",
                 "random", "bet accuracy", "bet 1", "bet 3", "games/s", str(run)):
        assert text in out, text
    assert "seat 3" not in out and "finishes ahead" not in out      # one agent: no meetings
    assert err == ""


def test_default_chunks_spread_slow_python_agents_over_every_worker():
    # the kernel: at least 500 games a chunk, at most 20,000; the Python API: 1 to 500
    assert default_chunk_size(200, 2) == 500
    assert default_chunk_size(10_000_000, 2) == 20_000
    assert default_chunk_size(200, 2, compiled=False) == 13
    assert default_chunk_size(5, 2, compiled=False) == 1
    assert default_chunk_size(1_000_000, 2, compiled=False) == 500
