"""The pure functions of the Ascenseur aux atouts report build (reports/ascenseur-atouts/
build.py): the per-game gap between the last and the first dealer, and a per-game mean with
its interval."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytestmark = pytest.mark.jitless

BUILD = Path(__file__).resolve().parents[2] / "reports" / "ascenseur-atouts" / "build.py"


@pytest.fixture(scope="module")
def build():
    spec = importlib.util.spec_from_file_location("ascenseur_report_build", BUILD)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def players_of(winners: list[dict[int, float]], seats: int) -> pd.DataFrame:
    """A players table: game g's win shares by seat (absent seats 0)."""
    return pd.DataFrame([{"game_id": g, "seat": s, "win_share": shares.get(s, 0.0)}
                         for g, shares in enumerate(winners) for s in range(seats)])


def test_the_gap_is_the_last_dealers_share_minus_the_first_dealers(build):
    players = players_of([{3: 1.0}, {0: 1.0}, {1: 1.0}, {0: 0.5, 3: 0.5}], seats=4)
    gap = build.last_dealer_gap(players)
    assert list(gap.index) == [0, 1, 2, 3]
    assert gap.tolist() == [1.0, -1.0, 0.0, 0.0]


def test_the_last_dealer_is_the_seat_before_the_first_dealer(build):
    # first dealer seat 1 at 3 players: the last in dealing order is seat 0
    players = players_of([{0: 1.0}, {2: 1.0}, {1: 1.0}], seats=3)
    assert build.last_dealer_gap(players, first_dealer=1).tolist() == [1.0, 0.0, -1.0]


def test_game_mean_has_a_normal_interval_over_games(build):
    values = pd.Series([1.0, -1.0, 1.0, 1.0])
    figure = build.game_mean(values)
    half = 1.96 * np.std([1.0, -1.0, 1.0, 1.0], ddof=1) / 2
    assert figure["value"] == pytest.approx(0.5)
    assert figure["low"] == pytest.approx(0.5 - half)
    assert figure["high"] == pytest.approx(0.5 + half)


def test_game_mean_of_one_game_has_no_interval(build):
    figure = build.game_mean(pd.Series([0.25]))
    assert figure["value"] == 0.25 and np.isnan(figure["low"]) and np.isnan(figure["high"])


def test_pp_writes_a_signed_difference_in_points(build):
    assert build.pp({"value": 0.031, "low": -0.004, "high": 0.066}) == "+3.1 pp [-0.4, +6.6]"


def test_plain_range_gives_one_number_when_the_ends_print_alike(build):
    cells = pd.DataFrame({"x": [0.5, 0.5001, 0.4999], "y": [0.12, 0.3, 0.2]})
    assert build.plain_range(cells, "x") == "0.50"
    assert build.plain_range(cells, "y") == "0.12 to 0.30"
