"""Small pure statistics helpers on plain numbers and arrays (no game rules here)."""

from __future__ import annotations

import math
from itertools import combinations
from statistics import NormalDist

import numpy as np
from numpy.typing import ArrayLike


def wilson_interval(successes: float, trials: int, confidence: float = 0.95
                    ) -> tuple[float, float]:
    """Wilson score interval of a proportion.

    The closed form, with the normal quantile from the standard library: it equals scipy's
    ``binomtest(k, n).proportion_ci(method="wilson")`` (the tests check it), without the
    second it takes to import ``scipy.stats`` at the end of every batch run, and it takes
    fractional successes (shared wins count 1/k) as they are."""
    if trials <= 0:
        return (math.nan, math.nan)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    return (max(0.0, centre - half), min(1.0, centre + half))


def seat_comparisons(agents: np.ndarray, ranks: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every comparison of two seats of a game held by different agents, from ``agents`` and
    ``ranks`` shaped (games, seats), two seats or more: the game's row, the first seat's
    agent, the second's, and the first seat's score (1 if it ranked better, ½ for a tie, 0 if
    worse); seat pairs (0, 1), (0, 2), ... in turn, games in order within each."""
    parts = []
    for i, j in combinations(range(agents.shape[1]), 2):
        differ = agents[:, i] != agents[:, j]
        score = (ranks[:, i] < ranks[:, j]) + 0.5 * (ranks[:, i] == ranks[:, j])
        parts.append((np.flatnonzero(differ), agents[differ, i], agents[differ, j],
                      score[differ]))
    games, first, second, scores = (np.concatenate(column)
                                    for column in zip(*parts, strict=True))
    return games, first, second, scores


def proportion(successes: float, trials: int, confidence: float = 0.95) -> dict[str, float]:
    """A proportion with its Wilson interval: ``{"n", "p", "low", "high"}``."""
    low, high = wilson_interval(successes, trials, confidence)
    return {"n": int(trials), "p": successes / trials if trials else math.nan,
            "low": low, "high": high}


def distribution(values: np.ndarray) -> dict[str, float]:
    """Mean, median and 95th percentile of a sample."""
    summary = describe(values)
    return {key: summary[key] for key in ("mean", "median", "p95")}


def describe(values: ArrayLike) -> dict[str, float]:
    """Size ``n``, mean, sample standard deviation ``std``, min, 5th, 25th, 50th
    (``median``), 75th and 95th percentiles (``p5``, ``p25``, ``p75``, ``p95``) and max of a
    sample; every figure but ``n`` is NaN for an empty sample (``std`` also for one value)."""
    sample = np.asarray(values, dtype=np.float64)
    if sample.size == 0:
        return {"mean": math.nan, "std": math.nan, "min": math.nan, "p5": math.nan,
                "p25": math.nan, "median": math.nan, "p75": math.nan, "p95": math.nan,
                "max": math.nan, "n": 0}
    p5, p25, median, p75, p95 = np.percentile(sample, [5, 25, 50, 75, 95])
    return {"mean": float(sample.mean()),
            "std": float(sample.std(ddof=1)) if sample.size > 1 else math.nan,
            "min": float(sample.min()), "p5": float(p5), "p25": float(p25),
            "median": float(median), "p75": float(p75), "p95": float(p95),
            "max": float(sample.max()), "n": int(sample.size)}


def proportion_test(successes: float, trials: int, expected: float) -> float:
    """Two-sided p-value of the score test that a proportion equals ``expected``.

    It is the test the Wilson interval inverts: p < 1 − confidence exactly when the
    interval leaves ``expected`` out, so a sentence's p-value and interval never disagree."""
    if trials <= 0:
        return math.nan
    z = (successes / trials - expected) / math.sqrt(expected * (1 - expected) / trials)
    return 2 * NormalDist().cdf(-abs(z))


def homogeneity_test(successes: ArrayLike, trials: ArrayLike) -> dict[str, float]:
    """Chi-square test that several groups share one success rate: ``{"chi2", "dof",
    "p_value"}`` from each group's successes and trials (scipy's ``chi2_contingency``)."""
    from scipy.stats import chi2_contingency  # imported here: sim.batch never needs it

    successes = np.asarray(successes, dtype=float)
    table = np.column_stack([successes, np.asarray(trials, dtype=float) - successes])
    chi2, p_value, dof, _ = chi2_contingency(table, correction=False)
    return {"chi2": float(chi2), "dof": int(dof), "p_value": float(p_value)}
