"""`petition verify` on the hand-worked petition: clean, a changed input byte, an edited result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_run_handworked import make_petition
from typer.testing import CliRunner, Result

from pipeline.cli import app
from pipeline.errors import InputError
from pipeline.run import run_petition
from pipeline.verify import verify_results


@pytest.fixture
def run(tmp_path: Path) -> tuple[Path, Path]:
    config = make_petition(tmp_path / "p")
    return config, run_petition(config, out=tmp_path / "results")


def test_clean_run_verifies(run) -> None:
    config, results = run
    report = verify_results(results)
    assert report.config.resolve() == config.resolve()  # found from the manifest
    assert report.rerun is True
    assert report.drift == ()
    assert report.notes == ()  # one file per town: no roll choice to note
    assert report.clean
    # config + territory + 2 towns x (roll, parcels, boundary) + rates, pages, signatures = 11
    assert report.inputs_checked == 11
    assert len(json.loads((results / "manifest.json").read_text())["inputs"]) == 11
    assert "No drift" in report.report()


def test_one_changed_input_byte_is_drift(run) -> None:
    config, results = run
    roll = config.parent / "roll-a.csv"
    data = bytearray(roll.read_bytes())
    at = data.index(b"Harlow")
    data[at + 5] = ord("x")  # "Harlow" -> "Harlox": one byte, a mailing city
    roll.write_bytes(bytes(data))
    report = verify_results(results, rerun=False)
    assert [(d.kind, d.name) for d in report.drift] == [("input_changed", "towns.104400.roll")]
    assert not report.clean


def test_edited_result_is_drift_and_rerun_differs(run) -> None:
    _, results = run
    summary = results / "summary.json"
    summary.write_text(summary.read_text().replace('"sufficient": false', '"sufficient": true'))
    report = verify_results(results)
    kinds = {(d.kind, d.name) for d in report.drift}
    assert kinds == {("output_changed", "summary.json"), ("rerun_differs", "summary.json")}


def test_verify_command_exit_codes(run, tmp_path: Path) -> None:
    config, results = run

    runner = CliRunner()

    def verify(*args: str) -> Result:
        return runner.invoke(app, ["verify", *args])

    clean = verify(str(results), "--no-rerun")
    assert clean.exit_code == 0, clean.output
    (config.parent / "rates.csv").write_text("swis_code,rate_year,equalization_rate\n")
    drift = verify(str(results), "--no-rerun")
    assert drift.exit_code == 3
    assert "input_changed: equalization.rates" in drift.stdout
    missing = verify(str(tmp_path / "nowhere"))
    assert missing.exit_code == 2
    assert "manifest.json" in missing.stderr


def test_no_manifest_is_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"manifest\.json"):
        verify_results(tmp_path)
