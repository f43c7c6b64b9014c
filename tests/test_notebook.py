"""notebooks/explore_results.ipynb runs on a finished study and redraws its figure (nbclient)."""
import pytest
from conftest import REPO

pytestmark = pytest.mark.workflow


def test_notebook_runs_on_the_tiny_study(finished_study, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    path = REPO / "notebooks" / "explore_results.ipynb"
    notebook = nbformat.read(path, as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")  # stored clean
    monkeypatch.setenv("STRATBENCH_RESULTS", str(finished_study / "results" / "tiny"))
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs)  # the redrawn figure
    assert any("study: tiny" in o.get("text", "") for o in outputs)
    assert "results" not in {p.name for p in path.parent.iterdir()}  # it reads results, writes nothing there
