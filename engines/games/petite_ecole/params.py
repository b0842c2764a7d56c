"""Parameters of la petite école (le gros cochon): every variant the specification lists
that the engine plays, and its ambiguities.

References such as "A3" point to the "Open points and the readings we chose" section of
``docs/rules/petite-ecole.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_PLAYERS_TWO_DECKS = 4
MAX_HANDS = 200
HAND_SIZE = 13
# The stages of the text ("les échelons"), in the ``stage_table`` syntax: one stage per
# ";", each "runs,run length,groups,group size" (minimum sizes; 0,0 for no run or group),
# the rows of the engine's stage table.
TEXT_STAGES = "0,0,2,3;1,4,1,3;0,0,2,4;2,4,0,0;0,0,3,3;1,4,2,3;1,5,1,4;2,5,0,0;1,5,2,3;1,7,1,4"
MAX_STAGES = 20
RUN_RANKS = 12                                  # a run goes from 3 to the Ace
STAGE_SYNTAX = ("stages separated by ';', each 'runs,run length,groups,group size' "
                "(e.g. '0,0,2,3;1,4,1,3')")


def parse_stages(text: str) -> tuple[tuple[int, int, int, int], ...]:
    """The stages of a ``stage_table`` string; a ``ValueError`` names the syntax."""
    def bad(why: str) -> ValueError:
        return ValueError(f"petite-ecole: stage_table {text!r}: {why}; expected {STAGE_SYNTAX}")

    stages = []
    for part in text.split(";"):
        try:
            runs, run_length, groups, group_size = (int(v) for v in part.split(","))
        except ValueError:
            raise bad(f"stage {part!r} is not four integers") from None
        if min(runs, run_length, groups, group_size) < 0 or runs + groups == 0:
            raise bad(f"stage {part!r} needs at least one figure and no negative number")
        if (runs > 0) != (run_length > 0) or (groups > 0) != (group_size > 0):
            raise bad(f"stage {part!r}: a size is 0 exactly when its figures are")
        if runs and not 3 <= run_length <= RUN_RANKS or groups and group_size < 3:
            raise bad(f"stage {part!r}: runs of 3 to {RUN_RANKS}, groups of 3 or more")
        if runs * run_length + groups * group_size > HAND_SIZE:
            raise bad(f"stage {part!r} needs more than the {HAND_SIZE} cards of a hand")
        stages.append((runs, run_length, groups, group_size))
    if len(stages) > MAX_STAGES:
        raise bad(f"at most {MAX_STAGES} stages")
    return tuple(stages)


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
    stage_table: str = param(TEXT_STAGES, "the stages in order: " + STAGE_SYNTAX + "; "
                             "the default is the text's ten (spec section 10)")
    max_hands: int = param(MAX_HANDS, "safety cap on hands; a match reaching it ends, "
                           "recorded as capped", min=1, max=MAX_HANDS)
    max_turns: int = param(2000, "safety cap on turns per hand; a match reaching it ends, "
                           "recorded as capped", min=10)

    @property
    def decks(self) -> int:
        if self.num_decks is not None:
            return self.num_decks
        return 2 if self.players <= MAX_PLAYERS_TWO_DECKS else 3

    @property
    def stages(self) -> tuple[tuple[int, int, int, int], ...]:
        return parse_stages(self.stage_table)

    def validate(self) -> None:
        parse_stages(self.stage_table)
        if self.decks * 52 < self.players * 13 + 20:
            raise ValueError(f"petite-ecole: {self.players} players need 3 decks "
                             f"(num_decks=3 or none)")
