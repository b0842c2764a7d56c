"""Helpers for the huit américain tests: build a position card by card, read it back, and
check that every card is in exactly one place."""

from __future__ import annotations

import numpy as np

import engines
from engines.core.cards import parse_card
from engines.families.shedding.rules import hand_at
from engines.games.huit_americain import rules as R
from tests.engines.shedding.shed_helpers import hand_counts


def load(**params):
    return engines.load("huit-americain", **params)


def ids(names: str) -> list[int]:
    """Card ids of space-separated names (``"10♠ 10♦ K♦"``)."""
    return [parse_card(n) for n in names.split()]


def position(game, hands: list[str], top: str, stock: str = "", under: str = "",
             current: int = 0, suit: str | None = None):
    """A state in a normal turn: ``hands[p]`` for seat p, ``top`` on the discard pile (with
    ``under`` beneath it), ``stock`` listed in drawing order (first name drawn first), the
    suit to follow ``suit`` (default: the top card's).  The cards left over are not in play:
    positions check the rules, not conservation."""
    state = game.new_state(0)
    s = state.s
    players = game.params.players
    s[R.HAND:R.HAND + R.MAX_PLAYERS * R.CARDS] = 0
    s[R.HAND_SIZE:R.HAND_SIZE + R.MAX_PLAYERS] = 0
    for p in range(players):
        for card in ids(hands[p]) if p < len(hands) else []:
            s[hand_at(R.HAND, R.CARDS, p) + card] += 1
            s[R.HAND_SIZE + p] += 1
    drawn_first = ids(stock)
    s[R.STOCK_LEN] = len(drawn_first)
    for i, card in enumerate(reversed(drawn_first)):
        s[R.STOCK + i] = card
    pile = ids(under) + ids(top)
    s[R.DISCARD_LEN] = len(pile)
    for i, card in enumerate(pile):
        s[R.DISCARD + i] = card
    s[R.TOP] = pile[-1]
    s[R.SUIT] = R.suit_of(pile[-1]) if suit is None else ids("2" + suit)[0] // 13
    s[R.PHASE] = R.TURN
    s[R.CURRENT] = current
    return state


def legal(state) -> list[str]:
    return [a.text for a in state.legal_actions()]


def hand(state, player: int) -> list[str]:
    return state.hand(player)


def check_conservation(state) -> None:
    """Every copy of every card is in exactly one place: a hand, the stock or the discard
    pile (``decks`` copies of each)."""
    s = state.s
    decks = state.game.params.num_decks
    counts = hand_counts(state)
    np.add.at(counts, s[R.STOCK:R.STOCK + s[R.STOCK_LEN]], 1)
    np.add.at(counts, s[R.DISCARD:R.DISCARD + s[R.DISCARD_LEN]], 1)
    assert (counts == decks).all(), counts
    assert s[R.TOP] == s[R.DISCARD + s[R.DISCARD_LEN] - 1]
