"""Every ``python -m sim.*`` command against arbitrary command lines (issue 26): exit status
0 or 2, never a traceback, and nothing written when the input is refused.

The commands run in process through :mod:`tests.sim.cli_harness`, their work (games,
compilation, searches) replaced by a marker once every check has passed, each in a fresh
working directory whose listing is compared before and after.  The arguments are biased
toward each command's own option names and edge values (empty texts, zero, negative and
huge numbers, fractions, ``inf``/``nan``, names that climb out of a folder)."""

from __future__ import annotations

import importlib
import subprocess
import sys
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.sim.cli_harness import COMMANDS, DESIGNS, EXPERIMENTS, GAME, run
from tests.sim.test_batch_support import env

EDGE_VALUES = ["", " ", "0", "1", "2", "3", "-1", "-5", "1e3", "1.5", "0.5", "inf", "-inf",
               "nan", str(2**63 - 1), str(2**63), str(2**64), "10000000000000", GAME,
               "chess", "random", "greedy", "random,greedy", "greedy,random,cautious",
               "greedy@tuned", "nobody@x", ",", "../x", "../../escape", "/", ".", "..",
               "jokers=1", "jokers=nan", "players=3", "discard=all", "a:jokers=1",
               "b:jokers=2", "table", "json", "xml", "nsga2", "tpe", "thread", "dask",
               "jokers=0..2", "jokers", "3,4", "3,,4", "seat_unfairness,skill", "skill:max",
               "x=1", "tcp://127.0.0.1:1"]


def options(command: str) -> list[str]:
    """The command's option strings (from its parser)."""
    module = importlib.import_module(COMMANDS[command])
    parser = module.build_parser()
    return [o for action in parser._actions for o in action.option_strings
            if o not in ("-h", "--help")]


def command_lines(command: str) -> st.SearchStrategy[list[str]]:
    """Argument lists: an optional first word, then options each with an edge value, an
    arbitrary text, or nothing."""
    words = st.one_of(st.sampled_from(EDGE_VALUES), st.text(max_size=12))
    option = st.sampled_from(options(command))
    pair = st.one_of(st.tuples(option, words).map(list), option.map(lambda o: [o]))
    first = st.one_of(st.just([]), st.just([GAME]), words.map(lambda w: [w]))
    return st.tuples(first, st.lists(pair, max_size=4)).map(
        lambda t: t[0] + [w for p in t[1] for w in p])


def check(command: str, argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        outcome = run(command, argv, Path(folder))
    assert not outcome.traceback, f"{command} {argv}: {outcome.error}"
    assert outcome.status in (0, 2), f"{command} {argv}: status {outcome.status}"
    if outcome.status == 2:
        assert outcome.written == (), f"{command} {argv} wrote {outcome.written}"
        lines = outcome.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"{command}: error: "), \
            f"{command} {argv}: {outcome.stderr!r}"


@pytest.mark.parametrize("command", list(COMMANDS))
def test_any_command_line_is_status_0_or_2_and_refusals_write_nothing(command):
    @settings(max_examples=40)
    @given(command_lines(command))
    def each(argv: list[str]) -> None:
        check(command, argv)
    each()


@pytest.mark.parametrize("kind, case", [("exp", c) for c in EXPERIMENTS]
                         + [("design", c) for c in DESIGNS])
def test_bad_files_are_one_line_naming_the_file_and_write_nothing(kind, case, tmp_path):
    command, text = ("sim.experiment", EXPERIMENTS[case]) if kind == "exp" \
        else ("sim.design", DESIGNS[case])
    (tmp_path / "f.toml").write_text(text)
    outcome = run(command, ["f.toml", "--out", "out"], tmp_path)
    assert outcome.status == 2 and not outcome.written, outcome
    assert outcome.stderr.count("\n") == 1 and "f.toml: " in outcome.stderr, outcome.stderr


@pytest.mark.parametrize("argv, message", [
    (["--games", "1e3"], "argument --games: invalid int value: '1e3'"),
    (["--games", "10000000000000"], "10,000,000,000,000 games would write about "),
    (["--seed", str(2**63)], "a seed is a whole number from 0 to 2**63 - 1"),
    (["--jobs", "0"], "--jobs must be from 1 to "),
    (["--jobs", "-1"], "--jobs must be from 1 to "),
    (["--agents", ""], "--agents is empty"),
    (["--out", ""], "--out is empty"),
    (["--format", "xml"], "argument --format: invalid choice: 'xml'"),
])
def test_limits_are_checked_before_any_work(argv, message, tmp_path):
    outcome = run("sim.batch", [GAME, *argv], tmp_path)
    assert outcome.status == 2 and not outcome.written
    assert outcome.stderr.count("\n") == 1 and message in outcome.stderr, outcome.stderr


def test_a_variant_named_to_climb_out_is_refused_and_writes_nothing(tmp_path):
    (tmp_path / "f.toml").write_text(EXPERIMENTS["variant-escape"])
    (tmp_path / "inside").mkdir()
    outcome = run("sim.experiment", ["f.toml", "--out", "inside/out"], tmp_path)
    assert outcome.status == 2 and not outcome.written
    assert "'../../escape' cannot name a folder" in outcome.stderr


@pytest.mark.slow
@pytest.mark.parametrize("command, argv", [
    ("sim.batch", [GAME, "--games", "1e3"]), ("sim.batch", [GAME, "--jobs", "0"]),
    ("sim.play", [GAME, "--pace", "nan"]), ("sim.metagame", [GAME, "--alpha", "inf"]),
    ("sim.bench", [GAME, "--seed", "-1"]), ("sim.compile", [GAME, "--jobs", "-1"]),
])
def test_as_a_process_bad_input_is_one_line_and_status_2(command, argv, tmp_path):
    done = subprocess.run([sys.executable, "-m", command, *argv], cwd=tmp_path, env=env(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"{command}: error: ") and not any(tmp_path.iterdir())


# --------------------------------------------------------------------------------------
# Saved settings edited since (--resume) and names that become folders
# --------------------------------------------------------------------------------------
METAGAME_SETTINGS = {"game": GAME, "players": 3, "agents": ["random", "greedy"], "games": 10,
                     "seed": 0, "variant": []}


@pytest.mark.parametrize("change, message", [
    ({"agents": "random,greedy"}, "agents: Input should be a valid list"),
    ({"games": 1.5}, "games: Input should be a valid integer, got 1.5"),
    ({"seed": -1}, "seed: Input should be greater than or equal to 0"),
    ({"game": "chess"}, "game: unknown game 'chess'"),
    ({"colour": 1}, "unknown key 'colour'"),
    ({"variant": None}, "variant: Input should be a valid list"),
])
def test_an_edited_metagame_resume_is_one_line(change, message, tmp_path):
    import json
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "metagame-settings.json").write_text(json.dumps(METAGAME_SETTINGS | change))
    before = sorted(p.name for p in folder.iterdir())
    outcome = run("sim.metagame", ["--resume", "m"], tmp_path)
    assert outcome.status == 2 and sorted(p.name for p in folder.iterdir()) == before
    assert outcome.stderr.count("\n") == 1 and message in outcome.stderr, outcome.stderr
    assert "metagame-settings.json" in outcome.stderr


@pytest.mark.parametrize("change, message", [
    ({"space": 3}, "space takes a table"),
    ({"players": [3, "4"]}, "players takes a player count or a list of them"),
    ({"trials": 0}, "trials: Input should be greater than or equal to 1"),
    ({"variant": "jokers=1"}, "variant: Input should be a valid list"),
])
def test_an_edited_design_resume_is_one_line(change, message, tmp_path):
    import json
    folder = tmp_path / "d"
    folder.mkdir()
    settings = {"game": GAME, "players": [3], "space": ["jokers=0..1"], "objectives":
                ["seat_unfairness"], "agents": ["random"], "variant": [], "games_per_trial": 4,
                "seed": 0, "sampler": "nsga2", "final_games": 4, "trials": 1, "storage": None,
                "study": "design-paris-damis"}
    (folder / "design-settings.json").write_text(json.dumps(settings | change))
    outcome = run("sim.design", ["--resume", "d"], tmp_path)
    assert outcome.status == 2 and outcome.stderr.count("\n") == 1, outcome.stderr
    assert message in outcome.stderr and "design-settings.json" in outcome.stderr


@pytest.mark.parametrize("name", ["../x", "..", ".", "a/b", "/abs", ".hidden", "a\\b", ""])
def test_a_name_that_is_not_one_plain_folder_is_refused(name, tmp_path):
    from sim.cli import UsageError, child, safe_name
    with pytest.raises(UsageError, match="cannot name a folder"):
        child(tmp_path, name, "variant")
    assert safe_name("greedy@tuned+random", "lineup") == "greedy@tuned+random"
    assert safe_name("random+my_bots:BetTwo", "lineup") == "random+my_bots:BetTwo"   # a plugin
    assert child(tmp_path, "wild-1-4p-random", "cell").parent == tmp_path


# --------------------------------------------------------------------------------------
# Arbitrary file contents (what a TOML file can hold), through the whole command
# --------------------------------------------------------------------------------------
SCALARS = st.one_of(st.booleans(), st.integers(min_value=-3, max_value=5),
                    st.sampled_from([0.5, 1e9, float("inf"), 2**63, 2**64]),
                    st.sampled_from(EDGE_VALUES), st.text(max_size=8))
TOML_VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(
        ["name", "params", "agents", "games", "min", "max", "length", "jokers", "discard"]),
        inner, max_size=3)), max_leaves=6)
EXPERIMENT_KEYS = ["title", "question", "game", "games", "seed", "players", "lineups",
                   "variants", "tournament", "analyses", "colour"]
DESIGN_KEYS = ["game", "players", "space", "objectives", "agents", "variant", "trials",
               "games_per_trial", "final_games", "sampler", "seed", "storage", "study"]


def file_contents(keys: list[str], base: dict) -> st.SearchStrategy[dict]:
    """A valid file's tables with some fields replaced, added or removed."""
    changed = st.dictionaries(st.sampled_from(keys), TOML_VALUES, max_size=3)
    dropped = st.lists(st.sampled_from(list(base)), max_size=2)
    return st.tuples(changed, dropped).map(
        lambda t: {k: v for k, v in (base | t[0]).items() if k not in t[1]})


@settings(max_examples=60)
@given(file_contents(EXPERIMENT_KEYS, {"title": "t", "question": "q", "game": GAME,
                                       "games": 10, "lineups": ["random"],
                                       "variants": [{"name": "base"}]}))
def test_any_experiment_file_is_status_0_or_2_and_refusals_write_nothing(data):
    with mock.patch("sim.schema.read_toml", return_value=data):
        check("sim.experiment", ["f.toml", "--out", "out"])


@settings(max_examples=40)
@given(file_contents(DESIGN_KEYS, {"game": GAME, "players": [3], "space": {"jokers": True},
                                   "objectives": ["seat_unfairness"], "trials": 1,
                                   "games_per_trial": 4, "final_games": 4}))
def test_any_design_file_is_status_0_or_2_and_refusals_write_nothing(data):
    with mock.patch("sim.schema.read_toml", return_value=data):
        check("sim.design", ["f.toml", "--out", "out"])


@pytest.mark.parametrize("space", ["carte_forget=0..nan", "carte_forget=nan..0.5",
                                   "carte_forget=0..inf"])
def test_a_real_range_must_be_finite(space, tmp_path):
    outcome = run("sim.design", ["huit-americain", "--space", space, "--out", "out"], tmp_path)
    assert outcome.status == 2 and not outcome.written
    assert "is not a range of finite numbers A..B" in outcome.stderr, outcome.stderr
