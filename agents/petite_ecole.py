"""``climber``: a heuristic bot for la petite école.  It takes no random draw and reads only
the legal actions and its own observation.

1. Draw: take the écart's top card if it is a 2 (wild), or a rank it holds twice or more
   (a triple in the making), or, when its stage has runs, a card next to one of the same
   suit it holds; else draw from the talon.
2. Lay: the longest figure offered (before its stage is laid the engine offers only the
   stage's figures), then any lay-off: every card laid is a card not counted.
3. Discard: the card with the lowest keep value, its penalty (A 15, K Q J 10 10, 3-9 5)
   taken away from 8 points per card of its hand it could form a figure with (same rank,
   same suit one or two ranks away); never a 2 while another card is left.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.rummy_hands import suit_neighbours
from engines.core.api import Action
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T
from engines.games.petite_ecole import rules as R

NEIGHBOUR_WORTH = 8


PENALTIES = R.penalty_values()          # each card's count in hand at the end of a hand


def neighbours(hand: np.ndarray, card: int, runs: bool) -> int:
    """Cards of ``hand`` (other than ``card`` itself once) that could share a figure with
    it: the same rank, and with ``runs`` the same suit one or two ranks away."""
    index = card % 13
    n = sum(int(hand[s * 13 + index]) for s in range(4)) - 1
    if runs:
        n += suit_neighbours(hand, card, ace_low=False, lowest=1)   # the 2s are wild
    return n


class ClimberAgent:
    name = "climber"

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        o = observation.array
        player = observation.player
        h = T.hand_at(player)
        hand = o[h:h + rummy.CARD_KINDS]
        pr = observation.encoded_params
        stage = min(int(o[R.STAGE + player]), int(pr[R.P_STAGE_COUNT]) - 1)
        runs = R.stage_figures(pr, stage)[0] > 0
        if legal_actions[0].code == T.DRAW_STOCK:
            if len(legal_actions) > 1 and self.wants(hand, int(o[T.DISCARD + o[T.DISCARD_LEN]
                                                                   - 1]), runs):
                return legal_actions[1]
            return legal_actions[0]
        melds = [a for a in legal_actions if a.code >= T.LAY_ACTION]
        if melds:
            return max(melds, key=lambda a: rummy.meld_length(a.code - T.LAY_ACTION))
        for a in legal_actions:
            if T.LAYOFF_ACTION <= a.code < T.SWAP_ACTION:
                return a

        def keep(a: Action) -> int:
            card = a.code - T.DISCARD_ACTION
            if card % 13 == 0:
                return 10_000 if len(legal_actions) > 1 else 0
            return NEIGHBOUR_WORTH * neighbours(hand, card, runs) - int(PENALTIES[card])

        return min(legal_actions, key=keep)

    @staticmethod
    def wants(hand: np.ndarray, card: int, runs: bool) -> bool:
        if card % 13 == 0:
            return True
        held = sum(int(hand[s * 13 + card % 13]) for s in range(4))
        return held >= 2 or (runs and neighbours(hand, card, True) - held + 1 > 0)
