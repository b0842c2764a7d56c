"""The record of a finished game: one flat row, the same from the Python API and the kernel.

``summarize`` copies the final figures out of a state array; :func:`result` turns a row into
the common :class:`engines.api.Result`.  Batch runs store rows, never whole states.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.api import Result
from engines.paris_damis import rules as R
from engines.paris_damis.params import ParisDamisParams

# State fields copied into a summary row, in order.
FIELDS = ("decisions", "round", "final_tiebreak", "rank", "suit_score", "player_decisions",
          "cards_placed", "correct_bets", "exchanges")
_SOURCE = np.concatenate([np.arange(R.STATE.offset(f), R.STATE.offset(f) + R.STATE.size_of(f))
                          for f in FIELDS]).astype(np.int64)
SIZE = _SOURCE.size


def offsets() -> dict[str, slice]:
    """Where each field sits in a summary row."""
    out, start = {}, 0
    for f in FIELDS:
        size = R.STATE.size_of(f)
        out[f] = slice(start, start + size)
        start += size
    return out


_AT = offsets()


@njit(cache=True)
def summarize(s, out):
    """Copy a finished game's figures into the summary row ``out``."""
    for i in range(SIZE):
        out[i] = s[_SOURCE[i]]


def result(params: ParisDamisParams, row: np.ndarray) -> Result:
    """The common Result of a summary row."""
    n = params.players
    suits = row[_AT["suit_score"]][:n * R.SUITS].reshape(n, R.SUITS)
    ranks = tuple(int(r) for r in row[_AT["rank"]][:n])
    winners = sum(1 for r in ranks if r == 1)
    if params.scoring == "total":
        scores = tuple(float(v) for v in suits.sum(axis=1))
    else:
        scores = tuple(float(v) for v in suits.min(axis=1))
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
                  win_shares=tuple(1.0 / winners if r == 1 else 0.0 for r in ranks),
                  stats=stats, details=details)
