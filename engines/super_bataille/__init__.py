"""La super-bataille (slug ``super-bataille``): a fast war where every loser pays as many
cards as his card's number, on the shared war core (:mod:`engines.war.rules`)."""

from engines.super_bataille.game import SuperBataille
from engines.super_bataille.params import SuperBatailleParams

__all__ = ["SuperBataille", "SuperBatailleParams"]
