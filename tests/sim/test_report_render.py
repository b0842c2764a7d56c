"""The html reports in a real browser: headless Chromium renders a run's report, a rule
design search's and a meta-game's to screenshots, each of which must show text and the
embedded figures (not a blank or broken page).

Skipped when no Chromium is installed (Debian: ``apt-get install chromium``; ``.ci/run``
installs it, so CI runs these); the same check by hand is in docs/reports.md."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import matplotlib.colors
import matplotlib.image
import numpy as np
import pytest

import sim.design as design
import sim.metagame as metagame
from sim.analysis.figures import COLOR
from sim.report import write_report
from tests.sim.report_support import make_run
from tests.sim.test_batch_support import call_main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WIDTH, HEIGHT = 1200, 3000

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium or chromium-browser on PATH to render report.html "
                             "(Debian: apt-get install chromium)")


def run_report(tmp_path: Path) -> Path:
    """A small batch run's report."""
    return write_report(make_run(tmp_path / "run")) / "report.html"


def design_report(tmp_path: Path) -> Path:
    """A tiny rule design search's report (three trials of 30 games)."""
    out = tmp_path / "design"
    code, _, stderr = call_main(
        design.main, "paris-damis", "--players", 3, "--space", "discard=half-down|none",
        "--objectives", "seat_unfairness,length", "--agents", "greedy,cautious", "--trials", 3,
        "--games-per-trial", 30, "--final-games", 30, "--bootstrap", 10, "--jobs", 1,
        "--no-progress", "--out", out)
    assert code == 0, stderr
    return out / "report" / "report.html"


def metagame_report(tmp_path: Path) -> Path:
    """A tiny meta-game's report (random and greedy at 2 players, 30 games a lineup)."""
    out = tmp_path / "metagame"
    code, _, stderr = call_main(
        metagame.main, "paris-damis", "--agents", "random,greedy", "--players", 2, "--games",
        30, "--jobs", 1, "--bootstrap", 10, "--no-progress", "--out", out)
    assert code == 0, stderr
    return out / "report" / "report.html"


@pytest.mark.parametrize("build", [run_report, design_report, metagame_report],
                         ids=["run", "design", "metagame"])
def test_report_renders_in_headless_chromium(tmp_path, build):
    page = build(tmp_path)
    shot = tmp_path / "report.png"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                    "--hide-scrollbars", f"--user-data-dir={tmp_path / 'profile'}",
                    f"--screenshot={shot}", f"--window-size={WIDTH},{HEIGHT}", page.as_uri()],
                   capture_output=True, timeout=120, check=True)
    rgb = matplotlib.image.imread(shot)[..., :3]          # floats in [0, 1]
    assert rgb.shape == (HEIGHT, WIDTH, 3)
    grey = rgb.mean(axis=2)
    assert grey.std() > 0.05, "the page is blank"
    assert (grey < 0.5).mean() > 0.005, "no text on the page"
    # the figures' marks are the only coloured pixels (text and tables are grey)
    coloured = rgb.max(axis=2) - rgb.min(axis=2) > 0.3
    assert coloured.sum() > 200, "no figure is drawn"
    if build is run_report:
        figure_ink = np.isclose(rgb, matplotlib.colors.to_rgb(COLOR), atol=0.04).all(axis=2)
        assert figure_ink.sum() > 200, "the first figure is not drawn"
