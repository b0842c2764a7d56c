"""The records of a finished shedding game, shared by the shedding engines' ``summary``
modules: a summary row is a fixed selection of state fields (named in ``FIELDS``), copied
by :func:`summarize` from the state array."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engines.core.api import Result
from engines.core.layout import Layout
from engines.families.shedding.rules import ENDINGS


def summary_source(layout: Layout, fields: tuple[str, ...]) -> np.ndarray:
    """The state offsets a summary row copies, in row order."""
    return np.concatenate([np.arange(layout.offset(f), layout.offset(f) + layout.size_of(f))
                           for f in fields]).astype(np.int64)


def field_slices(layout: Layout, fields: tuple[str, ...]) -> dict[str, slice]:
    """Where each field sits in a summary row."""
    out, start = {}, 0
    for f in fields:
        size = layout.size_of(f)
        out[f] = slice(start, start + size)
        start += size
    return out


@njit(cache=True)
def copy_fields(s, source, out):
    """Copy the state offsets ``source`` of ``s`` into the summary row ``out``."""
    for i in range(source.size):
        out[i] = s[source[i]]


def win_shares(ranks: np.ndarray) -> np.ndarray:
    """1/k for each of the k seats ranked first (last axis), 0 for the others."""
    winners = (ranks == 1).sum(axis=-1, keepdims=True)
    return np.where(ranks == 1, 1.0 / winners, 0.0)


def result_from(players: dict[str, np.ndarray], stats: dict[str, Any],
                detail_names: tuple[str, ...]) -> Result:
    """The common Result of one game from its player columns (first row) and its stats."""
    details = {name: tuple(int(v) for v in players[name][0]) for name in detail_names}
    return Result(scores=tuple(float(v) for v in players["score"][0]),
                  ranks=tuple(int(v) for v in players["rank"][0]),
                  win_shares=tuple(float(v) for v in players["win_share"][0]),
                  stats=stats, details=details)


class SummaryFields:
    """A summary row's layout: the state offsets it copies (``source``) and where each field
    sits in it, with readers for the result tables."""

    def __init__(self, layout: Layout, fields: tuple[str, ...]) -> None:
        self.source = summary_source(layout, fields)
        self.size = self.source.size
        self.at = field_slices(layout, fields)

    def game(self, rows: np.ndarray, name: str) -> np.ndarray:
        """A one-value field, one entry per game."""
        return rows[:, self.at[name]][:, 0]

    def players(self, rows: np.ndarray, name: str, players: int) -> np.ndarray:
        """A per-seat field, shape (games, players)."""
        return rows[:, self.at[name]][:, :players]

    def seat_columns(self, rows: np.ndarray, players: int, figures: tuple[str, ...],
                     dtype: type) -> dict[str, np.ndarray]:
        """The players table's common columns (score, rank, win share, decisions) and the
        per-seat ``figures`` as ``dtype``."""
        ranks = self.players(rows, "rank", players)
        columns = {
            "score": self.players(rows, "score", players).astype(np.float32),
            "rank": ranks.astype(np.int8),
            "win_share": win_shares(ranks).astype(np.float32),
            "decisions": self.players(rows, "player_decisions", players).astype(np.int32),
        }
        return columns | {name: self.players(rows, name, players).astype(dtype)
                          for name in figures}

    def hand_columns(self, rows: np.ndarray, figures: tuple[str, ...]) -> dict[str, Any]:
        """The games table's common columns of a single-hand game: decisions, rounds (1),
        the game ``figures`` and whether it was capped."""
        columns: dict[str, Any] = {"decisions": self.game(rows, "decisions").astype(np.int32),
                                   "rounds": np.ones(len(rows), dtype=np.int16)}
        columns |= {name: self.game(rows, name).astype(np.int32) for name in figures}
        columns["capped"] = self.game(rows, "ending") == ENDINGS.index("capped")
        return columns
