"""The Ascenseur aux atouts batch kernel plays the very games of the Python API: same rules,
same streams, same bots, so the same records on >= 200 seeds, for every player count, the
variants, random and the estimator (the batch runner's tables on both paths, with the
estimator: tests/sim/test_kernels.py)."""

from __future__ import annotations

import pytest

from sim.kernels import ascenseur_atouts as K
from sim.kernels import kernel_for
from sim.runner import play_kernel
from tests.engines.ascenseur_atouts.ascenseur_helpers import load
from tests.engines.helpers import assert_kernel_plays_python, seat_mixes

CONFIGS = {
    "4p-default": {"players": 4},
    "3p-variants": {"players": 3, "start_cards": 7, "blind_excuse": "owner-chooses",
                    "ties": "last-hand", "first_dealer": 2, "ending": "round-of-dealers"},
    "2p-sighted-hook": {"players": 2, "start_cards": 11, "hook": "sighted-hands",
                        "target_errors": 6},
}
SEATS = seat_mixes("estimator")


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("config", CONFIGS)
def test_kernel_and_python_play_identical_games(config, seats):
    game = load(**CONFIGS[config])
    names = SEATS[seats](game.num_players)
    count = 210 if config == "4p-default" else 70      # >= 200 seeds for each seating
    assert_kernel_plays_python(game, names, seed=11, start=0, count=count)


@pytest.mark.parametrize("ending", ["hand", "round-of-dealers"])
def test_round_rows_never_overflow_the_bound(ending):
    game = load(players=4, target_errors=13, hook="sighted-hands", ending=ending)
    out = play_kernel(game, ["random"] * 4, 3, 0, 300)
    assert out.round_counts.max() <= K.max_round_rows(game.params)
    assert (out.round_counts % 4 == 0).all()
    # 4 rows a hand; a round of dealers is 4 tours of 5 hands: only C6 ends every game on one
    closes_round = out.round_counts % (4 * 5 * 4) == 0
    assert closes_round.all() == (ending == "round-of-dealers")


def test_unknown_policy_names_the_compiled_ones():
    with pytest.raises(ValueError, match="compiled agents: estimator, flatmc, ismcts, random"):
        kernel_for("ascenseur-atouts").policy_ids(["greedy"])
