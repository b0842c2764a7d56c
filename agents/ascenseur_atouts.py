"""``estimator``: the Ascenseur aux atouts bot that estimates its tricks from its cards, bids
that estimate, then plays to make its bid exactly.

Written once as a compiled decision over the seat's masked observation (``decide``): the
batch kernel (:mod:`sim.kernels.ascenseur_atouts`) calls the same function on the seat's
observation of its state, so both paths choose alike.  It reads only what the seat may
see: its own cards, the cards played, the bids and tricks so far (a hidden card's location is
``LOC_UNKNOWN``).

**Bid (sighted hands).**  A trump of strength v wins its trick when none of the other
players' cards in that trick is higher.  With h of the u unseen cards higher than v (the
unseen Excuse counts as higher: its owner may play it high), each of the k other players'
card is taken as a random unseen card, so the trump wins with probability
``(1 - h/u) ** k``.  The estimate is the sum over its trumps, plus ``excuse_value`` percent
of a trick for the Excuse (a trick it can take or give away at will).  It bids the legal
bid nearest the estimate (the lower one when two are as near: the hook may forbid one).

**Bid (blind hand).**  It sees every other card but its own, which is any unseen card with
equal chance.  It wins the trick when its card beats the highest visible one (a visible
Excuse always beats it; its own Excuse is played high).  It says *take* when that chance is
at least ``take_percent``, if the hook allows, else what the hook leaves.

**Play.**  While it needs tricks (bid above tricks won) it plays the cheapest *sure* winner:
the lowest card that beats the trick so far and that no unseen trump can beat (any card
that beats the trick when it plays last; the Excuse played high); failing that, the
strongest card that beats the trick so far; failing that, its lowest trump.  Once it has its
tricks, it ducks: the highest trump below the trick so far, else the Excuse played low, else
(playing last, the trick is its own anyway) its highest trump, else its lowest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numba import njit

from agents.base import CompiledBot
from engines.core.params import Params, param
from engines.games.ascenseur_atouts import rules as R

# positions of the parameters in the weights array the compiled decision reads
EXCUSE_VALUE, TAKE_PERCENT = range(2)


@dataclass(frozen=True)
class EstimatorParams(Params):
    """Parameters of the ``estimator`` bot."""

    game: ClassVar[str] = "estimator"

    excuse_value: int = param(50, "percent of a trick the Excuse adds to the estimate",
                              min=0, max=100)
    take_percent: int = param(50, "blind hand: least chance (percent) of winning the trick "
                                  "for which it says take", min=0, max=100)


# --------------------------------------------------------------------------------------
# What it knows
# --------------------------------------------------------------------------------------
@njit(cache=True)
def is_unseen(s, card):
    return s[R.LOCATION + card] == R.LOC_UNKNOWN


@njit(cache=True)
def unseen_count(s):
    n = 0
    for card in range(R.PLAY_CARDS):
        if is_unseen(s, card):
            n += 1
    return n


@njit(cache=True)
def unseen_above(s, strength):
    """Unseen cards that can beat a card of ``strength`` (the unseen Excuse always can)."""
    n = 0
    for card in range(R.PLAY_CARDS):
        if is_unseen(s, card) and (card == R.EXCUSE or R.STRENGTH[card] > strength):
            n += 1
    return n


@njit(cache=True)
def top_unseen_trump(s):
    """The strength of the highest unseen trump (0 if none)."""
    for card in range(R.TRUMPS - 1, -1, -1):
        if is_unseen(s, card):
            return R.STRENGTH[card]
    return 0


# --------------------------------------------------------------------------------------
# Bids
# --------------------------------------------------------------------------------------
@njit(cache=True)
def expected_tricks(s, pr, me, w):
    """The estimate of the tricks its hand wins (see the module docstring)."""
    others = pr[R.P_PLAYERS] - 1
    unseen = unseen_count(s)
    total = 0.0
    for card in range(R.PLAY_CARDS):
        if s[R.LOCATION + card] != R.LOC_HAND + me:
            continue
        if card == R.EXCUSE:
            total += w[EXCUSE_VALUE] / 100.0
        elif unseen > 0:
            total += (1.0 - unseen_above(s, R.STRENGTH[card]) / unseen) ** others
        else:
            total += 1.0
    return total


@njit(cache=True)
def take_chance(s, pr, me):
    """Blind hand: the chance that its unseen card beats every visible one."""
    best = 0
    for card in range(R.PLAY_CARDS):
        location = s[R.LOCATION + card]
        if R.LOC_HAND <= location < R.LOC_TRICK and location != R.LOC_HAND + me:
            if card == R.EXCUSE:
                return 0.0
            best = max(best, R.STRENGTH[card])
    unseen = unseen_count(s)
    return unseen_above(s, best) / unseen if unseen > 0 else 0.0


@njit(cache=True)
def bid_value(code):
    if code == R.TAKE:
        return 1
    if code == R.NOT_TAKE:
        return 0
    return code - R.BID_ACTION


@njit(cache=True)
def bid_choice(s, pr, actions, n, w):
    """Index of the legal bid nearest the estimate (the lower when two are as near)."""
    me = s[R.CURRENT]
    if s[R.BLIND] == 1:
        target = 1.0 if take_chance(s, pr, me) * 100.0 >= w[TAKE_PERCENT] else 0.0
    else:
        target = expected_tricks(s, pr, me, w)
    best, gap = 0, 1e9
    for i in range(n):
        d = abs(bid_value(actions[i]) - target)
        if d < gap - 1e-9:
            best, gap = i, d
    return best


# --------------------------------------------------------------------------------------
# Play
# --------------------------------------------------------------------------------------
@njit(cache=True)
def play_strength(code):
    if code == R.EXCUSE_HIGH:
        return R.EXCUSE_HIGH_STRENGTH
    if code == R.EXCUSE_LOW:
        return R.EXCUSE_LOW_STRENGTH
    return R.STRENGTH[code - R.PLAY]


@njit(cache=True)
def play_choice(s, pr, actions, n):
    """Index of the card to play (see the module docstring)."""
    me = s[R.CURRENT]
    played = s[R.PLAYED]
    best = -1
    for i in range(played):
        best = max(best, s[R.TRICK_STRENGTH + i])
    last = played == pr[R.P_PLAYERS] - 1
    top = top_unseen_trump(s)
    if s[R.BID + me] > s[R.TRICKS + me]:
        sure, strong, low = -1, -1, -1
        for i in range(n):
            v = play_strength(actions[i])
            if v > best and (last or v > top):
                if sure < 0 or v < play_strength(actions[sure]):
                    sure = i
            if v > best and (strong < 0 or v > play_strength(actions[strong])):
                strong = i
            if actions[i] < R.EXCUSE_HIGH and (low < 0 or v < play_strength(actions[low])):
                low = i
        if sure >= 0:
            return sure
        if strong >= 0:
            return strong
        return low if low >= 0 else 0
    under, excuse_low, high, low = -1, -1, -1, -1
    for i in range(n):
        code = actions[i]
        if code == R.EXCUSE_LOW:
            excuse_low = i
        if code >= R.EXCUSE_HIGH:
            continue
        v = play_strength(code)
        if v < best and (under < 0 or v > play_strength(actions[under])):
            under = i
        if high < 0 or v > play_strength(actions[high]):
            high = i
        if low < 0 or v < play_strength(actions[low]):
            low = i
    if under >= 0:
        return under
    if excuse_low >= 0:
        return excuse_low
    if high < 0:
        return 0
    return high if last else low


@njit(cache=True)
def decide(s, pr, actions, n, w):
    """Index of its choice among the ``n`` legal action codes ``actions`` (``s``: the seat's
    observation array)."""
    if s[R.PHASE] == R.BIDDING:
        return bid_choice(s, pr, actions, n, w)
    return play_choice(s, pr, actions, n)


class EstimatorAgent(CompiledBot):
    """The ``estimator`` bot (see the module docstring); ``weights``: its parameters in
    field order, as the compiled decision reads them."""

    name = "estimator"
    Params = EstimatorParams
    decide = staticmethod(decide)

    def __init__(self, params: EstimatorParams | None = None, **options: Any) -> None:
        self.params = params or EstimatorParams.from_kwargs(**options)
        self.weights = np.array([float(getattr(self.params, k)) for k in self.params.keys()],
                                dtype=np.float64)
