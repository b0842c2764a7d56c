"""Helpers for Ascenseur aux atouts tests: build precise positions, check invariants
(scripted play: ``tests.engines.tricks.trick_helpers``).

Positions are built from a real game (``game.new_state(seed)``) whose flat state array is then
edited: every card is moved where the test wants it (the rest set aside), so card
conservation still holds and the position can be played on through the public API.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

import engines
from engines.games.ascenseur_atouts import rules as R
from tests.engines.tricks.trick_helpers import check_played_pile, place_hands


def load(**params):
    return engines.load("ascenseur-atouts", **params)


def card(name: str) -> int:
    """The id of ``T1`` .. ``T21`` or ``Excuse``."""
    return R.EXCUSE if name == "Excuse" else int(name[1:]) - 1


def cards(text: str | Iterable[int]) -> list[int]:
    if isinstance(text, str):
        return [card(t) for t in text.split()]
    return [int(c) for c in text]


def build(players: int = 4, hands: dict | None = None, *, dealer: int = 0,
          tour: int = 0, errors: Iterable[int] | None = None, seed: int = 0, **params):
    """A game at the start of the bids of a hand with exactly the given hands (seat -> card
    names); the hand size is that of the hands (all equal), the other cards are set aside.
    The hand sits in tour ``tour`` at its place for that size; ``dealer`` deals it (and the
    rest of its tour: ``first_dealer`` is set to match)."""
    params.setdefault("first_dealer", (dealer - tour) % players)
    game = load(players=players, **params)
    state = game.new_state(seed)
    s = state.s
    hands = {p: cards(h) for p, h in (hands or {}).items()}
    assert len(hands) == players, "give every seat a hand"
    size = place_hands(state, R, hands, R.LOC_ASIDE, R.PLAY_CARDS)
    start = game.params.start_cards
    s[R.HAND] = tour * start + start - size
    s[R.TOUR] = tour
    s[R.CARDS] = size
    s[R.BLIND] = int(size == 1)
    s[R.DEALER] = dealer
    s[R.CURRENT] = (dealer + 1) % players
    for p in range(players):
        s[R.BID + p] = -1
        s[R.TRICKS + p] = 0
    if errors is not None:
        for p, e in enumerate(errors):
            s[R.ERRORS + p] = e
    state.refresh()         # after editing state.s by hand: drop what the state caches
    return state


def locations(state) -> np.ndarray:
    return state.s[R.LOCATION:R.LOCATION + R.PLAY_CARDS]


def check_invariants(state) -> None:
    """Every card in exactly one place, hand sizes matching the trick count, tricks won
    matching the tricks completed."""
    where = locations(state)
    assert where.shape == (R.PLAY_CARDS,)
    c = check_played_pile(state, R, where, {R.LOC_ASIDE})
    if c is not None:
        assert (where == R.LOC_ASIDE).sum() == R.PLAY_CARDS - c * state.game.params.players
