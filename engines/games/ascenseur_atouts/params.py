"""Parameters of Ascenseur aux atouts: every ambiguity (C1 to C5) and variant of the spec,
and a proposed ending (C6).

References such as "C2" point to the "Open points and the readings we chose" section of
``docs/rules/ascenseur-atouts.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS, MAX_PLAYERS = 2, 4
PLAY_CARDS = 22                 # the 21 trumps and the Excuse
SCORE_PILE = 14                 # 2, 3, ..., 10, V, C, D, R, A
MAX_ERRORS = SCORE_PILE - 1     # the As is reached after 13 error points


@dataclass(frozen=True)
class AscenseurParams(Params):
    """Ascenseur aux atouts rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "ascenseur-atouts"

    players: int = param(4, "number of players", min=MIN_PLAYERS, max=MAX_PLAYERS)
    start_cards: int = param(
        5, "cards dealt in the first hand of a tour (then one fewer each hand, down to 1); "
        "players x start_cards <= 22", ref="C4", min=1, max=PLAY_CARDS // MIN_PLAYERS)
    target_errors: int = param(
        MAX_ERRORS, "error points that end the game (13: the score pile shows the As)",
        ref="C5", min=1, max=MAX_ERRORS)
    first_dealer: int = param(0, "dealer of the first tour", ref="C1", min=0,
                              max=MAX_PLAYERS - 1)
    hook: str = param(
        "all-hands", "where the dealer (last bidder) may not make the bids add up to the "
        "cards per player: 'all-hands', or 'sighted-hands' (not in the blind 1-card hand)",
        ref="C2", choices=("all-hands", "sighted-hands"))
    blind_excuse: str = param(
        "highest", "the Excuse in the blind 1-card hand: 'highest' (always the highest card) "
        "or 'owner-chooses' (its owner declares it highest or lowest when it is played)",
        choices=("highest", "owner-chooses"))
    ending: str = param(
        "hand", "when the game ends once a pile reaches the As: at the end of that 'hand', or "
        "at the close of that 'round-of-dealers' (the tour dealt by the last seat in dealing "
        "order, so that every seat has dealt as many tours)", ref="C6",
        choices=("hand", "round-of-dealers"))
    ties: str = param(
        "shared", "players tied with the fewest error points: 'shared' win, or 'last-hand' "
        "(fewer errors in the final hand first; still equal: shared)", ref="C3",
        choices=("shared", "last-hand"))

    def validate(self) -> None:
        self.check_seat("first_dealer")
        if self.players * self.start_cards > PLAY_CARDS:
            raise ValueError(f"ascenseur-atouts: start_cards={self.start_cards} for "
                             f"{self.players} players needs more than the {PLAY_CARDS} play "
                             f"cards; valid values: 1..{PLAY_CARDS // self.players}")
        if self.hook == "sighted-hands" and self.start_cards == 1:
            raise ValueError("ascenseur-atouts: hook=sighted-hands needs start_cards >= 2 "
                             "(with only blind hands nobody would ever have to miss a bid and "
                             "the game might never end); valid: hook=all-hands")
