"""The agent protocol: every bot decides from what its seat may know."""

from __future__ import annotations

import math
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from engines.core.api import Action
from engines.core.chance import uniform_index

# The option, and profile key, of a bot's exploration (see :class:`Exploring`).
EXPLORE = "explore"


@runtime_checkable
class Agent(Protocol):
    """A bot.  ``act`` returns one of ``legal_actions``; ``rng`` is the game's decision
    stream (a numpy Generator), the bot's only source of randomness."""

    name: str

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action: ...


def check_explore(value: object) -> float:
    """``value`` as a chance of exploring; anything but a number in [0, 1] names the valid
    values."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or not 0 <= value <= 1:
        raise ValueError(f"bad value for {EXPLORE}: {value!r}; valid values: a number "
                         f"from 0 to 1")
    return float(value)


class Exploring:
    """A bot that, at a decision with a choice, plays a uniformly random legal action with
    probability ``explore`` (one draw from the decision stream, then the ``random`` agent's
    draw) and otherwise lets ``bot`` decide; with a single legal action it only asks the
    bot.  The batch kernel plays the same choices (:meth:`sim.kernels.factory.Kernel.lineup`)."""

    def __init__(self, bot: Agent, explore: float) -> None:
        self.bot = bot
        self.explore = explore
        self.name = getattr(bot, "name", type(bot).__name__)

    def __getattr__(self, attribute: str) -> Any:       # the bot's params, ...
        if attribute == "bot":                          # not set yet (unpickling)
            raise AttributeError(attribute)
        return getattr(self.bot, attribute)

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        n = len(legal_actions)
        if n > 1 and rng.random() < self.explore:
            return legal_actions[uniform_index(rng, n)]
        return self.bot.act(observation, legal_actions, rng)


class CompiledBot:
    """A bot whose choice is one compiled function, ``decide(o, pr, actions, n, weights)``:
    the index of its choice among the ``n`` legal codes ``actions``, read from the seat's
    observation array ``o``, the game's encoded parameters ``pr`` and ``weights`` (the bot's
    parameters as the function reads them, none unless a subclass sets them).  The batch
    kernel calls the very same function, so both paths choose alike."""

    name: ClassVar[str]
    weights: np.ndarray = np.zeros(0, dtype=np.float64)

    @staticmethod
    def decide(o: np.ndarray, pr: np.ndarray, actions: np.ndarray, n: int,
               weights: np.ndarray) -> int:
        raise NotImplementedError

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        codes = np.array([a.code for a in legal_actions], dtype=np.int32)
        return legal_actions[self.decide(observation.array, observation.encoded_params, codes,
                                         len(codes), self.weights)]
