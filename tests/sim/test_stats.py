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


@pytest.mark.parametrize("k, n, p0", [(30, 100, 0.25), (260, 1000, 0.25), (5, 10, 0.5),
                                      (1, 40, 0.2)])
def test_proportion_test_is_the_test_the_wilson_interval_inverts(k, n, p0):
    z = (k / n - p0) / math.sqrt(p0 * (1 - p0) / n)
    p = stats.proportion_test(k, n, p0)
    assert p == pytest.approx(2 * scipy_stats.norm.sf(abs(z)), rel=1e-12)
    low, high = stats.wilson_interval(k, n)
    assert (p < 0.05) == (not low <= p0 <= high)
    assert math.isnan(stats.proportion_test(0, 0, 0.5))


def test_homogeneity_test_matches_chi2_contingency():
    successes, trials = np.array([10, 30, 50]), np.array([100, 100, 100])
    result = stats.homogeneity_test(successes, trials)
    chi2, p, dof, _ = scipy_stats.chi2_contingency(
        np.column_stack([successes, trials - successes]), correction=False)
    assert result == {"chi2": pytest.approx(chi2), "dof": dof, "p_value": pytest.approx(p)}
    assert stats.homogeneity_test(np.array([25, 25]), np.array([100, 100]))["p_value"] == 1


def test_seat_comparisons_score_each_pair_of_different_agents_once():
    # game 0: seats a, b, a ranked 2, 1, 2; game 1: a, a, b with a tie for first (1, 1, 3)
    agents = np.array([["a", "b", "a"], ["a", "a", "b"]])
    ranks = np.array([[2, 1, 2], [1, 1, 3]])
    game, first, second, score = stats.seat_comparisons(agents, ranks)
    rows = sorted(zip(game.tolist(), first.tolist(), second.tolist(), score.tolist(),
                      strict=True))
    # seat pairs of one agent (a, a) are left out; a tie would score 1/2
    assert rows == [(0, "a", "b", 0.0), (0, "b", "a", 1.0), (1, "a", "b", 1.0),
                    (1, "a", "b", 1.0)]
    _, _, _, tied = stats.seat_comparisons(np.array([["a", "b"]]), np.array([[1, 1]]))
    assert tied.tolist() == [0.5]
