"""Parameters of le pinacle: every variant the specification lists, and its ambiguities.

References such as "A1" point to the "Open points and the readings we chose" section of
``docs/rules/pinacle.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MAX_HANDS = 200


@dataclass(frozen=True)
class PinacleParams(Params):
    """Pinacle rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "pinacle"

    players: int = param(2, "players: 2, 3, or 4 in two teams (partners opposite)",
                         choices=(2, 3, 4))
    cards_dealt_total: int = param(36, "cards dealt in all ('on distribue 36 cartes au "
                                   "total': 18, 12 or 9 each)", min=6, max=48)
    winner_bonus: int = param(10, "the going-out player's points ('celui-ci marque 10 "
                              "points')", min=0, max=100)
    one_go_bonus: int = param(30, "instead, for laying all his cards in one turn ('s'il "
                              "parvient à poser d'un coup toutes ses cartes')", ref="A10",
                              min=0, max=200)
    winner_scoring: str = param("bonus_plus_laid", "the going-out player scores his bonus "
                                "plus the cards he laid, or the bonus alone", ref="A1",
                                choices=("bonus_plus_laid", "flat"))
    layoff_scope: str = param("any", "runs a player may lay off on (and move a pinacle in): "
                              "any, or his own team's", ref="A2",
                              choices=("any", "own_team_only"))
    must_discard_to_go_out: bool = param(False, "the last card must be discarded (default: "
                                         "laying it goes out too)", ref="A4")
    target_score: int = param(100, "a match ends after the hand where a player (team) "
                              "reaches it, alone at the top", ref="A8", min=1, max=10_000)
    max_hands: int = param(MAX_HANDS, "safety cap on hands; a match reaching it ends, "
                           "recorded as capped", min=1, max=MAX_HANDS)
    max_turns: int = param(2000, "safety cap on turns per hand; a match reaching it ends, "
                           "recorded as capped", min=10)

    def validate(self) -> None:
        if self.cards_dealt_total % self.players or self.cards_dealt_total + 4 > 52:
            raise ValueError(f"pinacle: cards_dealt_total must be a multiple of {self.players} "
                             f"leaving a talon (got {self.cards_dealt_total})")
