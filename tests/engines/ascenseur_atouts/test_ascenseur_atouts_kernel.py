"""The Ascenseur aux atouts batch kernel plays the very games of the Python API: same rules,
same streams, same bots, so the same records on >= 200 seeds, for every player count, the
variants, random and the estimator; and the batch runner's tables are the same on both
paths."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import agents
from engines.games.ascenseur_atouts.params import AscenseurParams
from sim.batch.spec import RunSpec
from sim.batch.tables import play_chunk, uses_kernel
from sim.kernels import ascenseur_atouts as K
from sim.kernels import kernel_for
from sim.runner import play_kernel, play_python
from tests.engines.ascenseur_atouts.ascenseur_helpers import load

CONFIGS = {
    "4p-default": {"players": 4},
    "3p-variants": {"players": 3, "start_cards": 7, "blind_excuse": "owner-chooses",
                    "ties": "last-hand", "first_dealer": 2},
    "2p-sighted-hook": {"players": 2, "start_cards": 11, "hook": "sighted-hands",
                        "target_errors": 6},
}
SEATS = {
    "random": lambda n: ["random"] * n,
    "estimator": lambda n: ["estimator"] * n,
    "mixed": lambda n: (["estimator", "random"] * n)[:n],
}


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("config", CONFIGS)
def test_kernel_and_python_play_identical_games(config, seats):
    game = load(**CONFIGS[config])
    n = game.num_players
    names = SEATS[seats](n)
    count = 210 if config == "4p-default" else 70      # >= 200 seeds for each seating
    seed = 11
    out = play_kernel(game, names, seed, 0, count, keep_states=True)
    bots = [agents.load(name, game="ascenseur-atouts") for name in names]
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


def test_round_rows_never_overflow_the_bound():
    game = load(players=4, target_errors=13, hook="sighted-hands")
    out = play_kernel(game, ["random"] * 4, 3, 0, 300)
    assert out.round_counts.max() <= K.max_round_rows(game.params)
    assert (out.round_counts % 4 == 0).all()


def test_batch_tables_are_the_same_on_both_paths(monkeypatch):
    params = AscenseurParams(players=3)
    spec = RunSpec(game="ascenseur-atouts", params=params,
                   agents=("estimator", "random", "random"), seating="rotate", seed=4,
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
    with pytest.raises(ValueError, match="compiled agents: estimator, random"):
        kernel_for("ascenseur-atouts").policy_ids(["flatmc"])
