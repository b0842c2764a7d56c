"""The flat-array layout and its compiled helpers (they replace numpy forms that compiled
loops without reference counting cannot use)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.layout import Layout, copy_into, sort_field

values = st.lists(st.integers(-(2**31), 2**31 - 1), max_size=40)


@given(values)
def test_sort_field_sorts_a_slice_in_place_and_leaves_the_rest(items):
    a = np.array([7, *items, -7], dtype=np.int32)
    sort_field(a[1:-1])
    assert a[1:-1].tolist() == sorted(items)
    assert (a[0], a[-1]) == (7, -7)


@given(values)
def test_copy_into_copies_every_element(items):
    s = np.array(items, dtype=np.int32)
    out = np.full(len(items), 99, dtype=np.int32)
    copy_into(out, s)
    assert out.tolist() == items


def test_layout_rejects_a_field_declared_twice():
    with pytest.raises(ValueError, match="declared twice"):
        Layout(("phase", 1), ("phase", 2))
