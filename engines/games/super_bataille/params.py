"""Parameters of La super-bataille: every variant the specification lists, and its ambiguities.

References such as "A2" point to the "Open points and the readings we chose" section of
``docs/rules/super-bataille.md``; everything it leaves to "On joue comme à la Bataille" uses
the bataille's defaults (the last card laid face up in a bataille).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param
from engines.families.war.rules import MAX_PLAYERS

MIN_PLAYERS = 2
PICKUP_ORDERS = ("winner_first", "seat_order", "random")


@dataclass(frozen=True)
class SuperBatailleParams(Params):
    """La super-bataille rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "super-bataille"

    players: int = param(3, "number of players (the author designed it for three)",
                         min=MIN_PLAYERS, max=MAX_PLAYERS)
    ace_n: int = param(1, "payment number of the Ace (the text: A = 1; \"on peut bien sûr "
                       "faire As = 14\")", ref="A4", choices=(1, 14))
    battle_losers_pay: bool = param(True, "the losers of each bataille step also pay for "
                                    "their last face-up card", ref="A2")
    pickup_order: str = param("winner_first", "order of the won cards under the winner's "
                              "pile: his own first, then the others from his left "
                              "(winner_first); every player from seat 0 (seat_order); "
                              "shuffled (random)", ref="A6", choices=PICKUP_ORDERS)
    stop_at_first_elimination: bool = param(False, "stop when the first player is out (the "
                                            "largest pile wins) instead of playing until one "
                                            "player holds all 54 cards", ref="A7")
    max_tricks: int = param(10_000, "safety cap: the game stops (end max_tricks) after this "
                            "many tricks", min=1)
