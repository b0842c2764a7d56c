"""The record of a finished session of Le baccara: one flat summary row, and one row per coup.
``summarize`` copies the final figures out of a state array; :func:`result` turns a row into
the common :class:`engines.core.api.Result`; the ``*_columns`` functions build the result tables'
columns (documented in ``docs/results-baccara.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.cards import card_name
from engines.core.compiled import SummaryRow, copy_fields, house_edge, row_result
from engines.core.layout import Layout
from engines.games.baccara import rules as R
from engines.games.baccara.params import BaccaraParams

FIELDS = ("coup", "decisions", "passes", "decided", "ties", "voids", "banker_wins",
          "staked_total", "banker_net_total", "chips", "min_chips", "coups_banked",
          "coups_ponte", "contributed", "player_decisions", "rank")
ROW = SummaryRow(R.STATE, FIELDS)
_SOURCE, SIZE = ROW.source, ROW.size


@njit(cache=True)
def summarize(s, out):
    """Copy a finished session's figures into the summary row ``out``."""
    copy_fields(s, _SOURCE, out)


STATS = ("decisions", "rounds", "coups", "decided", "ties", "voids", "banker_wins", "staked",
         "banker_net", "house_edge")
DETAILS = ("final_chips", "min_chips", "coups_banked", "coups_ponte", "contributed",
           "decisions")


def result(params: Any, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    return row_result(params, row, player_columns, game_columns, STATS, DETAILS)


# --- Coups: one row per coup -----------------------------------------------------------
ROUND_FIELDS = ("round", "banker", "ponte", "stake", "staked", "outcome", "ponte_value",
                "banker_value", "ponte_natural", "banker_natural", "ponte_card_1",
                "ponte_card_2", "ponte_card_3", "banker_card_1", "banker_card_2",
                "banker_card_3", "ponte_five", "banker_five", "banker_net")
ROUND_ROW = Layout(*ROUND_FIELDS)
ROUND_WIDTH = ROUND_ROW.size
(ROUND_ROUND, ROUND_BANKER, ROUND_PONTE, ROUND_STAKE, ROUND_STAKED, ROUND_OUTCOME,
 ROUND_PONTE_VALUE, ROUND_BANKER_VALUE, ROUND_PONTE_NATURAL, ROUND_BANKER_NATURAL,
 ROUND_PONTE_CARD_1, ROUND_PONTE_CARD_2, ROUND_PONTE_CARD_3, ROUND_BANKER_CARD_1,
 ROUND_BANKER_CARD_2, ROUND_BANKER_CARD_3, ROUND_PONTE_FIVE, ROUND_BANKER_FIVE,
 ROUND_BANKER_NET) = ROUND_ROW.offsets(
    "round", "banker", "ponte", "stake", "staked", "outcome", "ponte_value", "banker_value",
    "ponte_natural", "banker_natural", "ponte_card_1", "ponte_card_2", "ponte_card_3",
    "banker_card_1", "banker_card_2", "banker_card_3", "ponte_five", "banker_five", "banker_net")


@njit(cache=True)
def record_coup(s, pr, out, row):
    """Write the coup just ended into ``out[row]``; return the next free row."""
    r = out[row]
    dealt = s[R.OUTCOME] != R.VOID
    r[ROUND_ROUND] = s[R.COUP] - 1
    r[ROUND_BANKER] = s[R.COUP_BANKER]
    r[ROUND_PONTE] = s[R.COUP_PONTE]
    r[ROUND_STAKE] = s[R.COUP_STAKE]
    r[ROUND_STAKED] = s[R.COUP_STAKED]
    r[ROUND_OUTCOME] = s[R.OUTCOME]
    r[ROUND_PONTE_VALUE] = s[R.VALUE] if dealt else -1
    r[ROUND_BANKER_VALUE] = s[R.VALUE + 1] if dealt else -1
    r[ROUND_PONTE_NATURAL] = s[R.NATURAL] if dealt else 0
    r[ROUND_BANKER_NATURAL] = s[R.NATURAL + 1] if dealt else 0
    for role in range(2):
        first = ROUND_PONTE_CARD_1 if role == R.ROLE_PONTE else ROUND_BANKER_CARD_1
        for i in range(3):
            present = dealt and i < s[R.HAND_SIZE + role]
            r[first + i] = s[R.HAND + 3 * role + i] if present else -1
    r[ROUND_PONTE_FIVE] = s[R.FIVE] if dealt else R.NOT_ASKED
    r[ROUND_BANKER_FIVE] = s[R.FIVE + 1] if dealt else R.NOT_ASKED
    r[ROUND_BANKER_NET] = s[R.COUP_BANKER_NET]
    return row + 1


def describe(r: np.ndarray) -> str:
    """A coup row, readable."""
    head = f"coup {r[ROUND_ROUND] + 1} (bank P{r[ROUND_BANKER]}"
    if r[ROUND_OUTCOME] == R.VOID:
        return f"{head}, stake {r[ROUND_STAKE]}): void, nobody covered half the stake"

    def hand(first: int, value: int) -> str:
        cards = " ".join(card_name(int(c)) for c in r[first:first + 3] if c >= 0)
        return f"{cards} = {r[value]}"
    return (f"{head}, ponte P{r[ROUND_PONTE]}, staked {r[ROUND_STAKED]}): ponte "
            f"{hand(ROUND_PONTE_CARD_1, ROUND_PONTE_VALUE)}, banker "
            f"{hand(ROUND_BANKER_CARD_1, ROUND_BANKER_VALUE)} -> "
            f"{R.OUTCOME_NAMES[r[ROUND_OUTCOME]]}, bank {r[ROUND_BANKER_NET]:+d}")


def game_columns(params: BaccaraParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game columns of summary rows (one row per session)."""
    staked = ROW.game(rows, "staked_total")
    net = ROW.game(rows, "banker_net_total")
    columns = ROW.games(rows, np.int32, "decisions rounds=coup coups=coup bank_passes=passes "
                                        "decided ties voids banker_wins")
    return columns | {"staked": staked.astype(np.int64), "banker_net": net.astype(np.int64),
                      "house_edge": house_edge(net, staked)}


def player_columns(params: BaccaraParams, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-player columns, shape (games, players) each."""
    n = params.players
    chips = ROW.players(rows, "chips", n)
    columns = ROW.standings(rows, n, chips) | {"final_chips": chips.astype(np.int32),
                                               "net": (chips - params.start_chips).astype(np.int32)}
    return columns | ROW.seats(rows, n, np.int32, "min_chips coups_banked coups_ponte contributed "
                                                  "decisions=player_decisions")


def round_columns(params: BaccaraParams, rounds: np.ndarray) -> dict[str, Any]:
    """Per-coup columns (``outcome`` and the decisions at 5 as categorical columns)."""
    columns: dict[str, Any] = {name: rounds[:, ROUND_ROW.offset(name)].astype(np.int16)
                               for name in ROUND_FIELDS}
    columns["round"] = columns["round"] + 1
    for name in ("banker", "ponte", "ponte_value", "banker_value"):
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(np.int8)
    for name in ROUND_FIELDS[ROUND_PONTE_CARD_1:ROUND_BANKER_CARD_3 + 1]:
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(np.int8)
    columns["stake"] = rounds[:, ROUND_STAKE].astype(np.int32)
    columns["staked"] = rounds[:, ROUND_STAKED].astype(np.int32)
    columns["banker_net"] = rounds[:, ROUND_BANKER_NET].astype(np.int32)
    columns["outcome"] = (rounds[:, ROUND_OUTCOME].astype(np.int8), R.OUTCOME_NAMES)
    for name in ("ponte_natural", "banker_natural"):
        columns[name] = rounds[:, ROUND_ROW.offset(name)].astype(bool)
    for name in ("ponte_five", "banker_five"):
        columns[name] = ((rounds[:, ROUND_ROW.offset(name)] + 1).astype(np.int8),
                         ("not asked", "stood", "drew"))
    return columns
