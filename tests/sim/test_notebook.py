"""notebooks/paris-damis.ipynb runs top to bottom in a fresh kernel, and is committed
without outputs."""

from __future__ import annotations

import nbformat
import pytest
from nbclient import NotebookClient

from tests.sim.test_batch_support import ROOT

NOTEBOOK = ROOT / "notebooks" / "paris-damis.ipynb"


def test_committed_notebook_has_no_outputs():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:60]


@pytest.mark.slow
def test_notebook_runs_without_error(tmp_path, monkeypatch):
    """Without TAPIS_RUN the notebook plays its own small runs (in this test's folder)."""
    monkeypatch.delenv("TAPIS_RUN", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()                    # raises CellExecutionError at a failing cell
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 6, "the run's figures and the forest plot are shown"
    assert sorted(p.name for p in tmp_path.glob("tapis-notebook-*/*")) == \
        ["baseline", "discard-all"]

