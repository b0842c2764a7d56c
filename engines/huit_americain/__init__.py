"""Le huit américain (slug ``huit-americain``): a Crazy Eights shedding game with two decks.
See :mod:`.rules` for the rules."""

from engines.huit_americain import game
from engines.huit_americain.params import HuitAmericainParams

HuitAmericain = game.HuitAmericain
HuitAmericainState = game.HuitAmericainState
HuitAmericainObservation = game.HuitAmericainObservation

__all__ = ["HuitAmericain", "HuitAmericainObservation", "HuitAmericainParams",
           "HuitAmericainState"]
