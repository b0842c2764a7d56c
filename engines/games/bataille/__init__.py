"""La bataille (slug ``bataille``): war, on the shared war core
(:mod:`engines.families.war.rules`)."""

from engines.games.bataille.game import Bataille
from engines.games.bataille.params import BatailleParams

__all__ = ["Bataille", "BatailleParams"]
