"""Betzanbloo's compiled batch kernel plays the very games of the Python path (same rules,
same streams, same bot decisions), and ``state.playout`` plays the game the ``random`` agent
plays."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.search import FlatMCParams, ISMCTSParams
from engines.games.betzanbloo import rules as R
from sim.batch.tables import kernel_plays
from sim.kernels import has_kernel, kernel_for
from sim.runner import play_python
from tests.engines.betzanbloo.betz_helpers import load

CASES = [
    ({"players": 5}, ["random"] * 5),
    ({"players": 3}, ["random"] * 3),
    ({"players": 8, "perso_max": 12, "drop_extremes": True, "scoring": "diamonds",
      "diamonds_11_12": 2}, ["random"] * 8),
    ({"players": 5}, ["random", "safe", "contrarian", "responder", "random"]),
    ({"players": 3, "scoring": "diamonds"}, ["responder", "contrarian", "safe"]),
    ({"players": 8, "perso_max": 12}, ["responder", "random"] * 4),
]


@pytest.mark.parametrize("params, names", CASES)
def test_the_kernel_plays_the_games_of_the_python_path(params, names):
    game = load(**params)
    n, games, seed, start = game.num_players, 200, 11, 40
    kernel = kernel_for("betzanbloo")
    seats = np.tile(kernel.policy_ids(names), (games, 1))
    out = kernel.play(game, seats, seed, start, games, keep_states=True)
    bots = [agents.load(name, game="betzanbloo") for name in names]
    turn_rows = []
    for g in range(games):
        state = play_python(game, bots, seed, start + g)
        row, turns = state.records()
        assert np.array_equal(out.rows[g], row), g
        assert np.array_equal(out.finals[g], state.s), g
        turn_rows.append(turns)
    assert np.array_equal(out.rounds, np.concatenate(turn_rows))
    assert (out.round_counts == R.TURNS * n).all()


def test_the_batch_runner_takes_the_kernel_for_compiled_bots_only():
    assert has_kernel("betzanbloo")
    assert kernel_plays("betzanbloo", ["random", "safe", "contrarian", "responder"])
    assert kernel_plays("betzanbloo", ["random", "flatmc", "ismcts"])
    kernel = kernel_for("betzanbloo")
    assert kernel.plays("flatmc", FlatMCParams(rollout="safe"))       # the game's own bot
    assert not kernel.plays("flatmc", FlatMCParams(rollout="greedy"))  # another game's
    assert not kernel.plays("ismcts", ISMCTSParams(seconds=0.1))
    with pytest.raises(ValueError, match="no compiled policy for greedy in betzanbloo"):
        kernel.policy_ids(["greedy"])
