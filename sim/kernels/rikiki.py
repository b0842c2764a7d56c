"""Rikiki batch kernel: the compiled policies ``random`` and ``counter`` (which decides on
the seat's observation, as its Python face does).  Each scored round writes one row per
seat."""

from __future__ import annotations

from agents import rikiki as counter
from engines.games.rikiki import rules as R
from engines.games.rikiki import summary
from engines.games.rikiki.params import RikikiParams
from sim.kernels.factory import Kernel

POLICY_RANDOM, POLICY_COUNTER = 0, 1
POLICIES = {"random": POLICY_RANDOM, "counter": POLICY_COUNTER}


def max_round_rows(params: RikikiParams) -> int:
    """Round rows of a game: one per seat for every round of the schedule."""
    return len(params.schedule()) * params.players


KERNEL = Kernel("rikiki", R, summary, POLICIES, bot=counter.decide,
                max_round_rows=max_round_rows, round_counter=R.ROUNDS_PLAYED)
