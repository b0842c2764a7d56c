"""``slider``: a heuristic bot for le pinacle.  It takes no random draw and reads only the
legal actions and its own observation.  Every card laid scores for it and every card held
counts against it, so it lays whatever it can:

1. Draw: take the discard if it can lay it at once in a run with two of its cards, or if it
   is a pinacle; else draw from the talon.
2. Lay the longest run offered, then any pinacle move (the natural card scores, the run
   grows), then any lay-off.
3. Discard the card with the lowest keep value: 2 points per card of the same suit within
   two ranks in its hand, minus the card's value (in half points); never a pinacle while
   another card is left.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.rummy_hands import suit_neighbours
from engines.core.api import Action
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T
from engines.games.pinacle import rules as R

NEIGHBOUR_WORTH = 4                     # half points


class SliderAgent:
    name = "slider"

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        o = observation.array
        h = T.hand_at(observation.player)
        hand = o[h:h + rummy.CARD_KINDS]
        if legal_actions[0].code == T.DRAW_STOCK:
            if len(legal_actions) > 1:
                top = int(o[T.DISCARD + o[T.DISCARD_LEN] - 1])
                if top % 13 == 0 or self.completes_run(hand, top):
                    return legal_actions[1]
            return legal_actions[0]
        runs = [a for a in legal_actions if a.code >= T.LAY_ACTION]
        if runs:
            return max(runs, key=lambda a: rummy.meld_length(a.code - T.LAY_ACTION))
        for first, last in ((T.SWAP_ACTION, T.LAY_ACTION), (T.LAYOFF_ACTION, T.SWAP_ACTION)):
            for a in legal_actions:
                if first <= a.code < last:
                    return a

        def keep(a: Action) -> int:
            card = a.code - T.DISCARD_ACTION
            if card % 13 == 0:
                return 10_000 if len(legal_actions) > 1 else 0
            return NEIGHBOUR_WORTH * suit_neighbours(hand, card) - R.card_value(card)

        return min(legal_actions, key=keep)

    @staticmethod
    def completes_run(hand: np.ndarray, card: int) -> bool:
        """Two cards of the hand make a run of three with ``card``."""
        suit, index = divmod(card, 13)
        held = [0 <= index + d <= 12 and hand[suit * 13 + index + d] > 0
                for d in (-2, -1, 1, 2)]
        return (held[0] and held[1]) or (held[1] and held[2]) or (held[2] and held[3])
