"""Huit américain batch kernel: the compiled policies ``random`` and ``shedder`` (the same
compiled decision its Python agent calls, on the same observation array).  A single hand:
no round rows; the rules draw from the stock as they play."""

from __future__ import annotations

from numba import njit

from agents import huit_americain as bots
from agents.random_agent import random_choice
from engines.games.huit_americain import rules as R
from engines.games.huit_americain import summary
from sim.kernels.factory import Kernel

POLICY_RANDOM, POLICY_SHEDDER = 0, 1
POLICIES = {"random": POLICY_RANDOM, "shedder": POLICY_SHEDDER}


@njit(cache=True, inline="always")
def choose(policy, s, pr, actions, n, decisions, weights, seen, table):
    """The seat's policy; the shedder reads only the seat's observation."""
    if policy == POLICY_RANDOM:
        return random_choice(actions, n, decisions)
    R.observe(s, pr, s[R.CURRENT], seen)
    return actions[bots.shedder_decide(seen, pr, actions, n, weights[policy])]


KERNEL = Kernel("huit-americain", R, summary, POLICIES, choose=choose)
