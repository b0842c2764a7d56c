"""Parameters of le huit américain: every variant the specification lists, and its
ambiguities.

References such as "A3" point to the "Open points and the readings we chose" section of
``docs/rules/huit-americain.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS = 2
MAX_PLAYERS = 8                 # with two decks; five with one
MAX_PLAYERS_ONE_DECK = 5


@dataclass(frozen=True)
class HuitAmericainParams(Params):
    """Huit américain rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "huit-americain"

    players: int = param(4, "number of players (2-8 with two decks, 2-5 with one)",
                         min=MIN_PLAYERS, max=MAX_PLAYERS)
    num_decks: int = param(2, "packs of 52 shuffled together (the text: two, 'ou "
                           "éventuellement avec un seul, mais c'est moins bien')",
                           choices=(1, 2))
    hand_size: int = param(8, "cards dealt to each player ('on distribue 8 cartes')",
                           min=1, max=12)
    eight_must_match: bool = param(False, "an 8 must match the suit or rank like any card "
                                   "(default: an 8 is wild, never on another 8)", ref="A2")
    voluntary_draw: bool = param(False, "a player may draw while holding a playable card",
                                 ref="A3")
    drawn_card_optional: bool = param(False, "a playable drawn card may be kept (default: "
                                      "'il la joue')", ref="A3")
    counter_optional: bool = param(False, "a player holding an Ace (K♥) may decline to "
                                   "counter an attack and draw", ref="A4")
    seven_skip_two_players: bool = param(False, "apply the 7 (skip) with two players (the "
                                         "text advises against it)", ref="A5")
    kh_resume: str = param("last_kh_player", "who resumes after a K♥ attack: the last K♥ "
                           "player (by analogy with the Ace example) or the first attacker "
                           "(the text's literal example)", ref="A1",
                           choices=("last_kh_player", "first_attacker"))
    kh_counter_again: bool = param(False, "a K♥ of the current attack, shuffled back into "
                                   "the stock and drawn, counters that attack again (the "
                                   "text's 'l'autre roi de coeur' read as any K♥ not on top); "
                                   "default: a K♥ attack is countered at most once", ref="A7")
    carte_call: bool = param(False, "model the 'Carte!' call: a player left with one card "
                             "forgets it with probability carte_forget; the first opponent "
                             "who calls makes him draw 2", ref="A10")
    carte_forget: float = param(0.25, "probability that a player left with one card forgets "
                                "to say 'Carte!' (with carte_call)", ref="A10")
    rank_all: bool = param(False, "play on after the first winner until one player is left, "
                           "for a full ranking")
    max_turns: int = param(10000, "safety cap on decisions: a game reaching it ends, recorded "
                           "as capped", min=10)

    def validate(self) -> None:
        if self.num_decks == 1 and self.players > MAX_PLAYERS_ONE_DECK:
            raise ValueError(f"huit-americain: with one deck, players is 2..."
                             f"{MAX_PLAYERS_ONE_DECK} (got {self.players})")
        if self.players * self.hand_size >= 52 * self.num_decks:
            raise ValueError(f"huit-americain: {self.players} hands of {self.hand_size} "
                             f"leave no stock with {self.num_decks} deck(s)")
        if not 0.0 <= self.carte_forget <= 1.0:
            raise ValueError(f"huit-americain: carte_forget is a probability in 0..1 "
                             f"(got {self.carte_forget})")
