"""La petite école / le gros cochon (slug ``petite-ecole``): contract rummy in ten stages,
2s wild, two or three decks.  See :mod:`.rules` for the rules."""

from engines.games.petite_ecole.game import PetiteEcole, PetiteEcoleObservation, PetiteEcoleState
from engines.games.petite_ecole.params import PetiteEcoleParams

__all__ = ["PetiteEcole", "PetiteEcoleObservation", "PetiteEcoleParams", "PetiteEcoleState"]
