"""The record of a finished match of rami: one flat summary row, and one round row per hand
(written by the rules into the state, see :data:`engines.rami.rules.ROUND_FIELDS`).
``summarize`` copies the final figures out of a state array; :func:`result` turns a row into
the common :class:`engines.api.Result`; the ``*_columns`` functions build the result
tables' columns (documented in ``docs/results-rami.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines import rummy_turns as T
from engines.api import Result
from engines.rami import rules as R
from engines.rami.params import RamiParams
from engines.shedding import ENDINGS
from engines.shedding_records import SummaryFields, copy_fields, result_from, win_shares

# State fields copied into a summary row, in order.
FIELDS = ("decisions", "turns", "hand_no", "ending", "reshuffles", "void_hands", "total",
          "rank", "player_decisions", "openings", "secs", "wins", "never_laid_hands",
          "swaps", "takes", "layoffs", "melds_laid")
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
    rows = row[None, :]
    players = player_columns(params, rows)
    games = game_columns(params, rows)
    stats: dict[str, Any] = {name: games[name][0].item() for name in
                             ("decisions", "rounds", "turns", "reshuffles", "void_hands",
                              "rami_secs", "capped")}
    details = ("total",) + tuple(name for _, name in PLAYER_FIGURES)
    return result_from(players, stats, details)


def max_round_rows(params: RamiParams) -> int:
    return params.hands


def game_columns(params: RamiParams, rows: np.ndarray) -> dict[str, Any]:
    """Per-game columns of summary rows (one row per match)."""
    n = params.players
    return {
        "decisions": ROW.game(rows, "decisions").astype(np.int32),
        "rounds": ROW.game(rows, "hand_no").astype(np.int16),
        "turns": ROW.game(rows, "turns").astype(np.int32),
        "reshuffles": ROW.game(rows, "reshuffles").astype(np.int16),
        "void_hands": ROW.game(rows, "void_hands").astype(np.int16),
        "rami_secs": ROW.players(rows, "secs", n).sum(axis=1).astype(np.int16),
        "capped": ROW.game(rows, "ending") == ENDINGS.index("capped"),
    }


def player_columns(params: RamiParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (matches, players) each: ``score`` is minus the total
    (higher is better), ``total`` the match's points (lowest wins)."""
    n = params.players
    total = ROW.players(rows, "total", n)
    ranks = ROW.players(rows, "rank", n)
    columns = {"score": (-total).astype(np.float32), "rank": ranks.astype(np.int8),
               "win_share": win_shares(ranks).astype(np.float32),
               "decisions": ROW.players(rows, "player_decisions", n).astype(np.int32),
               "total": total.astype(np.int32)}
    for field, name in PLAYER_FIGURES:
        columns[name] = ROW.players(rows, field, n).astype(np.int16)
    return columns


def round_columns(params: RamiParams, rounds: np.ndarray) -> dict[str, Any]:
    """One row per hand: its figures, ``ending`` as a categorical column, and each seat's
    score for the hand (``score_p0`` ...)."""
    at = {name: i for i, name in enumerate(R.ROUND_FIELDS)}
    columns: dict[str, Any] = {}
    for name in R.ROUND_FIELDS:
        if name != "ending":
            columns[name] = rounds[:, at[name]].astype(np.int16)
    columns["hand"] = columns["hand"] + 1
    columns["rami_sec"] = rounds[:, at["rami_sec"]].astype(bool)
    columns["ending"] = (rounds[:, at["ending"]].astype(np.int8), T.HAND_ENDINGS)
    for p in range(params.players):
        columns[f"score_p{p}"] = rounds[:, len(R.ROUND_FIELDS) + p].astype(np.int16)
    return columns
