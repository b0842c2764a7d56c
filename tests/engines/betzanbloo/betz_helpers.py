"""Helpers for Betzanbloo tests: positions with a chosen threshold, scripted turns, and the
card-conservation invariant written independently of the rules."""

from __future__ import annotations

import numpy as np

import engines
from engines.games.betzanbloo import rules as R


def load(**params):
    return engines.load("betzanbloo", **params)


def with_threshold(state, threshold: int):
    """The state with ``threshold`` turned up for the current turn: it is swapped with the
    pile card in that place, so the pile still holds the six threshold cards."""
    s = state.s
    turn = int(s[R.TURN])
    pile = s[R.PILE:R.PILE + R.TURNS]
    where = int(np.flatnonzero(pile == threshold)[0])
    assert where >= turn, f"threshold {threshold} was already used"
    pile[turn], pile[where] = pile[where], pile[turn]
    s[R.THRESHOLD] = threshold
    return state


def start(threshold: int, players: int = 3, seed: int = 0, **params):
    """A new game whose first threshold is ``threshold``."""
    return with_threshold(load(players=players, **params).new_state(seed), threshold)


def play_turn(state, cards):
    """Every seat plays its card of ``cards`` in seat order."""
    for card in cards:
        state.apply(f"play {card}")
    return state


def cards(mask: int) -> set[int]:
    return {v for v in range(1, R.HIGHEST_PERSO + 1) if mask >> v & 1}


def check_conservation(state) -> None:
    """Every personal card of every seat is in exactly one place: in hand, played this turn
    (not yet resolved), saved, discarded, or taken by a lone player; captures match the cards
    taken; and the threshold pile holds the six threshold cards."""
    s, params = state.s, state.game.params
    lowest = 2 if params.drop_extremes else 1
    highest = params.perso_max - 1 if params.drop_extremes else params.perso_max
    full = set(range(lowest, highest + 1))
    taken_values: list[int] = []
    captured_values: list[int] = []
    for p in range(params.players):
        played = {int(s[R.PLAYED + p])} - {0}
        places = [cards(int(s[R.HAND + p])), played, cards(int(s[R.SAVED + p])),
                  cards(int(s[R.LOST + p])), cards(int(s[R.TAKEN + p]))]
        assert sum(len(c) for c in places) == len(full), (p, places)
        assert set().union(*places) == full, (p, places)
        taken_values += sorted(places[4])
        captured_values += [v for v in range(R.VALUES)
                            for _ in range(int(s[R.CAPTURED + p * R.VALUES + v]))]
    assert sorted(taken_values) == sorted(captured_values)
    assert sorted(s[R.PILE:R.PILE + R.TURNS].tolist()) == list(range(3, 9))
