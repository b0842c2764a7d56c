"""What a batch run says besides its figures: that an all-random run measures the rules' luck
(naming the game's strongest bots to seat instead), and a line before a game's first, long
compile, known from numba's cache folder for the current sources."""

from __future__ import annotations

from pathlib import Path

import numba
import pytest

import agents
import engines
from agents.compiled_search import SEARCHES
from sim import cli
from sim.batch.summary import luck_note, strongest_bots
from tests.sim.test_batch_support import batch_main

COMPILING = "compiling the rules of paris-damis (first run only, about a minute)..."


@pytest.fixture(scope="module")
def random_run(tmp_path_factory):
    """A small all-random paris-damis run: (run dir, stdout, stderr)."""
    out = tmp_path_factory.mktemp("notes") / "run"
    code, stdout, stderr = batch_main("paris-damis", "--games", 100, "--jobs", 1,
                                      "--no-progress", "--out", out)
    assert code == 0, stderr
    return out, stdout, stderr


def test_an_all_random_run_says_it_measures_luck_and_names_strong_bots(random_run):
    _, stdout, _ = random_run
    note = stdout.splitlines()[1]
    assert note.startswith("note: every seat played random, so this measures the luck of "
                           "the rules, not balance among players")
    assert note.endswith("--agents flatmc,ismcts,greedy@tuned,cautious")


def test_a_run_with_other_bots_has_no_note(tmp_path):
    code, stdout, stderr = batch_main("paris-damis", "--games", 40, "--jobs", 1,
                                      "--agents", "random,greedy,random,random",
                                      "--no-progress", "--out", tmp_path / "run")
    assert code == 0, stderr
    assert "note:" not in stdout and "luck of the rules" not in stdout


def test_the_strongest_bots_are_the_searches_then_the_games_own_tuned_first():
    assert strongest_bots("paris-damis") == ["flatmc", "ismcts", "greedy@tuned", "cautious",
                                             "aggressive"]
    assert strongest_bots("bataille") == list(SEARCHES)          # no bot of its own
    assert strongest_bots("menteur")[2:] == agents.written_for("menteur")


@pytest.mark.parametrize("game", engines.available())
def test_the_suggested_lineup_is_a_valid_agents_option(game):
    players = engines.load(game).num_players
    lineup = luck_note(game, players).rsplit("--agents ", 1)[1].split(",")
    assert len(lineup) == players
    for name in lineup:
        agents.check(name, game)        # raises when the game cannot seat it


def test_the_mark_lives_in_the_cache_folder_of_the_current_sources(random_run):
    mark = cli.compiled_mark("paris-damis")
    assert mark is not None and mark.parent.parent == Path(numba.config.CACHE_DIR)
    assert mark.exists()                            # the run above finished: compiled
    assert not cli.compile_pending("paris-damis")


def test_a_fresh_cache_announces_the_compile_once_even_in_a_log(random_run, tmp_path,
                                                                 monkeypatch):
    # another hash of the sources: an empty cache folder (an edit to engines/ does this)
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache" / "0123abcd"))
    assert cli.compile_pending("paris-damis") and cli.compile_pending("betzanbloo")
    code, _, stderr = batch_main("paris-damis", "--games", 20, "--jobs", 1, "--no-progress",
                                 "--out", tmp_path / "first")
    assert code == 0 and stderr.splitlines() == [COMPILING]    # stderr is not a terminal
    assert not cli.compile_pending("paris-damis")
    assert cli.compile_pending("betzanbloo")        # another game still compiles
    code, _, stderr = batch_main("paris-damis", "--games", 20, "--jobs", 1, "--no-progress",
                                 "--out", tmp_path / "second")
    assert code == 0 and COMPILING not in stderr


def test_bad_input_does_not_announce_a_compile(tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    code, _, stderr = batch_main("paris-damis", "--agents", "nobody", "--out", tmp_path / "r")
    assert code == 2 and "compiling" not in stderr


def test_nothing_is_announced_when_numba_is_off(tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(numba.config, "DISABLE_JIT", True)
    assert cli.compiled_mark("paris-damis") is None
    assert not cli.compile_pending("paris-damis")
