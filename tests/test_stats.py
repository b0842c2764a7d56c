"""Statistics helpers against scipy's reference implementations."""

import math

import numpy as np
import pytest
from scipy import stats as scipy_stats

from sim import stats


@pytest.mark.parametrize("k, n", [(0, 10), (3, 10), (10, 10), (250, 1000), (1, 3),
                                  (49_123, 100_000)])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_wilson_interval_matches_scipy(k, n, confidence):
    ci = scipy_stats.binomtest(k, n).proportion_ci(confidence_level=confidence,
                                                   method="wilson")
    low, high = stats.wilson_interval(k, n, confidence)
    assert low == pytest.approx(ci.low, abs=1e-12)
    assert high == pytest.approx(ci.high, abs=1e-12)


def test_wilson_interval_takes_fractional_successes_and_no_trials():
    low, high = stats.wilson_interval(2.5, 10)
    assert low < 0.25 < high
    assert all(math.isnan(v) for v in stats.wilson_interval(0, 0))


def test_proportion_and_distribution():
    p = stats.proportion(30, 100)
    assert p["n"] == 100 and p["p"] == 0.3 and p["low"] < 0.3 < p["high"]
    d = stats.distribution(np.arange(101))
    assert d == {"mean": 50.0, "median": 50.0, "p95": 95.0}
    assert all(math.isnan(v) for v in stats.distribution(np.array([])).values())
