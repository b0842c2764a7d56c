"""Betzanbloo through the common game API: a thin wrapper over the compiled rules.

Every rule lives in :mod:`engines.games.betzanbloo.rules`; this module turns its flat arrays into
the objects bots, runners and people use (actions with readable names, observations, results,
an event log) and checks that an action is legal before handing it to the rules.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from engines.core.api import Action
from engines.core.base import RulesGame, RulesObservation, RulesState, observed
from engines.games.betzanbloo import rules as R
from engines.games.betzanbloo import summary

PHASE_NAMES = {R.SETUP: "setup", R.PLAY: "play", R.CAPTURE: "capture", R.OVER: "over"}
CASE_NAMES = ("all in one camp", "one player alone", "split")


def action_text(code: int) -> str:
    """Readable form of an action code: ``play 7``, ``capture 9``."""
    if code < R.CAPTURE_ACTION:
        return f"play {code - R.PLAY_ACTION + 1}"
    return f"capture {code - R.CAPTURE_ACTION + 1}"


class BetzanblooState(RulesState):
    """One game of Betzanbloo in progress (see :mod:`engines.core.api`).  The legal actions:
    ``play v`` for each card in hand but the threshold's value, ascending; for the lone
    player, ``capture v`` for each value played in the other camp, ascending."""

    def _start(self) -> None:
        super()._start()
        self._log.append(("turn", 0))

    def _play(self, code: int) -> None:
        s = self.s
        turn = int(s[R.TURN])
        R.apply_action(s, self._pr, code)
        if s[R.TURN] != turn:                   # the turn is resolved
            self._log.append(("resolved", turn))
            rows = np.empty((self._players, summary.ROUND_WIDTH), dtype=np.int32)
            summary.record_turn(s, self._pr, turn, rows, 0)
            self._rounds.append(rows)
            if s[R.PHASE] != R.OVER:
                self._log.append(("turn", turn + 1))

    def _describe(self, entry: tuple) -> str:
        """``turn 1: threshold 5``, ``turn 1 resolved: 2 3 9 — one player alone: P2 saves 9
        and captures 3``."""
        s, turn = self.s, entry[1]
        if entry[0] == "turn":
            return f"turn {turn + 1}: threshold {int(s[R.PILE + turn])}"
        cards = [int(s[R.HISTORY_CARD + turn * R.MAX_PLAYERS + p]) for p in range(self._players)]
        case = int(s[R.HISTORY_CASE + turn])
        text = (f"turn {turn + 1} resolved: {' '.join(map(str, cards))} — "
                f"{CASE_NAMES[case]}")
        if case == R.LONE:
            lone = int(s[R.HISTORY_LONE + turn])
            text += (f": P{lone} saves {cards[lone]} and captures "
                     f"{int(s[R.HISTORY_CAPTURE + turn])} from "
                     f"P{int(s[R.HISTORY_VICTIM + turn])}")
        return text

    def legal_actions(self) -> list[Action]:
        legal = super().legal_actions()
        if not legal and not self.is_terminal():
            raise RuntimeError(f"P{self.current_player} has no legal card: every card in "
                               f"hand equals the threshold {int(self.s[R.THRESHOLD])} (B3)")
        return legal

    def _context(self) -> str:
        return f"phase {self.phase}, threshold {int(self.s[R.THRESHOLD])}"

    def __repr__(self) -> str:
        if self.is_terminal():
            return "<betzanbloo over>"
        return (f"<betzanbloo turn {int(self.s[R.TURN]) + 1}, threshold "
                f"{int(self.s[R.THRESHOLD])}, {self.phase}, P{self.current_player} to play>")


def _cards(mask: int) -> tuple[int, ...]:
    return tuple(v for v in range(1, R.HIGHEST_PERSO + 1) if mask >> v & 1)


class BetzanblooObservation(RulesObservation):
    """What one seat may know, decoded on demand from a masked copy of the state."""

    @property
    def turn(self) -> int:
        """Turn number, 1-based."""
        return int(self._s[R.TURN]) + 1

    threshold = observed(R.THRESHOLD)

    @cached_property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's cards in hand (this turn's hidden choices still in them)."""
        return tuple(_cards(int(self._s[R.HAND + p])) for p in range(self.params.players))

    @property
    def hand(self) -> tuple[int, ...]:
        return self.hands[self.player]

    @cached_property
    def played(self) -> tuple[int, ...]:
        """This turn's cards that this seat may see (0: not chosen, or hidden)."""
        return tuple(int(self._s[R.PLAYED + p]) for p in range(self.params.players))

    @cached_property
    def history(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """Every resolved turn: (threshold, the card each seat played)."""
        n = self.params.players
        s = self._s
        return tuple((int(s[R.PILE + t]),
                      tuple(int(s[R.HISTORY_CARD + t * R.MAX_PLAYERS + p]) for p in range(n)))
                     for t in range(int(s[R.TURN])))

    @cached_property
    def thresholds_left(self) -> tuple[int, ...]:
        """The threshold cards not yet turned up, ascending."""
        s = self._s
        return tuple(int(v) for v in s[R.PILE + s[R.TURN] + 1:R.PILE + R.TURNS])

    @cached_property
    def worth(self) -> tuple[int, ...]:
        """What each card value 0..12 scores under this game's scoring rule."""
        pr = self.encoded_params
        return tuple(int(v) for v in pr[R.P_WORTH:R.P_WORTH + R.VALUES])

    def score_so_far(self, player: int) -> int:
        """The score ``player``'s saved and captured cards make so far."""
        s = self._s
        saved = _cards(int(s[R.SAVED + player]))
        total = sum(self.worth[v] for v in saved)
        return total + sum(int(s[R.CAPTURED + player * R.VALUES + v]) * self.worth[v]
                           for v in range(R.VALUES))

    def __repr__(self) -> str:
        return (f"<P{self.player} sees turn {self.turn} ({self.phase}), threshold "
                f"{self.threshold}, hand {list(self.hand)}>")


class Betzanbloo(RulesGame):
    title = "Betzanbloo"
    examples = "'play 7', 'capture 9'"
