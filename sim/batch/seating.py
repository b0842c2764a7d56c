"""Which agent of a run sits at which seat in each of its games."""

from __future__ import annotations

import numpy as np

from sim.batch.spec import RunSpec

SEATINGS = ("rotate", "fixed", "random")
SEATING_BLOCK = 16


def seating(spec: RunSpec, start: int, count: int) -> np.ndarray:
    """Agent index at each seat, shape (count, players), for games start..start+count-1.

    ``rotate``: agent i sits at seat (i + game index) mod K; ``fixed``: agent i at seat i;
    ``random``: a permutation drawn from ``SeedSequence(seed, spawn_key=(block, 1))`` for
    each block of 16 games, so it depends only on (seed, game index)."""
    k = len(spec.agents)
    index = np.arange(start, start + count)
    if spec.seating == "fixed":
        return np.tile(np.arange(k), (count, 1))
    if spec.seating == "rotate":
        return (np.arange(k)[None, :] - index[:, None]) % k
    out = np.empty((count, k), dtype=np.int64)
    first_block, last_block = start // SEATING_BLOCK, (start + count - 1) // SEATING_BLOCK
    for block in range(first_block, last_block + 1):
        rng = np.random.default_rng(np.random.SeedSequence(spec.seed, spawn_key=(block, 1)))
        perms = np.array([rng.permutation(k) for _ in range(SEATING_BLOCK)])
        lo = max(start, block * SEATING_BLOCK)
        hi = min(start + count, (block + 1) * SEATING_BLOCK)
        out[lo - start:hi - start] = perms[lo - block * SEATING_BLOCK:hi - block * SEATING_BLOCK]
    return out
