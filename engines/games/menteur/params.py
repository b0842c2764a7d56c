"""Parameters of le menteur: every variant the specification lists, and its ambiguities.

References such as "A2" point to the "Open points and the readings we chose" section of
``docs/rules/menteur.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS, MAX_PLAYERS = 2, 10


@dataclass(frozen=True)
class MenteurParams(Params):
    """Menteur rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "menteur"

    players: int = param(4, "number of players (the spec: 3-8; the engine takes 2-10)",
                         min=MIN_PLAYERS, max=MAX_PLAYERS)
    deck: int = param(52, "the pack: 52, 32 (7 to Ace) or 54 (two Jokers)", ref="A1",
                      choices=(52, 32, 54))
    joker_rule: str = param("always_lie", "with 54 cards: a Joker is always a lie, or wild "
                            "(true for any suit)", ref="A1", choices=("always_lie", "wild"))
    after_truth: str = param("taker_leads", "who leads after a truthful card was challenged: "
                             "the accuser who took the pile, or the player after the layer",
                             ref="A2", choices=("taker_leads", "next_after_layer"))
    caller_priority: str = param("turn_order", "who may call first when several would: the "
                                 "players in turn order after the layer, or in a random order",
                                 ref="A3", choices=("turn_order", "random"))
    play_to_last: bool = param(False, "play on after the first winner until one player is "
                               "left holding cards (the loser)")
    max_turns: int = param(10000, "safety cap on decisions: a game reaching it ends, recorded "
                           "as capped", min=10)
