"""Le pharaon through the common game API: a thin wrapper over the compiled rules.

Every rule lives in :mod:`engines.games.pharaon.rules`; this module turns its flat arrays into the
objects bots, runners and people use (actions with readable names, observations, results, an
event log) and checks that an action is legal before handing it to the rules.
"""

from __future__ import annotations

import numpy as np

from engines.core.api import Action
from engines.core.base import RulesGame, RulesObservation, RulesState, observed, observed_seats
from engines.core.cards import card_name
from engines.games.pharaon import rules as R
from engines.games.pharaon import summary
from engines.games.pharaon.params import MAX_BET

PHASE_NAMES = {R.SETUP: "setup", R.BET: "bet", R.OVER: "over"}


def action_text(code: int) -> str:
    """``no bet``, ``bet right 5``, ``bet left 1``."""
    if code == R.NO_BET:
        return "no bet"
    side, amount = divmod(code - 1, MAX_BET)
    return f"bet {R.SIDE_NAMES[side]} {amount + 1}"


class PharaonState(RulesState):
    """One session of Le pharaon in progress (see :mod:`engines.core.api`): the legal actions
    are ``no bet``, then ``bet right a`` and ``bet left a`` for a from ``min_bet`` to the
    most the punter may stake (the second decision of ``allow_both_sides``: left only).
    After the last punter, the coup is drawn."""

    def _play(self, code: int) -> None:
        coup = int(self.s[R.COUP])
        super()._play(code)
        if self.s[R.COUP] != coup:
            row = np.empty((1, summary.ROUND_WIDTH), dtype=np.int32)
            summary.record_coup(self.s, self._pr, row, 0)
            self._rounds.append(row)
            self._log.append(("coup", row[0].copy()))

    def _describe(self, entry: tuple) -> str:
        """``coup 1 (bank P0): right K♠, left 7♥ -> right wins, bank -3``."""
        r = entry[1]
        outcome = "pair: the bank takes every stake" if r[4] else f"{R.SIDE_NAMES[r[5]]} wins"
        return (f"coup {r[0] + 1} (bank P{r[1]}): right {card_name(r[2])}, "
                f"left {card_name(r[3])} -> {outcome}, bank {r[7]:+d}")

    # -- convenience -------------------------------------------------------------------
    @property
    def chips(self) -> tuple[int, ...]:
        return tuple(int(self.s[R.CHIPS + p]) for p in range(self.game.params.players))

    def __repr__(self) -> str:
        return (f"<pharaon coup {int(self.s[R.COUP]) + 1}, bank P{int(self.s[R.BANKER])}, "
                f"chips {list(self.chips)}>")

    def _illegal_message(self, action: Action) -> str:
        if self.is_terminal():
            return f"{action.text} is not legal: the session is over"
        legal = self._legal
        shown = ", ".join(a.text for a in legal[:5]) + (", ..." if len(legal) > 5 else "")
        p = self.current_player
        return (f"{action.text} is not legal for P{p} (chips {self.chips[p]}, bets "
                f"{self.game.params.min_bet}..{self.game.params.max_bet}); legal: {shown}")


class PharaonObservation(RulesObservation):
    """What a seat may know: everything but the order of the undrawn shoe (all public)."""

    banker = observed(R.BANKER)
    chips = observed_seats(R.CHIPS)

    @property
    def stakes(self) -> tuple[tuple[int, int], ...]:
        """Each seat's (right, left) stakes in this coup so far."""
        return tuple((int(self._s[R.STAKE + 2 * p]), int(self._s[R.STAKE + 2 * p + 1]))
                     for p in range(self.params.players))

    @property
    def ranks_left(self) -> tuple[int, ...]:
        """Cards of each rank (2 .. A) left in the shoe since the last shuffle."""
        return tuple(4 - int(self._s[R.SEEN + r]) for r in range(R.RANKS))

    @property
    def pair_probability(self) -> float:
        """The exact chance that the next coup is a pair (a fresh deck if the shoe is empty
        or reshuffled each coup)."""
        left = R.DECK - int(self._s[R.DRAWN])
        if left == 0 or self.params.deck_mode == "reshuffle_each_coup":
            return 3 / 51
        chances = sum(c * (c - 1) for c in self.ranks_left)
        return chances / (left * (left - 1))

    def __repr__(self) -> str:
        return f"<P{self.player} sees bank P{self.banker}, chips {list(self.chips)}>"


class Pharaon(RulesGame):
    title = "Le pharaon"
    examples = "'no bet', 'bet right 5', 'bet left 1'"
