"""Chasse-coeur's records and table columns: those of every point-avoidance game
(:mod:`engines.avoidance.summary`; documented in ``docs/results-chasse-coeur.md``)."""

from engines.avoidance.summary import (
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
