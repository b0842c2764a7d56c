"""Betzanbloo (slug ``betzanbloo``): double-guessing, betrayal and bluff with simultaneous
play.  See :mod:`.rules` for the rules."""

from engines.games.betzanbloo.game import Betzanbloo, BetzanblooObservation, BetzanblooState
from engines.games.betzanbloo.params import BetzanblooParams

__all__ = ["Betzanbloo", "BetzanblooObservation", "BetzanblooParams", "BetzanblooState"]
