"""Parameters of Le vicaire: every ambiguity (A1 to A6) and variant of the spec.

References such as "A4" point to the "Open points and the readings we chose" section of
``docs/rules/vicaire.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

PLAYERS = 3


@dataclass(frozen=True)
class VicaireParams(Params):
    """Vicaire rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "vicaire"

    players: int = param(PLAYERS, "number of players (always 3)", min=PLAYERS, max=PLAYERS)
    first_target: int = param(10, "the lowest winning total (text: 10)", min=1, max=100)
    target_step: int = param(5, "winning totals above it: its multiples of this (text: 15, "
                                "20, ...)", min=1, max=100)
    require_trick_this_deal: bool = param(
        True, "a player qualifies only if they took a trick in the deal that brought them "
              "to a winning total", ref="A1")
    must_trump: bool = param(False, "a player void in the led suit must trump (the text: "
                                    "'non obligatoire')", ref="A3")
    payout_10: int = param(50, "payout for winning with a total of 10 (first_target)",
                           min=0, max=1000)
    payout_15_20: int = param(20, "payout for winning with 15 or 20", min=0, max=1000)
    payout_25_plus: int = param(20, "payout for winning with 25 or more", ref="A4", min=0,
                                max=1000)
    capot_payout: int = param(50, "payout for taking all 10 tricks of a deal", ref="A5",
                              min=0, max=1000)
    match_target: int = param(500, "the match ends after the game in which a player's "
                                   "payouts reach this", ref="A6", min=1, max=100_000)
    num_games: int | None = param(None, "play exactly this many games instead (1: a single "
                                        "game)", ref="A6", min=1, max=10_000)
    max_deals: int = param(200, "deals after which a game ends without a winner (safety cap)",
                           min=1, max=10_000)
    first_dealer: int | None = param(None, "dealer of the first deal; none: drawn at random",
                                     ref="A2", min=0, max=PLAYERS - 1)
