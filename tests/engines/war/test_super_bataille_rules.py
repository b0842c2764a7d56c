"""La super-bataille: every test scenario of the spec (rules in
``docs/rules/super-bataille.md``) (a position is built, a trick is played, the piles are
checked), the variants, and the engine against an independent plain-Python reference of the
rules."""

from __future__ import annotations

import pytest

import engines
from engines.core.cards import rank_of
from engines.families.war import rules as R
from tests.engines.war.war_helpers import names, position, reference_game


def step(state):
    state.apply("step")
    return state


def sizes(state):
    return [len(p) for p in state.piles]


FILL = "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"


def test_1_every_loser_pays_until_his_contribution_is_his_cards_number():
    # the source's example: P1 J, P2 4, P3 7 (seats 0, 1, 2 here)
    state = position("super-bataille", ["J♠ 2♠", "4♣ 2♦ 3♦ 4♦ 5♦", "7♣ " + FILL])
    before = sizes(state)
    step(state)
    assert state.s[R.LAID + 1] == 4 and state.s[R.LAID + 2] == 7
    assert sizes(state) == [before[0] + 11, before[1] - 4, before[2] - 7]
    assert state.s[R.CARDS_PAID] == 3 + 6
    assert names(state.piles[0]) == ["2♠", "J♠", "4♣", "2♦", "3♦", "4♦", "7♣", "2♥", "3♥",
                                     "4♥", "5♥", "6♥", "7♥"]


@pytest.mark.parametrize("ace_n, paid", [(1, 0), (14, 13)])
def test_2_an_ace_against_a_joker_pays_by_ace_n(ace_n, paid):
    state = step(position("super-bataille", ["Joker 2♠", "A♣ " + FILL],
                          ace_n=ace_n))
    assert state.s[R.LAID + 1] == 1 + paid
    assert len(state.piles[0]) == 1 + 2 + paid


def test_3_a_loser_short_of_cards_pays_all_he_has_and_is_out():
    state = step(position("super-bataille", ["K♠ 2♠", "Q♣ 2♦ 3♦ 4♦ 5♦ 6♦", "3♣ 4♣ 5♣ 6♣"]))
    assert state.s[R.LAID + 1] == 6 and sizes(state)[1] == 0
    assert state.s[R.ELIMINATED_AT + 1] == 1 and not state.is_terminal()


@pytest.mark.parametrize("losers_pay, p0_paid", [(True, 6), (False, 0)])
def test_4_a_bataille_among_the_tied_and_its_loser_pays_for_his_last_card(losers_pay,
                                                                          p0_paid):
    state = step(position("super-bataille", ["K♠ 2♠ 7♠ " + FILL, "K♣ 2♣ Q♣ 9♦",
                                             "5♦ 2♦ 3♦ 4♦ 6♦ 8♦"],
                          battle_losers_pay=losers_pay))
    assert state.s[R.LAID + 2] == 5                 # P2 pays 4 more at once
    assert state.s[R.LAID + 0] == 3 + p0_paid
    assert state.s[R.TRICK_WINNER] == 1 and state.s[R.TRICK_DEPTH] == 1
    assert sizes(state)[1] == 1 + 3 + 3 + p0_paid + 5


def test_5_two_players_a_one_card_player_wins_the_pot():
    state = step(position("super-bataille", ["9♠", "3♣ 2♦ 4♦ 5♦"]))
    assert names(state.piles[0]) == ["9♠", "3♣", "2♦", "4♦"]
    assert sizes(state) == [4, 1]


def test_a_joker_never_pays():
    state = step(position("super-bataille", ["Joker 2♠ 3♠", "Joker2 4♠ 5♠ 6♠ 7♠",
                                             "K♦ 2♦"] + [], battle_losers_pay=True))
    # Joker vs Joker: bataille; P1's face-up 5♠ beats P0's 3♠, P0 pays 2 for his 3♠
    assert state.s[R.TRICK_WINNER] == 1
    assert state.s[R.LAID + 2] == 2                 # P2's K pays all he has (1 more)


@pytest.mark.parametrize("order", ["winner_first", "seat_order"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_deal_plays_like_the_reference(order, players):
    game = engines.load("super-bataille", players=players, pickup_order=order)

    def number(card):
        if card >= 52:
            return 0
        rank = rank_of(card)
        return 1 if rank == 14 else rank

    for seed in range(15):
        state = game.new_state(seed)
        start = [list(p) for p in state.piles]
        while not state.is_terminal():
            step(state)
        end, tricks, length, final = reference_game(start, order, payment=number,
                                                    dealer=int(state.s[R.DEALER]))
        assert state.end == end, seed
        if end == "cycle":
            assert state.s[R.CYCLE_LENGTH] == length
        else:
            assert state.s[R.TRICK] == tricks
            assert [list(p) for p in state.piles] == final


def test_defaults_and_choices():
    game = engines.load("super-bataille")
    assert game.num_players == 3 and game.params.ace_n == 1 and game.params.max_tricks == 10_000
    with pytest.raises(ValueError, match="random"):
        engines.load("super-bataille", pickup_order="loser_first")
    with pytest.raises(ValueError, match="14"):
        engines.load("super-bataille", ace_n=11)
