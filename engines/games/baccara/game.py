"""Le baccara through the common game API: a thin wrapper over the compiled rules.

Every rule lives in :mod:`engines.games.baccara.rules`; this module turns its flat arrays into the
objects bots, runners and people use (actions with readable names, observations, results, an
event log) and checks that an action is legal before handing it to the rules.
"""

from __future__ import annotations

import numpy as np

from engines.core.api import Action
from engines.core.base import RulesGame, RulesObservation, RulesState, observed, observed_seats
from engines.core.compiled import with_stream
from engines.core.streams import resume_with_stream
from engines.games.baccara import rules as R
from engines.games.baccara import summary

PHASE_NAMES = {R.SET_STAKE: "stake", R.FULL_COVER: "banco", R.PARTIAL_COVER: "contribute",
               R.PONTE_FIVE: "ponte at 5", R.BANKER_FIVE: "banker at 5", R.OVER: "over"}


NAMED_ACTIONS = {R.BANCO: "banco", R.DECLINE: "decline", R.DRAW: "draw", R.STAND: "stand"}


def action_text(code: int) -> str:
    """``stake 5``, ``banco``, ``decline``, ``contribute 3``, ``draw``, ``stand``."""
    if code in NAMED_ACTIONS:
        return NAMED_ACTIONS[code]
    if code < R.BANCO:
        return f"stake {code - R.STAKE_ACTION + 1}"
    return f"contribute {code - R.CONTRIBUTE}"


class BaccaraState(RulesState):
    """One session of Le baccara in progress (see :mod:`engines.core.api`): the legal actions
    are the banker's ``stake S`` (1 .. his chips); ``banco`` then ``decline``; ``contribute
    c`` (0 .. what is left to cover, at most his chips); ``draw`` then ``stand`` at 5."""

    def _start(self) -> None:
        super()._start()
        self._settle()

    def _play(self, code: int) -> None:
        super()._play(code)
        self._settle()

    def _describe(self, entry: tuple) -> str:
        return summary.describe(entry[1])

    # -- convenience -------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASE_NAMES.get(int(self.s[R.PHASE]), "resolving")

    @property
    def chips(self) -> tuple[int, ...]:
        return tuple(int(self.s[R.CHIPS + p]) for p in range(self.game.params.players))

    def hand(self, role: int) -> tuple[int, ...]:
        """The ponte's (role 0) or the banker's (role 1) cards."""
        n = int(self.s[R.HAND_SIZE + role])
        return tuple(int(c) for c in self.s[R.HAND + 3 * role:R.HAND + 3 * role + n])

    def __repr__(self) -> str:
        return (f"<baccara coup {int(self.s[R.COUP]) + 1}, bank P{int(self.s[R.BANKER])}, "
                f"{self.phase}, chips {list(self.chips)}>")

    # -- internals ---------------------------------------------------------------------
    def _settle(self) -> None:
        """Record every coup that ended and go on to the next decision."""
        while self.s[R.PHASE] == R.COUP_END:
            row = np.empty((1, summary.ROUND_WIDTH), dtype=np.int32)
            summary.record_coup(self.s, self._pr, row, 0)
            self._rounds.append(row)
            self._log.append(("coup", row[0].copy()))
            with_stream(resume_with_stream, self.game.tag, self.s, self._pr, self._stream)

    def _illegal_message(self, action: Action) -> str:
        if self.is_terminal():
            return f"{action.text} is not legal: the session is over"
        legal = self._legal
        shown = ", ".join(a.text for a in legal[:4]) + (", ..." if len(legal) > 4 else "")
        return (f"{action.text} is not legal for P{self.current_player} in phase "
                f"{self.phase}; legal: {shown}")


class BaccaraObservation(RulesObservation):
    """What one seat may know: his own cards, the public cards and every stake."""

    @property
    def phase(self) -> str:
        return PHASE_NAMES.get(int(self._s[R.PHASE]), "resolving")

    chips = observed_seats(R.CHIPS)
    banker = observed(R.BANKER)
    stake = observed(R.STAKE)

    def hand(self, role: int) -> tuple[int, ...]:
        """A role's cards as this seat sees them (-1: hidden)."""
        n = int(self._s[R.HAND_SIZE + role])
        return tuple(int(c) for c in self._s[R.HAND + 3 * role:R.HAND + 3 * role + n])

    def __repr__(self) -> str:
        return f"<P{self.player} sees {self.phase}, bank P{self.banker}, stake {self.stake}>"


class Baccara(RulesGame):
    title = "Le baccara"
    examples = "'stake 5', 'banco', 'decline', 'contribute 3', 'draw', 'stand'"
