"""The record of a finished match of la petite école: one flat summary row, and one round
row per hand (written by the rules into the state, see
:data:`engines.games.petite_ecole.rules.ROUND_FIELDS`).  The ``*_columns`` functions build the
result tables' columns (documented in ``docs/results-petite-ecole.md``), the common ones
from :mod:`engines.families.rummy.records`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.compiled import copy_fields
from engines.families.rummy import records as rummy_records
from engines.families.shedding.records import SummaryFields
from engines.games.petite_ecole import rules as R
from engines.games.petite_ecole.params import PetiteEcoleParams

FIELDS = rummy_records.MATCH_FIELDS + ("stage", "stages_passed")
ROW = SummaryFields(R.STATE, FIELDS)
_SOURCE = ROW.source
SIZE = ROW.size
ROUND_WIDTH = R.ROUND_WIDTH
PLAYER_FIGURES = (("wins", "hands_won"), ("stages_passed", "stages_passed"),
                  ("takes", "discards_taken"), ("layoffs", "layoffs"),
                  ("melds_laid", "melds_laid"))


@njit(cache=True)
def summarize(s, out):
    """Copy a finished match's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


def result(params: PetiteEcoleParams, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    return rummy_records.match_result(
        params, row, player_columns, game_columns, rummy_records.MATCH_STATS,
        ("total", "stage_reached") + tuple(name for _, name in PLAYER_FIGURES))


def max_round_rows(params: PetiteEcoleParams) -> int:
    return params.max_hands


def game_columns(params: PetiteEcoleParams, rows: np.ndarray) -> dict[str, Any]:
    """Per-game columns of summary rows (one row per match)."""
    return rummy_records.match_columns(ROW, rows)


def player_columns(params: PetiteEcoleParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (matches, players) each: ``score`` is minus the total."""
    n = params.players
    total = ROW.players(rows, "total", n)
    columns = rummy_records.seat_columns(ROW, rows, n, -total, PLAYER_FIGURES)
    columns["total"] = total.astype(np.int32)
    columns["stage_reached"] = (ROW.players(rows, "stage", n) + 1).astype(np.int8)
    return columns


def round_columns(params: PetiteEcoleParams, rounds: np.ndarray) -> dict[str, Any]:
    """One row per hand: its figures, ``ending`` as a categorical column, and per seat the
    hand's score, the stage played and whether it was passed."""
    columns = rummy_records.round_core_columns(R.ROUND_ROW, R.ROUND_FIELDS, rounds)
    for p in range(params.players):
        columns[f"score_p{p}"] = rounds[:, R.ROUND_SCORE + p].astype(np.int16)
        columns[f"stage_p{p}"] = rounds[:, R.ROUND_STAGE + p].astype(np.int8)
        columns[f"passed_p{p}"] = rounds[:, R.ROUND_PASSED + p].astype(bool)
    return columns
