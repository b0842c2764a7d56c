"""Play for the tests: a game moved on by uniform random legal actions (some steps or to
the end); a batch chunk whose
tables are checked against the game's results page."""

from __future__ import annotations

import numpy as np

from engines.core.chance import uniform_index
from sim.batch.spec import RunSpec
from sim.batch.tables import play_chunk


def random_steps(state, rng: np.random.Generator, steps: int) -> bool:
    """Play up to ``steps`` uniform random legal actions; whether the game is still on."""
    for _ in range(steps):
        if state.is_terminal():
            return False
        actions = state.legal_actions()
        state.apply(actions[uniform_index(rng, len(actions))])
    return not state.is_terminal()


def random_position(game, seed: int, steps: int):
    """A game of seed ``seed`` after up to ``steps`` uniform random legal actions (rng of
    the same seed); None once it has ended."""
    state = game.new_state(seed)
    return state if random_steps(state, np.random.default_rng(seed), steps) else None


def play_random(state, rng: np.random.Generator, check=None, limit: int | None = None):
    """Play uniform random legal actions to the end (or ``limit`` actions), calling
    ``check(state)`` before each; return the state."""
    steps = 0
    while not state.is_terminal() and (limit is None or steps < limit):
        if check:
            check(state)
        actions = state.legal_actions()
        state.apply(actions[uniform_index(rng, len(actions))])
        steps += 1
    return state


def documented_tables(slug: str, params, names: tuple[str, ...], games: int,
                      tables: tuple[str, ...] = ("games", "players", "rounds")) -> dict:
    """A chunk of ``games`` games (seed 1, seats rotating) by the agents ``names``; every
    column of the named ``tables`` is named in ``docs/results-<slug>.md``."""
    spec = RunSpec(game=slug, params=params, agents=names, seating="rotate", seed=1,
                   games=games, chunk_size=games)
    chunk = play_chunk(spec, 0, games)
    doc = open(f"docs/results-{slug}.md", encoding="utf-8").read()
    for table in tables:
        for name in chunk[table].column_names:
            assert f"`{name}`" in doc, name
    return chunk
