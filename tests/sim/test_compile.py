"""``python -m sim.compile``: bad input is one line and exit status 2; a game named is made
ready (its compiled parts run once)."""

from __future__ import annotations

import numba
import pytest

import engines
from sim import compile as compile_command
from sim.cli import compile_pending


@pytest.mark.parametrize("argv, message", [
    (["no-such-game"], "unknown game 'no-such-game'; available games: ascenseur-atouts"),
    (["pouilleux", "--jobs", "0"], "--jobs must be from 1 to "),
    (["pouilleux", "--jobs", "100000"], "(this machine's cores), got 100000"),
    (["--jobs", "many"], "invalid int value: 'many'"),
    (["pouilleux", "--searches", "tarot,all"], "--searches: unknown game 'all'; give 'all' "
                                              "or games among: ascenseur-atouts, baccara"),
])
def test_bad_input_is_one_line_and_status_2(argv, message, capsys):
    assert compile_command.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("sim.compile: error: ")
    assert message in err


def test_a_game_named_is_compiled_and_reported(capsys):
    assert compile_command.main(["pouilleux", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 game ready in ") and "longest pouilleux" in out


def test_compiling_a_game_plays_its_python_path_and_its_kernel(tmp_path, monkeypatch):
    slug, seconds = compile_command.compile_game("bataille")
    assert slug == "bataille" and seconds >= 0
    assert not compile_pending("bataille")          # later commands do not announce it
    # in another cache folder (other sources), the mark is not there until compiled again
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "other-sources"))
    assert compile_pending("bataille")
    compile_command.compile_game("bataille")
    assert not compile_pending("bataille")


def test_the_largest_games_are_compiled_first_and_package_sharers_last():
    order = compile_command.longest_first(engines.available())
    assert sorted(order) == engines.available()
    assert order.index("paris-damis") < order.index("bataille")
    assert order.index("tarot") < order.index("pouilleux")
    assert order[-2:] == ["tarot-lorrain", "tarot-tare"]     # tarot's code, already cached
