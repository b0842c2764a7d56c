"""The records of a finished shedding game, shared by the shedding engines' ``summary``
modules: a summary row is a fixed selection of state fields (named in ``FIELDS``), copied
by :func:`summarize` from the state array."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engines.core.api import Result
from engines.core.compiled import SummaryRow
from engines.families.shedding.rules import ENDINGS


def result_from(players: dict[str, np.ndarray], stats: dict[str, Any],
                detail_names: tuple[str, ...]) -> Result:
    """The common Result of one game from its player columns (first row) and its stats."""
    details = {name: tuple(int(v) for v in players[name][0]) for name in detail_names}
    return Result(scores=tuple(float(v) for v in players["score"][0]),
                  ranks=tuple(int(v) for v in players["rank"][0]),
                  win_shares=tuple(float(v) for v in players["win_share"][0]),
                  stats=stats, details=details)


def hand_result(row: SummaryFields, params: Any, record: np.ndarray, player_columns: Callable,
                game_columns: Callable, stats: tuple[str, ...],
                details: tuple[str, ...]) -> Result:
    """The common Result of the summary row ``record``: its game's decisions, rounds, ending
    (by name) and the named game columns as stats, the named player columns as details."""
    rows = record[None, :]
    games = game_columns(params, rows)
    values: dict[str, Any] = {"decisions": int(games["decisions"][0]),
                              "rounds": int(games["rounds"][0]),
                              "ending": ENDINGS[int(row.game(rows, "ending")[0])]}
    values |= {name: games[name][0].item() for name in stats}
    return result_from(player_columns(params, rows), values, details)


class SummaryFields(SummaryRow):
    """A summary row's layout (:class:`engines.core.compiled.SummaryRow`) with the readers of
    the shedding and rummy games' result tables."""

    def seat_columns(self, rows: np.ndarray, players: int, figures: tuple[str, ...],
                     dtype: type) -> dict[str, np.ndarray]:
        """The players table's common columns (score, rank, win share, decisions) and the
        per-seat ``figures`` as ``dtype``."""
        columns = self.standings(rows, players, self.players(rows, "score", players))
        columns |= self.seats(rows, players, np.int32, "decisions=player_decisions")
        return columns | self.seats(rows, players, dtype, " ".join(figures))

    def hand_seat_columns(self, rows: np.ndarray, players: int,
                          figures: tuple[str, ...]) -> dict[str, np.ndarray]:
        """The players table's columns of a single-hand game: the common ones, the per-seat
        ``figures`` and the cards left in hand (``cards_left``), as int16."""
        columns = self.seat_columns(rows, players, figures, np.int16)
        return columns | self.seats(rows, players, np.int16, "cards_left=hand_size")

    def seat_sums(self, rows: np.ndarray, players: int,
                  figures: tuple[str, ...]) -> dict[str, np.ndarray]:
        """Games table columns: each per-seat figure of ``figures`` summed over the seats."""
        return {name: self.players(rows, name, players).sum(axis=1).astype(np.int32)
                for name in figures}

    def hand_columns(self, rows: np.ndarray, figures: tuple[str, ...]) -> dict[str, Any]:
        """The games table's common columns of a single-hand game: decisions, rounds (1),
        the game ``figures`` and whether it was capped."""
        columns: dict[str, Any] = self.games(rows, np.int32, "decisions")
        columns["rounds"] = np.ones(len(rows), dtype=np.int16)
        return columns | self.games(rows, np.int32, " ".join(figures)) | self.capped(rows)

    def capped(self, rows: np.ndarray) -> dict[str, np.ndarray]:
        """The games table's ``capped`` column: the game reached its decision cap."""
        return {"capped": self.game(rows, "ending") == ENDINGS.index("capped")}

    def cycle(self, rows: np.ndarray) -> dict[str, np.ndarray]:
        """The games table's ``cycle`` column: the game was stopped at a repeated position
        (or a round of passes with nothing moving)."""
        return {"cycle": self.game(rows, "ending") == ENDINGS.index("cycle")}
