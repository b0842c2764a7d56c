"""Baccara bots for the player's free choice at 5 (``always``, ``never``, ``coinflip``).

The three bots stake alike, so that runs compare their choice at 5 alone:

* as banker, stake ``stake`` chips (default 10), or all his chips if he has fewer;
* in the full cover round, call ``banco`` (they can always afford it: the engine asks only
  players who can cover the whole stake);
* in the partial cover round, contribute as much as they may (what is left to cover, at most
  their chips).

At 5 (as ponte or as banker): ``always`` draws, ``never`` stands, ``coinflip`` draws with
probability 1/2 from the decision stream.  The generic ``random`` agent, by contrast, picks
every decision (stakes included) uniformly among the legal actions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engines.core.api import Action
from engines.core.chance import uniform_index


class FiveAgent:
    """A baccara bot with a fixed staking rule and a policy at 5 (see the module)."""

    name = "five"

    def __init__(self, stake: int = 10) -> None:
        if stake < 1:
            raise ValueError(f"{self.name}: stake must be at least 1, got {stake}")
        self.stake = stake

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        texts = [a.text for a in legal_actions]
        if "draw" in texts:
            return legal_actions[texts.index("draw" if self.draws(rng) else "stand")]
        if "banco" in texts:
            return legal_actions[texts.index("banco")]
        if texts[0].startswith("stake"):
            return legal_actions[min(self.stake, len(legal_actions)) - 1]
        return legal_actions[-1]                    # the largest contribution

    def draws(self, rng: np.random.Generator) -> bool:
        """Whether to draw at 5."""
        raise NotImplementedError


class AlwaysDraw(FiveAgent):
    """Draws a third card at 5."""

    name = "always"

    def draws(self, rng: np.random.Generator) -> bool:
        return True


class NeverDraw(FiveAgent):
    """Stands at 5."""

    name = "never"

    def draws(self, rng: np.random.Generator) -> bool:
        return False


class CoinFlip(FiveAgent):
    """Draws at 5 with probability 1/2 (one uniform index from the decision stream)."""

    name = "coinflip"

    def draws(self, rng: np.random.Generator) -> bool:
        return uniform_index(rng, 2) == 1
