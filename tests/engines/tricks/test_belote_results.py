"""Belote à trois and belote de comptoir result tables through sim.batch: figures that agree
with the games played (the documented columns, their order and types: tests/contract)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.engines.helpers import checked_frames, per_seat

RUNS = {"belote-a-trois": {"target": 300}, "belote-comptoir": {"players": 4, "target": 3}}


@pytest.fixture(scope="module", params=sorted(RUNS))
def run(request):
    slug = request.param        # random seats: the kernel plays them
    return slug, checked_frames(slug, None, 8, kernel=True, **RUNS[slug])[1]


def test_tables_agree_with_each_other(run):
    slug, frames = run
    games, players, rounds = frames["games"], frames["players"], frames["rounds"]
    assert np.array_equal(rounds.groupby("game_id")["round"].max().to_numpy(),
                          games.rounds.to_numpy())
    merged = per_seat(players, rounds, points=("points", "sum"), won=("tricks", "sum"),
                      bel=("belote", "sum"))
    assert (merged.total == merged.points).all() and (merged.score == merged.total).all()
    assert (merged.tricks == merged.won).all() and (merged.belotes == merged.bel).all()
    played = rounds[~rounds.passed_out]
    takes = played[played.seat == played.taker].groupby(["game_id", "seat"]).size()
    assert (merged.takes == takes.reindex(merged.index, fill_value=0)).all()
    per_deal = played.groupby(["game_id", "round"])
    assert (per_deal.tricks.sum() == per_deal.hand_size.first()).all()
    if slug == "belote-a-trois":
        assert (per_deal.taken.sum() == 162).all()
    redeals = rounds.groupby(["game_id", "round"]).passed_out.first().groupby("game_id").sum()
    assert (games.set_index("game_id").redeals == redeals).all()
