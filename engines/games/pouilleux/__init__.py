"""Le pouilleux (slug ``pouilleux``): Old Maid with same-colour pairs, and the pouilleux
mystérieux.  See :mod:`.rules`."""

from engines.games.pouilleux.game import Pouilleux, PouilleuxObservation, PouilleuxState
from engines.games.pouilleux.params import PouilleuxParams

__all__ = ["Pouilleux", "PouilleuxObservation", "PouilleuxParams", "PouilleuxState"]
