"""La belote à trois (slug ``belote-a-trois``): belote with 24 cards, the taker alone against
two.  See :mod:`.game`."""

from engines.games.belote.game import BeloteObservation, BeloteState
from engines.games.belote_a_trois.game import BeloteATrois
from engines.games.belote_a_trois.params import BeloteATroisParams

__all__ = ["BeloteATrois", "BeloteATroisParams", "BeloteObservation", "BeloteState"]
