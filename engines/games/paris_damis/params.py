"""Parameters of Paris d'amis: every variant the specification lists (A1 to A10).

References such as "A3" point to the "Open points and the readings we chose" section of
``docs/rules/paris-damis.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_JOKERS = 2
PLAY_DECK = 52
MAX_REWARD_ENTRIES = 4


@dataclass(frozen=True)
class ParisDamisParams(Params):
    """Paris d'amis rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "paris-damis"

    players: int = param(4, "number of players", min=MIN_PLAYERS, max=MAX_PLAYERS)
    rounds: int = param(8, "rounds per game (trump cycles ♥ ♦ ♠ ♣)", ref="A10", min=1, max=64)
    initial_hand: int = param(8, "cards dealt to each player at setup", ref="A10", min=0,
                              max=PLAY_DECK)
    markers: int = param(12, "markers per player: at most this many cards placed per round",
                         ref="A10", min=1, max=PLAY_DECK + MAX_JOKERS)
    correct_bet_cards: tuple[int, ...] = param(
        (10,), "new cards for a correct bet: one number for every bet, or a table of four "
        "(see correct_bet_by); the text's table is missing", ref="A1",
        min=0, max=PLAY_DECK + MAX_JOKERS, length=(1, MAX_REWARD_ENTRIES))
    correct_bet_by: str = param(
        "value", "how a four-entry correct_bet_cards table is read: 'value' (entry k for a "
        "correct bet of k) or 'order' (entry m for the m-th correct bettor in betting order)",
        ref="A1", choices=("value", "order"))
    wrong_bet_cards: int = param(8, "new cards for a wrong bet", min=0,
                                 max=PLAY_DECK + MAX_JOKERS)
    bet_options: str = param(
        "players", "allowed bets: 'players' (1..number of players) or 'four' (1..4 always)",
        ref="A2", choices=("players", "four"))
    empty_column: str = param(
        "stays", "a points card nobody wins (empty column, or a tie under column_tie=nobody): "
        "'stays' face up for the next round, or 'discard' (removed from the game)",
        ref="A3", choices=("stays", "discard"))
    column_tie: str = param(
        "first-placed", "tie for a column: 'first-placed' (whose first card there came "
        "earliest), 'last-placed' (whose latest card there came last), or 'nobody'",
        ref="A4", choices=("first-placed", "last-placed", "nobody"))
    discard: str = param(
        "half-down", "cards discarded at round end from a hand of h: 'half-down' floor(h/2), "
        "'half-up' ceil(h/2), 'none', 'all'", ref="A5",
        choices=("half-down", "half-up", "none", "all"))
    mulligan: bool = param(True, "the hand change before rounds 2.. (keep, or exchange for "
                           "h - mulligan_penalty new cards)", ref="A6")
    mulligan_penalty: int = param(2, "cards lost by exchanging a hand", ref="A6", min=0,
                                  max=PLAY_DECK + MAX_JOKERS)
    jokers: int = param(0, "jokers added to the play deck", ref="A7", min=0, max=MAX_JOKERS)
    joker_rule: str = param(
        "wild", "what a joker does: 'wild' (any column, worth joker_value) or 'tiebreak' "
        "(any column, worth 0, its owner wins every tie there)", ref="A7",
        choices=("wild", "tiebreak"))
    joker_value: int = param(11, "column value of a wild joker", ref="A7", min=0, max=99)
    first_player: int = param(0, "seat that starts round 1", ref="A8", min=0,
                              max=MAX_PLAYERS - 1)
    scoring: str = param(
        "lowest-suit", "winner: 'lowest-suit' (eliminate the lowest suit score, then the next "
        "lowest, ...) or 'total' (plain sum of points)", ref="A9",
        choices=("lowest-suit", "total"))

    def validate(self) -> None:
        self.check_seat("first_player")
        if self.initial_hand * self.players > PLAY_DECK + self.jokers:
            raise ValueError(f"paris-damis: initial_hand={self.initial_hand} for "
                             f"{self.players} players needs more than the "
                             f"{PLAY_DECK + self.jokers} play cards; valid values: "
                             f"0..{(PLAY_DECK + self.jokers) // self.players}")
