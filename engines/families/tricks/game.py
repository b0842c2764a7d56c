"""The trick-taking family's Python side, on :mod:`engines.core.base`: what the trick games
(rikiki, vicaire, the belotes, the tarots, chasse-coeur, pétasse, ascenseur aux atouts) do
their own way, and nothing the base already does.

A game subclasses :class:`TrickGame` (its ``rules`` and ``summary`` modules, ``actions``,
``phase_names``, ``verbs``, ``examples``, ``state_class``, and how its deal and the end of
a round read in the log: :meth:`TrickGame.describe_deal`,
:meth:`TrickGame.describe_round_end`), :class:`TrickState` (naming its observation class)
and :class:`TrickObservation` (its own fields).  Its rules module follows one convention: a
flat int32 state (``STATE``) with the fields ``PHASE``, ``CURRENT``, ``DECISIONS``,
``ROUND`` (0-based index of the deal), ``ROUNDS_PLAYED``, ``DEALER``, ``CARDS``, ``TRICK``,
``PLAYED``, ``TRICK_SEAT``, ``TRICK_CARD``, ``TRICK_WINNER``, ``TRICKS``, ``SCORE``,
``HAND_SIZE``, ``LOCATION`` (one entry per card, ``LOC_HAND + seat`` in a hand) and
``RANK``; ``DECK_CARDS``; the phase ``OVER``; ``APPLY_DRAWS = False`` (``apply_action``
draws nothing: deals wait for ``advance``); and the compiled entry points the base reads
(see :mod:`engines.core.base`), plus ``apply_action`` and ``chance_pending``, which
:func:`engines.core.streams.decide` and the next deal use.  The summary module offers
``SIZE``, ``ROUND_WIDTH``, ``summarize``, ``record_round`` and ``result``.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from engines.core.api import Action, IllegalActionError
from engines.core.base import RulesGame, RulesObservation, RulesState
from engines.core.cards import card_name, parse_card
from engines.core.compiled import SummaryRow, win_shares
from engines.core.streams import LEGAL_COUNT, ROUND_ENDED, TRICK_ENDED, decide

# win_shares is the one of engines.core.compiled, named here for the games' summary modules
__all__ = ["TrickGame", "TrickObservation", "TrickState", "field_offsets", "field_sources",
           "win_shares"]


def field_offsets(state_layout: Any, fields: tuple[str, ...]) -> dict[str, slice]:
    """Where each of ``fields`` sits in a summary row that copies them in order
    (:attr:`engines.core.compiled.SummaryRow.at`)."""
    return SummaryRow(state_layout, fields).at


def field_sources(state_layout: Any, fields: tuple[str, ...]) -> np.ndarray:
    """The state indices a summary row copies, in order
    (:attr:`engines.core.compiled.SummaryRow.source`)."""
    return SummaryRow(state_layout, fields).source


class TrickObservation(RulesObservation):
    """What one seat of a trick game may know; games add their own fields in subclasses."""

    progress = ("DECISIONS", "ROUND")

    def _located(self, location: int) -> tuple[int, ...]:
        where = self._s[self._R.LOCATION:self._R.LOCATION + self._R.DECK_CARDS]
        return tuple(int(c) for c in np.flatnonzero(where == location))

    @cached_property
    def hand(self) -> tuple[int, ...]:
        """This seat's cards."""
        return self._located(self._R.LOC_HAND + self.player)

    @property
    def trick(self) -> tuple[tuple[int, int], ...]:
        """The trick in progress: (seat, card) in playing order."""
        s, R = self._s, self._R
        return tuple((int(s[R.TRICK_SEAT + i]), int(s[R.TRICK_CARD + i]))
                     for i in range(int(s[R.PLAYED])))

    @property
    def cards(self) -> int:
        """Cards per player dealt this deal."""
        return int(self._s[self._R.CARDS])

    @property
    def dealer(self) -> int:
        return int(self._s[self._R.DEALER])

    @property
    def tricks(self) -> tuple[int, ...]:
        """Tricks each seat has won this deal."""
        return self._per_player(self._R.TRICKS)

    @property
    def scores(self) -> tuple[int, ...]:
        """Running totals."""
        return self._per_player(self._R.SCORE)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return self._per_player(self._R.HAND_SIZE)

    def __repr__(self) -> str:
        hand = " ".join(card_name(c) for c in self.hand) or "-"
        return (f"<P{self.player} sees deal {int(self._s[self._R.ROUND]) + 1} ({self.phase}), "
                f"cards [{hand}], totals {self.scores}>")


class TrickState(RulesState):
    """One trick game in progress: each deal, decision, trick and round end logged, a
    round's records taken as it ends (see :class:`engines.core.base.RulesState`)."""

    observation_class: ClassVar[type[RulesObservation]] = TrickObservation
    game: TrickGame

    # -- hooks of the base ---------------------------------------------------------------
    def _start(self) -> None:
        """A deal (the first, or the next one once a round has ended), logged."""
        super()._start()
        if not self.is_terminal():
            self._log.append(("deal", self.s.copy()))

    def _play(self, code: int) -> None:
        """The decision in one compiled call (:func:`engines.core.streams.decide`), which
        also lists the next decision's legal codes, unless a round ended."""
        s = self.s
        outcome = decide(self._tag, s, self._pr, code, self._buffer)
        if outcome & TRICK_ENDED:
            self._log.append(("trick", s.copy()))
        if outcome & ROUND_ENDED:
            self._end_round()
        else:
            self._read_legal(outcome & LEGAL_COUNT)

    def _describe(self, entry: tuple) -> str:
        kind, s = entry
        game = self.game
        if kind == "deal":
            return game.describe_deal(s)
        if kind == "trick":
            return game.describe_trick(s)
        if kind == "round_end":
            return game.describe_round_end(s) + game.game_over(s)
        return super()._describe(entry)

    def _where(self) -> str:
        return f"in phase {self.phase}"

    # -- convenience -------------------------------------------------------------------
    def hand_of(self, player: int) -> tuple[int, ...]:
        """The cards ``player`` holds (full information: for tests and tools, not bots)."""
        R = self._R
        return tuple(int(c) for c in np.flatnonzero(
            self.s[R.LOCATION:R.LOCATION + R.DECK_CARDS] == R.LOC_HAND + player))

    def __repr__(self) -> str:
        return (f"<{self.game.slug} deal {int(self.s[self._R.ROUND]) + 1}, {self.phase}, "
                f"P{self.current_player} to play>")

    # -- for the hooks -----------------------------------------------------------------
    def _end_round(self) -> None:
        """After the decision that ended a deal: its log entry and round rows, then the
        next deal (if any)."""
        self._log.append(("round_end", self.s.copy()))
        self._record_round()
        if self._R.chance_pending(self.s):
            self._start()


class TrickGame(RulesGame):
    """A trick-taking game with fixed parameters; see the module docstring for what a
    subclass provides."""

    verbs: ClassVar[dict[str, int]] = {}          # "play" -> code of card 0, for "play Qs"
    state_class: ClassVar[type[RulesState]] = TrickState

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or readable text (card suits also by letter: ``play Qs``)."""
        try:
            return super().action(value)
        except IllegalActionError:
            if isinstance(value, str):
                verb, _, card = value.strip().partition(" ")
                if verb in self.verbs:
                    try:
                        return self.actions[self.verbs[verb] + parse_card(card)]
                    except ValueError:
                        pass
            raise

    # -- how events read in the log (per game) -----------------------------------------
    def describe_deal(self, s: np.ndarray) -> str:
        raise NotImplementedError

    def describe_round_end(self, s: np.ndarray) -> str:
        raise NotImplementedError

    def describe_trick(self, s: np.ndarray) -> str:
        R = self.rules
        plays = ", ".join(f"P{int(s[R.TRICK_SEAT + i])} {card_name(int(s[R.TRICK_CARD + i]))}"
                          for i in range(self.params.players))
        return f"trick {int(s[R.TRICK])}: {plays} → P{int(s[R.TRICK_WINNER])}"

    def game_over(self, s: np.ndarray) -> str:
        """``; game over, P1 wins`` once the game is over, else nothing."""
        R = self.rules
        if s[R.PHASE] != R.OVER:
            return ""
        winners = [f"P{p}" for p in range(self.params.players) if s[R.RANK + p] == 1]
        return f"; game over, {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"
