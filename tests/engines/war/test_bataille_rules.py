"""La bataille: every test scenario of the spec (rules in ``docs/rules/bataille.md``) (a
position is built, a trick is played, the piles are checked), the variants, the ends of the
game, and the engine against an independent plain-Python reference of the rules (cycles
included)."""

from __future__ import annotations

import numpy as np
import pytest

import engines
from engines.core import repetition
from engines.core.api import IllegalActionError
from engines.families.war import rules as R
from tests.engines.war.war_helpers import cards, names, position, reference_game


def step(state):
    state.apply("step")
    return state


def pile(state, p):
    return names(state.piles[p])


# --------------------------------------------------------------------------------------
# Spec scenarios (section 10)
# --------------------------------------------------------------------------------------
def test_1_the_highest_card_takes_the_trick_winner_first():
    state = step(position("bataille", ["K♠ 5♥ 6♥", "9♥ 5♦ 6♦"]))
    assert pile(state, 0) == ["5♥", "6♥", "K♠", "9♥"]       # K then 9 under his pile
    assert pile(state, 1) == ["5♦", "6♦"]
    assert state.log[-1] == "trick 1: P0 K♠ / P1 9♥ -> P0 takes 2"


def test_2_a_bataille_lays_one_card_down_one_up_and_the_winner_takes_six():
    state = step(position("bataille", ["7♠ 2♣ Q♥ 4♥", "7♥ 2♦ 3♣ 4♦"]))
    assert pile(state, 0) == ["4♥", "7♠", "2♣", "Q♥", "7♥", "2♦", "3♣"]
    assert pile(state, 1) == ["4♦"]
    assert state.s[R.TRICK_DEPTH] == 1 and state.s[R.BATAILLES] == 1


def test_3_a_double_bataille_wins_ten_cards():
    state = step(position("bataille", ["7♠ 2♣ J♥ 3♣ 5♥ 9♥", "7♥ 2♦ J♠ 3♦ A♠ 9♦"]))
    assert pile(state, 1) == ["9♦", "7♥", "2♦", "J♠", "3♦", "A♠", "7♠", "2♣", "J♥", "3♣",
                              "5♥"]
    assert len(state.piles[0]) == 1
    assert state.s[R.TRICK_DEPTH] == 2 and state.s[R.DOUBLE_BATAILLES] == 1
    assert state.s[R.MAX_DEPTH] == 2


def test_4_three_players_only_the_tied_do_the_bataille_and_the_winner_takes_all():
    state = step(position("bataille", ["J♠ 2♣ 9♥ 5♣", "J♥ 3♦ 2♠ 5♦", "4♥ K♥ 6♣"]))
    # P2's K is never turned: only P0 and P1 lay the bataille cards
    assert pile(state, 0) == ["5♣", "J♠", "2♣", "9♥", "J♥", "3♦", "2♠", "4♥"]
    assert pile(state, 1) == ["5♦"]
    assert pile(state, 2) == ["K♥", "6♣"]


def test_5_a_joker_beats_an_ace_and_two_jokers_do_a_bataille():
    state = step(position("bataille", ["Joker 5♥", "A♠ 5♦"], jokers=True))
    assert pile(state, 0) == ["5♥", "Joker", "A♠"]
    state = step(position("bataille", ["Joker 2♥ 3♥ 4♥", "Joker2 2♠ 9♠ 4♠"], jokers=True))
    assert state.s[R.TRICK_DEPTH] == 1
    assert state.piles[1][-6:] == tuple(cards("Joker2 2♠ 9♠ Joker 2♥ 3♥"))


def test_6_a_player_with_one_card_left_lays_it_face_up_in_the_bataille():
    state = step(position("bataille", ["7♠ 2♣ Q♥ 4♥", "7♥ 3♣"]))
    assert state.log[-2] == "trick 1: P0 7♠ 2♣ Q♥ / P1 7♥ 3♣ -> P0 takes 5 after 1 bataille"
    assert state.is_terminal() and state.end == "all_cards"
    state = step(position("bataille", ["7♠ 2♣ 3♥ 4♥", "7♥ K♣"]))       # the last card wins
    assert pile(state, 1) == ["7♥", "K♣", "7♠", "2♣", "3♥"]
    assert pile(state, 0) == ["4♥"]


# --------------------------------------------------------------------------------------
# Variants and the rules around running out
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("order, expected", [
    ("winner_first", ["9♣", "4♣", "2♥", "3♥"]),
    ("seat_order", ["2♥", "3♥", "9♣", "4♣"]),
    ("loser_first", ["4♣", "2♥", "3♥", "9♣"]),
])
def test_pickup_orders(order, expected):
    state = step(position("bataille", ["2♥ 5♥", "3♥ 6♥", "9♣ 7♣", "4♣ 8♣"],
                          pickup_order=order))
    assert pile(state, 2) == ["7♣"] + expected


def test_winner_first_and_loser_first_go_round_from_the_winners_left():
    piles = ["2♥ 5♥", "9♣ 6♥", "3♥ 7♣", "4♣ 8♣"]
    state = step(position("bataille", piles, pickup_order="winner_first"))
    assert pile(state, 1)[1:] == ["9♣", "3♥", "4♣", "2♥"]
    state = step(position("bataille", piles, pickup_order="loser_first"))
    assert pile(state, 1)[1:] == ["3♥", "4♣", "2♥", "9♣"]
    state = step(position("bataille", piles, pickup_order="seat_order"))
    assert pile(state, 1)[1:] == ["2♥", "9♣", "3♥", "4♣"]


def test_random_pickup_takes_every_card_in_some_order():
    state = step(position("bataille", ["2♥ 5♥", "9♣ 6♥", "3♥ 7♣"], pickup_order="random"))
    assert sorted(pile(state, 1)[1:]) == sorted(["2♥", "9♣", "3♥"])


def test_lose_immediately_a_player_who_cannot_lay_both_cards_loses_the_bataille():
    state = step(position("bataille", ["7♠ 2♣ 3♥ 4♥", "7♥ K♣"],
                          bataille_shortage="lose_immediately"))
    assert pile(state, 0) == ["4♥", "7♠", "2♣", "3♥", "7♥"]
    assert pile(state, 1) == ["K♣"]                 # he keeps the card he could not lay


def test_when_every_tied_player_runs_out_the_most_cards_left_take_the_table():
    state = step(position("bataille", ["7♠", "7♥", "2♣ 3♣ 4♣"]))
    assert pile(state, 2) == ["3♣", "4♣", "2♣", "7♠", "7♥"]
    assert state.is_terminal() and state.end == "all_cards"


def test_when_nobody_has_a_card_left_the_game_ends_exhausted():
    state = step(position("bataille", ["7♠", "7♥"]))
    assert state.end == "exhausted" and state.s[R.UNCLAIMED] == 2
    assert state.result().ranks == (1, 1)


def test_three_players_play_on_until_one_holds_everything_ranked_by_elimination():
    state = step(position("bataille", ["K♠ 2♣ 6♣", "9♥", "5♣ 3♦"]))
    assert not state.is_terminal()
    assert state.s[R.ELIMINATED_AT + 1] == 1 and state.current_player == 0
    assert [len(p) for p in state.piles] == [5, 0, 1]
    while not state.is_terminal():
        step(state)
    assert state.end == "all_cards" and state.s[R.TRICK] == 4
    assert state.result().ranks == (1, 3, 2)
    assert state.result().details["eliminated_at"] == (-1, 1, 4)


def test_stop_at_first_elimination_ranks_by_pile():
    state = step(position("bataille", ["K♠ 2♣ 6♣", "9♥", "5♣ 3♦"],
                          stop_at_first_elimination=True))
    assert state.end == "first_elimination"
    assert state.result().ranks == (1, 3, 2)
    assert state.result().win_shares == (1.0, 0.0, 0.0)


def test_max_tricks_stops_the_game():
    game = engines.load("bataille", max_tricks=5)
    state = game.new_state(3)
    while not state.is_terminal():
        step(state)
    assert state.end == "max_tricks" and state.s[R.TRICK] == 5


def test_a_repeated_state_ends_the_game_as_a_cycle():
    # seat_order: 5♥ beats 4♥, 6♥ beats 3♥, 5♥ beats 3♥, 6♥ beats 4♥: the deal again
    state = position("bataille", ["5♥ 3♥", "4♥ 6♥"], pickup_order="seat_order")
    for _ in range(4):
        step(state)
    assert [pile(state, 0), pile(state, 1)] == [["5♥", "3♥"], ["4♥", "6♥"]]
    while not state.is_terminal():
        step(state)
    # the dealt piles come back after trick 4: the game ends there, at the first repetition
    assert state.end == "cycle" and state.s[R.CYCLE_LENGTH] == 4 and state.s[R.TRICK] == 4
    assert state.result().ranks == (1, 1)           # a cycle ranks by the piles: 2 cards each


def test_a_cycle_after_a_lead_in_is_found_with_its_length():
    state = position("bataille", ["5♥ 3♥ 2♥", "4♥ 6♥"])
    while not state.is_terminal():
        step(state)
    end, tricks, length, _ = reference_game([cards("5♥ 3♥ 2♥"), cards("4♥ 6♥")],
                                            "winner_first")
    assert (end, length) == ("cycle", 6)
    assert state.end == "cycle" and state.s[R.CYCLE_LENGTH] == 6


def test_random_pickup_is_never_called_a_cycle():
    state = position("bataille", ["5♥ 3♥", "4♥ 6♥"], pickup_order="random", max_tricks=300)
    while not state.is_terminal():
        step(state)
    assert state.end in ("all_cards", "max_tricks")


# --------------------------------------------------------------------------------------
# The engine against the plain-Python reference
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("order", ["winner_first", "seat_order", "loser_first"])
@pytest.mark.parametrize("players, deck", [(2, 32), (2, 52), (3, 32)])
def test_every_deal_plays_like_the_reference(order, players, deck):
    game = engines.load("bataille", players=players, deck=deck, pickup_order=order)
    ends = set()
    for seed in range(12):
        state = game.new_state(seed)
        start = [list(p) for p in state.piles]
        dealer = int(state.s[R.DEALER])
        while not state.is_terminal():
            step(state)
        end, tricks, length, final = reference_game(start, order, dealer=dealer)
        ends.add(end)
        assert state.end == end, seed
        if end == "cycle":
            # the first repetition ends a cycle of up to HISTORY tricks; a longer one ends
            # within about two of its lengths (Brent's method)
            assert state.s[R.CYCLE_LENGTH] == length
            if length <= repetition.HISTORY:
                assert state.s[R.TRICK] == tricks
            else:
                assert tricks <= state.s[R.TRICK] < 2 * tricks + length
        else:
            assert state.s[R.TRICK] == tricks
            assert [list(p) for p in state.piles] == final
    if order == "seat_order" and players == 2:
        assert "cycle" in ends             # seat order cycles in most two-player deals


# --------------------------------------------------------------------------------------
# The API around the trick
# --------------------------------------------------------------------------------------
def test_the_only_action_is_step_and_others_are_refused():
    state = position("bataille", ["K♠ 5♥", "9♥ 5♦"])
    assert [a.text for a in state.legal_actions()] == ["step"]
    with pytest.raises(IllegalActionError, match="only action is 'step'"):
        state.apply("play")
    step(state)
    step(state)
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply("step")


def test_the_step_is_taken_by_the_lowest_seat_still_in_play():
    state = step(position("bataille", ["2♠ 2♣", "K♥ 7♦", "5♣ 3♦"]))
    assert state.current_player == 0
    state = step(position("bataille", ["2♠", "K♥ 7♦", "5♣ 3♦"]))
    assert state.current_player == 1


@pytest.mark.parametrize("params, expected", [
    ({"pickup_order": "clockwise"}, "winner_first"),
    ({"deck": 36}, "32"),
    ({"players": 1}, "players"),
])
def test_bad_parameters_name_the_valid_choices(params, expected):
    with pytest.raises(ValueError, match=expected):
        engines.load("bataille", **params)


def test_parameters_round_trip_through_strings():
    params = engines.params_class("bataille")(jokers=True, pickup_order="random", players=4)
    assert type(params).from_strings(params.to_strings()) == params


def test_a_result_before_the_end_is_refused():
    state = position("bataille", ["K♠ 5♥", "9♥ 5♦"])
    with pytest.raises(ValueError, match="not over"):
        state.result()
    assert np.all(state.s[R.RANK:R.RANK + 2] == 0)
