"""Random play for the tests: a game moved on by uniform random legal actions."""

from __future__ import annotations

import numpy as np

from engines.core.chance import uniform_index


def random_steps(state, rng: np.random.Generator, steps: int) -> bool:
    """Play up to ``steps`` uniform random legal actions; whether the game is still on."""
    for _ in range(steps):
        if state.is_terminal():
            return False
        actions = state.legal_actions()
        state.apply(actions[uniform_index(rng, len(actions))])
    return not state.is_terminal()
