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
from engines.core.compiled import SummaryRow, win_shares
from engines.core.layout import Layout
from engines.games.ascenseur_atouts import rules as R
from engines.games.ascenseur_atouts.params import AscenseurParams

# State fields copied into a summary row, in order.
FIELDS = ("decisions", "hands_played", "tour", "cards", "rank", "errors", "hand_error",
          "player_decisions", "exact_bids", "tricks_total", "excuses_played")
ROW = SummaryRow(R.STATE, FIELDS)
_SOURCE, SIZE, _AT = ROW.source, ROW.size, ROW.at


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    for i in range(SIZE):
        out[i] = s[_SOURCE[i]]



def result(params: AscenseurParams, row: np.ndarray) -> Result:
    """The common Result of a summary row: the score is minus the error points (higher is
    better), the winner the seat with the fewest."""
    n = params.players
    rank_array = row[_AT["rank"]][:n]

    def per_player(name: str) -> tuple[int, ...]:
        return tuple(int(v) for v in row[_AT[name]][:n])

    errors = per_player("errors")
    stats = {
        "decisions": int(row[_AT["decisions"]][0]),
        "rounds": int(row[_AT["hands_played"]][0]),
        "tours": int(row[_AT["tour"]][0]) + 1,
        "last_hand_cards": int(row[_AT["cards"]][0]),
        "shared_win": int((rank_array == 1).sum()) > 1,
    }
    details = {
        "errors": errors,
        "last_hand_errors": per_player("hand_error"),
        "exact_bids": per_player("exact_bids"),
        "tricks": per_player("tricks_total"),
        "excuses_played": per_player("excuses_played"),
        "decisions": per_player("player_decisions"),
    }
    return Result(scores=tuple(-float(e) for e in errors),
                  ranks=tuple(int(r) for r in rank_array),
                  win_shares=tuple(float(v) for v in win_shares(rank_array)),
                  stats=stats, details=details)


# --- Rounds: one row per seat for every hand played ------------------------------------------
ROUND_FIELDS = ("round", "tour", "cards", "blind", "dealer", "seat", "bet", "bet_position",
                "tricks", "error", "bet_correct", "errors_total", "played_excuse")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
(ROUND_ROUND, ROUND_TOUR, ROUND_CARDS, ROUND_BLIND, ROUND_DEALER, ROUND_SEAT, ROUND_BET,
 ROUND_BET_POSITION, ROUND_TRICKS, ROUND_ERROR, ROUND_BET_CORRECT, ROUND_ERRORS_TOTAL,
 ROUND_PLAYED_EXCUSE) = ROUND_ROW.offsets(
    "round", "tour", "cards", "blind", "dealer", "seat", "bet", "bet_position", "tricks",
    "error", "bet_correct", "errors_total", "played_excuse")


@njit(cache=True)
def record_round(s, pr, out, row):
    """Write the hand just scored into ``out[row : row + players]`` (one row per seat);
    return the next free row."""
    players = pr[R.P_PLAYERS]
    for p in range(players):
        r = out[row + p]
        r[ROUND_ROUND] = s[R.HANDS_PLAYED] - 1
        r[ROUND_TOUR] = s[R.TOUR]
        r[ROUND_CARDS] = s[R.CARDS]
        r[ROUND_BLIND] = s[R.BLIND]
        r[ROUND_DEALER] = s[R.DEALER]
        r[ROUND_SEAT] = p
        r[ROUND_BET] = s[R.BID + p]
        r[ROUND_BET_POSITION] = s[R.BID_POSITION + p]
        r[ROUND_TRICKS] = s[R.TRICKS + p]
        r[ROUND_ERROR] = s[R.HAND_ERROR + p]
        r[ROUND_BET_CORRECT] = 1 if s[R.HAND_ERROR + p] == 0 else 0
        r[ROUND_ERRORS_TOTAL] = s[R.ERRORS + p]
        r[ROUND_PLAYED_EXCUSE] = 1 if s[R.EXCUSE_PLAYER] == p else 0
    return row + players


# --- Result tables' game-specific columns ----------------------------------------------------
def game_columns(params: AscenseurParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    n = params.players
    ranks = rows[:, _AT["rank"]][:, :n]
    return {
        "decisions": rows[:, _AT["decisions"]][:, 0].astype(np.int32),
        "rounds": rows[:, _AT["hands_played"]][:, 0].astype(np.int16),
        "tours": (rows[:, _AT["tour"]][:, 0] + 1).astype(np.int16),
        "last_hand_cards": rows[:, _AT["cards"]][:, 0].astype(np.int8),
        "shared_win": (ranks == 1).sum(axis=1) > 1,
    }


def player_columns(params: AscenseurParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    ranks = rows[:, _AT["rank"]][:, :n]
    errors = rows[:, _AT["errors"]][:, :n]
    return {
        "score": (-errors).astype(np.float32),
        "rank": ranks.astype(np.int8),
        "win_share": win_shares(ranks).astype(np.float32),
        "errors": errors.astype(np.int16),
        "last_hand_error": rows[:, _AT["hand_error"]][:, :n].astype(np.int16),
        "exact_bids": rows[:, _AT["exact_bids"]][:, :n].astype(np.int16),
        "tricks": rows[:, _AT["tricks_total"]][:, :n].astype(np.int16),
        "excuses_played": rows[:, _AT["excuses_played"]][:, :n].astype(np.int16),
        "decisions": rows[:, _AT["player_decisions"]][:, :n].astype(np.int32),
    }


def round_columns(params: AscenseurParams, rounds: np.ndarray) -> dict[str, Any]:
    """Per-hand, per-seat columns of round rows (``round`` and ``tour`` 1-based)."""
    columns: dict[str, np.ndarray] = {}
    for name in ROUND_FIELDS:
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(np.int16)
    columns["round"] = columns["round"] + 1
    columns["tour"] = columns["tour"] + 1
    for name in ("blind", "bet_correct", "played_excuse"):
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(bool)
    return columns
