"""Figures (sim.analysis.figures) and reports (sim.report): a run's report, a report without
rounds, a comparison report, the summary's wording and the command line's error paths.

The rendering of report.html in a real browser is in test_report_render.py."""

from __future__ import annotations

import json
import re
import shutil
from itertools import combinations
from pathlib import Path

import matplotlib.text
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

import sim.report as report
from sim import results, stats
from sim.analysis import Run, analyze, compare
from sim.analysis import figures as tournament_figures
from sim.analysis.figures import Figure, forest, run_figures
from tests.sim.report_support import make_run
from tests.sim.test_batch_support import ROOT, run_module

RUN_FIGURES = {"win_share_by_seat", "bet_accuracy_by_value_position", "k_distribution",
               "game_length", "hand_size_by_round"}
ROUND_FIGURES = {"bet_accuracy_by_value_position", "k_distribution", "hand_size_by_round"}


@pytest.fixture(scope="session")
def runs(tmp_path_factory) -> dict[str, Path]:
    """A small baseline run, the same games with discard=all, and the baseline without its
    rounds table (as a game not played in rounds)."""
    folder = tmp_path_factory.mktemp("report-runs")
    base = make_run(folder / "base")
    no_rounds = folder / "no-rounds"
    shutil.copytree(base, no_rounds, ignore=shutil.ignore_patterns("rounds"))
    manifest = results.read_manifest(no_rounds)     # as a game without rounds records it
    for record in manifest["chunks"].values():
        del record["files"]["rounds"]
    results.write_manifest(no_rounds, manifest)
    return {"base": base, "all": make_run(folder / "all", "--variant", "discard=all"),
            "no-rounds": no_rounds}


@pytest.fixture(scope="session")
def opened(runs) -> list[Run]:
    return [Run.open(runs["base"]), Run.open(runs["all"])]


def tournament_and_experiment_figures() -> list[Figure]:
    """The tournament figures and an experiment figure, from small hand-built tables."""
    rated = pd.DataFrame({"agent": ["greedy", "cautious", "random"],
                          "rating": [180.0, 90.0, 0.0], "low": [150.0, 60.0, 0.0],
                          "high": [210.0, 120.0, 0.0]})
    shares = pd.DataFrame({"agent": ["greedy", "cautious"], "share": [0.41, 0.3],
                           "low": [0.40, 0.29], "high": [0.42, 0.31]})
    upsets = pd.DataFrame({"stronger": ["greedy", "all"], "weaker": ["random", "all"],
                           "share": [0.3, 0.32], "low": [0.29, 0.31], "high": [0.31, 0.33]})
    cells = pd.DataFrame({"players": [2, 2, 3, 3], "lineup": ["random", "greedy"] * 2,
                          "edge": [0.01, 0.02, -0.01, 0.0], "edge_low": [0.0, 0.01, -0.02, -0.01],
                          "edge_high": [0.02, 0.03, 0.0, 0.01]})
    chain = ["random", "cautious", "greedy"]
    return [tournament_figures.ratings(rated, chain),
            tournament_figures.skill_depth(shares, 4, chain), tournament_figures.luck(upsets),
            tournament_figures.grouped_intervals(
                cells, "players", "lineup", "edge", name="edge", title="First-player edge",
                caption="Edge by players and lineup.", xlabel="players (count)",
                ylabel="edge (share of games)", reference=0.0, percent=True)]


@pytest.fixture(scope="session")
def figures(opened) -> list[Figure]:
    base = opened[0]
    return (run_figures(analyze(base), base.n_players) + [forest(compare(opened))]
            + tournament_and_experiment_figures())


# --------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------
def plot_axes(figure: Figure) -> list:
    """The figure's plotting axes (not its colour bars)."""
    return [ax for ax in figure.figure.axes if ax.get_label() != "<colorbar>"]


def test_run_and_comparison_figures_are_drawn(figures):
    assert {f.name for f in figures} == RUN_FIGURES | {"differences", "ratings", "skill_depth",
                                                       "luck", "edge"}


def test_every_figure_has_a_title_labelled_axes_and_a_one_sentence_caption(figures):
    for figure in figures:
        assert figure.figure.get_suptitle() == figure.title != ""
        for ax in plot_axes(figure):
            assert ax.get_xlabel() and ax.get_ylabel(), (figure.name, ax)
        assert figure.caption.endswith(".") and ". " not in figure.caption, figure.caption


@pytest.mark.slow
def test_figures_are_legible(figures):
    """Report-sized, no text under 9 pt, and no two tick labels of an axis overlapping."""
    for figure in figures:
        canvas = FigureCanvasAgg(figure.figure)
        canvas.draw()
        width, height = figure.figure.get_size_inches()
        assert width == 7 and height >= 3
        texts = [t for t in figure.figure.findobj(matplotlib.text.Text) if t.get_text()]
        assert min(t.get_fontsize() for t in texts) >= 9, figure.name
        renderer = canvas.get_renderer()
        for ax in plot_axes(figure):
            for labels in (ax.get_xticklabels(), ax.get_yticklabels()):
                boxes = [t.get_window_extent(renderer) for t in labels if t.get_text()]
                assert not any(a.overlaps(b) for a, b in combinations(boxes, 2)), figure.name


def test_forest_marks_significant_rows(opened):
    table = compare(opened)
    ax = plot_axes(forest(table))[0]
    bold = {t.get_text() for t in ax.get_yticklabels() if t.get_fontweight() == "bold"}
    shares = table[table["kind"] == "proportion"]
    assert bold == set(shares.loc[shares["significant"], "figure"])


# --------------------------------------------------------------------------------------
# A run's report
# --------------------------------------------------------------------------------------
def check_report_files(folder: Path, figure_names: set[str]) -> tuple[str, str]:
    """The report's files are all there, and its HTML embeds every figure and loads
    nothing from the network; returns (markdown, html)."""
    assert {p.name for p in folder.iterdir()} == \
        {"report.md", "report.html"} | {f"{n}.png" for n in figure_names}
    md = (folder / "report.md").read_text(encoding="utf-8")
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert page.count('src="data:image/png;base64,') == len(figure_names)
    assert not re.search(r"https?://", page) and "<link" not in page
    assert all(f"]({n}.png)" in md for n in figure_names)
    return md, page


@pytest.fixture(scope="session")
def base_report(runs, tmp_path_factory) -> Path:
    return report.write_report(runs["base"], tmp_path_factory.mktemp("reports") / "base")


def test_run_report_lists_parameters_tables_and_figures(runs, base_report):
    md, page = check_report_files(base_report, RUN_FIGURES)
    manifest = json.loads((runs["base"] / "manifest.json").read_text())
    for key, value in manifest["spec"]["params"].items():
        assert f"| {key} | {value} |" in md
    assert md.startswith("# paris-damis: report on run base\n\n## Verdict")
    assert md.index("## Game length") < md.index("## Parameters")
    for title in ("Win share by seat", "Bet accuracy by bet value",
                  "Game length: mean and percentiles"):
        assert f"**{title}**" in md and f">{title}</p>" in page
    assert md.index("## Summary") < md.index("## Win shares")


def test_run_report_summary_says_what_is_significant(base_report):
    md = (base_report / "report.md").read_text(encoding="utf-8")
    summary = md[md.index("## Summary"):md.index("## Win shares")]
    assert re.search(r"Seat 0, the first to play, wins \d+\.\d% \[\d+\.\d, \d+\.\d\] of its "
                     r"games, (not significantly different from|significantly (more|less) "
                     r"than) the fair 25\.0% \(p [=<] 0\.\d{3}\)\.", summary)
    assert "Bet accuracy differs significantly by bet value (p < 0.001)" in summary
    assert "by betting position" in summary


def test_report_of_a_game_without_rounds_has_no_round_figures(runs, tmp_path):
    out = report.write_report(runs["no-rounds"], tmp_path / "report")
    md, _ = check_report_files(out, RUN_FIGURES - ROUND_FIGURES)
    assert "## Bets" not in md and "Bet accuracy" not in md


@pytest.mark.slow
def test_default_folder_is_in_the_run_and_a_second_report_replaces_the_first(runs, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(runs["base"], run)
    assert report.write_report(run) == run / "report"
    (run / "report" / "stale.png").write_bytes(b"")
    report.write_report(run)
    check_report_files(run / "report", RUN_FIGURES)
    # no staging folder left behind; the run's lock file stays (docs/results.md)
    assert sorted(p.name for p in run.iterdir() if p.name.startswith(".")) == [".lock"]


# --------------------------------------------------------------------------------------
# The summary's wording
# --------------------------------------------------------------------------------------
def win_row(wins: float, n: int) -> dict[str, float]:
    low, high = stats.wilson_interval(wins, n)
    return {"wins": wins, "n": n, "share": wins / n, "low": low, "high": high}


@pytest.mark.parametrize("wins, verdict", [
    (2610, "significantly more than the fair 25.0% (p = 0.011)"),
    (2390, "significantly less than the fair 25.0% (p = 0.011)"),
    (2520, "not significantly different from the fair 25.0% (p = 0.644)")])
def test_share_sentence(wins, verdict):
    sentence = report.share_sentence("Seat 0", win_row(wins, 10_000), 0.25)
    assert sentence.startswith(f"Seat 0 wins {wins / 100:.1f}% [")
    assert sentence.endswith(f"of its games, {verdict}.")


def test_group_sentence_names_the_least_and_most_accurate_groups():
    table = pd.DataFrame({"bet": [1, 2, 3], "n": [1000] * 3, "correct": [100, 500, 300]})
    table["accuracy"] = table["correct"] / table["n"]
    assert report.group_sentence(table, "bet", "bet value") == (
        "Bet accuracy differs significantly by bet value (p < 0.001): from 10.0% (bet value 1) "
        "to 50.0% (bet value 2).")
    table["correct"] = [300, 310, 305]
    assert "does not differ significantly" in report.group_sentence(table, "bet", "bet")


# --------------------------------------------------------------------------------------
# A comparison's report
# --------------------------------------------------------------------------------------
def test_comparison_report(opened, tmp_path):
    table = compare(opened)
    out = report.write_comparison_report(opened, table, tmp_path / "comparison")
    md, _ = check_report_files(out, {"differences"})
    assert md.startswith("# paris-damis: all (discard=all) compared with base")
    assert "| all | variant | 1,000 | 3 | discard=all |" in md
    summary = md[md.index("## Summary"):md.index("## Differences")]
    for figure in table.loc[table["significant"], "figure"]:
        assert f"all (discard=all): {figure} changes significantly from" in summary
    assert "all (discard=all): no significant difference in " in summary
    assert md.count("\n| ") == len(opened) + len(table) + 4     # both tables' lines


# --------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------
def report_main(*args: object, capsys) -> tuple[int, str, str]:
    code = report.main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_command_line_writes_the_report_and_prints_its_path(runs, tmp_path, capsys):
    code, out, err = report_main(runs["base"], "--out", tmp_path / "r", capsys=capsys)
    assert (code, out, err) == (0, f"{tmp_path / 'r' / 'report.html'}\n", "")


def incomplete_run(runs: dict[str, Path], tmp_path: Path) -> Path:
    run = tmp_path / "incomplete"
    shutil.copytree(runs["base"], run)
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(json.dumps(manifest | {"status": "running"}))
    return run


@pytest.mark.parametrize("case", ["no argument", "missing run", "not a run", "incomplete run",
                                  "out under a file", "out not a report"])
def test_bad_input_exits_2_with_one_line_and_writes_nothing(runs, tmp_path, capsys, case):
    (tmp_path / "file").write_text("x")
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "notes.txt").write_text("mine")
    out = tmp_path / "out"
    args = {"no argument": [],
            "missing run": [tmp_path / "missing", "--out", out],
            "not a run": [tmp_path / "folder", "--out", out],
            "incomplete run": [incomplete_run(runs, tmp_path), "--out", out],
            "out under a file": [runs["base"], "--out", tmp_path / "file" / "report"],
            "out not a report": [runs["base"], "--out", tmp_path / "folder"]}[case]
    before = sorted(tmp_path.rglob("*"))
    code, stdout, stderr = report_main(*args, capsys=capsys)
    assert code == 2 and stdout == ""
    assert stderr.startswith("sim.report: error: ") and stderr.count("\n") == 1, stderr
    assert sorted(tmp_path.rglob("*")) == before


def test_help_explains_the_command(capsys):
    with pytest.raises(SystemExit) as exited:
        report.main(["--help"])
    assert exited.value.code == 0
    assert "RUN_DIR/report" in capsys.readouterr().out


@pytest.mark.slow
def test_module_exits_2_on_bad_input(tmp_path):
    failed = run_module("sim.report", tmp_path / "missing", cwd=ROOT)
    assert failed.returncode == 2 and failed.stderr.count("\n") == 1
    assert not (tmp_path / "missing").exists()


def test_a_mixed_table_reports_luck_and_every_paris_run_the_snowball(runs, base_report,
                                                                      tmp_path):
    base = (base_report / "report.md").read_text(encoding="utf-8")
    assert "Luck:" not in base                  # one agent: nothing to tell apart
    assert re.search(r"After a correct bet the same agent bets correctly in the next round "
                     r"[+-]\d+\.\d pp \[[+-]\d+\.\d, [+-]\d+\.\d\] more often", base)
    assert re.search(r"Decisive lead: the sole leader after round 4 of 8 goes on to win "
                     r"\d+\.\d% \[\d+\.\d, \d+\.\d\] of its games", base)
    mixed = make_run(tmp_path / "mixed", "--agents", "random,greedy,random,greedy")
    md = (report.write_report(mixed, tmp_path / "report") / "report.md").read_text()
    verdict = md[md.index("## Verdict"):md.index("## Summary")]
    assert re.search(r"Luck: \d+\.\d% \[\d+\.\d, \d+\.\d\] of the variance", verdict)
    assert md.count("of the variance of a seat's win share") == 1


def test_the_verdict_comes_first_and_says_who_played(base_report, tmp_path, runs):
    md = (base_report / "report.md").read_text(encoding="utf-8")
    verdict = md[md.index("## Verdict"):md.index("## Summary")]
    assert "- Players: tables of 4 copies of random." in verdict
    assert "Random play only" in verdict and "sim.metagame" in verdict
    assert "the luck of the rules" in verdict
    assert "strongest bots (flatmc, ismcts, greedy@tuned, cautious, aggressive)" in verdict
    assert re.search(r"- Seats: .*the first seat wins \d+\.\d% \[", verdict)
    assert "- Skill: one agent only" in verdict and "- Length: " in verdict
