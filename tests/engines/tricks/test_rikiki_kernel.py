"""The Rikiki batch kernel plays the very games of the Python API: same rules, same streams,
same bots, so the same records on >= 200 seeds per seating, for several player counts, the
variants, random and the counter; and the batch runner's tables are the same on both
paths."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import agents
from engines.games.rikiki.params import RikikiParams
from sim.batch.spec import RunSpec
from sim.batch.tables import play_chunk, uses_kernel
from sim.kernels import kernel_for
from sim.runner import play_kernel, play_python
from tests.engines.tricks.rikiki_helpers import load

CONFIGS = {
    "4p-one-5-card-deal": ({"players": 4, "hands": (5,)}, 210),
    "3p-variants": ({"players": 3, "hands": (1, 4, 7, 2), "must_trump": True,
                     "must_overtrump": True, "hook_rule": True, "first_dealer": 2}, 70),
    "5p-spec-schedule": ({"players": 5, "max_rule": 52, "allow_overbid": True}, 20),
}
SEATS = {
    "random": lambda n: ["random"] * n,
    "counter": lambda n: ["counter"] * n,
    "mixed": lambda n: (["counter", "random"] * n)[:n],
}


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("config", CONFIGS)
def test_kernel_and_python_play_identical_games(config, seats):
    params, count = CONFIGS[config]
    game = load(**params)
    n = game.num_players
    names = SEATS[seats](n)
    seed = 11
    out = play_kernel(game, names, seed, 0, count, keep_states=True)
    bots = [agents.load(name, game="rikiki") for name in names]
    offset = 0
    for g in range(count):
        state = play_python(game, bots, seed, g)
        row, rounds = state.records()
        assert np.array_equal(out.finals[g], state.s), (config, seats, g)
        assert np.array_equal(out.rows[g], row)
        k = int(out.round_counts[g])
        assert np.array_equal(out.rounds[offset:offset + k], rounds)
        offset += k
    assert offset == len(out.rounds)


def test_batch_tables_are_the_same_on_both_paths(monkeypatch):
    params = RikikiParams(players=3, hands=(3, 6, 2))
    spec = RunSpec(game="rikiki", params=params,
                   agents=("counter", "random", "random"), seating="rotate", seed=4,
                   games=40, chunk_size=40)
    assert uses_kernel(spec)
    compiled = play_chunk(spec, 5, 20)
    monkeypatch.setattr("sim.batch.tables.uses_kernel", lambda spec: False)
    python = play_chunk(spec, 5, 20)
    assert sorted(compiled) == sorted(python) == ["games", "players", "rounds"]
    for name in compiled:
        assert compiled[name].schema == python[name].schema, name
        pd.testing.assert_frame_equal(compiled[name].to_pandas(), python[name].to_pandas())


def test_unknown_policy_names_the_compiled_ones():
    with pytest.raises(ValueError, match="compiled agents: counter, random"):
        kernel_for("rikiki").policy_ids(["flatmc"])
