"""Parameters of la petite école (le gros cochon): every variant the specification lists
that the engine plays, and its ambiguities.

References such as "A3" point to the "Ambiguities and default resolutions" section of
``shared/rules/petite-ecole.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.params import Params, param

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_PLAYERS_TWO_DECKS = 4
MAX_HANDS = 200


@dataclass(frozen=True)
class PetiteEcoleParams(Params):
    """Petite école rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "petite-ecole"

    players: int = param(4, "number of players ('à 2, 3 ou 4 joueurs', 'on ajoute un jeu "
                         "pour 5 personnes ou plus')", ref="A12", min=MIN_PLAYERS,
                         max=MAX_PLAYERS)
    num_decks: int | None = param(None, "packs of 52 (none: 2 up to 4 players, else 3)",
                                  min=2, max=3)
    run_same_suit: bool = param(True, "runs ('séries') are of one suit; false: consecutive "
                                "ranks in any suits, as in Phase 10 (a mixed run lays, at "
                                "each rank, the lowest card id held: its lowest suit)",
                                ref="A1")
    wild_limit: str = param("one_natural", "wilds per figure: at least one natural card; "
                            "no more wilds than naturals; at most one wild", ref="A3",
                            choices=("one_natural", "naturals_ge_wilds", "max_one_wild"))
    must_discard_to_go_out: bool = param(True, "the last card must be discarded ('doit "
                                         "toujours ... en écarter une')", ref="A7")
    may_rediscard_taken: bool = param(False, "the écart card taken may be discarded the "
                                      "same turn", ref="A8")
    winner_rule: str = param("first_stage10_then_points", "who wins once a player has "
                             "passed stage 10: the lowest total among those who passed it, "
                             "or the lowest total of all", ref="A10",
                             choices=("first_stage10_then_points", "lowest_points_overall"))
    max_hands: int = param(MAX_HANDS, "safety cap on hands; a match reaching it ends, "
                           "recorded as capped", min=1, max=MAX_HANDS)
    max_turns: int = param(2000, "safety cap on turns per hand; a match reaching it ends, "
                           "recorded as capped", min=10)

    @property
    def decks(self) -> int:
        if self.num_decks is not None:
            return self.num_decks
        return 2 if self.players <= MAX_PLAYERS_TWO_DECKS else 3

    def validate(self) -> None:
        if self.decks * 52 < self.players * 13 + 20:
            raise ValueError(f"petite-ecole: {self.players} players need 3 decks "
                             f"(num_decks=3 or none)")
