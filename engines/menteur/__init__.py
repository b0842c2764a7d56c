"""Le menteur (slug ``menteur``): a bluffing shedding game with face-down claims.  See
:mod:`.rules` for the rules."""

from engines.menteur.game import Menteur, MenteurObservation, MenteurState
from engines.menteur.params import MenteurParams

__all__ = ["Menteur", "MenteurObservation", "MenteurParams", "MenteurState"]
