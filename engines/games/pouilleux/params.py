"""Parameters of Le pouilleux: every variant the specification lists, and its ambiguities.

References such as "A1" point to the "Open points and the readings we chose" section of
``docs/rules/pouilleux.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MAX_PLAYERS = 8


@dataclass(frozen=True)
class PouilleuxParams(Params):
    """Le pouilleux rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "pouilleux"

    players: int = param(3, "number of players (the text: only interesting with 3 or more)",
                         min=2, max=MAX_PLAYERS)
    deck: int = param(52, "the pack before the removal: 52, or 32 (7 to A)", ref="A1",
                      choices=(52, 32))
    mysterieux: bool = param(False, "pouilleux mystérieux: the removed card is drawn at random "
                             "and kept face down; its partner is the unknown pouilleux",
                             ref="A7")
    holder_arranges: bool = param(False, "the holder of the pouilleux chooses its place in his "
                                  "hand before his neighbour draws (the drawer picks a "
                                  "position)", ref="A6")
    max_turns: int = param(100_000, "safety cap on draws", min=1)
