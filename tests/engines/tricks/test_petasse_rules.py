"""Pétasse: every test scenario of the spec, and the rules around them (the 32-card pack,
the card order, the first leader, the sweep, the end)."""

from __future__ import annotations

import pytest

import engines
from engines.families.avoidance import rules as R
from tests.engines.tricks.avoidance_helpers import build, cards
from tests.engines.tricks.trick_helpers import play, texts

P0, P1, P2, P3 = range(4)


def load(**params):
    return engines.load("petasse", **params)


def test_scenario_1_three_players_play_30_cards_without_the_red_and_club_sevens():
    state = load(players=3).new_state(1)
    assert [len(state.hand_of(p)) for p in range(3)] == [10, 10, 10]
    out = set(cards("7♦ 7♣")) | {c for c in range(52) if c % 13 + 2 < 7}
    assert {c for c in range(52) if state.s[R.LOCATION + c] == R.LOC_OUT} == out
    four = load(players=4).new_state(1)
    assert [len(four.hand_of(p)) for p in range(4)] == [8] * 4


def test_the_player_left_of_the_dealer_leads_any_card():
    state = load(players=4, first_dealer=2).new_state(3)
    assert state.current_player == 3 and len(texts(state)) == 8


def test_holder_of_lowest_club_variant():
    state = build("petasse", {0: "A♥ 8♣ 9♦", 1: "K♥ 10♣ 9♠", 2: "Q♥ 9♣ 8♠"}, dealer=0,
                  first_lead="holder_of_lowest_club")
    assert state.current_player == P0              # 7♣ is out with 3 players: 8♣ is lowest


def test_scenario_2_the_king_of_clubs_takes_the_petasse():
    state = build("petasse", {0: "7♣ 8♦", 1: "9♣ A♦", 2: "K♣ 7♥", 3: "Q♠ J♦"}, dealer=0)
    play(state, "play 9♣", "play K♣", "play Q♠", "play 7♣")
    assert state.s[R.TRICK_WINNER] == P2 and state.s[R.TAKEN + P2] == 8


def test_scenario_3_ace_of_hearts_takes_three_points():
    state = build("petasse", {0: "J♠ 8♦", 1: "A♥ A♦", 2: "7♥ 9♦", 3: "10♥ J♦"}, dealer=0)
    play(state, "play A♥", "play 7♥", "play 10♥", "play J♠")
    assert state.s[R.TRICK_WINNER] == P1 and state.s[R.TAKEN + P1] == 3


def test_belote_plain_order_puts_the_ten_above_the_king():
    hands = {0: "K♠ 8♦", 1: "10♠ A♦", 2: "7♠ 9♦", 3: "8♠ J♦"}
    state = build("petasse", hands, dealer=3)
    play(state, "play K♠", "play 10♠", "play 7♠", "play 8♠")
    assert state.s[R.TRICK_WINNER] == P0
    state = build("petasse", hands, dealer=3, rank_order="belote_plain")
    play(state, "play K♠", "play 10♠", "play 7♠", "play 8♠")
    assert state.s[R.TRICK_WINNER] == P1


def test_scenario_4_all_tricks_gives_16_to_each_other_player():
    state = build("petasse", {0: "7♣ 8♦", 1: "A♣ A♦", 2: "8♣ 9♦", 3: "9♣ J♦"}, dealer=0,
                  scores=[0, 0, 0, 0])
    play(state, "play A♣", "play 8♣", "play 9♣", "play 7♣")
    play(state, "play A♦", "play 9♦", "play J♦", "play 8♦")
    assert "P1 swept" in state.log[-2]
    assert state.s[R.SCORE:R.SCORE + 4].tolist() == [16, 0, 16, 16]


def test_all_points_variant_needs_every_point_card_not_every_trick():
    hands = {0: "7♣ 8♠ 9♠", 1: "A♣ A♦ 7♦", 2: "8♣ 7♥ 10♠", 3: "Q♠ 8♦ 9♦"}
    for condition, totals in (("all_tricks", [0, 9, 0, 0]), ("all_points", [16, 0, 16, 16])):
        state = build("petasse", hands, dealer=0, shoot_condition=condition)
        play(state, "play A♣", "play 8♣", "play Q♠", "play 7♣")   # P1 takes the Q♠
        play(state, "play A♦", "play 7♥", "play 8♦", "play 8♠")   # ... and the 7♥
        play(state, "play 7♦", "play 10♠", "play 9♦", "play 9♠")  # P3 takes the last trick
        assert state.s[R.SCORE:R.SCORE + 4].tolist() == totals, condition


def test_scenario_5_reaching_51_ends_the_game_the_lowest_wins():
    state = build("petasse", {0: "A♥ 8♦", 1: "K♥ 7♦", 2: "Q♥ 9♦", 3: "7♥ 10♦"}, dealer=3,
                  scores=[45, 20, 30, 10])
    play(state, "play A♥", "play K♥", "play Q♥", "play 7♥")       # P0 takes 4
    play(state, "play 8♦", "play 7♦", "play 9♦", "play 10♦")      # P3 takes none
    # P0 took 4 hearts but not every trick: 49; not over yet
    assert state.s[R.SCORE:R.SCORE + 4].tolist() == [49, 20, 30, 10]
    assert not state.is_terminal()
    state = build("petasse", {0: "A♥ A♠ 8♦", 1: "K♥ Q♠ 7♦", 2: "Q♥ 8♠ 9♦",
                              3: "7♥ 9♠ 10♦"}, dealer=3, scores=[45, 20, 30, 10])
    play(state, "play A♥", "play K♥", "play Q♥", "play 7♥")
    play(state, "play A♠", "play Q♠", "play 8♠", "play 9♠")       # P0 takes the pétasse
    play(state, "play 8♦", "play 7♦", "play 9♦", "play 10♦")      # P3 takes the last trick
    assert state.is_terminal()
    result = state.result()
    assert result.details["totals"] == (45 + 4 + 8, 20, 30, 10)
    assert result.ranks == (4, 2, 3, 1) and result.winners == (3,)


def test_bad_parameters_name_the_valid_values():
    with pytest.raises(ValueError, match=r"valid values: 3\.\.4"):
        load(players=5)
    with pytest.raises(ValueError, match="valid values: natural, belote_plain"):
        load(rank_order="tarot")
    with pytest.raises(ValueError, match="valid values: all_tricks, all_points"):
        load(shoot_condition="moon")


def test_num_hands_plays_a_fixed_number_of_hands_whatever_the_totals():
    import agents
    from sim.runner import play_python
    seats = [agents.load("random")] * 4
    one = play_python(load(num_hands=1), seats, 5)
    assert one.result().stats["rounds"] == 1 and one.s[R.DECISIONS] == 32
    assert max(one.result().details["totals"]) < 51      # no total reached the threshold
    full = play_python(load(), seats, 5)
    assert full.result().stats["rounds"] > 1
    assert full.log[:len(one.log) - 1] == one.log[:-1]     # the same first hand
    assert play_python(load(num_hands=2), seats, 5).result().stats["rounds"] == 2
