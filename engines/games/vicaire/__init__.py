"""Le vicaire (slug ``vicaire``): 3 players, 32 cards, hearts always trumps (trumping
optional), one point a trick; first to land exactly on 10 (or 15, 20, ...) at the end of a
deal wins the game.  See :mod:`.rules` for the rules."""

from engines.games.vicaire.game import Vicaire, VicaireObservation, VicaireState
from engines.games.vicaire.params import VicaireParams

__all__ = ["Vicaire", "VicaireObservation", "VicaireParams", "VicaireState"]
