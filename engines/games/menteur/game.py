"""Le menteur through the common game API: a thin wrapper over the compiled rules
(:mod:`engines.games.menteur.rules`) on the common base (:mod:`engines.core.base`) and
the shedding games' core (:mod:`engines.families.shedding.game`)."""

from __future__ import annotations

from functools import cached_property

import numpy as np

from engines.core.base import RulesGame, observed
from engines.core.cards import SUIT_SYMBOLS, card_name
from engines.families.shedding.game import ShedObservation, ShedState
from engines.families.shedding.rules import hand_at
from engines.games.menteur import rules as R

PHASE_NAMES = {R.SETUP: "setup", R.LEAD: "lead", R.FOLLOW: "follow",
               R.WINDOW_PHASE: "window", R.OVER: "over"}


def action_text(code: int) -> str:
    """Readable form of an action code: ``lay 5♥ as ♠`` (leading), ``lay 9♠`` (following),
    ``call``, ``no call``."""
    if code < R.FOLLOW_ACTION:
        card, suit = divmod(code - R.LEAD_ACTION, R.SUITS)
        return f"lay {card_name(card)} as {SUIT_SYMBOLS[suit]}"
    if code < R.CALL_ACTION:
        return f"lay {card_name(code - R.FOLLOW_ACTION)}"
    return "call" if code == R.CALL_ACTION else "no call"


class MenteurObservation(ShedObservation):
    """What one seat may know: its hand, the pile (its own cards shown, the others'
    ``HIDDEN``), the announced suit, hand sizes."""

    suit = observed(R.SUIT, "The announced suit of the pile (0..3 for ♥ ♦ ♠ ♣), -1 with no pile.")
    layer = observed(R.LAYER, "Who laid the last card.")

    @cached_property
    def hand_counts(self) -> np.ndarray:
        """This seat's cards as counts per card id."""
        h = hand_at(R.HAND, R.CARDS, self.player)
        return self._s[h:h + R.CARDS].copy()

    @cached_property
    def pile(self) -> list[tuple[int, int]]:
        """The pile bottom to top: (card id, or ``HIDDEN`` for a card another laid; the
        seat that laid it)."""
        s = self._s
        return [(int(s[R.PILE + i]), int(s[R.PILE_OWNER + i])) for i in range(s[R.PILE_LEN])]

    @cached_property
    def unseen(self) -> np.ndarray:
        """The card ids this seat cannot see (other hands and others' pile cards)."""
        return self._s[R.POOL:R.POOL + self._s[R.UNSEEN]].copy()

    def __repr__(self) -> str:
        return f"<P{self.player} sees {self.phase}, pile {len(self.pile)}, hand {self.hand}>"


class MenteurState(ShedState):
    """One game of le menteur in progress.  Legal actions, in order: leading, every card in
    hand (by card id) with each announced suit ♥ ♦ ♠ ♣; following, every card in hand; in
    the challenge window, ``call``, ``no call``.  The log shows ``P0 lay 5♥ as ♠``,
    ``P1 call``, ``shown: 5♥ (a lie by P0)``."""


    def _snapshot(self) -> tuple[int, int, int]:
        s = self.s
        return (int(s[R.CHALLENGES]), int(s[R.LAYER]),
                int(s[R.CORRECT_CALLS:R.CORRECT_CALLS + R.MAX_PLAYERS].sum()))

    def _after(self, before: tuple[int, int, int]) -> None:
        s = self.s
        if s[R.CHALLENGES] != before[0]:
            lie = s[R.CORRECT_CALLS:R.CORRECT_CALLS + R.MAX_PLAYERS].sum() != before[2]
            self._log.append(("shown", int(s[R.REVEALED]), before[1], bool(lie)))

    def _describe(self, entry: tuple) -> str:
        if entry[0] == "shown":
            verdict = "a lie" if entry[3] else "the truth"
            return f"shown: {card_name(entry[1])} ({verdict} by P{entry[2]})"
        return super()._describe(entry)

    def _progress(self) -> str:
        return f"{self.phase}, pile {int(self.s[R.PILE_LEN])}"


class Menteur(RulesGame):
    title = "menteur"
    examples = "'lay 5♥ as ♠', 'lay 9♠', 'call', 'no call'"
