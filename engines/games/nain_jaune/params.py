"""Parameters of le nain jaune: every variant the specification lists, and its ambiguities.

References such as "A2" point to the "Open points and the readings we chose" section of
``docs/rules/nain-jaune.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS, MAX_PLAYERS = 3, 8
POTS = 5


@dataclass(frozen=True)
class NainJauneParams(Params):
    """Nain jaune rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "nain-jaune"

    players: int = param(4, "number of players (3-8)", min=MIN_PLAYERS, max=MAX_PLAYERS)
    start_chips: int = param(120, "chips each player starts with", ref="A7", min=1,
                             max=100_000)
    antes: tuple[int, ...] = param((1, 2, 3, 4, 5), "per-player antes into the pots of 10♦, "
                                   "J♣, Q♠, K♥ and 7♦ (the text)", length=(POTS,), min=0,
                                   max=1000)
    ante_once: bool = param(False, "ante only at the start of the game (default: at every "
                            "deal, unwon pots carry over)", ref="A2")
    may_hold_back: bool = param(False, "a player may say 'sans' while holding the needed "
                                "rank", ref="A1")
    double_amount: str = param("pot", "'doubler la mise' for a belle carte left in hand: pay "
                               "the pot's content, or n x its per-player ante", ref="A3",
                               choices=("pot", "base"))
    grand_opera: bool = param(True, "a player who plays all his cards before anyone else "
                              "plays takes all five pots (the text)", ref="A6")
    forget_prob: float = param(0.0, "probability that a player forgets to collect a pot and "
                               "pays its content instead", ref="A4")
    max_deals: int = param(500, "safety cap on deals: a game reaching it ends, recorded as "
                           "capped", min=1)

    def validate(self) -> None:
        if not 0.0 <= self.forget_prob <= 1.0:
            raise ValueError(f"nain-jaune: forget_prob is a probability in 0..1 (got "
                             f"{self.forget_prob})")
