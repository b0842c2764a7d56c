"""Helpers for chasse-coeur and pétasse tests: build precise positions, play scripted
actions, check invariants.

Positions are built from a real game (``game.new_state(seed)``) whose flat state array is then
edited: every seat gets the cards the test names; cards named nowhere are out of the game, so
card conservation still holds and the position can be played on through the public API.
"""

from __future__ import annotations

import numpy as np

import engines
from engines.core.cards import parse_card
from engines.families.avoidance import rules as R
from tests.engines.tricks.trick_helpers import check_out_of_play, check_trick, place_hands


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def build(slug: str, deal: dict, *, dealer: int = 0, leader: int | None = None,
          scores=None, seed: int = 0, **params):
    """A game at its first trick with exactly the given hands (seat -> card names, all of
    one size); ``leader`` leads (default: as the game decides); ``scores``: totals so far."""
    params.setdefault("first_dealer", dealer)
    game = engines.load(slug, players=len(deal), **params)
    state = game.new_state(seed)
    s = state.s
    hands = {p: cards(h) for p, h in deal.items()}
    s[R.CARDS] = place_hands(state, R, hands, R.LOC_OUT, R.DECK_CARDS)
    s[R.DEALER] = dealer
    s[R.PHASE] = R.PLAYING
    s[R.FIRST_LEADER] = R.first_leader(s, game.encoded_params) if leader is None else leader
    s[R.CURRENT] = s[R.FIRST_LEADER]
    if scores is not None:
        s[R.SCORE:R.SCORE + len(scores)] = scores
    state.refresh()
    return state



def check_invariants(state) -> None:
    """Every card in play in exactly one place; hand sizes matching the tricks; points taken
    matching the cards in each seat's tricks."""
    s = state.s
    pr = state.game.encoded_params
    n = state.game.params.players
    where, in_play = check_out_of_play(state, R)
    if state.is_terminal():
        return
    k = int(s[R.CARDS])
    completed = check_trick(state, R, where, k)
    kitty = int(in_play.sum()) - k * n
    assert (where == R.LOC_KITTY).sum() == (kitty if completed == 0 else 0)
    won = sum(int((where == R.LOC_WON + p).sum()) for p in range(n))
    assert won == completed * n + (kitty if completed else 0)
    for p in range(n):
        mine = np.flatnonzero(where == R.LOC_WON + p)
        assert s[R.POINT_CARDS + p] == pr[R.P_POINT_CARD + mine].sum()
