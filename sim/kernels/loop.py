"""What every batch kernel's game loop shares: how it is compiled, its work buffers, and
the copy of a final state.

A kernel's ``play_games`` is compiled by :func:`batch_loop`: cached, releasing the GIL, and
without numba's reference counting (NRT).  With it, every array a compiled function passes
on, or binds inside an inlined helper, costs an atomic increment and decrement of the
array's counter, and each such call is opaque to the optimiser, which must then reload
the state.  A paris-damis game with strategy bots made about 21,000 such calls (70 per
decision); they took about a third of the kernel's time.  Without NRT nothing in the loop
may allocate: the caller passes its work arrays (:func:`work_buffers`), and the rules it
calls use fixed arrays.  Every function the loop calls is compiled again under the same
flags (numba tags the copies), so the Python API's own compiled rules are unchanged.

The paris-damis and betzanbloo kernels use it.  The other kernels' rules still allocate
scratch arrays (a deal's deck, a pot), so their loops keep reference counting.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from engines.layout import copy_into


def batch_loop(function: Callable[..., Any]) -> Any:
    """Compile a kernel's game loop: cached, GIL released, without reference counting."""
    return njit(cache=True, nogil=True, _nrt=False)(function)


def work_buffers(*sizes: int) -> tuple[np.ndarray, ...]:
    """One uninitialised int32 array per size: the state, observation and action buffers a
    game loop works in (it cannot allocate them itself)."""
    return tuple(np.empty(size, dtype=np.int32) for size in sizes)


@njit(cache=True, inline="always")
def keep_final(finals, g, s):
    """Copy the final state ``s`` of game ``g`` into ``finals[g]`` when ``finals`` has
    rows."""
    if finals.shape[0] > 0:
        copy_into(finals[g], s)
