"""``python -m sim.decisions``: the judged games are the run's very games, the table is the
same whatever the workers, the judge's verdicts are sound on a position whose answer is
known, sim.report shows the decisions, and bad input is one line."""

from __future__ import annotations

import json
from functools import partial

import numpy as np
import pandas as pd
import pytest

import agents
import sim.decisions as decisions
from sim import results
from sim.batch.seating import seating
from sim.report import main as report_main
from sim.runner import play_python
from tests.agents.test_search_agents import last_turn
from tests.sim.test_batch_support import batch_main, call_main, make_spec

decisions_main = partial(call_main, decisions.main)
LINEUP = "greedy,cautious,random"


class Recording:
    """A bot that notes its choices among two or more legal actions in ``chosen``."""

    def __init__(self, bot, seat, name, chosen):
        self.bot, self.seat, self.name, self.chosen = bot, seat, name, chosen

    def act(self, observation, legal, rng):
        action = self.bot.act(observation, legal, rng)
        if len(legal) > 1:
            self.chosen.append((self.seat, self.name, action.text))
        return action


@pytest.fixture(scope="module")
def judged_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("judged") / "run"
    code, _, err = batch_main("paris-damis", "--players", 3, "--agents", LINEUP, "--games", 6,
                              "--seed", 4, "--jobs", 1, "--out", run, "--no-progress")
    assert code == 0, err
    code, out, err = decisions_main(run, "--games", 3, "--tries", 6, "--jobs", 2,
                                    "--no-progress")
    assert code == 0, err
    return run, out


def test_the_judged_games_are_the_runs_games(judged_run):
    run, _ = judged_run
    table, settings = results.read_decisions(run)
    assert settings | {"agents": None} == {"judge": "flatmc", "tries": 6, "horizon": 0,
                                           "games": 3, "game": "paris-damis",
                                           "agents": None, "seed": 4}
    assert sorted(table["game_id"].unique()) == [0, 1, 2]
    spec = make_spec("paris-damis", "--players", 3, "--agents", LINEUP, "--games", 6,
                     "--seed", 4)
    for index in range(3):
        names = [spec.agents[a] for a in seating(spec, index, 1)[0]]
        chosen = []
        bots = [Recording(agents.load(name, game="paris-damis"), seat, name, chosen)
                for seat, name in enumerate(names)]
        play_python(spec.load_game(), bots, spec.seed, index)
        game = table[table["game_id"] == index].sort_values("decision")
        assert list(zip(game["seat"], game["agent"].astype(str), game["chosen_action"],
                        strict=True)) == chosen


def test_each_row_is_consistent(judged_run):
    table, _ = results.read_decisions(judged_run[0])
    assert (table["legal"] >= 2).all()
    assert np.allclose(table["margin"], table["best"] - table["second"])
    assert np.allclose(table["regret"], table["best"] - table["chosen"])
    assert (table["agrees"] == (table["best_action"] == table["chosen_action"])).all()
    assert set(table["phase"]) == {"turn", "discard", "hand_change"}
    assert table["round"].between(1, 8).all()
    assert (table["margin_se"] >= 0).all()


def test_the_table_does_not_depend_on_the_workers(judged_run, tmp_path):
    run, _ = judged_run
    again = tmp_path / "again"
    code, _, err = decisions_main("paris-damis", "--players", 3, "--agents", LINEUP,
                                  "--seed", 4, "--games", 3, "--tries", 6, "--jobs", 1,
                                  "--out", again, "--no-progress")
    assert code == 0, err
    pd.testing.assert_frame_equal(results.read_decisions(again)[0],
                                  results.read_decisions(run)[0])


def test_the_answers_are_printed_and_reported(judged_run, tmp_path):
    run, out = judged_run
    assert "Decisions that matter:" in out and "By phase:" in out
    code, _, err = call_main(report_main, run, "--out", tmp_path / "report")
    assert code == 0, err
    text = (tmp_path / "report" / "report.md").read_text()
    assert "## Decisions that matter" in text
    assert "Decisions: " in text.split("## Summary")[0]         # in the verdict


def test_json_format_prints_one_object(judged_run, tmp_path):
    code, out, err = decisions_main(judged_run[0], "--games", 1, "--tries", 4, "--jobs", 1,
                                    "--format", "json", "--no-progress")
    assert code == 0, err
    answers = json.loads(out)
    assert answers["games"] == 1 and 0 <= answers["matters"] <= 1
    assert {row["phase"] for row in answers["by_phase"]} <= {"turn", "discard", "hand_change"}
    assert answers["settings"]["tries"] == 4


def test_the_judge_sees_the_one_winning_move():
    state = last_turn()
    legal = state.legal_actions()
    winning = next(a for a in legal if a.text == "place J♠ → spades")
    judge = decisions.Judge(40, 0)
    best, second, value, se = judge.verdict(state.observation(state.current_player), legal,
                                            np.random.default_rng(0))
    assert legal[best] == winning
    assert value[best] - value[second] > 0.3 and value[best] - value[second] > 3 * se


@pytest.mark.parametrize("args, message", [
    (["paris-damis", "--tries", "3"], "--tries must be at least 4"),
    (["paris-damis", "--margin", "1.5"], "--margin must be between 0 and 1"),
    (["paris-damis", "--games", "0"], "--games must be at least 1"),
    (["paris-damis", "--horizon", "-1"], "--horizon must be 0 or more"),
    (["paris-damis", "--agents", "nobody"], "unknown agent"),
    (["no-such-game"], "'no-such-game' is neither a game (games: "),
    (["missing/run"], "'missing/run' is neither a game (games: "),
    (["bataille", "--horizon", "1"], "needs a game that counts rounds"),
])
def test_bad_input_is_one_line_and_writes_nothing(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = decisions_main(*args, "--out", tmp_path / "out")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "out").exists() and not (tmp_path / "runs").exists()


def test_a_run_directory_keeps_its_settings(judged_run):
    code, _, err = decisions_main(judged_run[0], "--agents", "random", "--seed", 2)
    assert code == 2 and "drop --agents, --seed" in err
