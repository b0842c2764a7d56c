"""La belote de comptoir (slug ``belote-comptoir``): the belote rules of
:mod:`engines.games.belote.rules`, configured for short deals and point bids.

Read alongside ``docs/rules/belote-comptoir.md`` and the French source ("La belote de
comptoir"): "se joue à deux, trois, quatre joueurs ou plus" (n * k <= 32); "on distribue un
petit nombre de cartes à chaque joueur: entre 1 et 5, selon le bon plaisir du donneur. Le reste
du paquet ne sera pas distribué" (the dealer chooses k, A7); "Chacun à tour de rôle propose
une enchère, c'est-à-dire le nombre de point qu'il prétend réaliser": one round, each bid
strictly above the last, passing allowed (A1), 1 .. 182 (A2); "Le joueur qui fait l'enchère
la plus élevée choisit la couleur d'atout et joue le premier"; "S'il réussit à atteindre le
score annoncé, il marque un point, sinon ce sont les autres qui marquent chacun un point"
("atteindre": points >= bid); "La partie peut se jouer à 5 points, 10 points" (target 5, the
unique leader wins, A8); "Le jeu de la carte est le même qu'à la belote": belote's orders,
points and obligations, dix de der and belote-rebelote (A6), no partner exemption among the
non-declarers, who are not declared partners (A4); "sans atout" or "tout atout" optional, with
the coinche tables (A5).  The three visibility variants ("faces cachées ... à l'aveugle";
"pour une partie des cartes"; "certaines cartes distribuées faces visibles") are
``visibility``; the owners look at their blind cards once the bidding is over (A3), unless
``blind_play``; the partial modes concern the first j cards dealt to each player.
"""

from __future__ import annotations

import numpy as np

from engines.games.belote import rules as R
from engines.games.belote.game import BeloteGame
from engines.games.belote_comptoir.params import BeloteComptoirParams

K_RULES = {"dealer_choice": R.K_DEALER_CHOICE, "random": R.K_RANDOM}
VISIBILITY = {"normal": R.VIS_NORMAL, "blind": R.VIS_BLIND,
              "partial_blind": R.VIS_PARTIAL_BLIND, "partial_open": R.VIS_PARTIAL_OPEN}


def encode(params: BeloteComptoirParams) -> np.ndarray:
    """The rules' data for these parameters."""
    p = R.new_params(params.players, R.MODE_COMPTOIR, (), params.first_dealer,
                     params.classic_sa_ta)
    p[R.P_K_RULE] = K_RULES.get(params.cards_per_player, params.fixed_k() or 0)
    p[R.P_ALLOW_SA] = params.allow_sa
    p[R.P_ALLOW_TA] = params.allow_ta
    p[R.P_VISIBILITY] = VISIBILITY[params.visibility]
    p[R.P_VIS_J] = params.visibility_j
    p[R.P_BLIND_PLAY] = params.blind_play
    p[R.P_AUCTION] = R.AUCTION_OPEN if params.auction == "open" else R.AUCTION_SINGLE
    p[R.P_MIN_BID] = params.min_bid
    p[R.P_MAX_BID] = params.highest_bid()
    p[R.P_DIX_DE_DER] = params.dix_de_der
    p[R.P_BELOTE] = params.belote_rebelote
    p[R.P_EXEMPTION] = params.defenders_partners
    p[R.P_UNDERTRUMP] = 1
    p[R.P_TARGET] = params.target
    p[R.P_MAX_DEALS] = params.max_deals
    return p


class BeloteComptoir(BeloteGame):
    title = "Belote de comptoir"
