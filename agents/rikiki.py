"""``counter``: the Rikiki bot that bids the winners it counts in its hand, then plays to make
its bid exactly.

Written once as a compiled decision over the seat's masked observation (``decide``): the
batch kernel (:mod:`sim.kernels.rikiki`) calls the same function on the seat's observation of
its state, so both paths choose alike.  It reads only what the seat may see: its own cards,
the turned trump card, the cards played, the bids and tricks so far (a hidden card's location
is ``LOC_UNKNOWN``).

**Bid: counted winners.**  A card counts as a winner with the chance that none of the k other
players holds a card of its suit above it: with h of the u unseen cards above it in its suit,
``(1 - h/u) ** k``.  A trump counts in full; a card of another suit only with the chance that
it is not trumped, taken as ``(1 - t/u) ** k`` for t unseen trumps (1 without trumps).  It bids
the legal bid nearest the sum (the lower one when two are as near: the hook may forbid one).

**Play.**  A card *beats* the trick so far when it is a trump above every trump in it, or of
the led suit above every card in it with no trump played.  While it needs tricks (bid above
tricks won) it plays its cheapest *sure* winner (a card that beats the trick and that no
unseen card of its suit can beat, and, for a card of a plain suit, with no trump unseen;
when playing last, any card that beats the trick); failing that, its strongest card that
beats the trick (leading: its strongest card); failing that, its weakest card.  Once it has
its tricks it ducks: its strongest card that does not beat the trick (leading: its weakest
card), else (it must win) its strongest.  Cards are ordered trumps above the rest, then by
rank.
"""

from __future__ import annotations

from numba import njit

from agents.base import CompiledBot
from engines.families.tricks import rules as tricks
from engines.games.rikiki import rules as R
from engines.games.rikiki.params import DECK_CARDS

SUIT_CARDS = 13


# --------------------------------------------------------------------------------------
# What it knows
# --------------------------------------------------------------------------------------
@njit(cache=True)
def is_unseen(s, card):
    return s[R.LOCATION + card] == R.LOC_UNKNOWN


@njit(cache=True)
def unseen_in_suit(s, suit, above):
    """Unseen cards of ``suit`` with a strength above ``above``."""
    n = 0
    for card in range(suit * SUIT_CARDS, (suit + 1) * SUIT_CARDS):
        if is_unseen(s, card) and R.STRENGTH[card] > above:
            n += 1
    return n


@njit(cache=True)
def unseen_count(s):
    n = 0
    for card in range(DECK_CARDS):
        if is_unseen(s, card):
            n += 1
    return n


# --------------------------------------------------------------------------------------
# Bids
# --------------------------------------------------------------------------------------
@njit(cache=True)
def counted_winners(s, pr, me):
    """The sum of its cards' chances to win a trick (see the module docstring)."""
    others = pr[R.P_PLAYERS] - 1
    unseen = unseen_count(s)
    trump = s[R.TRUMP]
    if unseen == 0:
        return 0.0
    not_trumped = 1.0
    if trump != tricks.NO_SUIT:
        not_trumped = (1.0 - unseen_in_suit(s, trump, -1) / unseen) ** others
    total = 0.0
    for card in range(DECK_CARDS):
        if s[R.LOCATION + card] != R.LOC_HAND + me:
            continue
        suit = R.CARD_SUIT[card]
        chance = (1.0 - unseen_in_suit(s, suit, R.STRENGTH[card]) / unseen) ** others
        total += chance if suit == trump else chance * not_trumped
    return total


@njit(cache=True)
def bid_choice(s, pr, actions, n):
    """Index of the legal bid nearest the counted winners (the lower when two are as near)."""
    target = counted_winners(s, pr, s[R.CURRENT])
    best, gap = 0, 1e9
    for i in range(n):
        d = abs(actions[i] - R.BID_ACTION - target)
        if d < gap - 1e-9:
            best, gap = i, d
    return best


# --------------------------------------------------------------------------------------
# Play
# --------------------------------------------------------------------------------------
@njit(cache=True)
def order(s, card):
    """Trumps above the rest, then by rank."""
    return R.STRENGTH[card] + (SUIT_CARDS if R.CARD_SUIT[card] == s[R.TRUMP] else 0)


@njit(cache=True)
def beats(s, card):
    """Whether ``card`` would win the trick so far (any card leads)."""
    played = s[R.PLAYED]
    if played == 0:
        return True
    trump = s[R.TRUMP]
    top_trump = tricks.highest_trump(s[R.TRICK_SUIT:R.TRICK_SUIT + R.MAX_PLAYERS],
                                     s[R.TRICK_STRENGTH:R.TRICK_STRENGTH + R.MAX_PLAYERS],
                                     played, trump)
    suit = R.CARD_SUIT[card]
    if trump != tricks.NO_SUIT and suit == trump:
        return R.STRENGTH[card] > top_trump
    if top_trump >= 0 or suit != s[R.TRICK_SUIT]:
        return False
    for i in range(played):
        if s[R.TRICK_SUIT + i] == suit and s[R.TRICK_STRENGTH + i] > R.STRENGTH[card]:
            return False
    return True


@njit(cache=True)
def sure(s, pr, card):
    """Whether ``card`` wins the trick whatever the unseen cards (see the module
    docstring)."""
    if not beats(s, card):
        return False
    if s[R.PLAYED] == pr[R.P_PLAYERS] - 1:
        return True
    suit = R.CARD_SUIT[card]
    if unseen_in_suit(s, suit, R.STRENGTH[card]) > 0:
        return False
    trump = s[R.TRUMP]
    return suit == trump or trump == tricks.NO_SUIT or unseen_in_suit(s, trump, -1) == 0


@njit(cache=True)
def play_choice(s, pr, actions, n):
    """Index of the card to play (see the module docstring)."""
    me = s[R.CURRENT]
    cheapest_sure, strongest_win, weakest, strongest, duck = -1, -1, -1, -1, -1
    for i in range(n):
        card = actions[i] - R.PLAY
        v = order(s, card)
        if weakest < 0 or v < order(s, actions[weakest] - R.PLAY):
            weakest = i
        if strongest < 0 or v > order(s, actions[strongest] - R.PLAY):
            strongest = i
        if beats(s, card):
            if strongest_win < 0 or v > order(s, actions[strongest_win] - R.PLAY):
                strongest_win = i
            if sure(s, pr, card) and (
                    cheapest_sure < 0 or v < order(s, actions[cheapest_sure] - R.PLAY)):
                cheapest_sure = i
        elif duck < 0 or v > order(s, actions[duck] - R.PLAY):
            duck = i
    if s[R.BID + me] > s[R.TRICKS + me]:
        if cheapest_sure >= 0:
            return cheapest_sure
        if strongest_win >= 0:
            return strongest_win
        return weakest
    if s[R.PLAYED] == 0:
        return weakest
    return duck if duck >= 0 else strongest


@njit(cache=True)
def decide(s, pr, actions, n, w):
    """Index of its choice among the ``n`` legal action codes ``actions`` (``s``: the seat's
    observation array; ``w``: its weights, none)."""
    if s[R.PHASE] == R.BIDDING:
        return bid_choice(s, pr, actions, n)
    return play_choice(s, pr, actions, n)


class CounterAgent(CompiledBot):
    """The ``counter`` bot (see the module docstring); it takes no options."""

    name = "counter"
    decide = staticmethod(decide)
