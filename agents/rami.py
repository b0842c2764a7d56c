"""Bots for le rami.  Neither takes a random draw; both read only the legal actions and the
seat's observation.

``eager`` lays everything it can, as soon as it can (uniform random rummy play rarely ends a
hand, so this is the baseline that does):

1. take the discard whenever it is offered (it is offered only when it can be laid);
2. lay the longest meld offered (the first on a tie), then any lay-off, then any joker
   swap;
3. discard the card with the highest penalty, never a joker while it holds another card.

``planner`` keeps what it may use and sheds what costs:

1. take the discard whenever it is offered;
2. lay the meld worth the most meld points (longest on a tie), then lay-offs, then swaps;
3. discard the card with the lowest keep value: its penalty minus 8 points for each card of
   the hand that could meld with it (same rank in another suit, same suit one or two
   positions away); a joker is never discarded while another card is left.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.rummy_hands import suit_neighbours
from engines.core.api import Action
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T
from engines.games.rami import rules as R

NEIGHBOUR_WORTH = 8


def penalty(card: int) -> int:
    """The card's count in hand at the end of a hand."""
    if card == rummy.JOKER:
        return 1000
    rank = card % 13 + 2
    return R.ACE_PENALTY if rank == 14 else min(rank, R.FACE_PENALTY)


def neighbours(hand: np.ndarray, card: int) -> int:
    """Cards of ``hand`` that could meld with ``card``: same rank in another suit, same suit
    one or two ranks away (the Ace next to both the 2 and the K)."""
    if card == rummy.JOKER:
        return 0
    suit, index = divmod(card, 13)              # index 0..12: the ranks 2..A
    n = sum(int(hand[s * 13 + index] > 0) for s in range(4) if s != suit)
    return n + suit_neighbours(hand, card)


def lay_choice(legal: list[Action], worth: Any) -> Action | None:
    """The best meld by ``worth`` (of its meld code), else the first lay-off, else the
    first swap."""
    best, best_worth = None, None
    for a in legal:
        if a.code >= T.LAY_ACTION:
            w = worth(a.code - T.LAY_ACTION)
            if best_worth is None or w > best_worth:
                best, best_worth = a, w
    if best is not None:
        return best
    for a in legal:
        if T.LAYOFF_ACTION <= a.code < T.LAY_ACTION:
            return a
    return None


def take_or_lay(legal: list[Action], worth: Any) -> Action | None:
    """What both bots do first: take the discard whenever they may, else draw at the start
    of a turn, else lay what :func:`lay_choice` picks by ``worth``; None: they discard."""
    if legal[-1].code == T.TAKE_DISCARD:
        return legal[-1]
    if legal[0].code == T.DRAW_STOCK:
        return legal[0]
    return lay_choice(legal, worth)


# The core's meld readers as plain Python (the compiled ones cost a dispatch per call; with
# numba's JIT disabled they are plain Python already).
meld_length = getattr(rummy.meld_length, "py_func", rummy.meld_length)
meld_points = getattr(rummy.meld_points, "py_func", rummy.meld_points)
DISCARD_WORTH = [penalty(card) for card in range(rummy.JOKER)] + [-1]


class EagerAgent:
    name = "eager"

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        chosen = take_or_lay(legal_actions, meld_length)
        if chosen is not None:
            return chosen
        best = legal_actions[0]
        for a in legal_actions:
            if DISCARD_WORTH[a.code - T.DISCARD_ACTION] > \
                    DISCARD_WORTH[best.code - T.DISCARD_ACTION]:
                best = a
        return best


class PlannerAgent:
    name = "planner"

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        chosen = take_or_lay(legal_actions, lambda m: (meld_points(m), meld_length(m)))
        if chosen is not None:
            return chosen
        o = observation.array
        h = T.hand_at(observation.player)
        hand = o[h:h + rummy.CARD_KINDS]

        def keep(a: Action) -> int:
            card = a.code - T.DISCARD_ACTION
            if card == rummy.JOKER:
                return 10_000 if len(legal_actions) > 1 else 0
            return NEIGHBOUR_WORTH * neighbours(hand, card) - penalty(card)

        return min(legal_actions, key=keep)
