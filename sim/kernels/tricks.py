"""Batch kernels of the trick-taking games played through :mod:`engines.families.tricks.game`
(chasse-coeur and pétasse, vicaire, the belotes, the tarots): ``random`` seats (and, in the
tarots, the compiled ``prudent``, deciding on the seat's observation as its Python face
does), the standard step (each deal scored writes one row per seat, then the next deal is
dealt).  Rikiki, whose ``counter`` bot is compiled, has its own module."""

from __future__ import annotations

from agents import tarot as tarot_bots
from engines.families.avoidance import rules as avoidance_rules
from engines.families.avoidance import summary as avoidance_summary
from engines.games.belote import rules as belote_rules
from engines.games.belote import summary as belote_summary
from engines.games.tarot import rules as tarot_rules
from engines.games.tarot import summary as tarot_summary
from engines.games.vicaire import rules as vicaire_rules
from engines.games.vicaire import summary as vicaire_summary
from sim.kernels.factory import Kernel

RANDOM_ONLY = {"random": 0}


def some_deals(params) -> int:
    """Room for 16 deals' rows per game (a longer game is played again with room for all)."""
    return 16 * params.players


AVOIDANCE = Kernel("avoidance", avoidance_rules, avoidance_summary, RANDOM_ONLY,
                   max_round_rows=some_deals, round_counter=avoidance_rules.ROUNDS_PLAYED)
VICAIRE = Kernel("vicaire", vicaire_rules, vicaire_summary, RANDOM_ONLY,
                 max_round_rows=some_deals, round_counter=vicaire_rules.ROUNDS_PLAYED)
BELOTE = Kernel("belote", belote_rules, belote_summary, RANDOM_ONLY,
                max_round_rows=some_deals, round_counter=belote_rules.ROUNDS_PLAYED)
TAROT = Kernel("tarot", tarot_rules, tarot_summary, {"random": 0, "prudent": 1},
               bot=tarot_bots.decide, max_round_rows=some_deals,
               round_counter=tarot_rules.ROUNDS_PLAYED)
