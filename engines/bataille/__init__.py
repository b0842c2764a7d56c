"""La bataille (slug ``bataille``): war, on the shared war core (:mod:`engines.war.rules`)."""

from engines.bataille.game import Bataille
from engines.bataille.params import BatailleParams

__all__ = ["Bataille", "BatailleParams"]
