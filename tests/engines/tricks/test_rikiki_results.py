"""Rikiki result tables through sim.batch: figures that agree with the games played (the
documented columns, their order and types: tests/contract), and the batch summary."""

from __future__ import annotations

import numpy as np
import pytest

from engines.games.rikiki.params import RikikiParams
from sim.batch.cli import main
from sim.batch.spec import RunSpec
from sim.batch.summary import bet_columns, figures_of, format_summary, summarize
from tests.engines.helpers import batch_chunk, checked, per_seat


@pytest.fixture(scope="module")
def arrow():
    return batch_chunk("rikiki", ("random",) * 3, 12, seed=5, players=3, hands=(2, 4, 1))[1]


@pytest.fixture(scope="module")
def tables(arrow):
    return checked(arrow, 12, 3)


def test_tables_agree_with_each_other(tables):
    games, players, rounds = tables["games"], tables["players"], tables["rounds"]
    assert (games.rounds == 3).all() and len(rounds) == 12 * 3 * 3
    assert (rounds.hand_size == rounds["round"].map({1: 2, 2: 4, 3: 1})).all()
    merged = per_seat(players, rounds, points=("points", "sum"), won=("tricks", "sum"),
                      made=("made", "sum"), bid=("bid", "sum"))
    assert (merged.score == merged.points).all()
    assert (merged.tricks == merged.won).all()
    assert (merged.made_bids == merged.made).all()
    assert (merged.bids == merged.bid).all()
    assert (rounds.made == (rounds.bid == rounds.tricks)).all()
    per_deal = rounds.groupby(["game_id", "round"])
    assert (per_deal.tricks.sum() == per_deal.hand_size.first()).all()
    assert (per_deal.bid.sum() == per_deal.bids_sum.first()).all()
    assert (rounds.first_leader == (rounds.dealer + 1) % 3).all()
    assert (rounds.trump == rounds.trump_card // 13).all()
    firsts = rounds[rounds["round"] == 1].groupby("game_id").dealer.first()
    assert np.array_equal(firsts.to_numpy(), games.first_dealer.to_numpy())
    assert (games.decisions == 3 * (3 + 7)).all()


def test_batch_cli_writes_200_games(tmp_path):
    assert main(["rikiki", "--games", "200", "--agents", "counter,random,random,random",
                 "--out", str(tmp_path / "run"), "--jobs", "1", "--variant", "hands=5",
                 "--no-progress"]) == 0
    assert len(list((tmp_path / "run" / "rounds").glob("*.parquet"))) >= 1


def test_the_batch_summary_shows_bid_accuracy(arrow, tables):
    assert bet_columns("rikiki") == ("bid", "made")
    assert bet_columns("paris-damis") == ("bet", "bet_correct")
    spec = RunSpec(game="rikiki", params=RikikiParams(), agents=("random",) * 3,
                   seating="rotate", seed=5, games=12, chunk_size=12)
    summary = summarize(spec, [figures_of(spec, 0, 12, arrow)], wall=1.0)
    rounds = tables["rounds"]
    assert summary["bet_accuracy"]["n"] == len(rounds)
    assert summary["bet_accuracy"]["p"] == pytest.approx(rounds.made.mean())
    by_bid = rounds.groupby("bid").made.mean()
    assert {int(v): p["p"] for v, p in summary["bet_accuracy_by_value"].items()} == \
        pytest.approx(by_bid.to_dict())
    assert "bet accuracy" in format_summary(summary)
