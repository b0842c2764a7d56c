"""Le menteur (slug ``menteur``): a bluffing shedding game with face-down claims.  See
:mod:`.rules` for the rules."""

from engines.games.menteur.game import Menteur, MenteurObservation, MenteurState
from engines.games.menteur.params import MenteurParams

__all__ = ["Menteur", "MenteurObservation", "MenteurParams", "MenteurState"]
