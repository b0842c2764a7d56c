"""sim.analysis.ratings: pairwise outcomes, Bradley–Terry fits, head to head, the skill chain,
luck and tournament lineups, on hand-built and simulated tables."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize
from scipy.special import expit

from sim.analysis import ratings


def table(games: list[list[tuple[str, int]]], match: int = 0) -> pd.DataFrame:
    """A players table from games given as [(agent, rank) per seat]."""
    rows = [{"match": match, "game_id": g, "seat": s, "agent": agent, "rank": rank}
            for g, seats in enumerate(games) for s, (agent, rank) in enumerate(seats)]
    return pd.DataFrame(rows)


def simulated(strength: dict[str, float], games: int, seed: int) -> pd.DataFrame:
    """Four-seat games whose finishing order follows a Plackett–Luce model (the multi-player
    Bradley–Terry): each next place goes to a remaining player with odds e^θ."""
    rng = np.random.default_rng(seed)
    names = list(strength)
    rows = []
    for g in range(games):
        seats = list(rng.choice(names, size=4))
        left = list(range(4))
        rank = {}
        for place in range(1, 5):
            odds = np.array([math.exp(strength[seats[i]]) for i in left])
            pick = left[rng.choice(len(left), p=odds / odds.sum())]
            rank[pick] = place
            left.remove(pick)
        rows += [{"match": 0, "game_id": g, "seat": s, "agent": seats[s], "rank": rank[s]}
                 for s in range(4)]
    return pd.DataFrame(rows)


def test_pairwise_reads_each_pair_of_different_agents_once():
    players = table([[("a", 1), ("b", 2), ("a", 3)],      # a>b, a=a skipped, b>a
                     [("b", 1), ("b", 1), ("a", 3)]])     # b=b skipped, b>a twice
    pairs = ratings.pairwise(players)
    got = sorted(zip(pairs["game"], pairs["agent"], pairs["opponent"], pairs["score"],
                     strict=True))
    assert got == [(0, "a", "b", 1.0), (0, "b", "a", 1.0),
                   (1, "b", "a", 1.0), (1, "b", "a", 1.0)]


def test_ties_score_a_half():
    pairs = ratings.pairwise(table([[("a", 1), ("b", 1)]]))
    assert pairs["score"].tolist() == [0.5]


def test_games_of_different_matches_stay_apart():
    players = pd.concat([table([[("a", 1), ("b", 2)]], match=0),
                         table([[("a", 2), ("b", 1)]], match=1)])
    pairs = ratings.pairwise(players)
    assert sorted(pairs["game"]) == [0, 1]


def test_two_agent_rating_is_the_log_odds_of_the_record():
    # 30 wins of a over b and 10 of b over a: θa − θb = ln 3 (up to the virtual draw)
    games = [[("a", 1), ("b", 2)]] * 30 + [[("a", 2), ("b", 1)]] * 10
    rated = ratings.ratings(ratings.pairwise(table(games)), anchor="b", resamples=20)
    a = rated.set_index("agent").loc["a"]
    expected = ratings.ELO * math.log(30.5 / 10.5)
    assert a["rating"] == pytest.approx(expected, rel=1e-4)
    assert rated.set_index("agent").loc["b", "rating"] == 0
    assert a["low"] < a["rating"] < a["high"]


def test_fit_agrees_with_a_generic_optimiser():
    pairs = ratings.pairwise(simulated({"x": 0.0, "y": 0.5, "z": 1.0}, 300, seed=1))
    names = ["x", "y", "z"]
    wins, counts = ratings._tallies(ratings._encode(pairs, names), len(names))
    theta = ratings._fit(wins, counts, anchor=0)
    prior = 1.0 - np.eye(3)
    w, n = wins + prior / 2, counts + prior

    def nll(x):
        t = np.concatenate([[0.0], x])
        p = expit(t[:, None] - t[None, :])
        return -(w * np.log(p)).sum()
    reference = minimize(nll, np.zeros(2), method="Nelder-Mead",
                         options={"xatol": 1e-8, "fatol": 1e-10, "maxiter": 5000}).x
    assert theta[1:] == pytest.approx(reference, abs=1e-3)
    assert n.sum() == pytest.approx(counts.sum() + 6)


def test_ratings_recover_known_strengths_with_covering_intervals():
    strength = {"random": 0.0, "good": 0.7, "best": 1.4}
    rated = ratings.ratings(ratings.pairwise(simulated(strength, 3000, seed=2)), seed=3)
    assert list(rated["agent"]) == ["best", "good", "random"]
    for _, row in rated.iterrows():
        truth = ratings.ELO * strength[row["agent"]]
        assert row["low"] - 40 <= truth <= row["high"] + 40


def test_an_agent_that_always_wins_gets_a_finite_rating():
    games = [[("a", 1), ("b", 2)]] * 50
    rated = ratings.ratings(ratings.pairwise(table(games)), anchor="b", resamples=10)
    assert np.isfinite(rated["rating"]).all() and rated.iloc[0]["agent"] == "a"


def test_head_to_head_counts_both_sides():
    games = [[("a", 1), ("b", 2)]] * 3 + [[("a", 2), ("b", 1)]]
    record = ratings.head_to_head(ratings.pairwise(table(games))).set_index(
        ["agent", "opponent"])
    assert record.loc[("a", "b"), "share"] == pytest.approx(0.75)
    assert record.loc[("b", "a"), "share"] == pytest.approx(0.25)
    assert record.loc[("a", "b"), "n"] == 4


def test_skill_chain_keeps_only_significant_links():
    rated = pd.DataFrame({"agent": ["c", "b", "a"], "rating": [300.0, 20.0, 0.0]})
    record = pd.DataFrame({"agent": ["b", "c", "c"], "opponent": ["a", "a", "b"],
                           "low": [0.45, 0.7, 0.6]})
    # b does not beat a significantly, so the chain goes a -> c
    assert ratings.skill_chain(rated, record) == ["a", "c"]


def test_luck_is_the_weaker_side_s_share():
    games = [[("a", 1), ("b", 2)]] * 3 + [[("a", 2), ("b", 1)]]
    pairs = ratings.pairwise(table(games))
    rated = ratings.ratings(pairs, anchor="b", resamples=10)
    upsets = ratings.luck(rated, ratings.head_to_head(pairs))
    pair = upsets.iloc[0]
    assert (pair["stronger"], pair["weaker"], pair["n"]) == ("a", "b", 4)
    assert pair["share"] == pytest.approx(0.25)
    assert upsets.iloc[-1]["stronger"] == "all"


def test_lineups_are_every_mixed_table():
    got = ratings.lineups(["random", "x"], 3)
    assert got == [("random", "random", "x"), ("random", "x", "x")]
    assert len(ratings.lineups(["a", "b", "c", "d"], 4)) == math.comb(7, 4) - 4
