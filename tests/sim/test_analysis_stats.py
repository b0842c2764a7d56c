"""The figures of one run (sim.analysis.stats) on tiny hand-built tables, checked against
hand-computed values and scipy; the calibration of the Wilson intervals they report."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

from sim import stats as base_stats
from sim.analysis import Run, analyze, stats

# Four games, two seats; game 1 is a shared win, agents swap seats every game.
PLAYERS = pd.DataFrame({
    "game_id": [0, 0, 1, 1, 2, 2, 3, 3],
    "seat": [0, 1] * 4,
    "agent": pd.Categorical(["a", "b", "b", "a", "a", "b", "b", "a"]),
    "win_share": np.array([1, 0, 0.5, 0.5, 0, 1, 1, 0], dtype=np.float32),
    "score": np.array([5, 3, 4, 4, 2, 7, 6, 1], dtype=np.float32),
    "rank": np.array([1, 2, 1, 1, 2, 1, 1, 2], dtype=np.int8),
    "decisions": [10, 12, 11, 9, 10, 10, 13, 7],
})

GAMES = pd.DataFrame({
    "game_id": [0, 1, 2, 3],
    "decisions": np.array([22, 20, 20, 20], dtype=np.int32),
    "rounds": np.array([2, 2, 2, 2], dtype=np.int16),
    "shared_win": [False, True, False, False],
    "decided_by_bet_tiebreak": [True, False, False, False],
})

# Two games of two rounds, two seats: one row per round and seat (k repeats across seats).
ROUNDS = pd.DataFrame({
    "game_id": [0, 0, 0, 0, 1, 1, 1, 1],
    "round": [1, 1, 2, 2, 1, 1, 2, 2],
    "seat": [0, 1] * 4,
    "bet": [1, 2, 2, 2, 1, 1, 2, 1],
    "bet_position": [0, 1, 1, 0, 0, 1, 1, 0],
    "bet_correct": [True, False, True, True, False, False, True, False],
    "k": [1, 1, 2, 2, 0, 0, 2, 2],
    "hand_start": [8, 8, 10, 6, 8, 8, 9, 11],
    "hand_end": [5, 7, 6, 2, 4, 6, 5, 9],
})


def scipy_wilson(k: int, n: int) -> tuple[float, float]:
    ci = scipy_stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return ci.low, ci.high


def toy_run(rounds: pd.DataFrame | None, **params: str) -> Run:
    manifest = {"status": "complete", "spec": {"game": "toy", "agents": ["a", "b"],
                                               "seed": 0, "params": params}}
    return Run(path=Path("toy"), manifest=manifest, games=GAMES, players=PLAYERS,
               rounds=rounds, label="toy")


# --------------------------------------------------------------------------------------
# Win shares
# --------------------------------------------------------------------------------------
def test_win_share_by_seat_counts_shared_wins_fractionally():
    table = stats.win_share(PLAYERS, "seat")
    assert list(table.columns) == ["seat", "n", "wins", "share", "low", "high"]
    assert table["seat"].tolist() == [0, 1]
    assert table["n"].tolist() == [4, 4]
    assert table["wins"].tolist() == [2.5, 1.5]
    assert table["share"].tolist() == [0.625, 0.375]
    for row in table.itertuples():
        assert (row.low, row.high) == base_stats.wilson_interval(row.wins, 4)


def test_win_share_by_agent_and_by_several_columns():
    by_agent = stats.win_share(PLAYERS, "agent")
    assert by_agent["agent"].tolist() == ["a", "b"]
    assert by_agent["wins"].tolist() == [1.5, 2.5]
    both = stats.win_share(PLAYERS, ["seat", "agent"])
    assert list(both.columns[:2]) == ["seat", "agent"]
    assert both[["seat", "agent", "n", "wins"]].values.tolist() == [
        [0, "a", 2, 1.0], [0, "b", 2, 1.5], [1, "a", 2, 0.5], [1, "b", 2, 1.0]]


def test_win_share_interval_matches_scipy_for_whole_wins_and_takes_confidence():
    players = pd.DataFrame({"game_id": range(10), "seat": [0] * 10,
                            "win_share": [1.0] * 3 + [0.0] * 7})
    row = stats.win_share(players).iloc[0]
    assert (row["low"], row["high"]) == pytest.approx(scipy_wilson(3, 10), abs=1e-12)
    wide = stats.win_share(players, confidence=0.99).iloc[0]
    assert wide["low"] < row["low"] and wide["high"] > row["high"]


def test_seat_equality_is_the_chi_square_of_wins_by_seat():
    result = stats.seat_equality(PLAYERS)
    # wins 2.5 and 1.5 against 2 and 2: (0.25 + 0.25) / 2
    assert result["chi2"] == pytest.approx(0.25)
    assert result["dof"] == 1
    assert result["p_value"] == pytest.approx(scipy_stats.chi2.sf(0.25, 1))
    assert result["games"] == 4


@pytest.mark.parametrize("first_seat, share", [(0, 0.625), (1, 0.375)])
def test_first_player_edge_is_the_share_above_one_over_k(first_seat, share):
    edge = stats.first_player_edge(PLAYERS, first_seat)
    low, high = base_stats.wilson_interval(share * 4, 4)
    assert edge == pytest.approx({"share": share, "fair": 0.5, "edge": share - 0.5,
                                  "low": low - 0.5, "high": high - 0.5})


def test_wilson_intervals_cover_the_true_proportion_at_the_nominal_rate():
    rng = np.random.default_rng(0)
    for trials, p in [(200, 0.25), (400, 0.05), (1000, 0.5)]:
        successes = rng.binomial(trials, p, size=2000)
        covered = [low <= p <= high for low, high in
                   (base_stats.wilson_interval(k, trials) for k in successes)]
        assert 0.93 <= np.mean(covered) <= 0.97, (trials, p)


# --------------------------------------------------------------------------------------
# Bets and rounds
# --------------------------------------------------------------------------------------
def test_bet_accuracy_overall_and_by_value():
    overall = stats.bet_accuracy(ROUNDS)
    assert list(overall.columns) == ["n", "correct", "accuracy", "low", "high"]
    assert overall[["n", "correct", "accuracy"]].values.tolist() == [[8, 4, 0.5]]
    assert (overall.loc[0, "low"], overall.loc[0, "high"]) == pytest.approx(
        scipy_wilson(4, 8), abs=1e-12)
    by_bet = stats.bet_accuracy(ROUNDS, "bet")
    assert by_bet[["bet", "n", "correct"]].values.tolist() == [[1, 4, 1], [2, 4, 3]]
    assert by_bet["accuracy"].tolist() == [0.25, 0.75]


def test_bet_accuracy_by_value_and_position():
    table = stats.bet_accuracy(ROUNDS, ["bet", "bet_position"])
    assert table[["bet", "bet_position", "n", "correct"]].values.tolist() == [
        [1, 0, 3, 1], [1, 1, 1, 0], [2, 0, 1, 1], [2, 1, 3, 2]]


def test_bet_accuracy_by_agent_joins_the_players_table():
    players = pd.DataFrame({"game_id": [0, 0, 1, 1], "seat": np.array([0, 1, 0, 1], np.int8),
                            "agent": ["x", "y", "y", "y"]})
    table = stats.bet_accuracy(ROUNDS, "agent", players)
    # x: game 0 seat 0 (2 of 2 correct); y: game 0 seat 1 (1 of 2), game 1 (1 of 4)
    assert table[["agent", "n", "correct"]].values.tolist() == [["x", 2, 2], ["y", 6, 2]]
    with pytest.raises(ValueError, match="agent needs the players table"):
        stats.bet_accuracy(ROUNDS, "agent")


def test_k_distribution_counts_each_round_once():
    table = stats.k_distribution(ROUNDS)
    assert table.values.tolist() == [[0, 1, 0.25], [1, 1, 0.25], [2, 2, 0.5]]
    assert list(table.columns) == ["k", "rounds", "share"]


def test_hand_size_by_round_means():
    table = stats.hand_size_by_round(ROUNDS)
    assert table.values.tolist() == [[1, 8.0, 5.5, 4], [2, 9.0, 5.5, 4]]
    assert list(table.columns) == ["round", "hand_start", "hand_end", "n"]


# --------------------------------------------------------------------------------------
# Lengths, histograms, margins, ranks, decisive games
# --------------------------------------------------------------------------------------
def test_length_describes_a_games_column():
    games = pd.DataFrame({"decisions": [50, 10, 40, 20, 30]})
    assert stats.length(games) == pytest.approx({
        "mean": 30.0, "std": math.sqrt(250), "min": 10.0, "p5": 12.0, "p25": 20.0,
        "median": 30.0, "p75": 40.0, "p95": 48.0, "max": 50.0, "n": 5})


def test_describe_of_tiny_samples_is_nan_not_an_error():
    empty = base_stats.describe([])
    assert empty["n"] == 0
    assert all(math.isnan(v) for k, v in empty.items() if k != "n")
    one = base_stats.describe([7])
    assert one["mean"] == one["max"] == 7.0 and math.isnan(one["std"])


def test_decisions_per_player():
    result = stats.decisions_per_player(PLAYERS)
    assert result["n"] == 8
    assert result["mean"] == pytest.approx(10.25)
    assert result["min"] == 7 and result["max"] == 13


def test_histogram_gives_small_integer_ranges_one_bin_per_value():
    table = stats.histogram(np.array([3, 3, 4, 6]))
    assert table.values.tolist() == [[2.5, 3.5, 2], [3.5, 4.5, 1], [4.5, 5.5, 0],
                                     [5.5, 6.5, 1]]


def test_histogram_uses_numpy_bins_otherwise():
    floats = np.random.default_rng(1).normal(size=500)
    counts, edges = np.histogram(floats, bins="auto")
    table = stats.histogram(floats)
    assert table["count"].tolist() == counts.tolist()
    assert table["left"].tolist() == edges[:-1].tolist()
    assert table["right"].tolist() == edges[1:].tolist()
    wide = np.arange(0, 10_000, 7)
    assert len(stats.histogram(wide)) == len(np.histogram(wide, bins="auto")[0])
    assert stats.histogram([1, 2, 3, 4], bins=2)["count"].tolist() == [2, 2]


def test_margins_are_best_minus_second_best_score():
    shuffled = PLAYERS.sample(frac=1, random_state=3)
    result = stats.margins(shuffled)
    assert result.index.tolist() == [0, 1, 2, 3]
    assert result.tolist() == [2.0, 0.0, 5.0, 5.0]    # game 1 is a tie for first


def test_rank_distribution_shares_sum_to_one_per_seat():
    table = stats.rank_distribution(PLAYERS)
    assert list(table.columns) == ["seat", "rank", "count", "share"]
    assert table[["seat", "rank", "count", "share"]].values.tolist() == [
        [0, 1, 3, 0.75], [0, 2, 1, 0.25], [1, 1, 2, 0.5], [1, 2, 2, 0.5]]


def test_decisive_games_with_and_without_the_tiebreak_column():
    result = stats.decisive(GAMES)
    assert result == {"shared_win": base_stats.proportion(1, 4),
                      "tiebreak": base_stats.proportion(1, 4)}
    assert set(stats.decisive(GAMES.drop(columns="decided_by_bet_tiebreak"))) == {
        "shared_win"}


# --------------------------------------------------------------------------------------
# analyze
# --------------------------------------------------------------------------------------
ALWAYS = {"win_share_by_seat", "win_share_by_agent", "seat_equality", "first_player_edge",
          "decisions", "rounds", "decisions_per_player", "decisions_histogram", "margins",
          "rank_distribution", "decisive", "luck"}
WITH_ROUNDS = {"bet_accuracy", "bet_accuracy_by_value", "bet_accuracy_by_position",
               "bet_accuracy_by_round", "bet_accuracy_by_agent",
               "bet_accuracy_by_value_position", "k_distribution", "hand_size_by_round",
               "snowball"}


def test_analyze_computes_every_figure_the_tables_support():
    figures = analyze(toy_run(ROUNDS))
    assert set(figures) == ALWAYS | WITH_ROUNDS
    pd.testing.assert_frame_equal(figures["bet_accuracy_by_agent"],
                                  stats.bet_accuracy(ROUNDS, "agent", PLAYERS))
    assert figures["first_player_edge"] == stats.first_player_edge(PLAYERS, 0)


def test_analyze_leaves_out_what_the_tables_lack():
    assert set(analyze(toy_run(None))) == ALWAYS
    no_bets = analyze(toy_run(ROUNDS.drop(columns=["bet", "bet_correct"])))
    assert set(no_bets) == ALWAYS | {"k_distribution", "hand_size_by_round"}


def test_analyze_uses_the_runs_first_player():
    figures = analyze(toy_run(None, first_player="1"))
    assert figures["first_player_edge"]["share"] == 0.375
