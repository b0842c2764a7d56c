"""The common game API of the compiled trick-taking engines (rikiki, chasse-coeur, pétasse):
one wrapper over each game's compiled rules.

A game subclasses :class:`TrickGame` and names its compiled ``rules`` and ``summary``
modules, its actions, its phase names and how its events read in the log.  Its rules module
follows one convention: a flat int32 state (``STATE``) with the fields ``PHASE``,
``CURRENT``, ``DECISIONS``, ``ROUND`` (0-based index of the deal), ``ROUNDS_PLAYED``,
``DEALER``, ``CARDS``, ``TRICK``, ``PLAYED``, ``TRICK_SEAT``, ``TRICK_CARD``, ``TRICKS``,
``SCORE``, ``HAND_SIZE``, ``LOCATION`` (one entry per card, ``LOC_HAND + seat`` in a hand)
and ``RANK``; the phase ``OVER``; ``APPLY_DRAWS = False`` (``apply_action`` draws nothing:
deals wait for ``advance``); and the compiled entry points ``new_game``,
``legal_actions``, ``apply_action``, ``chance_pending``, ``advance``, ``observe`` and
``determinize``, which the state calls directly or through :mod:`engines.core.streams`.  The
summary module offers ``SIZE``, ``ROUND_WIDTH``, ``summarize``, ``record_round`` and
``result``.
"""

from __future__ import annotations

import sys
from functools import cached_property
from operator import itemgetter
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from engines.core.api import Action, IllegalActionError, Result
from engines.core.cards import card_name, parse_card
from engines.core.compiled import chance_stream, with_stream
from engines.core.params import Params
from engines.core.seeding import stream_state
from engines.core.specialise import Tag
from engines.core.streams import (
    LEGAL_COUNT,
    ROUND_ENDED,
    TRICK_ENDED,
    advance_with_stream,
    decide,
    playout_with_stream,
)


def win_shares(ranks: np.ndarray) -> np.ndarray:
    """1/k for each of the k seats ranked first (last axis), 0 for the others."""
    winners = (ranks == 1).sum(axis=-1, keepdims=True)
    return np.where(ranks == 1, 1.0 / winners, 0.0)


def field_offsets(state_layout: Any, fields: tuple[str, ...]) -> dict[str, slice]:
    """Where each of ``fields`` sits in a summary row that copies them in order."""
    out, start = {}, 0
    for f in fields:
        size = state_layout.size_of(f)
        out[f] = slice(start, start + size)
        start += size
    return out


def field_sources(state_layout: Any, fields: tuple[str, ...]) -> np.ndarray:
    """The state indices a summary row copies, in order."""
    return np.concatenate([np.arange(state_layout.offset(f),
                                     state_layout.offset(f) + state_layout.size_of(f))
                           for f in fields]).astype(np.int64)


class TrickGame:
    """A trick-taking game with fixed parameters; see the module docstring for what a
    subclass provides."""

    slug: ClassVar[str] = ""
    title: ClassVar[str] = ""
    Params: ClassVar[type[Params]] = Params
    rules: ClassVar[ModuleType]
    summary: ClassVar[ModuleType]
    actions: ClassVar[tuple[Action, ...]] = ()
    phase_names: ClassVar[dict[int, str]] = {}
    verbs: ClassVar[dict[str, int]] = {}          # "play" -> code of card 0, for "play Qs"
    examples: ClassVar[str] = ""
    tag: ClassVar[Tag]                  # the rules' tag, for the calls of engines.core.streams

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.tag = Tag(cls.rules.__name__)

    def __init__(self, params: Params | None = None) -> None:
        self.params = params or self.Params()
        self.encoded_params = self.encode(self.params)
        self.encoded_params.setflags(write=False)
        self._by_text = {a.text: a for a in self.actions}

    def encode(self, params: Params) -> np.ndarray:
        """The flat parameter array the compiled rules read."""
        raise NotImplementedError

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0) -> TrickState:
        """A new game after its first deal: game ``index`` of a run with seed ``seed``, or,
        given a Generator, a game whose chance stream is seeded from it."""
        s = self.rules.STATE.new()
        self.rules.new_game(s, self.encoded_params)
        state = TrickState(self, s, chance_stream(seed, index))
        state._advance()
        return state

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or readable text (card suits also by letter: ``play Qs``)."""
        if isinstance(value, Action):
            return value
        if isinstance(value, int | np.integer) and 0 <= value < len(self.actions):
            return self.actions[int(value)]
        if isinstance(value, str):
            text = value.strip()
            if text in self._by_text:
                return self._by_text[text]
            verb, _, card = text.partition(" ")
            if verb in self.verbs:
                try:
                    return self.actions[self.verbs[verb] + parse_card(card)]
                except ValueError:
                    pass
        raise IllegalActionError(f"not a {self.title} action: {value!r} (examples: "
                                 f"{self.examples})")

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

    def observe(self, state: TrickState, player: int) -> TrickObservation:
        """What ``player`` may know in ``state`` (games return their own subclass)."""
        return TrickObservation(state, player)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params})"


class TrickState:
    """One game in progress (see :mod:`engines.core.api`)."""

    def __init__(self, game: TrickGame, s: np.ndarray, stream: np.ndarray,
                 log: list | None = None, rounds: list | None = None) -> None:
        self.game = game
        self.s = s
        self._stream = stream               # this game's chance stream (SFC64 state words)
        self._pr = game.encoded_params
        self._R = game.rules
        self._tag = game.tag
        self._players = game.params.players
        self._current, self._phase, self._over = game.rules.CURRENT, game.rules.PHASE, \
            game.rules.OVER
        self._buffer = np.empty(len(game.actions), dtype=np.int32)
        # the legal actions and their codes, or None: to be read from the rules (tools that
        # edit ``s`` set it back to None)
        self._legal: list[Action] | None = None
        self._codes: list[int] = []
        # the snapshot cell shared by the observations made since ``s`` last changed, or None
        # (see :meth:`observation`)
        self._snapshot: list[np.ndarray | None] | None = None
        self._rounds: list[np.ndarray] = rounds if rounds is not None else []
        # entries: (player, code) for decisions, (kind, snapshot) for table events
        self._log: list[tuple] = log if log is not None else []

    # -- the common API ----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.s.item(self._current)

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._read_legal(self._R.legal_actions(self.s, self._pr, self._buffer))
        return list(self._legal)

    def apply(self, action: Action | int | str) -> None:
        """Play ``action`` for the current player; an illegal one raises
        :class:`IllegalActionError` and leaves the state unchanged."""
        if self._legal is None:
            self._read_legal(self._R.legal_actions(self.s, self._pr, self._buffer))
        if type(action) is Action and action.code in self._codes \
                and self.game.actions[action.code] is action:     # one of the legal actions
            code = action.code
        elif type(action) is int and action in self._codes:
            code = action
        else:
            code = self._legal_code(action)
        if self._snapshot is not None:
            self._release_observations()
        s = self.s
        self._log.append((s.item(self._current), code))
        outcome = decide(self._tag, s, self._pr, code, self._buffer)
        if outcome & TRICK_ENDED:
            self._log.append(("trick", s.copy()))
        if outcome & ROUND_ENDED:
            self._legal = None
            self._end_round()
        else:
            self._read_legal(outcome & LEGAL_COUNT)

    def is_terminal(self) -> bool:
        return self.s.item(self._phase) == self._over

    def result(self) -> Result:
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        row = np.empty(self.game.summary.SIZE, dtype=np.int32)
        self.game.summary.summarize(self.s, row)
        return self.game.summary.result(self.game.params, row)

    def observation(self, player: int) -> TrickObservation:
        """What ``player`` may know now.  Nothing is copied until the observation is read:
        it reads the state as it stands, or, once the state has changed, the snapshot the
        state took for the observations still in use (:meth:`_release_observations`)."""
        if not 0 <= player < self._players:
            self._check_player(player)
        if self._snapshot is None:
            self._snapshot = [None]
        return self.game.observe(self, player)

    def clone(self) -> TrickState:
        return self._copy(self.s.copy(), self._stream.copy())

    def determinize(self, player: int, rng: np.random.Generator) -> TrickState:
        """A full state consistent with ``player``'s observation; hidden cards re-dealt from
        ``rng`` and a fresh chance stream drawn from it (the real future stays hidden)."""
        self._check_player(player)
        out = np.empty_like(self.s)
        self._R.determinize(self.s, self._pr, player, rng, out)
        stream = stream_state(rng.integers(0, 2**64, size=3, dtype=np.uint64))
        return self._copy(out, stream)

    def playout(self, rng: np.random.Generator) -> tuple[float, ...]:
        """Play the game to its end in one compiled call, every seat choosing as the
        ``random`` agent would with ``rng`` as the decision stream (same draws, same game as
        through :meth:`apply`), and return the seats' win shares (``result().win_shares``).
        For search rollouts: the log and round records are not extended."""
        if self._snapshot is not None:
            self._release_observations()
        with_stream(playout_with_stream, self._tag, self.s, self._pr, self._stream, rng,
                    self._buffer)
        self._legal = None
        ranks = self.s[self._R.RANK:self._R.RANK + self.game.params.players].tolist()
        winners = ranks.count(1)
        return tuple(1.0 / winners if rank == 1 else 0.0 for rank in ranks)

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row and its round rows, one per deal and seat (see
        the game's ``summary`` module)."""
        if not self.is_terminal():
            raise ValueError("the game is not over: no records yet")
        summary = self.game.summary
        row = np.empty(summary.SIZE, dtype=np.int32)
        summary.summarize(self.s, row)
        rounds = (np.concatenate(self._rounds) if self._rounds
                  else np.empty((0, summary.ROUND_WIDTH), dtype=np.int32))
        return row, rounds

    @property
    def log(self) -> list[str]:
        """The game's events, readable: each deal, decision (``P1 play Q♠``), trick
        (``trick 1: P1 Q♠, P2 3♠, P3 2♥, P0 A♠ → P3``) and score of a deal."""
        lines: list[str] = []
        for entry in self._log:
            if entry[0] == "deal":
                lines.append(self.game.describe_deal(entry[1]))
            elif entry[0] == "trick":
                lines.append(self.game.describe_trick(entry[1]))
            elif entry[0] == "round_end":
                lines.append(self.game.describe_round_end(entry[1])
                             + self.game.game_over(entry[1]))
            else:
                lines.append(f"P{entry[0]} {self.game.actions[entry[1]].text}")
        return lines

    # -- convenience -------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self.game.phase_names[int(self.s[self._R.PHASE])]

    def hand_of(self, player: int) -> tuple[int, ...]:
        """The cards ``player`` holds (full information: for tests and tools, not bots)."""
        R = self._R
        return tuple(int(c) for c in np.flatnonzero(
            self.s[R.LOCATION:R.LOCATION + R.DECK_CARDS] == R.LOC_HAND + player))

    def __repr__(self) -> str:
        return (f"<{self.game.slug} deal {int(self.s[self._R.ROUND]) + 1}, {self.phase}, "
                f"P{self.current_player} to play>")

    # -- internals ---------------------------------------------------------------------
    def _copy(self, s: np.ndarray, stream: np.ndarray) -> TrickState:
        return TrickState(self.game, s, stream, list(self._log), list(self._rounds))

    def _advance(self) -> None:
        with_stream(advance_with_stream, self._tag, self.s, self._pr, self._stream)
        self._legal = None
        if not self.is_terminal():
            self._log.append(("deal", self.s.copy()))

    def _read_legal(self, count: int) -> None:
        """Take the ``count`` legal actions the rules wrote into the buffer."""
        self._codes = codes = self._buffer[:count].tolist()
        actions = self.game.actions
        self._legal = (list(itemgetter(*codes)(actions)) if count > 1
                       else [actions[c] for c in codes])

    def _legal_code(self, action: Action | int | str) -> int:
        """The code of ``action`` (any form ``game.action`` reads) if it is legal now, else
        :class:`IllegalActionError`."""
        action = self.game.action(action)
        if action not in self._legal:
            raise IllegalActionError(self._illegal_message(action, self._legal))
        return action.code

    def _end_round(self) -> None:
        """After the decision that ended a deal: its snapshot and round rows, then the next
        deal (if any)."""
        s = self.s
        self._log.append(("round_end", s.copy()))
        summary = self.game.summary
        rows = np.empty((self.game.params.players, summary.ROUND_WIDTH), dtype=np.int32)
        summary.record_round(s, self._pr, rows, 0)
        self._rounds.append(rows)
        if self._R.chance_pending(s):
            self._advance()

    def _observe(self, s: np.ndarray, player: int) -> np.ndarray:
        """The masked copy of state array ``s`` that ``player`` may know."""
        seen = np.empty(self._R.STATE_SIZE, dtype=np.int32)
        self._R.observe(s, self._pr, player, seen)
        return seen

    def _release_observations(self) -> None:
        """Before the state changes: the observations made since it last changed share
        one cell; if any of them is still in use (the cell has holders besides this state
        and the call's own reference), the cell gets a copy of the state as they saw it."""
        if sys.getrefcount(self._snapshot) > 2:
            self._snapshot[0] = self.s.copy()
        self._snapshot = None

    def _illegal_message(self, action: Action, legal: list[Action]) -> str:
        text = action.text
        if self.is_terminal():
            return f"{text} is not legal: the game is over"
        shown = ", ".join(a.text for a in legal)
        return (f"{text} is not legal for P{self.current_player} in phase {self.phase}; "
                f"legal: {shown}")

    def _check_player(self, player: int) -> None:
        if not 0 <= player < self.game.params.players:
            raise ValueError(f"no seat {player}: seats are 0..{self.game.params.players - 1}")


class TrickObservation:
    """What one seat may know, decoded on demand from a masked copy of the state; games
    add their own fields in subclasses.  The masked copy is made when first read, from the
    state as it stood when the observation was made (see :meth:`TrickState.observation`)."""

    def __init__(self, state: TrickState, player: int) -> None:
        self.player = player
        self.params = state.game.params
        self._state = state         # read while the game has not moved on (and determinize())
        self._snapshot = state._snapshot    # the state array as it stood, once it changed
        self._seen: np.ndarray | None = None
        self._R = state.game.rules

    @property
    def _s(self) -> np.ndarray:
        """The masked state array."""
        if self._seen is None:
            s = self._snapshot[0]
            self._seen = self._state._observe(self._state.s if s is None else s, self.player)
            self._snapshot = None           # read: the state need not keep a copy for it
        return self._seen

    def determinize(self, rng: np.random.Generator) -> TrickState:
        """A full state consistent with what this seat knows (``state.determinize``).  Only
        valid while the game is where it was when this observation was made."""
        state, R = self._state, self._R
        if (state.s[R.DECISIONS] != self._s[R.DECISIONS]
                or state.s[R.ROUND] != self._s[R.ROUND]):
            raise ValueError("stale observation: the game has moved on since it was made")
        return state.determinize(self.player, rng)

    @property
    def array(self) -> np.ndarray:
        """The masked state array (a read-only view), for compiled bots."""
        view = self._s.view()
        view.setflags(write=False)
        return view

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
    def phase(self) -> str:
        return self._state.game.phase_names[int(self._s[self._R.PHASE])]

    @property
    def cards(self) -> int:
        """Cards per player dealt this deal."""
        return int(self._s[self._R.CARDS])

    @property
    def dealer(self) -> int:
        return int(self._s[self._R.DEALER])

    @property
    def current_player(self) -> int:
        return int(self._s[self._R.CURRENT])

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

    def _per_player(self, offset: int) -> tuple[int, ...]:
        return tuple(int(v) for v in self._s[offset:offset + self.params.players])

    def __repr__(self) -> str:
        hand = " ".join(card_name(c) for c in self.hand) or "-"
        return (f"<P{self.player} sees deal {int(self._s[self._R.ROUND]) + 1} ({self.phase}), "
                f"cards [{hand}], totals {self.scores}>")
