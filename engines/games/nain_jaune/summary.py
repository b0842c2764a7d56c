"""The record of a finished game of le nain jaune: one flat summary row, and one row per seat
for every deal.  ``summarize`` copies the final figures out of a state array; ``record_deal``
the figures of the deal just finished; :func:`result` turns a row into the common
:class:`engines.core.api.Result`; the ``*_columns`` functions build the result tables' columns
(documented in ``docs/results-nain-jaune.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.compiled import copy_fields
from engines.core.layout import Layout
from engines.families.shedding.records import SummaryFields, hand_result
from engines.games.nain_jaune import rules as R
from engines.games.nain_jaune.params import NainJauneParams

FIELDS = ("decisions", "turns", "deal", "ending", "grand_operas", "forgotten", "pots",
          "rank", "score", "player_decisions", "deals_won", "chips_from_pots",
          "chips_from_payments", "chips_doubled")
ROW = SummaryFields(R.STATE, FIELDS)
_SOURCE, SIZE = ROW.source, ROW.size
PLAYER_FIGURES = ("deals_won", "chips_from_pots", "chips_from_payments", "chips_doubled")
ROUND_FIELDS = ("round", "seat", "deal_winner", "grand_opera", "chips", "paid", "received",
                "pots_won", "doubled", "cards_left")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
(ROUND_ROUND, ROUND_SEAT, ROUND_DEAL_WINNER, ROUND_GRAND_OPERA, ROUND_CHIPS, ROUND_PAID,
 ROUND_RECEIVED, ROUND_POTS_WON, ROUND_DOUBLED, ROUND_CARDS_LEFT) = ROUND_ROW.offsets(
    "round", "seat", "deal_winner", "grand_opera", "chips", "paid", "received", "pots_won",
    "doubled", "cards_left")


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


@njit(cache=True)
def record_deal(s, pr, out, row):
    """Write the deal just finished into ``out[row : row + players]`` (one row per seat);
    return the next free row."""
    deal = s[R.DEAL] if s[R.PHASE] == R.OVER else s[R.DEAL] - 1
    players = pr[R.P_PLAYERS]
    for p in range(players):
        r = out[row + p]
        r[ROUND_ROUND] = deal
        r[ROUND_SEAT] = p
        r[ROUND_DEAL_WINNER] = s[R.LAST_WINNER] == p
        r[ROUND_GRAND_OPERA] = s[R.LAST_OPERA]
        r[ROUND_CHIPS] = s[R.LAST_CHIPS + p]
        r[ROUND_PAID] = s[R.LAST_PAID + p]
        r[ROUND_RECEIVED] = s[R.LAST_RECEIVED + p]
        r[ROUND_POTS_WON] = s[R.LAST_POTS_WON + p]
        r[ROUND_DOUBLED] = s[R.LAST_DOUBLED + p]
        r[ROUND_CARDS_LEFT] = s[R.LAST_CARDS_LEFT + p]
    return row + players


def result(params: NainJauneParams, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    return hand_result(ROW, params, row, player_columns, game_columns,
                       ("turns", "grand_operas", "chips_in_pots"),
                       PLAYER_FIGURES + ("chips", "decisions"))


def game_columns(params: NainJauneParams, rows: np.ndarray) -> dict[str, Any]:
    """Per-game columns of summary rows (one row per game)."""
    columns = ROW.games(rows, np.int32, "decisions") | ROW.games(rows, np.int16, "rounds=deal")
    columns |= ROW.games(rows, np.int32, "turns")
    columns |= ROW.games(rows, np.int16, "grand_operas forgotten")
    columns["chips_in_pots"] = rows[:, ROW.at["pots"]].sum(axis=1).astype(np.int32)
    return columns | ROW.capped(rows)


def player_columns(params: NainJauneParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    columns = ROW.seat_columns(rows, params.players, PLAYER_FIGURES, np.int32)
    columns["chips"] = ROW.players(rows, "score", params.players).astype(np.int32)
    return columns


def round_columns(params: NainJauneParams, rounds: np.ndarray) -> dict[str, Any]:
    """Per-deal, per-seat columns of deal rows."""
    columns: dict[str, Any] = {name: rounds[:, ROUND_ROW.offset(name)].astype(np.int32)
                               for name in ROUND_FIELDS}
    columns["round"] = rounds[:, ROUND_ROUND].astype(np.int16)
    columns["seat"] = rounds[:, ROUND_SEAT].astype(np.int8)
    for name in ("deal_winner", "grand_opera"):
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(bool)
    return columns
