"""``python -m sim.design``: the space and the objectives are checked before anything runs,
the objectives measure what they say on tables whose answer is known, the front is the set
of rule sets no other dominates, and a search runs, resumes and reports."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import partial

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sim.design as design
from sim.analysis import Run
from sim.analysis.design import (
    MAXIMIZE,
    MINIMIZE,
    bootstrap,
    dominates,
    pareto_front,
    parse_objective,
)
from sim.cli import UsageError
from tests.sim.test_batch_support import call_main, env

design_main = partial(call_main, design.main)


# --------------------------------------------------------------------------------------
# The space
# --------------------------------------------------------------------------------------
def space(text, fixed=(), players=(3,)):
    return design.parse_space("paris-damis", design.space_items(text), fixed, players)


def test_the_space_syntax():
    dims = {d.key: d for d in space("discard;jokers=0..2;correct_bet_cards=[4..12]x4;"
                                    "column_tie=nobody|first-placed;mulligan")}
    assert dims["discard"].choices == ("half-down", "half-up", "none", "all")
    assert (dims["jokers"].low, dims["jokers"].high, dims["jokers"].length) == (0, 2, 0)
    assert (dims["correct_bet_cards"].low, dims["correct_bet_cards"].length) == (4, 4)
    assert dims["column_tie"].choices == ("nobody", "first-placed")
    assert dims["mulligan"].choices == (True, False)
    assert [d.text() for d in space("jokers=0..2;correct_bet_cards=[4..12]x4")] == \
        ["jokers=0..2", "correct_bet_cards=[4..12]x4"]


def test_a_real_parameter_is_searched_as_a_real_range():
    (dim,) = design.parse_space("nain-jaune", {"forget_prob": "0..0.5"}, (), (4,))
    assert dim.real and (dim.low, dim.high) == (0.0, 0.5) and dim.text() == "forget_prob=0..0.5"
    with pytest.raises(UsageError, match="forget_prob is a probability"):
        design.parse_space("nain-jaune", {"forget_prob": "0..1.5"}, (), (4,))


def test_a_toml_space_reads_as_the_command_line():
    items = design.toml_items({"discard": ["none", "all"], "jokers": {"min": 0, "max": 2},
                               "correct_bet_cards": {"min": 4, "max": 12, "length": 4},
                               "mulligan": True})
    assert items == {"discard": "none|all", "jokers": "0..2",
                     "correct_bet_cards": "[4..12]x4", "mulligan": ""}


def test_the_defaults_are_the_first_trial_when_inside_the_space():
    dims = {d.key: d for d in space("jokers=0..2;correct_bet_cards=[4..12]x4;discard")}
    assert dims["correct_bet_cards"].given((10,)) == {f"correct_bet_cards[{i}]": 10
                                                      for i in range(4)}
    assert dims["jokers"].given(0) == {"jokers": 0}
    assert dims["jokers"].given(3) is None
    assert dims["discard"].given("none") == {"discard": "none"}


@pytest.mark.parametrize("text, fixed, message", [
    ("", (), "the space is empty"),
    ("nonsense=1..2", (), "unknown parameter 'nonsense'"),
    ("players=3..4", (), "the player counts are --players"),
    ("jokers=2..0", (), "is empty (2 > 0)"),
    ("jokers=0..9", (), "leaves the parameter's limits"),
    ("discard=none|sideways", (), "valid values"),
    ("discard=none", (), "two or more different values"),
    ("jokers=0..2;jokers=1..2", (), "given twice"),
    ("discard", ("discard=none",), "both searched and fixed"),
    ("correct_bet_cards=[4..12]x3", (), "lists of length 1 or 4"),
    ("jokers=[0..2]x4", (), "is not a list"),
    ("initial_hand=30..40", (), "no value of initial_hand=30..40 gives valid rules"),
])
def test_a_bad_space_is_refused(text, fixed, message):
    with pytest.raises(UsageError) as error:
        space(text, fixed)
    assert message in str(error.value)


# --------------------------------------------------------------------------------------
# The objectives
# --------------------------------------------------------------------------------------
def fake_run(win_shares, agents_at, decisions):
    """A run of games whose seats have the given win shares and agents."""
    games = pd.DataFrame({"game_id": range(len(win_shares)), "decisions": decisions})
    players = pd.DataFrame([{"game_id": g, "seat": s, "agent": agents_at[(s + g) % 3],
                             "win_share": w}
                            for g, shares in enumerate(win_shares)
                            for s, w in enumerate(shares)])
    return Run(path=".", manifest={"spec": {"game": "paris-damis"}}, games=games,
               players=players, rounds=None, label="fake")


def test_the_objectives_on_a_table_whose_answer_is_known():
    # seat 0 wins half the games, seats 1 and 2 a quarter each; agent a wins 3/4 of its games
    wins = [[1, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]] * 30
    run = fake_run(wins, ["a", "b", "c"], [100, 120, 140, 160] * 30)
    assert parse_objective("seat_unfairness").of(run) == pytest.approx(0.5 - 1 / 3)
    assert parse_objective("length").of(run) == pytest.approx(130)
    assert parse_objective("target_length=100").of(run) == pytest.approx(30)
    assert parse_objective("games.decisions").of(run) == pytest.approx(130)
    skill = parse_objective("skill").of(run)
    shares = run.players.groupby("agent")["win_share"].mean()
    assert skill == pytest.approx(shares.max() - 1 / 3)
    assert 0 <= parse_objective("luck").of(run) <= 1


def test_directions_and_bad_names():
    assert parse_objective("skill").direction == MAXIMIZE
    assert parse_objective("length").direction == MINIMIZE
    assert parse_objective("length:max").direction == MAXIMIZE
    with pytest.raises(ValueError, match="valid objectives: seat_unfairness, skill"):
        parse_objective("fun")
    with pytest.raises(ValueError, match="min or max"):
        parse_objective("skill:most")


def test_the_interval_is_the_picked_seats_not_a_noisy_maximum():
    rng = np.random.default_rng(0)
    wins = np.eye(3)[rng.integers(3, size=600)]          # fair seats
    run = fake_run(wins.tolist(), ["a", "b", "c"], [1] * 600)
    figure = bootstrap(parse_objective("seat_unfairness"), [run], 300, 1)
    assert figure["low"] <= figure["value"] <= figure["high"]


def test_the_worst_player_count_counts():
    fair = fake_run(np.eye(3)[[0, 1, 2] * 20].tolist(), ["a", "b", "c"], [50] * 60)
    unfair = fake_run(np.eye(3)[[0] * 60].tolist(), ["a", "b", "c"], [80] * 60)
    figure = bootstrap(parse_objective("seat_unfairness"), [fair, unfair], 20, 0)
    assert figure["value"] == pytest.approx(2 / 3)
    assert bootstrap(parse_objective("length"), [fair, unfair], 0, 0)["value"] == 80


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=12))
def test_the_front_is_exactly_the_undominated_rows(rows):
    directions = [MINIMIZE, MAXIMIZE]
    front = pareto_front(rows, directions)
    for i, row in enumerate(rows):
        dominated = any(dominates(other, row, directions) for other in rows)
        assert (i in front) == (not dominated)
    assert front                                           # never empty


# --------------------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------------------
SEARCH = ["paris-damis", "--players", "3,4", "--space", "discard=half-down|none;jokers=0..1",
          "--objectives", "seat_unfairness,skill,length", "--agents", "greedy,cautious",
          "--trials", 4, "--games-per-trial", 40, "--final-games", 60, "--bootstrap", 20,
          "--jobs", 1, "--no-progress"]


@pytest.fixture(scope="module")
def searched(tmp_path_factory):
    out = tmp_path_factory.mktemp("design") / "d"
    code, stdout, stderr = design_main(*SEARCH, "--out", out)
    assert code == 0, stderr
    return out, stdout


def test_a_search_writes_its_answers(searched):
    out, stdout = searched
    answers = json.loads((out / "design.json").read_text())
    assert answers["trials"] == 4
    first = answers["rule_sets"][0]
    assert first["rule_set"] == "defaults" and first["changes"] == "the defaults"
    for row in answers["rule_sets"]:
        for name in ("seat_unfairness", "skill", "length"):
            assert row[f"{name}_low"] <= row[name] <= row[f"{name}_high"]
            assert row[name] == pytest.approx(max(row[f"{name}_3p"], row[f"{name}_4p"])
                                              if name != "skill" else
                                              min(row[f"{name}_3p"], row[f"{name}_4p"]))
    assert "python -m sim.design paris-damis --players 3,4" in answers["command"]
    assert (out / "report" / "report.html").is_file()
    assert (out / "report" / "design_front.png").is_file()
    report = (out / "report" / "report.md").read_text()
    assert "## Proposed rule sets" in report and "reproduce: python -m sim.design" in report
    assert "Defaults: seat_unfairness " in stdout
    # every trial played the same games: the defaults (trial 0) and the others share seeds
    assert json.loads((out / "trials" / "0" / "3p" / "manifest.json").read_text())[
        "spec"]["seed"] == json.loads((out / "trials" / "1" / "3p" / "manifest.json")
                                      .read_text())["spec"]["seed"] == 0


def test_the_first_trial_is_the_defaults(searched):
    import optuna
    out, _ = searched
    study = optuna.load_study(study_name="design-paris-damis",
                              storage=f"sqlite:///{out / 'study.db'}")
    assert study.trials[0].user_attrs["rules"] == {"discard": "half-down", "jokers": "0"}


def test_resume_adds_trials_and_keeps_the_settings(searched, tmp_path):
    import shutil
    out, _ = searched
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    code, stdout, stderr = design_main("--resume", copy, "--trials", 5, "--bootstrap", 0,
                                       "--jobs", 1, "--format", "json", "--no-progress")
    assert code == 0, stderr
    assert json.loads(stdout)["trials"] == 5
    assert sorted(p.name for p in (copy / "trials").iterdir()) == ["0", "1", "2", "3", "4"]
    code, _, stderr = design_main("--resume", copy, "--agents", "random")
    assert code == 2 and "drop --agents" in stderr


def test_a_design_file_gives_the_settings(tmp_path):
    path = tmp_path / "d.toml"
    path.write_text('game = "paris-damis"\nplayers = [3]\nagents = ["greedy", "cautious"]\n'
                    'trials = 2\ngames_per_trial = 20\nfinal_games = 20\n'
                    '[space]\njokers = { min = 0, max = 1 }\n')
    code, stdout, stderr = design_main(path, "--out", tmp_path / "out", "--bootstrap", 0,
                                       "--jobs", 1, "--format", "json", "--no-progress")
    assert code == 0, stderr
    answers = json.loads(stdout)
    assert answers["settings"]["space"] == ["jokers=0..1"]
    assert answers["settings"]["players"] == [3]


@pytest.mark.parametrize("args, message", [
    (["chess", "--space", "x"], "unknown game 'chess'"),
    (["paris-damis"], "the space is empty"),
    (["paris-damis", "--space", "jokers=0..1", "--objectives", "fun"], "unknown objective"),
    (["paris-damis", "--space", "jokers=0..1", "--objectives", "skill,skill"],
     "given twice"),
    (["paris-damis", "--space", "jokers=0..1", "--objectives", "players.nope"],
     "cannot be computed"),
    (["bataille", "--space", "jokers=0..1", "--objectives", "deck_shortage"],
     "cannot be computed"),
    (["paris-damis", "--space", "jokers=0..1", "--agents", "random"],
     "two or more different agents"),
    (["paris-damis", "--space", "jokers=0..1", "--agents", "nobody,greedy"], "unknown agent"),
    (["paris-damis", "--space", "jokers=0..1", "--players", "3,x"], "player counts"),
    (["paris-damis", "--space", "jokers=0..1", "--trials", "0"], "--trials must be"),
    (["paris-damis", "--space", "jokers=0..1", "--storage", "nosuchdb://x"],
     "cannot open --storage"),
    (["paris-damis", "--space", "jokers=0..1", "--sampler", "grid"], "invalid choice"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, stdout, stderr = design_main(*args, "--out", tmp_path / "out")
    assert code == 2 and stdout == "", stderr
    assert stderr.count("\n") == 1 and message in stderr, stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "runs").exists()


def test_two_processes_share_one_study(tmp_path):
    storage = f"sqlite:///{(tmp_path / 'shared.db').as_posix()}"
    command = [sys.executable, "-m", "sim.design", *map(str, SEARCH[:9]), "--trials", "6",
               "--games-per-trial", "30", "--final-games", "30", "--bootstrap", "0",
               "--jobs", "1", "--no-progress", "--storage", storage, "--study", "shared"]
    workers = [subprocess.Popen([*command, "--out", str(tmp_path / name)], env=env(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for name in ("a", "b")]
    for worker in workers:
        _, stderr = worker.communicate(timeout=600)
        assert worker.returncode == 0, stderr
    import optuna
    study = optuna.load_study(study_name="shared", storage=storage)
    done = [t for t in study.trials if t.state.is_finished()]
    assert 6 <= len(done) <= 8                  # each process stops once the study has 6
    played = {p.name for name in ("a", "b") for p in (tmp_path / name / "trials").iterdir()}
    assert played == {str(t.number) for t in study.trials
                      if t.state == optuna.trial.TrialState.COMPLETE}
    for name in ("a", "b"):
        assert (tmp_path / name / "report" / "report.html").is_file()
