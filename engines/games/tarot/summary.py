"""The record of a finished tarot game (tarot, tarot-lorrain, tarot-taré): one flat row,
plus one row per deal and seat; and the table columns built from them (see
``docs/results-tarot.md``, ``docs/results-tarot-lorrain.md``, ``docs/results-tarot-tare.md``).

Scores and card points are kept in half points by the rules; the columns give them in
points (``float32``).  In the taré (lowest total wins) the common ``score`` is minus the
total, so that higher is better everywhere.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.compiled import RoundRow, SummaryRow, copy_fields, copy_round, round_table
from engines.core.layout import Layout
from engines.families.tricks import game as tricks
from engines.games.tarot import rules as R

# State fields copied into a summary row, in order.
ROW = SummaryRow(R.STATE, ("decisions", "deals_played", "first_dealer", "rank", "score",
                           "player_decisions", "takes", "made_total", "tricks_total", "poignees"))
_SOURCE, SIZE = ROW.source, ROW.size


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


def lowest_wins(params: Any) -> bool:
    """The taré ranks the lowest total first."""
    return params.game == "tarot-tare"


def result(params: Any, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    rows = row[None, :]
    return tricks.table_result(game_columns(params, rows), player_columns(params, rows),
                               ("decisions", "rounds", "first_dealer", "shared_win"),
                               ("totals", "takes", "made", "tricks", "poignees", "decisions"),
                               totals="total")


# --- Rounds: one row per seat for every deal ---------------------------------------------
ROUND_FIELDS = ("round", "hand_size", "dealer", "first_leader", "seat", "bid", "contract",
                "taker", "partner", "called_card", "annulled", "tricks", "taken", "points",
                "oudlers", "card_points", "made", "stake", "petit_au_bout", "poignee",
                "chelem_declared", "chelem", "score_total")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
ROUND_BID, ROUND_CONTRACT, ROUND_ANNULLED = ROUND_ROW.offsets("bid", "contract", "annulled")
_HALF_POINT_FIELDS = ("taken", "points", "card_points", "score_total")
ROUNDS = RoundRow(ROUND_ROW, R.STATE, "deals_played", "dealer", "first_leader", "bid",
                  "contract", "taker", "partner", "called_card", "annulled", "tricks", "taken",
                  "points", "made", "stake", "petit_au_bout", "poignee", "chelem_declared",
                  "chelem", hand_size="cards", oudlers="taker_oudlers",
                  card_points="taker_points", score_total="score")
_ROUNDS = ROUNDS.source


@njit(cache=True)
def record_round(s, pr, out, row):
    """Write the deal just scored into ``out[row : row + players]`` (one row per seat);
    return the next free row."""
    return copy_round(s, _ROUNDS, pr[R.P_PLAYERS], out, row)


# --- Result tables' game-specific columns ----------------------------------------------
def game_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per game)."""
    n = params.players
    return tricks.game_table(
        ROW, rows, n, "deals_played",
        {"first_dealer": ROW.game(rows, "first_dealer").astype(np.int8)},
        {"contracts_played": ROW.players(rows, "takes", n).sum(axis=1).astype(np.int16),
         "contracts_made": ROW.players(rows, "made_total", n).sum(axis=1).astype(np.int16)})


def player_columns(params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    totals = ROW.players(rows, "score", n) / 2
    sign = -1 if lowest_wins(params) else 1
    return tricks.players_table(ROW, rows, n, sign * totals,
                                {"total": totals.astype(np.float32),
                                 "takes": ("takes", np.int16),
                                 "made": ("made_total", np.int16),
                                 "tricks": ("tricks_total", np.int16),
                                 "poignees": ("poignees", np.int16)})


CONTRACTS = ("none", "prise", "garde", "garde sans", "garde contre")
ANNULMENTS = ("played", "all passed", "petit sec")
BIDS = ("not spoken", "pass", "prise", "garde", "garde sans", "garde contre")


def round_columns(params: Any, rounds: np.ndarray) -> dict[str, Any]:
    """Per-deal, per-seat columns of round rows (``round`` 1-based; categories as
    ``(codes, names)`` pairs)."""
    columns = round_table(ROUND_ROW, rounds,
                          small=("dealer", "first_leader", "seat", "taker", "partner",
                                 "called_card", "oudlers", "petit_au_bout", "poignee"),
                          flags=("made", "chelem_declared"))
    for name in _HALF_POINT_FIELDS:
        columns[name] = (rounds[:, ROUND_ROW.offset(name)] / 2).astype(np.float32)
    columns["bid"] = ((rounds[:, ROUND_BID] + 1).astype(np.int8), BIDS)
    columns["contract"] = (rounds[:, ROUND_CONTRACT].astype(np.int8), CONTRACTS)
    columns["annulled"] = (rounds[:, ROUND_ANNULLED].astype(np.int8), ANNULMENTS)
    return columns
