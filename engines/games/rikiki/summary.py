"""The record of a finished game of Rikiki: one flat row, plus one row per round and seat;
and the table columns built from them (see ``docs/results-rikiki.md``).

``summarize`` copies the final figures out of a state array; :func:`result` turns a row into
the common :class:`engines.core.api.Result`.  Batch runs store rows, never whole states.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.layout import Layout
from engines.families.tricks.game import field_offsets, field_sources, win_shares
from engines.games.rikiki import rules as R
from engines.games.rikiki.params import RikikiParams

# the rounds table's bet and whether it was met, for sim.batch's bet accuracy summary
BET_COLUMNS = ("bid", "made")

# State fields copied into a summary row, in order.
FIELDS = ("decisions", "rounds_played", "first_dealer", "rank", "score", "player_decisions",
          "made_bids", "tricks_total", "bids_total")
_SOURCE = field_sources(R.STATE, FIELDS)
SIZE = _SOURCE.size
_AT = field_offsets(R.STATE, FIELDS)


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    for i in range(SIZE):
        out[i] = s[_SOURCE[i]]


def result(params: RikikiParams, row: np.ndarray) -> Result:
    """The common Result of a summary row: the score is the final total."""
    n = params.players
    rank_array = row[_AT["rank"]][:n]

    def per_player(name: str) -> tuple[int, ...]:
        return tuple(int(v) for v in row[_AT[name]][:n])

    scores = per_player("score")
    stats = {
        "decisions": int(row[_AT["decisions"]][0]),
        "rounds": int(row[_AT["rounds_played"]][0]),
        "first_dealer": int(row[_AT["first_dealer"]][0]),
        "shared_win": int((rank_array == 1).sum()) > 1,
    }
    details = {
        "made_bids": per_player("made_bids"),
        "tricks": per_player("tricks_total"),
        "bids": per_player("bids_total"),
        "decisions": per_player("player_decisions"),
    }
    return Result(scores=tuple(float(v) for v in scores),
                  ranks=tuple(int(r) for r in rank_array),
                  win_shares=tuple(float(v) for v in win_shares(rank_array)),
                  stats=stats, details=details)


# --- Rounds: one row per seat for every round played -----------------------------------------
ROUND_FIELDS = ("round", "hand_size", "dealer", "first_leader", "trump", "trump_card", "seat",
                "bid", "bid_position", "bids_sum", "tricks", "points", "made", "score_total")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
(ROUND_ROUND, ROUND_HAND_SIZE, ROUND_DEALER, ROUND_FIRST_LEADER, ROUND_TRUMP, ROUND_TRUMP_CARD,
 ROUND_SEAT, ROUND_BID, ROUND_BID_POSITION, ROUND_BIDS_SUM, ROUND_TRICKS, ROUND_POINTS,
 ROUND_MADE, ROUND_SCORE_TOTAL) = ROUND_ROW.offsets(
    "round", "hand_size", "dealer", "first_leader", "trump", "trump_card", "seat", "bid",
    "bid_position", "bids_sum", "tricks", "points", "made", "score_total")


@njit(cache=True)
def record_round(s, pr, out, row):
    """Write the round just scored into ``out[row : row + players]`` (one row per seat);
    return the next free row."""
    players = pr[R.P_PLAYERS]
    for p in range(players):
        r = out[row + p]
        r[ROUND_ROUND] = s[R.ROUNDS_PLAYED] - 1
        r[ROUND_HAND_SIZE] = s[R.CARDS]
        r[ROUND_DEALER] = s[R.DEALER]
        r[ROUND_FIRST_LEADER] = s[R.FIRST_LEADER]
        r[ROUND_TRUMP] = s[R.TRUMP]
        r[ROUND_TRUMP_CARD] = s[R.TRUMP_CARD]
        r[ROUND_SEAT] = p
        r[ROUND_BID] = s[R.BID + p]
        r[ROUND_BID_POSITION] = s[R.BID_POSITION + p]
        r[ROUND_BIDS_SUM] = s[R.BID_TOTAL]
        r[ROUND_TRICKS] = s[R.TRICKS + p]
        r[ROUND_POINTS] = s[R.POINTS + p]
        r[ROUND_MADE] = 1 if s[R.BID + p] == s[R.TRICKS + p] else 0
        r[ROUND_SCORE_TOTAL] = s[R.SCORE + p]
    return row + players


# --- Result tables' game-specific columns ----------------------------------------------------
def game_columns(params: RikikiParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    n = params.players
    ranks = rows[:, _AT["rank"]][:, :n]
    return {
        "decisions": rows[:, _AT["decisions"]][:, 0].astype(np.int32),
        "rounds": rows[:, _AT["rounds_played"]][:, 0].astype(np.int16),
        "first_dealer": rows[:, _AT["first_dealer"]][:, 0].astype(np.int8),
        "shared_win": (ranks == 1).sum(axis=1) > 1,
    }


def player_columns(params: RikikiParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    ranks = rows[:, _AT["rank"]][:, :n]
    return {
        "score": rows[:, _AT["score"]][:, :n].astype(np.float32),
        "rank": ranks.astype(np.int8),
        "win_share": win_shares(ranks).astype(np.float32),
        "made_bids": rows[:, _AT["made_bids"]][:, :n].astype(np.int16),
        "tricks": rows[:, _AT["tricks_total"]][:, :n].astype(np.int16),
        "bids": rows[:, _AT["bids_total"]][:, :n].astype(np.int16),
        "decisions": rows[:, _AT["player_decisions"]][:, :n].astype(np.int32),
    }


def round_columns(params: RikikiParams, rounds: np.ndarray) -> dict[str, Any]:
    """Per-round, per-seat columns of round rows (``round`` 1-based; ``trump`` and
    ``trump_card`` -1 when no card was left to turn)."""
    columns: dict[str, Any] = {}
    for name in ROUND_FIELDS:
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(np.int16)
    columns["round"] = columns["round"] + 1
    for name in ("dealer", "first_leader", "trump", "trump_card", "seat"):
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(np.int8)
    columns["made"] = rounds[:, ROUND_MADE].astype(bool)
    columns["score_total"] = rounds[:, ROUND_SCORE_TOTAL].astype(np.int32)
    return columns
