"""The record of a finished war game (bataille, super-bataille): one flat summary row.
``summarize`` copies the final figures out of a state array; :func:`result` turns a row into
the common :class:`engines.core.api.Result`; the ``*_columns`` functions build the result tables'
columns (documented in ``docs/results-bataille.md``).  A game has no round rows: its length,
end and batailles are columns of the ``games`` table.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.compiled import SummaryRow, copy_fields, result_of, win_shares
from engines.families.war import rules as R

# State fields copied into a summary row, in order.
FIELDS = ("trick", "end", "dealer", "cycle_length", "batailles", "double_batailles",
          "max_depth", "cards_paid", "unclaimed", "count", "rank", "initial_count",
          "initial_aces", "initial_jokers", "tricks_won", "batailles_won", "eliminated_at",
          "steps")
ROW = SummaryRow(R.STATE, FIELDS)
_SOURCE = ROW.source
SIZE = ROW.size
ROUND_WIDTH = 0


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


STATS = ("decisions", "rounds", "tricks", "cycle_length", "batailles", "double_batailles",
         "max_depth", "cards_paid", "end")
DETAILS = ("cards", "initial_cards", "initial_aces", "initial_jokers", "tricks_won",
           "batailles_won", "eliminated_at", "decisions")


def result(params: Any, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    rows = row[None, :]
    return result_of(player_columns(params, rows), game_columns(params, rows), STATS, DETAILS)


def max_round_rows(params: Any) -> int:
    return 0


def game_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    tricks = ROW.game(rows, "trick").astype(np.int32)
    return {
        "decisions": tricks,
        "rounds": tricks,
        "tricks": tricks,
        "end": np.array(R.END_NAMES)[ROW.game(rows, "end")],
        "cycle": ROW.game(rows, "end") == R.CYCLE,
        "cycle_length": ROW.game(rows, "cycle_length").astype(np.int32),
        "dealer": ROW.game(rows, "dealer").astype(np.int8),
        "batailles": ROW.game(rows, "batailles").astype(np.int32),
        "double_batailles": ROW.game(rows, "double_batailles").astype(np.int32),
        "max_depth": ROW.game(rows, "max_depth").astype(np.int8),
        "cards_paid": ROW.game(rows, "cards_paid").astype(np.int32),
        "unclaimed": ROW.game(rows, "unclaimed").astype(np.int8),
    }


def player_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    ranks = ROW.players(rows, "rank", params.players)
    cards = ROW.players(rows, "count", params.players)
    return {
        "score": cards.astype(np.float32),
        "rank": ranks.astype(np.int8),
        "win_share": win_shares(ranks).astype(np.float32),
        "cards": cards.astype(np.int8),
        "initial_cards": ROW.players(rows, "initial_count", params.players).astype(np.int8),
        "initial_aces": ROW.players(rows, "initial_aces", params.players).astype(np.int8),
        "initial_jokers": ROW.players(rows, "initial_jokers", params.players).astype(np.int8),
        "tricks_won": ROW.players(rows, "tricks_won", params.players).astype(np.int32),
        "batailles_won": ROW.players(rows, "batailles_won", params.players).astype(np.int32),
        "eliminated_at": ROW.players(rows, "eliminated_at", params.players).astype(np.int32),
        "decisions": ROW.players(rows, "steps", params.players).astype(np.int32),
    }


def round_columns(params: Any, rounds: np.ndarray) -> dict[str, Any]:
    """No round columns: every figure of a war game is a game or player column."""
    return {}
