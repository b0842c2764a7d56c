"""Ascenseur aux atouts result tables through sim.batch: figures that agree with the games
played (the documented columns, their order and types: tests/contract)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.engines.helpers import batch_chunk


@pytest.fixture(scope="module")
def arrow():
    return batch_chunk("ascenseur-atouts", ("random",) * 3, 12, seed=5, players=3,
                       start_cards=4)[1]


@pytest.fixture(scope="module")
def tables(arrow):
    return {k: v.to_pandas() for k, v in arrow.items()}


def test_tables_agree_with_each_other(tables):
    games, players, rounds = tables["games"], tables["players"], tables["rounds"]
    assert len(games) == 12 and len(players) == 36
    hands = rounds.groupby("game_id").round.max()
    assert np.array_equal(hands.to_numpy(), games.rounds.to_numpy())
    assert len(rounds) == 3 * games.rounds.sum()
    per_seat = rounds.groupby(["game_id", "seat"]).agg(
        error=("error", "sum"), won=("tricks", "sum"), exact=("bet_correct", "sum"),
        excuses=("played_excuse", "sum"))
    merged = players.set_index(["game_id", "seat"]).join(per_seat)
    assert (merged.errors == merged.error).all()
    assert (merged.tricks == merged.won).all()
    assert (merged.exact_bids == merged.exact).all()
    assert (merged.excuses_played == merged.excuses).all()
    assert (merged.score == -merged.errors).all()
    assert (rounds.error == (rounds.bet - rounds.tricks).abs()).all()
    assert (rounds.blind == (rounds.cards == 1)).all()
    assert (rounds.tour == (rounds["round"] - 1) // 4 + 1).all()
    assert (rounds.cards == 4 - (rounds["round"] - 1) % 4).all()
    assert (games.decisions == players.groupby("game_id").decisions.sum()).all()
    # every hand: as many decisions as bids plus cards
    per_game = rounds.groupby("game_id").cards.sum() + rounds.groupby("game_id").size()
    assert np.array_equal(per_game.to_numpy(), games.decisions.to_numpy())
