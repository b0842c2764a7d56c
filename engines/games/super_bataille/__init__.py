"""La super-bataille (slug ``super-bataille``): a fast war where every loser pays as many
cards as his card's number, on the shared war core (:mod:`engines.families.war.rules`)."""

from engines.games.super_bataille.game import SuperBataille
from engines.games.super_bataille.params import SuperBatailleParams

__all__ = ["SuperBataille", "SuperBatailleParams"]
