"""Batch kernels of the rummy games (rami, petite école, pinacle): ``random`` seats; the
rules draw as they play (the stock, the next deal) and keep each hand's row in the state,
copied out after the game."""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.families.rummy import turns as T
from engines.games.petite_ecole import rules as petite_ecole_rules
from engines.games.petite_ecole import summary as petite_ecole_summary
from engines.games.pinacle import rules as pinacle_rules
from engines.games.pinacle import summary as pinacle_summary
from engines.games.rami import rules as rami_rules
from engines.games.rami import summary as rami_summary
from sim.kernels.factory import Kernel

RANDOM_ONLY = {"random": 0}


def hands_kept(rules):
    """``finish``: copy the hands' rows the rules kept in the state (at ``rules.ROUNDS``)."""
    start, width = rules.ROUNDS, rules.ROUND_WIDTH

    @njit(cache=True)
    def finish(s, pr, rounds, row):
        n = s[T.ROUNDS_LEN]
        for i in range(min(n, rounds.shape[0])):
            for c in range(width):
                rounds[i, c] = s[start + i * width + c]
        return n
    return finish


def some_hands(params) -> int:
    """Room for 16 hands' rows per game (a longer game is played again with room for all)."""
    return 16


def rummy_kernel(name: str, rules, summary) -> Kernel:
    """A rummy game's kernel: the rules' step draws; the hands' rows come from the state."""
    return Kernel(name, rules, summary, RANDOM_ONLY, finish=hands_kept(rules),
                  max_round_rows=some_hands, action_dtype=np.int64)


RAMI = rummy_kernel("rami", rami_rules, rami_summary)
PETITE_ECOLE = rummy_kernel("petite-ecole", petite_ecole_rules, petite_ecole_summary)
PINACLE = rummy_kernel("pinacle", pinacle_rules, pinacle_summary)
