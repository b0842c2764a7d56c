"""report.html in a real browser: headless Chromium renders a run's report to a screenshot,
which must show text and the embedded figures (not a blank or broken page).

Skipped when no Chromium is installed (Debian: ``apt-get install chromium``); the same
check by hand is in docs/reports.md."""

from __future__ import annotations

import shutil
import subprocess

import matplotlib.colors
import matplotlib.image
import numpy as np
import pytest

from sim.analysis.figures import COLOR
from sim.report import write_report
from tests.sim.report_support import make_run

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WIDTH, HEIGHT = 1200, 3000

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium or chromium-browser on PATH to render report.html "
                             "(Debian: apt-get install chromium)")


def test_report_renders_in_headless_chromium(tmp_path):
    page = write_report(make_run(tmp_path / "run")) / "report.html"
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
    figure_ink = np.isclose(rgb, matplotlib.colors.to_rgb(COLOR), atol=0.04).all(axis=2)
    assert figure_ink.sum() > 200, "the first figure is not drawn"
