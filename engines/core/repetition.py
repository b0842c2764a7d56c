"""Repeated positions, written once for every game whose rules can cycle.

A game whose position can come back exactly (a shedding game whose discard pile is shuffled
back into the stock, ...) would replay the same positions for ever once one repeats with
nothing left to choose.  Such a game ends at the first exact repetition of its full position,
recorded as a cycle with its length.

A game says what its position is: the state fields that decide what can happen next (whose
turn, in which phase, the cards wherever they lie, in order where order matters), never its
counters or figures.  It hashes them into a 62-bit number with :func:`mix` and
:func:`mix_span` (the same number in compiled code and in plain Python, so with numba
switched off too), and after every decision :func:`repeats` compares that number with the
positions seen: the last ``HISTORY`` ones, so a cycle of up to ``HISTORY`` decisions ends at
its first repetition, and, for longer cycles, the one saved after a power of two of decisions
(Brent's method: a longer cycle ends within two of its lengths).  The game keeps that record
in its state, the fields ``FIELDS`` laid out together (``Layout(..., *FIELDS, ...)``), passed
by the offset of the first (``position_hashes``).

Two different positions share a 62-bit hash with probability about 2**-62 per comparison: a
false cycle in a billion games of ten thousand decisions is about one chance in 10**5.
"""

from __future__ import annotations

from numba import njit

HISTORY = 64                      # positions remembered: shorter cycles end at once
FIELDS = (("position_hashes", 2 * HISTORY), ("positions_seen", 1), ("brent_hash", 2),
          ("brent_steps", 1), ("brent_power", 1), ("cycle_length", 1))
# offsets within FIELDS, from the first
_SEEN = 2 * HISTORY
_BRENT_HASH = _SEEN + 1
_BRENT_STEPS = _BRENT_HASH + 2
_BRENT_POWER = _BRENT_STEPS + 1
CYCLE_LENGTH = _BRENT_POWER + 1   # the cycle's length in decisions (0: none), from the first
SIZE = CYCLE_LENGTH + 1

_MASK = (1 << 62) - 1
_PRIME = 1099511628211            # FNV-1's 64-bit prime
START = 0x0BF29CE484222325 & _MASK  # FNV-1's offset basis, to 62 bits
_HALF = 31
_HALF_MASK = (1 << _HALF) - 1


@njit(cache=True)
def mix(h, value):
    """The hash ``h`` extended by one integer (a state's value read as a whole number: the
    same in plain Python, where a NumPy int32 would overflow)."""
    h = ((h ^ int(value)) * _PRIME) & _MASK
    return h ^ (h >> 29)


@njit(cache=True)
def mix_span(h, s, start, length):
    """The hash ``h`` extended by ``length`` then the ``length`` values of ``s`` from
    ``start`` (a field's used part: a pile up to its height).  Values two by two, as one
    62-bit number (their low 31 bits each: distinct for values from -2**30 to 2**30, all
    a state holds), half the mixing of one by one."""
    h = mix(h, length)
    end = start + length
    i = start
    while i + 1 < end:
        h = mix(h, ((int(s[i]) & _HALF_MASK) << _HALF) | (int(s[i + 1]) & _HALF_MASK))
        i += 2
    if i < end:
        h = mix(h, s[i])
    return h


@njit(cache=True)
def forget(s, at):
    """No position seen (a new game, or an observation, which must not carry the hashes of
    positions hidden from its seat)."""
    s[at:at + SIZE] = 0
    s[at + _BRENT_POWER] = 1


@njit(cache=True)
def _same(s, slot, h):
    return s[slot] == (h & _HALF_MASK) and s[slot + 1] == (h >> _HALF)


@njit(cache=True)
def _store(s, slot, h):
    s[slot] = h & _HALF_MASK
    s[slot + 1] = h >> _HALF


@njit(cache=True)
def repeats(s, at, h):
    """Whether the position hashed ``h`` repeats one seen (its cycle's length is then
    recorded at ``at + CYCLE_LENGTH``); otherwise it is remembered.  Call it once after every
    decision."""
    seen = s[at + _SEEN]
    for back in range(1, min(seen, HISTORY) + 1):
        if _same(s, at + 2 * ((seen - back) % HISTORY), h):
            s[at + CYCLE_LENGTH] = back
            return True
    s[at + _BRENT_STEPS] += 1
    if seen > HISTORY and _same(s, at + _BRENT_HASH, h):
        s[at + CYCLE_LENGTH] = s[at + _BRENT_STEPS]
        return True
    if s[at + _BRENT_STEPS] >= s[at + _BRENT_POWER]:
        _store(s, at + _BRENT_HASH, h)
        s[at + _BRENT_POWER] = min(2 * s[at + _BRENT_POWER], 1 << 30)
        s[at + _BRENT_STEPS] = 0
    _store(s, at + 2 * (seen % HISTORY), h)
    seen += 1
    if seen >= 1 << 30:                         # keep the count in int32, and the ring's order
        seen = HISTORY + seen % HISTORY
    s[at + _SEEN] = seen
    return False
