"""The whole filing package from a run: files present, figures carried, same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from pypdf import PdfReader

from pipeline.documents._common import dollars, percent
from pipeline.evaluate import UNPLACED_VOTER_COLUMNS
from pipeline.geometry.metes import parse_metes_and_bounds, parse_traverses
from pipeline.run import run_petition
from pipeline.sample import generate_sample

PACKAGE = {
    "schedule-parcels.xlsx",
    "schedule-signatures.xlsx",
    "exhibit-description.txt",
    "exhibit-description.docx",
    "map.png",
    "map.pdf",
    "review-report.html",
}


def _flat(path: Path) -> str:
    return " ".join(
        " ".join(page.extract_text() or "" for page in PdfReader(str(path)).pages).split()
    )


@pytest.fixture(scope="module")
def two_towns(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("two")
    cfg = generate_sample(d / "in", parcels=300, towns=2, seed=11)
    out = run_petition(cfg, out=d / "out")
    return Path(cfg), out


def test_package_files_and_two_town_figures(two_towns: tuple[Path, Path]) -> None:
    _, out = two_towns
    names = {p.name for p in out.iterdir()}
    assert names >= PACKAGE
    summary = json.loads((out / "summary.json").read_text())
    manifest = json.loads((out / "manifest.json").read_text())
    assert set(manifest["outputs"]) >= PACKAGE
    parts = summary["owner_test"]["parts"]
    assert len(parts) == 2
    for part in parts:
        flat = _flat(out / f"certification-{part['swis']}.pdf")
        assert "2-202.1.d(2)" in flat
        for key in ("total_full", "signer_full", "total_assessed", "signer_assessed"):
            assert dollars(part[key]) in flat, key
        assert percent(part["equalization_rate"]) in flat
    report = (out / "review-report.html").read_text()
    for d in summary["deficiencies"]:
        assert d["code"] in report
    assert "data:image/png;base64," in report


def test_every_output_names_the_regime(two_towns: tuple[Path, Path]) -> None:
    # rules § 8: "Outputs always name the regime used", the filing package too
    import zipfile

    _, out = two_towns
    regime = json.loads((out / "summary.json").read_text())["regime"]
    assert regime == "2-202-pre-2024"
    unnamed = []
    for path in sorted(out.iterdir()):
        if path.suffix == ".png":
            continue  # the map's PNG is the PDF's picture, checked by the PDF
        if path.suffix == ".pdf":
            text = _flat(path)
        elif path.suffix in (".docx", ".xlsx"):
            with zipfile.ZipFile(path) as z:
                text = " ".join(z.read(n).decode("utf-8", "replace") for n in z.namelist())
        else:
            text = path.read_text()
        if path.suffix == ".csv" and len(pd.read_csv(path, dtype=str)) == 0:
            text = f"{regime} (no rows: the header's regime column)" if "regime" in text else ""
        if regime not in text:
            unnamed.append(path.name)
    assert unnamed == []
    for name in ("inhabitants.csv", "voters-unplaced.csv", "exhibit-inhabitants.csv"):
        frame = pd.read_csv(out / name, dtype=str, keep_default_na=False)
        assert frame.columns[-1] == "regime"
        assert set(frame["regime"]) <= {regime}
    lines = (out / "exhibit-description.txt").read_text().splitlines()
    assert lines[-1] == f"(Prepared for the petition under the rules of regime {regime}.)"


def test_unplaced_voters_are_listed_without_dates_of_birth(two_towns: tuple[Path, Path]) -> None:
    # every voter whose residence names no parcel (or several) is listed for
    # review: as many rows as the resident test's voters_unplaced, no DOB
    _, out = two_towns
    summary = json.loads((out / "summary.json").read_text())
    listed = pd.read_csv(out / "voters-unplaced.csv", dtype=str, keep_default_na=False)
    assert tuple(listed.columns) == (*UNPLACED_VOTER_COLUMNS, "regime")
    assert "DOB" not in UNPLACED_VOTER_COLUMNS
    assert len(listed) == summary["resident_test"]["voters_unplaced"]
    assert set(listed["reason"]) <= {"no_address", "no_match", "ambiguous"}
    assert "DOB" not in (out / "voters-unplaced.csv").read_text()


def test_description_matches_territory(two_towns: tuple[Path, Path]) -> None:
    import tomllib

    import geopandas as gpd

    cfg, out = two_towns
    conf = tomllib.loads(cfg.read_text())
    territory = gpd.read_file(cfg.parent / conf["territory"]["boundary"])
    if territory.crs is None:
        territory = territory.set_crs(conf["territory"]["crs"])
    geom = territory.to_crs("EPSG:2260").geometry.union_all()
    text = (out / "exhibit-description.txt").read_text()
    assert max(t.closure_ft for t in parse_traverses(text)) < 0.01
    back = parse_metes_and_bounds(text)
    assert back.symmetric_difference(geom).area < 1e-5 * geom.area


@pytest.mark.parametrize("processes", ["", "1"], ids=["forked", "one-process"])
def test_rerun_gives_same_bytes(
    two_towns: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, processes: str
) -> None:
    # the exhibits are written by a forked child unless PETITION_PROCESSES=1:
    # either way every file has the same bytes
    from pipeline.tools.processes import PROCESSES_ENV

    monkeypatch.setenv(PROCESSES_ENV, processes)
    cfg, out = two_towns
    again = run_petition(cfg, out=tmp_path / "again")
    first = sorted(p.name for p in out.iterdir())
    assert first == sorted(p.name for p in again.iterdir())
    differ = [
        n
        for n in first
        if n != "manifest.json" and (out / n).read_bytes() != (again / n).read_bytes()
    ]
    assert differ == []


def test_one_town_certification(tmp_path: Path) -> None:
    cfg = generate_sample(tmp_path / "in", parcels=200, towns=1, seed=5)
    out = run_petition(cfg, out=tmp_path / "out")
    summary = json.loads((out / "summary.json").read_text())
    if not summary["owner_test"]["applies"]:
        pytest.skip("the one-town sample alleges no owner basis")
    (part,) = summary["owner_test"]["parts"]
    flat = _flat(out / f"certification-{part['swis']}.pdf")
    assert "2-202.1.d(1)" in flat
    assert dollars(part["total_assessed"]) in flat
    assert dollars(part["signer_assessed"]) in flat
    assert percent(part["percent"]) in flat
