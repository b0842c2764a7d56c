"""The pure functions of the Ascenseur aux atouts report build (reports/ascenseur-atouts/
build.py): the per-game gap between the last and the first dealer, a per-game mean with its
interval, the meta-games that ``make ascenseur-report`` plays and the figures at tables drawn
from a mix of the pool."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.metagame import build_parser as metagame_parser
from sim.metagame import lineup_specs, settings_from_args

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


def test_every_meta_game_make_plays_is_a_valid_command(build, tmp_path):
    lines = build.metagame_lines(tmp_path)
    assert len(lines) == len(build.METAGAMES)
    folders = set()
    for line, (players, ending) in zip(lines, build.METAGAMES, strict=True):
        out, arguments, analysis = line.split("|")
        assert Path(out).parent == tmp_path and analysis == build.ANALYSIS
        folders.add(Path(out).name)
        args = metagame_parser().parse_args(arguments.split() + analysis.split()
                                            + ["--out", str(tmp_path / "o")])
        settings, _ = settings_from_args(args)
        assert settings["players"] == players and settings["agents"] == list(build.POOL)
        assert settings["variant"] == ([] if ending == build.BASE
                                       else ["ending=round-of-dealers"])
        assert lineup_specs(settings)               # every lineup validated, none played
    assert len(folders) == len(lines)


def test_lineup_figures_are_the_dealer_gap_and_the_hands_per_game(build, monkeypatch):
    tables = {"players": players_of([{2: 1.0}, {0: 1.0}, {2: 1.0}, {1: 1.0}], seats=3),
              "games": pd.DataFrame({"rounds": [10, 14, 12, 12]})}
    monkeypatch.setattr(build.results, "load", lambda folder, table, columns: tables[table])
    figures = build.lineup_figures(Path("unused"))
    assert figures["gap"] == pytest.approx(0.25)        # last dealer +2, first dealer +1
    assert figures["hands"] == pytest.approx(12.0)
    assert figures["hands_low"] < 12.0 < figures["hands_high"]


def test_mix_figures_weight_each_table_by_its_chance_in_the_mix(build, monkeypatch):
    per_table = {"a+a": 0.10, "a+b": 0.30, "b+b": 0.50}
    monkeypatch.setattr(build, "lineup_figures", lambda folder: {
        name: per_table[folder.name] + shift for name, shift in
        (("gap", 0.0), ("gap_low", -0.01), ("gap_high", 0.01), ("hands", 0.0),
         ("hands_low", -0.01), ("hands_high", 0.01))})
    game = {"agents": ["a", "b"], "equilibrium": {"a": 1.0, "b": 0.0},
            "payoff_table": [{"lineup": t} for t in per_table]}
    figures = build.mix_figures(Path("meta"), game)
    assert figures["equilibrium"]["gap"] == pytest.approx(0.10)     # only a+a is drawn
    # uniform: a+a 1/4, a+b 1/2, b+b 1/4
    assert figures["uniform"]["gap"] == pytest.approx(0.25 * 0.1 + 0.5 * 0.3 + 0.25 * 0.5)
    assert figures["uniform"]["hands"] == pytest.approx(figures["uniform"]["gap"])
