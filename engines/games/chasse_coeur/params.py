"""Parameters of Le chasse-coeur: every ambiguity (A1 to A8) and variant of the spec.

References such as "A2" point to the "Open points and the readings we chose" section of
``docs/rules/chasse-coeur.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS, MAX_PLAYERS = 3, 10


@dataclass(frozen=True)
class ChasseCoeurParams(Params):
    """Chasse-coeur rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "chasse-coeur"

    players: int = param(4, "number of players", min=MIN_PLAYERS, max=MAX_PLAYERS)
    leftover_rule: str = param(
        "remove_low", "cards that do not divide evenly: 'remove_low' (the lowest non-point "
        "cards, never the 2♣, are taken out: 2♦, 2♠, 3♦, 3♠, 3♣, 4♦, ...) or 'kitty' (dealt "
        "face down to a kitty the winner of the first trick takes)", ref="A1",
        choices=("remove_low", "kitty"))
    first_trick_rule: str = param(
        "no_point_cards", "'pas de point au premier tour': 'no_point_cards' (no heart or "
        "Queen in trick 1 unless only such cards are legal) or 'points_void' (any card, "
        "but trick 1 scores nothing)", ref="A2", choices=("no_point_cards", "points_void"))
    moon_value: int = param(26, "points each opponent scores on a générale (the taker of "
                                "every point card scores 0)", ref="A3", min=0, max=1000)
    pass_cards: int = param(0, "cards each player passes to the left before play", ref="A4",
                            min=0, max=3)
    hearts_broken_rule: bool = param(
        False, "hearts may not be led until a heart has been played (unless the leader has "
               "only hearts)", ref="A5")
    end_threshold: int = param(100, "the game ends after the hand in which a total reaches "
                                    "this", ref="A7", min=1, max=10_000)
    num_hands: int = param(0, "play exactly this many hands instead (0: use end_threshold)",
                           ref="A7", min=0, max=1000)
    first_dealer: int | None = param(None, "dealer of the first hand; none: drawn at random",
                                     min=0, max=MAX_PLAYERS - 1)
    heart_pts: int = param(1, "points of each heart but the Q♥", min=0, max=100)
    queen_pts: int = param(13, "points of the Q♠, Q♦ and Q♣", min=0, max=100)
    qh_pts: int = param(14, "points of the Q♥", min=0, max=100)

    def validate(self) -> None:
        self.check_seat("first_dealer")
