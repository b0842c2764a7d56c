"""``python -m sim.replay``: a replayed game is the very game the run's tables record (its
final ranking, statistics and round-by-round bets), from a run directory or from a seed."""

from __future__ import annotations

import re

import pytest

from engines.core.cards import SUIT_NAMES
from sim import results
from tests.sim.test_batch_support import batch_main, replay_main, run_replay

RANK_LINE = re.compile(r"^\s+rank (\d+)\s+seat (\d+) \((\S+)\)\s+score (\S+)\s+win share (\S+)"
                       r"(?:\s+suits ([\d ]+))?$")
STATS_LINE = re.compile(r"^\s+decisions (\d+), rounds (\d+)")
ROUND_END = re.compile(r"^round (\d+) ends; .*; k = (\d+): (.*)$")
BET = re.compile(r"P(\d+) ([✓✗]) bet (\d+)")


def parse(log: str) -> dict:
    """The final ranking, stats and settled rounds a replay prints."""
    lines = log.splitlines()
    assert "final ranking" in lines, log[-2000:]
    ranking = {}
    for line in lines[lines.index("final ranking") + 1:]:
        if m := RANK_LINE.match(line):
            rank, seat, agent, score, share, suits = m.groups()
            ranking[int(seat)] = {"rank": int(rank), "agent": agent, "score": float(score),
                                  "win_share": float(share),
                                  "suits": [int(s) for s in suits.split()] if suits else None}
    stats = next(STATS_LINE.match(line) for line in lines if STATS_LINE.match(line))
    rounds = []
    for line in lines:
        if m := ROUND_END.match(line):
            bets = [(int(p), mark == "✓", int(b)) for p, mark, b in BET.findall(m.group(3))]
            rounds.append({"round": int(m.group(1)), "k": int(m.group(2)), "bets": bets})
    return {"ranking": ranking, "decisions": int(stats.group(1)),
            "rounds": int(stats.group(2)), "settled": rounds, "header": lines[0]}


RUNS = {
    "default": ["paris-damis", "--games", 24, "--seed", 11, "--chunk-size", 10],
    "3p-random-seats-jokers": ["paris-damis", "--games", 20, "--seed", 5, "--players", 3,
                               "--variant", "jokers=1", "--variant", "column_tie=nobody",
                               "--seating", "random", "--chunk-size", 7],
    "2p-total-fixed": ["paris-damis", "--games", 12, "--seed", 30, "--players", 2,
                       "--variant", "scoring=total", "--variant", "rounds=5",
                       "--seating", "fixed"],
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    out = {}
    for name, args in RUNS.items():
        path = tmp_path_factory.mktemp(name) / "run"
        code, _, err = batch_main(*args, "--jobs", 1, "--out", path, "--no-progress")
        assert code == 0, err
        out[name] = (path, results.load(path))
    return out


def check_replay_matches_tables(log: str, tables: dict, game: int, seed: int) -> None:
    replayed = parse(log)
    assert replayed["header"].startswith(f"paris-damis, seed {seed}, game {game}:")
    players = tables["players"][tables["players"].game_id == game].set_index("seat")
    assert sorted(replayed["ranking"]) == sorted(players.index)
    for seat, row in players.iterrows():
        seen = replayed["ranking"][seat]
        assert seen["rank"] == row["rank"], seat
        assert seen["win_share"] == pytest.approx(float(row["win_share"]), abs=1e-5), seat
        assert seen["score"] == pytest.approx(float(row["score"])), seat
        assert seen["agent"] == row["agent"]
        if seen["suits"] is not None:
            assert seen["suits"] == [int(row[f"points_{s}"]) for s in SUIT_NAMES]
    games = tables["games"].set_index("game_id")
    assert replayed["decisions"] == games.decisions[game]
    assert replayed["rounds"] == games.rounds[game]
    rounds = tables["rounds"][tables["rounds"].game_id == game]
    assert [r["round"] for r in replayed["settled"]] == sorted(set(rounds["round"]))
    for settled in replayed["settled"]:
        rows = rounds[rounds["round"] == settled["round"]].set_index("seat")
        assert (rows.k == settled["k"]).all()
        assert [seat for seat, _, _ in settled["bets"]] == \
            list(rows.sort_values("bet_position").index)
        for seat, correct, bet in settled["bets"]:
            assert rows.bet[seat] == bet and rows.bet_correct[seat] == correct


@pytest.mark.parametrize("name", RUNS)
def test_replay_of_a_run_game_matches_its_tables(runs, name):
    path, tables = runs[name]
    seed = RUNS[name][RUNS[name].index("--seed") + 1]
    games = len(tables["games"])
    for game in sorted({0, 7, games - 1}):
        code, out, err = replay_main(path, "--game", game)
        assert code == 0, err
        check_replay_matches_tables(out, tables, game, seed)


@pytest.mark.slow
def test_replay_command_line_from_a_run_and_from_a_seed_agree(runs, tmp_path):
    path, tables = runs["default"]
    from_run = run_replay(path, "--game", 7, cwd=tmp_path)
    assert from_run.returncode == 0, from_run.stderr
    check_replay_matches_tables(from_run.stdout, tables, 7, 11)
    from_seed = run_replay("paris-damis", "--seed", 11, "--index", 7, cwd=tmp_path)
    assert from_seed.returncode == 0, from_seed.stderr
    assert from_seed.stdout == from_run.stdout
    assert len(from_run.stdout.splitlines()) > 100      # the whole game, turn by turn
    other = run_replay("paris-damis", "--seed", 11, "--index", 8, cwd=tmp_path)
    assert other.returncode == 0 and other.stdout != from_run.stdout


def test_replay_from_a_seed_with_the_runs_options_agrees(runs):
    path, _ = runs["3p-random-seats-jokers"]
    for game in (3, 16):
        code, from_run, err = replay_main(path, "--game", game)
        assert code == 0, err
        code, from_seed, err = replay_main("paris-damis", "--seed", 5, "--index", game,
                                           "--players", 3, "--variant", "jokers=1",
                                           "--variant", "column_tie=nobody",
                                           "--seating", "random")
        assert code == 0, err
        assert from_seed == from_run


def test_replay_from_a_seed_defaults_to_game_0_of_seed_0(tmp_path):
    code, out, err = batch_main("paris-damis", "--games", 1, "--jobs", 1, "--out",
                                tmp_path / "run", "--no-progress")
    assert code == 0, err
    code, default, err = replay_main("paris-damis")
    assert code == 0, err
    code, explicit, err = replay_main(tmp_path / "run", "--game", 0)
    assert code == 0, err
    assert default == explicit
    check_replay_matches_tables(default, results.load(tmp_path / "run"), 0, 0)


BAD_REPLAY = {
    "no-game-for-a-run": (["RUN"], ["--game"]),
    "game-out-of-range": (["RUN", "--game", 24], ["24", "0..23"]),
    "negative-game": (["RUN", "--game", -1], ["-1"]),
    "negative-index": (["paris-damis", "--index", -1], ["--index"]),
    "unknown-game": (["nosuchgame", "--seed", 1], ["paris-damis"]),
    "missing-run-directory": (["MISSING", "--game", 0], ["is neither a game", "nor a "
                                                         "directory (no such file"]),
    "folder-without-manifest": (["TMP", "--game", 0], ["a directory without manifest.json"]),
    "seed-out-of-range": (["paris-damis", "--seed", 2**63], ["from 0 to 2**63 - 1"]),
    "bad-players": (["paris-damis", "--players", 5], ["2..4"]),
    "bad-variant": (["paris-damis", "--variant", "jokers=9"], ["0..2"]),
    "unknown-variant-key": (["paris-damis", "--variant", "colour=red"], ["jokers"]),
    "bad-seating": (["paris-damis", "--seating", "circle"], ["rotate", "fixed", "random"]),
    "unknown-agent": (["paris-damis", "--agents", "wizard"], ["random"]),
    "negative-seed": (["paris-damis", "--seed", -3], ["--seed"]),
    "bad-number": (["RUN", "--game", "five"], ["--game"]),
}


@pytest.mark.parametrize("case", BAD_REPLAY)
def test_bad_replay_input_exits_2(runs, tmp_path, case):
    args, words = BAD_REPLAY[case]
    path, _ = runs["default"]
    args = [path if a == "RUN" else tmp_path / "missing" if a == "MISSING" else
            tmp_path if a == "TMP" else a for a in args]
    code, out, err = replay_main(*args)
    assert code == 2, (code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert out == ""


def test_bad_replay_input_exits_2_from_the_command_line(runs, tmp_path):
    path, _ = runs["default"]
    proc = run_replay(path, "--game", 99, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_replay_of_a_slug_does_not_ignore_game(tmp_path):
    code, out, err = replay_main("paris-damis", "--seed", 2, "--game", 5)
    if code == 0:
        _, expected, _ = replay_main("paris-damis", "--seed", 2, "--index", 5)
        assert out == expected
    else:
        assert code == 2 and len(err.strip().splitlines()) == 1
