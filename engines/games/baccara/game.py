"""Le baccara through the common game API: a thin wrapper over the compiled rules.

Every rule lives in :mod:`engines.games.baccara.rules`; this module turns its flat arrays into the
objects bots, runners and people use (actions with readable names, observations, results, an
event log) and checks that an action is legal before handing it to the rules.
"""

from __future__ import annotations

import numpy as np

from engines.core.api import Action, IllegalActionError
from engines.core.compiled import (
    CompiledGame,
    CompiledState,
    MaskedObservation,
    parse_action,
    with_stream,
)
from engines.core.streams import apply_with_stream, resume_with_stream
from engines.games.baccara import rules as R
from engines.games.baccara import summary
from engines.games.baccara.params import BaccaraParams

PHASE_NAMES = {R.SET_STAKE: "stake", R.FULL_COVER: "banco", R.PARTIAL_COVER: "contribute",
               R.PONTE_FIVE: "ponte at 5", R.BANKER_FIVE: "banker at 5", R.OVER: "over"}


def action_text(code: int) -> str:
    """``stake 5``, ``banco``, ``decline``, ``contribute 3``, ``draw``, ``stand``."""
    if code < R.BANCO:
        return f"stake {code - R.STAKE_ACTION + 1}"
    if code == R.BANCO:
        return "banco"
    if code == R.DECLINE:
        return "decline"
    if code < R.DRAW:
        return f"contribute {code - R.CONTRIBUTE}"
    return "draw" if code == R.DRAW else "stand"


ACTIONS: tuple[Action, ...] = tuple(Action(c, action_text(c)) for c in range(R.N_ACTIONS))
_BY_TEXT = {a.text: a for a in ACTIONS}


class Baccara(CompiledGame):
    """Le baccara with fixed parameters (``engines.load("baccara", ...)``)."""

    slug = "baccara"
    title = "Le baccara"
    Params = BaccaraParams
    actions = ACTIONS
    rules = R
    summary = summary

    @property
    def state_class(self) -> type:
        return BaccaraState

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or text (``"stake 5"``, ``"banco"``, ``"draw"``)."""
        return parse_action(value, ACTIONS, _BY_TEXT, "baccara",
                            "'stake 5', 'banco', 'decline', 'contribute 3', 'draw', 'stand'")


class BaccaraState(CompiledState):
    """One session of Le baccara in progress (see :mod:`engines.core.api`)."""

    rules = R
    summary = summary
    actions = ACTIONS

    @property
    def observation_class(self) -> type:
        return BaccaraObservation

    def legal_actions(self) -> list[Action]:
        """The banker's ``stake S`` (1 .. his chips); ``banco`` then ``decline``;
        ``contribute c`` (0 .. what is left to cover, at most his chips); ``draw`` then
        ``stand`` at 5."""
        return super().legal_actions()

    def apply(self, action: Action | int | str) -> None:
        """The current player's decision and what follows up to the next decision; an illegal
        one raises :class:`IllegalActionError` and leaves the state unchanged."""
        action = self.game.action(action)
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._illegal_message(action, legal))
        self._log.append((self.current_player, action.code))
        with_stream(apply_with_stream, self.game.tag, self.s, self._pr, self._stream,
                    action.code)
        self._settle()

    @property
    def log(self) -> list[str]:
        """``P0 stake 10``, ``P3 banco``, ``coup 1 (bank P0, ponte P3, stake 10): ponte 3♠ A♥
        5♦ = 9, banker K♣ 7♥ = 7 -> ponte``."""
        lines = []
        for entry in self._log:
            if entry[0] == "coup":
                lines.append(summary.describe(entry[1]))
            else:
                lines.append(f"P{entry[0]} {ACTIONS[entry[1]].text}")
        return lines

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

    def _illegal_message(self, action: Action, legal: list[Action]) -> str:
        if self.is_terminal():
            return f"{action.text} is not legal: the session is over"
        shown = ", ".join(a.text for a in legal[:4]) + (", ..." if len(legal) > 4 else "")
        return (f"{action.text} is not legal for P{self.current_player} in phase "
                f"{self.phase}; legal: {shown}")


class BaccaraObservation(MaskedObservation):
    """What one seat may know: his own cards, the public cards and every stake."""

    DECISIONS = R.DECISIONS

    @property
    def phase(self) -> str:
        return PHASE_NAMES.get(int(self._s[R.PHASE]), "resolving")

    @property
    def chips(self) -> tuple[int, ...]:
        return tuple(int(self._s[R.CHIPS + p]) for p in range(self.params.players))

    @property
    def banker(self) -> int:
        return int(self._s[R.BANKER])

    @property
    def stake(self) -> int:
        return int(self._s[R.STAKE])

    def hand(self, role: int) -> tuple[int, ...]:
        """A role's cards as this seat sees them (-1: hidden)."""
        n = int(self._s[R.HAND_SIZE + role])
        return tuple(int(c) for c in self._s[R.HAND + 3 * role:R.HAND + 3 * role + n])

    def __repr__(self) -> str:
        return f"<P{self.player} sees {self.phase}, bank P{self.banker}, stake {self.stake}>"
