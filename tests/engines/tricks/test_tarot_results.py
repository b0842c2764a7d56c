"""Tarot result tables through sim.batch: figures that agree with each other and with the
FFT rules (the documented columns, their order and types: tests/contract)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.engines.helpers import checked_frames, per_seat

RUNS = {"tarot": {"players": 4, "num_deals": 3}, "tarot-lorrain": {"num_deals": 3},
        "tarot-tare": {"players": 5, "num_deals": 2}}
THRESHOLD = {0: 56, 1: 51, 2: 41, 3: 36}


@pytest.fixture(scope="module", params=sorted(RUNS))
def run(request):
    slug = request.param        # random seats: the kernel plays them
    return (slug, *checked_frames(slug, None, 6, kernel=True, **RUNS[slug]))


def test_tables_agree_with_each_other_and_the_rules(run):
    slug, params, frames = run
    games, players, rounds = frames["games"], frames["players"], frames["rounds"]
    assert len(rounds) == 6 * params.players * params.deals()
    merged = per_seat(players, rounds, points=("points", "sum"), won=("tricks", "sum"))
    assert np.allclose(merged.total, merged.points) and (merged.tricks == merged.won).all()
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
