"""``python -m sim.experiment``: experiment files validated before anything is played, cells
played as runs and reused, comparison and headline tables, and the question analyses."""

from __future__ import annotations

import shutil
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sim.experiment as experiment
from sim import runlock
from sim.analysis import Run, questions
from tests.sim.test_batch_support import call_main

SMALL = """
title = "discard trial"
question = "What does discarding everything change?"
game = "paris-damis"
games = 600
seed = 4
players = [3]
lineups = ["random"]
analyses = ["odd_hand", "hand_change", "scoring", "table_time"]
[[variants]]
name = "base"
[[variants]]
name = "all"
params = { discard = "all" }
"""


experiment_main = partial(call_main, experiment.main)


def write(folder: Path, text: str, name: str = "trial.toml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("experiment")
    path = write(folder, SMALL)
    out = folder / "out"
    code, stdout, stderr = experiment_main(path, "--out", out, "--jobs", 1, "--no-progress")
    assert code == 0, stderr
    assert "discard trial: 2 cells" in stdout
    return path, out


@pytest.mark.slow
def test_every_cell_is_a_run_with_the_experiment_seed(played):
    _, out = played
    for name, discard in (("base-3p-random", "half-down"), ("all-3p-random", "all")):
        run = Run.open(out / "cells" / name)
        assert run.seed == 4 and run.n_players == 3 and len(run.games) == 600
        assert run.params["discard"] == discard


def test_cells_table_has_one_row_per_cell_with_intervals(played):
    _, out = played
    cells = pd.read_csv(out / "cells.csv")
    assert list(cells["variant"]) == ["base", "all"]
    assert (cells["games"] == 600).all()
    for name in ("first_player_edge", "bet_accuracy", "odd_hand_next_points",
                 "exchange_rate", "winner_differs", "table_minutes"):
        assert (cells[f"{name}_low"] <= cells[name]).all()
        assert (cells[name] <= cells[f"{name}_high"]).all()
    # discarding everything leaves smaller hands: the cells table shows it
    base, discard_all = cells.set_index("variant").loc[["base", "all"], "mean_hand_end"]
    assert discard_all < base


def test_variants_are_compared_within_each_group(played):
    _, out = played
    table = pd.read_csv(out / "comparisons.csv")
    assert set(table["group"]) == {"3p-random"}
    assert set(table["variant"]) == {"all"} and set(table["baseline"]) == {"base"}
    assert table["paired"].all()
    assert (out / "comparisons" / "3p-random" / "report" / "report.html").is_file()
    hand = table.set_index("figure").loc["mean hand_end"]
    assert hand["significant"] and hand["diff"] < 0


@pytest.mark.slow
def test_finished_cells_are_reused(played):
    path, out = played
    part = next((out / "cells" / "base-3p-random" / "games").glob("*.parquet"))
    before = part.stat().st_mtime_ns
    code, _, stderr = experiment_main(path, "--out", out, "--jobs", 1, "--no-progress")
    assert code == 0, stderr
    assert part.stat().st_mtime_ns == before


def test_a_directory_holding_another_run_is_refused(played, tmp_path):
    path, out = played
    other = write(tmp_path, SMALL.replace("seed = 4", "seed = 5"))
    target = tmp_path / "out"
    shutil.copytree(out, target)
    code, _, stderr = experiment_main(other, "--out", target, "--jobs", 1, "--no-progress")
    assert code == 1 and "holds another run" in stderr


def test_an_experiment_in_use_is_refused_and_left_untouched(played, tmp_path):
    path, out = played
    target = tmp_path / "out"
    shutil.copytree(out, target)
    shutil.rmtree(target / "cells" / "all-3p-random")
    before = {p: p.stat().st_mtime_ns for p in target.rglob("*") if p.name != runlock.LOCK}
    with runlock.writing(target):                # another sim.experiment at work
        code, _, stderr = experiment_main(path, "--out", target, "--jobs", 1, "--no-progress")
    assert code == 2
    assert stderr.count("\n") == 1 and "in use by another process" in stderr
    assert not (target / "cells" / "all-3p-random").exists()
    assert {p: p.stat().st_mtime_ns for p in target.rglob("*")
            if p.name != runlock.LOCK} == before


@pytest.mark.parametrize("change, message", [
    (("games = 600", "games = 600\ncolour = 1"), "trial.toml: unknown key 'colour'; valid keys: "),
    (('game = "paris-damis"', 'game = "chess"'), "unknown game 'chess'; available games"),
    (('discard = "all"', 'discard = "most"'), "variant all, 3 players, lineup random"),
    (('lineups = ["random"]', 'lineups = ["nobody"]'), "available agents"),
    (('lineups = ["random"]', 'lineups = ["a+b+c"]'), "use X (every seat) or X+Y"),
    (('"table_time"]', '"table_time", "tea"]'), "unknown analysis 'tea'; available"),
    (('title = "discard trial"', 'title = "unclosed'), "not valid TOML"),
    (('title = "discard trial"\n', ''), "trial.toml: title is required"),
    (("players = [3]", "players = [9]"), "players"),
    # the schema: wrong types, lists for tables and back, fractions, seeds, names
    (("games = 600", "games = 1e9"), "trial.toml: games: Input should be a valid integer, "
                                     "got 1000000000.0"),
    (("games = 600", 'games = "many"'), "games: Input should be a valid integer, got 'many'"),
    (("games = 600", "games = 0"), "games: Input should be greater than or equal to 1"),
    (("seed = 4", "seed = -4"), "seed: Input should be greater than or equal to 0"),
    (("seed = 4", "seed = 9223372036854775808"), "seed: Input should be less than or equal"),
    (("players = [3]", "[players]\nk = 3"), "players: Input should be a valid list"),
    (("players = [3]", 'players = "3"'), "players: Input should be a valid list, got '3'"),
    (("players = [3]", "players = []"), "players: List should have at least 1 item"),
    (('lineups = ["random"]', "lineups = [3]"), "lineups[0]: Input should be a valid string"),
    (('lineups = ["random"]', 'lineups = [""]'), "lineups[0]: String should have at least"),
    (('lineups = ["random"]', 'lineups = ["../up"]'), "lineup '../up' cannot name a folder"),
    (('name = "all"', 'name = "../../escape"'),
     "variants[1].name: the name '../../escape' cannot name a folder"),
    (('name = "all"', 'name = "a/b"'), "variants[1].name: the name 'a/b' cannot name"),
    (('name = "all"', 'name = "base"'), "variants: variant names must differ"),
    (('params = { discard = "all" }', "params = [1]"),
     "variants[1].params: Input should be a valid dictionary, got [1]"),
    (("[[variants]]\nname = \"base\"", "[other]\nname = \"base\""), "unknown key 'other'"),
    (('[[variants]]\nname = "base"\n[[variants]]\nname = "all"\nparams = { discard = "all" }',
      '[variants]\nname = "all"'), "variants: Input should be a valid list"),
    (('game = "paris-damis"', "game = 3"), "game: Input should be a valid string, got 3"),
    (('game = "paris-damis"', 'game = "paris-damis"\ntournament = [1]'),
     "tournament: Input should be a valid dictionary"),
    (('game = "paris-damis"', 'game = "paris-damis"\ntournament = { agents = ["random", '
                              '"greedy"], games = "x" }'), "tournament.games: Input should "
                                                            "be a valid integer, got 'x'"),
    (('game = "paris-damis"', 'game = "paris-damis"\ntournament = { agents = ["random"] }'),
     "tournament.agents: List should have at least 2 items"),
    (('"table_time"]', '"table_time", 3]'), "analyses[4]: Input should be a valid string"),
])
def test_bad_files_are_one_line_exit_2_and_write_nothing(tmp_path, change, message):
    path = write(tmp_path, SMALL.replace(*change))
    out = tmp_path / "out"
    code, _, stderr = experiment_main(path, "--out", out)
    assert code == 2 and stderr.count("\n") == 1 and message in stderr, stderr
    assert not out.exists()


def test_missing_file_and_bad_games(tmp_path):
    code, _, stderr = experiment_main(tmp_path / "none.toml")
    assert code == 2 and "cannot read" in stderr
    code, _, stderr = experiment_main(write(tmp_path, SMALL), "--games", 0)
    assert code == 2 and "--games must be at least 1" in stderr


# --------------------------------------------------------------------------------------
# Question analyses on hand-built tables
# --------------------------------------------------------------------------------------
def toy_run(players: pd.DataFrame, games: pd.DataFrame | None = None,
            rounds: pd.DataFrame | None = None, n: int = 2) -> Run:
    manifest = {"spec": {"game": "paris-damis", "params": {}, "agents": ["a", "b"][:n],
                         "seed": 0}}
    games = games if games is not None else pd.DataFrame(
        {"game_id": players["game_id"].unique()})
    return Run(Path("toy"), manifest, games, players, rounds, "toy")


def test_scoring_counts_games_whose_winner_depends_on_the_rule():
    points = {  # game 0: seat 0 best on both; game 1: seat 0 lowest-suit, seat 1 total
        "game_id": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
        "points_hearts": [3, 1, 2, 0], "points_diamonds": [3, 1, 2, 9],
        "points_spades": [3, 1, 2, 9], "points_clubs": [3, 1, 2, 9]}
    figures = questions.scoring(toy_run(pd.DataFrame(points)))
    assert figures["winner_differs"] == pytest.approx(0.5)
    assert figures["winner_differs_low"] < 0.5 < figures["winner_differs_high"]


def test_table_time_counts_each_kind_of_action_at_its_pace():
    # two 2-player games of 2 rounds: 10 and 9 decisions
    games = pd.DataFrame({"game_id": [0, 1], "decisions": [10, 9]})
    players = pd.DataFrame({"game_id": [0, 0, 1, 1], "seat": [0, 1, 0, 1]})
    rounds = pd.DataFrame({"game_id": [0] * 4 + [1] * 4, "round": [1, 1, 2, 2] * 2,
                           "seat": [0, 1] * 4, "cards_placed": [2, 1, 1, 0, 1, 0, 0, 0]})
    toy = toy_run(players, games, rounds)
    run = Run(toy.path, {"spec": toy.manifest["spec"] | {"params": {"mulligan": "true"}}},
              games, players, rounds, "toy")
    counts = questions.actions(run)
    # game 0: 4 placements, 4 bets, 2 hand changes (round 2), so 0 discards
    assert counts.loc[0].to_dict() == {"placement": 4, "bet": 4, "discard": 0,
                                       "hand_change": 2, "deal": 2, "shuffle": 1}
    assert counts.loc[1, "discard"] == 2 and counts.loc[1, "placement"] == 1
    figures = questions.table_time(run)
    brisk = sum(counts.mean()[kind] * low for kind, (low, _) in questions.PACE.items()) / 60
    assert figures["table_minutes_low"] == pytest.approx(brisk)
    assert figures["table_minutes_low"] < figures["table_minutes"] \
        < figures["table_minutes_high"]
    assert figures["minutes_per_player"] == pytest.approx(figures["table_minutes"] / 2)


def test_odd_hand_finds_an_odd_bonus_planted_in_the_data():
    rng = np.random.default_rng(0)
    rows, players = [], []
    for game in range(400):
        for seat in range(2):
            previous = int(rng.integers(2, 12))       # hand at the end of round 0
            for rnd in range(1, 5):
                # an odd hand at the end of the previous round is worth 0.5 points cards now
                won = rng.poisson(1.0 + 0.05 * previous + 0.5 * (previous % 2))
                hand = int(rng.integers(2, 12))
                rows.append({"game_id": game, "seat": seat, "round": rnd, "hand_end": hand,
                             "points_cards_won": won, "exchanged": False})
                previous = hand
            players.append({"game_id": game, "seat": seat, "win_share": 0.5})
    figures = questions.odd_hand(toy_run(pd.DataFrame(players),
                                         rounds=pd.DataFrame(rows)))
    # the bonus shows in the next round's points: 0.5 cards, within the interval
    assert figures["odd_hand_next_points_low"] < 0.5 < figures["odd_hand_next_points_high"]
    assert figures["odd_hand_next_points_low"] > 0.2
    # win shares are flat, so the game-level figure finds nothing
    assert figures["odd_hand_win_share"] == pytest.approx(0, abs=1e-9)


def test_deck_shortage_counts_short_deals_after_round_one():
    rounds = pd.DataFrame({"game_id": [0, 0, 0, 0, 1, 1, 1, 1],
                           "round": [1, 1, 2, 2, 1, 1, 2, 2], "seat": [0, 1] * 4,
                           "cards_short": [0, 0, 2, 0, 0, 0, 0, 0]})
    games = pd.DataFrame({"game_id": [0, 1]})
    figures = questions.deck_shortage(toy_run(pd.DataFrame({"game_id": [0, 1]}), games,
                                              rounds))
    assert figures["short_games"] == pytest.approx(0.5)
    assert figures["short_rounds"] == pytest.approx(0.25)
    assert figures["mean_cards_short"] == pytest.approx(0.5)


def test_the_shortage_is_told_by_who_bears_it():
    # round 2: seat 0, right in round 1, is owed the most and is short 3 cards; seat 1 none
    rounds = pd.DataFrame({"game_id": [0, 0, 0, 0, 1, 1, 1, 1],
                           "round": [1, 1, 2, 2, 1, 1, 2, 2], "seat": [0, 1] * 4,
                           "bet_correct": [True, False, False, False, True, False, True, True],
                           "cards_short": [0, 0, 3, 0, 0, 0, 1, 0]})
    players = pd.DataFrame({"game_id": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
                            "win_share": [0.0, 1.0, 1.0, 0.0]})
    figures = questions.shortage_bearers(rounds, players)
    assert figures["short_after_correct"] == pytest.approx(2.0)     # 3 and 1
    assert figures["short_after_wrong"] == pytest.approx(0.0)
    assert figures["short_winners"] == pytest.approx(0.5)           # 0 and 1
    assert figures["short_others"] == pytest.approx(1.5)            # 3 and 0


def test_steal_counts_the_last_bettors_points_and_the_sweeps():
    # game 0: round 1 seat 1 bets last and wins 3 of 4 points cards; round 2 seat 0 bets
    # last and sweeps all 2. game 1: round 1 the first bettor sweeps all 3.
    rounds = pd.DataFrame({"game_id": [0, 0, 0, 0, 1, 1], "round": [1, 1, 2, 2, 1, 1],
                           "seat": [0, 1, 0, 1, 0, 1], "bet_position": [0, 1, 1, 0, 0, 1],
                           "points_cards_won": [1, 3, 2, 0, 3, 0], "k": [2, 2, 1, 1, 1, 1]})
    figures = questions.steal(toy_run(pd.DataFrame({"game_id": [0, 1]}),
                                      pd.DataFrame({"game_id": [0, 1]}), rounds))
    assert figures["last_bettor_points"] == pytest.approx(5 / 9)
    assert figures["sweeps"] == pytest.approx(2 / 3)
    assert figures["sweeps_low"] <= 2 / 3 <= figures["sweeps_high"]
