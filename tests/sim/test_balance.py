"""Balance figures that do not saturate (sim.analysis.balance): the skill and luck shares of
a table's results, the snowball of a won round, decisive leads and lead changes, and the
decisions that matter, on tables whose answer is known."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim.analysis.balance import (
    decisions_that_matter,
    lead_changes,
    leader_wins,
    luck_share,
    matters,
    pooled,
    skill_share,
    snowball,
)


def table_games(rng, strengths, games):
    """Players rows of ``games`` games between agents of the given winning chances (one
    winner a game, drawn from ``strengths``)."""
    names = list(strengths)
    p = np.array(list(strengths.values()), dtype=float)
    winners = rng.choice(len(names), size=games, p=p / p.sum())
    return pd.DataFrame([{"game_id": g, "seat": s, "agent": names[s],
                          "win_share": float(winners[g] == s)}
                         for g in range(games) for s in range(len(names))])


def test_equal_players_leave_everything_to_luck():
    players = table_games(np.random.default_rng(1), {"a": 1, "b": 1, "c": 1}, 3000)
    assert skill_share(players) == pytest.approx(0, abs=0.01)
    luck = luck_share(players, resamples=50)
    assert luck["luck_low"] <= luck["luck"] <= luck["luck_high"]
    assert luck["luck_high"] == pytest.approx(1, abs=1e-9)


def test_a_player_who_always_wins_leaves_nothing_to_luck():
    players = table_games(np.random.default_rng(2), {"a": 1, "b": 0, "c": 0}, 500)
    assert skill_share(players) == pytest.approx(1)
    assert luck_share(players, resamples=20)["luck"] == pytest.approx(0)


def test_the_skill_share_grows_with_the_gap_between_players():
    rng = np.random.default_rng(3)
    shares = [skill_share(table_games(rng, {"a": w, "b": 1, "c": 1}, 4000))
              for w in (1.5, 3, 10)]
    assert shares == sorted(shares) and shares[0] > 0


def test_one_agent_has_no_luck_share():
    players = table_games(np.random.default_rng(4), {"a": 1}, 10)
    assert luck_share(players) == {}


def rounds_table(rng, games, rounds, persist, rates):
    """Rounds of two seats whose agents win a round with chance ``rates[seat]``, or, with
    chance ``persist``, as they did in the round before."""
    rows = []
    for g in range(games):
        for seat, rate in enumerate(rates):
            won = rng.random() < rate
            for r in range(1, rounds + 1):
                if r > 1 and rng.random() >= persist:
                    won = rng.random() < rate
                rows.append({"game_id": g, "round": r, "seat": seat, "bet_correct": won,
                             "points_cards_won": 2 * won})
    return pd.DataFrame(rows)


def players_of(rounds_frame):
    seats = rounds_frame[["game_id", "seat"]].drop_duplicates()
    return seats.assign(agent=seats["seat"].map({0: "good", 1: "poor"}))


def test_a_won_round_that_repeats_itself_is_a_snowball():
    frame = rounds_table(np.random.default_rng(5), 400, 8, 0.5, [0.5, 0.5])
    ball = snowball(frame)
    assert ball["snowball_low"] > 0.4 and ball["snowball"] == pytest.approx(0.5, abs=0.05)
    assert ball["after_win"] > ball["after_loss"]
    cards = snowball(frame, "bet_correct", "points_cards_won")
    assert cards["snowball"] == pytest.approx(2 * ball["snowball"])


def test_independent_rounds_have_no_snowball_once_the_agent_is_accounted_for():
    frame = rounds_table(np.random.default_rng(6), 600, 8, 0.0, [0.8, 0.2])
    raw = snowball(frame)
    assert raw["snowball_low"] > 0.2                 # the good agent wins both rounds
    same_agent = snowball(frame, players=players_of(frame))
    assert same_agent["snowball_low"] < 0 < same_agent["snowball_high"]


def test_no_snowball_without_both_outcomes():
    frame = rounds_table(np.random.default_rng(7), 5, 3, 0.0, [1.0, 1.0])
    assert snowball(frame) == {}


def standings(rng, games, rounds, decided):
    """Rounds of three seats whose scores grow at random; with ``decided`` the final leader
    wins, without it the winner is drawn at random."""
    rows, winners = [], []
    for g in range(games):
        score = np.zeros(3, dtype=int)
        for r in range(1, rounds + 1):
            score += rng.integers(0, 4, size=3)
            rows += [{"game_id": g, "round": r, "seat": s, "score": int(score[s])}
                     for s in range(3)]
        winners.append(int(np.argmax(score)) if decided else int(rng.integers(3)))
    players = pd.DataFrame([{"game_id": g, "seat": s, "win_share": float(winners[g] == s)}
                            for g in range(games) for s in range(3)])
    return pd.DataFrame(rows), players


def test_a_lead_holds_more_often_late_when_the_score_decides():
    frame, players = standings(np.random.default_rng(8), 800, 8, decided=True)
    table = leader_wins(frame, players).set_index("round")
    assert list(table.index) == list(range(1, 9))
    assert table.loc[8, "holds"] > 0.95            # ties at the end go to the first seat
    assert table.loc[2, "holds"] < table.loc[7, "holds"]
    assert (table["low"] <= table["holds"] + 1e-12).all()
    assert (table["holds"] <= table["high"] + 1e-12).all()


def test_a_lead_means_nothing_when_the_winner_is_drawn_at_random():
    frame, players = standings(np.random.default_rng(9), 1500, 4, decided=False)
    table = leader_wins(frame, players)
    assert ((table["low"] < 1 / 3) & (1 / 3 < table["high"])).sum() >= 3


def test_games_that_always_tie_have_no_leader_and_no_rows():
    # a mirror table of a bot that always ties (met by sim.metagame): no round has a
    # single leader, so no figure, rather than an error
    frame, players = standings(np.random.default_rng(10), 20, 3, decided=True)
    frame["score"] = 0
    table = leader_wins(frame, players)
    assert table.empty
    assert {"round", "n", "wins", "holds", "low", "high"} <= set(table.columns)


def test_pooled_estimates_weigh_their_values_and_errors():
    z = 1.959963984540054
    estimates = [{"x": 1.0, "x_low": 1.0 - z * 0.1, "x_high": 1.0 + z * 0.1},
                 {"x": 3.0, "x_low": 3.0 - z * 0.2, "x_high": 3.0 + z * 0.2}]
    both = pooled(estimates, "x", [1, 1])
    assert both["x"] == pytest.approx(2.0)
    half_width = z * np.sqrt(0.25 * 0.01 + 0.25 * 0.04)
    assert both["x_high"] - both["x"] == pytest.approx(half_width)
    assert pooled(estimates, "x", [1, 0])["x"] == pytest.approx(1.0)


def scores(*by_round):
    """Rounds of one game: ``by_round[r]`` the seats' scores after round r + 1."""
    return pd.DataFrame([{"game_id": 0, "round": r + 1, "seat": s, "score": v}
                         for r, row in enumerate(by_round) for s, v in enumerate(row)])


def test_a_lead_change_is_a_new_sole_leader_and_a_tie_changes_nothing():
    game = scores([3, 1, 0], [4, 2, 0], [4, 6, 1], [6, 6, 2], [9, 6, 2])
    other = scores([1, 0, 0], [2, 0, 0]).assign(game_id=1)      # one leader all along
    changes = lead_changes(pd.concat([game, other]))
    # seat 0 leads, then seat 1 (1), a tie, then seat 0 again (2)
    assert changes["lead_changes"] == pytest.approx(1.0)
    assert changes["games_with_change"] == pytest.approx(0.5)
    assert changes["lead_changes_low"] < 1.0 < changes["lead_changes_high"]


def test_random_scores_change_leader_more_often_than_a_runaway():
    rng = np.random.default_rng(10)
    random_frame, _ = standings(rng, 300, 8, decided=False)
    runaway = random_frame.assign(score=random_frame["score"]
                                  + 100 * random_frame["round"] * (random_frame["seat"] == 0))
    assert lead_changes(runaway)["lead_changes_high"] < 0.05
    assert lead_changes(random_frame)["lead_changes_low"] > 0.5


def judged(rows):
    """A decisions table from (game, agent, phase, margin, margin_se, agrees, regret)."""
    return pd.DataFrame([{"game_id": g, "agent": a, "phase": p, "margin": m, "margin_se": se,
                          "agrees": ok, "regret": lost}
                         for g, a, p, m, se, ok, lost in rows])


def test_a_decision_matters_when_its_lead_is_large_and_beyond_noise():
    frame = judged([(0, "a", "bet", 0.20, 0.01, True, 0.0),     # large and sure
                    (0, "a", "bet", 0.20, 0.15, True, 0.0),     # large but noisy
                    (0, "a", "bet", 0.02, 0.001, True, 0.0),    # sure but small
                    (0, "a", "bet", 0.05, 0.01, True, 0.0)])    # at the margin
    assert list(matters(frame)) == [True, False, False, True]
    assert list(matters(frame, margin=0.1)) == [True, False, False, False]


def test_decisions_that_matter_by_phase_and_agent():
    rng = np.random.default_rng(11)
    rows = []
    for g in range(200):
        for _ in range(10):          # bets matter, discards do not
            rows.append((g, "good", "bet", 0.3, 0.02, rng.random() < 0.9, 0.01))
            rows.append((g, "poor", "bet", 0.3, 0.02, rng.random() < 0.4, 0.2))
            rows.append((g, "good", "discard", 0.01, 0.02, True, 0.0))
    figures = decisions_that_matter(judged(rows))
    assert figures["matters"] == pytest.approx(2 / 3)
    assert figures["matters_low"] <= 2 / 3 <= figures["matters_high"]
    assert (figures["decisions"], figures["games"]) == (6000, 200)
    phases = figures["by_phase"].set_index("phase")
    assert phases.loc["bet", "matters"] == 1.0 and phases.loc["discard", "matters"] == 0.0
    assert phases.loc["discard", "low"] == 0.0                  # clipped to a share
    agents = figures["by_agent"].set_index("agent")
    assert agents.loc["good", "best_chosen"] == pytest.approx(0.9, abs=0.03)
    assert agents.loc["poor", "best_chosen"] == pytest.approx(0.4, abs=0.03)
    assert agents.loc["poor", "regret"] == pytest.approx(0.2)
    assert agents.loc["good", "matters"] == pytest.approx(0.5)
