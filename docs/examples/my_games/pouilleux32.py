"""A game of one's own, the example of docs/add-a-game.md: Le pouilleux played with the
32-card pack by default, a house rule turned into a game of its own.  It reuses the
compiled rules of Le pouilleux (engines/games/pouilleux/); a new game brings its own
params.py, rules.py, summary.py and game.py (docs/architecture.md#adding-a-game)."""

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import param
from engines.games.pouilleux import Pouilleux
from engines.games.pouilleux.params import PouilleuxParams


@dataclass(frozen=True)
class Pouilleux32Params(PouilleuxParams):
    """Le pouilleux's parameters, with the 32-card pack by default."""

    game: ClassVar[str] = "pouilleux-32"        # the game's slug
    deck: int = param(32, "the pack before the removal: 32 (7 to A), or 52", ref="A1",
                      choices=(32, 52))


class Pouilleux32(Pouilleux):
    """Le pouilleux with the 32-card pack."""

    title = "Le pouilleux à 32 cartes"
    Params = Pouilleux32Params
