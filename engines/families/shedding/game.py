"""The common game API of the shedding engines (huit américain, menteur, nain jaune): thin
wrappers over each game's compiled rules, written once.

A game module supplies its rules module (``rules``: ``STATE``, ``new_game``, ``legal_actions``,
``observe``, ``determinize``, ``hand_at``, the ``PHASE``/``CURRENT``/``DECISIONS``/``RANK``/
``ENDING``/``OVER`` fields, ``N_ACTIONS``, ``CARDS``, and what :mod:`engines.core.streams` reads:
``advance``, ``apply_action`` drawing the chance that follows, ``APPLY_DRAWS = True``), its
``summary`` module and its action texts.  Subclasses add their own log events and accessors.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from engines.core.api import Action, IllegalActionError, Result
from engines.core.cards import card_name
from engines.core.compiled import chance_stream, parse_action, with_stream
from engines.core.seeding import ScratchStream, stream_state
from engines.core.specialise import Tag
from engines.core.streams import playout_with_stream, step_with_stream
from engines.families.shedding.rules import ENDINGS


class ShedGame:
    """A shedding game with fixed parameters."""

    slug: ClassVar[str]
    title: ClassVar[str]
    Params: ClassVar[Any]
    rules: ClassVar[Any]
    summary: ClassVar[Any]
    actions: ClassVar[tuple[Action, ...]]
    examples: ClassVar[str]             # action texts quoted in error messages
    state_class: ClassVar[type]
    tag: ClassVar[Tag]                  # the rules' tag, for the calls of engines.core.streams

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.tag = Tag(cls.rules.__name__)

    def __init__(self, params: Any = None) -> None:
        self.params = params or self.Params()
        self.encoded_params = self.rules.encode_params(self.params)
        self.encoded_params.setflags(write=False)
        self._by_text = {a.text: a for a in self.actions}

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0) -> Any:
        """A new game after its first deal: game ``index`` of a run with seed ``seed`` (the
        game a batch kernel plays for that seed and index), or, given a Generator, a game
        whose chance stream is seeded from it."""
        s = self.rules.STATE.new()
        self.rules.new_game(s, self.encoded_params)
        state = self.state_class(self, s, chance_stream(seed, index))
        state._step(0, setup=True)
        return state

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or its readable text."""
        return parse_action(value, self.actions, self._by_text, self.title, self.examples)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params})"


class ShedState:
    """One game in progress (see :mod:`engines.core.api`)."""

    def __init__(self, game: ShedGame, s: np.ndarray, stream: np.ndarray,
                 log: list | None = None, rounds: list | None = None) -> None:
        self.game = game
        self.s = s
        self._stream = stream               # this game's chance stream (SFC64 state words)
        self._pr = game.encoded_params
        self._R = game.rules
        self._buffer = np.empty(game.rules.N_ACTIONS, dtype=np.int32)
        # entries: (player, code) for decisions, ("end", ending), and the game's own
        self._log: list[tuple] = log if log is not None else []
        self._rounds: list[np.ndarray] = rounds if rounds is not None else []

    # -- the common API ----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return int(self.s[self._R.CURRENT])

    def legal_actions(self) -> list[Action]:
        if self.is_terminal():
            return []
        n = self._R.legal_actions(self.s, self._pr, self._buffer)
        return [self.game.actions[c] for c in self._buffer[:n].tolist()]

    def apply(self, action: Action | int | str) -> None:
        """Play ``action`` for the current player; an illegal one raises
        :class:`IllegalActionError` and leaves the state unchanged."""
        action = self.game.action(action)
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._illegal_message(action, legal))
        self._log.append((self.current_player, action.code))
        self._step(action.code)

    def is_terminal(self) -> bool:
        return bool(self.s[self._R.PHASE] == self._R.OVER)

    def result(self) -> Result:
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        return self.game.summary.result(self.game.params, self.records()[0])

    def observation(self, player: int) -> Any:
        self._check_player(player)
        seen = np.empty(self._R.STATE_SIZE, dtype=np.int32)
        self._R.observe(self.s, self._pr, player, seen)
        return self.observation_class(self.game.params, seen, player, self)

    def clone(self) -> Any:
        return self._copy(self.s.copy(), self._stream.copy())

    def determinize(self, player: int, rng: np.random.Generator) -> Any:
        """A full state consistent with ``player``'s observation: the cards he cannot see
        re-dealt from ``rng`` (every hand keeps its size), and a fresh chance stream drawn
        from ``rng``."""
        self._check_player(player)
        out = np.empty_like(self.s)
        self._R.determinize(self.s, self._pr, player, rng, out)
        return self._copy(out, stream_state(rng.integers(0, 2**64, size=3, dtype=np.uint64)))

    def playout(self, rng: np.random.Generator) -> tuple[float, ...]:
        """Play the game to its end in one compiled call, every seat choosing as the
        ``random`` agent would with ``rng`` as the decision stream (the same game as through
        :meth:`apply`), and return the seats' win shares.  The log and records are not
        extended."""
        with_stream(playout_with_stream, self.game.tag, self.s, self._pr, self._stream, rng,
                    self._buffer)
        ranks = self.s[self._R.RANK:self._R.RANK + self.game.params.players].tolist()
        winners = ranks.count(1)
        return tuple(1.0 / winners if rank == 1 else 0.0 for rank in ranks)

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row and its round rows (see the game's summary)."""
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
        """The game's events, readable: ``P0 <action>``, the game's own events,
        ``game over (finished)``."""
        lines = []
        for entry in self._log:
            if isinstance(entry[0], int):
                lines.append(f"P{entry[0]} {self.game.actions[entry[1]].text}")
            elif entry[0] == "end":
                lines.append(f"game over ({ENDINGS[entry[1]]})")
            else:
                lines.append(self._describe(entry))
        return lines

    # -- convenience -------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self.phase_names[int(self.s[self._R.PHASE])]

    def hand(self, player: int) -> list[str]:
        """A seat's cards by card id, one entry per copy."""
        return hand_names(self.s, self._R, player)

    # -- hooks and internals -----------------------------------------------------------
    phase_names: ClassVar[dict[int, str]]
    observation_class: ClassVar[type]

    def _describe(self, entry: tuple) -> str:
        """Readable text of a game-specific log entry."""
        raise ValueError(f"unknown log entry {entry!r}")

    def _snapshot(self) -> Any:
        """What :meth:`_after` compares with (nothing by default)."""
        return None

    def _after(self, before: Any) -> None:
        """Log the game's own events of the step just made."""

    def _step(self, code: int, setup: bool = False) -> None:
        before = self._snapshot()
        scratch = ScratchStream.get()
        step_with_stream(self.game.tag, self.s, self._pr, scratch.boxed, scratch.stream.alias,
                         self._stream, code, setup, None)
        self._after(before)
        if self.is_terminal():
            self._log.append(("end", int(self.s[self._R.ENDING])))

    def _copy(self, s: np.ndarray, stream: np.ndarray) -> Any:
        return type(self)(self.game, s, stream, list(self._log), list(self._rounds))

    def _context(self) -> str:
        """The position, for error messages."""
        return f"phase {self.phase}"

    def _illegal_message(self, action: Action, legal: list[Action]) -> str:
        if self.is_terminal():
            return f"{action.text} is not legal: the game is over"
        shown = ", ".join(a.text for a in legal[:12])
        more = f" (+{len(legal) - 12} more)" if len(legal) > 12 else ""
        return (f"{action.text} is not legal for P{self.current_player} ({self._context()}); "
                f"legal: {shown}{more}")

    def _check_player(self, player: int) -> None:
        if not 0 <= player < self.game.params.players:
            raise ValueError(f"no seat {player}: seats are 0..{self.game.params.players - 1}")


def hand_names(s: np.ndarray, rules: Any, player: int) -> list[str]:
    """A seat's cards by card id, one entry per copy."""
    h = rules.hand_at(player)
    return [card_name(c) for c in range(rules.CARDS) for _ in range(int(s[h + c]))]


class ShedObservation:
    """What one seat may know, decoded on demand from a masked copy of the state."""

    def __init__(self, params: Any, s: np.ndarray, player: int, state: ShedState) -> None:
        self.params = params
        self.player = player
        self._s = s
        self._state = state         # only for determinize(), while the game has not moved on
        self._R = state.game.rules
        self.encoded_params = state.game.encoded_params     # for compiled bots

    def determinize(self, rng: np.random.Generator) -> Any:
        """A full state consistent with what this seat knows (``state.determinize``).  Only
        valid while the game is where it was when this observation was made."""
        state = self._state
        if state.s[self._R.DECISIONS] != self._s[self._R.DECISIONS]:
            raise ValueError("stale observation: the game has moved on since it was made")
        return state.determinize(self.player, rng)

    @property
    def array(self) -> np.ndarray:
        """The masked state array (a read-only view), for compiled bots."""
        view = self._s.view()
        view.setflags(write=False)
        return view

    @property
    def phase(self) -> str:
        return self._state.phase_names[int(self._s[self._R.PHASE])]

    @property
    def hand(self) -> list[str]:
        return hand_names(self._s, self._R, self.player)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        size = self._R.HAND_SIZE
        return tuple(int(v) for v in self._s[size:size + self.params.players])
