"""The record of a finished point-avoidance game (chasse-coeur, pétasse): one flat row, plus
one row per hand and seat; and the table columns built from them (see
``docs/results-chasse-coeur.md`` and ``docs/results-petasse.md``).

``summarize`` copies the final figures out of a state array; :func:`result` turns a row into
the common :class:`engines.core.api.Result`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.compiled import RoundRow, SummaryRow, copy_fields, copy_round, round_table
from engines.core.layout import Layout
from engines.families.avoidance import rules as R
from engines.families.tricks import game as tricks

# State fields copied into a summary row, in order.
ROW = SummaryRow(R.STATE, ("decisions", "hands_played", "first_dealer", "rank", "score",
                           "player_decisions", "sweeps", "clean_hands", "tricks_total"))
_SOURCE, SIZE = ROW.source, ROW.size


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


def result(params: Any, row: np.ndarray) -> Result:
    """The common Result of a summary row: the score is minus the total (higher is better),
    the winner the lowest total."""
    rows = row[None, :]
    return tricks.table_result(game_columns(params, rows), player_columns(params, rows),
                               ("decisions", "rounds", "first_dealer", "shared_win"),
                               ("totals", "sweeps", "clean_hands", "tricks", "decisions"),
                               totals="total",
                               score=-ROW.players(rows, "score", params.players).astype(float))


# --- Rounds: one row per seat for every hand played ------------------------------------------
ROUND_FIELDS = ("round", "hand_size", "dealer", "first_leader", "seat", "tricks", "taken",
                "point_cards", "points", "sweep", "score_total")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
ROUND_SWEEP = ROUND_ROW.offset("sweep")
ROUNDS = RoundRow(ROUND_ROW, R.STATE, "hands_played", "dealer", "first_leader", "tricks",
                  "taken", "point_cards", "points", hand_size="cards", score_total="score")
_ROUNDS = ROUNDS.source


@njit(cache=True)
def record_round(s, pr, out, row):
    """Write the hand just scored into ``out[row : row + players]`` (one row per seat);
    return the next free row."""
    players = pr[R.P_PLAYERS]
    for p in range(players):
        out[row + p, ROUND_SWEEP] = 1 if s[R.SWEEPER] == p else 0
    return copy_round(s, _ROUNDS, players, out, row)


# --- Result tables' game-specific columns ----------------------------------------------------
def game_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    return tricks.game_table(ROW, rows, params.players, "hands_played",
                             {"first_dealer": ROW.game(rows, "first_dealer").astype(np.int8)})


def player_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    totals = ROW.players(rows, "score", n)
    return tricks.players_table(ROW, rows, n, -totals,
                                {"total": totals.astype(np.int16),
                                 "sweeps": ("sweeps", np.int16),
                                 "clean_hands": ("clean_hands", np.int16),
                                 "tricks": ("tricks_total", np.int16)})


def round_columns(params: Any, rounds: np.ndarray) -> dict[str, Any]:
    """Per-hand, per-seat columns of round rows (``round`` 1-based)."""
    return round_table(ROUND_ROW, rounds, small=("dealer", "first_leader", "seat"),
                       flags=("sweep",))
