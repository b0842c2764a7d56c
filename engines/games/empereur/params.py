"""Parameters of l'empereur: every variant the specification lists, and its ambiguities.

References such as "A5" point to the "Open points and the readings we chose" section of
``docs/rules/empereur.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS, MAX_PLAYERS = 2, 6
MODES = ("normal", "elite", "miroir_normal", "miroir_elite")
JOKER_FINISH_POINTS = ("all_remaining", "zero")


@dataclass(frozen=True)
class EmpereurParams(Params):
    """L'empereur rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "empereur"

    players: int = param(4, "number of players ('De 2 à 6 joueurs')", min=MIN_PLAYERS,
                         max=MAX_PLAYERS)
    mode: str = param("normal", "game mode: Normal, Elite, Miroir Normal, Miroir Elite",
                      choices=MODES)
    num_rounds: int = param(3, "rounds of the normal modes ('en général 3 pour une partie "
                            "courte et 6 pour une longue')", min=1, max=100)
    target_points: int = param(500, "points that end an elite game ('500 pour une partie "
                               "courte et 1000 pour une longue')", min=1, max=100_000)
    num_jokers: int = param(2, "Jokers in the pack ('54 cartes avec ou sans Joker(s)')",
                            ref="A1", choices=(0, 1, 2))
    lead_must_play: bool = param(False, "a player leading on an empty talon must play "
                                 "(default: he may draw and pass, 'ou ne voulez')", ref="A4")
    penalty_skips_turn: bool = param(False, "a player who draws a run's penalty loses his "
                                     "turn (default: he then plays his turn)", ref="A5")
    shuffle_recycled_pile: bool = param(True, "shuffle the talon cards that refill an empty "
                                        "pioche (else they keep their play order)", ref="A7")
    miroir_elite_emperor_exchange: bool = param(True, "the Emperor exchange also takes place "
                                                "in Miroir Elite ('Règle des modes Elite et "
                                                "Miroir Elite')", ref="A11")
    miroir_joker_finish_points: str = param("all_remaining", "Miroir Elite, an Exclu who "
                                            "went out on a Joker scores the cards left in "
                                            "every hand, or nothing", ref="A10",
                                            choices=JOKER_FINISH_POINTS)
    max_turns: int = param(5000, "safety cap on turns per round: a game reaching it ends, "
                           "recorded as capped", min=10)
    max_rounds: int = param(200, "safety cap on rounds (elite modes): a game reaching it "
                            "ends, recorded as capped", min=1, max=1000)
