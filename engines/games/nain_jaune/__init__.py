"""Le nain jaune (slug ``nain-jaune``): a sequence game with five pots of stakes.  See
:mod:`.rules` for the rules."""

from engines.games.nain_jaune.game import NainJaune, NainJauneObservation, NainJauneState
from engines.games.nain_jaune.params import NainJauneParams

__all__ = ["NainJaune", "NainJauneObservation", "NainJauneParams", "NainJauneState"]
