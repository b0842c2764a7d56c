"""The record of a finished point-avoidance game (chasse-coeur, pétasse): one flat row, plus
one row per hand and seat; and the table columns built from them (see
``docs/results-chasse-coeur.md`` and ``docs/results-petasse.md``).

``summarize`` copies the final figures out of a state array; :func:`result` turns a row into
the common :class:`engines.core.api.Result`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.layout import Layout
from engines.families.avoidance import rules as R
from engines.families.tricks.game import field_offsets, field_sources, win_shares

# State fields copied into a summary row, in order.
FIELDS = ("decisions", "hands_played", "first_dealer", "rank", "score", "player_decisions",
          "sweeps", "clean_hands", "tricks_total")
_SOURCE = field_sources(R.STATE, FIELDS)
SIZE = _SOURCE.size
_AT = field_offsets(R.STATE, FIELDS)


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    for i in range(SIZE):
        out[i] = s[_SOURCE[i]]


def result(params: Any, row: np.ndarray) -> Result:
    """The common Result of a summary row: the score is minus the total (higher is better),
    the winner the lowest total."""
    n = params.players
    rank_array = row[_AT["rank"]][:n]

    def per_player(name: str) -> tuple[int, ...]:
        return tuple(int(v) for v in row[_AT[name]][:n])

    totals = per_player("score")
    stats = {
        "decisions": int(row[_AT["decisions"]][0]),
        "rounds": int(row[_AT["hands_played"]][0]),
        "first_dealer": int(row[_AT["first_dealer"]][0]),
        "shared_win": int((rank_array == 1).sum()) > 1,
    }
    details = {
        "totals": totals,
        "sweeps": per_player("sweeps"),
        "clean_hands": per_player("clean_hands"),
        "tricks": per_player("tricks_total"),
        "decisions": per_player("player_decisions"),
    }
    return Result(scores=tuple(-float(v) for v in totals),
                  ranks=tuple(int(r) for r in rank_array),
                  win_shares=tuple(float(v) for v in win_shares(rank_array)),
                  stats=stats, details=details)


# --- Rounds: one row per seat for every hand played ------------------------------------------
ROUND_FIELDS = ("round", "hand_size", "dealer", "first_leader", "seat", "tricks", "taken",
                "point_cards", "points", "sweep", "score_total")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
(ROUND_ROUND, ROUND_HAND_SIZE, ROUND_DEALER, ROUND_FIRST_LEADER, ROUND_SEAT, ROUND_TRICKS,
 ROUND_TAKEN, ROUND_POINT_CARDS, ROUND_POINTS, ROUND_SWEEP, ROUND_SCORE_TOTAL) = ROUND_ROW.offsets(
    "round", "hand_size", "dealer", "first_leader", "seat", "tricks", "taken", "point_cards",
    "points", "sweep", "score_total")


@njit(cache=True)
def record_round(s, pr, out, row):
    """Write the hand just scored into ``out[row : row + players]`` (one row per seat);
    return the next free row."""
    players = pr[R.P_PLAYERS]
    for p in range(players):
        r = out[row + p]
        r[ROUND_ROUND] = s[R.HANDS_PLAYED] - 1
        r[ROUND_HAND_SIZE] = s[R.CARDS]
        r[ROUND_DEALER] = s[R.DEALER]
        r[ROUND_FIRST_LEADER] = s[R.FIRST_LEADER]
        r[ROUND_SEAT] = p
        r[ROUND_TRICKS] = s[R.TRICKS + p]
        r[ROUND_TAKEN] = s[R.TAKEN + p]
        r[ROUND_POINT_CARDS] = s[R.POINT_CARDS + p]
        r[ROUND_POINTS] = s[R.POINTS + p]
        r[ROUND_SWEEP] = 1 if s[R.SWEEPER] == p else 0
        r[ROUND_SCORE_TOTAL] = s[R.SCORE + p]
    return row + players


# --- Result tables' game-specific columns ----------------------------------------------------
def game_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    n = params.players
    ranks = rows[:, _AT["rank"]][:, :n]
    return {
        "decisions": rows[:, _AT["decisions"]][:, 0].astype(np.int32),
        "rounds": rows[:, _AT["hands_played"]][:, 0].astype(np.int16),
        "first_dealer": rows[:, _AT["first_dealer"]][:, 0].astype(np.int8),
        "shared_win": (ranks == 1).sum(axis=1) > 1,
    }


def player_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    ranks = rows[:, _AT["rank"]][:, :n]
    totals = rows[:, _AT["score"]][:, :n]
    return {
        "score": (-totals).astype(np.float32),
        "rank": ranks.astype(np.int8),
        "win_share": win_shares(ranks).astype(np.float32),
        "total": totals.astype(np.int16),
        "sweeps": rows[:, _AT["sweeps"]][:, :n].astype(np.int16),
        "clean_hands": rows[:, _AT["clean_hands"]][:, :n].astype(np.int16),
        "tricks": rows[:, _AT["tricks_total"]][:, :n].astype(np.int16),
        "decisions": rows[:, _AT["player_decisions"]][:, :n].astype(np.int32),
    }


def round_columns(params: Any, rounds: np.ndarray) -> dict[str, Any]:
    """Per-hand, per-seat columns of round rows (``round`` 1-based)."""
    columns: dict[str, Any] = {name: rounds[:, ROUND_ROW.offset(name)].astype(np.int16)
                               for name in ROUND_FIELDS}
    columns["round"] = columns["round"] + 1
    for name in ("dealer", "first_leader", "seat"):
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(np.int8)
    columns["sweep"] = rounds[:, ROUND_SWEEP].astype(bool)
    return columns
