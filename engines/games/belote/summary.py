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
from engines.core.compiled import SummaryRow, copy_fields, round_table
from engines.core.layout import Layout
from engines.core.params import Params
from engines.families.tricks import game as tricks
from engines.games.belote import rules as R

# State fields copied into a summary row, in order.
ROW = SummaryRow(R.STATE, ("decisions", "rounds_played", "first_dealer", "redeals", "aborted",
                           "rank", "score", "player_decisions", "takes", "contracts_made",
                           "belotes", "capots", "tricks_total"))
_SOURCE, SIZE = ROW.source, ROW.size
CONTRACT_NAMES = ("♥", "♦", "♠", "♣", "sans atout", "tout atout", "none")


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


def result(params: Params, row: np.ndarray) -> Result:
    """The common Result of a summary row: the score is the final total."""
    rows = row[None, :]
    return tricks.table_result(
        game_columns(params, rows), player_columns(params, rows),
        ("decisions", "rounds", "first_dealer", "redeals", "aborted", "shared_win"),
        ("takes", "contracts_made", "belotes", "capots", "tricks", "decisions"))


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
    return tricks.game_table(ROW, rows, params.players, "rounds_played",
                             {"first_dealer": ROW.game(rows, "first_dealer").astype(np.int8),
                              "redeals": ROW.game(rows, "redeals").astype(np.int16),
                              "aborted": ROW.game(rows, "aborted").astype(bool)})


def player_columns(params: Params, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    return tricks.players_table(ROW, rows, n, ROW.players(rows, "score", n),
                                {"total": ("score", np.int32),
                                 "takes": ("takes", np.int16),
                                 "contracts_made": ("contracts_made", np.int16),
                                 "belotes": ("belotes", np.int16),
                                 "capots": ("capots", np.int16),
                                 "tricks": ("tricks_total", np.int16)})


def round_columns(params: Params, rounds: np.ndarray) -> dict[str, Any]:
    """Per-deal, per-seat columns of round rows (``round`` 1-based; ``contract`` a
    category; -1 in ``trump``, ``taker`` and ``first_leader`` when nobody took)."""
    columns = round_table(ROUND_ROW, rounds,
                          small=("hand_size", "dealer", "first_leader", "trump", "taker",
                                 "seat", "tricks", "capot"),
                          flags=("made", "belote", "passed_out"), wide=("score_total",))
    columns["contract"] = (rounds[:, ROUND_CONTRACT].astype(np.int8), CONTRACT_NAMES)
    return columns
