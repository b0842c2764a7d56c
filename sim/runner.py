"""Playing games: one at a time through the common API, or in bulk through a kernel.

Game ``index`` of a run with ``seed`` has two streams (``engines.core.seeding``): chance for the
rules (``game.new_state(seed, index)``), decisions for the agents (``decision_rng``).  Both
paths below honour that, so a game is the same whichever path, chunking or machine plays it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import agents
from agents import profiles
from agents.base import Agent
from engines.core.api import Action
from engines.core.seeding import decision_rng
from sim.kernels import kernel_for

HUMAN = "human"     # a run's agent name for a seat a person played (``python -m sim.play``)


class RecordingMismatch(ValueError):
    """Recorded moves that do not fit the game being replayed."""


class RecordedAgent:
    """Plays a seat's recorded moves (action codes) in order: a person's game, replayed."""

    name = HUMAN

    def __init__(self, moves: Sequence[int]) -> None:
        self.moves = list(moves)
        self.played = 0

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        if self.played >= len(self.moves):
            raise RecordingMismatch(f"the recording ends after {len(self.moves)} moves but "
                                    f"the game asks for another")
        code = self.moves[self.played]
        self.played += 1
        for action in legal_actions:
            if action.code == code:
                return action
        raise RecordingMismatch(f"recorded move {self.played} (action code {code}) is not legal "
                         f"here; legal: {', '.join(a.text for a in legal_actions)}")


def play_python(game: Any, agents: Sequence[Agent], seed: int, index: int = 0) -> Any:
    """Play game ``index`` of a run with ``seed`` to the end; ``agents[p]`` sits at seat p.
    Returns the final state."""
    if len(agents) != game.num_players:
        raise ValueError(f"{len(agents)} agents for {game.num_players} seats")
    decisions = decision_rng(seed, index)
    state = game.new_state(seed, index)
    acts = [agent.act for agent in agents]
    is_terminal, observation, legal_actions, apply = \
        state.is_terminal, state.observation, state.legal_actions, state.apply
    while not is_terminal():
        player = state.current_player
        legal = legal_actions()
        apply(acts[player](observation(player), legal, decisions))
    return state


def agent_params(game: str, agent_names: Sequence[str]) -> list[tuple[str, Any, float]]:
    """Each agent as (its bot's name, its profile's parameters or None for a plain name, its
    profile's ``explore``: see :mod:`agents`); a bad name or profile raises ValueError naming
    the valid choices."""
    return [(profiles.split(a)[0], agents.params_for(a, game), agents.exploration(a, game))
            for a in agent_names]


def play_kernel(game: Any, agent_names: Sequence[str], seed: int, start: int, count: int,
                keep_states: bool = False) -> Any:
    """Games ``start .. start+count-1`` in the game's compiled kernel, ``agent_names[p]`` at
    seat p in every game (``NAME@PROFILE``: with its profile's parameters).  Returns the
    kernel's output (summary rows, round rows, and final states if asked)."""
    kernel = kernel_for(game.slug)
    if len(agent_names) != game.num_players:
        raise ValueError(f"{len(agent_names)} agents for {game.num_players} seats")
    ids, weights = kernel.lineup(agent_params(game.slug, agent_names), game.slug)
    return kernel.play(game, np.tile(ids, (count, 1)), seed, start, count,
                       keep_states=keep_states, weights=weights)
