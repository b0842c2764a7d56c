"""Le pinacle through the common game API: a thin wrapper over the compiled rules
(:mod:`engines.games.pinacle.rules`), on the rummy games' core
(:mod:`engines.families.rummy.game`).  A pinacle reads ``2=J♠`` in a run; its move reads ``move the
pinacle at place 1 of meld 0 to the high end``."""

from __future__ import annotations

import numpy as np

from engines.families.rummy import turns as T
from engines.families.rummy.game import RummyGame, RummyObservation, RummyState
from engines.games.pinacle import rules as R


class PinacleObservation(RummyObservation):
    """What one seat may know: its hand, the runs and who laid them, the discard pile, hand
    sizes and the scores."""


class PinacleState(RummyState):
    """One match of pinacle in progress.  Legal actions, in order: in the draw, ``draw
    stock`` then ``take discard``; after it, runs (by suit, first place and length),
    lay-offs (by table meld, card, end), pinacle moves (by table meld, place, end),
    discards (by card).  A hand won in one go is logged ``hand 1 won by P0 (in one go)``."""


    @property
    def totals(self) -> tuple[float, ...]:
        """Each seat's own points."""
        return tuple(int(v) / R.HALF_POINTS for v in
                     self.s[T.TOTAL:T.TOTAL + self.game.params.players])

    def _hand_note(self, row: np.ndarray) -> str:
        return " (in one go)" if row[R.ROUND_ONE_GO] else ""


class Pinacle(RummyGame):
    title = "pinacle"
    wild_name = "2"

    def move_text(self, meld: int, place: int, end: int) -> str:
        return (f"move the pinacle at place {place} of meld {meld} to the "
                f"{'low' if end == 0 else 'high'} end")
