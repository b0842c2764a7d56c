"""The shedding games' core on the common base (:mod:`engines.core.base`): how a decision is
stepped and the events it logs, and what a shedding observation reads (huit américain,
menteur, nain jaune, l'empereur).

A game subclasses :class:`~engines.core.base.RulesGame` with its rules module (``rules``: what
the base reads, plus ``HAND``, ``CARDS``, ``HAND_SIZE``, ``ENDING``, and what
:mod:`engines.core.streams` reads: ``advance``, ``apply_action`` drawing the chance that
follows, ``APPLY_DRAWS = True``), and :class:`ShedState` and :class:`ShedObservation` with its
own log events (:meth:`ShedState._snapshot`, :meth:`ShedState._after`, ``_describe``) and
accessors.  Every game's log ends ``game over (<ending>)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engines.core.base import RulesObservation, RulesState, observed_seats
from engines.core.cards import card_name
from engines.core.compiled import with_stream
from engines.core.streams import step_with_stream
from engines.families.shedding.rules import ENDINGS, hand_at


class ShedState(RulesState):
    """A shedding game in progress: each step (the first deal, a decision) is one compiled
    call with the chance that follows; the game logs its own events by comparing the state
    before and after it, and the end as ``("end", ending)``."""

    def hand(self, player: int) -> list[str]:
        """A seat's cards by card id, one entry per copy."""
        return hand_names(self.s, self._R, player)

    # -- hooks -------------------------------------------------------------------------
    def _start(self) -> None:
        self._step(0, setup=True)

    def _play(self, code: int) -> None:
        self._step(code)

    def _describe(self, entry: tuple) -> str:
        if entry[0] == "end":
            return f"game over ({ENDINGS[entry[1]]})"
        return super()._describe(entry)

    def _snapshot(self) -> Any:
        """What :meth:`_after` compares with (nothing by default)."""
        return None

    def _after(self, before: Any) -> None:
        """Log the game's own events of the step just made."""

    # -- internals ---------------------------------------------------------------------
    def _step(self, code: int, setup: bool = False) -> None:
        before = self._snapshot()
        with_stream(step_with_stream, self._tag, self.s, self._pr, self._stream, code, setup,
                    None)
        self._after(before)
        if self.is_terminal():
            self._log.append(("end", self.s.item(self._R.ENDING)))


def hand_names(s: np.ndarray, rules: Any, player: int) -> list[str]:
    """A seat's cards by card id, one entry per copy."""
    h = hand_at(rules.HAND, rules.CARDS, player)
    return [card_name(c) for c in range(rules.CARDS) for _ in range(int(s[h + c]))]


class ShedObservation(RulesObservation):
    """What one seat may know, decoded on demand from a masked copy of the state."""

    @property
    def hand(self) -> list[str]:
        return hand_names(self._s, self._R, self.player)

    hand_sizes = observed_seats("HAND_SIZE")
