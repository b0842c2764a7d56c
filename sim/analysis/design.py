"""The objectives of a rule design search (``python -m sim.design``): balance figures of a
run, each a function of per-game sums, so that one bootstrap over games gives every
objective its interval.  Defined in docs/design.md.

An objective turns a run into a matrix with one row per game (``rows``) and a value from
the matrix's column sums (``value``): a run's figure is ``value(rows.sum(axis=0))``, a
bootstrap resample's is ``value(weights @ rows)``.  A figure that picks one of several (the
seat furthest from fair, the best agent) keeps, in the resamples, the one the whole run
picked: the interval is that of the figure reported, not of a maximum of noisy values
(which the resamples would push up).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.analysis.balance import group_moments, skill_share_of
from sim.analysis.run import Run

MINIMIZE, MAXIMIZE = "minimize", "maximize"
Value = Callable[[np.ndarray, "int | None"], float]


@dataclass(frozen=True)
class Objective:
    """A named figure of a run to minimise or maximise: ``rows(run)`` the per-game matrix,
    ``value(sums, pick)`` the figure from its column sums (``pick``: the seat or agent it
    is read at; None: the one the sums pick, see :data:`PICKS`)."""

    name: str
    direction: str
    rows: Callable[[Run], np.ndarray]
    value: Value
    about: str

    def of(self, run: Run) -> float:
        """The objective's value on the whole run."""
        return self.value(self.rows(run).sum(axis=0), None)


# --------------------------------------------------------------------------------------
# The per-game matrices
# --------------------------------------------------------------------------------------
def seat_rows(run: Run) -> np.ndarray:
    """Win share at each seat, one row per game (games in ``game_id`` order)."""
    table = run.players.pivot(index="game_id", columns="seat", values="win_share")
    return np.column_stack([np.ones(len(table)), table.to_numpy(np.float64)])


def seat_edges(sums: np.ndarray) -> np.ndarray:
    """Each seat's distance from the fair 1/K."""
    games, seats = sums[0], sums[1:]
    return np.abs(seats / games - 1.0 / len(seats))


def seat_unfairness(sums: np.ndarray, pick: int | None = None) -> float:
    """The largest distance of a seat's win share from the fair 1/K (at seat ``pick``)."""
    edges = seat_edges(sums)
    return float(edges[int(np.argmax(edges)) if pick is None else pick])


def agent_rows(run: Run) -> np.ndarray:
    """Per game: each agent's seats, then each agent's win shares summed."""
    keys = [run.players["game_id"], run.players["agent"].astype(str)]
    shares = run.players["win_share"].astype(np.float64)
    grouped = pd.DataFrame({"n": 1.0, "s": shares}).groupby(keys).sum().unstack(fill_value=0.0)
    return np.column_stack([grouped["n"].to_numpy(), grouped["s"].to_numpy()])


def agent_edges(sums: np.ndarray) -> np.ndarray:
    """Each agent's mean win share per seat above the fair 1/K."""
    half = len(sums) // 2
    seats, shares = sums[:half], sums[half:]
    players = seats.sum() / max(1.0, shares.sum())   # win shares sum to 1 a game
    return shares / seats - 1.0 / players


def best_agent_edge(sums: np.ndarray, pick: int | None = None) -> float:
    """The best agent's mean win share per seat above the fair 1/K (agent ``pick``)."""
    edges = agent_edges(sums)
    return float(edges[int(np.argmax(edges)) if pick is None else pick])


def luck_rows(run: Run) -> np.ndarray:
    """Per game and agent: seats, win shares summed, squares summed."""
    return np.column_stack(group_moments(run.players))


def luck_value(sums: np.ndarray, pick: int | None = None) -> float:
    """1 - the skill share (ICC(1)) of the agents' win shares."""
    n, s1, s2 = np.split(sums, 3)
    return 1.0 - skill_share_of(n, s1, s2)


def column_sums(table: str, column: str, per: str) -> Callable[[Run], np.ndarray]:
    """Per game: the sum of ``column`` over the game's rows of ``table`` ("games",
    "players" or "rounds"), beside the count it is a mean over: the game's rows (``per``
    "row") or 1 (``per`` "game")."""
    def rows(run: Run) -> np.ndarray:
        frame = run.rounds_table() if table == "rounds" else getattr(run, table)
        sums = frame.groupby("game_id")[column].agg(["size", "sum"])
        sums = sums.reindex(run.games["game_id"].sort_values(), fill_value=0)
        count = sums["size"].to_numpy(np.float64) if per == "row" else np.ones(len(sums))
        return np.column_stack([count, sums["sum"].to_numpy(np.float64)])
    return rows


def ratio(sums: np.ndarray, pick: int | None = None) -> float:
    """Second column sum over the first."""
    return float(sums[1] / sums[0]) if sums[0] else float("nan")


def distance_to(target: float) -> Value:
    """How far the mean is from ``target``."""
    def distance(sums: np.ndarray, pick: int | None = None) -> float:
        return abs(ratio(sums) - target)
    return distance


# --------------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------------
DECISIONS = column_sums("games", "decisions", "game")     # a game's length
OBJECTIVES = {
    "seat_unfairness": (MINIMIZE, seat_rows, seat_unfairness,
                        "the largest distance of a seat's win share from 1/K, in mixed "
                        "tables of the agents with rotating seats"),
    "skill": (MAXIMIZE, agent_rows, best_agent_edge,
              "the best agent's win share per seat above 1/K (how much playing well wins)"),
    "luck": (MINIMIZE, luck_rows, luck_value,
             "the share of a seat's win-share variance not explained by the agent (1 - ICC)"),
    "length": (MINIMIZE, DECISIONS, ratio, "mean decisions per game"),
    "deck_shortage": (MINIMIZE, column_sums("rounds", "cards_short", "game"), ratio,
                      "mean cards per game owed to players that the deck could not give "
                      "(paris-damis)"),
}
# The objectives that pick one seat or agent, and how: its index in the sums' columns.
PICKS: dict[Value, Callable[[np.ndarray], np.ndarray]] = {seat_unfairness: seat_edges,
                                                          best_agent_edge: agent_edges}
TARGET = "target_length"
TABLES = ("games", "players", "rounds")


def objective_names() -> list[str]:
    """Every objective name, for error messages."""
    return [*OBJECTIVES, f"{TARGET}=N", "TABLE.COLUMN"]


def parse_objective(text: str) -> Objective:
    """An objective from its name: one of :data:`OBJECTIVES`, ``target_length=N`` (the
    distance of the mean decisions from N), or ``TABLE.COLUMN`` (the column's mean over the
    table's rows, minimised); ``:min`` or ``:max`` after any sets its direction.  ValueError
    naming the valid choices otherwise."""
    name, _, way = text.strip().partition(":")
    if way and way not in ("min", "max"):
        raise ValueError(f"objective {text!r}: the direction after ':' is min or max")
    value: Value
    if name in OBJECTIVES:
        direction, rows, value, about = OBJECTIVES[name]
    elif name.startswith(f"{TARGET}="):
        try:
            target = float(name.split("=", 1)[1])
        except ValueError:
            raise ValueError(f"objective {text!r}: {TARGET}=N takes a number of "
                             f"decisions") from None
        direction, rows, value = MINIMIZE, DECISIONS, distance_to(target)
        about = f"distance of the mean decisions per game from {target:g}"
    elif name.count(".") == 1 and name.split(".")[0] in TABLES:
        table, column = name.split(".")
        direction, rows, value = MINIMIZE, column_sums(table, column, "row"), ratio
        about = f"mean of {table}.{column}"
    else:
        raise ValueError(f"unknown objective {name!r}; valid objectives: "
                         f"{', '.join(objective_names())} (optionally :min or :max)")
    if way:
        direction = MINIMIZE if way == "min" else MAXIMIZE
    return Objective(name, direction, rows, value, about)


def check_columns(objective: Objective, run: Run) -> None:
    """ValueError when the run lacks what ``objective`` reads (a table or a column)."""
    try:
        objective.of(run)
    except (KeyError, ValueError, AttributeError) as error:
        raise ValueError(f"objective {objective.name!r} cannot be computed on "
                         f"{run.game}'s tables ({error})") from None


# --------------------------------------------------------------------------------------
# Several player counts, intervals, the front
# --------------------------------------------------------------------------------------
def worst(values: Sequence[float], direction: str) -> float:
    """The worst of an objective's values at several player counts."""
    return float(max(values) if direction == MINIMIZE else min(values))


def bootstrap(objective: Objective, runs: Sequence[Run], resamples: int, seed: int,
              confidence: float = 0.95) -> dict[str, float]:
    """The objective's worst value over ``runs`` (one per player count) with a percentile
    interval: each run's games drawn again with replacement, independently, ``resamples``
    times, every figure read at the seat or agent the whole run picks."""
    rng = np.random.default_rng(seed)
    matrices = [objective.rows(run) for run in runs]
    sums = [m.sum(axis=0) for m in matrices]
    edges = PICKS.get(objective.value)
    picks = [None if edges is None else int(np.argmax(edges(s))) for s in sums]
    value = worst([objective.value(s, p) for s, p in zip(sums, picks, strict=True)],
                  objective.direction)
    samples = []
    for _ in range(resamples):
        samples.append(worst([objective.value(rng.multinomial(len(m), np.full(len(m),
                                                                           1 / len(m))) @ m, p)
                              for m, p in zip(matrices, picks, strict=True)],
                             objective.direction))
    tail = 50 * (1 - confidence)
    low, high = np.nanpercentile(samples, [tail, 100 - tail]) if resamples else (np.nan,) * 2
    return {"value": value, "low": float(low), "high": float(high)}


def dominates(a: Sequence[float], b: Sequence[float], directions: Sequence[str]) -> bool:
    """Whether values ``a`` are at least as good as ``b`` on every objective and better on
    one."""
    better = [x < y if d == MINIMIZE else x > y for x, y, d in zip(a, b, directions,
                                                                     strict=True)]
    no_worse = [x <= y if d == MINIMIZE else x >= y for x, y, d in zip(a, b, directions,
                                                                         strict=True)]
    return all(no_worse) and any(better)


def pareto_front(values: Sequence[Sequence[float]], directions: Sequence[str]) -> list[int]:
    """The indices of the rows no other row dominates."""
    return [i for i, a in enumerate(values)
            if not any(dominates(b, a, directions) for j, b in enumerate(values) if j != i)]
