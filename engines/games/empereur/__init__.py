"""L'empereur (slug ``empereur``): a climbing shedding game in four modes (Normal, Elite,
Miroir Normal, Miroir Elite).  See :mod:`.rules` for the rules."""

from engines.games.empereur.game import Empereur, EmpereurObservation, EmpereurState
from engines.games.empereur.params import EmpereurParams

__all__ = ["Empereur", "EmpereurObservation", "EmpereurParams", "EmpereurState"]
