"""The record of a finished match of pinacle: one flat summary row, and one round row per
hand (see :data:`engines.pinacle.rules.ROUND_FIELDS`).  Points are kept in half points by
the rules and reported in points here.  The ``*_columns`` functions build the result
tables' columns (documented in ``docs/results-pinacle.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines import rummy_turns as T
from engines.api import Result
from engines.pinacle import rules as R
from engines.pinacle.params import PinacleParams
from engines.shedding import ENDINGS
from engines.shedding_records import SummaryFields, copy_fields, result_from, win_shares

FIELDS = ("decisions", "turns", "hand_no", "ending", "reshuffles", "void_hands", "total",
          "team_total", "rank", "player_decisions", "wins", "one_goes", "moves", "takes",
          "layoffs", "melds_laid")
ROW = SummaryFields(R.STATE, FIELDS)
_SOURCE = ROW.source
SIZE = ROW.size
ROUND_WIDTH = R.ROUND_WIDTH
PLAYER_FIGURES = (("wins", "hands_won"), ("one_goes", "one_go_finishes"),
                  ("moves", "pinacle_moves"), ("takes", "discards_taken"),
                  ("layoffs", "layoffs"), ("melds_laid", "runs_laid"))


@njit(cache=True)
def summarize(s, out):
    """Copy a finished match's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


def result(params: PinacleParams, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    rows = row[None, :]
    players = player_columns(params, rows)
    games = game_columns(params, rows)
    stats: dict[str, Any] = {name: games[name][0].item() for name in
                             ("decisions", "rounds", "turns", "reshuffles", "void_hands",
                              "capped")}
    return result_from(players, stats, tuple(name for _, name in PLAYER_FIGURES))


def max_round_rows(params: PinacleParams) -> int:
    return params.max_hands


def game_columns(params: PinacleParams, rows: np.ndarray) -> dict[str, Any]:
    """Per-game columns of summary rows (one row per match)."""
    return {
        "decisions": ROW.game(rows, "decisions").astype(np.int32),
        "rounds": ROW.game(rows, "hand_no").astype(np.int16),
        "turns": ROW.game(rows, "turns").astype(np.int32),
        "reshuffles": ROW.game(rows, "reshuffles").astype(np.int16),
        "void_hands": ROW.game(rows, "void_hands").astype(np.int16),
        "capped": ROW.game(rows, "ending") == ENDINGS.index("capped"),
    }


def player_columns(params: PinacleParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (matches, players) each: ``score`` is the team's total in
    points (the seat's own with two or three players), ``total`` the seat's own."""
    n = params.players
    ranks = ROW.players(rows, "rank", n)
    half = R.HALF_POINTS
    columns = {"score": (ROW.players(rows, "team_total", n) / half).astype(np.float32),
               "rank": ranks.astype(np.int8),
               "win_share": win_shares(ranks).astype(np.float32),
               "decisions": ROW.players(rows, "player_decisions", n).astype(np.int32),
               "total": (ROW.players(rows, "total", n) / half).astype(np.float32)}
    for field, name in PLAYER_FIGURES:
        columns[name] = ROW.players(rows, field, n).astype(np.int16)
    return columns


def round_columns(params: PinacleParams, rounds: np.ndarray) -> dict[str, Any]:
    """One row per hand: its figures, ``ending`` as a categorical column, and each seat's
    points for the hand (``score_p0`` ...)."""
    at = {name: i for i, name in enumerate(R.ROUND_FIELDS)}
    columns: dict[str, Any] = {}
    for name in R.ROUND_FIELDS:
        if name != "ending":
            columns[name] = rounds[:, at[name]].astype(np.int16)
    columns["hand"] = columns["hand"] + 1
    columns["one_go"] = rounds[:, at["one_go"]].astype(bool)
    columns["ending"] = (rounds[:, at["ending"]].astype(np.int8), T.HAND_ENDINGS)
    for p in range(params.players):
        columns[f"score_p{p}"] = (rounds[:, len(R.ROUND_FIELDS) + p]
                                  / R.HALF_POINTS).astype(np.float32)
    return columns
