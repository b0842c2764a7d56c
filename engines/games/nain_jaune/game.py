"""Le nain jaune through the common game API: a thin wrapper over the compiled rules
(:mod:`engines.games.nain_jaune.rules`) on the common base (:mod:`engines.core.base`) and
the shedding games' core (:mod:`engines.families.shedding.game`)."""

from __future__ import annotations

import numpy as np

from engines.core.base import RulesGame, observed, observed_seats
from engines.core.cards import card_name
from engines.families.shedding.game import ShedObservation, ShedState
from engines.families.shedding.rules import hand_at
from engines.games.nain_jaune import rules as R
from engines.games.nain_jaune import summary

PHASE_NAMES = {R.SETUP: "setup", R.PLAY: "play", R.OVER: "over"}


def action_text(code: int) -> str:
    """Readable form of an action code: ``play 7♦``, ``sans``."""
    return "sans" if code == R.SANS_ACTION else f"play {card_name(code - R.PLAY_ACTION)}"


class NainJauneObservation(ShedObservation):
    """What one seat may know: its hand, the needed rank, every played card, chips, pots and
    hand sizes."""

    needed = observed(R.NEEDED, "The rank to follow (1..13), 0 on a free lead.")

    @property
    def hand_cards(self) -> list[int]:
        """This seat's card ids."""
        h = hand_at(R.HAND, R.CARDS, self.player)
        return [c for c in range(R.CARDS) if self._s[h + c]]

    @property
    def pots(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self._s[R.POT:R.POT + 5])

    chips = observed_seats(R.CHIPS)

    def __repr__(self) -> str:
        return f"<P{self.player} sees needed {self.needed}, hand {self.hand}>"


class NainJauneState(ShedState):
    """One game of le nain jaune in progress.  Legal actions, by card id: on a free lead,
    every card in hand; otherwise the cards of the needed rank, then ``sans`` with
    ``may_hold_back``.  The log shows ``P1 play 3♦``, ``deal 1 won by P2``; ``records()``
    adds one row per seat and deal."""


    def _snapshot(self) -> int:
        return int(self.s[R.DEALS_WON:R.DEALS_WON + R.MAX_PLAYERS].sum())

    def _after(self, before: int) -> None:
        s = self.s
        if s[R.DEALS_WON:R.DEALS_WON + R.MAX_PLAYERS].sum() != before:
            rows = np.empty((self.game.params.players, summary.ROUND_WIDTH), dtype=np.int32)
            summary.record_deal(s, self._pr, rows, 0)
            self._rounds.append(rows)
            self._log.append(("deal", int(rows[0, 0]), int(s[R.LAST_WINNER]),
                              bool(s[R.LAST_OPERA])))

    def _describe(self, entry: tuple) -> str:
        if entry[0] == "deal":
            opera = " (grand opéra)" if entry[3] else ""
            return f"deal {entry[1]} won by P{entry[2]}{opera}"
        return super()._describe(entry)

    def _context(self) -> str:
        return f"needed rank {int(self.s[R.NEEDED]) or 'free'}"

    def _progress(self) -> str:
        return f"deal {int(self.s[R.DEAL])}, {self._context()}"


class NainJaune(RulesGame):
    title = "nain jaune"
    examples = "'play 7♦', 'sans'"
