"""The round-level question analyses (sim.analysis.questions) and the report helpers
(sim.analysis.book) on hand-built tables whose answers are known, plus the experiment files
of the Betzanbloo and Ascenseur reports."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.analysis import Run, questions
from sim.analysis.book import Book, NotRun, interval, intervals, long_form, markdown, share_range
from sim.experiment import Experiment

ROOT = Path(__file__).resolve().parents[2]


def toy_run(players: pd.DataFrame, games: pd.DataFrame | None = None,
            rounds: pd.DataFrame | None = None, agents: tuple[str, ...] = ("a", "b")) -> Run:
    manifest = {"spec": {"game": "toy", "params": {}, "agents": list(agents), "seed": 0}}
    games = games if games is not None else pd.DataFrame(
        {"game_id": players["game_id"].unique()})
    return Run(Path("toy"), manifest, games, players, rounds, "toy")


def around(figures: dict, name: str, value: float) -> None:
    assert figures[name] == pytest.approx(value)
    assert figures[f"{name}_low"] <= value + 1e-12 and figures[f"{name}_high"] >= value - 1e-12


# --------------------------------------------------------------------------------------
# Clustered means
# --------------------------------------------------------------------------------------
def test_clustered_mean_is_the_plain_mean_and_widens_when_games_repeat_a_value():
    rng = np.random.default_rng(1)
    values = pd.Series(rng.normal(size=400))
    independent = questions.clustered_mean("x", values, pd.Series(np.arange(400)))
    assert independent["x"] == pytest.approx(values.mean())
    naive = values.std(ddof=1) / np.sqrt(len(values))
    assert independent["x_high"] - independent["x"] == pytest.approx(1.96 * naive, rel=0.01)
    # the same 100 values each seen 4 times in one game: 100 games' worth of information
    repeated = pd.Series(np.repeat(values[:100].to_numpy(), 4))
    clustered = questions.clustered_mean("x", repeated, pd.Series(np.repeat(np.arange(100),
                                                                             4)))
    half = clustered["x_high"] - clustered["x"]
    assert half == pytest.approx(1.96 * values[:100].std(ddof=1) / 10, rel=0.01)


def test_a_mean_over_nothing_is_nan_not_an_error():
    empty = questions.clustered_mean("x", pd.Series([], dtype=float),
                                      pd.Series([], dtype=int))
    assert np.isnan(empty["x"]) and np.isnan(empty["x_low"])


# --------------------------------------------------------------------------------------
# Betzanbloo-like tables
# --------------------------------------------------------------------------------------
def turns_table() -> pd.DataFrame:
    """Two games of two turns, three seats: game 0 turn 1 all-same, turn 2 lone (seat 2 alone,
    captures 4); game 1 turn 1 lone (seat 0 alone, captures 9), turn 2 split."""
    rows = []
    plan = [(0, 1, 5, "all-same", [7, 8, 9], None, 0),
            (0, 2, 3, "lone", [4, 2, 6], 2, 4),
            (1, 1, 8, "lone", [2, 9, 10], 0, 9),
            (1, 2, 4, "split", [1, 5, 3], None, 0)]
    for game, rnd, threshold, case, cards, lone_seat, captured in plan:
        for seat, card in enumerate(cards):
            lone = seat == lone_seat
            rows.append({"game_id": game, "round": rnd, "threshold": threshold, "seat": seat,
                         "card": card, "case": case, "lone": lone,
                         "saved": case == "all-same" or lone,
                         "captured": captured if lone else 0})
    frame = pd.DataFrame(rows)
    frame["case"] = pd.Categorical(frame["case"], ["all-same", "lone", "split"])
    return frame


def test_resolution_cases_counts_turns_by_threshold_and_turn():
    rounds = turns_table()
    players = pd.DataFrame({"game_id": [0, 1], "seat": [0, 0]})
    figures = questions.resolution_cases(toy_run(players, rounds=rounds))
    assert figures["case_lone"] == pytest.approx(0.5)
    assert figures["case_all-same"] == pytest.approx(0.25)
    assert figures["case_split_threshold_4"] == pytest.approx(1.0)
    assert figures["case_lone_threshold_4"] == pytest.approx(0.0)
    assert figures["case_lone_round_1"] == pytest.approx(0.5)
    assert figures["case_all-same_round_2"] == pytest.approx(0.0)


def test_resolution_cases_reports_a_case_that_never_happened_as_zero():
    rounds = turns_table()
    rounds = rounds[rounds["case"] == "all-same"]
    figures = questions.resolution_cases(toy_run(pd.DataFrame({"game_id": [0]}),
                                                 rounds=rounds))
    assert figures["case_split"] == 0 and figures["case_lone"] == 0


def test_lone_player_adds_own_card_and_capture():
    rounds = turns_table()
    players = pd.DataFrame({"game_id": [0, 0, 0, 1, 1, 1], "seat": [0, 1, 2] * 2,
                            "win_share": [0, 0, 1, 1, 0, 0],
                            "times_lone": [0, 0, 1, 1, 0, 0]})
    games = pd.DataFrame({"game_id": [0, 1, 2], "turns_lone": [1, 1, 0]})
    figures = questions.lone_player(toy_run(players, games, rounds))
    # lone seats kept 6 + 4 and 2 + 9
    around(figures, "lone_turn_points", (10 + 11) / 2)
    # every seat-turn: all-same 7+8+9, lone 10 and 11, split nothing, over 12 seat-turns
    assert figures["turn_points"] == pytest.approx((24 + 10 + 11) / 12)
    assert figures["games_with_capture"] == pytest.approx(2 / 3)
    # the lone players are exactly the winners: one lone turn is worth the whole win
    assert figures["lone_win_share"] == pytest.approx(1.0)


def test_lone_player_without_any_lone_turn_gives_nan_not_an_error():
    rounds = turns_table()
    rounds = rounds[rounds["case"] == "all-same"]
    players = pd.DataFrame({"game_id": [0, 0, 0], "seat": [0, 1, 2],
                            "win_share": [1 / 3] * 3, "times_lone": [0, 0, 0]})
    games = pd.DataFrame({"game_id": [0], "turns_lone": [0]})
    figures = questions.lone_player(toy_run(players, games, rounds))
    assert np.isnan(figures["lone_turn_points"]) and np.isnan(figures["lone_win_share"])
    assert figures["games_with_capture"] == 0


def test_score_summary_reads_the_winners_score():
    players = pd.DataFrame({"game_id": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
                            "score": [10.0, 4.0, 6.0, 6.0], "rank": [1, 2, 1, 1]})
    figures = questions.score_summary(toy_run(players))
    assert figures["mean_score"] == pytest.approx(6.5)
    assert figures["winning_score"] == pytest.approx(8.0)
    assert figures["score_p50"] == pytest.approx(6.0)


def test_lead_score_is_the_first_agents_margin_and_absent_for_one_agent():
    players = pd.DataFrame({"game_id": [0, 0, 0, 1, 1, 1], "seat": [0, 1, 2] * 2,
                            "agent": ["a", "b", "b", "b", "a", "b"],
                            "score": [10.0, 4.0, 6.0, 1.0, 5.0, 3.0]})
    figures = questions.lead_score(toy_run(players))
    around(figures, "lead_score_diff", ((10 - 5) + (5 - 2)) / 2)
    same = players.assign(agent="a")
    assert questions.lead_score(toy_run(same, agents=("a", "a", "a"))) == {}


# --------------------------------------------------------------------------------------
# Ascenseur-like tables
# --------------------------------------------------------------------------------------
def hands_table(games: int = 300, seed: int = 0, dealer_penalty: float = 0.0,
                excuse_tricks: float = 0.0) -> pd.DataFrame:
    """Games of hands of 3, 2 and 1 (blind) cards at 3 seats; the dealer rotates; errors grow
    with the hand size, plus a planted dealer penalty and Excuse bonus."""
    rng = np.random.default_rng(seed)
    rows = []
    for game in range(games):
        total = np.zeros(3)
        for rnd, cards in enumerate((3, 2, 1), start=1):
            dealer = (game + rnd) % 3
            excuse = int(rng.integers(3))
            for seat in range(3):
                held = seat == excuse
                tricks = rng.binomial(1, 0.3) + (excuse_tricks if held else 0.0)
                error = rng.poisson(0.3 * cards + (dealer_penalty if seat == dealer else 0))
                total[seat] += error
                rows.append({"game_id": game, "round": rnd, "cards": cards,
                             "blind": cards == 1, "dealer": dealer, "seat": seat,
                             "bet_position": (seat - dealer - 1) % 3, "tricks": tricks,
                             "error": error, "bet_correct": error == 0,
                             "played_excuse": held})
    return pd.DataFrame(rows)


def test_bid_breakdown_splits_accuracy_by_hand_size_position_and_seat():
    rounds = hands_table(50)
    figures = questions.bid_breakdown(toy_run(pd.DataFrame({"game_id": [0]}), rounds=rounds))
    for cards in (1, 2, 3):
        expected = rounds.loc[rounds["cards"] == cards, "bet_correct"].mean()
        around(figures, f"bet_accuracy_cards_{cards}", expected)
    expected = rounds.loc[rounds["bet_position"] == 2, "bet_correct"].mean()
    around(figures, "bet_accuracy_position_2", expected)
    assert {f"bet_accuracy_seat_{s}" for s in range(3)} <= set(figures)


def test_errors_per_hand_by_size_and_for_the_table():
    rounds = hands_table(50)
    figures = questions.errors_per_hand(toy_run(pd.DataFrame({"game_id": [0]}),
                                                rounds=rounds))
    around(figures, "error_cards_3", rounds.loc[rounds["cards"] == 3, "error"].mean())
    around(figures, "error_per_hand", rounds["error"].sum() / (50 * 3))
    around(figures, "error_per_seat", rounds["error"].mean())


def test_dealer_role_finds_a_planted_dealer_penalty():
    rounds = hands_table(600, dealer_penalty=0.5)
    figures = questions.dealer_role(toy_run(pd.DataFrame({"game_id": [0]}), rounds=rounds))
    assert figures["dealer_error_diff_low"] < 0.5 < figures["dealer_error_diff_high"]
    assert figures["dealer_error"] > figures["other_error"]
    assert figures["dealer_accuracy"] < figures["other_accuracy"]
    fair = questions.dealer_role(toy_run(pd.DataFrame({"game_id": [0]}),
                                         rounds=hands_table(600, seed=3)))
    assert fair["dealer_error_diff_low"] < 0 < fair["dealer_error_diff_high"]


def test_excuse_value_finds_a_planted_extra_trick():
    rounds = hands_table(600, excuse_tricks=0.4)
    figures = questions.excuse_value(toy_run(pd.DataFrame({"game_id": [0]}), rounds=rounds))
    assert figures["excuse_tricks_low"] < 0.4 < figures["excuse_tricks_high"]
    assert figures["excuse_error_low"] < 0 < figures["excuse_error_high"]


def test_blind_hand_finds_games_whose_winner_the_blind_hand_decides():
    # game 0: seat 0 leads before the blind hand and loses it there; game 1: no change
    rows = [(0, 1, False, 0, 0), (0, 1, False, 1, 1), (0, 2, True, 0, 2), (0, 2, True, 1, 0),
            (1, 1, False, 0, 0), (1, 1, False, 1, 2), (1, 2, True, 0, 0), (1, 2, True, 1, 0)]
    rounds = pd.DataFrame(rows, columns=["game_id", "round", "blind", "seat", "error"])
    rounds["bet_correct"] = rounds["error"] == 0
    games = pd.DataFrame({"game_id": [0, 1], "last_hand_cards": [1, 2]})
    figures = questions.blind_hand(toy_run(pd.DataFrame({"game_id": [0, 1]}), games, rounds))
    assert figures["blind_winner_differs"] == pytest.approx(0.5)
    assert figures["games_end_blind"] == pytest.approx(0.5)
    assert figures["blind_error_share"] == pytest.approx(2 / 5)
    assert figures["blind_error"] == pytest.approx(0.5)
    assert figures["blind_accuracy"] == pytest.approx(0.75)


def test_game_rounds_mean_and_percentiles():
    games = pd.DataFrame({"game_id": range(4), "rounds": [5, 7, 9, 11]})
    figures = questions.game_rounds(toy_run(pd.DataFrame({"game_id": range(4)}), games))
    around(figures, "rounds_per_game", 8.0)
    assert figures["rounds_p5"] < 6 and figures["rounds_p95"] > 10


# --------------------------------------------------------------------------------------
# Report helpers and experiment files
# --------------------------------------------------------------------------------------
def test_long_form_reads_a_flat_breakdown_back_by_value():
    cells = pd.DataFrame({"players": [2, 3], "x_cards_1": [0.5, 0.4],
                          "x_cards_1_low": [0.4, 0.3], "x_cards_1_high": [0.6, 0.5],
                          "x_cards_2": [0.2, 0.1], "x_cards_2_low": [0.1, 0.0],
                          "x_cards_2_high": [0.3, 0.2], "x_cards_extra_1": [9, 9]})
    frame = long_form(cells, "x_cards", "cards", ["players"])
    assert frame[["players", "cards", "value"]].values.tolist() == [
        [2, 1, 0.5], [2, 2, 0.2], [3, 1, 0.4], [3, 2, 0.1]]
    assert frame["value_low"].tolist() == [0.4, 0.1, 0.3, 0.0]


def test_interval_formats_and_marks_missing_figures():
    row = pd.Series({"x": 0.25, "x_low": 0.2, "x_high": 0.3, "y": np.nan, "y_low": np.nan,
                     "y_high": np.nan})
    assert interval(row, "x", "pp") == "+25.0 pp [+20.0, +30.0]"
    assert interval(row, "x", "plain") == "0.25 [0.20, 0.30]"
    assert interval(row, "y") == "-"
    assert markdown(pd.DataFrame({"a": [1]})) == "| a |\n| --- |\n| 1 |"
    assert share_range(pd.Series([0.25, 0.5, 0.3])) == "25.0% to 50.0%"
    assert share_range(pd.Series([1.0, 1.0])) == "100.0%"
    both = pd.DataFrame([row, row.replace(0.25, 0.3)])
    assert intervals(both, "x", "plain") == ["0.25 [0.20, 0.30]", "0.30 [0.20, 0.30]"]


def test_book_sends_to_the_experiment_when_it_has_not_run(tmp_path):
    (tmp_path / "q.toml").write_text('title = "T"\nquestion = """Why\nnot?"""\ngame = "x"\n',
                                     encoding="utf-8")
    book = Book(tmp_path, tmp_path)
    with pytest.raises(NotRun):
        book.load(tmp_path / "runs", "q")

    def section(runs: Path) -> str:
        return book.section(1, "T", "q", "yes", pd.DataFrame({"a": [1]}),
                            str(book.load(runs, "q")))
    text = book.section_or_gap(section, 1, tmp_path / "runs", "q-report")
    assert "Why not?" in text and "make q-report" in text and "Not answered yet" in text
    (tmp_path / "runs" / "q").mkdir(parents=True)
    pd.DataFrame({"a": [1]}).to_csv(tmp_path / "runs" / "q" / "cells.csv", index=False)
    text = book.section_or_gap(section, 1, tmp_path / "runs", "q-report")
    assert "**Answer.** yes" in text and "python -m sim.experiment experiments/q.toml" in text
    readme = book.build(tmp_path / "runs", [section], "q-report", "# Title\n\n")
    assert readme.read_text(encoding="utf-8").startswith("# Title\n\n## 1. T\n")


def test_a_section_of_another_command_says_what_to_run(tmp_path):
    book = Book(tmp_path, tmp_path)

    def section(runs: Path) -> str:
        raise NotRun("metagame-3p", "Seats among good players", "Are they fair?",
                     "`python -m sim.metagame x --out runs/m`")
    text = book.section_or_gap(section, 10, tmp_path, "q-report")
    assert text.startswith("## 10. Seats among good players\n\n**Question.** Are they fair?")
    assert "Run `python -m sim.metagame x --out runs/m` (or `make q-report`)" in text


def test_book_summary_bullets_the_answers_or_waits_for_the_experiments(tmp_path):
    book = Book(tmp_path, tmp_path)
    assert book.summary(tmp_path, lambda runs: ["one", "two"], "Later.") == (
        "## Summary\n\nEvery figure here reappears below with its interval and the command "
        "that reproduces it.\n\n- one\n- two\n")
    assert book.summary(tmp_path, lambda runs: book.load(runs, "q")["cells"], "Later.") == (
        "## Summary\n\nLater.\n")


@pytest.mark.parametrize("name", ["betzanbloo-players", "betzanbloo-best-response",
                                  "betzanbloo-variants",
                                  "ascenseur-atouts"])
def test_the_report_experiments_are_valid(name):
    loaded = Experiment.load(ROOT / "experiments" / f"{name}.toml")
    assert loaded.cells and set(loaded.analyses) <= set(questions.ANALYSES)
