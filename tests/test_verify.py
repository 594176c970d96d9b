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


def test_a_run_made_with_other_code_is_told(run) -> None:
    # the manifest records the hash of the package's code; a results folder of
    # other code (here: a hash edited in) verifies, with a note saying so
    from pipeline.io.results import code_sha256

    _, results = run
    path = results / "manifest.json"
    manifest = json.loads(path.read_text())
    assert manifest["versions"]["village-petition-code"] == code_sha256()
    manifest["versions"]["village-petition-code"] = "0" * 64
    path.write_text(json.dumps(manifest))
    report = verify_results(results)
    assert report.drift == ()
    assert len(report.notes) == 1
    assert report.notes[0].startswith("the run was made with other code of village-petition")


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


def test_a_shapefiles_dbf_and_prj_are_hashed_and_verified(tmp_path: Path) -> None:
    # the parcels as a shapefile: its print keys live in the .dbf, its CRS in
    # the .prj; the manifest hashes each beside the .shp, and a changed key in
    # the .dbf is drift of the parcels input
    import geopandas as gpd

    config = make_petition(tmp_path / "p")
    root = config.parent
    gpd.read_file(root / "parcels.gpkg").to_file(root / "parcels.shp")
    config.write_text(config.read_text().replace('"parcels.gpkg"', '"parcels.shp"'))
    results = run_petition(config, out=tmp_path / "results")
    entry = json.loads((results / "manifest.json").read_text())["inputs"]["towns.104400.parcels"]
    assert entry["path"] == "parcels.shp"
    assert {Path(p["path"]).suffix for p in entry["sidecars"]} >= {".dbf", ".shx", ".prj"}
    dbf = root / "parcels.dbf"
    dbf.write_bytes(dbf.read_bytes().replace(b"1.-1-2", b"1.-1-9"))
    report = verify_results(results, rerun=False)
    assert ("input_changed", "towns.104400.parcels") in [(d.kind, d.name) for d in report.drift]


def test_an_input_inside_the_results_folder_is_refused(tmp_path: Path) -> None:
    # match decisions kept beside review.csv, in the results folder that the run
    # replaces as a whole: the run would delete them; exit 2, all kept
    config = make_petition(tmp_path / "p")
    results = run_petition(config, out=tmp_path / "results")
    decisions = results / "matches.csv"
    decisions.write_text("page,line,decision,parcel,voter,note\n")
    config.write_text(config.read_text() + f'\n[overrides]\nmatches = "{decisions.as_posix()}"\n')
    before = sorted(p.name for p in results.iterdir())
    with pytest.raises(InputError, match="holds an input of the petition"):
        run_petition(config, out=results)
    assert sorted(p.name for p in results.iterdir()) == before


def test_file_stamps_find_a_file_written_during_the_run(tmp_path: Path) -> None:
    import os

    from pipeline.io.results import changed_since, file_stamps

    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("x\n")
    b.write_text("y\n")
    stamps = file_stamps([a, b])
    assert changed_since(stamps) is None
    st = b.stat()
    os.utime(b, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # written again, same size
    assert changed_since(stamps) == b


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


@pytest.mark.parametrize(
    ("edit", "column"),
    [
        (lambda m: m.update(outputs=None), "outputs"),
        (lambda m: m["inputs"]["config"].update(path=5), "inputs.config.path"),
        (lambda m: m.update(options={"roll_year": "abc"}), "options.roll_year"),
        (lambda m: m["inputs"].update(config=[1]), "inputs.config"),
    ],
)
def test_a_manifest_edited_into_nonsense_is_bad_input(tmp_path: Path, edit, column) -> None:  # type: ignore[no-untyped-def]
    # verify reads a manifest a person may have edited: bad input (exit 2), no crash
    from pipeline.io.history import read_manifest

    manifest = {
        "inputs": {"config": {"path": "petition.toml", "sha256": "0" * 64}},
        "outputs": {"summary.json": "0" * 64},
        "options": {"roll_year": None},
    }
    edit(manifest)
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(InputError) as exc:
        read_manifest(tmp_path)
    assert exc.value.column == column


def test_a_manifest_recording_another_run_is_drift(run) -> None:
    # audit A37 F5: the manifest's regime, rolls and rates are the record the
    # sworn figures stand on; edited (Brinton's roll of 2023 at 40 %, the 2024
    # regime), a full re-run passed them
    _, results = run
    path = results / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["regime"] = "2024"
    manifest["rolls"][1].update(roll_year=2023, equalization_rate=40.0)
    path.write_text(json.dumps(manifest))
    report = verify_results(results)
    assert {(d.kind, d.name) for d in report.drift} == {
        ("manifest_differs", "manifest.json: regime"),
        ("manifest_differs", "manifest.json: rolls"),
    }


def test_a_file_the_manifest_does_not_list_is_drift(run) -> None:
    # audit A37 F5: a file added to the results folder, or an output whose
    # entry was taken out of the manifest, passed a check without re-run
    _, results = run
    (results / "certification-104600-amended.txt").write_text("not the run's")
    path = results / "manifest.json"
    manifest = json.loads(path.read_text())
    del manifest["outputs"]["summary.json"]
    path.write_text(json.dumps(manifest))
    report = verify_results(results, rerun=False)
    assert {(d.kind, d.name) for d in report.drift} == {
        ("output_unlisted", "certification-104600-amended.txt"),
        ("output_unlisted", "summary.json"),
    }
