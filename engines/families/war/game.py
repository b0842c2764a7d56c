"""The war games through the common game API: a thin wrapper over the compiled rules of
:mod:`engines.families.war.rules`, which the bataille and the super-bataille configure.

There are no decisions: the seat that takes the only action, ``STEP``, is the lowest seat
still in the game, and a ``STEP`` plays one whole trick (batailles and payments included).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from engines.core.api import Action, IllegalActionError, Result
from engines.core.cards import card_name
from engines.core.compiled import chance_stream, check_seat, fresh_stream, with_stream
from engines.core.specialise import Tag
from engines.core.streams import advance_with_stream, apply_with_stream, playout_with_stream
from engines.families.war import rules as R
from engines.families.war import summary

STEP = Action(R.STEP, "step")
ACTIONS: tuple[Action, ...] = (STEP,)
# the rules' tag, for the calls of engines.core.streams; the (empty) work array of a playout
TAG = Tag(R.__name__)
_NO_ACTIONS = np.empty(0, dtype=np.int32)


class WarGame:
    """A war game with fixed parameters; subclasses name the game and encode its parameters
    (:meth:`encode`)."""

    slug: ClassVar[str]
    title: ClassVar[str]
    Params: ClassVar[type]
    actions = ACTIONS
    summary = summary

    def __init__(self, params: Any = None) -> None:
        self.params = params or self.Params()
        self.encoded_params = self.encode(self.params)
        self.encoded_params.setflags(write=False)

    @staticmethod
    def encode(params: Any) -> np.ndarray:
        raise NotImplementedError

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0) -> WarState:
        """A new game after the deal: game ``index`` of a run with seed ``seed``, or, given
        a Generator, a game whose chance stream is seeded from it."""
        s = R.STATE.new()
        R.new_game(s, self.encoded_params)
        state = WarState(self, s, chance_stream(seed, index))
        with_stream(advance_with_stream, TAG, s, self.encoded_params, state._stream)
        return state

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or text: ``STEP`` (``0`` or ``"step"``)."""
        if value == STEP or (isinstance(value, int | np.integer) and value == R.STEP) or \
                (isinstance(value, str) and value.strip().lower() == "step"):
            return STEP
        raise IllegalActionError(f"not a {self.title} action: {value!r} (the only action is "
                                 f"'step')")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params})"


class WarState:
    """One war game in progress (see :mod:`engines.core.api`)."""

    def __init__(self, game: WarGame, s: np.ndarray, stream: np.ndarray,
                 log: list | None = None) -> None:
        self.game = game
        self.s = s
        self._stream = stream               # this game's chance stream (SFC64 state words)
        self._pr = game.encoded_params
        # one entry per trick: (trick, cards laid by each seat, winner, batailles)
        self._log: list[tuple] = log if log is not None else []

    # -- the common API ----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return int(self.s[R.CURRENT])

    def legal_actions(self) -> list[Action]:
        """``step`` (play the next trick) until the game is over."""
        return [] if self.is_terminal() else [STEP]

    def apply(self, action: Action | int | str) -> None:
        """Play the next trick; anything but ``step``, or a step once the game is over,
        raises :class:`IllegalActionError`."""
        action = self.game.action(action)
        if self.is_terminal():
            raise IllegalActionError(f"{action.text} is not legal: the game is over")
        with_stream(apply_with_stream, TAG, self.s, self._pr, self._stream, R.STEP)
        self._log.append(self._trick_entry())

    def is_terminal(self) -> bool:
        return bool(self.s[R.PHASE] == R.OVER)

    def result(self) -> Result:
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        return summary.result(self.game.params, self.records()[0])

    def observation(self, player: int) -> WarObservation:
        self._check_player(player)
        return WarObservation(self, player)

    def clone(self) -> WarState:
        return WarState(self.game, self.s.copy(), self._stream.copy(), list(self._log))

    def determinize(self, player: int, rng: np.random.Generator) -> WarState:
        """A full state consistent with what ``player`` knows: the cards in the piles dealt
        again at random into piles of the same sizes, and a fresh chance stream."""
        self._check_player(player)
        out = np.empty_like(self.s)
        R.determinize(self.s, self._pr, rng, out)
        return WarState(self.game, out, fresh_stream(rng), list(self._log))

    def playout(self, rng: np.random.Generator) -> tuple[float, ...]:
        """Play to the end in one compiled call (there are no decisions: ``rng`` is unused)
        and return the seats' win shares.  The log is not extended."""
        with_stream(playout_with_stream, TAG, self.s, self._pr, self._stream, rng,
                    _NO_ACTIONS)
        ranks = self.s[R.RANK:R.RANK + self.game.params.players].tolist()
        winners = ranks.count(1)
        return tuple(1.0 / winners if rank == 1 else 0.0 for rank in ranks)

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row (see :mod:`engines.families.war.summary`) and its round
        rows (none: a game's figures are all in its summary row)."""
        if not self.is_terminal():
            raise ValueError("the game is not over: no records yet")
        row = np.empty(summary.SIZE, dtype=np.int32)
        summary.summarize(self.s, row)
        return row, np.empty((0, summary.ROUND_WIDTH), dtype=np.int32)

    @property
    def log(self) -> list[str]:
        """The game's tricks, readable: ``trick 3: P0 K♠ / P1 9♥ -> P0 takes 2``; a bataille
        shows every card each player laid (face-down cards included)."""
        lines = [f"deal: dealer P{int(self.s[R.DEALER])}, piles "
                 f"{' '.join(str(int(self.s[R.INITIAL_COUNT + p])) for p in self.seats)}"]
        for trick, laid, winner, depth in self._log:
            cards = " / ".join(f"P{p} {' '.join(card_name(c) for c in laid[p])}"
                               for p in self.seats if laid[p])
            taken = sum(len(x) for x in laid)
            battle = f" after {depth} bataille{'s' if depth > 1 else ''}" if depth else ""
            outcome = (f"P{winner} takes {taken}{battle}" if winner >= 0
                       else "nobody can take the table")
            lines.append(f"trick {trick}: {cards} -> {outcome}")
        if self.is_terminal():
            lines.append(f"end: {R.END_NAMES[int(self.s[R.END])]}")
        return lines

    # -- convenience -------------------------------------------------------------------
    @property
    def seats(self) -> range:
        return range(self.game.params.players)

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

    # -- internals ---------------------------------------------------------------------
    def _trick_entry(self) -> tuple:
        s = self.s
        laid = tuple(tuple(int(c) for c in s[R.TABLE + p * R.MAX_CARDS:
                                              R.TABLE + p * R.MAX_CARDS + s[R.LAID + p]])
                     for p in self.seats)
        return int(s[R.TRICK]), laid, int(s[R.TRICK_WINNER]), int(s[R.TRICK_DEPTH])

    def _check_player(self, player: int) -> None:
        check_seat(player, self.game.params.players)


class WarObservation:
    """What a seat may know: the pile sizes and the cards laid so far, not the pile orders."""

    def __init__(self, state: WarState, player: int) -> None:
        self.player = player
        self.params = state.game.params
        self._state = state         # only for determinize(), while the game has not moved on
        self._trick = int(state.s[R.TRICK])
        self.counts = tuple(int(state.s[R.COUNT + p]) for p in state.seats)
        self.trick = self._trick
        self.current_player = state.current_player
        # the cards each seat laid in the last trick (empty before the first)
        self.last_trick: tuple[tuple[int, ...], ...] = state._log[-1][1] if state._log else ()

    def determinize(self, rng: np.random.Generator) -> WarState:
        """``state.determinize(player, rng)``, while the game is where it was."""
        if int(self._state.s[R.TRICK]) != self._trick:
            raise ValueError("stale observation: the game has moved on since it was made")
        return self._state.determinize(self.player, rng)

    def __repr__(self) -> str:
        return f"<P{self.player} sees trick {self.trick}, piles {list(self.counts)}>"
