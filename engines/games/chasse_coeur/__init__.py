"""Le chasse-coeur (slug ``chasse-coeur``): Hearts with every Queen worth 13 (the Q♥ 14), the
2♣ lead, no points in the first trick and la générale.  See :mod:`.game`."""

from engines.families.avoidance.game import AvoidanceObservation, AvoidanceState
from engines.games.chasse_coeur.game import ChasseCoeur
from engines.games.chasse_coeur.params import ChasseCoeurParams

__all__ = ["AvoidanceObservation", "AvoidanceState", "ChasseCoeur", "ChasseCoeurParams"]
