"""Flat array layouts: named fields of a one-dimensional int32 array.

Compiled engines keep a game state (and their parameters) in one flat ``int32`` array, cheap
to pass to compiled functions, to copy and to store.  A :class:`Layout` names the fields, like a
C struct, and gives each its offset; engines bind the offsets to module constants that compiled
code reads (``s[PHASE]``, ``s[HAND_SIZE + p]``) and Python code decodes by name.
"""

from __future__ import annotations

import numpy as np
from numba import njit


class Layout:
    """Fields in declaration order, each ``(name, size)``; see :meth:`offset`."""

    def __init__(self, *fields: tuple[str, int]) -> None:
        self._offsets: dict[str, tuple[int, int]] = {}
        offset = 0
        for name, size in fields:
            if name in self._offsets:
                raise ValueError(f"field {name!r} declared twice")
            self._offsets[name] = (offset, size)
            offset += size
        self.size = offset

    def offset(self, name: str) -> int:
        return self._offsets[name][0]

    def size_of(self, name: str) -> int:
        return self._offsets[name][1]

    def names(self) -> list[str]:
        return list(self._offsets)

    def get(self, array: np.ndarray, name: str) -> np.ndarray:
        """A view of field ``name`` in ``array``."""
        start, size = self._offsets[name]
        return array[start:start + size]

    def new(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.int32)


@njit(cache=True, inline="always")
def copy_into(out, s):
    """Copy the flat array ``s`` into ``out`` (same size), element by element: ``out[:] = s``
    would allocate a temporary, which compiled loops without reference counting cannot
    (see :mod:`sim.kernels.factory`)."""
    for i in range(s.shape[0]):
        out[i] = s[i]


@njit(cache=True, inline="always")
def sort_field(a):
    """Sort a few elements of a state field in place, ascending (an insertion sort: numba's
    ``a.sort()`` needs reference counting, see :func:`copy_into`)."""
    for i in range(1, a.shape[0]):
        value = a[i]
        j = i - 1
        while j >= 0 and a[j] > value:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = value
