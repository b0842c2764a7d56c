"""Le baccara (slug ``baccara``): home chemin-de-fer with a rotating bank.  See
:mod:`.rules`."""

from engines.games.baccara.game import Baccara, BaccaraObservation, BaccaraState
from engines.games.baccara.params import BaccaraParams

__all__ = ["Baccara", "BaccaraObservation", "BaccaraParams", "BaccaraState"]
