"""The record of a finished session of Le pharaon: one flat summary row, and one row per coup.
``summarize`` copies the final figures out of a state array; :func:`result` turns a row into
the common :class:`engines.core.api.Result`; the ``*_columns`` functions build the result tables'
columns (documented in ``docs/results-pharaon.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.compiled import SummaryRow, copy_fields, house_edge, row_result
from engines.core.layout import Layout
from engines.games.pharaon import rules as R
from engines.games.pharaon.params import PharaonParams

FIELDS = ("coup", "decisions", "pairs", "staked_total", "banker_net_total", "chips",
          "start_chips", "min_chips", "staked", "bets", "coups_banked", "player_decisions",
          "rank")
ROW = SummaryRow(R.STATE, FIELDS)
_SOURCE, SIZE = ROW.source, ROW.size


@njit(cache=True)
def summarize(s, out):
    """Copy a finished session's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


STATS = ("decisions", "rounds", "coups", "pairs", "staked", "banker_net", "house_edge")
DETAILS = ("final_chips", "min_chips", "staked", "bets", "coups_banked", "decisions")


def result(params: Any, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    return row_result(params, row, player_columns, game_columns, STATS, DETAILS)


# --- Coups: one row per coup -----------------------------------------------------------
ROUND_FIELDS = ("round", "banker", "right_card", "left_card", "pair", "winning_side",
                "staked", "banker_net", "cards_left", "pair_chances")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
(ROUND_ROUND, ROUND_BANKER, ROUND_RIGHT_CARD, ROUND_LEFT_CARD, ROUND_PAIR, ROUND_WINNING_SIDE,
 ROUND_STAKED, ROUND_BANKER_NET, ROUND_CARDS_LEFT, ROUND_PAIR_CHANCES) = ROUND_ROW.offsets(
    "round", "banker", "right_card", "left_card", "pair", "winning_side", "staked",
    "banker_net", "cards_left", "pair_chances")


@njit(cache=True)
def record_coup(s, pr, out, row):
    """Write the coup just resolved into ``out[row]``; return the next free row."""
    r = out[row]
    right, left = s[R.RIGHT_CARD], s[R.LEFT_CARD]
    r[ROUND_ROUND] = s[R.COUP] - 1
    r[ROUND_BANKER] = s[R.COUP_BANKER]
    r[ROUND_RIGHT_CARD] = right
    r[ROUND_LEFT_CARD] = left
    r[ROUND_PAIR] = right % R.RANKS == left % R.RANKS
    r[ROUND_WINNING_SIDE] = R.RIGHT if R.rank(pr, right) > R.rank(pr, left) else R.LEFT
    r[ROUND_STAKED] = s[R.COUP_STAKED]
    r[ROUND_BANKER_NET] = s[R.COUP_BANKER_NET]
    r[ROUND_CARDS_LEFT] = s[R.COUP_CARDS_LEFT]
    r[ROUND_PAIR_CHANCES] = s[R.COUP_PAIR_CHANCES]
    return row + 1


def game_columns(params: PharaonParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per session)."""
    staked = ROW.game(rows, "staked_total")
    net = ROW.game(rows, "banker_net_total")
    columns = ROW.games(rows, np.int32, "decisions rounds=coup coups=coup pairs")
    return columns | {"staked": staked.astype(np.int64), "banker_net": net.astype(np.int64),
                      "house_edge": house_edge(net, staked)}


def player_columns(params: PharaonParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    chips = ROW.players(rows, "chips", n)
    net = chips - ROW.players(rows, "start_chips", n)
    columns = ROW.standings(rows, n, net) | {"final_chips": chips.astype(np.int32),
                                             "net": net.astype(np.int32)}
    return columns | ROW.seats(rows, n, np.int32, "min_chips staked bets coups_banked "
                                                  "decisions=player_decisions")


def round_columns(params: PharaonParams, rounds: np.ndarray) -> dict[str, Any]:
    """Per-coup columns (``winning_side`` as a categorical column)."""
    cards_left = rounds[:, ROUND_CARDS_LEFT]
    pairs = rounds[:, ROUND_PAIR_CHANCES]
    return {
        "round": (rounds[:, ROUND_ROUND] + 1).astype(np.int16),
        "banker": rounds[:, ROUND_BANKER].astype(np.int8),
        "right_card": rounds[:, ROUND_RIGHT_CARD].astype(np.int8),
        "left_card": rounds[:, ROUND_LEFT_CARD].astype(np.int8),
        "pair": rounds[:, ROUND_PAIR].astype(bool),
        "winning_side": (np.where(rounds[:, ROUND_PAIR] == 1, 2,
                                  rounds[:, ROUND_WINNING_SIDE]).astype(np.int8),
                         ("right", "left", "pair")),
        "staked": rounds[:, ROUND_STAKED].astype(np.int32),
        "banker_net": rounds[:, ROUND_BANKER_NET].astype(np.int32),
        "cards_left": cards_left.astype(np.int8),
        "pair_probability": (pairs / (cards_left * (cards_left - 1.0))).astype(np.float64),
    }
