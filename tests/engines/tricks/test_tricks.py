"""The shared trick-taking functions (engines.families.tricks.rules), on a plain 4-suit deck and
on the all-trump deck of Ascenseur aux atouts: suits, trump and strengths are data."""

from __future__ import annotations

import numpy as np
import pytest

from engines.families.tricks import rules as tricks
from engines.families.tricks.rules import NO_SUIT

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


def test_holding_the_led_suit_forbids_trumping_even_when_trumping_is_a_duty():
    assert legal([15, 27, 3], led=1, trump=SPADES, must_trump=True) == [15]
    for rule in (tricks.MUST_TRUMP, tricks.MUST_OVERTRUMP, tricks.MAY_TRUMP_BUT_OVER):
        assert legal_rule([15, 27, 3], [12, 25], SPADES, rule) == [15]


def test_led_suit_is_the_first_card_with_a_suit():
    assert tricks.led_suit(np.array([NO_SUIT, 2, 1], dtype=np.int64), 3) == 2
    assert tricks.led_suit(np.array([NO_SUIT], dtype=np.int64), 1) == NO_SUIT
    assert tricks.led_suit(np.array([3], dtype=np.int64), 0) == NO_SUIT


@pytest.mark.parametrize("suits, strengths, trump, expected", [
    ([1, 1, 1, 1], [3, 9, 2, 5], NO_SUIT, 1),          # highest of the led suit
    ([1, 0, 1, 3], [3, 9, 2, 5], NO_SUIT, 0),          # off-suit cards never win
    ([1, 2, 1, 2], [8, 1, 9, 4], SPADES, 3),           # the strongest trump wins
    ([2, 1, 1], [1, 9, 8], SPADES, 0),                 # a trump led wins over the rest
    ([1, 2, 1], [3, 1, 9], SPADES, 1),                 # a higher led card does not beat a trump
    ([1, 2, 3, 1], [3, 0, 9, 8], SPADES, 1),           # nor does a later one, off-suit between
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


# --------------------------------------------------------------------------------------
# The trick core's legality rules, card points, deal, hook, ranking and re-deal
# --------------------------------------------------------------------------------------
STRENGTH = np.array([c % 10 for c in range(40)] + [0], dtype=np.int64)


def legal_rule(hand, trick, trump, rule):
    hand = np.array(hand, dtype=np.int64)
    suits = np.array([CARD_SUIT[c] for c in trick] + [NO_SUIT] * 4, dtype=np.int64)
    strengths = np.array([STRENGTH[c] for c in trick] + [0] * 4, dtype=np.int64)
    out = np.empty(len(hand), dtype=np.int64)
    n = tricks.legal_in_trick(hand, len(hand), CARD_SUIT, STRENGTH, suits, strengths,
                              len(trick), trump, rule, out)
    return out[:n].tolist()


def test_legality_rules_for_a_player_out_of_the_led_suit():
    hand = [3, 22, 28]                       # a heart, two spades (2 and 8)
    trick = [15, 25]                         # diamond led, spade 5 played on it
    assert legal_rule(hand, trick, SPADES, tricks.FOLLOW) == [3, 22, 28]
    assert legal_rule(hand, trick, SPADES, tricks.MUST_TRUMP) == [22, 28]
    assert legal_rule(hand, trick, SPADES, tricks.MUST_OVERTRUMP) == [28]
    assert legal_rule(hand, trick, SPADES, tricks.MAY_TRUMP_BUT_OVER) == [3, 28]
    # unable to beat the trump: any trump (or any card) goes
    assert legal_rule([3, 22], [15, 29], SPADES, tricks.MUST_OVERTRUMP) == [22]
    assert legal_rule([3, 22], [15, 29], SPADES, tricks.MAY_TRUMP_BUT_OVER) == [3, 22]


def test_overtrumping_beats_the_strongest_trump_not_the_first():
    # diamond led, spade 5 then spade 8: a 7 of spades beats the first trump only
    assert legal_rule([23, 27, 29], [15, 25, 28], SPADES, tricks.MUST_OVERTRUMP) == [29]
    assert legal_rule([23, 27], [15, 25, 28], SPADES, tricks.MUST_OVERTRUMP) == [23, 27]


def test_overtrumping_applies_when_trumps_are_led():
    assert legal_rule([21, 27], [25], SPADES, tricks.MUST_OVERTRUMP) == [27]
    assert legal_rule([21, 27], [25], SPADES, tricks.FOLLOW) == [21, 27]


def test_trick_points_and_the_hook():
    points = np.zeros(41, dtype=np.int64)
    points[[3, 12]] = [1, 13]
    assert tricks.trick_points(np.array([3, 12, 7]), 3, points) == 14
    assert tricks.trick_points(np.array([3, 12, 7]), 1, points) == 1
    assert tricks.hook_forbidden(3, 4, 5, 3) == 2          # the last bidder may not say 2
    assert tricks.hook_forbidden(2, 4, 5, 3) == -1         # not the last bidder
    assert tricks.hook_forbidden(3, 4, 5, 6) == -1         # already over: any bid


def test_deal_hands_one_at_a_time_from_the_dealers_left():
    location = np.zeros(10, dtype=np.int64)
    sizes = np.zeros(3, dtype=np.int64)
    deck = np.array([9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
    assert tricks.deal_hands(deck, 2, 3, 3, location, 10, sizes) == 9
    assert location[[9, 8, 7]].tolist() == [10, 11, 12]   # seat 0 first: left of dealer 2
    assert sizes.tolist() == [3, 3, 3] and location[0] == 0


def test_redeal_hidden_keeps_the_hand_sizes():
    location = np.full(8, -1, dtype=np.int64)
    hidden = np.arange(8, dtype=np.int32)
    tricks.redeal_hidden(hidden, 8, np.array([3, 0, 2], dtype=np.int32), 10, 99,
                         np.random.default_rng(1), location)
    assert sorted(location.tolist()) == [10, 10, 10, 12, 12, 99, 99, 99]


def test_partner_exemption_lifts_the_duty_to_trump():
    seats = np.array([2, 3, 0, 0], dtype=np.int64)
    suits = np.array([1, 2, NO_SUIT, NO_SUIT], dtype=np.int64)        # diamond led, trumped
    strengths = np.array([9, 1, 0, 0], dtype=np.int64)
    # seat 3 (the trumper) holds the trick: its partner seat 1 is exempt
    assert tricks.with_partner_exemption(seats, suits, strengths, 2, SPADES, 3,
                                         tricks.MUST_OVERTRUMP) == tricks.FOLLOW
    # seat 2's partner is seat 0, who does not hold it: the rule stands
    assert tricks.with_partner_exemption(seats, suits, strengths, 2, SPADES, 0,
                                         tricks.MUST_OVERTRUMP) == tricks.MUST_OVERTRUMP
    assert tricks.with_partner_exemption(seats, suits, strengths, 0, SPADES, 3,
                                         tricks.MUST_TRUMP) == tricks.MUST_TRUMP
    assert tricks.with_partner_exemption(seats, suits, strengths, 2, SPADES, -1,
                                         tricks.MUST_TRUMP) == tricks.MUST_TRUMP
    rule = tricks.with_partner_exemption(seats, suits, strengths, 2, SPADES, 3,
                                         tricks.MUST_OVERTRUMP)
    assert legal_rule([3, 22], [15, 25], SPADES, rule) == [3, 22]
