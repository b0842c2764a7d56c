"""Trick-taking building blocks shared by engines: seats in turn, the dealer of a tour, which
cards may be played to a trick, and who wins it.

Everything a game decides is passed in as data, so one set of compiled functions serves
every trick-taking game:

* ``card_suit[card]``: the suit a card follows by (``NO_SUIT`` for a card that may always be
  played, such as the tarot Excuse);
* the *played* suit and strength of each card of a trick, which the game sets when the card
  is played (a card whose strength its owner declares, such as an Excuse played high or low,
  gets the declared strength);
* the trump suit (``NO_SUIT`` when a game has none) and whether a player out of the led suit
  must trump.

A trick is kept as parallel arrays over its positions (0 = the lead): the seat, the card,
its played suit and its strength.
"""

from __future__ import annotations

from numba import njit

NO_SUIT = -1


# --------------------------------------------------------------------------------------
# Seats
# --------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def next_seat(seat, players):
    """The seat to the left of ``seat`` (the next index)."""
    return (seat + 1) % players


@njit(cache=True, inline="always")
def dealer_of_tour(first_dealer, tour, players):
    """The dealer of tour ``tour`` (0-based) when the deal passes left after each tour."""
    return (first_dealer + tour) % players


# --------------------------------------------------------------------------------------
# Legal cards
# --------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def led_suit(suits, count):
    """The suit to follow in a trick of ``count`` cards: the played suit of its first card
    that has one (``NO_SUIT`` if none, e.g. an empty trick)."""
    for i in range(count):
        if suits[i] != NO_SUIT:
            return suits[i]
    return NO_SUIT


@njit(cache=True)
def legal_cards(hand, n, card_suit, led, trump, must_trump, out):
    """Write into ``out`` the cards of ``hand[:n]`` (in that order) that may be played to a
    trick whose led suit is ``led``; return their count.

    With nothing to follow every card is legal.  Otherwise a player holding the led suit
    must follow it; one who does not, and holds a trump when ``must_trump`` is set, must
    trump; anyone else plays any card.  A card of suit ``NO_SUIT`` may always be played."""
    required = NO_SUIT
    if led != NO_SUIT:
        holds_led = False
        holds_trump = False
        for i in range(n):
            suit = card_suit[hand[i]]
            holds_led |= suit == led
            holds_trump |= suit == trump and trump != NO_SUIT
        if holds_led:
            required = led
        elif must_trump and holds_trump:
            required = trump
    count = 0
    for i in range(n):
        suit = card_suit[hand[i]]
        if required == NO_SUIT or suit == required or suit == NO_SUIT:
            out[count] = hand[i]
            count += 1
    return count


# --------------------------------------------------------------------------------------
# The winner of a trick
# --------------------------------------------------------------------------------------
@njit(cache=True)
def trick_winner(suits, strengths, count, trump):
    """The position (0 = the lead) of the card that wins a trick of ``count`` cards: the
    strongest trump if any was played, else the strongest card of the led suit.  Cards of
    any other suit (and ``NO_SUIT`` cards) never win unless nothing else could."""
    led = led_suit(suits, count)
    best = -1
    best_trump = False
    for i in range(count):
        is_trump = trump != NO_SUIT and suits[i] == trump
        follows = suits[i] == led and led != NO_SUIT
        if not (is_trump or follows):
            continue
        if best < 0 or (is_trump and not best_trump) or (
                is_trump == best_trump and strengths[i] > strengths[best]):
            best = i
            best_trump = is_trump
    return best if best >= 0 else 0
