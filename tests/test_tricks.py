"""The shared trick-taking functions (engines.tricks), on a plain 4-suit deck and on the
all-trump deck of Ascenseur aux atouts: suits, trump and strengths are data."""

from __future__ import annotations

import numpy as np
import pytest

from engines import tricks
from engines.tricks import NO_SUIT

HEARTS, SPADES = 0, 2
# a small deck: card id = suit * 10 + strength index; card 40 has no suit (an Excuse)
CARD_SUIT = np.array([c // 10 for c in range(40)] + [NO_SUIT], dtype=np.int64)


def legal(hand, led, trump=NO_SUIT, must_trump=False):
    hand = np.array(hand, dtype=np.int64)
    out = np.empty(len(hand), dtype=np.int64)
    n = tricks.legal_cards(hand, len(hand), CARD_SUIT, led, trump, must_trump, out)
    return out[:n].tolist()


def winner(suits, strengths, trump=NO_SUIT):
    return tricks.trick_winner(np.array(suits, dtype=np.int64),
                               np.array(strengths, dtype=np.int64), len(suits), trump)


def test_leading_any_card_is_legal():
    assert legal([3, 15, 27, 40], NO_SUIT) == [3, 15, 27, 40]


def test_a_player_holding_the_led_suit_must_follow():
    assert legal([3, 15, 27, 40], led=1) == [15, 40]          # the suitless card is free


def test_out_of_the_led_suit_must_trump_only_when_the_game_says_so():
    assert legal([3, 27, 29], led=1, trump=SPADES, must_trump=True) == [27, 29]
    assert legal([3, 27, 29], led=1, trump=SPADES, must_trump=False) == [3, 27, 29]
    assert legal([3, 5], led=1, trump=SPADES, must_trump=True) == [3, 5]


def test_led_suit_is_the_first_card_with_a_suit():
    assert tricks.led_suit(np.array([NO_SUIT, 2, 1], dtype=np.int64), 3) == 2
    assert tricks.led_suit(np.array([NO_SUIT], dtype=np.int64), 1) == NO_SUIT
    assert tricks.led_suit(np.array([3], dtype=np.int64), 0) == NO_SUIT


@pytest.mark.parametrize("suits, strengths, trump, expected", [
    ([1, 1, 1, 1], [3, 9, 2, 5], NO_SUIT, 1),          # highest of the led suit
    ([1, 0, 1, 3], [3, 9, 2, 5], NO_SUIT, 0),          # off-suit cards never win
    ([1, 2, 1, 2], [8, 1, 9, 4], SPADES, 3),           # the strongest trump wins
    ([2, 1, 1], [1, 9, 8], SPADES, 0),                 # a trump led wins over the rest
    ([NO_SUIT, 1, 1], [99, 3, 4], NO_SUIT, 2),         # a suitless card never wins
])
def test_trick_winner(suits, strengths, trump, expected):
    assert winner(suits, strengths, trump) == expected


def test_all_trump_deck_highest_wins_with_a_declared_excuse():
    # Ascenseur aux atouts: every card of the one suit 0, the Excuse declared 22 or 0
    assert winner([0, 0, 0, 0], [6, 1, 20, 22], trump=0) == 3
    assert winner([0, 0, 0, 0], [6, 1, 20, 0], trump=0) == 2


def test_seats_and_dealers():
    assert [tricks.next_seat(s, 3) for s in range(3)] == [1, 2, 0]
    assert [tricks.dealer_of_tour(1, t, 3) for t in range(4)] == [1, 2, 0, 1]
