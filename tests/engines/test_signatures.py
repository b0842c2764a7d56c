"""engines.core.signatures: one compiled copy of a function per kind of argument."""
import numpy as np
import pytest
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


@njit
def _as_text(n):
    return str(n)


def test_numba_own_implementations_keep_their_constant_arguments():
    # str() asks hasattr(x, "__str__"), whose name must stay a constant
    assert _as_text(42) == "42"


@njit
def _copy_into(out, s):
    out[:] = s


def test_a_slice_assignment_of_another_size_raises_the_plain_message():
    out = np.zeros(3, dtype=np.int32)
    _copy_into(out, np.arange(3, dtype=np.int32))
    assert list(out) == [0, 1, 2]
    code = "".join(_copy_into.inspect_llvm().values())
    assert "of shape" not in code      # numba's formatted message (and its string code)
    with pytest.raises(ValueError, match="cannot assign slice from input of different size"):
        _copy_into(out, np.arange(4, dtype=np.int32))
