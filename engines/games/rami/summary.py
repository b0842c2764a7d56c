"""The record of a finished match of rami: one flat summary row, and one round row per hand
(written by the rules into the state, see :data:`engines.games.rami.rules.ROUND_FIELDS`).
``summarize`` copies the final figures out of a state array; :func:`result` turns a row into
the common :class:`engines.core.api.Result`; the ``*_columns`` functions build the result
tables' columns (documented in ``docs/results-rami.md``), the common ones from
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
from engines.games.rami import rules as R
from engines.games.rami.params import RamiParams

FIELDS = rummy_records.MATCH_FIELDS + ("openings", "secs", "never_laid_hands", "swaps")
ROW = SummaryFields(R.STATE, FIELDS)
_SOURCE = ROW.source
SIZE = ROW.size
ROUND_WIDTH = R.ROUND_WIDTH
# Per-seat figures: (state field, column name).
PLAYER_FIGURES = (("wins", "hands_won"), ("secs", "rami_secs"), ("openings", "openings"),
                  ("never_laid_hands", "never_laid_hands"), ("swaps", "joker_swaps"),
                  ("takes", "discards_taken"), ("layoffs", "layoffs"),
                  ("melds_laid", "melds_laid"))


@njit(cache=True)
def summarize(s, out):
    """Copy a finished match's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


def result(params: RamiParams, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    return rummy_records.match_result(
        params, row, player_columns, game_columns,
        rummy_records.MATCH_STATS + ("rami_secs",),
        ("total",) + tuple(name for _, name in PLAYER_FIGURES))


def max_round_rows(params: RamiParams) -> int:
    return params.hands


def game_columns(params: RamiParams, rows: np.ndarray) -> dict[str, Any]:
    """Per-game columns of summary rows (one row per match)."""
    columns = rummy_records.match_columns(ROW, rows)
    columns["rami_secs"] = ROW.players(rows, "secs", params.players).sum(axis=1) \
        .astype(np.int16)
    return columns


def player_columns(params: RamiParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (matches, players) each: ``score`` is minus the total
    (higher is better), ``total`` the match's points (lowest wins)."""
    total = ROW.players(rows, "total", params.players)
    columns = rummy_records.seat_columns(ROW, rows, params.players, -total, PLAYER_FIGURES)
    columns["total"] = total.astype(np.int32)
    return columns


def round_columns(params: RamiParams, rounds: np.ndarray) -> dict[str, Any]:
    """One row per hand: its figures, ``ending`` as a categorical column, and each seat's
    score for the hand (``score_p0`` ...)."""
    columns = rummy_records.round_core_columns(R.ROUND_ROW, R.ROUND_FIELDS, rounds)
    columns["rami_sec"] = columns["rami_sec"].astype(bool)
    for p in range(params.players):
        columns[f"score_p{p}"] = rounds[:, R.ROUND_SCORE + p].astype(np.int16)
    return columns
