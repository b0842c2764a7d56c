"""``python -m sim.bench`` on the new kernels: a row per compiled bot, columns aligned for
long game names, no target where the issue sets none (tiny game counts: a smoke test of the
table, not a measure)."""

from __future__ import annotations

import contextlib
import io

import pytest

from sim import bench
from sim.kernels import kernel_for


@pytest.mark.parametrize("slug", ["betzanbloo", "ascenseur-atouts"])
def test_every_compiled_bot_gets_a_kernel_row(slug):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bench.main([slug, "--kernel-games", "8", "--python-games", "1",
                           "--batch-games", "0", "--repeat", "1"]) == 0
    lines = out.getvalue().splitlines()
    rows = [line for line in lines if line.startswith(slug)]
    paths = {line[len(slug):].strip().split("  ")[0] for line in rows}
    expected = {"kernel", "python"} | {f"kernel {name}" for name in kernel_for(slug).POLICIES
                                      if name != "random"}
    assert paths == expected
    header = lines[0]
    assert all(line.index("kernel" if "kernel" in line else "python") == header.index("path")
               for line in rows)
    assert all(line.rstrip().endswith("-  -") for line in rows)
