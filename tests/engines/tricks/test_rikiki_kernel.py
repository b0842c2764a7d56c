"""The Rikiki batch kernel plays the very games of the Python API: same rules, same streams,
same bots, so the same records on >= 200 seeds per seating, for several player counts, the
variants, random and the counter (the batch runner's tables on both paths, with the
counter: tests/sim/test_kernels.py)."""

from __future__ import annotations

import pytest

from sim.kernels import kernel_for
from tests.engines.helpers import assert_kernel_plays_python, seat_mixes
from tests.engines.tricks.rikiki_helpers import load

CONFIGS = {
    "4p-one-5-card-deal": ({"players": 4, "hands": (5,)}, 210),
    "3p-variants": ({"players": 3, "hands": (1, 4, 7, 2), "must_trump": True,
                     "must_overtrump": True, "hook_rule": True, "first_dealer": 2}, 70),
    "5p-spec-schedule": ({"players": 5, "max_rule": 52, "allow_overbid": True}, 20),
}
SEATS = seat_mixes("counter")


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("config", CONFIGS)
def test_kernel_and_python_play_identical_games(config, seats):
    params, count = CONFIGS[config]
    game = load(**params)
    names = SEATS[seats](game.num_players)
    assert_kernel_plays_python(game, names, seed=11, start=0, count=count)


def test_unknown_policy_names_the_compiled_ones():
    with pytest.raises(ValueError, match="compiled agents: counter, flatmc, ismcts, random"):
        kernel_for("rikiki").policy_ids(["greedy"])
