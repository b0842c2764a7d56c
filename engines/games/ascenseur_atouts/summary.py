"""The record of a finished game of Ascenseur aux atouts: one flat row, plus one row per hand
and seat; and the table columns built from them (see ``docs/results-ascenseur-atouts.md``).

``summarize`` copies the final figures out of a state array; :func:`result` turns a row into
the common :class:`engines.core.api.Result`.  Batch runs store rows, never whole states.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.compiled import RoundRow, SummaryRow, copy_fields, copy_round, round_table
from engines.core.layout import Layout
from engines.families.tricks import game as tricks
from engines.games.ascenseur_atouts import rules as R
from engines.games.ascenseur_atouts.params import AscenseurParams

# State fields copied into a summary row, in order.
ROW = SummaryRow(R.STATE, ("decisions", "hands_played", "tour", "cards", "rank", "errors",
                           "hand_error", "player_decisions", "exact_bids", "tricks_total",
                           "excuses_played"))
_SOURCE, SIZE = ROW.source, ROW.size


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


def result(params: AscenseurParams, row: np.ndarray) -> Result:
    """The common Result of a summary row: the score is minus the error points (higher is
    better), the winner the seat with the fewest."""
    rows = row[None, :]
    return tricks.table_result(
        game_columns(params, rows), player_columns(params, rows),
        ("decisions", "rounds", "tours", "last_hand_cards", "shared_win"),
        ("errors", "last_hand_errors", "exact_bids", "tricks", "excuses_played", "decisions"),
        last_hand_errors="last_hand_error",
        score=-ROW.players(rows, "errors", params.players).astype(float))


# --- Rounds: one row per seat for every hand played ------------------------------------------
ROUND_FIELDS = ("round", "tour", "cards", "blind", "dealer", "seat", "bet", "bet_position",
                "tricks", "error", "bet_correct", "errors_total", "played_excuse")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
ROUND_BET_CORRECT, ROUND_PLAYED_EXCUSE = ROUND_ROW.offsets("bet_correct", "played_excuse")
ROUNDS = RoundRow(ROUND_ROW, R.STATE, "hands_played", "tour", "cards", "blind", "dealer",
                  "tricks", bet="bid", bet_position="bid_position", error="hand_error",
                  errors_total="errors")
_ROUNDS = ROUNDS.source


@njit(cache=True)
def record_round(s, pr, out, row):
    """Write the hand just scored into ``out[row : row + players]`` (one row per seat);
    return the next free row."""
    players = pr[R.P_PLAYERS]
    for p in range(players):
        out[row + p, ROUND_BET_CORRECT] = 1 if s[R.HAND_ERROR + p] == 0 else 0
        out[row + p, ROUND_PLAYED_EXCUSE] = 1 if s[R.EXCUSE_PLAYER] == p else 0
    return copy_round(s, _ROUNDS, players, out, row)


# --- Result tables' game-specific columns ----------------------------------------------------
def game_columns(params: AscenseurParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    return tricks.game_table(ROW, rows, params.players, "hands_played",
                             {"tours": (ROW.game(rows, "tour") + 1).astype(np.int16),
                              "last_hand_cards": ROW.game(rows, "cards").astype(np.int8)})


def player_columns(params: AscenseurParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    errors = ROW.players(rows, "errors", n)
    return tricks.players_table(ROW, rows, n, -errors,
                                {"errors": errors.astype(np.int16),
                                 "last_hand_error": ("hand_error", np.int16),
                                 "exact_bids": ("exact_bids", np.int16),
                                 "tricks": ("tricks_total", np.int16),
                                 "excuses_played": ("excuses_played", np.int16)})


def round_columns(params: AscenseurParams, rounds: np.ndarray) -> dict[str, Any]:
    """Per-hand, per-seat columns of round rows (``round`` and ``tour`` 1-based)."""
    return round_table(ROUND_ROW, rounds, counted=("round", "tour"),
                       flags=("blind", "bet_correct", "played_excuse"))
