"""Helpers for Vicaire tests: build precise positions from a real match's state array."""

from __future__ import annotations

import engines
from engines.core.cards import parse_card
from engines.games.vicaire import rules as R
from tests.engines.tricks.trick_helpers import place_hands


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def build(deal: dict, *, dealer: int = 0, totals=(0, 0, 0), seed: int = 0, **params):
    """A deal at its first trick with exactly the given hands (seat -> card names, all of
    one size; unnamed cards out of play) and the game's ``totals`` before it; the number of
    tricks in the deal is the hand size."""
    params.setdefault("first_dealer", dealer)
    game = engines.load("vicaire", **params)
    state = game.new_state(seed)
    s = state.s
    s[R.CARDS] = place_hands(state, R, {p: cards(h) for p, h in deal.items()}, R.LOC_OUT,
                             R.DECK_CARDS)
    s[R.DEALER] = dealer
    s[R.FIRST_LEADER] = s[R.CURRENT] = (dealer + 1) % 3
    s[R.TOTAL:R.TOTAL + 3] = totals
    s[R.DEALS_IN_GAME] = 1 if any(totals) else 0
    state.refresh()
    return state
