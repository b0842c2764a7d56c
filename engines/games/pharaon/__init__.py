"""Le pharaon (slug ``pharaon``): a Faro-type banking game.  See :mod:`.rules`."""

from engines.games.pharaon.game import Pharaon, PharaonObservation, PharaonState
from engines.games.pharaon.params import PharaonParams

__all__ = ["Pharaon", "PharaonObservation", "PharaonParams", "PharaonState"]
