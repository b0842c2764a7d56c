"""La pétasse ou dame de pique (slug ``petasse``): a 32-card Hearts for 3 or 4 players, hearts
1 point, the Q♠ 8, every trick turns the points round, 51 loses.  See :mod:`.game`."""

from engines.families.avoidance.game import AvoidanceObservation, AvoidanceState
from engines.games.petasse.game import Petasse
from engines.games.petasse.params import PetasseParams

__all__ = ["AvoidanceObservation", "AvoidanceState", "Petasse", "PetasseParams"]
