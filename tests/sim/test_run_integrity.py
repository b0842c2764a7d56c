"""Runs that cannot be corrupted: one writer per run directory (real processes racing), every
chunk checked against the manifest's record (``sim.load``, ``sim.report``, ``sim.compare``,
``sim.replay``, ``--resume``, which plays damaged chunks again), the manifest read through its
schema, runs written before checksums, and ``sim.load``'s column and row filters."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pyarrow.compute as pc
import pytest

import sim.compare
import sim.report
from sim import results, runlock
from sim.batch.cli import main
from sim.manifest import ManifestError
from sim.results import DamagedRun
from tests.sim.test_batch_support import (
    assert_tables_equal,
    batch_main,
    call_main,
    env,
    load_sorted,
    replay_main,
)

ARGS = ["paris-damis", "--games", 120, "--chunk-size", 30, "--seed", 3, "--jobs", 1,
        "--variant", "rounds=4", "--no-progress"]


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory):
    """A complete run of 120 games in chunks of 30."""
    path = tmp_path_factory.mktemp("clean") / "run"
    code, _, err = batch_main(*ARGS, "--out", path)
    assert code == 0, err
    return path


def copy_of(run: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    return copy


def part(run: Path, table: str, start: int) -> Path:
    return run / table / results.part_name(start)


def flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def alter_record(run: Path, table: str, start: int) -> None:
    manifest = results.read_manifest(run)
    entry = manifest["chunks"][str(start)]["files"][table]
    entry["sha256"] = ("0" if entry["sha256"][0] != "0" else "1") + entry["sha256"][1:]
    results.write_manifest(run, manifest)


# damage -> (table damaged, what is done to chunk 30's file, what the message says)
DAMAGES: dict[str, tuple[str, Callable[[Path, Path], None], str]] = {
    "missing": ("players", lambda run, f: f.unlink(), "is missing"),
    "truncated": ("rounds", lambda run, f: f.write_bytes(f.read_bytes()[:len(f.read_bytes())
                                                                          // 2]),
                  "is truncated"),
    "emptied": ("games", lambda run, f: f.write_bytes(b""), "is truncated"),
    "byte-flipped": ("games", lambda run, f: flip_a_byte(f), "checksum differs"),
    "another-chunk's-file": ("players", lambda run, f: f.write_bytes(
        part(run, "players", 60).read_bytes()), "is (altered|truncated) "),
    "record-altered": ("rounds", lambda run, f: alter_record(run, "rounds", 30),
                       "checksum differs"),
}


def damaged(clean_run: Path, tmp_path: Path, damage: str) -> tuple[Path, str]:
    """A copy of the clean run with chunk 30 damaged; the damaged table."""
    run = copy_of(clean_run, tmp_path)
    table, do, _ = DAMAGES[damage]
    do(run, part(run, table, 30))
    return run, table


# --------------------------------------------------------------------------------------
# Damaged chunks are named, and played again by --resume
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("damage", DAMAGES)
def test_load_names_the_damaged_chunk_and_reads_what_is_intact(clean_run, tmp_path, damage):
    run, table = damaged(clean_run, tmp_path, damage)
    with pytest.raises(DamagedRun) as raised:
        results.load(run)
    message = str(raised.value)
    assert "\n" not in message and "games 30..59" in message, message
    assert f"{table}/{results.part_name(30)}" in message
    assert re.search(DAMAGES[damage][2], message), message
    assert "--resume" in message
    # the other tables, and the other chunks of the damaged one, are still read (checked)
    other = next(t for t in ("games", "players", "rounds") if t != table)
    assert len(results.load(run, other)) == len(results.load(clean_run, other))
    assert set(results.load(run, table, games=range(60, 120)).game_id) == set(range(60, 120))


@pytest.mark.parametrize("command", ["report", "compare", "replay"])
def test_commands_refuse_a_damaged_run_in_one_line(clean_run, tmp_path, command):
    run, _ = damaged(clean_run, tmp_path, "truncated")
    before = sorted(p.relative_to(run) for p in run.rglob("*"))
    mains = {"report": (sim.report.main, [run]),
             "compare": (sim.compare.main, [clean_run, run, "--out", tmp_path / "cmp"]),
             "replay": (sim.replay.main, [run, "--game", 31])}
    function, argv = mains[command]
    code, out, err = call_main(function, *argv)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "games 30..59" in err, err
    assert f"rounds/{results.part_name(30)}" in err
    assert sorted(p.relative_to(run) for p in run.rglob("*")) == before
    assert not (tmp_path / "cmp").exists()


def test_replay_of_a_game_in_an_intact_chunk_of_a_damaged_run_works(clean_run, tmp_path):
    run, _ = damaged(clean_run, tmp_path, "truncated")
    code, out, err = replay_main(run, "--game", 75)
    assert code == 0, err
    assert out.startswith("paris-damis, seed 3, game 75:")


@pytest.mark.parametrize("damage", DAMAGES)
def test_resume_plays_damaged_chunks_again_to_the_uninterrupted_tables(clean_run, tmp_path,
                                                                       damage):
    run, _ = damaged(clean_run, tmp_path, damage)
    intact = {p: p.stat().st_mtime_ns for p in run.rglob("part-*.parquet")
              if results.part_name(30) not in p.name}
    code, _, err = batch_main("--resume", run, "--jobs", 1, "--no-progress")
    assert code == 0, err
    assert "games 30..59" in err and "played again" in err, err
    assert_tables_equal(load_sorted(run), load_sorted(clean_run))
    for path, stamp in intact.items():       # intact chunks are not played again
        assert path.stat().st_mtime_ns == stamp, path
    manifest, clean = results.read_manifest(run), results.read_manifest(clean_run)
    assert manifest["status"] == "complete"
    assert manifest["chunks"] == clean["chunks"], "the records are the files' own again"


def test_a_complete_run_missing_a_record_is_refused_then_resumed(clean_run, tmp_path):
    run = copy_of(clean_run, tmp_path)
    manifest = results.read_manifest(run)
    del manifest["chunks"]["60"]
    results.write_manifest(run, manifest)
    with pytest.raises(DamagedRun, match=r"games 60\.\.89 has no record"):
        results.load(run)
    code, _, err = batch_main("--resume", run, "--jobs", 1, "--no-progress")
    assert code == 0, err
    assert_tables_equal(load_sorted(run), load_sorted(clean_run))
    assert results.read_manifest(run)["chunks"] == results.read_manifest(clean_run)["chunks"]


# --------------------------------------------------------------------------------------
# The manifest's schema
# --------------------------------------------------------------------------------------
def set_in(path: str, value: object) -> Callable[[dict], object]:
    def change(m: dict) -> dict:
        *parents, last = path.split(".")
        target = m
        for key in parents:
            target = target[key]
        if value is DELETE:
            del target[last]
        else:
            target[last] = value
        return m
    return change


DELETE = object()
BAD_MANIFESTS = {
    "a-list": (lambda m: [m], "must be a JSON object, got a list"),
    "seed-as-text": (set_in("spec.seed", "3"), "spec.seed: Input should be a valid integer"),
    "negative-seed": (set_in("spec.seed", -1), "spec.seed: Input should be greater than"),
    "games-missing": (set_in("spec.games", DELETE), "spec.games: missing"),
    "spec-a-list": (set_in("spec", []), "spec: Input should be"),
    "unknown-game": (set_in("spec.game", "no-such-game"),
                     "spec.game: unknown game 'no-such-game'; games: "),
    "unknown-agent": (set_in("spec.agents", ["robot"] * 4), "unknown agent 'robot'"),
    "bad-rule-value": (set_in("spec.params.jokers", "9"), "jokers"),
    "bad-status": (set_in("status", "done"), "status: Input should be 'running' or "
                                             "'complete'"),
    "rows-as-text": (set_in("chunks.0.files.games.rows", "30"), "chunks.0.files.games.rows"),
    "not-a-chunk-start": (lambda m: m["chunks"].update({"7": m["chunks"]["0"]}) or m,
                          "chunks.7: not the first game of a chunk"),
    "chunks-missing": (set_in("chunks", DELETE), "chunks: required from format 2 on"),
}


def broken(clean_run: Path, tmp_path: Path, case: str) -> Path:
    run = copy_of(clean_run, tmp_path)
    data = json.loads((run / results.MANIFEST).read_text())
    (run / results.MANIFEST).write_text(json.dumps(BAD_MANIFESTS[case][0](data)))
    return run


@pytest.mark.parametrize("case", BAD_MANIFESTS)
def test_a_manifest_that_does_not_fit_is_one_line_naming_the_field(clean_run, tmp_path, case):
    run = broken(clean_run, tmp_path, case)
    expected = BAD_MANIFESTS[case][1]
    with pytest.raises(ManifestError) as raised:
        results.load(run)
    assert expected in str(raised.value) and "\n" not in str(raised.value)
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    for function, argv in [(main, ["--resume", run, "--no-progress"]),
                           (sim.report.main, [run]), (sim.replay.main, [run, "--game", 1])]:
        code, out, err = call_main(function, *argv)
        assert code == 2 and out == "", (function, err)
        assert len(err.strip().splitlines()) == 1 and expected in err, err
        assert "Traceback" not in err
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before


def test_a_manifest_that_is_not_json_says_so(clean_run, tmp_path):
    run = copy_of(clean_run, tmp_path)
    (run / results.MANIFEST).write_text("{oops")
    code, _, err = batch_main("--resume", run, "--no-progress")
    assert code == 2 and "not valid JSON" in err and len(err.strip().splitlines()) == 1


def test_replay_of_a_missing_directory_says_it_is_missing(tmp_path):
    code, _, err = replay_main(tmp_path / "no-such-run", "--game", 0)
    assert code == 2 and "no-such-run' is neither a game" in err, err
    assert "nor a directory (no such file or directory)" in err, err


# --------------------------------------------------------------------------------------
# Runs written before checksums (format 1): read unverified, resumed by playing again
# --------------------------------------------------------------------------------------
def as_format_1(run: Path, status: str) -> None:
    data = json.loads((run / results.MANIFEST).read_text())
    del data["format"], data["chunks"]
    (run / results.MANIFEST).write_text(json.dumps(data | {"status": status}))


def test_a_run_written_before_checksums_still_loads(clean_run, tmp_path):
    run = copy_of(clean_run, tmp_path)
    as_format_1(run, "complete")
    assert_tables_equal(load_sorted(run), load_sorted(clean_run))
    stamps = {p: p.stat().st_mtime_ns for p in run.rglob("part-*.parquet")}
    code, _, err = batch_main("--resume", run, "--jobs", 1, "--no-progress")
    assert code == 0, err
    assert {p: p.stat().st_mtime_ns for p in run.rglob("part-*.parquet")} == stamps


def test_an_unfinished_run_written_before_checksums_is_played_again(clean_run, tmp_path):
    run = copy_of(clean_run, tmp_path)
    as_format_1(run, "running")
    code, _, err = batch_main("--resume", run, "--jobs", 1, "--no-progress")
    assert code == 0, err
    assert "written before checksums" in err
    assert_tables_equal(load_sorted(run), load_sorted(clean_run))
    assert results.read_manifest(run)["chunks"] == results.read_manifest(clean_run)["chunks"]


# --------------------------------------------------------------------------------------
# sim.load: what it refuses, and column and row filters
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, error, message", [
    ({"tables": "hands"}, ValueError, "unknown table 'hands'; tables: games, players, rounds"),
    ({"tables": "rounds", "columns": "bet"}, TypeError, "columns takes a list of column "
                                                        "names, got 'bet'"),
    ({"tables": "rounds", "columns": ["bet", "no_such"]}, ValueError,
     "unknown column 'no_such' in rounds; columns: "),
    ({"tables": "games", "seats": [0]}, ValueError, "games have no seat column"),
    ({"tables": "players", "games": (5, "9")}, TypeError, "games takes range"),
    ({"tables": "rounds", "games": range(0, 10, 2)}, TypeError, "games takes range"),
    ({"tables": "games", "where": "bet > 2"}, TypeError, "where takes a pyarrow expression"),
    ({"tables": "games", "where": pc.field("bet") > 2}, ValueError, "row filter does not fit"),
])
def test_load_refuses_what_it_cannot_honour(clean_run, kwargs, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        results.load(clean_run, **kwargs)


def test_load_reads_only_the_rows_asked(clean_run, tmp_path):
    whole = results.load(clean_run)
    run = copy_of(clean_run, tmp_path)
    part(run, "rounds", 0).write_bytes(b"")          # damaged chunk 0, not read below
    rounds = results.load(run, "rounds", games=range(35, 70))
    expected = whole["rounds"][whole["rounds"].game_id.between(35, 69)]
    pd.testing.assert_frame_equal(rounds, expected.reset_index(drop=True))
    seated = results.load(run, ["players", "rounds"], seats=[1, 3], games=(30, 120),
                          where=pc.field("score") >= 2)
    for name, frame in seated.items():
        table = whole[name]
        keep = table.seat.isin([1, 3]) & (table.game_id >= 30) & (table.score >= 2)
        assert 0 < keep.sum() < len(table)
        pd.testing.assert_frame_equal(frame, table[keep].reset_index(drop=True), obj=name)
    bets = results.load(clean_run, "rounds", columns=["game_id", "bet"],
                        where=pc.field("bet") >= 3)
    table = whole["rounds"]
    pd.testing.assert_frame_equal(bets, table.loc[table.bet >= 3, ["game_id", "bet"]]
                                  .reset_index(drop=True))


# --------------------------------------------------------------------------------------
# One writer per run directory
# --------------------------------------------------------------------------------------
def test_a_second_writer_in_the_same_process_is_refused(tmp_path):
    with runlock.writing(tmp_path) as owner:
        with pytest.raises(runlock.RunInUse, match="in use by another process"):
            with runlock.writing(tmp_path):
                pass
        runlock.claim(owner)
        assert runlock.still_owner(owner)
        # a worker in another process sees the lock held and its token in place
        assert runlock.still_owner(runlock.Owner(owner.run_dir, owner.token, pid=-1))
    assert not runlock.still_owner(runlock.Owner(owner.run_dir, owner.token, pid=-1))
    with runlock.writing(tmp_path) as second:
        runlock.claim(second)
        assert not runlock.still_owner(runlock.Owner(owner.run_dir, owner.token, pid=-1))


def test_report_and_decisions_into_a_run_in_use_are_refused(clean_run, tmp_path):
    run = copy_of(clean_run, tmp_path)
    with runlock.writing(run):
        code, _, err = call_main(sim.report.main, run)
        assert code == 2 and "in use" in err and len(err.strip().splitlines()) == 1, err
        from sim.decisions import main as decisions_main
        code, _, err = call_main(decisions_main, run, "--games", 1, "--tries", 4,
                                 "--jobs", 1, "--no-progress")
        assert code == 2 and "in use" in err, err
    assert not (run / "report").exists() and not (run / results.DECISIONS).exists()


def forked_batch(argv: list, output: Path, start_at: float) -> int:
    """A real second process (forked from this one, so it starts at once) running
    ``sim.batch ARGV`` from ``start_at`` on; its stdout and stderr go to ``output``."""
    pid = os.fork()
    if pid:
        return pid
    code = 99
    try:
        fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        sys.stdout = open(1, "w", closefd=False)     # noqa: SIM115
        sys.stderr = open(2, "w", closefd=False)     # noqa: SIM115
        while time.time() < start_at:
            pass
        code = main([str(a) for a in argv])
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


RACE = ["paris-damis", "--games", 1000, "--chunk-size", 50, "--seed", 9, "--jobs", 1,
        "--variant", "rounds=2", "--no-progress", "--format", "json"]


@pytest.mark.slow
def test_two_processes_racing_for_one_run_directory(tmp_path):
    reference = tmp_path / "reference"
    code, _, err = batch_main(*RACE, "--out", reference)
    assert code == 0, err
    expected = load_sorted(reference)
    in_use = 0
    for attempt in range(6):
        run = tmp_path / f"race-{attempt}"
        start_at = time.time() + 0.3
        if attempt % 2 == 0:       # two new runs into one directory at the same instant
            pids = [forked_batch([*RACE, "--out", run], tmp_path / f"{attempt}-{i}.txt",
                                 start_at) for i in range(2)]
        else:                      # a resume of a run that is being played (in chunks
            # of 5 games, so that it is still being played when the resume starts: the
            # tables do not depend on the chunking)
            pids = [forked_batch([*RACE, "--chunk-size", 5, "--out", run],
                                 tmp_path / f"{attempt}-0.txt", start_at)]
            while not (run / results.MANIFEST).exists():
                time.sleep(0.001)
            pids.append(forked_batch(["--resume", run, "--no-progress"],
                                     tmp_path / f"{attempt}-1.txt", 0))
        codes = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids]
        outputs = [(tmp_path / f"{attempt}-{i}.txt").read_text() for i in range(2)]
        assert sorted(codes) == [0, 2], (codes, outputs)
        refused = outputs[codes.index(2)]
        assert len(refused.strip().splitlines()) == 1, refused
        assert "in use by another process" in refused or "not empty" in refused, refused
        in_use += "in use" in refused
        assert results.read_manifest(run)["status"] == "complete"
        assert_tables_equal(load_sorted(run), expected)
        assert list(run.rglob("*.tmp")) == []
    assert in_use >= 3, "the races should mostly meet a run in progress"


# --------------------------------------------------------------------------------------
# Workers never outlive their run
# --------------------------------------------------------------------------------------
def chunk_files(run: Path) -> dict[str, int]:
    return {p.relative_to(run).as_posix(): p.stat().st_mtime_ns
            for p in run.rglob("part-*") if p.is_file()}


def loky_workers(parent: int) -> list[int]:
    """The loky worker processes whose parent is ``parent`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == parent and b"LokyProcess" in command:
            found.append(int(stat.parent.name))
    return found


def test_an_idle_worker_process_ends_with_the_process_that_started_it(tmp_path):
    # a loky worker waiting for its next chunk when its run is killed: without the watch it
    # would wait for loky's idle timeout (minutes)
    worker = ("import time\nfrom sim.batch.backends import exit_with_parent\n"
              "exit_with_parent()\nprint('watching', flush=True)\ntime.sleep(60)\n")
    parent = ("import subprocess, sys, time\n"
              f"w = subprocess.Popen([sys.executable, '-c', {worker!r}], "
              "stdout=subprocess.PIPE, text=True)\n"
              "print(w.pid, w.stdout.readline().strip(), flush=True)\ntime.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-c", parent], cwd=tmp_path, env=env(),
                            stdout=subprocess.PIPE, text=True)
    pid, state = proc.stdout.readline().split()
    assert state == "watching"
    proc.kill()
    proc.wait(timeout=10)

    def alive() -> bool:
        stat = Path(f"/proc/{pid}/stat")
        return stat.exists() and "Z" not in stat.read_text().rsplit(")", 1)[1].split()[:1]
    deadline = time.monotonic() + 10
    while alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(), "the worker outlived the process that started it"


@pytest.fixture
def scheduler():
    """A Dask cluster of two worker processes that outlives the batch runs using it (as a
    cluster on other machines does): its scheduler's address."""
    from distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        yield cluster.scheduler_address


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["loky", "dask"])
def test_workers_write_no_chunk_once_their_run_is_killed(tmp_path, backend, request):
    run = tmp_path / "run"
    argv = ["paris-damis", "--games", 60_000, "--chunk-size", 6_000, "--jobs", 2,
            "--backend", backend, "--out", run, "--no-progress"]
    if backend == "dask":
        argv += ["--scheduler", request.getfixturevalue("scheduler")]
    with open(tmp_path / "stderr.txt", "w") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "sim.batch", *map(str, argv)],
                                cwd=tmp_path, env=env(), stdout=subprocess.DEVNULL,
                                stderr=stderr)
        try:
            deadline = time.monotonic() + 120
            while not chunk_files(run) and proc.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.2)                 # the workers are playing their next chunks
            workers = loky_workers(proc.pid)
            os.kill(proc.pid, signal.SIGKILL)
        finally:
            proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, (tmp_path / "stderr.txt").read_text()
    time.sleep(0.5)                         # a write begun before the kill may end
    killed = chunk_files(run)
    assert 0 < len(killed) < 3 * 10, killed
    time.sleep(8)                           # a chunk takes a second or two to play
    assert chunk_files(run) == killed, "a worker wrote a chunk after its run was killed"
    if backend == "loky":
        assert len(workers) == 2

        def alive() -> list[int]:
            return [pid for pid in workers if Path(f"/proc/{pid}").exists()
                    and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]]
        deadline = time.monotonic() + 30    # a worker ends at its next check: slower when the
        while alive() and time.monotonic() < deadline:     # suite loads both cores
            time.sleep(0.1)
        assert not alive(), "the run's loky workers outlived it"
