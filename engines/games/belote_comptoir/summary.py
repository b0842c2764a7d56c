"""The records and table columns of every belote game (:mod:`engines.games.belote.summary`;
documented in ``docs/results-belote-comptoir.md``)."""

from engines.games.belote.summary import (
    ROUND_WIDTH,
    SIZE,
    game_columns,
    player_columns,
    record_round,
    result,
    round_columns,
    summarize,
)

__all__ = ["ROUND_WIDTH", "SIZE", "game_columns", "player_columns", "record_round", "result",
           "round_columns", "summarize"]
