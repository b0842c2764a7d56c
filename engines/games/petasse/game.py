"""La pétasse ou dame de pique (slug ``petasse``): the point-avoidance rules of
:mod:`engines.families.avoidance.rules`, configured.

Read alongside ``docs/rules/petasse.md`` and the French source ("La pétasse ou dame de
pique").  The text: "à trois ou quatre joueurs, avec un jeu de 32 cartes. Si l'on joue à
trois, on retire du jeu les 7 de carreau et 7 de trèfle"; follow suit or discard; "Celui qui
a lancé la plus forte carte à la couleur demandée remporte le pli et prend la main"; hearts 1
point each, "la dame de pique - ou pétasse - (qui vaut 8 points)"; "Si un joueur remporte
tous les plis ..., il ne marque aucun point, et ce sont les autres joueurs qui marquent chacun
16 points" (every trick, A3); "jusqu'à ce que l'un des joueurs atteigne ou dépasse un total de
51 points et perde ainsi la partie" (A4: the highest total loses, the lowest is reported
the winner, equal totals share).  Not in the text (spec defaults): A K Q J 10 9 8 7 (A1), the
player left of the dealer leads first (A2), the first dealer is random and the deal passes
left, no restriction on hearts or on points in the first trick (A5).  ``num_hands`` is not
in the rules: a tapis-vert parameter that plays a fixed number of hands instead (``1``: one
deal, to compare speed with other Hearts engines).
"""

from __future__ import annotations

import numpy as np

from engines.core.cards import ACE, CLUBS, DIAMONDS, HEARTS, QUEEN, SPADES, card_id
from engines.families.avoidance import rules as R
from engines.families.avoidance.game import AvoidanceGame, new_params
from engines.games.petasse.params import PetasseParams

LOWEST_RANK = 7                                       # a 32-card pack: 7 .. A
QUEEN_OF_SPADES = card_id(QUEEN, SPADES)
THREE_PLAYER_REMOVED = (card_id(7, DIAMONDS), card_id(7, CLUBS))
# strength of each rank 7..A in each order (higher wins)
RANK_ORDERS = {"natural": (7, 8, 9, 10, 11, 12, 13, 14),
               "belote_plain": (7, 8, 9, 11, 12, 13, 10, 14)}


def cards_in_play(params: PetasseParams) -> np.ndarray:
    """1 for each card of the 32-card pack (without the 7♦ and 7♣ for 3 players)."""
    ranks = np.arange(R.DECK_CARDS) % 13 + 2
    in_play = (ranks >= LOWEST_RANK).astype(np.int32)
    if params.players == 3:
        in_play[list(THREE_PLAYER_REMOVED)] = 0
    return in_play


def encode(params: PetasseParams) -> np.ndarray:
    """The rules' data for these parameters."""
    order = RANK_ORDERS[params.rank_order]
    strength = np.zeros(R.DECK_CARDS, dtype=np.int32)
    for suit in (HEARTS, DIAMONDS, SPADES, CLUBS):
        for rank in range(LOWEST_RANK, ACE + 1):
            strength[card_id(rank, suit)] = order.index(rank)
    points = np.where(R.CARD_SUIT == HEARTS, params.heart_pts, 0).astype(np.int32)
    points[QUEEN_OF_SPADES] = params.qs_pts
    point_card = (R.CARD_SUIT == HEARTS).astype(np.int32)
    point_card[QUEEN_OF_SPADES] = 1
    p = new_params(params, cards_in_play(params), strength, points, point_card)
    p[R.P_FIRST_LEAD] = (R.LEAD_LEFT_OF_DEALER if params.first_lead == "left_of_dealer"
                         else R.LEAD_LOWEST_CLUB)
    p[R.P_FIRST_TRICK] = R.FIRST_TRICK_FREE
    p[R.P_SWEEP] = (R.SWEEP_ALL_TRICKS if params.shoot_condition == "all_tricks"
                    else R.SWEEP_ALL_POINT_CARDS)
    p[R.P_SWEEP_VALUE] = params.shoot_pts
    p[R.P_END_THRESHOLD] = params.loss_threshold
    return p


class Petasse(AvoidanceGame):
    title = "Pétasse"
