"""The war games through the common game API: a thin wrapper over the compiled rules of
:mod:`engines.families.war.rules`, which the bataille and the super-bataille configure.

There are no decisions: the seat that takes the only action, ``STEP``, is the lowest seat
still in the game, and a ``STEP`` plays one whole trick (batailles and payments included).
"""

from __future__ import annotations

import numpy as np

from engines.core.api import Action, IllegalActionError
from engines.core.base import RulesGame, RulesObservation, RulesState, observed, observed_seats
from engines.core.cards import card_name
from engines.families.war import rules as R
from engines.families.war import summary

STEP = Action(R.STEP, "step")


class WarState(RulesState):
    """One war game in progress (see :mod:`engines.core.api`); each ``step`` is logged as the
    trick it played: (trick, the cards laid by each seat, winner, batailles)."""

    def _log_decision(self, player: int, code: int) -> None:
        """Logged as the trick it played, by :meth:`_play`."""

    def _play(self, code: int) -> None:
        super()._play(code)
        self._log.append(("trick", *self._laid()))

    def _laid(self) -> tuple:
        s = self.s
        laid = tuple(tuple(int(c) for c in s[R.TABLE + p * R.MAX_CARDS:
                                              R.TABLE + p * R.MAX_CARDS + s[R.LAID + p]])
                     for p in self.seats)
        return int(s[R.TRICK]), laid, int(s[R.TRICK_WINNER]), int(s[R.TRICK_DEPTH])

    @property
    def log(self) -> list[str]:
        """The game's tricks, readable: ``trick 3: P0 K♠ / P1 9♥ -> P0 takes 2``; a bataille
        shows every card each player laid (face-down cards included)."""
        return ([f"deal: dealer P{int(self.s[R.DEALER])}, piles "
                 f"{' '.join(str(int(self.s[R.INITIAL_COUNT + p])) for p in self.seats)}"]
                + super().log
                + ([f"end: {self.end}"] if self.is_terminal() else []))

    def _describe(self, entry: tuple) -> str:
        _, trick, laid, winner, depth = entry
        cards = " / ".join(f"P{p} {' '.join(card_name(c) for c in laid[p])}"
                           for p in self.seats if laid[p])
        taken = sum(len(x) for x in laid)
        battle = f" after {depth} bataille{'s' if depth > 1 else ''}" if depth else ""
        outcome = (f"P{winner} takes {taken}{battle}" if winner >= 0
                   else "nobody can take the table")
        return f"trick {trick}: {cards} -> {outcome}"

    # -- convenience -------------------------------------------------------------------
    @property
    def seats(self) -> range:
        return range(self._players)

    @property
    def piles(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's pile from the top (card ids of :mod:`engines.core.cards`)."""
        out = np.empty(R.MAX_CARDS, dtype=np.int32)
        return tuple(tuple(out[:R.pile_cards(self.s, p, out)].tolist()) for p in self.seats)

    @property
    def end(self) -> str:
        return R.END_NAMES[int(self.s[R.END])]

    def __repr__(self) -> str:
        counts = "/".join(str(int(self.s[R.COUNT + p])) for p in self.seats)
        return f"<{self.game.slug} trick {int(self.s[R.TRICK])}, piles {counts}>"


class WarObservation(RulesObservation):
    """What a seat may know: the pile sizes and the cards laid so far, not the pile orders."""

    progress = ("TRICK",)

    trick = observed(R.TRICK)
    counts = observed_seats(R.COUNT)

    @property
    def last_trick(self) -> tuple[tuple[int, ...], ...]:
        """The cards each seat laid in the last trick (empty before the first)."""
        if self.trick == 0:
            return ()
        s = self._s
        return tuple(tuple(s[R.TABLE + p * R.MAX_CARDS:
                             R.TABLE + p * R.MAX_CARDS + s[R.LAID + p]].tolist())
                     for p in range(self.params.players))

    def __repr__(self) -> str:
        return f"<P{self.player} sees trick {self.trick}, piles {list(self.counts)}>"


class WarGame(RulesGame):
    """A war game with fixed parameters; subclasses give the game's ``title`` and encode its
    parameters (:meth:`encode`; its ``Params`` is found beside it).  Its one action is
    ``step``."""

    rules = R
    summary = summary
    actions = (STEP,)

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or text: ``STEP`` (``0`` or ``"step"``)."""
        if value == STEP or (isinstance(value, int | np.integer) and value == R.STEP) or \
                (isinstance(value, str) and value.strip().lower() == "step"):
            return STEP
        raise IllegalActionError(f"not a {self.noun} action: {value!r} (the only action is "
                                 f"'step')")
