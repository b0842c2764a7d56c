"""Rikiki (slug ``rikiki``): Oh Hell with a 52-card pack, hands of 1..M..1 cards, a turned
trump card and exact bids.  See :mod:`.rules` for the rules."""

from engines.games.rikiki.game import Rikiki, RikikiObservation, RikikiState
from engines.games.rikiki.params import RikikiParams

__all__ = ["Rikiki", "RikikiObservation", "RikikiParams", "RikikiState"]
