"""The record of a finished match of Le vicaire: one flat row, plus one row per deal and
seat; and the table columns built from them (see ``docs/results-vicaire.md``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.compiled import RoundRow, SummaryRow, copy_fields, copy_round, round_table
from engines.core.layout import Layout
from engines.families.tricks import game as tricks
from engines.games.vicaire import rules as R

ROW = SummaryRow(R.STATE, ("decisions", "rounds_played", "games_played", "first_dealer", "rank",
                           "score", "player_decisions", "games_won", "capots", "tricks_total"))
_SOURCE, SIZE = ROW.source, ROW.size


@njit(cache=True)
def summarize(s, out):
    """Copy a finished match's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


def result(params: Any, row: np.ndarray) -> Result:
    """The common Result of a summary row: the score is the payouts won."""
    rows = row[None, :]
    return tricks.table_result(game_columns(params, rows), player_columns(params, rows),
                               ("decisions", "rounds", "games", "first_dealer", "shared_win"),
                               ("games_won", "capots", "tricks", "decisions"))


ROUND_FIELDS = ("round", "game", "hand_size", "dealer", "first_leader", "trump", "seat",
                "tricks", "points", "total", "qualified", "won_game", "capot", "payout",
                "score_total")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
ROUND_TRUMP, ROUND_WON_GAME, ROUND_CAPOT, ROUND_PAYOUT = ROUND_ROW.offsets(
    "trump", "won_game", "capot", "payout")
ROUNDS = RoundRow(ROUND_ROW, R.STATE, "rounds_played", "game", "dealer", "first_leader",
                  "tricks", "total", "qualified", hand_size="cards", points="tricks",
                  score_total="score")
_ROUNDS = ROUNDS.source


@njit(cache=True)
def record_round(s, pr, out, row):
    """Write the deal just scored into ``out[row : row + 3]``; return the next free row."""
    for p in range(R.PLAYERS):
        r = out[row + p]
        won = s[R.GAME_WINNER] == p
        r[ROUND_TRUMP] = R.TRUMP
        r[ROUND_WON_GAME] = 1 if won else 0
        r[ROUND_CAPOT] = 1 if won and s[R.CAPOT] else 0
        r[ROUND_PAYOUT] = s[R.GAME_PAYOUT] if won else 0
    return copy_round(s, _ROUNDS, R.PLAYERS, out, row)


def game_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-match columns of summary rows."""
    return tricks.game_table(ROW, rows, params.players, "rounds_played",
                             {"games": ROW.game(rows, "games_played").astype(np.int16),
                              "first_dealer": ROW.game(rows, "first_dealer").astype(np.int8)})


def player_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (matches, players) each."""
    n = params.players
    return tricks.players_table(ROW, rows, n, ROW.players(rows, "score", n),
                                {"games_won": ("games_won", np.int16),
                                 "capots": ("capots", np.int16),
                                 "tricks": ("tricks_total", np.int32)})


def round_columns(params: Any, rounds: np.ndarray) -> dict[str, Any]:
    """Per-deal, per-seat columns (``round`` and ``game`` 1-based)."""
    return round_table(ROUND_ROW, rounds, counted=("round", "game"),
                       small=("dealer", "first_leader", "trump", "seat"),
                       flags=("qualified", "won_game", "capot"))
