"""Tarot result tables through sim.batch: figures that agree with each other and with the
FFT rules (the documented columns, their order and types: tests/contract)."""

from __future__ import annotations

import numpy as np
import pytest

import engines
from sim.batch.tables import uses_kernel
from tests.engines.helpers import batch_chunk

RUNS = {"tarot": {"players": 4, "num_deals": 3}, "tarot-lorrain": {"num_deals": 3},
        "tarot-tare": {"players": 5, "num_deals": 2}}
THRESHOLD = {0: 56, 1: 51, 2: 41, 3: 36}


@pytest.fixture(scope="module", params=sorted(RUNS))
def run(request):
    slug = request.param
    n = engines.load(slug, **RUNS[slug]).num_players
    spec, arrow = batch_chunk(slug, ("random",) * n, 6, seed=5, **RUNS[slug])
    assert uses_kernel(spec)          # random seats: the kernel plays them
    return slug, spec.params, arrow


def test_tables_agree_with_each_other_and_the_rules(run):
    slug, params, arrow = run
    n = params.players
    games, players, rounds = (arrow[k].to_pandas() for k in ("games", "players", "rounds"))
    assert len(games) == 6 and len(players) == 6 * n and len(rounds) == 6 * n * params.deals()
    per_seat = rounds.groupby(["game_id", "seat"]).agg(points=("points", "sum"),
                                                       won=("tricks", "sum"))
    merged = players.set_index(["game_id", "seat"]).join(per_seat)
    assert np.allclose(merged.total, merged.points) and (merged.tricks == merged.won).all()
    assert (games.decisions == players.groupby("game_id").decisions.sum()).all()
    deals = rounds.groupby(["game_id", "round"])
    played = rounds[rounds.annulled == "played"].groupby(["game_id", "round"])
    assert (played.tricks.sum() == played.hand_size.first()).all()
    if slug == "tarot-tare":
        assert (merged.score == -merged.total).all()
        assert (rounds.contract == "none").all() and (rounds.taker == -1).all()
        assert (played.taken.sum() <= 91).all()
        return
    assert np.allclose(deals.points.sum(), 0)                     # zero-sum FFT scores
    takers = rounds[(rounds.seat == rounds.taker) & (rounds.annulled == "played")]
    assert len(takers) > 0
    made = takers.card_points >= takers.oudlers.map(THRESHOLD)
    assert (made == takers.made).all()
    assert (games.contracts_played == takers.groupby("game_id").size().reindex(
        games.game_id, fill_value=0).to_numpy()).all()
