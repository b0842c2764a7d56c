"""Batch kernels of the trick-taking games played through :mod:`engines.families.tricks.game`
(chasse-coeur and pétasse, vicaire, the belotes, the tarots): ``random`` seats (and, in the
tarots, the compiled ``prudent`` and ``ducker``, deciding on the seat's observation as their
Python faces do), the standard step (each deal scored writes one row per seat, then the next deal is
dealt).  Rikiki, whose ``counter`` bot is compiled, has its own module."""

from __future__ import annotations

import numpy as np
from numba import njit

from agents import tarot as tarot_bots
from agents.random_agent import random_choice
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
# The tarots' compiled bots: ``prudent`` (tarot, tarot-lorrain) and ``ducker`` (the taré); a
# policy's weights row holds which one it is (a row copied for a seat that explores too).
POLICY_RANDOM, POLICY_PRUDENT, POLICY_DUCKER = 0, 1, 2
TAROT_POLICIES = {"random": POLICY_RANDOM, "prudent": POLICY_PRUDENT, "ducker": POLICY_DUCKER}


@njit(cache=True, inline="always")
def tarot_choose(policy, s, pr, actions, n, decisions, weights, seen, table):
    """The seat's policy; the bots decide on ``seen``, the seat's observation of ``s``."""
    if policy == POLICY_RANDOM:
        return random_choice(actions, n, decisions)
    tarot_rules.observe(s, pr, s[tarot_rules.CURRENT], seen)
    w = weights[policy]
    if w[0] == POLICY_PRUDENT:
        return actions[tarot_bots.decide(seen, pr, actions, n, w)]
    return actions[tarot_bots.duck(seen, pr, actions, n, w)]


TAROT = Kernel("tarot", tarot_rules, tarot_summary, TAROT_POLICIES, choose=tarot_choose,
               weights=np.array([[float(policy)] for policy in TAROT_POLICIES.values()]),
               max_round_rows=some_deals, round_counter=tarot_rules.ROUNDS_PLAYED)
