"""Small pure statistics helpers on plain numbers and arrays (no game rules here)."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np


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
