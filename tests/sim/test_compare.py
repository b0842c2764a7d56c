"""``python -m sim.compare``: variants played with shared seeds, finished runs compared, the
report and headline it writes, and its one-line errors (exit 2, nothing written)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pandas as pd
import pytest

import engines
import sim.compare as compare_cli
from sim.analysis import Run
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


def test_report_and_headline_name_the_real_difference(played):
    out, stdout = played
    assert (out / "report" / "report.html").is_file()
    assert (out / "report" / "report.md").is_file()
    assert f"report: {out / 'report' / 'report.html'}" in stdout
    lines = stdout.splitlines()
    assert lines[0].split()[:2] == ["figure", "variant"]
    # discard=all leaves hands smaller at the end of every round: the first rows say so
    first = lines[1]
    assert "yes" in first and "paired t" in first
    assert any("mean hand_end" in line and " all " in line and "yes" in line
               for line in lines)


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
    assert " yes " not in stdout


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


def test_headline_orders_significant_rows_first():
    table = pd.DataFrame({
        "figure": ["a", "b", "c"], "variant": ["v"] * 3, "baseline_value": [0.0] * 3,
        "value": [1.0] * 3, "diff": [1.0] * 3, "low": [0.0] * 3, "high": [2.0] * 3,
        "p_holm": [0.5, 0.001, 0.01], "significant": [False, True, True],
        "effect_size": [0.1] * 3, "method": ["Welch t"] * 3})
    lines = compare_cli.format_headline(table).splitlines()
    assert [line.split()[0] for line in lines[1:]] == ["b", "c", "a"]
