"""The record of a finished match of pinacle: one flat summary row, and one round row per
hand (see :data:`engines.games.pinacle.rules.ROUND_FIELDS`).  Points are kept in half points by
the rules and reported in points here.  The ``*_columns`` functions build the result
tables' columns (documented in ``docs/results-pinacle.md``), the common ones from
:mod:`engines.families.rummy.records`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.compiled import copy_fields
from engines.families.rummy import records as rummy_records
from engines.families.shedding.records import SummaryFields
from engines.games.pinacle import rules as R
from engines.games.pinacle.params import PinacleParams

FIELDS = rummy_records.MATCH_FIELDS + ("team_total", "one_goes", "moves")
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
    return rummy_records.match_result(params, row, player_columns, game_columns,
                                      rummy_records.MATCH_STATS,
                                      tuple(name for _, name in PLAYER_FIGURES))


def max_round_rows(params: PinacleParams) -> int:
    return params.max_hands


def game_columns(params: PinacleParams, rows: np.ndarray) -> dict[str, Any]:
    """Per-game columns of summary rows (one row per match)."""
    return rummy_records.match_columns(ROW, rows)


def player_columns(params: PinacleParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (matches, players) each: ``score`` is the team's total in
    points (the seat's own with two or three players), ``total`` the seat's own."""
    n = params.players
    team = ROW.players(rows, "team_total", n) / R.HALF_POINTS
    columns = rummy_records.seat_columns(ROW, rows, n, team, PLAYER_FIGURES)
    columns["total"] = (ROW.players(rows, "total", n) / R.HALF_POINTS).astype(np.float32)
    return columns


def round_columns(params: PinacleParams, rounds: np.ndarray) -> dict[str, Any]:
    """One row per hand: its figures, ``ending`` as a categorical column, and each seat's
    points for the hand (``score_p0`` ...)."""
    columns = rummy_records.round_core_columns(R.ROUND_ROW, R.ROUND_FIELDS, rounds)
    columns["one_go"] = columns["one_go"].astype(bool)
    for p in range(params.players):
        columns[f"score_p{p}"] = (rounds[:, R.ROUND_SCORE + p]
                                  / R.HALF_POINTS).astype(np.float32)
    return columns
