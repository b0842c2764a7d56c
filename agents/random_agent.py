"""``random``: uniform over the legal actions, for every game.

The legal actions are taken exactly as the engine lists them, so in Paris d'amis a turn with
p placements and b bet options bets with probability b/(p+b), as the spec's "Decisions"
section prescribes.  The compiled twin draws the same number from the same stream.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.api import Action


class RandomAgent:
    name = "random"

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        return legal_actions[rng.integers(len(legal_actions))]


@njit(cache=True, inline="always")
def random_choice(actions, n, rng):
    """Compiled twin of :meth:`RandomAgent.act` over an action-code buffer."""
    return actions[rng.integers(0, n)]
