"""The figures of one run, each a pure function of its result tables (pandas DataFrames).

Every interval is a 95% Wilson interval unless ``confidence=`` says otherwise.  Functions
need only the columns they name; :func:`analyze` computes every figure a run's tables
support."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy.stats import chisquare

from sim.analysis.balance import lead_changes, leader_wins, luck_share, snowball
from sim.analysis.run import Run
from sim.stats import describe, proportion

# Integer data spanning at most this many values gets one histogram bin per value.
MAX_INTEGER_BINS = 200

Keys = str | Sequence[str]


def _key_list(by: Keys | None) -> list[str]:
    """``by`` as a list of column names (none for None)."""
    if by is None:
        return []
    return [by] if isinstance(by, str) else list(by)


def _rates(values: pd.Series, groups: list[pd.Series], successes: str, rate: str,
           confidence: float) -> pd.DataFrame:
    """Per group: ``n`` values, their sum ``successes`` and ``rate`` = sum / n with its
    Wilson interval ``low``, ``high`` (one row for the whole sample without groups)."""
    if groups:
        table = values.groupby(groups, observed=True).agg(["size", "sum"]).reset_index()
    else:
        table = pd.DataFrame({"size": [len(values)], "sum": [values.sum()]})
    table = table.rename(columns={"size": "n", "sum": successes})
    intervals = pd.DataFrame([proportion(s, n, confidence)
                              for s, n in zip(table[successes], table["n"], strict=True)])
    table[rate] = intervals["p"]
    table["low"] = intervals["low"]
    table["high"] = intervals["high"]
    return table


def win_share(players: pd.DataFrame, by: Keys = "seat", confidence: float = 0.95
              ) -> pd.DataFrame:
    """Win share by ``by`` (a players column or several): ``[*by, n, wins, share, low,
    high]``, wins being the sum of win shares (shared wins count 1/k)."""
    groups = [players[key] for key in _key_list(by)]
    return _rates(players["win_share"].astype(np.float64), groups, "wins", "share",
                  confidence)


def seat_equality(players: pd.DataFrame) -> dict[str, float]:
    """Chi-square test of wins by seat against equal shares: ``{chi2, dof, p_value,
    games}``."""
    wins = win_share(players, "seat")["wins"]
    result = chisquare(wins)
    return {"chi2": float(result.statistic), "dof": len(wins) - 1,
            "p_value": float(result.pvalue), "games": int(players["game_id"].nunique())}


def first_player_edge(players: pd.DataFrame, first_seat: int = 0, confidence: float = 0.95
                      ) -> dict[str, float]:
    """The first seat's win share against a fair 1/K: ``{share, fair, edge, low, high}``,
    ``low`` and ``high`` bounding the edge."""
    shares = win_share(players, "seat", confidence).set_index("seat")
    fair = 1 / len(shares)
    first = shares.loc[first_seat]
    return {"share": float(first["share"]), "fair": fair,
            "edge": float(first["share"]) - fair, "low": float(first["low"]) - fair,
            "high": float(first["high"]) - fair}


def bet_accuracy(rounds: pd.DataFrame, by: Keys | None = None,
                 players: pd.DataFrame | None = None, confidence: float = 0.95
                 ) -> pd.DataFrame:
    """Share of correct bets, overall (``by=None``) or by rounds columns (bet, bet_position,
    round, seat...) and players columns (agent...; these need ``players``): ``[*by, n,
    correct, accuracy, low, high]``."""
    keys = _key_list(by)
    from_players = [key for key in keys if key not in rounds.columns]
    if from_players:
        if players is None:
            raise ValueError(f"bet accuracy by {', '.join(from_players)} needs the players "
                             f"table")
        rounds = rounds.merge(players[["game_id", "seat", *from_players]],
                              on=["game_id", "seat"], how="left")
    return _rates(rounds["bet_correct"].astype(np.int64), [rounds[key] for key in keys],
                  "correct", "accuracy", confidence)


def round_level(rounds: pd.DataFrame) -> pd.DataFrame:
    """One row per (game_id, round) of a rounds table (the first seat's row)."""
    return rounds.drop_duplicates(["game_id", "round"])


def k_distribution(rounds: pd.DataFrame) -> pd.DataFrame:
    """How many rounds had each k: ``[k, rounds, share]``."""
    counts = round_level(rounds)["k"].value_counts().sort_index()
    return pd.DataFrame({"k": counts.index.to_numpy(), "rounds": counts.to_numpy(),
                         "share": counts.to_numpy() / counts.sum()})


def length(games: pd.DataFrame, column: str = "decisions") -> dict[str, float]:
    """Distribution of a games column: mean, std, min, p5, p25, median, p75, p95, max, n."""
    return describe(games[column])


def decisions_per_player(players: pd.DataFrame) -> dict[str, float]:
    """Distribution of the decisions each player took in a game (as :func:`length`)."""
    return length(players, "decisions")


def histogram(values: ArrayLike, bins: int | str | Sequence[float] = "auto") -> pd.DataFrame:
    """Histogram ``[left, right, count]`` (numpy's bins; integer data spanning few values
    gets one bin per value, centred on it)."""
    sample = np.asarray(values)
    edges_asked: int | str | Sequence[float] | np.ndarray = bins
    if isinstance(bins, str) and bins == "auto" and sample.size \
            and np.issubdtype(sample.dtype, np.integer):
        low, high = int(sample.min()), int(sample.max())
        if high - low < MAX_INTEGER_BINS:
            edges_asked = np.arange(low, high + 2) - 0.5
    counts, edges = np.histogram(sample, bins=edges_asked)
    return pd.DataFrame({"left": edges[:-1], "right": edges[1:], "count": counts})


def margins(players: pd.DataFrame) -> pd.Series:
    """Per game (index game_id): the best score minus the second best (0 for a tie)."""
    ordered = players.sort_values(["game_id", "score"], ascending=[True, False])
    place = ordered.groupby("game_id").cumcount()
    scores = ordered["score"].astype(np.float64)
    best = scores[place == 0].set_axis(ordered.loc[place == 0, "game_id"])
    second = scores[place == 1].set_axis(ordered.loc[place == 1, "game_id"])
    return (best - second).rename("margin")


def rank_distribution(players: pd.DataFrame, by: Keys = "seat") -> pd.DataFrame:
    """How often each rank was reached by ``by`` (a players column or several): ``[*by,
    rank, count, share]``, shares summing to 1 within each group."""
    keys = _key_list(by)
    counts = players.groupby([*keys, "rank"], observed=True).size().rename("count")
    table = counts.reset_index()
    table["share"] = table["count"] / table.groupby(keys, observed=True)["count"].transform(
        "sum")
    return table


def decisive(games: pd.DataFrame, confidence: float = 0.95) -> dict[str, dict[str, float]]:
    """How games were decided: ``shared_win`` (several winners) and, when the games table
    records it, ``tiebreak`` (decided_by_bet_tiebreak), each ``{n, p, low, high}``."""
    columns = {"shared_win": "shared_win", "tiebreak": "decided_by_bet_tiebreak"}
    return {name: proportion(int(games[column].sum()), len(games), confidence)
            for name, column in columns.items() if column in games.columns}


def hand_size_by_round(rounds: pd.DataFrame) -> pd.DataFrame:
    """Mean hand size at the start and the end of each round: ``[round, hand_start,
    hand_end, n]`` (n: seat-rounds)."""
    return rounds.groupby("round").agg(hand_start=("hand_start", "mean"),
                                       hand_end=("hand_end", "mean"),
                                       n=("hand_start", "size")).reset_index()


# A figure of analyze: the columns it needs by table, and its value for a run at a confidence.
FigureSpec = tuple[dict[str, tuple[str, ...]], Callable[[Run, float], Any]]
_BETS = ("game_id", "seat", "bet_correct")
FIGURES: dict[str, FigureSpec] = {
    "win_share_by_seat": ({"players": ("seat", "win_share")},
                          lambda run, c: win_share(run.players, "seat", c)),
    "win_share_by_agent": ({"players": ("agent", "win_share")},
                           lambda run, c: win_share(run.players, "agent", c)),
    "seat_equality": ({"players": ("game_id", "seat", "win_share")},
                      lambda run, c: seat_equality(run.players)),
    "first_player_edge": ({"players": ("seat", "win_share")},
                          lambda run, c: first_player_edge(run.players, run.first_seat, c)),
    "decisions": ({"games": ("decisions",)}, lambda run, c: length(run.games, "decisions")),
    "rounds": ({"games": ("rounds",)}, lambda run, c: length(run.games, "rounds")),
    "decisions_per_player": ({"players": ("decisions",)},
                             lambda run, c: decisions_per_player(run.players)),
    "decisions_histogram": ({"games": ("decisions",)},
                            lambda run, c: histogram(run.games["decisions"])),
    "margins": ({"players": ("game_id", "score")}, lambda run, c: margins(run.players)),
    "rank_distribution": ({"players": ("seat", "rank")},
                          lambda run, c: rank_distribution(run.players, "seat")),
    "decisive": ({"games": ("shared_win",)}, lambda run, c: decisive(run.games, c)),
    "bet_accuracy": ({"rounds": _BETS}, lambda run, c: bet_accuracy(run.rounds, None,
                                                                    confidence=c)),
    "bet_accuracy_by_value": ({"rounds": (*_BETS, "bet")},
                              lambda run, c: bet_accuracy(run.rounds, "bet", confidence=c)),
    "bet_accuracy_by_position": ({"rounds": (*_BETS, "bet_position")},
                                 lambda run, c: bet_accuracy(run.rounds, "bet_position",
                                                             confidence=c)),
    "bet_accuracy_by_round": ({"rounds": (*_BETS, "round")},
                              lambda run, c: bet_accuracy(run.rounds, "round", confidence=c)),
    "bet_accuracy_by_agent": ({"rounds": _BETS, "players": ("game_id", "seat", "agent")},
                              lambda run, c: bet_accuracy(run.rounds, "agent", run.players,
                                                          c)),
    "bet_accuracy_by_value_position": ({"rounds": (*_BETS, "bet", "bet_position")},
                                       lambda run, c: bet_accuracy(
                                           run.rounds, ["bet", "bet_position"],
                                           confidence=c)),
    "k_distribution": ({"rounds": ("game_id", "round", "k")},
                       lambda run, c: k_distribution(run.rounds)),
    "hand_size_by_round": ({"rounds": ("round", "hand_start", "hand_end")},
                           lambda run, c: hand_size_by_round(run.rounds)),
    "luck": ({"players": ("game_id", "agent", "win_share")},
             lambda run, c: luck_share(run.players, confidence=c)),
    "snowball": ({"rounds": (*_BETS, "round"), "players": ("game_id", "seat", "agent")},
                 lambda run, c: snowball(run.rounds, "bet_correct", players=run.players,
                                          confidence=c)),
    "snowball_cards": ({"rounds": (*_BETS, "round", "points_cards_won"),
                        "players": ("game_id", "seat", "agent")},
                       lambda run, c: snowball(run.rounds, "bet_correct", "points_cards_won",
                                               run.players, c)),
    "leader_wins": ({"rounds": ("game_id", "round", "seat", "score"),
                     "players": ("game_id", "seat", "win_share")},
                    lambda run, c: leader_wins(run.rounds, run.players, c)),
    "lead_changes": ({"rounds": ("game_id", "round", "seat", "score")},
                     lambda run, c: lead_changes(run.rounds, c)),
}


def analyze(run: Run, confidence: float = 0.95) -> dict[str, Any]:
    """Every figure of :data:`FIGURES` that the run's tables support, by key (a figure whose
    table or columns are missing is left out)."""
    return {key: figure(run, confidence) for key, (needs, figure) in FIGURES.items()
            if all(run.has(table, *columns) for table, columns in needs.items())}
