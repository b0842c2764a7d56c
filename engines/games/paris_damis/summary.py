"""The record of a finished game: one flat row, the same from the Python API and the kernel.

``summarize`` copies the final figures out of a state array; :func:`result` turns a row into
the common :class:`engines.core.api.Result`.  Batch runs store rows, never whole states.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.cards import SUIT_NAMES
from engines.core.compiled import SummaryRow, win_shares
from engines.core.layout import Layout
from engines.games.paris_damis import rules as R
from engines.games.paris_damis.params import ParisDamisParams

# State fields copied into a summary row, in order.
FIELDS = ("decisions", "round", "final_tiebreak", "rank", "suit_score", "player_decisions",
          "cards_placed", "correct_bets", "exchanges")
ROW = SummaryRow(R.STATE, FIELDS)
_SOURCE, SIZE, _AT = ROW.source, ROW.size, ROW.at


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    for i in range(SIZE):
        out[i] = s[_SOURCE[i]]


def primary_score(params: ParisDamisParams, suits: np.ndarray) -> np.ndarray:
    """The score a seat is ranked by, from its suit scores (last axis): the lowest suit under
    ``scoring=lowest-suit``, the sum under ``scoring=total``."""
    return suits.sum(axis=-1) if params.scoring == "total" else suits.min(axis=-1)



def result(params: ParisDamisParams, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    n = params.players
    suits = row[_AT["suit_score"]][:n * R.SUITS].reshape(n, R.SUITS)
    rank_array = row[_AT["rank"]][:n]
    ranks = tuple(int(r) for r in rank_array)
    scores = tuple(float(v) for v in primary_score(params, suits))
    tiebreak = int(row[_AT["final_tiebreak"]][0])

    def per_player(name: str) -> tuple[int, ...]:
        return tuple(int(v) for v in row[_AT[name]][:n])

    stats = {
        "decisions": int(row[_AT["decisions"]][0]),
        "rounds": int(row[_AT["round"]][0]) + 1,
        "decided_by_bet_tiebreak": tiebreak == R.FINAL_BY_BET,
        "shared_win": tiebreak == R.FINAL_SHARED,
    }
    details = {
        "suit_scores": tuple(tuple(int(v) for v in r) for r in suits),
        "total_points": tuple(int(v) for v in suits.sum(axis=1)),
        "decisions": per_player("player_decisions"),
        "cards_placed": per_player("cards_placed"),
        "correct_bets": per_player("correct_bets"),
        "exchanges": per_player("exchanges"),
    }
    return Result(scores=scores, ranks=ranks,
                  win_shares=tuple(float(v) for v in win_shares(rank_array)),
                  stats=stats, details=details)


# --- Rounds: one row per seat for every settled round ---------------------------------------
ROUND_FIELDS = ("round", "trump", "seat", "bet", "bet_position", "bet_correct", "k",
                "cards_placed", "hand_start", "hand_end", "exchanged", "points_cards_won",
                "cards_short")
# and the seat's points in each suit once the round is settled (its standing then)
ROUND_ROW = Layout(*ROUND_FIELDS, ("suit_score", R.SUITS))
ROUND_WIDTH = ROUND_ROW.size
ROUND_SUIT_SCORE = ROUND_ROW.offset("suit_score")
(ROUND_ROUND, ROUND_TRUMP, ROUND_SEAT, ROUND_BET, ROUND_BET_POSITION, ROUND_BET_CORRECT,
 ROUND_K, ROUND_CARDS_PLACED, ROUND_HAND_START, ROUND_HAND_END, ROUND_EXCHANGED,
 ROUND_POINTS_CARDS_WON, ROUND_CARDS_SHORT) = ROUND_ROW.offsets(
    "round", "trump", "seat", "bet", "bet_position", "bet_correct", "k", "cards_placed",
    "hand_start", "hand_end", "exchanged", "points_cards_won", "cards_short")


@njit(cache=True)
def record_round(s, pr, out, row):
    """Write the round just settled into ``out[row : row + players]`` (one row per seat);
    return the next free row."""
    players = pr[R.P_PLAYERS]
    for p in range(players):
        won = 0
        for column in range(R.COLUMNS):
            if s[R.COLUMN_WINNER + column] == p and R.face_up_card(s, column) >= 0:
                won += 1
        r = out[row + p]
        r[ROUND_ROUND] = s[R.ROUND]
        r[ROUND_TRUMP] = s[R.TRUMP]
        r[ROUND_SEAT] = p
        r[ROUND_BET] = s[R.BET + p]
        r[ROUND_BET_POSITION] = s[R.BET_ORDER + p] - 1
        r[ROUND_BET_CORRECT] = s[R.BET_CORRECT + p]
        r[ROUND_K] = s[R.ROUND_K]
        r[ROUND_CARDS_PLACED] = s[R.MARKERS_USED + p]
        r[ROUND_HAND_START] = s[R.HAND_START + p]
        r[ROUND_HAND_END] = s[R.HAND_SIZE + p]
        r[ROUND_EXCHANGED] = s[R.EXCHANGED + p]
        r[ROUND_POINTS_CARDS_WON] = won
        r[ROUND_CARDS_SHORT] = s[R.CARDS_SHORT + p]
        for suit in range(R.SUITS):
            r[ROUND_SUIT_SCORE + suit] = s[R.SUIT_SCORE + p * R.SUITS + suit]
    return row + players


def max_round_rows(params: ParisDamisParams) -> int:
    return params.rounds * params.players


# --- Result tables' game-specific columns ----------------------------------------------------
def game_columns(params: ParisDamisParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    n = params.players
    ranks = rows[:, _AT["rank"]][:, :n]
    tiebreak = rows[:, _AT["final_tiebreak"]][:, 0]
    return {
        "decisions": rows[:, _AT["decisions"]][:, 0].astype(np.int32),
        "rounds": (rows[:, _AT["round"]][:, 0] + 1).astype(np.int16),
        "shared_win": (ranks == 1).sum(axis=1) > 1,
        "decided_by_bet_tiebreak": tiebreak == R.FINAL_BY_BET,
    }


def player_columns(params: ParisDamisParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    suits = rows[:, _AT["suit_score"]][:, :n * R.SUITS].reshape(len(rows), n, R.SUITS)
    ranks = rows[:, _AT["rank"]][:, :n]
    columns = {
        "score": primary_score(params, suits).astype(np.float32),
        "rank": ranks.astype(np.int8),
        "win_share": win_shares(ranks).astype(np.float32),
    }
    for suit, name in enumerate(SUIT_NAMES):
        columns[f"points_{name}"] = suits[:, :, suit].astype(np.int8)
    columns["total_points"] = suits.sum(axis=2).astype(np.int16)
    for name in ("correct_bets", "cards_placed", "exchanges"):
        columns[name] = rows[:, _AT[name]][:, :n].astype(np.int16)
    columns["decisions"] = rows[:, _AT["player_decisions"]][:, :n].astype(np.int32)
    return columns


def round_columns(params: ParisDamisParams, rounds: np.ndarray) -> dict[str, Any]:
    """Per-round, per-seat columns of round rows (``trump`` as a categorical column:
    ``(codes, categories)``)."""
    columns: dict[str, np.ndarray] = {}
    for name in ROUND_FIELDS:
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(np.int16)
    columns["round"] = columns["round"] + 1
    columns["trump"] = (rounds[:, ROUND_TRUMP].astype(np.int8), SUIT_NAMES)
    columns["bet_correct"] = rounds[:, ROUND_BET_CORRECT].astype(bool)
    columns["exchanged"] = rounds[:, ROUND_EXCHANGED].astype(bool)
    suits = rounds[:, ROUND_SUIT_SCORE:ROUND_SUIT_SCORE + R.SUITS]
    columns["score"] = primary_score(params, suits).astype(np.int16)
    return columns
