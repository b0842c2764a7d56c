"""The record of a finished game of La super-bataille: the war core's
(:mod:`engines.war.summary`)."""

from engines.war.summary import (
    ROUND_WIDTH,
    SIZE,
    game_columns,
    max_round_rows,
    player_columns,
    result,
    round_columns,
    summarize,
)

__all__ = ["ROUND_WIDTH", "SIZE", "game_columns", "max_round_rows", "player_columns", "result",
           "round_columns", "summarize"]
