"""The repeated-position record every game that can cycle shares (engines.core.repetition):
the hash is the same compiled and in plain Python, a short cycle ends at its first
repetition, a long one within two of its lengths."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from engines.core import repetition


def fresh() -> np.ndarray:
    s = np.zeros(repetition.SIZE + 3, dtype=np.int32)
    repetition.forget(s, 3)
    return s


def walk(hashes) -> tuple[int, int]:
    """The index of the first position reported as repeated (-1: none) and the cycle's
    length recorded."""
    s = fresh()
    for i, h in enumerate(hashes):
        if repetition.repeats(s, 3, h):
            return i, int(s[3 + repetition.CYCLE_LENGTH])
    return -1, 0


@given(st.lists(st.integers(-2**31, 2**31 - 1), max_size=20))
def test_the_hash_is_the_same_compiled_and_in_plain_python(values):
    h = repetition.START
    for v in values:
        compiled = repetition.mix(h, v)
        assert compiled == repetition.mix.py_func(h, v)
        assert 0 <= compiled < 2**62
        h = compiled


def test_mix_span_tells_where_one_pile_ends_and_the_next_begins():
    s = np.array([5, 7, 9], dtype=np.int32)
    start = repetition.START
    one_then_two = repetition.mix_span(repetition.mix_span(start, s, 0, 1), s, 1, 2)
    two_then_one = repetition.mix_span(repetition.mix_span(start, s, 0, 2), s, 2, 1)
    assert one_then_two != two_then_one                 # stock [5] + pile [7 9], or [5 7] + [9]
    assert repetition.mix_span(start, s, 0, 2) != \
        repetition.mix_span(start, s[::-1].copy(), 1, 2)     # order counts



def test_mix_span_covers_each_piles_height_even_when_the_cards_pair_alike():
    """Piles of even heights mix their cards two by two in the same pairs whichever pile holds
    them: only the heights tell stock [5 7] + pile [9 11] from stock [5 7 9 11] + an empty
    pile, or from an empty stock + pile [5 7 9 11]."""
    s = np.array([5, 7, 9, 11], dtype=np.int32)
    start = repetition.START
    positions = {repetition.mix_span(repetition.mix_span(start, s, 0, 2), s, 2, 2),
                 repetition.mix_span(repetition.mix_span(start, s, 0, 4), s, 4, 0),
                 repetition.mix_span(repetition.mix_span(start, s, 0, 0), s, 0, 4)}
    assert len(positions) == 3


SMALL = st.integers(-2**30, 2**30 - 1)      # what a state's fields hold


@given(st.lists(SMALL, max_size=9), st.data())
def test_mix_span_reads_every_value_in_order_two_by_two_as_in_plain_python(values, data):
    """Values are mixed two by two: a span of any length is hashed the same compiled and in
    plain Python, and changing any one value, or the order of two, changes the hash."""
    s = np.array(values + [0], dtype=np.int32)
    n = len(values)
    h = repetition.mix_span(repetition.START, s, 0, n)
    assert h == repetition.mix_span.py_func(repetition.START, s, 0, n)
    if n == 0:
        return
    i = data.draw(st.integers(0, n - 1))
    changed = s.copy()
    changed[i] = data.draw(SMALL.filter(lambda v: v != values[i]))
    assert repetition.mix_span(repetition.START, changed, 0, n) != h
    j = data.draw(st.integers(0, n - 1))
    if values[i] != values[j]:
        swapped = s.copy()
        swapped[i], swapped[j] = s[j], s[i]
        assert repetition.mix_span(repetition.START, swapped, 0, n) != h


@given(st.integers(0, 40), st.integers(1, repetition.HISTORY))
def test_a_short_cycle_ends_at_its_first_repetition(tail, length):
    # distinct positions, then a cycle of ``length`` of them for ever
    hashes = [10_000 + i for i in range(tail)] + [i % length for i in range(3 * length)]
    assert walk(hashes) == (tail + length, length)


@given(st.integers(0, 300), st.integers(repetition.HISTORY + 1, 400))
def test_a_long_cycle_ends_within_two_lengths_with_its_length(tail, length):
    hashes = [10_000 + i for i in range(tail)] + [i % length for i in range(8 * length)]
    index, found = walk(hashes)
    assert found == length
    assert tail + length <= index < 2 * (tail + length) + length


def test_distinct_positions_never_repeat():
    assert walk(range(5000)) == (-1, 0)
