"""The trick-taking family's Python side, on :mod:`engines.core.base`: what the trick games
(rikiki, vicaire, the belotes, the tarots, chasse-coeur, pétasse, ascenseur aux atouts) do
their own way, and nothing the base already does.

A game subclasses :class:`TrickGame` (its ``title``, ``verbs``, ``examples``, and how its
deal and the end of a round read in the log: :meth:`TrickGame.describe_deal`,
:meth:`TrickGame.describe_round_end`; the rest is found beside it, see
:mod:`engines.core.base`), :class:`TrickState` and :class:`TrickObservation` (its own
fields), which the base links when the module defines one of each. Its rules module follows
one convention: a flat int32 state (``STATE``) with the fields ``PHASE``, ``CURRENT``,
``DECISIONS``, ``ROUND`` (0-based index of the deal), ``ROUNDS_PLAYED``, ``DEALER``,
``CARDS``, ``TRICK``, ``PLAYED``, ``TRICK_SEAT``, ``TRICK_CARD``, ``TRICK_WINNER``,
``TRICKS``, ``SCORE``, ``HAND_SIZE``, ``LOCATION`` (one entry per card, ``LOC_HAND + seat``
in a hand) and ``RANK``; ``DECK_CARDS``; the phase ``OVER``; ``APPLY_DRAWS = False``
(``apply_action`` draws nothing: deals wait for ``advance``); and the compiled entry points
the base reads (see :mod:`engines.core.base`), plus ``apply_action`` and ``chance_pending``,
which :func:`engines.core.streams.decide` and the next deal use. The summary module offers
``SIZE``, ``ROUND_WIDTH``, ``summarize``, ``record_round`` and ``result``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from engines.core.api import Action, IllegalActionError, Result
from engines.core.base import RulesGame, RulesObservation, RulesState, observed, observed_seats
from engines.core.cards import card_name, parse_card
from engines.core.compiled import SummaryRow, result_of, win_shares
from engines.core.streams import LEGAL_COUNT, ROUND_ENDED, TRICK_ENDED, decide

__all__ = ["TrickGame", "TrickObservation", "TrickState", "game_table", "players_table",
           "table_result"]


# --- The records: what every trick game's summary module reads the same way ---------------
def game_table(row: SummaryRow, rows: np.ndarray, players: int, rounds: str,
               figures: Mapping[str, np.ndarray], *after: Mapping[str, np.ndarray]
               ) -> dict[str, np.ndarray]:
    """The games table's columns from summary rows laid out by ``row``: ``decisions``,
    ``rounds`` (the state field ``rounds``), the game's ``figures``, ``shared_win`` (more
    than one seat ranked first), then the columns ``after``."""
    ranks = row.players(rows, "rank", players)
    columns = {"decisions": row.game(rows, "decisions").astype(np.int32),
               "rounds": row.game(rows, rounds).astype(np.int16)}
    columns |= figures
    columns["shared_win"] = (ranks == 1).sum(axis=1) > 1
    for more in after:
        columns |= more
    return columns


def players_table(row: SummaryRow, rows: np.ndarray, players: int, score: np.ndarray,
                  figures: Mapping[str, tuple[str, type] | np.ndarray]
                  ) -> dict[str, np.ndarray]:
    """The players table's columns, shape (games, players) each: ``score``, ``rank``,
    ``win_share``, the game's ``figures`` (a column, or the per-seat state field and the
    type it is read as), then ``decisions``."""
    ranks = row.players(rows, "rank", players)
    columns = {"score": score.astype(np.float32), "rank": ranks.astype(np.int8),
               "win_share": win_shares(ranks).astype(np.float32)}
    for name, figure in figures.items():
        columns[name] = (row.players(rows, figure[0], players).astype(figure[1])
                         if isinstance(figure, tuple) else figure)
    columns["decisions"] = row.players(rows, "player_decisions", players).astype(np.int32)
    return columns


def table_result(games: Mapping[str, np.ndarray], players: Mapping[str, np.ndarray],
                 stats: tuple[str, ...], details: tuple[str, ...], **renamed: Any) -> Result:
    """The common Result of one summary row from its tables' columns (``games``,
    ``players``): ``score``, ``rank``, ``win_share``, the games columns ``stats`` and the
    players columns ``details``, each read from the column of its name or from the column
    ``renamed`` gives it (``score=`` the scores themselves, where they are negated totals:
    -0.0 for a total of 0, as a float32 column cannot tell)."""
    return result_of(dict(players) | {name: players[column] if isinstance(column, str)
                                      else column for name, column in renamed.items()},
                     games, stats, details)


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

    cards = observed("CARDS", "Cards per player dealt this deal.")
    dealer = observed("DEALER")
    tricks = observed_seats("TRICKS", "Tricks each seat has won this deal.")
    scores = observed_seats("SCORE", "Running totals.")
    hand_sizes = observed_seats("HAND_SIZE")

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
