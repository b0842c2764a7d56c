"""Trick-taking building blocks shared by engines: seats in turn, the dealer of a tour, which
cards may be played to a trick, and who wins it.

Everything a game decides is passed in as data, so one set of compiled functions serves
every trick-taking game:

* ``card_suit[card]``: the suit a card follows by (``NO_SUIT`` for a card that may always be
  played, such as the tarot Excuse);
* the *played* suit and strength of each card of a trick, which the game sets when the card
  is played (a card whose strength its owner declares, such as an Excuse played high or low,
  gets the declared strength);
* the trump suit (``NO_SUIT`` when a game has none) and the legality rule (``FOLLOW``,
  ``MUST_TRUMP``, ``MUST_OVERTRUMP`` or ``MAY_TRUMP_BUT_OVER``: see :func:`legal_in_trick`),
  lifted when a partner holds the trick (:func:`with_partner_exemption`);
* card-point tables (``points[card]``) for games that count the cards taken.

Around the trick: dealing a hand to the seats from the dealer's left (:func:`deal_hands`),
the dealer of each round, and the bidding helper shared by exact-bid games (the "hook" that
forbids the last bidder one bid, :func:`hook_forbidden`).

A trick is kept as parallel arrays over its positions (0 = the lead): the seat, the card,
its played suit and its strength.  Every trick game's state layout names these fields alike
(:func:`trick_fields`), so laying a card (:func:`lay_card`), taking a complete trick
(:func:`take_trick`) and clearing the table for a deal (:func:`clear_tricks`) are written
here once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core.chance import shuffle
from engines.core.layout import Layout

NO_SUIT = -1


# --------------------------------------------------------------------------------------
# Seats
# --------------------------------------------------------------------------------------
@njit(cache=True)
def next_seat(seat, players):
    """The seat to the left of ``seat`` (the next index)."""
    return (seat + 1) % players


@njit(cache=True)
def dealer_of_tour(first_dealer, tour, players):
    """The dealer of tour ``tour`` (0-based) when the deal passes left after each tour."""
    return (first_dealer + tour) % players


# --------------------------------------------------------------------------------------
# Legal cards
# --------------------------------------------------------------------------------------
@njit(cache=True)
def led_suit(suits, count):
    """The suit to follow in a trick of ``count`` cards: the played suit of its first card
    that has one (``NO_SUIT`` if none, e.g. an empty trick)."""
    for i in range(count):
        if suits[i] != NO_SUIT:
            return suits[i]
    return NO_SUIT


# Legality rules: what a player who cannot follow the led suit must do.
FOLLOW = 0              # follow suit if able; otherwise any card
MUST_TRUMP = 1          # ... otherwise trump if able
MUST_OVERTRUMP = 2      # ... otherwise trump if able, beating the trumps already played if able
MAY_TRUMP_BUT_OVER = 3  # trumping is free, but a trump must beat earlier trumps if able


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


@njit(cache=True)
def highest_trump(suits, strengths, count, trump):
    """The strength of the strongest trump among the first ``count`` cards of a trick (-1 if
    none)."""
    best = -1
    if trump == NO_SUIT:
        return best
    for i in range(count):
        if suits[i] == trump and strengths[i] > best:
            best = strengths[i]
    return best


@njit(cache=True)
def legal_in_trick(hand, n, card_suit, card_strength, suits, strengths, count, trump, rule,
                   out):
    """Write into ``out`` the cards of ``hand[:n]`` (in that order) that may be played to the
    trick of ``count`` cards so far (played suits and strengths); return their count.

    Following the led suit comes first (:func:`legal_cards`, with ``MUST_TRUMP`` and
    ``MUST_OVERTRUMP`` making a player out of the led suit trump if able).  Then, under
    ``MUST_OVERTRUMP`` and ``MAY_TRUMP_BUT_OVER``, a trump played to a trick that holds a
    trump (trump led included) must beat the strongest one if the player holds such a trump."""
    led = led_suit(suits, count)
    k = legal_cards(hand, n, card_suit, led, trump, rule == MUST_TRUMP or
                    rule == MUST_OVERTRUMP, out)
    if rule != MUST_OVERTRUMP and rule != MAY_TRUMP_BUT_OVER:
        return k
    top = highest_trump(suits, strengths, count, trump)
    if top < 0:
        return k
    can_beat = False
    for i in range(k):
        card = out[i]
        can_beat |= card_suit[card] == trump and card_strength[card] > top
    if not can_beat:
        return k
    kept = 0
    for i in range(k):
        card = out[i]
        if card_suit[card] != trump or card_strength[card] > top:
            out[kept] = card
            kept += 1
    return kept


@njit(cache=True)
def with_partner_exemption(seats, suits, strengths, count, trump, partner, rule):
    """The legality rule for a player whose ``partner`` (a seat, -1 for none) may be winning
    the trick so far: when the partner holds it, the player is exempt from trumping and
    over-trumping (``FOLLOW``: follow suit if able, otherwise any card); otherwise
    ``rule``."""
    if partner < 0 or count == 0:
        return rule
    if seats[trick_winner(suits, strengths, count, trump)] == partner:
        return FOLLOW
    return rule


# --------------------------------------------------------------------------------------
# Card points
# --------------------------------------------------------------------------------------
@njit(cache=True)
def trick_points(cards, count, points):
    """The points of the first ``count`` cards of a trick by the table ``points[card]``."""
    total = 0
    for i in range(count):
        total += points[cards[i]]
    return total


# --------------------------------------------------------------------------------------
# The trick in a state array
# --------------------------------------------------------------------------------------
TRICK_FIELD_NAMES = ("location", "hand_size", "tricks", "trick", "played", "trick_winner",
                     "trick_seat", "trick_card", "trick_suit", "trick_strength")


def trick_fields(state: Layout) -> tuple[int, ...]:
    """The offsets of a game's trick fields (``TRICK_FIELD_NAMES``, in that order) in its
    state layout, then the room of a per-seat field: the ``fields`` argument of
    :func:`lay_card`, :func:`take_trick` and :func:`clear_tricks`."""
    return (*state.offsets(*TRICK_FIELD_NAMES), state.size_of("trick_seat"))


@njit(cache=True)
def lay_card(s, fields, player, card, suit, strength, loc_trick):
    """``player`` lays ``card`` from their hand in the trick (its location ``loc_trick``),
    with the suit and strength it plays as; return how many cards the trick holds."""
    location, hand_size, _, _, played, _, seats, cards, suits, strengths, _ = fields
    position = s[played]
    s[location + card] = loc_trick
    s[hand_size + player] -= 1
    s[seats + position] = player
    s[cards + position] = card
    s[suits + position] = suit
    s[strengths + position] = strength
    s[played] = position + 1
    return position + 1


@njit(cache=True)
def take_trick(s, fields, players, trump, loc_taken, to_winner):
    """The complete trick of ``players`` cards goes to its winner (:func:`trick_winner`),
    who counts one more trick: its cards to ``loc_taken`` (``+`` the winner's seat when
    ``to_winner``), and the next trick starts empty.  Return the winner's seat."""
    location, _, tricks_won, trick, played, last_winner, seats, cards, suits, strengths, _ = \
        fields
    position = trick_winner(s[suits:suits + players], s[strengths:strengths + players],
                            players, trump)
    winner = s[seats + position]
    s[tricks_won + winner] += 1
    s[last_winner] = winner
    taken = loc_taken + winner if to_winner else loc_taken
    for i in range(players):
        s[location + s[cards + i]] = taken
    s[trick] += 1
    s[played] = 0
    return winner


@njit(cache=True)
def clear_tricks(s, fields):
    """Before a deal: empty hands, no trick won, an empty first trick and no last winner."""
    _, hand_size, tricks_won, trick, played, last_winner, seats, cards, _, _, room = fields
    for p in range(room):
        s[hand_size + p] = 0
        s[tricks_won + p] = 0
        s[seats + p] = -1
        s[cards + p] = -1
    s[trick] = 0
    s[played] = 0
    s[last_winner] = -1


# --------------------------------------------------------------------------------------
# The deal and the bids
# --------------------------------------------------------------------------------------
@njit(cache=True)
def deal_hands(deck, dealer, players, per_player, location, loc_hand, hand_size):
    """Deal ``per_player`` cards of ``deck`` (in its order) one at a time to each seat from
    the dealer's left: ``location[card] = loc_hand + seat`` and ``hand_size[seat]`` grows.
    Return how many cards were dealt (the next card of ``deck`` is the top of the stock)."""
    i = 0
    for _ in range(per_player):
        seat = next_seat(dealer, players)
        for _ in range(players):
            location[deck[i]] = loc_hand + seat
            hand_size[seat] += 1
            i += 1
            seat = next_seat(seat, players)
    return i


@njit(cache=True)
def hook_forbidden(bids_made, players, tricks_in_hand, bid_total):
    """The one bid the "hook" forbids the last bidder (the bids may not add up to the tricks
    of the hand), or -1 for any earlier bidder or when no bid could make that total."""
    if bids_made != players - 1 or bid_total > tricks_in_hand:
        return -1
    return tricks_in_hand - bid_total


# --------------------------------------------------------------------------------------
# The end of a game and hidden cards
# --------------------------------------------------------------------------------------
@njit(cache=True)
def redeal_hidden(hidden, n, held, loc_hand, loc_rest, rng, location):
    """Shuffle the hidden cards ``hidden[:n]`` and deal them back: ``held[p]`` to seat p in
    seat order (``location[card] = loc_hand + p``), the rest to ``loc_rest``.  The caller
    gathers them in card id order, so the result depends only on what an observer knows."""
    shuffle(rng, hidden[:n])
    i = 0
    for p in range(held.shape[0]):
        for _ in range(held[p]):
            location[hidden[i]] = loc_hand + p
            i += 1
    while i < n:
        location[hidden[i]] = loc_rest
        i += 1


# --------------------------------------------------------------------------------------
# The game loop's entry points: what every trick game does the same way, given its layout
# --------------------------------------------------------------------------------------
@njit(cache=True)
def hidden_in_hands(s, player, card, location, loc_rest, loc_hand, loc_trick):
    """Whether ``player`` cannot see where ``card`` is (``s[location + card]``): face down
    in ``loc_rest`` (the stock, the écart) or in another seat's hand."""
    where = s[location + card]
    if where == loc_rest:
        return True
    return loc_hand <= where < loc_trick and where != loc_hand + player


@njit(cache=True)
def observe_hands(s, player, out, location, cards, loc_rest, loc_hand, loc_trick,
                  loc_unknown):
    """Copy into ``out`` what ``player`` may know when only the cards face down in
    ``loc_rest`` and the other hands are hidden (:func:`hidden_in_hands`): their locations
    are ``loc_unknown``."""
    out[:] = s
    for card in range(cards):
        if hidden_in_hands(s, player, card, location, loc_rest, loc_hand, loc_trick):
            out[location + card] = loc_unknown


@njit(cache=True)
def redeal_unseen(s, out, location, cards, loc_unknown, loc_hand, loc_rest, seats, rng):
    """Complete an observation ``out`` of ``s`` into a full state consistent with it: the
    cards it hides (location ``loc_unknown``) dealt again at random, as many to each hand as
    it held in ``s`` and the rest to ``loc_rest`` (:func:`redeal_hidden`).  Return the
    hidden cards (in their new order: each seat's first, then the rest), their count and
    how many each of the ``seats`` holds.

    The hidden cards are gathered in id order before they are shuffled, so for a given
    ``rng`` the result depends only on the observation."""
    hidden = np.empty(cards, dtype=np.int32)
    held = np.zeros(seats, dtype=np.int32)
    n = 0
    for card in range(cards):
        if out[location + card] == loc_unknown:
            hidden[n] = card
            n += 1
            where = s[location + card]
            if where != loc_rest:
                held[where - loc_hand] += 1
    redeal_hidden(hidden, n, held, loc_hand, loc_rest, rng, out[location:location + cards])
    return hidden, n, held
