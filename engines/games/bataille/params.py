"""Parameters of La bataille: every variant the specification lists, and its ambiguities.

References such as "A2" point to the "Open points and the readings we chose" section of
``docs/rules/bataille.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param
from engines.families.war.rules import MAX_PLAYERS, PICKUP_NAMES, SHORTAGE_NAMES

MIN_PLAYERS = 2


@dataclass(frozen=True)
class BatailleParams(Params):
    """La bataille rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "bataille"

    players: int = param(2, "number of players (\"entre deux joueurs (ou plus)\")",
                         min=MIN_PLAYERS, max=MAX_PLAYERS)
    deck: int = param(52, "the pack: 52 cards, or the 32-card pack (7 to A)", ref="A1",
                      choices=(52, 32))
    jokers: bool = param(False, "add 2 Jokers above the Aces (\"On peut jouer éventuellement "
                         "avec deux jokers\")", ref="A7")
    pickup_order: str = param("winner_first", "order of the won cards under the winner's "
                              "pile: his own first, then the others from his left "
                              "(winner_first); every player from seat 0 (seat_order); the "
                              "others from his left, then his own (loser_first); shuffled "
                              "(random)", ref="A2", choices=PICKUP_NAMES)
    bataille_shortage: str = param("last_card_up", "a tied player short of cards in a "
                                   "bataille: lays his last card face up, and loses with none "
                                   "(last_card_up); or loses the bataille as soon as he cannot "
                                   "lay both cards (lose_immediately)", ref="A4",
                                   choices=SHORTAGE_NAMES)
    stop_at_first_elimination: bool = param(False, "3+ players: stop when the first player "
                                            "is out (the largest pile wins) instead of "
                                            "playing until one player holds every card",
                                            ref="A6")
    max_tricks: int = param(100_000, "safety cap: the game stops (end max_tricks) after this "
                            "many tricks", min=1)
