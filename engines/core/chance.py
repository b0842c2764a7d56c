"""Chance primitives every engine shares: uniform indices and shuffles drawn from a numpy
``Generator``, identical in compiled and in plain Python code.

Both are built on ``rng.random()`` (one 64-bit draw, the same double in numpy and in numba),
which compiled code draws several times faster than ``rng.integers``.  ``uniform_index`` is one
function: plain Python for agents that run in Python, and compiled (``uniform_index_jit``) for
kernels and rules, so the two paths pick the same index from the same stream.
"""

from __future__ import annotations

from numba import njit


def uniform_index(rng, n):
    """An index uniform over ``0 .. n-1`` (exact to 2**-53): ``floor(rng.random() * n)``."""
    i = int(rng.random() * n)
    return i if i < n else n - 1


uniform_index_jit = njit(cache=True, inline="always")(uniform_index)


@njit(cache=True, inline="always")
def shuffle(rng, a):
    """Shuffle the array ``a`` in place (Fisher-Yates from the last element down)."""
    for i in range(a.shape[0] - 1, 0, -1):
        j = uniform_index_jit(rng, i + 1)
        a[i], a[j] = a[j], a[i]


@njit(cache=True, inline="always")
def shuffled_deck(rng, deck):
    """Fill ``deck`` with the card ids 0, 1, ... (one per place) and shuffle it: a new deck
    in the order it is dealt."""
    for card in range(deck.shape[0]):
        deck[card] = card
    shuffle(rng, deck)
