"""Betzanbloo rules: every scenario of the specification, the resolution cases, scoring and
ranking, hidden simultaneous choices, parameters and error paths."""

from __future__ import annotations

import numpy as np
import pytest

import engines
from engines.core.api import IllegalActionError
from engines.games.betzanbloo import rules as R
from engines.games.betzanbloo.params import BetzanblooParams
from tests.engines.betzanbloo.betz_helpers import (
    cards,
    check_conservation,
    load,
    play_turn,
    start,
    with_threshold,
)


def legal_texts(state):
    return [a.text for a in state.legal_actions()]


# ======================================================================================
# the specification's test scenarios
# ======================================================================================
def test_scenario_1_lone_player_saves_and_captures_by_choice():
    state = play_turn(start(5), [2, 3, 9])
    assert state.phase == "capture" and state.current_player == 2
    assert legal_texts(state) == ["capture 2", "capture 3"]
    state.apply("capture 3")
    s = state.s
    assert cards(s[R.SAVED + 2]) == {9}
    assert s[R.CAPTURED + 2 * R.VALUES + 3] == 1
    assert cards(s[R.TAKEN + 1]) == {3}
    assert cards(s[R.LOST + 0]) == {2}
    assert cards(s[R.SAVED + 0]) == cards(s[R.SAVED + 1]) == set()
    assert state.phase == "play" and state.current_player == 0
    check_conservation(state)


def test_scenario_1_the_other_capture():
    state = play_turn(start(5), [2, 3, 9])
    state.apply("capture 2")
    assert state.s[R.CAPTURED + 2 * R.VALUES + 2] == 1
    assert cards(state.s[R.LOST + 1]) == {3}
    assert cards(state.s[R.TAKEN + 0]) == {2}


def test_scenario_2_all_above_all_save():
    state = play_turn(start(6, players=4), [7, 8, 9, 10])
    assert [cards(state.s[R.SAVED + p]) for p in range(4)] == [{7}, {8}, {9}, {10}]
    assert state.s[R.HISTORY_CASE] == R.ALL_SAME
    assert state.phase == "play" and int(state.s[R.TURN]) == 1


def test_all_below_all_save_too():
    state = play_turn(start(8, players=3), [1, 5, 7])
    assert [cards(state.s[R.SAVED + p]) for p in range(3)] == [{1}, {5}, {7}]


def test_scenario_3_two_in_each_camp_all_discarded():
    state = play_turn(start(4, players=4), [1, 2, 9, 10])
    assert [cards(state.s[R.LOST + p]) for p in range(4)] == [{1}, {2}, {9}, {10}]
    assert all(state.s[R.SAVED + p] == 0 for p in range(4))
    assert state.s[R.HISTORY_CASE] == R.SPLIT
    check_conservation(state)


def test_scenario_4_the_card_equal_to_the_threshold_is_illegal():
    state = start(5)
    assert "play 5" not in legal_texts(state)
    assert legal_texts(state) == [f"play {v}" for v in (1, 2, 3, 4, 6, 7, 8, 9, 10)]
    with pytest.raises(IllegalActionError, match=r"play 5 is not legal for P0 .*threshold 5"):
        state.apply("play 5")
    assert int(state.s[R.DECISIONS]) == 0


def test_scenario_5_diamonds_saving_5_and_10_scores_6():
    state = start(4, players=3, scoring="diamonds")
    play_turn(state, [5, 6, 7])                     # all above: P0 saves 5
    with_threshold(state, 3)
    play_turn(state, [10, 9, 8])                    # all above: P0 saves 10
    assert cards(state.s[R.SAVED]) == {5, 10}
    assert state.observation(1).score_so_far(0) == 6


def test_diamonds_of_5_and_10():
    pr = R.encode_params(BetzanblooParams(scoring="diamonds"))
    assert pr[R.P_WORTH + 5] + pr[R.P_WORTH + 10] == 6
    assert [int(pr[R.P_WORTH + v]) for v in range(1, 11)] == [1, 2, 3, 4, 5, 5, 4, 3, 2, 1]


# ======================================================================================
# resolution, end of game, ranking
# ======================================================================================
def test_lone_below_captures_from_the_above_camp():
    state = play_turn(start(5, players=4), [1, 9, 10, 6])
    assert state.current_player == 0
    assert legal_texts(state) == ["capture 6", "capture 9", "capture 10"]
    state.apply("capture 10")
    assert cards(state.s[R.SAVED]) == {1}
    assert state.s[R.CAPTURED + 10] == 1
    assert [cards(state.s[R.LOST + p]) for p in (1, 3)] == [{9}, {6}]


def test_a_repeated_value_is_one_capture_action_taken_from_the_lowest_seat():
    state = play_turn(start(5, players=4), [9, 9, 2, 9])
    assert legal_texts(state) == ["capture 9"]
    state.apply("capture 9")
    assert cards(state.s[R.TAKEN + 0]) == {9}
    assert cards(state.s[R.LOST + 1]) == cards(state.s[R.LOST + 3]) == {9}
    assert state.s[R.HISTORY_VICTIM] == 0
    check_conservation(state)


def test_three_against_two_is_a_split():
    state = play_turn(start(5, players=5), [1, 2, 3, 9, 10])
    assert state.s[R.HISTORY_CASE] == R.SPLIT


def test_the_game_lasts_six_turns_and_four_cards_stay_in_hand():
    state = load(players=3).new_state(4)
    rng = np.random.default_rng(0)
    thresholds = []
    while not state.is_terminal():
        thresholds.append(int(state.s[R.THRESHOLD]))
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    assert int(state.s[R.TURN]) == 6
    assert sorted(set(thresholds)) == list(range(3, 9))
    assert all(len(cards(state.s[R.HAND + p])) == 4 for p in range(3))
    assert state.current_player == -1 and state.legal_actions() == []


def test_scores_count_saved_and_captured_cards_not_the_hand():
    state = start(5, players=3)
    play_turn(state, [6, 7, 8])                     # all above: everyone saves
    with_threshold(state, 7)
    play_turn(state, [1, 2, 10])                    # P2 alone above
    state.apply("capture 2")
    while not state.is_terminal():                  # then every card is discarded or kept
        t = int(state.s[R.THRESHOLD])
        low0, low1 = (min(v for v in cards(state.s[R.HAND + p]) if v != t) for p in (0, 1))
        state.apply(f"play {low0}")
        state.apply(f"play {low1}")
        state.apply(state.legal_actions()[0])
        if state.phase == "capture":
            state.apply(state.legal_actions()[0])
    result = state.result()
    s = state.s
    for p in range(3):
        expected = sum(cards(s[R.SAVED + p])) + sum(
            v * int(s[R.CAPTURED + p * R.VALUES + v]) for v in range(R.VALUES))
        assert result.scores[p] == expected
        assert len(cards(s[R.HAND + p])) == 4
    assert {6} <= cards(s[R.SAVED]) and {8, 10} <= cards(s[R.SAVED + 2])
    assert s[R.CAPTURED + 2 * R.VALUES + 2] >= 1
    assert result.details["times_lone"][2] >= 1
    assert sum(result.details["cards_captured"]) == sum(result.details["cards_taken"])


def test_equal_highest_scores_share_the_win():
    state = start(5, players=3)
    s = state.s
    # a finished game with scores 10, 10, 4 written directly into the final state
    s[R.SAVED + 0] = 1 << 10
    s[R.SAVED + 1] = (1 << 6) | (1 << 4)
    s[R.SAVED + 2] = 1 << 4
    R.final_scoring(s, state.game.encoded_params)
    result = state.result()
    assert result.scores == (10.0, 10.0, 4.0)
    assert result.ranks == (1, 1, 3)
    assert result.win_shares == (0.5, 0.5, 0.0)
    assert result.stats["shared_win"]


# ======================================================================================
# simultaneous choices: nothing leaks to later seats of the same turn
# ======================================================================================
def test_a_later_seat_does_not_see_an_earlier_choice_of_the_same_turn():
    state = start(5, players=4)
    before = state.observation(2).array.copy()
    state.apply("play 9")
    state.apply("play 1")
    seen = state.observation(2)
    assert seen.played == (0, 0, 0, 0)
    assert seen.hands[0] == seen.hands[1] == tuple(range(1, 11))
    changed = np.flatnonzero(seen.array != before)
    assert set(changed) <= {R.CURRENT, R.DECISIONS, R.PLAYER_DECISIONS,
                            R.PLAYER_DECISIONS + 1}
    # the same observation whatever P0 and P1 chose
    other = start(5, players=4)
    other.apply("play 2")
    other.apply("play 10")
    assert np.array_equal(other.observation(2).array, seen.array)


def test_choices_are_revealed_once_all_have_chosen():
    state = play_turn(start(5, players=4), [9, 1, 8, 7])    # P1 alone below
    seen = state.observation(3)
    assert seen.played == (9, 1, 8, 7)
    assert seen.hand == tuple(v for v in range(1, 11) if v != 7)
    assert 9 not in seen.hands[0]


def test_a_seat_sees_its_own_choice():
    state = start(5, players=3)
    state.apply("play 9")
    assert state.observation(0).played == (9, 0, 0)
    assert 9 not in state.observation(0).hand
    assert state.observation(1).played == (0, 0, 0)


def test_the_order_of_the_thresholds_to_come_is_hidden():
    a = load(players=3).new_state(1)
    b = load(players=3).new_state(2)
    with_threshold(a, 5)
    with_threshold(b, 5)
    assert not np.array_equal(a.s[R.PILE:R.PILE + 6], b.s[R.PILE:R.PILE + 6])
    assert np.array_equal(a.observation(0).array, b.observation(0).array)
    assert a.observation(0).thresholds_left == (3, 4, 6, 7, 8)


def test_determinize_redraws_hidden_choices_and_keeps_what_the_seat_knows():
    state = start(5, players=4)
    play_turn(state, [9, 1])
    drawn = set()
    for i in range(40):
        world = state.observation(2).determinize(np.random.default_rng(i))
        assert np.array_equal(world.observation(2).array, state.observation(2).array)
        assert world.current_player == 2
        assert world.s[R.PLAYED] not in (0, 5) and world.s[R.PLAYED + 1] not in (0, 5)
        drawn.add((int(world.s[R.PLAYED]), int(world.s[R.PLAYED + 1])))
        check_conservation(world)
    assert len(drawn) > 20
    assert state.s[R.PLAYED] == 9 and state.s[R.PLAYED + 1] == 1


def test_a_stale_observation_cannot_be_determinized():
    state = start(5)
    seen = state.observation(0)
    state.apply("play 1")
    with pytest.raises(ValueError, match="stale observation"):
        seen.determinize(np.random.default_rng(0))


# ======================================================================================
# parameters and error paths
# ======================================================================================
@pytest.mark.parametrize("players", range(3, 9))
def test_every_player_count_plays_to_the_end(players):
    state = load(players=players).new_state(players)
    rng = np.random.default_rng(players)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        check_conservation(state)
    assert len(state.result().scores) == players


def test_twelve_cards_and_dropped_extremes():
    assert legal_texts(start(5, perso_max=12))[-1] == "play 12"
    dropped = legal_texts(start(5, drop_extremes=True))
    assert dropped == [f"play {v}" for v in (2, 3, 4, 6, 7, 8, 9)]
    state = start(5, drop_extremes=True)
    assert len(state.observation(0).hand) == 8
    assert legal_texts(start(5, perso_max=12, drop_extremes=True))[-1] == "play 11"


def test_diamonds_of_11_and_12_follow_the_parameter():
    pr = R.encode_params(BetzanblooParams(scoring="diamonds", perso_max=12))
    assert pr[R.P_WORTH + 11] == pr[R.P_WORTH + 12] == 0
    pr = R.encode_params(BetzanblooParams(scoring="diamonds", perso_max=12, diamonds_11_12=3))
    assert pr[R.P_WORTH + 11] == pr[R.P_WORTH + 12] == 3
    assert pr[R.P_POINTS + 12] == 12


@pytest.mark.parametrize("bad, message", [
    ({"players": 2}, r"players: 2; valid values: 3..8"),
    ({"players": 9}, r"valid values: 3..8"),
    ({"perso_max": 11}, r"perso_max: '11'; valid values: 10, 12"),
    ({"scoring": "stars"}, r"valid values: points, diamonds"),
    ({"colour": "red"}, r"unknown parameter 'colour' .* valid keys: players, perso_max"),
])
def test_bad_parameters_name_the_valid_choices(bad, message):
    with pytest.raises(ValueError, match=message):
        engines.load("betzanbloo", **bad)


def test_parameters_round_trip_through_strings():
    params = BetzanblooParams(players=7, perso_max=12, drop_extremes=True, scoring="diamonds",
                              diamonds_11_12=2)
    assert BetzanblooParams.from_strings(params.to_strings()) == params
    assert engines.load("betzanbloo", players="6", drop_extremes="true").num_players == 6


def test_unknown_actions_and_bad_seats_are_refused_clearly():
    state = start(5)
    with pytest.raises(IllegalActionError, match="not a Betzanbloo action: 'bet 3'"):
        state.apply("bet 3")
    with pytest.raises(IllegalActionError, match="capture 3 is not legal .*phase play"):
        state.apply("capture 3")
    with pytest.raises(ValueError, match=r"no seat 3: seats are 0..2"):
        state.observation(3)
    with pytest.raises(ValueError, match="not over"):
        state.result()


def test_a_hand_without_a_legal_card_is_an_error():
    state = start(5)
    state.s[R.HAND] = 1 << 5                        # B3: cannot happen in a real game
    with pytest.raises(RuntimeError, match="P0 has no legal card.*threshold 5"):
        state.legal_actions()


def test_the_game_is_over_after_the_sixth_turn_and_refuses_more():
    state = load(players=3).new_state(0)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply("play 1")


def test_the_log_reads_like_the_table():
    state = play_turn(start(5), [2, 3, 9])
    state.apply("capture 3")
    assert state.log == ["turn 1: threshold 5", "P0 play 2", "P1 play 3", "P2 play 9",
                         "P2 capture 3",
                         "turn 1 resolved: 2 3 9 — one player alone: P2 saves 9 and "
                         "captures 3 from P1",
                         f"turn 2: threshold {int(state.s[R.THRESHOLD])}"]


def test_a_determinization_depends_only_on_the_observation():
    a = play_turn(start(5, players=4, seed=1), [9, 1])
    b = play_turn(start(5, players=4, seed=2), [2, 10])     # other choices, other pile order
    assert not np.array_equal(a.s, b.s)
    assert np.array_equal(a.observation(2).array, b.observation(2).array)
    for i in range(5):
        x = a.observation(2).determinize(np.random.default_rng(i))
        y = b.observation(2).determinize(np.random.default_rng(i))
        assert np.array_equal(x.s, y.s)
        assert np.array_equal(x._stream, y._stream)
