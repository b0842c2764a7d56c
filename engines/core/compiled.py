"""What the Python side of every compiled engine shares: a game's chance stream from a seed,
calls of compiled rules that draw from a state's own stream, action parsing, seat checks,
summary rows and round rows copied out of a state array and their common columns, win
shares (the classes over them are in :mod:`engines.core.base`); and the few compiled steps
many rules modules share, over field offsets they pass: a decision counted
(:func:`count_decision`), seats ranked by a figure (:func:`rank_seats`), seats with something
left (:func:`count_positive`), a two-way decision's actions (:func:`two_actions`), a pack laid
out from its cards' flags (:func:`fill_pack`); and, specialised per game by its rules
module's :class:`~engines.core.specialise.Tag`, the start and the end of a game
(:func:`new_state`, :func:`end_game`, :func:`rank_and_end`).

The rules themselves stay in each engine's ``rules`` module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Action, IllegalActionError, Result
from engines.core.layout import Layout
from engines.core.seeding import WORDS, ScratchStream, draw_words, game_words, stream_state
from engines.core.specialise import Tag, by_tag, module_of


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
    words = np.empty(WORDS, dtype=np.uint64)
    draw_words(rng, words)
    return stream_state(words)


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

    def players(self, rows: np.ndarray, name: str, players: int) -> np.ndarray:
        """A per-seat field of every row, shape (rows, players)."""
        return rows[:, self.at[name]][:, :players]

    def games(self, rows: np.ndarray, dtype: Any, names: str) -> dict[str, np.ndarray]:
        """Game columns of ``dtype`` from one-value fields: ``names`` lists them, spaced, in
        column order; ``column=field`` names a column after another field."""
        return {column: self.game(rows, field).astype(dtype) for column, field in _named(names)}

    def seats(self, rows: np.ndarray, players: int, dtype: Any,
              names: str) -> dict[str, np.ndarray]:
        """Player columns of ``dtype`` from per-seat fields, shape (rows, players) each
        (``names`` as for :meth:`games`)."""
        return {column: self.players(rows, field, players).astype(dtype)
                for column, field in _named(names)}

    def standings(self, rows: np.ndarray, players: int,
                  score: np.ndarray) -> dict[str, np.ndarray]:
        """The players table's first columns: ``score`` as given, then ``rank`` and
        ``win_share`` from the ``rank`` field."""
        ranks = self.players(rows, "rank", players)
        return {"score": score.astype(np.float32), "rank": ranks.astype(np.int8),
                "win_share": win_shares(ranks).astype(np.float32)}


# How a round row's column is filled (:class:`RoundRow`).
_SHARED, _PER_SEAT, _SEAT, _ENDED = range(4)


class RoundRow:
    """What a round row (one per seat) copies from the state when a round ends: ``round``,
    the round that ended (0-based: the state's count of rounds played, ``counter``, less
    one), ``seat``, the row's seat, and a column for each state field named, after it
    (``columns``) or as ``column=field``: a one-value field is the same in every seat's row,
    a per-seat field gives the seat's own value.  The game fills the columns it computes."""

    def __init__(self, row: Layout, state: Layout, counter: str, *columns: str,
                 **renamed: str) -> None:
        copies = [(row.offset("round"), state.offset(counter), _ENDED),
                  (row.offset("seat"), 0, _SEAT)]
        for column, field in [*((c, c) for c in columns), *renamed.items()]:
            kind = _PER_SEAT if state.size_of(field) > 1 else _SHARED
            copies.append((row.offset(column), state.offset(field), kind))
        self.source = np.array(copies, dtype=np.int64)


@njit(cache=True)
def copy_round(s, source, players, out, row):
    """Write the round that just ended into ``out[row : row + players]``, one row per seat,
    as a :class:`RoundRow`'s ``source`` says; return the next free row."""
    for p in range(players):
        r = out[row + p]
        for i in range(source.shape[0]):
            column, field, kind = source[i, 0], source[i, 1], source[i, 2]
            if kind == _SHARED:
                r[column] = s[field]
            elif kind == _PER_SEAT:
                r[column] = s[field + p]
            elif kind == _SEAT:
                r[column] = p
            else:
                r[column] = s[field] - 1
    return row + players


def _named(names: str) -> list[tuple[str, str]]:
    """``"a b=c"`` as ``[("a", "a"), ("b", "c")]``: (column, field) pairs."""
    return [(word.partition("=")[0], word.partition("=")[2] or word) for word in names.split()]


@njit(cache=True)
def copy_fields(s, source, out):
    """``out[i] = s[source[i]]``: a finished game's summary row."""
    for i in range(source.size):
        out[i] = s[source[i]]


@njit(cache=True)
def count_decision(s, current, decisions, player_decisions):
    """A decision of the seat to play (``s[current]``), counted in the game's and the seat's
    totals; returns that seat."""
    player = s[current]
    s[decisions] += 1
    s[player_decisions + player] += 1
    return player


@njit(cache=True)
def rank_seats(scores, players, lowest_wins, ranks):
    """Write each seat's rank into ``ranks``: 1 + the number of seats with a better score
    (lower when ``lowest_wins``, else higher); equal scores share a rank."""
    for a in range(players):
        better = 0
        for b in range(players):
            if (scores[b] < scores[a]) if lowest_wins else (scores[b] > scores[a]):
                better += 1
        ranks[a] = better + 1


@njit(cache=True)
def count_positive(values):
    """How many of ``values`` are above 0 (the seats with chips, or cards, left)."""
    n = 0
    for v in values:
        n += v > 0
    return n


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


# --- Shared by the shedding, banking and war games: a two-way decision, a pack, records --
@njit(cache=True)
def two_actions(out, first, second):
    """A decision between two actions (call or not, draw or stand): ``first`` then ``second``
    written into ``out``; returns their count, 2."""
    out[0] = first
    out[1] = second
    return 2


@njit(cache=True)
def fill_pack(s, at, in_pack):
    """The pack in card id order from ``s[at]``: every card whose ``in_pack`` flag is set;
    returns how many."""
    n = 0
    for card in range(in_pack.size):
        if in_pack[card]:
            s[at + n] = card
            n += 1
    return n


def row_result(params: Any, row: np.ndarray, player_columns: Any, game_columns: Any,
               stats: Sequence[str], details: Sequence[str]) -> Result:
    """The common Result of one summary ``row`` (:func:`result_of`): its ``player_columns``
    and ``game_columns`` (the game's, of rows and its ``params``), ``stats`` and ``details``
    named among them."""
    rows = row[None, :]
    return result_of(player_columns(params, rows), game_columns(params, rows), stats, details)


def no_round_columns(params: Any, rounds: np.ndarray) -> dict[str, Any]:
    """The round columns of a game without round rows: none (every figure of a game is a
    game or player column)."""
    return {}


# --- The start and the end of a game, specialised per rules module by its Tag ------------
def new_state(rules, s, first):
    """A game before its first step: every field 0, the rules' ``PHASE`` at ``first`` (the
    first chance step: the setup, the deal) and nobody to play (``CURRENT`` is -1)."""


@by_tag(new_state)
def _new_state(rules, s, first):
    R = module_of(rules)
    PHASE, CURRENT = R.PHASE, R.CURRENT

    def impl(rules, s, first):
        s[:] = 0
        s[PHASE] = first
        s[CURRENT] = -1
    return impl


def end_game(rules, s):
    """The game is over: the rules' ``PHASE`` is ``OVER`` and nobody is to play
    (``CURRENT`` is -1)."""


@by_tag(end_game)
def _end_game(rules, s):
    R = module_of(rules)
    PHASE, OVER, CURRENT = R.PHASE, R.OVER, R.CURRENT

    def impl(rules, s):
        s[PHASE] = OVER
        s[CURRENT] = -1
    return impl


def rank_and_end(rules, s, scores, players, lowest_wins):
    """Rank the seats by ``scores`` into the rules' ``RANK`` (:func:`rank_seats`) and end
    the game (:func:`end_game`)."""


@by_tag(rank_and_end)
def _rank_and_end(rules, s, scores, players, lowest_wins):
    RANK = module_of(rules).RANK

    def impl(rules, s, scores, players, lowest_wins):
        rank_seats(scores, players, lowest_wins, s[RANK:RANK + players])
        end_game(rules, s)
    return impl


# --- The rounds table ------------------------------------------------------------------
def round_table(row: Layout, rounds: np.ndarray, counted: Sequence[str] = ("round",),
                small: Sequence[str] = (), flags: Sequence[str] = (),
                wide: Sequence[str] = ()) -> dict[str, Any]:
    """The rounds table's columns from round rows laid out by ``row``, in its order: every
    field as int16, the ``counted`` ones (``round``, ...) 1-based; the ``small`` ones
    (seats, cards) as int8, the ``flags`` as bool and the ``wide`` ones as int32."""
    columns: dict[str, Any] = {name: rounds[:, row.offset(name)].astype(np.int16)
                               for name in row.names()}
    for name in counted:
        columns[name] = columns[name] + 1
    for names, dtype in ((small, np.int8), (flags, bool), (wide, np.int32)):
        for name in names:
            columns[name] = rounds[:, row.offset(name)].astype(dtype)
    return columns
