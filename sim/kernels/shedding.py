"""Batch kernels of menteur, nain jaune and l'empereur: ``random`` seats; the rules draw as
they play (a stock, the next deal).  Nain jaune writes one row per seat for each deal won,
l'empereur for each round closed.  Huit américain, whose ``shedder`` bot is compiled, has
its own module."""

from __future__ import annotations

from numba import njit

from engines.games.empereur import rules as empereur_rules
from engines.games.empereur import summary as empereur_summary
from engines.games.menteur import rules as menteur_rules
from engines.games.menteur import summary as menteur_summary
from engines.games.nain_jaune import rules as nain_jaune_rules
from engines.games.nain_jaune import summary as nain_jaune_summary
from sim.kernels.factory import Kernel, has_room

RANDOM_ONLY = {"random": 0}


@njit(cache=True, inline="always")
def deals_won(s, pr):
    """Deals won so far, every seat together."""
    won = 0
    for p in range(pr[nain_jaune_rules.P_PLAYERS]):
        won += s[nain_jaune_rules.DEALS_WON + p]
    return won


@njit(cache=True)
def nain_jaune_step(s, pr, action, chance, rounds, row):
    """A decision; a deal won writes one row per seat."""
    before = deals_won(s, pr)
    nain_jaune_rules.apply_action(s, pr, action, chance)
    if deals_won(s, pr) != before:
        players = pr[nain_jaune_rules.P_PLAYERS]
        row = nain_jaune_summary.record_deal(s, pr, rounds, row) \
            if has_room(rounds, row, players) else row + players
    return row


def some_rounds(params) -> int:
    """Room for 16 rounds' rows per game (a longer game is played again with room for all)."""
    return 16 * params.players


MENTEUR = Kernel("menteur", menteur_rules, menteur_summary, RANDOM_ONLY)
NAIN_JAUNE = Kernel("nain-jaune", nain_jaune_rules, nain_jaune_summary, RANDOM_ONLY,
                    step=nain_jaune_step, max_round_rows=some_rounds)
EMPEREUR = Kernel("empereur", empereur_rules, empereur_summary, RANDOM_ONLY,
                  max_round_rows=some_rounds, round_counter=empereur_rules.ROUNDS_DONE)
