"""The record of a finished game of Le pouilleux: one flat summary row (no round rows: the
game's length and outcome are game and player columns).  ``summarize`` copies the final
figures out of a state array; :func:`result` turns a row into the common
:class:`engines.core.api.Result`; the ``*_columns`` functions build the result tables' columns
(documented in ``docs/results-pouilleux.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.compiled import SummaryRow, copy_fields, no_round_columns, row_result
from engines.games.pouilleux import rules as R
from engines.games.pouilleux.params import PouilleuxParams

FIELDS = ("turn", "decisions", "dealer", "removed", "loser", "stopped", "emptied_at",
          "initial_cards", "initial_pairs", "pairs", "held_pouilleux", "player_decisions",
          "rank")
ROW = SummaryRow(R.STATE, FIELDS)
_SOURCE, SIZE = ROW.source, ROW.size
ROUND_WIDTH = 0


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


STATS = ("decisions", "rounds", "draws", "loser", "removed_card", "winners", "stopped")
DETAILS = ("emptied_at", "initial_cards", "initial_pairs", "pairs", "dealt_pouilleux",
           "decisions")


def result(params: Any, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    return row_result(params, row, player_columns, game_columns, STATS, DETAILS)


def game_columns(params: PouilleuxParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    ranks = ROW.players(rows, "rank", params.players)
    columns = ROW.games(rows, np.int32, "decisions rounds=turn draws=turn")
    columns |= ROW.games(rows, np.int8, "dealer removed_card=removed loser")
    return columns | {
        "winners": (ranks == 1).sum(axis=1).astype(np.int8),
        "stopped": ROW.game(rows, "stopped").astype(bool),
        "initial_empty": (ROW.players(rows, "emptied_at", params.players) == 0).any(axis=1),
    }


def player_columns(params: PouilleuxParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    won = ROW.players(rows, "rank", n) == 1
    loser = ROW.game(rows, "loser")[:, None] == np.arange(n)
    columns = ROW.standings(rows, n, np.where(won, 1.0, np.where(loser, -1.0, 0.0)))
    columns |= {"lost": loser} | ROW.seats(rows, n, np.int32, "emptied_at")
    columns |= ROW.seats(rows, n, np.int8, "initial_cards initial_pairs pairs")
    return columns | ROW.seats(rows, n, bool, "dealt_pouilleux=held_pouilleux") \
        | ROW.seats(rows, n, np.int32, "decisions=player_decisions")


round_columns = no_round_columns
