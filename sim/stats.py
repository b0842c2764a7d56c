"""Small pure statistics helpers on plain numbers and arrays (no game rules here)."""

from __future__ import annotations

import math

import numpy as np


def wilson_interval(successes: float, trials: int, confidence: float = 0.95
                    ) -> tuple[float, float]:
    """Wilson score interval of a proportion (scipy's ``binomtest``).

    Fractional successes (shared wins count 1/k) are rounded to the nearest whole number for
    the interval only; the point estimate keeps them exact."""
    if trials <= 0:
        return (math.nan, math.nan)
    from scipy import stats  # imported here: scipy.stats takes a second to import

    k = int(round(successes))
    ci = stats.binomtest(k, trials).proportion_ci(confidence_level=confidence,
                                                  method="wilson")
    return (float(ci.low), float(ci.high))


def proportion(successes: float, trials: int, confidence: float = 0.95) -> dict[str, float]:
    """A proportion with its Wilson interval: ``{"n", "p", "low", "high"}``."""
    low, high = wilson_interval(successes, trials, confidence)
    return {"n": int(trials), "p": successes / trials if trials else math.nan,
            "low": low, "high": high}


def distribution(values: np.ndarray) -> dict[str, float]:
    """Mean, median and 95th percentile of a sample."""
    if len(values) == 0:
        return {"mean": math.nan, "median": math.nan, "p95": math.nan}
    return {"mean": float(np.mean(values)), "median": float(np.median(values)),
            "p95": float(np.percentile(values, 95))}
