"""Every notebook runs top to bottom on the bundled sample (nbclient, kernel python3)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
kernelspec = pytest.importorskip("jupyter_client.kernelspec")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "raw" / "sample" / "petition.toml"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


def _kernel_python() -> str:
    """Check that the ``python3`` kernel jupyter_client finds runs this interpreter."""
    spec = kernelspec.KernelSpecManager().get_kernel_spec("python3")
    exe = spec.argv[0]
    if (
        exe in ("python", "python3", sys.executable)
        or Path(exe).resolve() == Path(sys.executable).resolve()
    ):
        return exe
    pytest.fail(f"kernel 'python3' runs {exe}, not this venv's {sys.executable}")


def test_notebooks_are_committed_without_outputs() -> None:
    assert len(PATHS) >= 3
    for path in PATHS:
        nb = nbformat.read(path, as_version=4)
        assert nb.nbformat == 4
        assert nb.metadata["kernelspec"]["name"] == "python3"
        tagged = [c for c in nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
        assert len(tagged) == 1 and "CONFIG" in tagged[0].source, path.name
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, path.name


@pytest.mark.slow
@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebook_runs(path: Path) -> None:
    if not SAMPLE.exists():
        pytest.skip("the bundled sample is absent (make sample)")
    _kernel_python()
    nb = nbformat.read(path, as_version=4)
    env_backend = os.environ.get("MPLBACKEND")
    os.environ["MPLBACKEND"] = "Agg"  # the kernel inherits it: no display needed
    try:
        client = nbclient.NotebookClient(
            nb,
            kernel_name="python3",
            timeout=120,
            resources={"metadata": {"path": str(NOTEBOOKS)}},
        )
        client.execute(cwd=str(NOTEBOOKS))
    finally:
        if env_backend is None:
            os.environ.pop("MPLBACKEND", None)
        else:
            os.environ["MPLBACKEND"] = env_backend
    errors = [
        o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"
    ]
    assert not errors


@pytest.mark.slow
def test_signature_review_runs_on_a_petition_with_nothing_to_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the hand-worked petition: every line is settled, the review queue is empty;
    # the notebook writes no decisions and still runs to the end
    from test_run_handworked import make_petition

    _kernel_python()
    config = make_petition(tmp_path / "p")
    nb = nbformat.read(NOTEBOOKS / "02-signature-review.ipynb", as_version=4)
    (cell,) = [c for c in nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    cell.source = f"CONFIG = {str(config)!r}"
    monkeypatch.setenv("MPLBACKEND", "Agg")  # the kernel inherits it
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=120)
    client.execute(cwd=str(NOTEBOOKS))
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "No line to decide on this petition" in text
