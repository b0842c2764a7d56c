"""The record of a finished game of le menteur: one flat summary row (a single hand: no
round rows).  ``summarize`` copies the final figures out of a state array; :func:`result`
turns a row into the common :class:`engines.core.api.Result`; the ``*_columns`` functions build
the result tables' columns (documented in ``docs/results-menteur.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.compiled import copy_fields, no_round_columns
from engines.families.shedding.records import SummaryFields, hand_result
from engines.games.menteur import rules as R
from engines.games.menteur.params import MenteurParams

# State fields copied into a summary row, in order.
FIELDS = ("decisions", "turns", "ending", "challenges", "unchallenged_lies", "won_on_lie",
          "largest_pile", "rank", "score", "hand_size", "player_decisions", "lays", "lies",
          "calls", "correct_calls", "caught", "piles_taken", "cards_taken", "cycle_length")
ROW = SummaryFields(R.STATE, FIELDS)
_SOURCE, SIZE = ROW.source, ROW.size
ROUND_WIDTH = 0
GAME_FIGURES = ("turns", "challenges", "unchallenged_lies", "largest_pile", "cycle_length")
PLAYER_FIGURES = ("lays", "lies", "calls", "correct_calls", "caught", "piles_taken",
                  "cards_taken")


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


def result(params: MenteurParams, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    return hand_result(ROW, params, row, player_columns, game_columns,
                       ("won_on_lie",) + GAME_FIGURES, PLAYER_FIGURES + ("cards_left", "decisions"))


def game_columns(params: MenteurParams, rows: np.ndarray) -> dict[str, Any]:
    """Per-game columns of summary rows (one row per game)."""
    columns = ROW.hand_columns(rows, GAME_FIGURES) | ROW.cycle(rows)
    columns["won_on_lie"] = ROW.game(rows, "won_on_lie") > 0
    return columns | ROW.seat_sums(rows, params.players, ("lies", "correct_calls"))


def player_columns(params: MenteurParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    return ROW.hand_seat_columns(rows, params.players, PLAYER_FIGURES)


round_columns = no_round_columns
