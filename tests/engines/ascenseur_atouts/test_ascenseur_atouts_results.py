"""Ascenseur aux atouts result tables through sim.batch: figures that agree with the games
played (the documented columns, their order and types: tests/contract)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.engines.helpers import checked_frames, per_seat


@pytest.fixture(scope="module")
def tables():
    return checked_frames("ascenseur-atouts", None, 12, kernel=None, players=3,
                          start_cards=4)[1]


def test_tables_agree_with_each_other(tables):
    games, players, rounds = tables["games"], tables["players"], tables["rounds"]
    hands = rounds.groupby("game_id").round.max()
    assert np.array_equal(hands.to_numpy(), games.rounds.to_numpy())
    assert len(rounds) == 3 * games.rounds.sum()
    merged = per_seat(players, rounds, error=("error", "sum"), won=("tricks", "sum"),
                      exact=("bet_correct", "sum"), excuses=("played_excuse", "sum"))
    assert (merged.errors == merged.error).all()
    assert (merged.tricks == merged.won).all()
    assert (merged.exact_bids == merged.exact).all()
    assert (merged.excuses_played == merged.excuses).all()
    assert (merged.score == -merged.errors).all()
    assert (rounds.error == (rounds.bet - rounds.tricks).abs()).all()
    assert (rounds.blind == (rounds.cards == 1)).all()
    assert (rounds.tour == (rounds["round"] - 1) // 4 + 1).all()
    assert (rounds.cards == 4 - (rounds["round"] - 1) % 4).all()
    # every hand: as many decisions as bids plus cards
    per_game = rounds.groupby("game_id").cards.sum() + rounds.groupby("game_id").size()
    assert np.array_equal(per_game.to_numpy(), games.decisions.to_numpy())
