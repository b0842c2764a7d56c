"""The record of a finished game of l'empereur: one flat summary row, and one row per seat
for every round.  ``summarize`` copies the final figures out of a state array;
``record_round`` the figures of the round just closed; :func:`result` turns a row into the
common :class:`engines.core.api.Result`; the ``*_columns`` functions build the result tables'
columns (documented in ``docs/results-empereur.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.compiled import copy_fields
from engines.core.layout import Layout
from engines.families.shedding.records import SummaryFields, hand_result
from engines.games.empereur import rules as R
from engines.games.empereur.params import EmpereurParams

FIELDS = ("decisions", "rounds_done", "ending", "rank", "score", "points", "player_decisions",
          "totals", "cycle_length")
ROW = SummaryFields(R.STATE, FIELDS)
_SOURCE, SIZE = ROW.source, ROW.size
_TOTALS = ROW.at["totals"].start
# game figures: totals of the rounds (``longest_penalty`` the longest of them)
GAME_FIGURES = ("turns", "refills", "clears", "twos", "penalties", "longest_penalty",
                "joker_finishes")
# player figures: totals of the rounds, per seat (``emperor``: rounds as Emperor, ...)
SEAT_FIGURES = ("emperor", "exclu", "joker_finish", "cards_drawn", "penalty_cards",
                "two_cards", "plays", "dealt_jokers", "dealt_twos")
PLAYER_NAMES = {"emperor": "emperor_rounds", "exclu": "exclu_rounds",
                "joker_finish": "joker_finishes"}
# round-row figures copied from the state's last round: the round's, then each seat's
_COPIED_GAME = ("turns", "refills", "clears", "twos", "penalties", "longest_penalty")
_COPIED_SEAT = ("emperor", "exclu", "out_order", "joker_finish", "points", "cards_left",
                "cards_drawn", "penalty_cards", "two_cards", "plays", "dealt_jokers",
                "dealt_twos")
ROUND_FIELDS = ("round", "seat", "from_dealer", "complete") + _COPIED_GAME + _COPIED_SEAT
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
ROUND_ROUND, ROUND_SEAT, ROUND_FROM_DEALER, ROUND_COMPLETE = ROUND_ROW.offsets(
    "round", "seat", "from_dealer", "complete")
# where each copied figure is read (in the state's round layout) and written (in the row)
_GAME_FROM = np.array(R.ROUND.offsets(*_COPIED_GAME), dtype=np.int64)
_GAME_TO = np.array(ROUND_ROW.offsets(*_COPIED_GAME), dtype=np.int64)
_SEAT_FROM = np.array(R.ROUND.offsets(*_COPIED_SEAT), dtype=np.int64)
_SEAT_TO = np.array(ROUND_ROW.offsets(*_COPIED_SEAT), dtype=np.int64)
_ROUND_AT = R.ROUND.offset("round")
_DEALER_AT = R.ROUND.offset("dealer")
_COMPLETE_AT = R.ROUND.offset("complete")


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


@njit(cache=True)
def record_round(s, pr, out, row):
    """Write the round just closed (the state's last round) into ``out[row : row +
    players]``, one row per seat; return the next free row."""
    players = pr[R.P_PLAYERS]
    last = R.LAST_ROUND
    for p in range(players):
        r = out[row + p]
        r[ROUND_ROUND] = s[last + _ROUND_AT]
        r[ROUND_SEAT] = p
        r[ROUND_FROM_DEALER] = (p - s[last + _DEALER_AT]) % players
        r[ROUND_COMPLETE] = s[last + _COMPLETE_AT]
        for i in range(_GAME_FROM.size):
            r[_GAME_TO[i]] = s[last + _GAME_FROM[i]]
        for i in range(_SEAT_FROM.size):
            r[_SEAT_TO[i]] = s[last + _SEAT_FROM[i] + p]
    return row + players


def _total(rows: np.ndarray, name: str, size: int = 1) -> np.ndarray:
    at = _TOTALS + R.ROUND.offset(name)
    return rows[:, at:at + size]


def result(params: EmpereurParams, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    details = tuple(PLAYER_NAMES.get(f, f) for f in SEAT_FIGURES) + ("points", "decisions")
    return hand_result(ROW, params, row, player_columns, game_columns,
                       GAME_FIGURES + ("cards_drawn", "penalty_cards", "two_cards", "cycle_length"),
                       details)


def game_columns(params: EmpereurParams, rows: np.ndarray) -> dict[str, Any]:
    """Per-game columns of summary rows (one row per game)."""
    n = params.players
    columns: dict[str, Any] = ROW.games(rows, np.int32, "decisions")
    columns |= ROW.games(rows, np.int16, "rounds=rounds_done")
    columns |= {name: _total(rows, name)[:, 0].astype(np.int32) for name in GAME_FIGURES}
    for name in ("cards_drawn", "penalty_cards", "two_cards"):
        columns[name] = _total(rows, name, n).sum(axis=1).astype(np.int32)
    columns |= ROW.games(rows, np.int32, "cycle_length")
    return columns | ROW.capped(rows) | ROW.cycle(rows)


def player_columns(params: EmpereurParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    columns = ROW.seat_columns(rows, n, (), np.int32)
    columns["points"] = ROW.players(rows, "points", n).astype(np.int32)
    for name in SEAT_FIGURES:
        columns[PLAYER_NAMES.get(name, name)] = _total(rows, name, n).astype(np.int16)
    return columns


def round_columns(params: EmpereurParams, rounds: np.ndarray) -> dict[str, Any]:
    """Per-round, per-seat columns of round rows."""
    columns: dict[str, Any] = {name: rounds[:, ROUND_ROW.offset(name)].astype(np.int32)
                               for name in ROUND_FIELDS}
    columns["round"] = columns["round"].astype(np.int16)
    columns["seat"] = columns["seat"].astype(np.int8)
    columns["from_dealer"] = columns["from_dealer"].astype(np.int8)
    for name in ("complete", "emperor", "exclu", "joker_finish"):
        columns[name] = columns[name].astype(bool)
    return columns
