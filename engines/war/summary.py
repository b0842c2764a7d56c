"""The record of a finished war game (bataille, super-bataille): one flat summary row.
``summarize`` copies the final figures out of a state array; :func:`result` turns a row into
the common :class:`engines.api.Result`; the ``*_columns`` functions build the result tables'
columns (documented in ``docs/results-bataille.md``).  A game has no round rows: its length,
end and batailles are columns of the ``games`` table.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.api import Result
from engines.war import rules as R

# State fields copied into a summary row, in order.
FIELDS = ("trick", "end", "dealer", "cycle_length", "batailles", "double_batailles",
          "max_depth", "cards_paid", "unclaimed", "count", "rank", "initial_count",
          "initial_aces", "initial_jokers", "tricks_won", "batailles_won", "eliminated_at",
          "steps")
_SOURCE = np.concatenate([np.arange(R.STATE.offset(f), R.STATE.offset(f) + R.STATE.size_of(f))
                          for f in FIELDS]).astype(np.int64)
SIZE = _SOURCE.size
ROUND_WIDTH = 0


def offsets() -> dict[str, slice]:
    """Where each field sits in a summary row."""
    out, start = {}, 0
    for f in FIELDS:
        size = R.STATE.size_of(f)
        out[f] = slice(start, start + size)
        start += size
    return out


_AT = offsets()


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    for i in range(SIZE):
        out[i] = s[_SOURCE[i]]


def win_shares(ranks: np.ndarray) -> np.ndarray:
    """1/k for each of the k seats ranked first (last axis), 0 for the others."""
    winners = (ranks == 1).sum(axis=-1, keepdims=True)
    return np.where(ranks == 1, 1.0 / winners, 0.0)


def _game(rows: np.ndarray, name: str) -> np.ndarray:
    return rows[:, _AT[name]][:, 0]


def _per_player(params: Any, rows: np.ndarray, name: str) -> np.ndarray:
    return rows[:, _AT[name]][:, :params.players]


def result(params: Any, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    rows = row[None, :]
    players = player_columns(params, rows)
    games = game_columns(params, rows)
    stats: dict[str, Any] = {name: int(games[name][0]) for name in (
        "decisions", "rounds", "tricks", "cycle_length", "batailles", "double_batailles",
        "max_depth", "cards_paid")}
    stats["end"] = str(games["end"][0])
    details = {name: tuple(int(v) for v in players[name][0])
               for name in ("cards", "initial_cards", "initial_aces", "initial_jokers",
                            "tricks_won", "batailles_won", "eliminated_at", "decisions")}
    return Result(scores=tuple(float(v) for v in players["score"][0]),
                  ranks=tuple(int(v) for v in players["rank"][0]),
                  win_shares=tuple(float(v) for v in players["win_share"][0]),
                  stats=stats, details=details)


def max_round_rows(params: Any) -> int:
    return 0


def game_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    tricks = _game(rows, "trick").astype(np.int32)
    return {
        "decisions": tricks,
        "rounds": tricks,
        "tricks": tricks,
        "end": np.array(R.END_NAMES)[_game(rows, "end")],
        "cycle": _game(rows, "end") == R.CYCLE,
        "cycle_length": _game(rows, "cycle_length").astype(np.int32),
        "dealer": _game(rows, "dealer").astype(np.int8),
        "batailles": _game(rows, "batailles").astype(np.int32),
        "double_batailles": _game(rows, "double_batailles").astype(np.int32),
        "max_depth": _game(rows, "max_depth").astype(np.int8),
        "cards_paid": _game(rows, "cards_paid").astype(np.int32),
        "unclaimed": _game(rows, "unclaimed").astype(np.int8),
    }


def player_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    ranks = _per_player(params, rows, "rank")
    cards = _per_player(params, rows, "count")
    return {
        "score": cards.astype(np.float32),
        "rank": ranks.astype(np.int8),
        "win_share": win_shares(ranks).astype(np.float32),
        "cards": cards.astype(np.int8),
        "initial_cards": _per_player(params, rows, "initial_count").astype(np.int8),
        "initial_aces": _per_player(params, rows, "initial_aces").astype(np.int8),
        "initial_jokers": _per_player(params, rows, "initial_jokers").astype(np.int8),
        "tricks_won": _per_player(params, rows, "tricks_won").astype(np.int32),
        "batailles_won": _per_player(params, rows, "batailles_won").astype(np.int32),
        "eliminated_at": _per_player(params, rows, "eliminated_at").astype(np.int32),
        "decisions": _per_player(params, rows, "steps").astype(np.int32),
    }


def round_columns(params: Any, rounds: np.ndarray) -> dict[str, Any]:
    """No round columns: every figure of a war game is a game or player column."""
    return {}
