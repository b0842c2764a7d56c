"""War batch kernel (bataille, super-bataille).

The games have no decisions: each turn's one legal action, ``step``, plays a trick (drawing
the random pickup order from the chance stream, as the Python API does), so the only policy is
``random`` and every seat's agent plays the same game.
"""

from __future__ import annotations

from numba import njit

from engines.war import rules as R
from engines.war import summary
from sim.kernels.factory import Kernel


@njit(cache=True, inline="always")
def legal_actions(s, pr, out):
    """The one action of every turn."""
    out[0] = R.STEP
    return 1


@njit(cache=True, inline="always")
def choose(policy, s, pr, actions, n, decisions, weights, seen, table):
    """The one legal action (nothing to decide: the decision stream is not read)."""
    return actions[0]


KERNEL = Kernel("war", R, summary, {"random": 0}, choose=choose,
                legal_actions=legal_actions, apply_draws=True)
