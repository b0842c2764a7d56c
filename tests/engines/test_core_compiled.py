"""The compiled helpers every family shares (engines/core/compiled.py)."""
import numpy as np

from engines.core.compiled import RoundRow, copy_round, count_positive, rank_seats, win_shares
from engines.core.layout import Layout


def test_rank_seats_both_ways_with_ties():
    ranks = np.zeros(4, dtype=np.int64)
    rank_seats(np.array([10, 30, 10, 5]), 4, False, ranks)
    assert ranks.tolist() == [2, 1, 2, 4]
    rank_seats(np.array([10, 30, 10, 5]), 4, True, ranks)
    assert ranks.tolist() == [2, 4, 2, 1]


def test_rank_seats_reads_only_the_seats_in_play():
    ranks = np.full(4, -1, dtype=np.int64)
    rank_seats(np.array([3, 7, 100, 100]), 2, False, ranks)
    assert ranks.tolist() == [2, 1, -1, -1]


def test_count_positive_counts_seats_with_something_left():
    assert count_positive(np.array([0, 3, -1, 1])) == 2


def test_win_shares_split_a_tie_for_first():
    shares = win_shares(np.array([[1, 2, 1], [2, 1, 3]]))
    assert shares.tolist() == [[0.5, 0.0, 0.5], [0.0, 1.0, 0.0]]


def test_a_round_row_copies_the_round_the_seat_and_shared_and_per_seat_fields():
    state = Layout("rounds_played", "dealer", ("score", 4))
    row = Layout("round", "seat", "dealer", "total", "made")
    s = np.array([3, 2, 10, 20, 30, 40], dtype=np.int32)
    out = np.full((5, row.size), -1, dtype=np.int32)
    rounds = RoundRow(row, state, "rounds_played", "dealer", total="score")
    assert copy_round(s, rounds.source, 3, out, 1) == 4
    assert out[1:4].tolist() == [[2, 0, 2, 10, -1], [2, 1, 2, 20, -1], [2, 2, 2, 30, -1]]
    assert (out[0] == -1).all() and (out[4] == -1).all()
