"""Batch kernels of the banking games, baccara and pharaon, and of le pouilleux: ``random``
seats (and baccara's compiled drawing rules ``always``, ``never`` and ``coinflip`` are Python
agents, so not here); the rules draw as they play.  Each coup writes one row."""

from __future__ import annotations

from numba import njit

from engines.games.baccara import rules as baccara_rules
from engines.games.baccara import summary as baccara_summary
from engines.games.pharaon import rules as pharaon_rules
from engines.games.pharaon import summary as pharaon_summary
from engines.games.pouilleux import rules as pouilleux_rules
from engines.games.pouilleux import summary as pouilleux_summary
from sim.kernels.factory import Kernel, has_room

RANDOM_ONLY = {"random": 0}


@njit(cache=True)
def baccara_step(s, pr, action, chance, rounds, row):
    """A decision; each coup it ends writes its row, then the next coup is dealt."""
    baccara_rules.apply_action(s, pr, action, chance)
    while s[baccara_rules.PHASE] == baccara_rules.COUP_END:
        row = baccara_summary.record_coup(s, pr, rounds, row) if has_room(rounds, row, 1) \
            else row + 1
        baccara_rules.resume(s, pr, chance)
    return row


def some_coups(params) -> int:
    """Room for 64 coups' rows per game (a longer game is played again with room for all)."""
    return 64


BACCARA = Kernel("baccara", baccara_rules, baccara_summary, RANDOM_ONLY, step=baccara_step,
                 max_round_rows=some_coups)
PHARAON = Kernel("pharaon", pharaon_rules, pharaon_summary, RANDOM_ONLY,
                 max_round_rows=some_coups, round_counter=pharaon_rules.COUP,
                 record_round=pharaon_summary.record_coup, rows_per_round=1)
POUILLEUX = Kernel("pouilleux", pouilleux_rules, pouilleux_summary, RANDOM_ONLY)
