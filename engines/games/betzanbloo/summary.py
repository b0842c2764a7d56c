"""The record of a finished game of Betzanbloo: one flat summary row, and one row per seat for
every turn.  ``summarize`` copies the final figures out of a state array; :func:`result`
turns a row into the common :class:`engines.core.api.Result`; the ``*_columns`` functions build the
result tables' columns (documented in ``docs/results-betzanbloo.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.compiled import SummaryRow, win_shares
from engines.core.layout import Layout
from engines.games.betzanbloo import rules as R
from engines.games.betzanbloo.params import BetzanblooParams

# State fields copied into a summary row, in order.
FIELDS = ("decisions", "turn", "rank", "score", "points", "diamonds", "player_decisions",
          "times_lone", "saved", "lost", "taken", "captured", "history_case")
ROW = SummaryRow(R.STATE, FIELDS)
_SOURCE, SIZE, _AT = ROW.source, ROW.size, ROW.at
CAMP_NAMES = ("below", "above")
CASE_NAMES = ("all-same", "lone", "split")


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    for i in range(SIZE):
        out[i] = s[_SOURCE[i]]



def _popcount(masks: np.ndarray) -> np.ndarray:
    """Cards in each bit mask (bits 1..12)."""
    return sum((masks >> v) & 1 for v in range(1, R.HIGHEST_PERSO + 1))


def _per_player(params: BetzanblooParams, rows: np.ndarray, name: str) -> np.ndarray:
    return rows[:, _AT[name]][:, :params.players]


def _captured(params: BetzanblooParams, rows: np.ndarray) -> np.ndarray:
    """Captured cards by value, shape (games, players, values)."""
    n = params.players
    return rows[:, _AT["captured"]][:, :n * R.VALUES].reshape(len(rows), n, R.VALUES)


def _cases(rows: np.ndarray) -> np.ndarray:
    return rows[:, _AT["history_case"]]


# --- Result -----------------------------------------------------------------------------
def result(params: BetzanblooParams, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    rows = row[None, :]
    players = player_columns(params, rows)
    games = game_columns(params, rows)
    stats = {"decisions": int(games["decisions"][0]), "rounds": int(games["rounds"][0]),
             "shared_win": bool(games["shared_win"][0])}
    stats |= {name: int(games[name][0]) for name in ("turns_all_same", "turns_lone",
                                                     "turns_split")}
    details = {name: tuple(int(v) for v in players[name][0])
               for name in ("points", "diamonds", "cards_saved", "cards_captured",
                            "cards_lost", "cards_taken", "times_lone", "decisions")}
    return Result(scores=tuple(float(v) for v in players["score"][0]),
                  ranks=tuple(int(v) for v in players["rank"][0]),
                  win_shares=tuple(float(v) for v in players["win_share"][0]),
                  stats=stats, details=details)


# --- Turns: one row per seat for every resolved turn -------------------------------------
ROUND_FIELDS = ("round", "threshold", "seat", "card", "camp", "case", "above", "lone",
                "saved", "captured", "taken")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
(ROUND_ROUND, ROUND_THRESHOLD, ROUND_SEAT, ROUND_CARD, ROUND_CAMP, ROUND_CASE, ROUND_ABOVE,
 ROUND_LONE, ROUND_SAVED, ROUND_CAPTURED, ROUND_TAKEN) = ROUND_ROW.offsets(
    "round", "threshold", "seat", "card", "camp", "case", "above", "lone", "saved", "captured",
    "taken")


@njit(cache=True)
def record_turn(s, pr, turn, out, row):
    """Write the resolved turn ``turn`` into ``out[row : row + players]`` (one row per seat);
    return the next free row."""
    players = pr[R.P_PLAYERS]
    threshold = s[R.PILE + turn]
    above = 0
    for p in range(players):
        above += R.camp(s[R.HISTORY_CARD + turn * R.MAX_PLAYERS + p], threshold)
    case = s[R.HISTORY_CASE + turn]
    lone = s[R.HISTORY_LONE + turn]
    for p in range(players):
        card = s[R.HISTORY_CARD + turn * R.MAX_PLAYERS + p]
        r = out[row + p]
        r[ROUND_ROUND] = turn
        r[ROUND_THRESHOLD] = threshold
        r[ROUND_SEAT] = p
        r[ROUND_CARD] = card
        r[ROUND_CAMP] = R.camp(card, threshold)
        r[ROUND_CASE] = case
        r[ROUND_ABOVE] = above
        r[ROUND_LONE] = lone == p
        r[ROUND_SAVED] = case == R.ALL_SAME or lone == p
        r[ROUND_CAPTURED] = s[R.HISTORY_CAPTURE + turn] if lone == p else 0
        r[ROUND_TAKEN] = s[R.HISTORY_VICTIM + turn] == p
    return row + players


def max_round_rows(params: BetzanblooParams) -> int:
    return R.TURNS * params.players


# --- Result tables' game-specific columns ----------------------------------------------------
def game_columns(params: BetzanblooParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    ranks = _per_player(params, rows, "rank")
    cases = _cases(rows)
    return {
        "decisions": rows[:, _AT["decisions"]][:, 0].astype(np.int32),
        "rounds": rows[:, _AT["turn"]][:, 0].astype(np.int16),
        "shared_win": (ranks == 1).sum(axis=1) > 1,
        "turns_all_same": (cases == R.ALL_SAME).sum(axis=1).astype(np.int8),
        "turns_lone": (cases == R.LONE).sum(axis=1).astype(np.int8),
        "turns_split": (cases == R.SPLIT).sum(axis=1).astype(np.int8),
    }


def player_columns(params: BetzanblooParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    ranks = _per_player(params, rows, "rank")
    captured = _captured(params, rows)
    return {
        "score": _per_player(params, rows, "score").astype(np.float32),
        "rank": ranks.astype(np.int8),
        "win_share": win_shares(ranks).astype(np.float32),
        "points": _per_player(params, rows, "points").astype(np.int16),
        "diamonds": _per_player(params, rows, "diamonds").astype(np.int16),
        "cards_saved": _popcount(_per_player(params, rows, "saved")).astype(np.int8),
        "cards_captured": captured.sum(axis=2).astype(np.int8),
        "captured_points": (captured * np.arange(R.VALUES)).sum(axis=2).astype(np.int16),
        "cards_lost": _popcount(_per_player(params, rows, "lost")).astype(np.int8),
        "cards_taken": _popcount(_per_player(params, rows, "taken")).astype(np.int8),
        "times_lone": _per_player(params, rows, "times_lone").astype(np.int8),
        "decisions": _per_player(params, rows, "player_decisions").astype(np.int32),
    }


def round_columns(params: BetzanblooParams, rounds: np.ndarray) -> dict[str, Any]:
    """Per-turn, per-seat columns of turn rows (``camp`` and ``case`` as categorical
    columns: ``(codes, categories)``)."""
    columns: dict[str, Any] = {name: rounds[:, ROUND_ROW.offset(name)].astype(np.int16)
                               for name in ROUND_FIELDS}
    columns["round"] = columns["round"] + 1
    columns["camp"] = (rounds[:, ROUND_CAMP].astype(np.int8), CAMP_NAMES)
    columns["case"] = (rounds[:, ROUND_CASE].astype(np.int8), CASE_NAMES)
    for name in ("lone", "saved", "taken"):
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(bool)
    return columns
