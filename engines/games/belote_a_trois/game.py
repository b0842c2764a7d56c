"""La belote à trois (slug ``belote-a-trois``): the belote rules of
:mod:`engines.games.belote.rules`, configured for three players and 24 cards.

Read alongside ``docs/rules/belote-a-trois.md`` and the French source ("La belote à trois"):
"il suffit de retirer d'un jeu de 32 cartes les 7 et les 8" (``remove_ranks``); "Le jeu se
déroule ensuite exactement comme à la belote à quatre" is read as belote classique (A1): the
turned card, two rounds of bidding, the taker completing his hand with the turned card and
2 more, the others with 3; trump order J 9 A 10 K Q, plain A 10 K Q J 9; follow, must trump,
must overtrump, compulsory undertrump (A4), belote-rebelote (A2), dix de der, capot 250 (A9);
"à ceci près que le joueur qui prend joue seul contre les deux autres": the two others are
partners for the deal, with the partner exemption (A3); "Les scores sont donc marqués
séparément pour chaque joueur. Si une équipe de deux joueurs remporte, par exemple,
70 points (contre 92 points au preneur), chacun inscrit 70 à son score": each defender writes
the defence's total, the taker his own.  "chacun inscrit" extended to a failed contract: each
defender 162 (A5, variant shared); a tie is dedans (A6, variant litige); the game is played
to 1000 (A7); the highest total wins and an exact tie at the top plays another deal.
Announcements are off (A2); when on, every player declares all of his at once when the hands
are complete (their values are public, not the cards), a card may count both in a sequence
and in a carré, and only the side with the best one scores its own.
"""

from __future__ import annotations

import numpy as np

from engines.games.belote import rules as R
from engines.games.belote.game import BeloteGame
from engines.games.belote_a_trois.params import BeloteATroisParams


def encode(params: BeloteATroisParams) -> np.ndarray:
    """The rules' data for these parameters."""
    p = R.new_params(params.players, R.MODE_TROIS, params.remove_ranks, params.first_dealer)
    p[R.P_ANNONCES] = params.annonces
    p[R.P_BELOTE] = params.belote_rebelote
    p[R.P_EXEMPTION] = params.defender_partner_exemption
    p[R.P_UNDERTRUMP] = params.must_undertrump
    p[R.P_FAIL_SPLIT] = R.FAIL_SHARED if params.fail_split == "shared" else R.FAIL_EACH_FULL
    p[R.P_TIE_RULE] = R.TIE_LITIGE if params.tie_rule == "litige" else R.TIE_DEDANS
    p[R.P_CAPOT] = params.capot_value
    p[R.P_TARGET] = params.target
    p[R.P_ROUND2_ANY] = params.round2_any_suit
    p[R.P_MAX_DEALS] = params.max_deals
    return p


class BeloteATrois(BeloteGame):
    title = "Belote à trois"
