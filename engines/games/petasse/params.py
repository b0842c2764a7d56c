"""Parameters of La pétasse (dame de pique): every ambiguity (A1 to A5) and variant of the
spec.

References such as "A3" point to the "Open points and the readings we chose" section of
``docs/rules/petasse.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS, MAX_PLAYERS = 3, 4


@dataclass(frozen=True)
class PetasseParams(Params):
    """Pétasse rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "petasse"

    players: int = param(4, "number of players (with 3, the 7♦ and 7♣ are taken out)",
                         min=MIN_PLAYERS, max=MAX_PLAYERS)
    rank_order: str = param(
        "natural", "card order in every suit: 'natural' (A K Q J 10 9 8 7) or 'belote_plain' "
        "(A 10 K Q J 9 8 7)", ref="A1", choices=("natural", "belote_plain"))
    first_lead: str = param(
        "left_of_dealer", "who leads the first trick: 'left_of_dealer' or "
        "'holder_of_lowest_club'", ref="A2", choices=("left_of_dealer", "holder_of_lowest_club"))
    shoot_condition: str = param(
        "all_tricks", "what turns the points round ('tous les plis'): 'all_tricks' or "
        "'all_points' (every heart and the Q♠)", ref="A3", choices=("all_tricks", "all_points"))
    loss_threshold: int = param(51, "the game ends when a total reaches this; the highest "
                                    "total loses, the lowest wins", ref="A4", min=1,
                                max=10_000)
    num_hands: int = param(
        0, "play exactly this many hands instead (0: until loss_threshold); not in the "
           "rules: a tapis-vert parameter, e.g. num_hands=1 times a single deal like other "
           "Hearts engines", min=0, max=1000)
    first_dealer: int | None = param(None, "dealer of the first hand; none: drawn at random",
                                     min=0, max=MAX_PLAYERS - 1)
    heart_pts: int = param(1, "points of each heart", min=0, max=100)
    qs_pts: int = param(8, "points of the Q♠ (la pétasse)", min=0, max=100)
    shoot_pts: int = param(16, "points each other player scores when one takes every trick",
                           min=0, max=1000)

    def validate(self) -> None:
        self.check_seat("first_dealer")
