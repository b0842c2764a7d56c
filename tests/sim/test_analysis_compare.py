"""Opening runs (sim.analysis.run) and comparing them (sim.analysis.compare): real small runs
made once per session, and hand-built runs whose tests are checked against scipy and by
hand."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

import sim.batch.cli
from sim.analysis import Run, analyze, compare, headline
from sim.analysis.compare import COLUMNS, adjusted_confidence, paired

GAMES = 3000


@pytest.fixture(scope="session")
def run_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Three runs of paris-damis: the default rules and discard=all with seed 0, and the
    default rules with seed 1."""
    root = tmp_path_factory.mktemp("analysis-runs")
    made = {"base": [], "discard-all": ["--variant", "discard=all"], "seed-1": ["--seed", "1"]}
    for name, extra in made.items():
        status = sim.batch.cli.main(["paris-damis", "--games", str(GAMES), "--out",
                                     str(root / name), "--no-progress", "--jobs", "1", *extra])
        assert status == 0
    return {name: root / name for name in made}


@pytest.fixture(scope="session")
def runs(run_dirs: dict[str, Path]) -> dict[str, Run]:
    return {name: Run.open(path) for name, path in run_dirs.items()}


def toy_run(label: str, decisions: np.ndarray, seed: int = 0,
            win_seat: np.ndarray | None = None) -> Run:
    """A two-player run: one game per value of ``decisions``, won by ``win_seat``."""
    n = len(decisions)
    win_seat = np.zeros(n, dtype=int) if win_seat is None else win_seat
    games = pd.DataFrame({"game_id": np.arange(n), "decisions": decisions})
    players = pd.DataFrame({"game_id": np.repeat(np.arange(n), 2),
                            "seat": np.tile([0, 1], n),
                            "agent": "random",
                            "win_share": np.column_stack([win_seat == 0, win_seat == 1])
                            .reshape(-1).astype(float)})
    manifest = {"status": "complete", "spec": {"game": "toy", "agents": ["random"] * 2,
                                               "seed": seed, "params": {}}}
    return Run(path=Path(label), manifest=manifest, games=games, players=players,
               rounds=None, label=label)


def row(table: pd.DataFrame, figure: str) -> pd.Series:
    """The one row of ``figure`` in a comparison of two runs."""
    match = table[table["figure"] == figure]
    assert len(match) == 1, figure
    return match.iloc[0]


# --------------------------------------------------------------------------------------
# Run
# --------------------------------------------------------------------------------------
def test_open_reads_the_manifest_and_the_tables(runs):
    run = runs["discard-all"]
    assert run.label == "discard-all"
    assert (run.game, run.seed, run.n_players, run.first_seat) == ("paris-damis", 0, 4, 0)
    assert run.agents == ["random"] * 4
    assert run.params["discard"] == "all"
    assert len(run.games) == GAMES and len(run.players) == 4 * GAMES
    assert run.rounds is not None and run.has("rounds", "bet", "bet_correct")
    assert not run.has("games", "no-such-column")
    assert Run.open(run.path, label="other").label == "other"


def test_open_refuses_a_missing_directory(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(ValueError, match=r"nowhere: no such run directory"):
        Run.open(missing)


def test_open_refuses_an_incomplete_run(run_dirs, tmp_path):
    copy = tmp_path / "interrupted"
    shutil.copytree(run_dirs["base"], copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    (copy / "manifest.json").write_text(json.dumps(manifest | {"status": "running"}))
    with pytest.raises(ValueError, match="incomplete run .* --resume"):
        Run.open(copy)


# --------------------------------------------------------------------------------------
# Real runs
# --------------------------------------------------------------------------------------
def test_a_run_compared_with_itself_shows_no_difference(runs, run_dirs):
    table = compare([runs["base"], Run.open(run_dirs["base"], label="again")])
    assert list(table.columns) == COLUMNS
    assert table["paired"].all()
    assert (table["diff"] == 0).all() and (table["p_holm"] == 1).all()
    assert not table["significant"].any()


def test_same_rules_with_another_seed_show_no_significant_difference(runs):
    table = compare([runs["base"], runs["seed-1"]])
    assert not table["paired"].any()
    assert not table["method"].str.startswith("paired").any()
    assert not table["significant"].any(), table[table["significant"]]


def test_discard_all_moves_game_length_and_hand_size(runs):
    table = compare([runs["base"], runs["discard-all"]])
    decisions, hand_end = row(table, "mean decisions"), row(table, "mean hand_end")
    assert decisions["significant"] and decisions["diff"] > 0 and decisions["low"] > 0
    assert hand_end["significant"] and hand_end["diff"] < 0 and hand_end["high"] < 0
    assert decisions["effect"] == "Cohen's d" and abs(decisions["effect_size"]) > 1
    seats = table[table["figure"].str.startswith("win share seat")]
    assert len(seats) == 4 and not seats["significant"].any()


def test_compare_values_are_the_figures_of_analyze(runs):
    table = compare([runs["base"], runs["discard-all"]])
    figures = analyze(runs["discard-all"])
    by_seat = figures["win_share_by_seat"].set_index("seat")["share"]
    for seat in range(4):
        assert row(table, f"win share seat {seat}")["value"] == pytest.approx(by_seat[seat])
    by_bet = figures["bet_accuracy_by_value"].set_index("bet")["accuracy"]
    for bet in range(1, 5):
        assert row(table, f"bet accuracy bet {bet}")["value"] == pytest.approx(by_bet[bet])
    assert row(table, "first-player edge")["value"] == pytest.approx(
        figures["first_player_edge"]["edge"])
    assert row(table, "mean decisions")["value"] == pytest.approx(
        figures["decisions"]["mean"])
    assert row(table, "shared-win rate")["value"] == pytest.approx(
        figures["decisive"]["shared_win"]["p"])
    assert row(table, "mean margin")["value"] == pytest.approx(figures["margins"].mean())
    k = figures["k_distribution"]
    assert row(table, "mean k")["value"] == pytest.approx((k["k"] * k["share"]).sum())


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment, written out: the i-th smallest p times (m - i), kept
    monotone and at most 1."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted, running = [0.0] * m, 0.0
    for step, i in enumerate(order):
        running = max(running, min(1.0, (m - step) * p_values[i]))
        adjusted[i] = running
    return adjusted


def test_p_holm_is_holm_over_the_whole_table(runs):
    table = compare([runs["base"], runs["discard-all"], runs["seed-1"]])
    assert set(table["variant"]) == {"discard-all", "seed-1"}
    assert table["p_holm"].tolist() == pytest.approx(holm(table["p_value"].tolist()))
    assert (table["significant"] == (table["p_holm"] < 0.05)).all()


def test_headline_puts_significant_rows_first_by_adjusted_p(runs):
    table = headline(compare([runs["base"], runs["discard-all"]]))
    significant = table["significant"].to_numpy()
    first_other = int(np.argmin(significant))
    assert significant[:first_other].all() and not significant[first_other:].any()
    assert table["p_holm"].is_monotonic_increasing


# --------------------------------------------------------------------------------------
# Pairing and the tests, on hand-built runs
# --------------------------------------------------------------------------------------
def test_paired_needs_same_game_seed_players_and_games(runs):
    assert paired(runs["base"], runs["discard-all"])
    assert not paired(runs["base"], runs["seed-1"])
    values = np.arange(10)
    assert paired(toy_run("a", values), toy_run("b", values + 1))
    assert not paired(toy_run("a", values), toy_run("b", values, seed=1))
    assert not paired(toy_run("a", values), toy_run("b", np.arange(11)))
    shifted = toy_run("b", values)
    shifted.games["game_id"] += 1
    assert not paired(toy_run("a", values), shifted)
    assert not paired(runs["base"], toy_run("b", values))


def test_paired_t_is_used_when_it_lowers_the_standard_error():
    rng = np.random.default_rng(5)
    x = rng.normal(100, 10, size=200)
    y = x + 1 + rng.normal(0, 1, size=200)          # common random numbers: small spread
    result = row(compare([toy_run("a", x), toy_run("b", y)]), "mean decisions")
    reference = scipy_stats.ttest_rel(y, x)
    interval = reference.confidence_interval(0.95)
    assert result["paired"] and result["method"] == "paired t"
    assert result["p_value"] == pytest.approx(reference.pvalue)
    assert (result["low"], result["high"]) == pytest.approx((interval.low, interval.high))
    assert result["diff"] == pytest.approx(np.mean(y - x))
    assert result["significant"]


def test_welch_t_is_kept_when_pairing_raises_the_standard_error():
    rng = np.random.default_rng(6)
    x = rng.normal(100, 10, size=200)
    y = 200 - x                                     # anti-correlated: pairing hurts
    result = row(compare([toy_run("a", x), toy_run("b", y)]), "mean decisions")
    reference = scipy_stats.ttest_ind(y, x, equal_var=False)
    interval = reference.confidence_interval(0.95)
    assert result["paired"] and result["method"] == "Welch t"
    assert result["p_value"] == pytest.approx(reference.pvalue)
    assert (result["low"], result["high"]) == pytest.approx((interval.low, interval.high))
    spread = math.sqrt((np.var(x, ddof=1) + np.var(y, ddof=1)) / 2)
    assert result["effect_size"] == pytest.approx((y.mean() - x.mean()) / spread)


def test_unpaired_proportions_use_the_two_proportion_z_test():
    base = toy_run("a", np.zeros(100), win_seat=(np.arange(100) >= 40).astype(int))
    variant = toy_run("b", np.zeros(200), seed=1,
                      win_seat=(np.arange(200) >= 110).astype(int))
    result = row(compare([base, variant]), "win share seat 0")
    # seat 0 won 40 of 100 games, then 110 of 200
    se = math.sqrt(0.4 * 0.6 / 100 + 0.55 * 0.45 / 200)
    z = scipy_stats.norm.ppf(0.975)
    assert not result["paired"] and result["method"] == "two-proportion z"
    assert result["diff"] == pytest.approx(0.15)
    assert result["p_value"] == pytest.approx(2 * scipy_stats.norm.sf(0.15 / se))
    assert (result["low"], result["high"]) == pytest.approx((0.15 - z * se, 0.15 + z * se))
    assert result["effect"] == "Cohen's h"
    assert result["effect_size"] == pytest.approx(2 * math.asin(math.sqrt(0.55))
                                                  - 2 * math.asin(math.sqrt(0.4)))
    edge = row(compare([base, variant]), "first-player edge")
    assert (edge["baseline_value"], edge["value"]) == pytest.approx((-0.1, 0.05))


def test_holm_reference_adjusts_p_values_step_down():
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04 -> kept monotone
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.6, 0.001]) == pytest.approx([1.0, 1.0, 0.003])


def test_compare_needs_two_runs_with_distinct_labels():
    run = toy_run("a", np.arange(5))
    with pytest.raises(ValueError, match="distinct labels"):
        compare([run, toy_run("a", np.arange(5))])
    with pytest.raises(ValueError, match="at least two runs"):
        compare([run])


def test_figures_whose_games_weigh_differently_are_not_paired():
    """Bet accuracy of one bet value counts 0 to n bets per game: the mean of per-game
    differences would not be the difference of the figures, so the z test is kept and the
    interval holds the difference."""
    rng = np.random.default_rng(4)

    def with_rounds(label: str, correct: np.ndarray) -> Run:
        run = toy_run(label, np.full(300, 50))
        bets = rng.integers(1, 3, size=len(correct))
        rounds = pd.DataFrame({"game_id": np.repeat(np.arange(300), 4),
                               "seat": np.tile([0, 1], 600), "round": np.tile([1, 1, 2, 2], 300),
                               "bet": bets, "bet_correct": correct, "k": 1, "hand_end": 3})
        return Run(run.path, run.manifest, run.games, run.players, rounds, label)

    base = with_rounds("base", rng.random(1200) < 0.4)
    variant = with_rounds("variant", rng.random(1200) < 0.5)
    table = compare([base, variant])
    by_value = row(table, "bet accuracy bet 1")
    assert by_value["method"] == "two-proportion z"
    assert by_value["low"] <= by_value["diff"] <= by_value["high"]
    assert row(table, "bet accuracy")["method"] == "paired t"


def test_adjusted_intervals_leave_zero_out_exactly_when_significant(runs):
    table = compare([runs["base"], runs["discard-all"], runs["seed-1"]])
    excludes_zero = (table["low_adj"] > 0) | (table["high_adj"] < 0)
    assert table["significant"].any() and (~table["significant"]).any()
    assert (excludes_zero == table["significant"]).all()
    # widened from the plain 95% interval, never beyond Bonferroni's level
    assert ((table["low_adj"] <= table["low"]) & (table["high_adj"] >= table["high"])).all()
    assert table["confidence_adj"].between(0.95, 1 - 0.05 / len(table) + 1e-12).all()


@pytest.mark.parametrize("p, p_holm, rows, level", [
    (0.01, 0.03, 5, 1 - 0.05 / 3),          # Holm multiplied this p by 3
    (0.3, 1.0, 4, 1 - 0.05 * 0.3),          # capped at 1: never significant, still widened
    (0.0, 0.0, 7, 1 - 0.05 / 7),            # no p to divide by: Bonferroni's level
    (0.04, 0.04, 3, 0.95),                  # the largest p of a table is not adjusted
])
def test_adjusted_confidence_is_the_level_of_the_holm_factor(p, p_holm, rows, level):
    assert adjusted_confidence(p, p_holm, rows, 0.95) == pytest.approx(level)


def test_negligible_marks_effects_below_the_threshold(runs):
    strict = compare([runs["base"], runs["discard-all"]], min_effect=0.0)
    lenient = compare([runs["base"], runs["discard-all"]], min_effect=10.0)
    assert not strict["negligible"].any()
    assert lenient["negligible"].equals(lenient["effect_size"].abs() < 10.0)
    assert lenient.loc[lenient["significant"], "negligible"].all()
    # the verdict does not touch the test
    assert strict["significant"].equals(lenient["significant"])
