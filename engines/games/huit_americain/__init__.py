"""Le huit américain (slug ``huit-americain``): a Crazy Eights shedding game with two decks.
See :mod:`.rules` for the rules."""

from engines.games.huit_americain.game import (
           HuitAmericain,
           HuitAmericainObservation,
           HuitAmericainState,
)
from engines.games.huit_americain.params import HuitAmericainParams

__all__ = ["HuitAmericain", "HuitAmericainObservation", "HuitAmericainParams",
           "HuitAmericainState"]
