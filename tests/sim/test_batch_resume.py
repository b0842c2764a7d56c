"""``python -m sim.batch --resume DIR``: an interrupted run (killed, or with chunks missing)
resumes to exactly the tables of an uninterrupted run; a resume with other parameters, or of
something that is not a run directory, is refused with exit status 2."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from sim import results
from tests.sim.test_batch_support import (
    assert_tables_equal,
    batch_main,
    env,
    json_summary,
    load_sorted,
    part_files,
    run_batch,
)

TIMING_KEYS = ("wall_seconds", "games_per_second", "games_played", "run_dir")


def without_timing(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


@pytest.mark.slow
def test_resume_after_sigkill_gives_the_uninterrupted_tables(tmp_path):
    args = ["paris-damis", "--games", 300, "--chunk-size", 2, "--seed", 4, "--jobs", 1]
    run = tmp_path / "killed"
    with open(tmp_path / "stderr.txt", "w") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "sim.batch", *map(str, args), "--out", str(run),
             "--no-progress"], cwd=tmp_path, env=env(), stdout=subprocess.DEVNULL,
            stderr=stderr)
        try:
            deadline = time.monotonic() + 300
            while recorded(run) < 6 and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.005)
            os.kill(proc.pid, signal.SIGKILL)
        finally:
            proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, (
        f"the run ended ({proc.returncode}) before it could be killed: "
        f"{(tmp_path / 'stderr.txt').read_text()}")
    done_before = results.done_chunks(run)          # the chunks the manifest records
    assert 6 <= len(done_before) < 150
    assert results.read_manifest(run)["status"] == "running"
    kept = {p: p.stat().st_mtime_ns for t in ("games", "players", "rounds")
            for p in part_files(run, t) if int(p.name[5:17]) in done_before}

    resumed = run_batch("--resume", run, "--no-progress", "--format", "json", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert results.read_manifest(run)["status"] == "complete"
    assert results.done_chunks(run) == set(range(0, 300, 2))
    for path, mtime in kept.items():      # finished chunks are not played again
        assert path.stat().st_mtime_ns == mtime, path

    reference = tmp_path / "uninterrupted"
    code, out, err = batch_main(*args, "--out", reference, "--no-progress", "--format", "json")
    assert code == 0, err
    assert_tables_equal(load_sorted(run), load_sorted(reference))
    assert without_timing(json_summary(resumed.stdout)) == without_timing(json_summary(out))
    assert list(run.rglob("*.tmp")) == []


def recorded(run) -> int:
    """The chunks the manifest of ``run`` records (0 before it is written)."""
    try:
        return len(results.read_manifest(run)["chunks"])
    except ValueError:
        return 0


@pytest.fixture(scope="module")
def complete_run(tmp_path_factory):
    """A finished run of 100 games in chunks of 10, and its JSON summary."""
    path = tmp_path_factory.mktemp("resume") / "run"
    code, out, err = batch_main("paris-damis", "--games", 100, "--chunk-size", 10, "--seed", 6,
                                "--variant", "jokers=1", "--jobs", 1, "--out", path,
                                "--format", "json", "--no-progress")
    assert code == 0, err
    return path, json_summary(out)


def interrupt(complete_run, tmp_path):
    """A copy of the complete run as a crash would leave it: chunks 70-99 missing, chunk 60
    cut off between its files (players written, rounds half written, no games file), and a
    stray temporary file."""
    source, _ = complete_run
    run = tmp_path / "run"
    shutil.copytree(source, run)
    for start in (70, 80, 90):
        for table in ("games", "players", "rounds"):
            (run / table / results.part_name(start)).unlink()
    (run / "games" / results.part_name(60)).unlink()
    (run / "rounds" / (results.part_name(60) + ".tmp")).write_bytes(b"PAR1 half a file")
    (run / "rounds" / results.part_name(60)).unlink()
    manifest = results.read_manifest(run)
    chunks = {k: v for k, v in manifest["chunks"].items() if int(k) < 60}
    results.write_manifest(run, manifest | {"status": "running", "finished": None,
                                            "chunks": chunks})
    assert results.done_chunks(run) == {0, 10, 20, 30, 40, 50}
    return run


def test_resume_plays_only_the_missing_chunks(complete_run, tmp_path):
    source, summary = complete_run
    run = interrupt(complete_run, tmp_path)
    kept = {p: (p.stat().st_mtime_ns, p.stat().st_ino) for t in ("games", "players", "rounds")
            for p in part_files(run, t) if int(p.name[5:17]) < 60}
    code, out, err = batch_main("--resume", run, "--jobs", 2, "--no-progress", "--format",
                                "json")
    assert code == 0, err
    for path, stamp in kept.items():
        assert (path.stat().st_mtime_ns, path.stat().st_ino) == stamp, path
    assert results.done_chunks(run) == set(range(0, 100, 10))
    assert_tables_equal(load_sorted(run), load_sorted(source))
    assert without_timing(json_summary(out)) == without_timing(summary)
    manifest = results.read_manifest(run)
    original = results.read_manifest(source)
    assert manifest["status"] == "complete"
    assert manifest["spec"] == original["spec"]
    assert manifest["started"] == original["started"]
    assert manifest["finished"] >= original["finished"]


def test_games_per_second_of_a_resume_counts_the_games_it_played(complete_run, tmp_path):
    run = interrupt(complete_run, tmp_path)
    code, out, err = batch_main("--resume", run, "--jobs", 1, "--no-progress", "--format",
                                "json")
    assert code == 0, err
    manifest = results.read_manifest(run)
    played = 40                               # chunks 60..90
    assert manifest["games_per_second"] * manifest["wall_seconds"] == pytest.approx(played)


def test_resuming_a_complete_run_changes_nothing(complete_run, tmp_path):
    source, summary = complete_run
    run = tmp_path / "run"
    shutil.copytree(source, run)
    stamps = {p: p.stat().st_mtime_ns for p in run.rglob("part-*.parquet")}
    code, out, err = batch_main("--resume", run, "--jobs", 1, "--no-progress", "--format",
                                "json")
    assert code == 0, err
    assert {p: p.stat().st_mtime_ns for p in run.rglob("part-*.parquet")} == stamps
    assert without_timing(json_summary(out)) == without_timing(summary)
    assert results.read_manifest(run)["status"] == "complete"


# --------------------------------------------------------------------------------------
# Refusals
# --------------------------------------------------------------------------------------
REFUSED = {
    "other-games": ["--games", 200],
    "other-seed": ["--seed", 7],
    "other-variant": ["--variant", "jokers=2"],
    "variant-reset-to-default": ["--variant", "jokers=0"],
    "other-players": ["--players", 3],
    "other-seating": ["--seating", "random"],
    "other-chunk-size": ["--chunk-size", 25],
    "other-game": ["nosuchgame"],
    "an-out": ["--out", "elsewhere"],
}


def snapshot(run):
    return {p.relative_to(run).as_posix(): p.read_bytes() for p in sorted(run.rglob("*"))
            if p.is_file()}


@pytest.mark.parametrize("case", REFUSED)
def test_resume_with_other_parameters_is_refused(complete_run, tmp_path, monkeypatch, case):
    run = interrupt(complete_run, tmp_path)
    monkeypatch.chdir(tmp_path)
    before = snapshot(run)
    code, out, err = batch_main("--resume", run, *REFUSED[case], "--jobs", 1, "--no-progress")
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert "--resume" in err and out == ""
    assert snapshot(run) == before, "a refused resume must not touch the run"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


def test_resume_with_other_seed_is_refused_from_the_command_line(complete_run, tmp_path):
    run = interrupt(complete_run, tmp_path)
    proc = run_batch("--resume", run, "--seed", 7, "--no-progress", cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "seed" in proc.stderr
    assert results.done_chunks(run) == {0, 10, 20, 30, 40, 50}


@pytest.mark.slow
@pytest.mark.parametrize("what", ["missing", "empty-directory", "a-file", "bad-manifest"])
def test_resume_of_something_that_is_not_a_run_is_refused(tmp_path, what):
    target = tmp_path / "target"
    if what == "empty-directory":
        target.mkdir()
    elif what == "a-file":
        target.write_text("hello\n")
    elif what == "bad-manifest":
        target.mkdir()
        (target / "manifest.json").write_text("{not json")
    proc = run_batch("--resume", target, "--no-progress", cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and str(target) in lines[0], proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ([] if what == "missing"
                                                         else ["target"])


def test_resume_with_the_same_games_and_seed_is_accepted(complete_run, tmp_path):
    source, _ = complete_run
    run = interrupt(complete_run, tmp_path)
    code, _, err = batch_main("--resume", run, "--games", 100, "--seed", 6, "--chunk-size", 10,
                              "--jobs", 1, "--no-progress")
    assert code == 0, err
    assert_tables_equal(load_sorted(run), load_sorted(source))


@pytest.mark.parametrize("same", [["--variant", "jokers=1"], ["--players", 4],
                                  ["--agents", "random"]], ids=["variant", "players", "agents"])
def test_resume_with_the_runs_own_parameters_is_accepted(complete_run, tmp_path, same):
    source, _ = complete_run
    run = interrupt(complete_run, tmp_path)
    code, _, err = batch_main("--resume", run, *same, "--jobs", 1, "--no-progress")
    assert code == 0, err
    assert_tables_equal(load_sorted(run), load_sorted(source))


def test_manifest_is_plain_json(complete_run):
    source, _ = complete_run
    data = json.loads((source / "manifest.json").read_text())
    assert data["status"] == "complete" and data["spec"]["params"]["jokers"] == "1"
