"""``python -m sim.compare``: variants played with shared seeds, finished runs compared, the
report and headline it writes, and its one-line errors (exit 2, nothing written)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pandas as pd
import pytest

import engines
import sim.compare as compare_cli
from sim.analysis import Run, compare
from sim.cli import UsageError
from tests.sim.report_support import make_run
from tests.sim.test_batch_support import ROOT, call_main, run_module

GAMES = 1500


compare_main = partial(call_main, compare_cli.main)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, str]:
    """Three variants of paris-damis played by sim.compare: (output dir, stdout)."""
    out = tmp_path_factory.mktemp("compare") / "out"
    code, stdout, stderr = compare_main(
        "paris-damis", "--games", GAMES, "--seed", 5, "--jobs", 1, "--no-progress",
        "--out", out, "--variant", "base:", "--variant", "all:discard=all",
        "--variant", "table:correct_bet_cards=9,10,11,12,correct_bet_by=order")
    assert code == 0, stderr
    return out, stdout


def test_variants_are_played_with_the_same_seed_into_named_runs(played):
    out, _ = played
    runs = {name: Run.open(out / name, label=name) for name in ("base", "all", "table")}
    assert {r.seed for r in runs.values()} == {5}
    assert all(len(r.games) == GAMES for r in runs.values())
    assert runs["all"].params["discard"] == "all"
    assert runs["table"].params["correct_bet_cards"] == "9,10,11,12"
    assert runs["table"].params["correct_bet_by"] == "order"
    assert runs["base"].params["discard"] == "half-down"


def variant_rows(stdout: str, variant: str, baseline: str = "base") -> list[str]:
    """The console rows of one variant (after its title and the header line)."""
    lines = stdout.splitlines()
    start = lines.index(f"{variant} against {baseline}:") + 2
    return lines[start:lines.index("", start)]


def test_report_and_headline_name_the_real_difference(played):
    out, stdout = played
    assert (out / "report" / "report.html").is_file()
    assert (out / "report" / "report.md").is_file()
    assert f"report: {out / 'report' / 'report.html'}" in stdout
    lines = stdout.splitlines()
    assert lines[0] == "all against base:"
    assert lines[1].split()[:3] == ["figure", "baseline", "value"]
    # discard=all leaves hands smaller at the end of every round: the first rows say so
    rows = variant_rows(stdout, "all")
    assert rows[0].endswith("significant")
    assert any(row.startswith("mean hand_end") and row.endswith("significant")
               for row in rows)
    assert "Tests: paired t (" in " ".join(stdout.split())


def test_the_console_is_readable(played):
    out, stdout = played
    assert max(map(len, stdout.splitlines()[:-2])) <= compare_cli.WIDTH   # not the paths
    assert "e-" not in stdout and "e+" not in stdout                       # no 1e-13
    table = pd.read_csv(out / compare_cli.COMPARISON_CSV)
    rows = variant_rows(stdout, "all")
    assert len(rows) == (table["variant"] == "all").sum()
    seat = next(row for row in rows if row.startswith("win share seat 0"))
    assert "%" in seat and " pp [" in seat                  # shares in percent, pp
    for row in rows:
        p = row.split("  ")
        assert any(cell.strip() == "< 0.001" or cell.strip().replace(".", "").isdigit()
                   and len(cell.strip()) == 5 for cell in p), row


def test_intervals_agree_with_the_adjusted_p_values(played):
    out, _ = played
    table = pd.read_csv(out / compare_cli.COMPARISON_CSV)
    assert (table["significant"] == ((table["low_adj"] > 0) | (table["high_adj"] < 0))).all()
    assert ((table["low_adj"] <= table["low"]) & (table["high_adj"] >= table["high"])).all()
    m = len(table)
    assert table["confidence_adj"].between(0.95, 1 - 0.05 / m + 1e-12).all()


def test_the_csv_keeps_full_precision(played):
    out, _ = played
    table = pd.read_csv(out / compare_cli.COMPARISON_CSV)
    runs = [Run.open(out / name, label=name) for name in ("base", "all", "table")]
    again = compare(runs)
    for column in ("diff", "low", "high", "p_value", "p_holm", "low_adj", "high_adj",
                   "effect_size"):
        assert table[column].to_numpy() == pytest.approx(again[column].to_numpy(),
                                                         rel=1e-12, abs=1e-300, nan_ok=True)


def test_min_effect_marks_significant_but_small_differences_negligible(tmp_path):
    a = make_run(tmp_path / "a")
    b = make_run(tmp_path / "b", "--variant", "discard=all")
    verdicts = {}
    for size in (0, 100):
        out = tmp_path / f"cmp-{size}"
        code, stdout, stderr = compare_main(a, b, "--out", out, "--min-effect", size)
        assert code == 0, stderr
        table = pd.read_csv(out / compare_cli.COMPARISON_CSV)
        assert table["significant"].any()
        assert table["negligible"].tolist() == (table["effect_size"].abs() < size).tolist()
        verdicts[size] = [row.split()[-1] for row in variant_rows(stdout, "b", "a")]
    assert "negligible" not in verdicts[0] and "significant" in verdicts[0]
    assert "significant" not in verdicts[100] and "negligible" in verdicts[100]
    md = (tmp_path / "cmp-100" / "report" / "report.md").read_text()
    assert "significant but negligible differences" in md


def test_finished_runs_are_compared_paired(tmp_path):
    a = make_run(tmp_path / "a")
    b = make_run(tmp_path / "b", "--variant", "discard=all")
    out = tmp_path / "cmp"
    code, stdout, stderr = compare_main(a, b, "--out", out)
    assert code == 0, stderr
    md = (out / "report" / "report.md").read_text()
    assert "discard" in md
    assert "paired t" in stdout


def test_a_run_compared_with_itself_shows_nothing_significant(tmp_path):
    a = make_run(tmp_path / "a")
    code, stdout, stderr = compare_main(a, a, "--out", tmp_path / "cmp")
    assert code == 0, stderr
    rows = variant_rows(stdout, "a-1", "a")
    assert rows and all(row.endswith(" no") for row in rows)


@pytest.mark.parametrize("text, name, items", [
    ("base:", "base", []),
    ("wild:jokers=2,joker_rule=wild", "wild", ["jokers=2", "joker_rule=wild"]),
    ("t:correct_bet_cards=9,10,11,12,discard=none", "t",
     ["correct_bet_cards=9,10,11,12", "discard=none"]),
])
def test_variant_syntax(text, name, items):
    assert compare_cli.parse_variant(text) == (name, items)


@pytest.mark.parametrize("text", ["nocolon", ":jokers=2", "a b:jokers=2", "x:9,jokers=1"])
def test_bad_variant_syntax_is_refused(text):
    with pytest.raises(UsageError):
        compare_cli.parse_variant(text)


@pytest.mark.parametrize("args, message", [
    (["paris-damis", "--variant", "base:"], "at least two --variant"),
    (["paris-damis", "--variant", "a:", "--variant", "a:jokers=1"], "given twice"),
    (["paris-damis", "--variant", "a:", "--variant", "b:jokers=9"], "valid values: 0..2"),
    (["paris-damis", "--variant", "a:", "--variant", "b:colour=red"], "valid keys"),
    (["paris-damis", "--variant", "a:", "--variant", "b:", "--agents", "nobody"],
     "available agents"),
    (["paris-damis", "--variant", "a:", "--variant", "b:", "--players", "9"], "players"),
    (["paris-damis", "--variant", "a:", "--variant", "b:", "--min-effect", "-1"],
     "--min-effect must be a non-negative effect size"),
    (["chess", "x"], f"neither a game (games: {', '.join(engines.available())})"),
    (["chess", "--variant", "a:"], "not a game"),
    ([ROOT, "no-such-run"], "not a run directory"),
    ([ROOT], "two or more run directories"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "out"
    code, stdout, stderr = compare_main(*args, "--out", out)
    assert code == 2
    assert stderr.count("\n") == 1 and message in stderr, stderr
    assert stderr.startswith("sim.compare: error: ")
    assert not out.exists()


def test_a_non_empty_out_is_refused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    code, _, stderr = compare_main("paris-damis", "--variant", "a:", "--variant", "b:",
                                   "--out", out)
    assert code == 2 and "not an empty directory" in stderr
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


@pytest.mark.slow
def test_help_explains_both_forms(tmp_path):
    result = run_module("sim.compare", "--help", cwd=tmp_path)
    assert result.returncode == 0
    assert "--variant NAME:KEY=VALUE" in result.stdout
    assert "RUN_DIR" in result.stdout and "baseline" in result.stdout


def test_headline_orders_significant_rows_first_and_fits_100_columns():
    long = "share-of-" + "x" * 120
    table = pd.DataFrame({
        "figure": ["a", "b", "c", long], "kind": ["mean"] * 3 + ["proportion"],
        "baseline": ["base"] * 4, "variant": ["v"] * 4, "baseline_value": [0.0] * 3 + [0.25],
        "value": [1.0] * 3 + [0.5], "diff": [1.0] * 3 + [0.25],
        "low_adj": [-0.5, 0.5, 0.2, 0.2], "high_adj": [2.5, 1.5, 1.8, 0.3],
        "confidence_adj": [0.95, 0.9875, 0.98, 0.975], "p_value": [0.5, 0.0002, 0.005, 0.01],
        "p_holm": [0.5, 0.0008, 0.015, 0.02], "significant": [False, True, True, True],
        "effect_size": [0.1, 0.1, 0.01, 0.5], "effect": ["Cohen's d"] * 3 + ["Cohen's h"],
        "negligible": [False, False, True, False], "method": ["Welch t"] * 4})
    lines = compare_cli.format_headline(table).splitlines()
    assert lines[0] == "v against base:"
    rows = lines[2:6]
    cut = rows[2].split()[0]
    assert [line.split()[0] for line in rows] == ["b", "c", cut, "a"]
    assert cut.endswith("…") and long.startswith(cut[:-1])
    assert [line.split()[-1] for line in rows] == ["significant", "negligible",
                                                   "significant", "no"]
    assert "< 0.001" in rows[0] and "0.015" in rows[1] and "+25.0 pp [+20.0, +30.0]" in rows[2]
    assert "d +0.10" in rows[0] and "h +0.50" in rows[2] and "25.0%" in rows[2]
    assert max(map(len, lines)) <= compare_cli.WIDTH
