"""engines.core.signatures: one compiled copy of a function per kind of argument."""
import numpy as np
from numba import njit, types

import engines.core  # noqa: F401  (applies plain_arguments)
from engines.core.signatures import plain


@njit
def _card_at(cards, k):
    return cards[k] * 10 + k


@njit
def _three_calls(cards):
    # a constant, a value read from the int32 array, an int64
    return _card_at(cards, 0) + _card_at(cards, cards[1]) + _card_at(cards, np.int64(2))


def test_constants_and_narrow_integers_share_one_compiled_copy():
    cards = np.array([3, 1, 4, 1], dtype=np.int32)
    assert _three_calls(cards) == (30 + 0) + (10 + 1) + (40 + 2)
    assert [sig[1] for sig in _card_at.signatures] == [types.int64]


def test_plain_keeps_what_it_cannot_widen():
    assert plain(types.literal(7)) == types.int64
    assert plain(types.literal(True)) == types.boolean
    assert plain(types.int32) == types.int64
    assert plain(types.uint64) == types.uint64
    assert plain(types.float32) == types.float32
    array = types.Array(types.int32, 1, "C", readonly=True)
    assert plain(array) == array
