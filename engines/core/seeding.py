"""Seeds and random streams: game ``i`` of a run with seed ``S`` depends only on ``(S, i)``.

Every game has two independent random streams:

* ``chance``: shuffles and deals, drawn by the rules;
* ``decisions``: drawn by the agents (all seats share it).

Keeping them apart means a change of bots leaves the first deal of every game unchanged, so
runs with the same seed are paired (common random numbers).

Each stream is a numpy ``Generator`` over an ``SFC64`` bit generator seeded exactly as numpy
seeds SFC64 from three 64-bit words.  The words come from numpy: games are grouped in blocks of
``BLOCK``; block ``b`` draws its words from ``PCG64(SeedSequence(S, spawn_key=(b,)))``, and
game ``i`` takes its six words (3 per stream) at row ``i mod BLOCK``.  That costs a fraction of
a microsecond per game instead of the tens a fresh ``SeedSequence`` and ``Generator`` per game
cost, which matters to the compiled batch kernels.

Kernels play thousands of games with one :class:`ReseedableStream` per stream: a Generator
whose SFC64 state is rewritten in place, from compiled code, at the start of each game
(:func:`reseed`).  The result is the same stream :func:`generator_from_words` builds through
numpy's public API; :meth:`ReseedableStream.check` verifies that, so a change in numpy's
internal layout fails loudly instead of silently changing games.
"""

from __future__ import annotations

import ctypes
import functools
from typing import NamedTuple

import numpy as np
from numba import njit
from numpy.random.bit_generator import ISeedSequence

BLOCK = 256
STREAMS = 2            # chance, decisions
WORDS = 3              # SFC64 is seeded from three 64-bit words
SFC64_WARMUP = 12      # numpy's sfc64_set_seed discards the first 12 outputs
_STATE_WORDS = 5       # s[4] and (has_uint32, uinteger) packed in one word


class GameRngs(NamedTuple):
    chance: np.random.Generator
    decisions: np.random.Generator


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"a seed is a non-negative integer, got {seed!r}")
    return int(seed)


def seed_words(seed: int, start: int, count: int) -> np.ndarray:
    """Seed words of games ``start .. start+count-1``: shape ``(count, STREAMS, WORDS)``."""
    seed = check_seed(seed)
    if start < 0 or count < 0:
        raise ValueError("game indices are non-negative")
    out = np.empty((count, STREAMS, WORDS), dtype=np.uint64)
    done = 0
    while done < count:
        block, offset = divmod(start + done, BLOCK)
        take = min(BLOCK - offset, count - done)
        out[done:done + take] = _block_words(seed, block)[offset:offset + take]
        done += take
    return out


def game_words(seed: int, index: int) -> np.ndarray:
    """Seed words of game ``index`` alone: shape ``(STREAMS, WORDS)``, read-only (the row
    ``seed_words(seed, index, 1)[0]``, without the copy)."""
    if index < 0:
        raise ValueError("game indices are non-negative")
    block, offset = divmod(index, BLOCK)
    return _block_words(check_seed(seed), block)[offset]


@functools.lru_cache(maxsize=8)
def _block_words(seed: int, block: int) -> np.ndarray:
    """The words of one block of games (cached: a game's two streams come from one block)."""
    bit_generator = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(block,)))
    words = bit_generator.random_raw(BLOCK * STREAMS * WORDS).reshape(BLOCK, STREAMS, WORDS)
    words.setflags(write=False)
    return words


class _SeedWords(ISeedSequence):
    """Three given words as the seed numpy's SFC64 reads (``generate_state(3, uint64)``):
    numpy then seeds the generator itself, without building a ``SeedSequence``."""

    __slots__ = ("words",)

    def __init__(self, words: np.ndarray) -> None:
        self.words = np.asarray(words, dtype=np.uint64)

    def generate_state(self, n_words: int, dtype=np.uint32) -> np.ndarray:
        if n_words != WORDS or np.dtype(dtype) != np.uint64:
            raise ValueError("seed words fit only numpy's SFC64 (three 64-bit words)")
        return self.words


def generator_from_words(words: np.ndarray) -> np.random.Generator:
    """An SFC64 Generator seeded from three words, as numpy's own SFC64 seeding does (state
    ``(w0, w1, w2, 1)``, then ``SFC64_WARMUP`` outputs discarded)."""
    # numpy reads any ISeedSequence here; its stubs name only SeedSequence
    return np.random.Generator(np.random.SFC64(_SeedWords(words)))  # type: ignore[arg-type]


def game_rngs(seed: int, index: int = 0) -> GameRngs:
    """The chance and decision streams of game ``index`` of a run with seed ``seed``."""
    words = game_words(seed, index)
    return GameRngs(generator_from_words(words[0]), generator_from_words(words[1]))


def decision_rng(seed: int, index: int = 0) -> np.random.Generator:
    """The decision stream (for the agents) of game ``index`` of a run with seed ``seed``."""
    return generator_from_words(game_words(seed, index)[1])


@njit(cache=True, inline="always")
def reseed(rng, alias, words):
    """Restart ``rng`` (a :class:`ReseedableStream`'s generator) from three seed words."""
    alias[0] = words[0]
    alias[1] = words[1]
    alias[2] = words[2]
    alias[3] = 1
    alias[4] = 0
    for _ in range(SFC64_WARMUP):
        rng.random()


# A seed word drawn from a double of ``rng.random()`` (53 random bits): the same in Python and
# in compiled code, for any bit generator.
WORD_SCALE = float(2**53)


@njit(cache=True)
def draw_words(rng, words):
    """Fill ``words`` (uint64) with seed words drawn from ``rng``: how a search seeds the
    chance stream of a world it makes up, alike in Python and in compiled code."""
    for i in range(words.shape[0]):
        words[i] = np.uint64(rng.random() * WORD_SCALE)


class ReseedableStream:
    """One SFC64 Generator plus a writable view of its state, for compiled kernels.

    Pass ``stream.generator`` and ``stream.alias`` to compiled code and call
    :func:`reseed` there; keep this object alive while they are in use.
    """

    def __init__(self) -> None:
        self.generator = np.random.Generator(np.random.SFC64())
        address = self.generator.bit_generator.ctypes.state_address
        self.alias = np.ctypeslib.as_array(
            (ctypes.c_uint64 * _STATE_WORDS).from_address(address))

    def check(self) -> None:
        """Fail if an in-place reseed does not reproduce :func:`generator_from_words`."""
        words = np.array([0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB],
                         dtype=np.uint64)
        reseed(self.generator, self.alias, words)
        expected = generator_from_words(words).bit_generator.state
        got = self.generator.bit_generator.state
        same = (np.array_equal(got["state"]["state"], expected["state"]["state"])
                and got["has_uint32"] == expected["has_uint32"]
                and got["uinteger"] == expected["uinteger"])
        if not same:
            raise RuntimeError("numpy's SFC64 state layout is not the one this kernel "
                               "expects; in-place reseeding is unsafe with this numpy")


# --- Streams carried inside game states (the Python API path) ------------------------------
#
# A state of a compiled engine keeps its chance stream as the five words of an SFC64 state
# (``stream_state``): copying a state copies its future, cheaply.  To draw, compiled code loads
# those words into a scratch generator, draws, and stores them back (see ``ScratchStream``),
# so no numpy Generator is created per state or unpacked per call.

def stream_state(words: np.ndarray) -> np.ndarray:
    """The SFC64 state (five words) of the stream seeded from three words."""
    scratch = ScratchStream.get()
    out = np.empty(_STATE_WORDS, dtype=np.uint64)
    _seed_into(scratch.boxed, scratch.stream.alias, words, out)
    return out


@njit(cache=True)
def _seed_into(rngs, alias, words, out):
    reseed(rngs[0], alias, words)
    out[:] = alias


class ScratchStream:
    """One process-wide generator that compiled code borrows to draw from a state's stream.

    It holds no game information between calls: every use loads a state's words into it and
    stores them back.  ``boxed`` is a typed list holding the generator, which compiled calls
    take far faster than a bare Generator argument."""

    _instance: ScratchStream | None = None

    def __init__(self) -> None:
        from numba.typed import List

        self.stream = ReseedableStream()
        self.stream.check()
        self.boxed = List()
        self.boxed.append(self.stream.generator)

    @classmethod
    def get(cls) -> ScratchStream:
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance
