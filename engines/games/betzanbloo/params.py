"""Parameters of Betzanbloo: every variant the specification lists, and its ambiguities.

References such as "B1" point to the "Open points and the readings we chose" section of
``docs/rules/betzanbloo.md``; "B4" is a gap the spec missed, documented here and in
:mod:`engines.games.betzanbloo.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS, MAX_PLAYERS = 3, 8
HIGHEST_PERSO = 12              # the diamond variant's "cartes de 1 à 12"


@dataclass(frozen=True)
class BetzanblooParams(Params):
    """Betzanbloo rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "betzanbloo"

    players: int = param(5, "number of players (the text allows 3 to 8 and names no usual "
                         "count; 5 is the middle of the range)", min=MIN_PLAYERS,
                         max=MAX_PLAYERS)
    perso_max: int = param(10, "personal cards are 1..perso_max (the text says both 10 "
                           "and 12 cards)", ref="B1", choices=(10, HIGHEST_PERSO))
    drop_extremes: bool = param(False, "variant: remove the personal cards 1 and perso_max "
                                "(8 cards in hand with perso_max=10)")
    scoring: str = param("points", "'points' (card values) or 'diamonds' (1&10 -> 1, 2&9 -> "
                         "2, 3&8 -> 3, 4&7 -> 4, 5&6 -> 5)", choices=("points", "diamonds"))
    diamonds_11_12: int = param(0, "diamonds on each of the cards 11 and 12 under "
                                "scoring=diamonds with perso_max=12 (the text's table stops "
                                "at 10)", ref="B4", min=0, max=5)
