"""La super-bataille through the common game API: the war core with the payment rule.

"Chaque joueur perdant ajoute à sa carte le nombre de cartes nécessaires (n - 1) pour
atteindre la valeur de la carte en quantité (n)": the payment number is the card's value
(2..10, J = 11, Q = 12, K = 13), the Ace's is ``ace_n``, a Joker never pays (it never loses).
The 54-card pack is fixed; a bataille follows the bataille's default (the last card face up).
"""

from __future__ import annotations

import numpy as np

from engines.core.cards import deck_54
from engines.families.war import rules as R
from engines.families.war.game import WarGame
from engines.games.super_bataille.params import SuperBatailleParams


def payment_numbers(ace_n: int) -> np.ndarray:
    """n(card) by strength: 2..10 -> 2..10, J -> 11, Q -> 12, K -> 13, A -> ace_n, Joker 0."""
    n = np.zeros(R.STRENGTHS, dtype=np.int32)
    n[:R.ACE_STRENGTH] = np.arange(2, 14)
    n[R.ACE_STRENGTH] = ace_n
    return n


class SuperBataille(WarGame):
    title = "La super-bataille"

    @staticmethod
    def encode(params: SuperBatailleParams) -> np.ndarray:
        return R.encode_params(params.players, deck_54(), params.pickup_order, "last_card_up",
                               params.stop_at_first_elimination, params.max_tricks,
                               payment_numbers(params.ace_n), params.battle_losers_pay)
