"""La belote de comptoir (slug ``belote-comptoir``): 1 to 5 cards, point bids, the declarer
alone against all.  See :mod:`.game`."""

from engines.games.belote.game import BeloteObservation, BeloteState
from engines.games.belote_comptoir.game import BeloteComptoir
from engines.games.belote_comptoir.params import BeloteComptoirParams

__all__ = ["BeloteComptoir", "BeloteComptoirParams", "BeloteObservation", "BeloteState"]
