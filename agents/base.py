"""The agent protocol: every bot decides from what its seat may know."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from engines.core.api import Action


@runtime_checkable
class Agent(Protocol):
    """A bot.  ``act`` returns one of ``legal_actions``; ``rng`` is the game's decision
    stream (a numpy Generator), the bot's only source of randomness."""

    name: str

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action: ...
