"""What the shedding games' tests check alike: the cards the hands hold."""

from __future__ import annotations

import numpy as np


def hand_counts(state) -> np.ndarray:
    """Every hand's cards added up by card id (the rules' ``hand_at`` counts), once each
    hand's count is checked against its size (``HAND_SIZE``)."""
    s, R = state.s, state.game.rules
    counts = np.zeros(R.CARDS, dtype=np.int64)
    for p in range(state.game.params.players):
        hand = s[R.hand_at(p):R.hand_at(p) + R.CARDS]
        assert hand.sum() == s[R.HAND_SIZE + p]
        counts += hand
    return counts
