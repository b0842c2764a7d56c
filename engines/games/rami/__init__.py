"""Le rami (slug ``rami``): French rummy with two decks and four jokers, the 51 opening with
a clean run, rami sec and joker swaps.  See :mod:`.rules` for the rules."""

from engines.games.rami.game import Rami, RamiObservation, RamiState
from engines.games.rami.params import RamiParams

__all__ = ["Rami", "RamiObservation", "RamiParams", "RamiState"]
