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
from engines.core.compiled import RoundRow, SummaryRow, copy_fields, copy_round, round_table
from engines.core.layout import Layout
from engines.families.tricks import game as tricks
from engines.games.rikiki import rules as R
from engines.games.rikiki.params import RikikiParams

# the rounds table's bet and whether it was met, for sim.batch's bet accuracy summary
BET_COLUMNS = ("bid", "made")

# State fields copied into a summary row, in order.
ROW = SummaryRow(R.STATE, ("decisions", "rounds_played", "first_dealer", "rank", "score",
                           "player_decisions", "made_bids", "tricks_total", "bids_total"))
_SOURCE, SIZE = ROW.source, ROW.size


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


def result(params: RikikiParams, row: np.ndarray) -> Result:
    """The common Result of a summary row: the score is the final total."""
    rows = row[None, :]
    return tricks.table_result(game_columns(params, rows), player_columns(params, rows),
                               ("decisions", "rounds", "first_dealer", "shared_win"),
                               ("made_bids", "tricks", "bids", "decisions"))


# --- Rounds: one row per seat for every round played -----------------------------------------
ROUND_FIELDS = ("round", "hand_size", "dealer", "first_leader", "trump", "trump_card", "seat",
                "bid", "bid_position", "bids_sum", "tricks", "points", "made", "score_total")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
ROUND_MADE = ROUND_ROW.offset("made")
ROUNDS = RoundRow(ROUND_ROW, R.STATE, "rounds_played", "dealer", "first_leader", "trump",
                  "trump_card", "bid", "bid_position", "tricks", "points", hand_size="cards",
                  bids_sum="bid_total", score_total="score")
_ROUNDS = ROUNDS.source


@njit(cache=True)
def record_round(s, pr, out, row):
    """Write the round just scored into ``out[row : row + players]`` (one row per seat);
    return the next free row."""
    players = pr[R.P_PLAYERS]
    for p in range(players):
        out[row + p, ROUND_MADE] = 1 if s[R.BID + p] == s[R.TRICKS + p] else 0
    return copy_round(s, _ROUNDS, players, out, row)


# --- Result tables' game-specific columns ----------------------------------------------------
def game_columns(params: RikikiParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    return tricks.game_table(ROW, rows, params.players, "rounds_played",
                             {"first_dealer": ROW.game(rows, "first_dealer").astype(np.int8)})


def player_columns(params: RikikiParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    return tricks.players_table(ROW, rows, n, ROW.players(rows, "score", n),
                                {"made_bids": ("made_bids", np.int16),
                                 "tricks": ("tricks_total", np.int16),
                                 "bids": ("bids_total", np.int16)})


def round_columns(params: RikikiParams, rounds: np.ndarray) -> dict[str, Any]:
    """Per-round, per-seat columns of round rows (``round`` 1-based; ``trump`` and
    ``trump_card`` -1 when no card was left to turn)."""
    return round_table(ROUND_ROW, rounds,
                       small=("dealer", "first_leader", "trump", "trump_card", "seat"),
                       flags=("made",), wide=("score_total",))
