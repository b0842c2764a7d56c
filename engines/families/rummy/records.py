"""The records of a finished rummy match, shared by the rummy engines' ``summary`` modules:
the columns every rummy match has (over the common state prefix of
:mod:`engines.families.rummy.turns`), a game's own figures added by each module."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from engines.core.api import Result
from engines.core.compiled import win_shares
from engines.core.layout import Layout
from engines.families.rummy import turns as T
from engines.families.shedding.records import SummaryFields, result_from
from engines.families.shedding.rules import ENDINGS

# The state fields every rummy summary row starts with.
MATCH_FIELDS = ("decisions", "turns", "hand_no", "ending", "reshuffles", "void_hands",
                "total", "rank", "player_decisions", "wins", "takes", "layoffs",
                "melds_laid")
MATCH_STATS = ("decisions", "rounds", "turns", "reshuffles", "void_hands", "capped")


def match_columns(row: SummaryFields, rows: np.ndarray) -> dict[str, Any]:
    """The games table's common columns: decisions, hands played (``rounds``), turns,
    reshuffles, void hands, and whether the match was capped."""
    return {
        "decisions": row.game(rows, "decisions").astype(np.int32),
        "rounds": row.game(rows, "hand_no").astype(np.int16),
        "turns": row.game(rows, "turns").astype(np.int32),
        "reshuffles": row.game(rows, "reshuffles").astype(np.int16),
        "void_hands": row.game(rows, "void_hands").astype(np.int16),
        "capped": row.game(rows, "ending") == ENDINGS.index("capped"),
    }


def seat_columns(row: SummaryFields, rows: np.ndarray, players: int, score: np.ndarray,
                 figures: Sequence[tuple[str, str]]) -> dict[str, np.ndarray]:
    """The players table's common columns (``score`` as given, rank, win share, decisions)
    and each ``(state field, column)`` of ``figures`` as int16."""
    ranks = row.players(rows, "rank", players)
    columns = {"score": score.astype(np.float32), "rank": ranks.astype(np.int8),
               "win_share": win_shares(ranks).astype(np.float32),
               "decisions": row.players(rows, "player_decisions", players).astype(np.int32)}
    for field, name in figures:
        columns[name] = row.players(rows, field, players).astype(np.int16)
    return columns


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
