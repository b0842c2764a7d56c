"""Parameters of Le baccara: every variant the specification lists, and its ambiguities.

References such as "A3" point to the "Open points and the readings we chose" section of
``docs/rules/baccara.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MAX_PLAYERS = 8
MAX_DECKS = 8
MAX_CHIPS = 1000                # every chip in play: players * start_chips at most


@dataclass(frozen=True)
class BaccaraParams(Params):
    """Le baccara rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "baccara"

    players: int = param(4, "number of players (2 to 8; the text names no usual count)",
                         min=2, max=MAX_PLAYERS)
    num_decks: int = param(1, "decks in the shoe", ref="A1", min=1, max=MAX_DECKS)
    reshuffle_each_coup: bool = param(True, "a fresh shoe every coup (false: a continuous "
                                      "shoe, reshuffled when fewer than 6 cards are left)",
                                      ref="A1")
    third_card_face_up: bool = param(True, "a drawn third card is dealt face up (public)",
                                     ref="A2")
    void_rule: str = param("pass_bank", "nobody covers half the stake: the coup is void and "
                           "the bank passes (pass_bank), or the banker may lower his stake "
                           "(banker_reduces)", ref="A3", choices=("pass_bank", "banker_reduces"))
    tie_rule: str = param("banker_stake_stays", "a tie: the banker's stake stays and the "
                          "staking is redone (banker_stake_stays), or every stake stays and "
                          "the same players deal again (all_stakes_stay)", ref="A4",
                          choices=("banker_stake_stays", "all_stakes_stay"))
    rotate_on: str = param("decided_coup", "the bank passes to the right after every decided "
                           "coup (decided_coup), or only when the banker loses (banker_loss)",
                           ref="A5", choices=("decided_coup", "banker_loss"))
    start_chips: int = param(100, "each player's starting chips", min=1)
    num_rotations: int = param(3, "session length: full rotations of the bank", min=1)
    max_coups: int = param(1000, "safety cap on coups, ties and void coups included", min=1)

    def validate(self) -> None:
        if self.players * self.start_chips > MAX_CHIPS:
            raise ValueError(f"baccara: players * start_chips is at most {MAX_CHIPS} (the "
                             f"stake actions go up to {MAX_CHIPS}); got "
                             f"{self.players} * {self.start_chips}")
