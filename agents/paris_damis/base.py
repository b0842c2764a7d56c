"""The Python face of a compiled Paris d'amis strategy.

Each strategy is written once, as a compiled ``decide(s, pr, actions, n, rng, weights)`` that
returns the index of its choice among the ``n`` legal action codes.  The batch kernel calls it
on the state; :class:`StrategyAgent` calls the very same function on the seat's masked
observation, so both paths choose the same actions.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import numpy as np

from engines.api import Action
from engines.params import Params
from engines.paris_damis import rules as R
from engines.paris_damis.params import ParisDamisParams


def weights(params: Params) -> np.ndarray:
    """A strategy's parameters as the float64 array its compiled decision reads, in field
    order."""
    return np.array([float(getattr(params, key)) for key in params.keys()], dtype=np.float64)


def field_index(params_class: type[Params]) -> dict[str, int]:
    """Position of each parameter in :func:`weights`."""
    return {key: i for i, key in enumerate(params_class.keys())}


@functools.lru_cache(maxsize=32)
def encoded(params: ParisDamisParams) -> np.ndarray:
    """The game's flat parameter array (encoded once per parameter set, read-only)."""
    array = R.encode_params(params)
    array.setflags(write=False)
    return array


class StrategyAgent:
    """An agent whose decisions are a compiled strategy's.  Subclasses name the strategy,
    its parameter class and its compiled ``decide``; ``agents.load(name, **params)`` passes
    the parameters by keyword (unknown keys name the valid ones)."""

    name: ClassVar[str]
    Params: ClassVar[type[Params]]
    decide: ClassVar[Any]

    def __init__(self, **params: Any) -> None:
        self.params = self.Params.from_kwargs(**params)
        self._weights = weights(self.params)

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        codes = np.fromiter((a.code for a in legal_actions), dtype=np.int32,
                            count=len(legal_actions))
        choice = type(self).decide(observation.array, encoded(observation.params), codes,
                                   len(codes), rng, self._weights)
        return legal_actions[choice]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params})"
