"""The record of a finished match of Le vicaire: one flat row, plus one row per deal and
seat; and the table columns built from them (see ``docs/results-vicaire.md``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.layout import Layout
from engines.families.tricks.game import field_offsets, field_sources, win_shares
from engines.games.vicaire import rules as R

FIELDS = ("decisions", "rounds_played", "games_played", "first_dealer", "rank", "score",
          "player_decisions", "games_won", "capots", "tricks_total")
_SOURCE = field_sources(R.STATE, FIELDS)
SIZE = _SOURCE.size
_AT = field_offsets(R.STATE, FIELDS)


@njit(cache=True)
def summarize(s, out):
    """Copy a finished match's figures into the summary row ``out``."""
    for i in range(SIZE):
        out[i] = s[_SOURCE[i]]


def result(params: Any, row: np.ndarray) -> Result:
    """The common Result of a summary row: the score is the payouts won."""
    n = params.players
    rank_array = row[_AT["rank"]][:n]

    def per_player(name: str) -> tuple[int, ...]:
        return tuple(int(v) for v in row[_AT[name]][:n])

    stats = {"decisions": int(row[_AT["decisions"]][0]),
             "rounds": int(row[_AT["rounds_played"]][0]),
             "games": int(row[_AT["games_played"]][0]),
             "first_dealer": int(row[_AT["first_dealer"]][0]),
             "shared_win": int((rank_array == 1).sum()) > 1}
    details = {"games_won": per_player("games_won"), "capots": per_player("capots"),
               "tricks": per_player("tricks_total"),
               "decisions": per_player("player_decisions")}
    return Result(scores=tuple(float(v) for v in per_player("score")),
                  ranks=tuple(int(r) for r in rank_array),
                  win_shares=tuple(float(v) for v in win_shares(rank_array)),
                  stats=stats, details=details)


ROUND_FIELDS = ("round", "game", "hand_size", "dealer", "first_leader", "trump", "seat",
                "tricks", "points", "total", "qualified", "won_game", "capot", "payout",
                "score_total")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
(ROUND_ROUND, ROUND_GAME, ROUND_HAND_SIZE, ROUND_DEALER, ROUND_FIRST_LEADER, ROUND_TRUMP,
 ROUND_SEAT, ROUND_TRICKS, ROUND_POINTS, ROUND_TOTAL, ROUND_QUALIFIED, ROUND_WON_GAME,
 ROUND_CAPOT, ROUND_PAYOUT, ROUND_SCORE_TOTAL) = ROUND_ROW.offsets(
    "round", "game", "hand_size", "dealer", "first_leader", "trump", "seat", "tricks", "points",
    "total", "qualified", "won_game", "capot", "payout", "score_total")


@njit(cache=True)
def record_round(s, pr, out, row):
    """Write the deal just scored into ``out[row : row + 3]``; return the next free row."""
    for p in range(R.PLAYERS):
        r = out[row + p]
        r[ROUND_ROUND] = s[R.ROUNDS_PLAYED] - 1
        r[ROUND_GAME] = s[R.GAME]
        r[ROUND_HAND_SIZE] = s[R.CARDS]
        r[ROUND_DEALER] = s[R.DEALER]
        r[ROUND_FIRST_LEADER] = s[R.FIRST_LEADER]
        r[ROUND_TRUMP] = R.TRUMP
        r[ROUND_SEAT] = p
        r[ROUND_TRICKS] = s[R.TRICKS + p]
        r[ROUND_POINTS] = s[R.TRICKS + p]
        r[ROUND_TOTAL] = s[R.TOTAL + p]
        r[ROUND_QUALIFIED] = s[R.QUALIFIED + p]
        r[ROUND_WON_GAME] = 1 if s[R.GAME_WINNER] == p else 0
        r[ROUND_CAPOT] = 1 if s[R.GAME_WINNER] == p and s[R.CAPOT] else 0
        r[ROUND_PAYOUT] = s[R.GAME_PAYOUT] if s[R.GAME_WINNER] == p else 0
        r[ROUND_SCORE_TOTAL] = s[R.SCORE + p]
    return row + R.PLAYERS


def game_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-match columns of summary rows."""
    ranks = rows[:, _AT["rank"]][:, :params.players]
    return {"decisions": rows[:, _AT["decisions"]][:, 0].astype(np.int32),
            "rounds": rows[:, _AT["rounds_played"]][:, 0].astype(np.int16),
            "games": rows[:, _AT["games_played"]][:, 0].astype(np.int16),
            "first_dealer": rows[:, _AT["first_dealer"]][:, 0].astype(np.int8),
            "shared_win": (ranks == 1).sum(axis=1) > 1}


def player_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (matches, players) each."""
    n = params.players
    ranks = rows[:, _AT["rank"]][:, :n]
    return {"score": rows[:, _AT["score"]][:, :n].astype(np.float32),
            "rank": ranks.astype(np.int8),
            "win_share": win_shares(ranks).astype(np.float32),
            "games_won": rows[:, _AT["games_won"]][:, :n].astype(np.int16),
            "capots": rows[:, _AT["capots"]][:, :n].astype(np.int16),
            "tricks": rows[:, _AT["tricks_total"]][:, :n].astype(np.int32),
            "decisions": rows[:, _AT["player_decisions"]][:, :n].astype(np.int32)}


def round_columns(params: Any, rounds: np.ndarray) -> dict[str, Any]:
    """Per-deal, per-seat columns (``round`` and ``game`` 1-based)."""
    columns: dict[str, Any] = {name: rounds[:, ROUND_ROW.offset(name)].astype(np.int16)
                               for name in ROUND_FIELDS}
    columns["round"] = columns["round"] + 1
    columns["game"] = columns["game"] + 1
    for name in ("dealer", "first_leader", "trump", "seat"):
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(np.int8)
    for name in ("qualified", "won_game", "capot"):
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(bool)
    return columns
