"""Le pinacle (slug ``pinacle``): runs-only rummy for 2, 3 or 4 (two teams) players with
suit-bound wild 2s that slide; plus/minus scoring.  See :mod:`.rules` for the rules."""

from engines.games.pinacle.game import Pinacle, PinacleObservation, PinacleState
from engines.games.pinacle.params import PinacleParams

__all__ = ["Pinacle", "PinacleObservation", "PinacleParams", "PinacleState"]
