"""Le rami through the common game API: a thin wrapper over the compiled rules
(:mod:`engines.games.rami.rules`), on the rummy games' core
(:mod:`engines.families.rummy.game`, which lists the action texts)."""

from __future__ import annotations

import numpy as np

from engines.families.rummy.game import RummyGame, RummyObservation, RummyState
from engines.games.rami import rules as R


class RamiObservation(RummyObservation):
    """What one seat may know: its hand, the table, the discard pile, hand sizes, who has
    opened, the scores."""


class RamiState(RummyState):
    """One match of rami in progress.  Legal actions, in order: in the draw, ``draw stock``
    then ``take discard``; after it, melds (runs by suit, first place and length, then
    groups by rank), lay-offs (by table meld, card, end), joker swaps (by table meld,
    place), discards (by card).  A hand won by rami sec is logged ``hand 1 won by P3 (rami
    sec)``."""


    def _hand_note(self, row: np.ndarray) -> str:
        return " (rami sec)" if row[R.ROUND_FIELDS.index("rami_sec")] else ""


class Rami(RummyGame):
    title = "rami"
    wild_name = "Joker"
