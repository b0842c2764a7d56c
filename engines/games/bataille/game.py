"""La bataille through the common game API: the war core with no payment."""

from __future__ import annotations

import numpy as np

from engines.core.cards import deck_32, deck_52, deck_54
from engines.families.war import rules as R
from engines.families.war.game import WarGame
from engines.games.bataille.params import BatailleParams


class Bataille(WarGame):
    title = "La bataille"

    @staticmethod
    def encode(params: BatailleParams) -> np.ndarray:
        deck = deck_52() if params.deck == 52 else deck_32()
        if params.jokers:
            deck = np.concatenate([deck, deck_54()[52:]])
        return R.encode_params(params.players, deck, params.pickup_order,
                               params.bataille_shortage, params.stop_at_first_elimination,
                               params.max_tricks)
