"""Chasse-coeur and pétasse result tables through sim.batch's Python path: figures that
agree with the games played (the documented columns, their order and types: tests/contract)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.engines.helpers import checked_frames, per_seat

RUNS = {"chasse-coeur": {"players": 3, "end_threshold": 60},
        "petasse": {"players": 4, "loss_threshold": 30}}


@pytest.fixture(scope="module", params=sorted(RUNS))
def run(request):
    slug = request.param
    n = RUNS[slug]["players"]
    return checked_frames(slug, ("dumper",) + ("random",) * (n - 1), 10, kernel=False,
                          **RUNS[slug])[1]


def test_tables_agree_with_each_other(run):
    games, players, rounds = run["games"], run["players"], run["rounds"]
    assert np.array_equal(rounds.groupby("game_id")["round"].max().to_numpy(),
                          games.rounds.to_numpy())
    merged = per_seat(players, rounds, points=("points", "sum"), won=("tricks", "sum"),
                      swept=("sweep", "sum"),
                      clean=("point_cards", lambda c: int((c == 0).sum())))
    assert (merged.total == merged.points).all() and (merged.score == -merged.total).all()
    assert (merged.tricks == merged.won).all() and (merged.sweeps == merged.swept).all()
    assert (merged.clean_hands == merged.clean).all()
    per_hand = rounds.groupby(["game_id", "round"])
    assert (per_hand.tricks.sum() == per_hand.hand_size.first()).all()
    no_sweep = ~per_hand.sweep.any()
    assert (per_hand.points.sum()[no_sweep] == per_hand.taken.sum()[no_sweep]).all()
    last = rounds[rounds["round"] == rounds.game_id.map(games.set_index("game_id").rounds)]
    assert (last.set_index(["game_id", "seat"]).score_total == merged.total).all()
