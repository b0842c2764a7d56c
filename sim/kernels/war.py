"""War batch kernel (bataille, super-bataille).

The games have no decisions: each turn's one legal action, ``step``, plays a trick (drawing
the random pickup order from the chance stream, as the Python API does), so the only policy is
``random``, every seat's agent plays the same game, and the kernel's first step plays every
trick to the end (the same tricks as step after step, without the decision loop's work
between two tricks).
"""

from __future__ import annotations

from numba import njit

from engines.families.war import rules as R
from engines.families.war import summary
from sim.kernels.factory import Kernel


@njit(cache=True, inline="always")
def choose(policy, s, pr, actions, n, decisions, weights, seen, table):
    """The one legal action (nothing to decide: the decision stream is not read)."""
    return actions[0]


@njit(cache=True, inline="always")
def step(s, pr, action, chance, rounds, row):
    """Every trick to the end of the game."""
    R.play_out(s, pr, chance)
    return row


KERNEL = Kernel("war", R, summary, {"random": 0}, choose=choose, step=step)
