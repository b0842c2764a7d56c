"""Helpers for Rikiki tests: build precise positions, play scripted actions, check
invariants.

Positions are built from a real game (``game.new_state(seed)``) whose flat state array is then
edited: every card is moved where the test wants it (the rest left in the stock), so card
conservation still holds and the position can be played on through the public API.
"""

from __future__ import annotations

import numpy as np

import engines
from engines.core.cards import parse_card
from engines.games.rikiki import rules as R
from tests.engines.tricks.trick_helpers import check_played_pile, place_hands


def load(**params):
    return engines.load("rikiki", **params)


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def build(deal: dict, *, dealer: int = 0, trump: str | None = None, seed: int = 0,
          **params):
    """A game at the start of the bids of a round with exactly the given hands (seat -> card
    names, all of one size k) and the turned card ``trump`` (None: no trump); the round is
    the first of the schedule with k cards, dealt by ``dealer``."""
    players = len(deal)
    params.setdefault("first_dealer", dealer)
    game = load(players=players, **params)
    state = game.new_state(seed)
    s = state.s
    size = place_hands(state, R, {p: cards(h) for p, h in deal.items()}, R.LOC_STOCK,
                       R.DECK_CARDS)
    turned = parse_card(trump) if trump else None
    assert turned is None or s[R.LOCATION + turned] == R.LOC_STOCK, "the turned card is dealt"
    s[R.TRUMP_CARD] = -1 if turned is None else turned
    s[R.TRUMP] = -1 if turned is None else turned // 13
    if turned is not None:
        s[R.LOCATION + turned] = R.LOC_TURNED
    s[R.ROUND] = game.params.schedule().index(size)
    s[R.CARDS] = size
    s[R.DEALER] = dealer
    s[R.FIRST_DEALER] = (dealer - s[R.ROUND]) % players
    s[R.FIRST_LEADER] = s[R.CURRENT] = (dealer + 1) % players
    state.refresh()         # after editing state.s by hand: drop what the state caches
    return state



def locations(state) -> np.ndarray:
    return state.s[R.LOCATION:R.LOCATION + R.DECK_CARDS]


def check_invariants(state) -> None:
    """Every card in exactly one place, hand sizes matching the trick count, tricks won
    matching the tricks completed."""
    where = locations(state)
    k = check_played_pile(state, R, where, {R.LOC_STOCK, R.LOC_TURNED})
    if k is None:
        return
    n = state.game.params.players
    turned = int((where == R.LOC_TURNED).sum())
    assert turned == (1 if k * n < R.DECK_CARDS else 0) == (state.s[R.TRUMP_CARD] >= 0)
    assert (where == R.LOC_STOCK).sum() == R.DECK_CARDS - k * n - turned
