"""The record of a finished belote game: one flat row, plus one row per deal and seat; and the
table columns built from them (see ``docs/results-belote-a-trois.md`` and
``docs/results-belote-comptoir.md``).

``summarize`` copies the final figures out of a state array; :func:`result` turns a row into
the common :class:`engines.core.api.Result`.  Batch runs store rows, never whole states.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.layout import Layout
from engines.core.params import Params
from engines.families.tricks.game import field_offsets, field_sources, win_shares
from engines.games.belote import rules as R

# State fields copied into a summary row, in order.
FIELDS = ("decisions", "rounds_played", "first_dealer", "redeals", "aborted", "rank", "score",
          "player_decisions", "takes", "contracts_made", "belotes", "capots", "tricks_total")
_SOURCE = field_sources(R.STATE, FIELDS)
SIZE = _SOURCE.size
_AT = field_offsets(R.STATE, FIELDS)
CONTRACT_NAMES = ("♥", "♦", "♠", "♣", "sans atout", "tout atout", "none")


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    for i in range(SIZE):
        out[i] = s[_SOURCE[i]]


def result(params: Params, row: np.ndarray) -> Result:
    """The common Result of a summary row: the score is the final total."""
    n = params.players
    rank_array = row[_AT["rank"]][:n]

    def per_player(name: str) -> tuple[int, ...]:
        return tuple(int(v) for v in row[_AT[name]][:n])

    stats = {
        "decisions": int(row[_AT["decisions"]][0]),
        "rounds": int(row[_AT["rounds_played"]][0]),
        "first_dealer": int(row[_AT["first_dealer"]][0]),
        "redeals": int(row[_AT["redeals"]][0]),
        "aborted": bool(row[_AT["aborted"]][0]),
        "shared_win": int((rank_array == 1).sum()) > 1,
    }
    details = {
        "takes": per_player("takes"),
        "contracts_made": per_player("contracts_made"),
        "belotes": per_player("belotes"),
        "capots": per_player("capots"),
        "tricks": per_player("tricks_total"),
        "decisions": per_player("player_decisions"),
    }
    return Result(scores=tuple(float(v) for v in per_player("score")),
                  ranks=tuple(int(r) for r in rank_array),
                  win_shares=tuple(float(v) for v in win_shares(rank_array)),
                  stats=stats, details=details)


# --- Rounds: one row per seat for every deal (redeals included) -------------------------------
ROUND_FIELDS = ("round", "hand_size", "dealer", "first_leader", "trump", "contract", "taker",
                "high_bid", "seat", "bid", "tricks", "taken", "points", "made", "capot",
                "belote", "annonces", "taker_total", "defence_total", "passed_out",
                "score_total")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
(ROUND_ROUND, ROUND_HAND_SIZE, ROUND_DEALER, ROUND_FIRST_LEADER, ROUND_TRUMP, ROUND_CONTRACT,
 ROUND_TAKER, ROUND_HIGH_BID, ROUND_SEAT, ROUND_BID, ROUND_TRICKS, ROUND_TAKEN, ROUND_POINTS,
 ROUND_MADE, ROUND_CAPOT, ROUND_BELOTE, ROUND_ANNONCES, ROUND_TAKER_TOTAL, ROUND_DEFENCE_TOTAL,
 ROUND_PASSED_OUT, ROUND_SCORE_TOTAL) = ROUND_ROW.offsets(
    "round", "hand_size", "dealer", "first_leader", "trump", "contract", "taker", "high_bid",
    "seat", "bid", "tricks", "taken", "points", "made", "capot", "belote", "annonces",
    "taker_total", "defence_total", "passed_out", "score_total")


@njit(cache=True)
def record_round(s, pr, out, row):
    """Write the deal just ended into ``out[row : row + players]`` (one row per seat);
    return the next free row."""
    players = pr[R.P_PLAYERS]
    passed = s[R.TAKER] < 0
    for p in range(players):
        r = out[row + p]
        r[ROUND_ROUND] = s[R.ROUNDS_PLAYED] - 1
        r[ROUND_HAND_SIZE] = s[R.CARDS]
        r[ROUND_DEALER] = s[R.DEALER]
        r[ROUND_FIRST_LEADER] = -1 if passed else s[R.FIRST_LEADER]
        r[ROUND_TRUMP] = s[R.TRUMP]
        r[ROUND_CONTRACT] = s[R.CONTRACT] if not passed else R.CONTRACTS
        r[ROUND_TAKER] = -1 if passed else s[R.TAKER]
        r[ROUND_HIGH_BID] = s[R.HIGH_BID]
        r[ROUND_SEAT] = p
        r[ROUND_BID] = s[R.BID + p]
        r[ROUND_TRICKS] = s[R.TRICKS + p]
        r[ROUND_TAKEN] = s[R.TAKEN + p]
        r[ROUND_POINTS] = s[R.POINTS + p]
        r[ROUND_MADE] = s[R.MADE]
        r[ROUND_CAPOT] = s[R.CAPOT]
        r[ROUND_BELOTE] = 1 if s[R.BELOTE_SEAT] == p else 0
        r[ROUND_ANNONCES] = s[R.ANNONCE + p]
        r[ROUND_TAKER_TOTAL] = s[R.TAKER_TOTAL]
        r[ROUND_DEFENCE_TOTAL] = s[R.DEFENCE_TOTAL]
        r[ROUND_PASSED_OUT] = 1 if passed else 0
        r[ROUND_SCORE_TOTAL] = s[R.SCORE + p]
    return row + players


# --- Result tables' game-specific columns ----------------------------------------------------
def game_columns(params: Params, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    n = params.players
    ranks = rows[:, _AT["rank"]][:, :n]
    return {
        "decisions": rows[:, _AT["decisions"]][:, 0].astype(np.int32),
        "rounds": rows[:, _AT["rounds_played"]][:, 0].astype(np.int16),
        "first_dealer": rows[:, _AT["first_dealer"]][:, 0].astype(np.int8),
        "redeals": rows[:, _AT["redeals"]][:, 0].astype(np.int16),
        "aborted": rows[:, _AT["aborted"]][:, 0].astype(bool),
        "shared_win": (ranks == 1).sum(axis=1) > 1,
    }


def player_columns(params: Params, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    ranks = rows[:, _AT["rank"]][:, :n]

    def column(name: str, kind: Any) -> np.ndarray:
        return rows[:, _AT[name]][:, :n].astype(kind)

    return {
        "score": column("score", np.float32),
        "rank": ranks.astype(np.int8),
        "win_share": win_shares(ranks).astype(np.float32),
        "total": column("score", np.int32),
        "takes": column("takes", np.int16),
        "contracts_made": column("contracts_made", np.int16),
        "belotes": column("belotes", np.int16),
        "capots": column("capots", np.int16),
        "tricks": column("tricks_total", np.int16),
        "decisions": column("player_decisions", np.int32),
    }


def round_columns(params: Params, rounds: np.ndarray) -> dict[str, Any]:
    """Per-deal, per-seat columns of round rows (``round`` 1-based; ``contract`` a
    category; -1 in ``trump``, ``taker`` and ``first_leader`` when nobody took)."""
    columns: dict[str, Any] = {}
    for name in ROUND_FIELDS:
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(np.int16)
    columns["round"] = columns["round"] + 1
    for name in ("hand_size", "dealer", "first_leader", "trump", "taker", "seat", "bid",
                 "tricks", "capot"):
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(np.int8)
    columns["bid"] = rounds[:, ROUND_BID].astype(np.int16)
    columns["contract"] = (rounds[:, ROUND_CONTRACT].astype(np.int8), CONTRACT_NAMES)
    for name in ("made", "belote", "passed_out"):
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(bool)
    columns["score_total"] = rounds[:, ROUND_SCORE_TOTAL].astype(np.int32)
    return columns
