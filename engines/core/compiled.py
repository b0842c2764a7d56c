"""What the Python side of every compiled engine shares: a game's chance stream from a seed,
calls of compiled rules that draw from a state's own stream, action parsing, seat checks,
summary rows copied out of a state array, win shares, and observations over a masked state.

The rules themselves stay in each engine's ``rules`` module; these helpers only carry state
arrays and streams to them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Action, IllegalActionError, Result
from engines.core.layout import Layout
from engines.core.seeding import ScratchStream, game_words, stream_state
from engines.core.specialise import Tag
from engines.core.streams import advance_with_stream


# --- Chance streams --------------------------------------------------------------------
def chance_stream(seed: int | np.random.Generator, index: int) -> np.ndarray:
    """The chance stream (SFC64 state words) of game ``index`` of a run with seed ``seed``,
    or, given a Generator, a stream seeded from it."""
    if isinstance(seed, np.random.Generator):
        words = seed.integers(0, 2**64, size=3, dtype=np.uint64)
    else:
        words = game_words(seed, index)[0]
    return stream_state(words)


def fresh_stream(rng: np.random.Generator) -> np.ndarray:
    """A new chance stream drawn from ``rng`` (for a determinized state)."""
    return stream_state(rng.integers(0, 2**64, size=3, dtype=np.uint64))


def with_stream(compiled: Any, tag: Tag, s: np.ndarray, pr: np.ndarray, stream: np.ndarray,
                *args: Any) -> Any:
    """``compiled(tag, s, pr, rngs, alias, stream, *args)``, one of the calls of
    :mod:`engines.core.streams` that draw from the state's own chance ``stream``, with the
    process-wide scratch generator (``rngs[0]``, whose state is ``alias``)."""
    scratch = ScratchStream.get()
    return compiled(tag, s, pr, scratch.boxed, scratch.stream.alias, stream, *args)


# --- Actions and seats -----------------------------------------------------------------
def parse_action(value: Action | int | str, actions: Sequence[Action],
                 by_text: Mapping[str, Action], game: str, examples: str) -> Action:
    """The Action for an Action, a code or a text (spaces normalised); anything else raises
    :class:`IllegalActionError` naming ``examples``."""
    if isinstance(value, Action):
        return value
    if isinstance(value, int | np.integer) and 0 <= value < len(actions):
        return actions[int(value)]
    if isinstance(value, str) and " ".join(value.split()) in by_text:
        return by_text[" ".join(value.split())]
    article = "an" if game[:1].lower() in "aeiou" else "a"
    raise IllegalActionError(f"not {article} {game} action: {value!r} (examples: {examples})")


def check_seat(player: int, players: int) -> None:
    if not 0 <= player < players:
        raise ValueError(f"no seat {player}: seats are 0..{players - 1}")


# --- Summary rows ----------------------------------------------------------------------
class SummaryRow:
    """A summary row: the named fields of a state layout, copied in order."""

    def __init__(self, layout: Layout, fields: Sequence[str]) -> None:
        self.fields = tuple(fields)
        self.source = np.concatenate([np.arange(layout.offset(f),
                                                layout.offset(f) + layout.size_of(f))
                                      for f in self.fields]).astype(np.int64)
        self.size = self.source.size
        self.at: dict[str, slice] = {}
        start = 0
        for f in self.fields:
            self.at[f] = slice(start, start + layout.size_of(f))
            start += layout.size_of(f)

    def game(self, rows: np.ndarray, name: str) -> np.ndarray:
        """A one-value field of every row."""
        return rows[:, self.at[name]][:, 0]

    def per_player(self, rows: np.ndarray, name: str, players: int) -> np.ndarray:
        """A per-seat field of every row, shape (rows, players)."""
        return rows[:, self.at[name]][:, :players]


@njit(cache=True)
def copy_fields(s, source, out):
    """``out[i] = s[source[i]]``: a finished game's summary row."""
    for i in range(source.size):
        out[i] = s[source[i]]


def win_shares(ranks: np.ndarray) -> np.ndarray:
    """1/k for each of the k seats ranked first (last axis), 0 for the others."""
    winners = (ranks == 1).sum(axis=-1, keepdims=True)
    return np.where(ranks == 1, 1.0 / winners, 0.0)


def result_of(players: Mapping[str, np.ndarray], games: Mapping[str, np.ndarray],
              stats: Sequence[str], details: Sequence[str]) -> Result:
    """The common Result of the first row of a game's player and game columns: ``score``,
    ``rank``, ``win_share``, the named game columns as ``stats`` and the named player
    columns as ``details``."""
    return Result(scores=tuple(float(v) for v in players["score"][0]),
                  ranks=tuple(int(v) for v in players["rank"][0]),
                  win_shares=tuple(float(v) for v in players["win_share"][0]),
                  stats={name: games[name][0].item() for name in stats},
                  details={name: tuple(v.item() for v in players[name][0]) for name in details})


def house_edge(net: np.ndarray, staked: np.ndarray) -> np.ndarray:
    """The bank's gain per unit staked (NaN where nothing was staked)."""
    return np.where(staked > 0, net / np.maximum(staked, 1), np.nan).astype(np.float64)


# --- Observations ----------------------------------------------------------------------
class MaskedObservation:
    """An observation over a masked copy of the state array; subclasses set ``DECISIONS``
    (the offset of the state's decision counter) and add readable properties."""

    DECISIONS: int

    def __init__(self, params: Any, s: np.ndarray, player: int, state: Any) -> None:
        self.params = params
        self.player = player
        self._s = s
        self._state = state         # only for determinize(), while the game has not moved on
        self.encoded_params = state.game.encoded_params

    def determinize(self, rng: np.random.Generator) -> Any:
        """``state.determinize(player, rng)``, while the game is where it was."""
        if self._state.s[self.DECISIONS] != self._s[self.DECISIONS]:
            raise ValueError("stale observation: the game has moved on since it was made")
        return self._state.determinize(self.player, rng)

    @property
    def array(self) -> np.ndarray:
        """The masked state array (a read-only view), for compiled bots."""
        view = self._s.view()
        view.setflags(write=False)
        return view


# --- States ----------------------------------------------------------------------------
class CompiledState:
    """A game in progress over a compiled state array: the parts of the common API that are
    the same for every engine whose ``rules`` module offers ``STATE``, ``CURRENT``,
    ``PHASE``, ``OVER``, ``N_ACTIONS``, ``legal_actions(s, pr, out)``,
    ``observe(s, pr, player, out)`` and ``determinize(s, pr, player, rng, out)``, and whose
    ``summary`` module offers ``SIZE``, ``ROUND_WIDTH``, ``summarize`` and ``result``.

    ``_log`` holds the engine's event entries, ``_rounds`` its round rows (arrays)."""

    rules: Any
    summary: Any
    actions: Sequence[Action]
    observation_class: type

    def __init__(self, game: Any, s: np.ndarray, stream: np.ndarray,
                 log: list | None = None, rounds: list | None = None) -> None:
        self.game = game
        self.s = s
        self._stream = stream               # this game's chance stream (SFC64 state words)
        self._pr = game.encoded_params
        self._buffer = np.empty(self.rules.N_ACTIONS, dtype=np.int32)
        self._log: list[tuple] = log if log is not None else []
        self._rounds: list[np.ndarray] = rounds if rounds is not None else []

    @property
    def current_player(self) -> int:
        return int(self.s[self.rules.CURRENT])

    def legal_actions(self) -> list[Action]:
        if self.is_terminal():
            return []
        n = self.rules.legal_actions(self.s, self._pr, self._buffer)
        return [self.actions[c] for c in self._buffer[:n].tolist()]

    def is_terminal(self) -> bool:
        return bool(self.s[self.rules.PHASE] == self.rules.OVER)

    def result(self) -> Any:
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        return self.summary.result(self.game.params, self.records()[0])

    def observation(self, player: int) -> Any:
        check_seat(player, self.game.params.players)
        seen = np.empty(self.rules.STATE.size, dtype=np.int32)
        self.rules.observe(self.s, self._pr, player, seen)
        return self.observation_class(self.game.params, seen, player, self)

    def clone(self) -> Any:
        return type(self)(self.game, self.s.copy(), self._stream.copy(), list(self._log),
                          list(self._rounds))

    def determinize(self, player: int, rng: np.random.Generator) -> Any:
        """A full state consistent with ``player``'s observation (the rules' ``determinize``)
        and a fresh chance stream drawn from ``rng``."""
        check_seat(player, self.game.params.players)
        out = np.empty_like(self.s)
        self.rules.determinize(self.s, self._pr, player, rng, out)
        return type(self)(self.game, out, fresh_stream(rng), list(self._log),
                          list(self._rounds))

    def _settle(self) -> None:
        """What the engine does after its setup and after each decision before the next one
        (nothing by default)."""

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row and its round rows."""
        if not self.is_terminal():
            raise ValueError("the game is not over: no records yet")
        row = np.empty(self.summary.SIZE, dtype=np.int32)
        self.summary.summarize(self.s, row)
        rounds = (np.concatenate(self._rounds) if self._rounds
                  else np.empty((0, self.summary.ROUND_WIDTH), dtype=np.int32))
        return row, rounds


class CompiledGame:
    """A game with fixed parameters over compiled ``rules`` (``encode_params``, ``STATE``,
    ``new_game``, ``advance``); subclasses name ``Params``, ``summary`` and
    ``state_class``."""

    rules: Any
    summary: Any
    Params: Any
    state_class: Any
    tag: Tag                # the rules' tag, for the calls of engines.core.streams

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.tag = Tag(cls.rules.__name__)

    def __init__(self, params: Any = None) -> None:
        self.params = params or self.Params()
        self.encoded_params = self.rules.encode_params(self.params)
        self.encoded_params.setflags(write=False)

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0) -> Any:
        """A new game, up to its first decision: game ``index`` of a run with seed ``seed``,
        or, given a Generator, a game whose chance stream is seeded from it."""
        s = self.rules.STATE.new()
        self.rules.new_game(s, self.encoded_params)
        state = self.state_class(self, s, chance_stream(seed, index))
        with_stream(advance_with_stream, self.tag, s, self.encoded_params, state._stream)
        state._settle()
        return state

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params})"
