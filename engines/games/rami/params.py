"""Parameters of le rami: every variant the specification lists, and its ambiguities.

References such as "A3" point to the "Open points and the readings we chose" section of
``docs/rules/rami.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS = 2
MAX_PLAYERS = 7
MAX_HANDS = 20


@dataclass(frozen=True)
class RamiParams(Params):
    """Rami rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "rami"

    players: int = param(4, "number of players (the text gives none)", ref="A1",
                         min=MIN_PLAYERS, max=MAX_PLAYERS)
    opening_min: int = param(51, "meld points the first lay-down needs ('totalise 51 points "
                             "ou plus')", min=0, max=200)
    opening_needs_clean_run: bool = param(True, "the first lay-down must include a run "
                                          "with no joker ('une vraie suite sans joker')")
    rami_sec_only: bool = param(False, "the 'rami sec' variant: cards are laid only by laying "
                                "all 13 at once and discarding the 14th")
    rami_sec_bonus: int = param(-50, "score of a rami sec ('on lui compte -50 points')",
                                min=-500, max=0)
    never_laid_penalty: int = param(100, "flat score of a player who laid no card this hand "
                                    "('il marque 100 points')", ref="A9", min=0, max=500)
    joker_penalty: int = param(50, "a joker left in hand ('le joker pour 50 points')",
                               min=0, max=200)
    max_jokers_per_meld: str = param("1", "jokers one meld may hold: 1, 2, or unlimited "
                                     "(with at least two natural cards)", ref="A3",
                                     choices=("1", "2", "unlimited"))
    layoff_on_opening_turn: bool = param(False, "lay-offs and joker swaps are allowed in the "
                                         "turn of the first lay-down, once its 51 are laid",
                                         ref="A4")
    joker_to_hand: bool = param(False, "a joker taken back may stay in hand (default: it "
                                "must be laid the same turn, 'm'en servir pour constituer "
                                "une nouvelle combinaison')", ref="A6")
    swap_from_full_carre: bool = param(False, "a joker may also be taken back from a carré "
                                       "of three naturals, where the card it stands for is "
                                       "determined", ref="A6")
    stock_out: str = param("reshuffle", "the talon runs out: the discard pile but its top "
                           "card becomes the talon, or the hand ends void", ref="A7",
                           choices=("reshuffle", "hand_void"))
    sec_loser_scoring: str = param("flat_100", "losers in the rami-sec variant: the flat 100 "
                                   "for 'tout son jeu en main', or their cards' values",
                                   ref="A10", choices=("flat_100", "card_values"))
    num_hands: int | None = param(None, "hands in a match ('au bout de plusieurs parties'; "
                                  "none: one per player, so that each deals once)",
                                  ref="A11", min=1, max=MAX_HANDS)
    max_turns: int = param(2000, "safety cap on turns per hand; a game reaching it ends, "
                           "recorded as capped", min=10)

    @property
    def hands(self) -> int:
        """The number of hands of a match."""
        return self.num_hands if self.num_hands is not None else self.players
