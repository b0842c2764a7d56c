"""La petite école through the common game API: a thin wrapper over the compiled rules
(:mod:`engines.games.petite_ecole.rules`), on the rummy games' core
(:mod:`engines.families.rummy.game`, which lists the action texts; a wild 2 reads ``2=4♠`` in a run
and ``2`` in a group: ``lay Q Q 2``)."""

from __future__ import annotations

from engines.families.rummy.game import RummyGame, RummyObservation, RummyState
from engines.games.petite_ecole import rules as R


class PetiteEcoleObservation(RummyObservation):
    """What one seat may know: its hand, the table, the écart, hand sizes, every stage and
    total."""

    @property
    def stages(self) -> tuple[int, ...]:
        """Each seat's stage, 1..10 (11 once stage 10 is passed; with ``stage_table``, 1 to
        its number of stages + 1)."""
        return tuple(int(v) + 1 for v in self._s[R.STAGE:R.STAGE + self.params.players])


class PetiteEcoleState(RummyState):
    """One match of petite école in progress.  Legal actions, in order: in the draw, ``draw
    stock`` then ``take discard``; after it, figures (runs by suit, first place and length,
    then groups by rank, naturals and wilds), lay-offs (by table meld, card, end), discards
    (by card)."""


    @property
    def stages(self) -> tuple[int, ...]:
        """Each seat's stage, 1..10 (11 once stage 10 is passed; with ``stage_table``, 1 to
        its number of stages + 1)."""
        return tuple(int(v) + 1 for v in self.s[R.STAGE:R.STAGE + self.game.params.players])


class PetiteEcole(RummyGame):
    title = "petite école"
    wild_name = "2"
