"""``python -m sim.tournament``: lineups played as ordinary runs, standings, the report and
tournament.json, and one-line errors."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

import sim.tournament as tournament
from sim.analysis import Run
from tests.sim.test_batch_support import call_main

GAMES = 400
BOT = "greedy"


tournament_main = partial(call_main, tournament.main)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("tournament") / "t"
    code, stdout, stderr = tournament_main(
        "paris-damis", "--agents", f"random,{BOT}", "--players", 3, "--games", GAMES,
        "--seed", 2, "--jobs", 1, "--no-progress", "--out", out)
    assert code == 0, stderr
    return out, stdout


def test_every_mixed_lineup_is_an_ordinary_run_with_the_same_seed(played):
    out, _ = played
    names = sorted(p.name for p in out.iterdir() if p.is_dir() and p.name != "report")
    assert names == sorted([f"random+random+{BOT}", f"random+{BOT}+{BOT}"])
    for name in names:
        run = Run.open(out / name)
        assert run.seed == 2 and len(run.games) == GAMES
        assert sorted(run.agents) == sorted(name.split("+"))


def test_standings_are_written_and_consistent(played):
    out, stdout = played
    data = json.loads((out / "tournament.json").read_text())
    rated = {r["agent"]: r for r in data["ratings"]}
    assert set(rated) == {"random", BOT}
    assert rated["random"]["rating"] == 0
    for r in rated.values():
        assert r["low"] <= r["rating"] <= r["high"]
    assert data["skill_chain"][0] == min(rated, key=lambda a: rated[a]["rating"])
    pooled = data["luck"][-1]
    assert pooled["stronger"] == "all" and 0 <= pooled["share"] <= 1
    (bot_share,) = data["versus_random"]
    assert bot_share["agent"] == BOT and bot_share["n"] == GAMES
    assert data["head_to_head_by_searches"] == []               # no search played
    assert "skill chain: " in stdout and "report: " in stdout


def test_the_report_has_the_ratings_skill_and_luck_figures(played):
    out, _ = played
    report = out / "report"
    for name in ("ratings.png", "skill_depth.png", "luck.png", "report.md", "report.html"):
        assert (report / name).is_file(), name
    md = (report / "report.md").read_text()
    assert "Skill chain" in md and "Bradley–Terry" in md


SEARCH = "ismcts@b16"          # paris-damis's ladder profile: 16 iterations


def comparisons(players, search: str) -> tuple[int, float]:
    """The search's comparisons with the other agents' seats in a run, and its score (1 when
    ranked better, ½ for a tie), counted game by game."""
    n, score = 0, 0.0
    for _, game in players.groupby("game_id"):
        mine = game.loc[game["agent"] == search, "rank"]
        theirs = game.loc[game["agent"] != search, "rank"]
        for rank in mine:
            n += len(theirs)
            score += float((rank < theirs).sum() + 0.5 * (rank == theirs).sum())
    return n, score


def test_a_search_is_rated_apart_by_the_searches_at_its_table(tmp_path):
    out = tmp_path / "t"
    code, stdout, stderr = tournament_main(
        "paris-damis", "--agents", f"{SEARCH},{BOT}", "--players", 3, "--games", 12,
        "--jobs", 1, "--no-progress", "--out", out)
    assert code == 0, stderr
    data = json.loads((out / "tournament.json").read_text())
    rows = {r["searches"]: r for r in data["head_to_head_by_searches"]}
    assert set(rows) == {1, 2}
    for searches, lineup in ((1, f"{SEARCH}+{BOT}+{BOT}"), (2, f"{SEARCH}+{SEARCH}+{BOT}")):
        players = Run.open(out / lineup).players.astype({"agent": str})
        n, score = comparisons(players, SEARCH)
        row = rows[searches]
        assert (row["agent"], row["opponent"]) == (SEARCH, BOT)
        assert row["n"] == n == 12 * 2 and row["score"] == pytest.approx(score)
        assert row["share"] == pytest.approx(score / n)
        assert row["low"] <= row["share"] <= row["high"]
    alone = rows[1]
    assert (f"As the one search at its table, {SEARCH} finishes ahead of {BOT} "
            f"{100 * alone['share']:.1f}%") in stdout
    assert "by the searches at the table" in (out / "report" / "report.md").read_text()


@pytest.mark.parametrize("args, message", [
    (["chess", "--agents", "random,x"], "unknown game 'chess'; available games: "),
    (["paris-damis", "--agents", "random"], "two or more different agents"),
    (["paris-damis", "--agents", "random,random"], "two or more different agents"),
    (["paris-damis", "--agents", "random,nobody"], "available agents"),
    (["paris-damis", "--agents", "random,greedy", "--players", "7"], "players"),
    (["paris-damis", "--agents", "random,greedy", "--variant", "jokers=5"], "0..2"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "out"
    code, _, stderr = tournament_main(*args, "--out", out)
    assert code == 2 and stderr.count("\n") == 1 and message in stderr, stderr
    assert not out.exists()
