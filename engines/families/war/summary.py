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
from engines.core.compiled import SummaryRow, copy_fields, no_round_columns, row_result
from engines.families.war import rules as R

# State fields copied into a summary row, in order.
FIELDS = ("trick", "end", "dealer", "cycle_length", "batailles", "double_batailles",
          "max_depth", "cards_paid", "unclaimed", "count", "rank", "initial_count",
          "initial_aces", "initial_jokers", "tricks_won", "batailles_won", "eliminated_at",
          "steps")
ROW = SummaryRow(R.STATE, FIELDS)
_SOURCE, SIZE = ROW.source, ROW.size
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
    return row_result(params, row, player_columns, game_columns, STATS, DETAILS)


def game_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    columns = ROW.games(rows, np.int32, "decisions=trick rounds=trick tricks=trick")
    columns |= {"end": np.array(R.END_NAMES)[ROW.game(rows, "end")],
                "cycle": ROW.game(rows, "end") == R.CYCLE}
    columns |= ROW.games(rows, np.int32, "cycle_length") | ROW.games(rows, np.int8, "dealer")
    columns |= ROW.games(rows, np.int32, "batailles double_batailles")
    columns |= ROW.games(rows, np.int8, "max_depth") | ROW.games(rows, np.int32, "cards_paid")
    return columns | ROW.games(rows, np.int8, "unclaimed")


def player_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    columns = ROW.standings(rows, n, ROW.players(rows, "count", n))
    columns |= ROW.seats(rows, n, np.int8, "cards=count initial_cards=initial_count "
                                           "initial_aces initial_jokers")
    return columns | ROW.seats(rows, n, np.int32, "tricks_won batailles_won eliminated_at "
                                                  "decisions=steps")


round_columns = no_round_columns
