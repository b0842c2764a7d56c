"""Le huit américain through the common game API: a thin wrapper over the compiled rules
(:mod:`engines.games.huit_americain.rules`) on the common base (:mod:`engines.core.base`) and
the shedding games' core (:mod:`engines.families.shedding.game`)."""

from __future__ import annotations

import numpy as np

from engines.core.base import RulesGame, observed
from engines.core.cards import SUIT_SYMBOLS, card_name
from engines.families.shedding.game import ShedObservation, ShedState
from engines.games.huit_americain import rules as R

PHASE_NAMES = {R.SETUP: "setup", R.TURN: "turn", R.RESPOND: "respond", R.DRAWN: "drawn",
               R.CARTE: "carte", R.OVER: "over"}
ATTACK_NAMES = ("none", "ace", "king of hearts")


def action_text(code: int) -> str:
    """Readable form of an action code: ``play 6♠``, ``play 8♣ → ♥``, ``draw``, ``keep``,
    ``call carte``, ``no call``."""
    if code < R.EIGHT_ACTION:
        return f"play {card_name(code - R.PLAY_ACTION)}"
    if code < R.DRAW_ACTION:
        k = code - R.EIGHT_ACTION
        return f"play {card_name(R.eight_card(k // R.SUITS))} → {SUIT_SYMBOLS[k % R.SUITS]}"
    return {R.DRAW_ACTION: "draw", R.KEEP_ACTION: "keep", R.CALL_ACTION: "call carte",
            R.NO_CALL_ACTION: "no call"}[code]


class HuitAmericainObservation(ShedObservation):
    """What one seat may know: its hand, the discard pile's top and suit, the attack, hand
    sizes and the stock size."""

    @property
    def top(self) -> str:
        return card_name(int(self._s[R.TOP]))

    @property
    def suit(self) -> str:
        """The suit to follow (announced after an 8)."""
        return SUIT_SYMBOLS[int(self._s[R.SUIT])]

    @property
    def attack(self) -> str:
        return ATTACK_NAMES[int(self._s[R.ATTACK])]

    stock_size = observed(R.STOCK_LEN)
    unseen = observed(R.UNSEEN,
                      "How many cards this seat cannot see (the stock and the other hands).")

    def __repr__(self) -> str:
        return (f"<P{self.player} sees {self.phase}, top {self.top} ({self.suit}), hand "
                f"{self.hand}>")


class HuitAmericainState(ShedState):
    """One game of le huit américain in progress.  Legal actions, in order: in a turn, every
    playable card by card id (cards other than 8s), then each 8 with each announced suit
    ♥ ♦ ♠ ♣, then ``draw`` when nothing is playable; under attack, the counters held, else
    ``draw`` (the penalty); after a draw with a choice, the plays of the drawn card(s), then
    ``keep`` in the optional variants; in the "Carte!" window, ``call carte``, ``no call``.
    The log shows ``start: 6♦``, ``P0 play 6♠``, ``P1 draw``, ``P1 draws 1``."""


    def _snapshot(self) -> np.ndarray:
        return self.s[R.CARDS_DRAWN:R.CARDS_DRAWN + self.game.params.players].copy()

    def _after(self, before: np.ndarray) -> None:
        s = self.s
        if s[R.DECISIONS] == 0:
            self._log.append(("start", int(s[R.TOP])))
            return
        now = s[R.CARDS_DRAWN:R.CARDS_DRAWN + self.game.params.players]
        for p in np.nonzero(now != before)[0].tolist():
            self._log.append(("draws", p, int(now[p] - before[p])))

    def _describe(self, entry: tuple) -> str:
        if entry[0] == "start":
            return f"start: {card_name(entry[1])}"
        if entry[0] == "draws":
            return f"P{entry[1]} draws {entry[2]}"
        return super()._describe(entry)

    def _context(self) -> str:
        return (f"phase {self.phase}, top {card_name(int(self.s[R.TOP]))}, suit "
                f"{SUIT_SYMBOLS[int(self.s[R.SUIT])]}")


class HuitAmericain(RulesGame):
    title = "huit américain"
    examples = "'play 6♠', 'play 8♣ → ♥', 'draw', 'keep', 'call carte'"
