"""Ascenseur aux atouts (slug ``ascenseur-atouts``): Oh Hell with the 22 tarot trumps, bids on
the number of tricks, and a blind last hand.  See :mod:`.rules` for the rules."""

from engines.games.ascenseur_atouts.game import (
    AscenseurAtouts,
    AscenseurObservation,
    AscenseurState,
)
from engines.games.ascenseur_atouts.params import AscenseurParams

__all__ = ["AscenseurAtouts", "AscenseurObservation", "AscenseurParams", "AscenseurState"]
