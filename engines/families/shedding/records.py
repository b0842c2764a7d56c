"""The records of a finished shedding game, shared by the shedding engines' ``summary``
modules: a summary row is a fixed selection of state fields (named in ``FIELDS``), copied
by :func:`summarize` from the state array."""

from __future__ import annotations

from typing import Any

import numpy as np

from engines.core.api import Result
from engines.core.compiled import SummaryRow, win_shares
from engines.families.shedding.rules import ENDINGS


def result_from(players: dict[str, np.ndarray], stats: dict[str, Any],
                detail_names: tuple[str, ...]) -> Result:
    """The common Result of one game from its player columns (first row) and its stats."""
    details = {name: tuple(int(v) for v in players[name][0]) for name in detail_names}
    return Result(scores=tuple(float(v) for v in players["score"][0]),
                  ranks=tuple(int(v) for v in players["rank"][0]),
                  win_shares=tuple(float(v) for v in players["win_share"][0]),
                  stats=stats, details=details)


class SummaryFields(SummaryRow):
    """A summary row's layout (:class:`engines.core.compiled.SummaryRow`) with the readers of
    the shedding and rummy games' result tables."""

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
