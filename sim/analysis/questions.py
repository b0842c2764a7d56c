"""Figures for designers' questions that the standard analysis does not answer, each a pure
function of a run's tables returning flat ``{name: value}`` figures (with ``_low``/``_high``
95% bounds).  An experiment file names them under ``analyses`` (docs/experiments.md).

They read table columns only (docs/results.md), never rules; each says which columns it
needs.
"""

from __future__ import annotations

from collections.abc import Callable
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd
import statsmodels.api as sm

from sim.analysis.run import Run
from sim.stats import proportion

# Table time: seconds a player takes for one decision (a placement, a bet, a discard, the
# hand change), the assumption that turns decisions into minutes.
SECONDS_PER_DECISION = 8.0
SUIT_COLUMNS = ["points_hearts", "points_diamonds", "points_spades", "points_clubs"]


def _bounds(name: str, value: float, se: float, confidence: float = 0.95
            ) -> dict[str, float]:
    """A normal-approximation interval around ``value``."""
    half = NormalDist().inv_cdf(0.5 + confidence / 2) * se
    return {name: value, f"{name}_low": value - half, f"{name}_high": value + half}


def _coefficient(y: np.ndarray, columns: list[np.ndarray], groups: np.ndarray
                 ) -> tuple[float, float]:
    """Least-squares coefficient of the last of ``columns`` (with an intercept) and its
    standard error, robust to correlation within ``groups`` (games)."""
    x = sm.add_constant(np.column_stack(columns))
    fit = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": groups})
    return float(fit.params[-1]), float(fit.bse[-1])


def odd_hand(run: Run) -> dict[str, float]:
    """The authors' claim that ending a round with an odd hand is better (rounds: game_id,
    round, seat, hand_end, points_cards_won; players: win_share).

    ``odd_hand_next_points``: points cards won in the next round after an odd hand at round
    end, beyond what the hand's size alone predicts (least squares on hand size and an odd
    indicator; game-clustered interval).  ``odd_hand_win_share``: a game's win share for a
    player all of whose round ends were odd, against all even, at the same mean hand size
    (least squares over players)."""
    rounds = run.rounds.sort_values(["game_id", "seat", "round"])
    following = rounds.groupby(["game_id", "seat"])["points_cards_won"].shift(-1)
    has_next = following.notna().to_numpy()
    ended = rounds[has_next]
    size = ended["hand_end"].to_numpy(np.float64)
    odd = (size % 2 == 1).astype(np.float64)
    points, points_se = _coefficient(following[has_next].to_numpy(np.float64), [size, odd],
                                     ended["game_id"].to_numpy())
    per_player = rounds.groupby(["game_id", "seat"]).agg(
        mean_size=("hand_end", "mean"),
        odd_share=("hand_end", lambda h: float((h % 2 == 1).mean()))).reset_index()
    per_player = per_player.merge(run.players[["game_id", "seat", "win_share"]],
                                  on=["game_id", "seat"])
    win, win_se = _coefficient(per_player["win_share"].to_numpy(np.float64),
                               [per_player["mean_size"].to_numpy(np.float64),
                                per_player["odd_share"].to_numpy(np.float64)],
                               per_player["game_id"].to_numpy())
    return (_bounds("odd_hand_next_points", points, points_se)
            | _bounds("odd_hand_win_share", win, win_se))


def hand_change(run: Run) -> dict[str, float]:
    """How often the hand change is taken (rounds: round, exchanged), over the seat-rounds
    after the first, overall and for the lineup's lead agent (players: agent)."""
    later = run.rounds[run.rounds["round"] > 1]
    overall = proportion(int(later["exchanged"].sum()), len(later))
    out = {"exchange_rate": overall["p"], "exchange_rate_low": overall["low"],
           "exchange_rate_high": overall["high"]}
    agents = later.merge(run.players[["game_id", "seat", "agent"]], on=["game_id", "seat"])
    lead = run.agents[0]
    mine = agents[agents["agent"] == lead]
    share = proportion(int(mine["exchanged"].sum()), len(mine))
    return out | {"lead_exchange_rate": share["p"], "lead_exchange_rate_low": share["low"],
                  "lead_exchange_rate_high": share["high"]}


def _winners(scores: pd.DataFrame) -> pd.Series:
    """Per game, the frozenset of seats with the best score (a row per game and seat)."""
    best = scores.groupby("game_id")["score"].transform("max")
    return scores[scores["score"] == best].groupby("game_id")["seat"].agg(frozenset)


def scoring(run: Run) -> dict[str, float]:
    """How often the game's winner depends on the scoring rule (players: game_id, seat and
    the four suit points): the share of games whose best seats by lowest suit differ from
    the best seats by total points (before any tiebreak)."""
    points = run.players[["game_id", "seat", *SUIT_COLUMNS]]
    lowest = _winners(points.assign(score=points[SUIT_COLUMNS].min(axis=1)))
    total = _winners(points.assign(score=points[SUIT_COLUMNS].sum(axis=1)))
    differ = int((lowest != total.reindex(lowest.index)).sum())
    share = proportion(differ, len(lowest))
    return {"winner_differs": share["p"], "winner_differs_low": share["low"],
            "winner_differs_high": share["high"]}


def table_time(run: Run) -> dict[str, float]:
    """Game length in minutes at :data:`SECONDS_PER_DECISION` (games: decisions), for the
    table and per player (the authors' "20 minutes per player")."""
    decisions = run.games["decisions"].to_numpy(np.float64)
    minutes = decisions * SECONDS_PER_DECISION / 60
    se = minutes.std(ddof=1) / np.sqrt(len(minutes))
    per_player = minutes / run.n_players
    return (_bounds("table_minutes", float(minutes.mean()), float(se))
            | _bounds("minutes_per_player", float(per_player.mean()), float(se) / run.n_players)
            | {"seconds_per_decision": SECONDS_PER_DECISION})


def deck_shortage(run: Run) -> dict[str, float]:
    """How often the deck runs short of new cards (rounds: game_id, round, cards_short):
    the share of games with a shortage, the share of seat-rounds after the first dealt short,
    and the mean cards missing per seat-round after the first."""
    later = run.rounds[run.rounds["round"] > 1]
    short = later["cards_short"] > 0
    games = proportion(int(short.groupby(later["game_id"]).any().sum()), len(run.games))
    rounds = proportion(int(short.sum()), len(later))
    missing = later["cards_short"].to_numpy(np.float64)
    return ({"short_games": games["p"], "short_games_low": games["low"],
             "short_games_high": games["high"], "short_rounds": rounds["p"],
             "short_rounds_low": rounds["low"], "short_rounds_high": rounds["high"]}
            | _bounds("mean_cards_short", float(missing.mean()),
                      float(missing.std(ddof=1) / np.sqrt(len(missing)))))


ANALYSES: dict[str, Callable[[Run], dict[str, Any]]] = {
    "odd_hand": odd_hand, "hand_change": hand_change, "scoring": scoring,
    "table_time": table_time, "deck_shortage": deck_shortage}
