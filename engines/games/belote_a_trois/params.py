"""Parameters of La belote à trois: every ambiguity (A1 to A9) and variant of the spec.

References such as "A5" point to the "Open points and the readings we chose" section of
``docs/rules/belote-a-trois.md`` (A1: "belote à quatre" read as belote classique, whose
orders and points are fixed data in :mod:`engines.games.belote.rules`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

PLAYERS = 3
MOST_REMOVED = 2            # 8 cards each need 24 cards: at most two of the 8 ranks removed


@dataclass(frozen=True)
class BeloteATroisParams(Params):
    """Belote à trois rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "belote-a-trois"

    players: int = param(PLAYERS, "number of players (the game is for 3)", min=PLAYERS,
                         max=PLAYERS)
    remove_ranks: tuple[int, ...] = param(
        (7, 8), "ranks taken out of the 32-card pack (text: the 7s and 8s); empty: play with "
        "32 cards, 8 of them left undealt", min=7, max=14, length=(0, 1, 2))
    annonces: bool = param(False, "announcements: sequences (tierce 20, quarte 50, quinte "
                                  "100) and carrés (J 200, 9 150, A 10 K Q 100)", ref="A2")
    belote_rebelote: bool = param(True, "+20 for the K and Q of trumps played by one player",
                                  ref="A2")
    defender_partner_exemption: bool = param(
        True, "a defender void in a plain suit led need not trump while the other defender "
        "holds the trick", ref="A3")
    must_undertrump: bool = param(
        True, "a player void in the led suit who cannot overtrump must still play a lower "
        "trump (false: any card)", ref="A4")
    fail_split: str = param(
        "each_full", "defence score when the contract fails: 'each_full' (each defender 162) "
        "or 'shared' (the defenders share it, 81 each)", ref="A5",
        choices=("each_full", "shared"))
    tie_rule: str = param(
        "dedans", "taker's total equal to the defence's: 'dedans' (failed) or 'litige' (the "
        "defence scores its points, the taker's are held for the next deal's winner)",
        ref="A6", choices=("dedans", "litige"))
    target: int = param(1000, "the game ends when a player alone has the highest total and it "
                              "reaches this (variant 501)", ref="A7", min=1, max=1_000_000)
    round2_any_suit: bool = param(False, "the turned suit may also be named in the second "
                                         "round of bidding", ref="A8")
    capot_value: int = param(250, "worth of all the tricks (instead of 162)", ref="A9", min=0,
                             max=10_000)
    max_deals: int = param(500, "safety cap on deals, redeals included; the game is then "
                                "recorded as aborted", min=1, max=100_000)
    first_dealer: int | None = param(None, "dealer of the first deal; none: drawn at random",
                                     min=0, max=PLAYERS - 1)

    def validate(self) -> None:
        if len(set(self.remove_ranks)) != len(self.remove_ranks):
            raise ValueError(f"belote-a-trois: remove_ranks lists a rank twice: "
                             f"{self.remove_ranks}; valid values: up to {MOST_REMOVED} "
                             f"distinct ranks 7..14")
