"""The flat-array layout and its compiled helpers (they replace numpy forms that compiled
loops without reference counting cannot use)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.layout import Layout, copy_into, sort_field

SETTINGS = dict(deadline=None, database=None)   # the first call compiles
values = st.lists(st.integers(-(2**31), 2**31 - 1), max_size=40)


@settings(**SETTINGS)
@given(values)
def test_sort_field_sorts_a_slice_in_place_and_leaves_the_rest(items):
    a = np.array([7, *items, -7], dtype=np.int32)
    sort_field(a[1:-1])
    assert a[1:-1].tolist() == sorted(items)
    assert (a[0], a[-1]) == (7, -7)


@settings(**SETTINGS)
@given(values)
def test_copy_into_copies_every_element(items):
    s = np.array(items, dtype=np.int32)
    out = np.full(len(items), 99, dtype=np.int32)
    copy_into(out, s)
    assert out.tolist() == items


def test_layout_rejects_a_field_declared_twice():
    with pytest.raises(ValueError, match="declared twice"):
        Layout(("phase", 1), ("phase", 2))


def test_a_bare_name_is_a_one_value_field():
    row = Layout("round", ("score", 4), "seat")
    assert row.offsets("seat", "round", "score") == (5, 0, 1)
    assert (row.size_of("round"), row.size) == (1, 6)


def test_constants_name_each_offset_after_its_field():
    assert Layout("bet", ("score", 4), "bet_correct").constants("ROUND_") == {
        "ROUND_BET": 0, "ROUND_SCORE": 1, "ROUND_BET_CORRECT": 5}

