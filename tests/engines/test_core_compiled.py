"""The compiled helpers every family shares (engines/core/compiled.py)."""
import numpy as np

from engines.core.compiled import count_positive, rank_seats, win_shares


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
