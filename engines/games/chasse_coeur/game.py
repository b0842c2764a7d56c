"""Le chasse-coeur (slug ``chasse-coeur``): the point-avoidance rules of
:mod:`engines.families.avoidance.rules`, configured.

Read alongside ``docs/rules/chasse-coeur.md`` and the French source ("Le Chasse-coeur").
The text: "Cartes à points : coeur (sauf dame) : 1 point, dames : 13 points, dame de coeur :
14 points" (65 points a hand); "On commence par le 2 de trèfle" (the holder of the 2♣ leads
it); "Pas de point au premier tour" (no heart or Queen in trick 1 unless only such cards
are legal, A2); "On suit le signe de la première carte, si on ne possède pas ce signe, on
peut se défausser"; "Si quelqu'un réussit à remporter tous les points, il fait la générale
(26 points pour ses adversaires et 0 point pour lui)": taking every point card (A6), 26 to
each opponent as written (A3).  Not in the text (spec defaults): the lowest non-point cards
come out so the cards divide evenly (A1), no passing (A4), hearts may be led any time (A5),
the game ends after the hand in which a total reaches 100, the lowest total wins (A7), ties
share (A8), the first dealer is random and the deal passes left.  With a kitty that holds
the 2♣ (``leftover_rule=kitty``), the holder of the lowest club leads, any card.
"""

from __future__ import annotations

import numpy as np

from engines.core.cards import CLUBS, DIAMONDS, HEARTS, QUEEN, SPADES, card_id
from engines.families.avoidance import rules as R
from engines.families.avoidance.game import AvoidanceGame, new_params
from engines.games.chasse_coeur.params import ChasseCoeurParams

QUEENS = tuple(card_id(QUEEN, suit) for suit in (HEARTS, DIAMONDS, SPADES, CLUBS))
QUEEN_OF_HEARTS = card_id(QUEEN, HEARTS)
# Taken out, in this order, until the cards divide evenly (A1): never the 2♣, a heart or a
# Queen.
REMOVAL_ORDER = tuple([card_id(2, DIAMONDS), card_id(2, SPADES)] + [
    card_id(rank, suit) for rank in range(3, QUEEN) for suit in (DIAMONDS, SPADES, CLUBS)])


def removed_cards(params: ChasseCoeurParams) -> tuple[int, ...]:
    """The cards taken out of the game under ``leftover_rule=remove_low`` (none with a
    kitty)."""
    if params.leftover_rule == "kitty":
        return ()
    return REMOVAL_ORDER[:R.DECK_CARDS % params.players]


def card_points(params: ChasseCoeurParams) -> np.ndarray:
    """Points of each card: hearts ``heart_pts``, Queens ``queen_pts``, the Q♥ ``qh_pts``."""
    points = np.zeros(R.DECK_CARDS, dtype=np.int32)
    points[R.CARD_SUIT == HEARTS] = params.heart_pts
    points[list(QUEENS)] = params.queen_pts
    points[QUEEN_OF_HEARTS] = params.qh_pts
    return points


def encode(params: ChasseCoeurParams) -> np.ndarray:
    """The rules' data for these parameters."""
    in_play = np.ones(R.DECK_CARDS, dtype=np.int32)
    in_play[list(removed_cards(params))] = 0
    point_card = (R.CARD_SUIT == HEARTS).astype(np.int32)
    point_card[list(QUEENS)] = 1
    p = new_params(params, in_play, np.arange(R.DECK_CARDS) % 13, card_points(params),
                   point_card)
    p[R.P_KITTY] = params.leftover_rule == "kitty"
    p[R.P_FIRST_LEAD] = R.LEAD_TWO_OF_CLUBS
    p[R.P_FIRST_TRICK] = (R.FIRST_TRICK_NO_POINT_CARDS
                          if params.first_trick_rule == "no_point_cards"
                          else R.FIRST_TRICK_POINTS_VOID)
    p[R.P_HEARTS_BROKEN] = params.hearts_broken_rule
    p[R.P_PASS_CARDS] = params.pass_cards
    p[R.P_SWEEP] = R.SWEEP_ALL_POINT_CARDS
    p[R.P_SWEEP_VALUE] = params.moon_value
    p[R.P_END_THRESHOLD] = params.end_threshold
    return p


class ChasseCoeur(AvoidanceGame):
    title = "Chasse-coeur"
