"""Paris d'amis (slug ``paris-damis``): the flagship game.  See :mod:`.rules` for the rules."""

from engines.games.paris_damis.game import ParisDamis, ParisDamisObservation, ParisDamisState
from engines.games.paris_damis.params import ParisDamisParams

__all__ = ["ParisDamis", "ParisDamisObservation", "ParisDamisParams", "ParisDamisState"]
