"""French tarot: plain FFT tarot (slug ``tarot``), le tarot lorrain (``tarot-lorrain``) and
le tarot taré (``tarot-tare``), one set of rules configured by each game.  See
:mod:`.rules` for the rules and :mod:`.game` for the readings of the French texts."""

from engines.games.tarot.game import Tarot, TarotLorrain, TarotObservation, TarotState, TarotTare
from engines.games.tarot.params import LorrainParams, TareParams, TarotParams

__all__ = ["LorrainParams", "TareParams", "Tarot", "TarotLorrain", "TarotObservation",
           "TarotParams", "TarotState", "TarotTare"]
