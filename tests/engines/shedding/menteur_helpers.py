"""Helpers for the menteur tests: build a position card by card, and check that every card
is in exactly one place."""

from __future__ import annotations

import numpy as np

import engines
from engines.core.cards import parse_card
from engines.families.shedding.rules import hand_at
from engines.games.menteur import rules as R
from tests.engines.shedding.shed_helpers import hand_counts


def load(**params):
    return engines.load("menteur", **params)


def ids(names: str) -> list[int]:
    return [parse_card(n) for n in names.split()]


def position(game, hands: list[str], pile: str = "", owners: tuple[int, ...] = (),
             suit: str | None = None, current: int = 0):
    """A state where ``current`` lays: leading when ``pile`` is empty, else following the
    pile (bottom first, laid by ``owners``) announced as ``suit``.  Cards left over are not
    in play."""
    state = game.new_state(0)
    s = state.s
    s[R.HAND:R.HAND + R.MAX_PLAYERS * R.CARDS] = 0
    s[R.HAND_SIZE:R.HAND_SIZE + R.MAX_PLAYERS] = 0
    for p, names in enumerate(hands):
        for card in ids(names):
            s[hand_at(R.HAND, R.CARDS, p) + card] += 1
            s[R.HAND_SIZE + p] += 1
    cards = ids(pile)
    s[R.PILE_LEN] = len(cards)
    for i, card in enumerate(cards):
        s[R.PILE + i] = card
        s[R.PILE_OWNER + i] = owners[i]
    s[R.PHASE] = R.FOLLOW if cards else R.LEAD
    s[R.SUIT] = "♥♦♠♣".index(suit) if suit else R.NO_SUIT
    s[R.CURRENT] = current
    return state


def check_conservation(state) -> None:
    """Every card of the pack is in exactly one hand or in the pile."""
    s = state.s
    pr = state.game.encoded_params
    counts = hand_counts(state)
    np.add.at(counts, s[R.PILE:R.PILE + s[R.PILE_LEN]], 1)
    assert (counts == pr[R.P_IN_DECK:R.P_IN_DECK + R.CARDS]).all(), counts
