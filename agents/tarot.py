"""Heuristic bots for the tarot games: ``prudent`` (plain tarot and the Lorrain) and
``ducker`` (the taré).

Both read only their seat's observation (hand, trick in progress, bids, taker, the partner
once known) and the public card data of :mod:`engines.games.tarot.rules` (suits, strengths,
points).  Each is written once as a compiled decision over the seat's masked observation
(:func:`decide`, :func:`duck`): the batch kernel (:mod:`sim.kernels.tricks`) calls the same
functions on the seat's observation of its state, and searches roll out with them, so both
paths choose alike.

``prudent`` bids by counting and plays safe:

* **Bidding:** a hand count of 10 per oudler, 2 per trump (3 for the 16 to the 21), 6 per
  King, 3 per Queen, 2 per Knight and 3 per void suit, scaled to an 18-card hand.  It bids
  the highest contract its count reaches (``prise`` from 40, ``garde`` from 55, ``garde
  sans`` from 70, ``garde contre`` from 82) if that is above the bids so far, else passes.
* **Five players:** it calls the King of the suit it holds most cards of.
* **Écart:** cards of its shortest suits first (to make voids), the most points first.
* **Chelem:** never announced.  **Poignée:** shown (the highest level) by the taker only.
* **Leading:** a King; else, as taker with 8 trumps or more, its lowest trump above the
  Petit; else the lowest card of its longest suit.  Never the Petit or the Excuse while it
  has another card.
* **Following:** when its camp holds the trick and it plays last (or the holder's card is
  the 21), it gives its most valuable card (the Petit when it is safe that way: "save the
  Petit"); when it plays last and can take the trick, it takes it with its cheapest winning
  card; otherwise it plays its cheapest card, keeping the Petit while it can.  The Excuse
  goes when the cheapest other card is worth 2.5 points or more, and (FFT rule) before the
  last trick.

``ducker`` plays the taré ("qui perd gagne"): it leads its weakest plain card; following,
it plays the most dangerous card that does not take the trick so far (the Excuse, worth 4.5
and never winning, first); when every card it may play takes the trick, it plays the one
worth fewest points, the strongest of those when it plays last (the trick is its own anyway)
and the weakest otherwise (a later player may have to overtrump it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.base import CompiledBot
from engines.families.tricks import rules as tricks
from engines.games.tarot import rules as R

SUIT, STRENGTH, POINTS = R.CARD_SUIT, R.CARD_STRENGTH, R.CARD_POINTS
# The count from which it bids each contract, ``prise`` to ``garde contre``.
BID_FROM = np.array([0, 40, 55, 70, 82], dtype=np.int64)
MANY_TRUMPS = 8
HIGH_TRUMP = 16
GIVE_UP_EXCUSE_FROM = 5                # half points: a Knight or better
HAND_SCALE = 18                        # the count is scaled to an 18-card hand


# --------------------------------------------------------------------------------------
# What it reads
# --------------------------------------------------------------------------------------
@njit(cache=True)
def in_hand(s, me, card):
    return s[R.LOCATION + card] == R.LOC_HAND + me


@njit(cache=True)
def suit_length(s, me, suit):
    """Cards of ``suit`` in the seat's hand (``R.TRUMP``: its trumps, the Petit included)."""
    n = 0
    for card in range(R.DECK_CARDS):
        if in_hand(s, me, card) and SUIT[card] == suit:
            n += 1
    return n


@njit(cache=True)
def beats(card, best, led):
    """Whether ``card`` would take a trick held by ``best`` with ``led`` the suit led."""
    if card == R.EXCUSE:
        return False
    if best == R.EXCUSE:
        return True                       # led alone so far: the next card fixes the suit
    if SUIT[card] == R.TRUMP:
        return SUIT[best] != R.TRUMP or STRENGTH[card] > STRENGTH[best]
    return SUIT[card] == led and SUIT[best] == led and STRENGTH[card] > STRENGTH[best]


@njit(cache=True)
def trick_holder(s):
    """The seat and card holding the trick in progress so far (the rules'
    :func:`~engines.families.tricks.rules.trick_winner`), and the suit led (-1: none yet)."""
    count = s[R.PLAYED]
    suits = s[R.TRICK_SUIT:R.TRICK_SUIT + count]
    position = tricks.trick_winner(suits, s[R.TRICK_STRENGTH:R.TRICK_STRENGTH + count], count,
                                   R.TRUMP)
    return s[R.TRICK_SEAT + position], s[R.TRICK_CARD + position], tricks.led_suit(suits, count)


@njit(cache=True)
def friends(s, pr, me, seat):
    """Whether ``seat`` is known to be in this seat's camp."""
    if seat == me:
        return True
    taker, partner = s[R.TAKER], s[R.PARTNER]       # negative: none, or not known
    if me >= 0 and (me == taker or me == partner):
        return seat >= 0 and (seat == taker or seat == partner)
    if pr[R.P_PLAYERS] == 5:
        return False                                 # the partner may be unknown
    return taker < 0 or seat != taker


# --------------------------------------------------------------------------------------
# Bidding, calling, the écart
# --------------------------------------------------------------------------------------
@njit(cache=True)
def hand_count(s, me):
    """The bidding count of the hand (see the module docstring), scaled to 18 cards."""
    count = 0
    cards = 0
    for card in range(R.DECK_CARDS):
        if not in_hand(s, me, card):
            continue
        cards += 1
        if R.is_oudler(card):
            count += 10
        elif SUIT[card] == R.TRUMP:
            count += 3 if STRENGTH[card] >= HIGH_TRUMP else 2
        elif STRENGTH[card] == R.KING_RANK:
            count += 6
        elif STRENGTH[card] == R.QUEEN_RANK:
            count += 3
        elif STRENGTH[card] == R.KNIGHT_RANK:
            count += 2
    for suit in range(R.SUITS):
        if suit_length(s, me, suit) == 0:
            count += 3
    return count * HAND_SCALE / max(cards, 1)


@njit(cache=True)
def bid_choice(s, me, actions, n):
    """The highest contract its count reaches, if legal; else the pass (listed first)."""
    count = hand_count(s, me)
    best = 0
    for contract in range(1, BID_FROM.size):
        if count >= BID_FROM[contract]:
            best = contract
    for i in range(n):
        if actions[i] == R.BID_ACTION + best:
            return i
    for i in range(n):
        if actions[i] == R.BID_ACTION:
            return i
    return 0


@njit(cache=True)
def call_choice(s, me, actions, n):
    """The King (or lower) of the plain suit it holds most cards of (the first on a tie)."""
    best, most = 0, -1
    for i in range(n):
        length = suit_length(s, me, SUIT[actions[i] - R.CALL])
        if length > most:
            best, most = i, length
    return best


@njit(cache=True)
def ecart_choice(s, me, actions, n):
    """A card of its shortest suit (to make voids), the most points first."""
    best, best_length, best_points = 0, 1 << 30, -1.0
    for i in range(n):
        card = actions[i] % R.DECK_CARDS
        length = suit_length(s, me, SUIT[card])
        if length < best_length or (length == best_length and POINTS[card] > best_points):
            best, best_length, best_points = i, length, POINTS[card]
    return best


# --------------------------------------------------------------------------------------
# The tricks
# --------------------------------------------------------------------------------------
@njit(cache=True)
def plain(card, only_special):
    """Whether a legal card counts among the plain ones (not the Petit nor the Excuse,
    unless ``only_special``: it has no other card)."""
    return only_special or (card != R.PETIT and card != R.EXCUSE)


@njit(cache=True)
def lead_choice(s, pr, me, actions, n, only_special):
    """A King; else, as taker with 8 trumps or more, its lowest trump above the Petit; else
    the lowest card of its longest suit."""
    trumps = 0
    for i in range(n):
        card = actions[i] - R.PLAY
        if not plain(card, only_special):
            continue
        if SUIT[card] < R.TRUMP and STRENGTH[card] == R.KING_RANK:
            return i
        trumps += SUIT[card] == R.TRUMP
    if s[R.TAKER] == me and trumps >= MANY_TRUMPS:
        for i in range(n):                          # cards in id order: the lowest first
            card = actions[i] - R.PLAY
            if plain(card, only_special) and SUIT[card] == R.TRUMP:
                return i
    plain_suits = False
    for i in range(n):
        card = actions[i] - R.PLAY
        plain_suits |= plain(card, only_special) and SUIT[card] < R.TRUMP
    best, best_length, best_strength = -1, -1, 1 << 30
    for i in range(n):
        card = actions[i] - R.PLAY
        if not plain(card, only_special) or (plain_suits and SUIT[card] == R.TRUMP):
            continue
        length = 0
        for j in range(n):
            other = actions[j] - R.PLAY
            if plain(other, only_special) and (SUIT[other] < R.TRUMP or not plain_suits) \
                    and SUIT[other] == SUIT[card]:
                length += 1
        if length > best_length or (length == best_length and STRENGTH[card] < best_strength):
            best, best_length, best_strength = i, length, STRENGTH[card]
    return best


@njit(cache=True)
def play_choice(s, pr, me, actions, n):
    """Its card to play (see the module docstring); ``actions`` are card plays."""
    only_special = True
    excuse = -1
    for i in range(n):
        card = actions[i] - R.PLAY
        only_special &= card == R.PETIT or card == R.EXCUSE
        if card == R.EXCUSE:
            excuse = i
    if s[R.PLAYED] == 0:
        return lead_choice(s, pr, me, actions, n, only_special)
    seat, best, led = trick_holder(s)
    last = s[R.PLAYED] == pr[R.P_PLAYERS] - 1
    if excuse >= 0 and s[R.HAND_SIZE + me] == 2 and not pr[R.P_PASS_HANDS]:
        return excuse                               # it would be lost in the last trick
    if friends(s, pr, me, seat) and (last or best == R.TWENTY_ONE):
        only_top = True
        for i in range(n):
            card = actions[i] - R.PLAY
            only_top &= card == R.EXCUSE or card == R.TWENTY_ONE
        give, give_points, give_strength = 0, -1.0, 1 << 30
        for i in range(n):
            card = actions[i] - R.PLAY
            if not only_top and (card == R.EXCUSE or card == R.TWENTY_ONE):
                continue
            if POINTS[card] > give_points or (POINTS[card] == give_points
                                              and STRENGTH[card] < give_strength):
                give, give_points, give_strength = i, POINTS[card], STRENGTH[card]
        return give
    if last:
        take, take_points, take_strength = -1, 1e9, 1 << 30
        for i in range(n):
            card = actions[i] - R.PLAY
            if plain(card, only_special) and beats(card, best, led) and (
                    POINTS[card] < take_points or (POINTS[card] == take_points
                                                   and STRENGTH[card] < take_strength)):
                take, take_points, take_strength = i, POINTS[card], STRENGTH[card]
        if take >= 0:
            return take
    cheapest, key_points, key_trump, key_strength = -1, 1e9, 2, 1 << 30
    for i in range(n):
        card = actions[i] - R.PLAY
        if not plain(card, only_special):
            continue
        trump = 1 if SUIT[card] == R.TRUMP else 0
        if POINTS[card] < key_points or POINTS[card] == key_points and (
                trump < key_trump or trump == key_trump and STRENGTH[card] < key_strength):
            cheapest, key_points, key_trump, key_strength = i, POINTS[card], trump, \
                STRENGTH[card]
    if excuse >= 0 and key_points >= GIVE_UP_EXCUSE_FROM:
        return excuse
    return cheapest


@njit(cache=True)
def decide(s, pr, actions, n, w):
    """Index of ``prudent``'s choice among the ``n`` legal action codes ``actions`` (``s``:
    the seat's observation array; ``w``: its weights, none)."""
    if n == 1:
        return 0
    me = s[R.CURRENT]
    phase = s[R.PHASE]
    if phase == R.BIDDING:
        return bid_choice(s, me, actions, n)
    if phase == R.CALLING:
        return call_choice(s, me, actions, n)
    if phase == R.ECART:
        return ecart_choice(s, me, actions, n)
    if phase == R.CHELEM_CHOICE:
        for i in range(n):
            if actions[i] == R.NO_CHELEM:
                return i
    if s[R.TAKER] == me and actions[n - 1] >= R.SHOW_POIGNEE:
        return n - 1                                # the highest poignée it may show
    plays = 0
    while plays < n and actions[plays] < R.DISCARD:
        plays += 1
    return play_choice(s, pr, me, actions, plays)


class PrudentAgent(CompiledBot):
    """The ``prudent`` bot (see the module docstring); it takes no options."""

    name = "prudent"
    decide = staticmethod(decide)


@njit(cache=True)
def duck(s, pr, actions, n, w):
    """Index of ``ducker``'s choice among the ``n`` legal action codes ``actions`` (``s``: the
    seat's observation array; ``w``: its weights, none): see the module docstring."""
    if n == 1:
        return 0
    if s[R.PLAYED] == 0:                 # lead its weakest plain card (the Excuse counts)
        plain_only = False
        for i in range(n):
            plain_only |= SUIT[actions[i] % R.DECK_CARDS] < R.TRUMP
        lead, lead_strength, lead_points = 0, 1 << 30, 1 << 30
        for i in range(n):
            card = actions[i] % R.DECK_CARDS
            if plain_only and SUIT[card] >= R.TRUMP:
                continue
            if STRENGTH[card] < lead_strength or (STRENGTH[card] == lead_strength
                                                  and POINTS[card] < lead_points):
                lead, lead_strength, lead_points = i, STRENGTH[card], POINTS[card]
        return lead
    _, best, led = trick_holder(s)
    duck_at, key_points, key_trump, key_strength = -1, -1, -1, -1
    for i in range(n):                   # the most dangerous card that does not take it
        card = actions[i] % R.DECK_CARDS
        if beats(card, best, led):
            continue
        trump = 1 if SUIT[card] == R.TRUMP else 0
        if POINTS[card] > key_points or POINTS[card] == key_points and (
                trump > key_trump or trump == key_trump and STRENGTH[card] > key_strength):
            duck_at, key_points, key_trump, key_strength = i, POINTS[card], trump, \
                STRENGTH[card]
    if duck_at >= 0:
        return duck_at
    sign = 1 if s[R.PLAYED] == pr[R.P_PLAYERS] - 1 else -1
    take, take_points, take_order = 0, 1 << 30, 1 << 30
    for i in range(n):                   # every card takes it: the fewest points
        card = actions[i] % R.DECK_CARDS
        order = -sign * STRENGTH[card]
        if POINTS[card] < take_points or (POINTS[card] == take_points and order < take_order):
            take, take_points, take_order = i, POINTS[card], order
    return take


class DuckerAgent(CompiledBot):
    """The ``ducker`` bot for the taré (see the module docstring); no options."""

    name = "ducker"
    decide = staticmethod(duck)
