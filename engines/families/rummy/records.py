"""The records of a finished rummy match, shared by the rummy engines' ``summary`` modules:
the columns every rummy match has (over the common state prefix of
:mod:`engines.families.rummy.turns`), a game's own figures added by each module."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from engines.core.api import Result
from engines.core.layout import Layout
from engines.families.rummy import turns as T
from engines.families.shedding.records import SummaryFields, result_from

# The state fields every rummy summary row starts with.
MATCH_FIELDS = ("decisions", "turns", "hand_no", "ending", "reshuffles", "void_hands",
                "total", "rank", "player_decisions", "wins", "takes", "layoffs",
                "melds_laid", "cycle_length")
MATCH_STATS = ("decisions", "rounds", "turns", "reshuffles", "void_hands", "capped", "cycle",
               "cycle_length")


def match_columns(row: SummaryFields, rows: np.ndarray) -> dict[str, Any]:
    """The games table's common columns: decisions, hands played (``rounds``), turns,
    reshuffles, void hands, whether the match was capped or stopped by a repeated position
    (``cycle``, with its ``cycle_length``)."""
    columns = row.games(rows, np.int32, "decisions") | row.games(rows, np.int16, "rounds=hand_no")
    columns |= row.games(rows, np.int32, "turns cycle_length")
    columns |= row.games(rows, np.int16, "reshuffles void_hands")
    return columns | row.capped(rows) | row.cycle(rows)


def seat_columns(row: SummaryFields, rows: np.ndarray, players: int, score: np.ndarray,
                 figures: Sequence[tuple[str, str]]) -> dict[str, np.ndarray]:
    """The players table's common columns (``score`` as given, rank, win share, decisions)
    and each ``(state field, column)`` of ``figures`` as int16."""
    columns = row.standings(rows, players, score)
    columns |= row.seats(rows, players, np.int32, "decisions=player_decisions")
    return columns | row.seats(rows, players, np.int16,
                               " ".join(f"{name}={field}" for field, name in figures))


def round_core_columns(layout: Layout, fields: Sequence[str],
                       rounds: np.ndarray) -> dict[str, Any]:
    """The rounds table's columns of the one-value ``fields`` of the round row ``layout``
    (the common ones first): ``hand`` counted from 1, ``ending`` categorical, the rest
    int16."""
    columns: dict[str, Any] = {}
    for name in fields:
        columns[name] = rounds[:, layout.offset(name)].astype(np.int16)
    columns["hand"] = columns["hand"] + 1
    columns["ending"] = (rounds[:, T.ROUND_ENDING].astype(np.int8), T.HAND_ENDINGS)
    return columns


def match_result(params: Any, row: np.ndarray, player_columns: Callable,
                 game_columns: Callable, stats: Sequence[str],
                 details: Sequence[str]) -> Result:
    """The common Result of a summary row, with the named game columns as ``stats`` and the
    seats' decisions and the named player columns as ``details``."""
    rows = row[None, :]
    games = game_columns(params, rows)
    return result_from(player_columns(params, rows),
                       {name: games[name][0].item() for name in stats},
                       ("decisions",) + tuple(details))
