"""Parameters of Le pharaon: every variant the specification lists, and its ambiguities.

References such as "A2" point to the "Open points and the readings we chose" section of
``docs/rules/pharaon.md``; "P1" is a gap the spec leaves, documented there and in
:mod:`engines.games.pharaon.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MAX_PUNTERS = 10
MAX_BET = 100                   # the largest max_bet the action table holds


@dataclass(frozen=True)
class PharaonParams(Params):
    """Le pharaon rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "pharaon"

    players: int = param(4, "seats: the banker and the punters (the spec's num_punters + 1; "
                         "default 3 punters)", min=2, max=MAX_PUNTERS + 1)
    ace_low: bool = param(False, "the Ace ranks lowest (default: Ace high)", ref="A1")
    deck_mode: str = param("run_through", "run_through: the shoe runs through the deck (26 "
                           "coups) before a reshuffle; reshuffle_each_coup: a fresh deck each "
                           "coup", ref="A2", choices=("run_through", "reshuffle_each_coup"))
    min_bet: int = param(1, "smallest stake", ref="A3", min=1, max=MAX_BET)
    max_bet: int = param(10, "largest stake", ref="A3", min=1, max=MAX_BET)
    punter_bankroll: int = param(100, "each punter's starting chips", ref="A3", min=1)
    bank_bankroll: int | None = param(None, "the banker's starting chips; none: an unlimited "
                                      "bank (his chips may go below zero)", ref="A6", min=1)
    allow_both_sides: bool = param(False, "a punter may stake on both sides in one coup",
                                   ref="A4")
    num_coups: int = param(26, "session length in coups (26: one pass through the deck)",
                           min=1)
    rotate_bank: bool = param(False, "the bank passes to the next seat after each deck (26 "
                              "coups); every seat then starts with punter_bankroll", ref="A5")

    def validate(self) -> None:
        if self.min_bet > self.max_bet:
            raise ValueError(f"pharaon: min_bet ({self.min_bet}) is above max_bet "
                             f"({self.max_bet})")
