"""``random``: uniform over the legal actions, for every game.

The legal actions are taken exactly as the engine lists them, so in Paris d'amis a turn with
p placements and b bet options bets with probability b/(p+b), as the spec's "Decisions"
section prescribes.  The compiled twin draws the same index from the same stream
(:func:`engines.core.chance.uniform_index`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Action
from engines.core.chance import uniform_index, uniform_index_jit


class RandomAgent:
    name = "random"

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        return legal_actions[uniform_index(rng, len(legal_actions))]


@njit(cache=True, inline="always")
def random_choice(actions, n, rng):
    """Compiled twin of :meth:`RandomAgent.act` over an action-code buffer (inlined: a
    Generator passed through a call costs a fifth of a random betzanbloo game)."""
    return actions[uniform_index_jit(rng, n)]


@njit(cache=True, inline="always")
def action_index(actions, n, code):
    """Index of an action code among the ``n`` legal ``actions`` (-1: not legal)."""
    for i in range(n):
        if actions[i] == code:
            return i
    return -1


@njit(cache=True, inline="always")
def explores(explore, n, rng):
    """Whether a policy that explores with chance ``explore`` plays at random at a decision
    with ``n`` legal actions: the draw :class:`agents.base.Exploring` makes, compiled."""
    return explore > 0.0 and n > 1 and rng.random() < explore
