"""The common game API every engine follows, so that every bot, runner and report works on
every game.

A *game* (``engines.load(slug, **params)``) is immutable: its parameters, its action table,
and ``new_state(seed)``.  A *state* is one game in progress::

    state.current_player      # the seat to decide (an int), -1 once the game is over
    state.legal_actions()     # list of Action, in a fixed, documented order
    state.apply(action)       # plays it (chance events that follow are resolved at once)
    state.is_terminal()
    state.result()            # Result: per-seat score, rank, win share, plus game statistics
    state.observation(p)      # exactly what seat p may know
    state.clone()             # an independent copy (same future chance events)
    state.determinize(p, rng) # a full state consistent with p's observation
    state.log                 # readable event log

An observation offers ``observation.determinize(rng)``: ``state.determinize(p, rng)`` for the
state and seat that made it (hidden cards re-dealt from ``rng``, a fresh chance stream drawn
from it), so that agents, which see only observations, can search; it raises ``ValueError``
once that state has moved on.  For a given ``rng`` the result depends only on what p may know.

Optional fast path: a state may offer ``state.playout(rng)``, which plays to the end as the
``random`` agent would with decision stream ``rng`` (the same game as through ``apply``) in
compiled code, and returns the seats' win shares.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np


class IllegalActionError(ValueError):
    """An action that is not legal in the current state (the state is left unchanged)."""


@dataclass(frozen=True, slots=True)
class Action:
    """A small immutable action: an integer code within its game, and a readable text."""

    code: int
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Result:
    """Outcome of a finished game.

    ``scores``: the game's primary score per seat (higher is better);
    ``ranks``: 1 for the winner(s), equal ranks for players the rules cannot separate;
    ``win_shares``: 1 for a sole winner, 1/k for each of k players sharing a win, else 0
    (they sum to 1);
    ``stats``: game-level figures (``decisions``, ``rounds``, and the game's own);
    ``details``: per-seat figures of the game (e.g. suit scores), seat-indexed tuples.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    win_shares: tuple[float, ...]
    stats: dict[str, Any] = field(default_factory=dict)
    details: dict[str, tuple] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(p for p, r in enumerate(self.ranks) if r == 1)


@runtime_checkable
class State(Protocol):
    @property
    def current_player(self) -> int: ...
    def legal_actions(self) -> list[Action]: ...
    def apply(self, action: Action | int | str) -> None: ...
    def is_terminal(self) -> bool: ...
    def result(self) -> Result: ...
    def observation(self, player: int) -> Any: ...
    def clone(self) -> State: ...
    def determinize(self, player: int, rng: np.random.Generator) -> State: ...
    @property
    def log(self) -> list[str]: ...


@runtime_checkable
class Game(Protocol):
    slug: str
    params: Any

    @property
    def num_players(self) -> int: ...
    def new_state(self, seed: int | np.random.Generator = 0) -> State: ...
