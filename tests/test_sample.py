"""Tests of the sample generator (pipeline.sample)."""

from __future__ import annotations

import csv
import time
import tomllib
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely

from pipeline.sample import generate_sample

N = 700  # small: fast, still two towns, a village and a territory


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("sample")
    t0 = time.perf_counter()
    cfg = generate_sample(d, parcels=N, towns=2, seed=7)
    assert time.perf_counter() - t0 < 20.0
    return cfg


def _roll(cfg: Path) -> pd.DataFrame:
    conf = tomllib.loads(cfg.read_text())
    return pd.concat(
        [
            pd.read_csv(cfg.parent / t["roll"], dtype=str, keep_default_na=False)
            for t in conf["towns"]
        ],
        ignore_index=True,
    )


def test_same_seed_same_bytes(sample: Path, tmp_path: Path) -> None:
    again = generate_sample(tmp_path, parcels=N, towns=2, seed=7)

    def files(root: Path) -> list[str]:  # every file, sub-folders (rolls/<swis>/) included
        return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())

    names = files(sample.parent)
    assert names == files(again.parent)
    assert "rolls/104400/roll-2023.csv" in names and "alternatives.geojson" in names
    for name in names:
        assert (sample.parent / name).read_bytes() == (tmp_path / name).read_bytes(), name


def test_other_seed_other_sample(sample: Path, tmp_path: Path) -> None:
    other = generate_sample(tmp_path, parcels=N, towns=2, seed=8)
    assert (
        other.with_name("roll-104400.csv").read_bytes()
        != sample.with_name("roll-104400.csv").read_bytes()
    )


def test_config_names_every_file_and_files_parse(sample: Path) -> None:
    conf = tomllib.loads(sample.read_text())
    d = sample.parent
    assert conf["petition"]["name"].startswith("Village of ")
    assert str(conf["petition"]["filed_on"]) == "2023-06-01"
    assert conf["petition"]["bases"] == ["owners", "residents"]
    assert 1 <= len(conf["designees"]) <= 3
    assert [t["swis"] for t in conf["towns"]] == ["104400", "104600"]
    for t in conf["towns"]:
        for k in ("roll", "parcels", "boundary"):
            assert (d / t[k]).exists()
    for path in (
        conf["territory"]["boundary"],
        conf["equalization"]["rates"],
        conf["signers"]["pages"],
        conf["signers"]["signatures"],
        conf["voters"]["file"],
        conf["inhabitants"]["file"],
        conf["overrides"]["apportionment"],
    ):
        assert (d / path).exists(), path
    roll = _roll(sample)
    assert len(roll) == N
    assert set(roll["roll_year"]) == {"2022"}
    assert set(roll["municipality_code"]) == {"104400", "104600"}
    for name in ("pages.csv", "signatures.csv", "inhabitants.csv", "rates.csv", "ground_truth.csv"):
        assert len(pd.read_csv(d / name)) > 0
    terr = gpd.read_file(d / "territory.geojson")
    assert terr.crs.to_epsg() == 2260
    parcels = gpd.read_file(d / "parcels.gpkg")
    assert parcels.crs.to_epsg() == 2260
    assert {"SWIS", "PRINT_KEY"} <= set(parcels.columns)


def test_rates_and_assessment_ratio(sample: Path) -> None:
    rates = pd.read_csv(sample.with_name("rates.csv"), dtype={"swis_code": str})
    r22 = rates[rates["rate_year"] == 2022].set_index("swis_code")["equalization_rate"]
    assert r22["104400"] == 100.0
    assert r22["104600"] == 35.0
    assert rates.groupby("swis_code")["equalization_rate"].nunique()["104600"] > 1
    roll = _roll(sample)
    b = roll[roll["municipality_code"] == "104600"]
    ratio = b["assessment_total"].astype(float).sum() / b["full_market_value"].astype(float).sum()
    assert ratio == pytest.approx(0.35, abs=0.005)


def test_geometry(sample: Path) -> None:
    d = sample.parent
    parcels = gpd.read_file(d / "parcels.gpkg")
    terr = gpd.read_file(d / "territory.geojson").geometry.iloc[0]
    towns = [gpd.read_file(d / f"town-{c}.geojson").geometry.iloc[0] for c in ("104400", "104600")]
    village = gpd.read_file(d / "village.geojson").geometry.iloc[0]
    geoms = parcels.geometry.to_numpy()
    assert shapely.is_valid(geoms).all()
    # Territory crosses the town line: a real area in both towns.
    for t in towns:
        assert shapely.intersection(terr, t).area > 0.05 * terr.area
    # Every parcel in exactly one town (interiors; shared borders allowed).
    inside = np.column_stack([shapely.contains(t, shapely.point_on_surface(geoms)) for t in towns])
    assert (inside.sum(axis=1) == 1).all()
    for k, t in enumerate(towns):
        assert (
            shapely.area(shapely.intersection(geoms[inside[:, k]], t))
            > 0.999 * shapely.area(geoms[inside[:, k]])
        ).all()
    # No overlaps: total area equals the area of the union (to 0.01 %).
    assert shapely.union_all(geoms).area == pytest.approx(shapely.area(geoms).sum(), rel=1e-4)
    # Not a grid of equal squares.
    a = shapely.area(geoms)
    assert a.max() / a.min() > 20
    # Straddlers exist.
    frac = shapely.area(shapely.intersection(geoms, terr)) / a
    assert ((frac > 0.05) & (frac < 0.95)).sum() >= 5
    # Village parcels: inside the village polygon, outside the territory.
    vil = parcels["SWIS"].str.endswith("01").to_numpy()
    assert vil.any()
    assert not shapely.intersects(geoms[vil], terr).any()
    assert not shapely.intersects(terr, village)
    assert shapely.within(shapely.point_on_surface(geoms[vil]), village).all()


def test_no_polygon_for_sections_5_and_6(sample: Path) -> None:
    roll = _roll(sample)
    parcels = gpd.read_file(sample.with_name("parcels.gpkg"))
    keys = set(zip(parcels["SWIS"], parcels["PRINT_KEY"], strict=True))
    sec = roll["roll_section"]
    nopoly = roll[sec.isin(["5", "6"])]
    assert len(nopoly) >= 2 * 3
    assert not any(
        (s, p) in keys for s, p in zip(nopoly["swis_code"], nopoly["print_key_code"], strict=True)
    )
    rest = roll[~sec.isin(["5", "6"])]
    assert all(
        (s, p) in keys for s, p in zip(rest["swis_code"], rest["print_key_code"], strict=True)
    )
    assert len(keys) == len(parcels)  # print keys unique within a SWIS
    assert (roll["swis_code"].str[:4] == roll["municipality_code"].str[:4]).all()
    assert set(roll["swis_code"].str[-2:]) == {"01", "89"}
    assert (roll[sec == "8"]["town_taxable_value"] == "0").all()


def test_voters_file_layout(sample: Path) -> None:
    raw = sample.with_name("voters.txt").read_bytes()
    text = raw.decode("latin-1")
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")  # accented names in Latin-1 are not valid UTF-8
    lines = text.splitlines()
    assert lines[0].startswith('"')
    rows = list(csv.reader(lines))
    assert all(len(r) == 47 for r in rows)
    assert all(line.count('"') == 94 for line in lines)
    statuses = {r[41] for r in rows}
    assert {"A", "I", "P"} <= statuses
    assert all(r[45].startswith("NY") and len(r[45]) == 20 for r in rows)
    assert all(len(r[19]) == 8 and r[19].isdigit() for r in rows)


def test_signatures_and_ground_truth(sample: Path) -> None:
    d = sample.parent
    sig = pd.read_csv(d / "signatures.csv", dtype=str, keep_default_na=False)
    truth = pd.read_csv(d / "ground_truth.csv", dtype=str, keep_default_na=False)
    pages = pd.read_csv(d / "pages.csv")
    assert list(sig.columns) == [
        "page",
        "line",
        "name",
        "address",
        "town",
        "signed_on",
        "signing_for",
        "credited_assessed_value",
    ]
    assert len(sig) == len(truth)
    assert (sig[["page", "line"]].to_numpy() == truth[["page", "line"]].to_numpy()).all()
    assert set(pages["basis"]) == {"owners", "residents"}
    counts = sig.groupby(sig["page"].astype(int)).size()
    wrong = (pages.set_index("page")["stated_signature_count"] != counts).sum()
    assert wrong == 1
    assert (sig["signing_for"] != "").any()
    assert (sig["address"] == "").any()
    assert truth["note"].str.contains("signed_twice").sum() >= 1
    assert truth["note"].str.contains("nickname").any()
    own = truth[truth["basis"] == "owners"]
    assert (own["kind"] == "owner").mean() > 0.8
    assert own.loc[own["kind"] == "owner", "parcels"].str.match(r"^\d{6}:").all()
    res = truth[truth["basis"] == "residents"]
    assert res["sboeid"].str.startswith("NY").mean() > 0.9


def test_inhabitants(sample: Path) -> None:
    inh = pd.read_csv(sample.with_name("inhabitants.csv"), dtype=str, keep_default_na=False)
    assert list(inh.columns) == ["name", "address", "town"]
    assert inh["name"].str.startswith("Minor child").any()
    assert inh.duplicated(["name"]).any()


def test_sample_command_never_replaces_a_petition_of_ones_own(tmp_path: Path) -> None:
    # the same sample again is fine (same bytes); a folder holding a file the
    # sample would change (a petition of one's own) is exit 2 and left alone,
    # unless --force; a file for DIR and too few parcels are exit 2 too
    from typer.testing import CliRunner

    from pipeline.cli import app

    runner = CliRunner()
    d = tmp_path / "s"
    args = ["sample", str(d), "--parcels", "200", "--years", "1"]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, args).exit_code == 0
    mine = d / "signatures.csv"
    mine.write_text("page,line,name\n1,1,My Own Line\n")
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2
    assert "signatures.csv" in refused.stderr and "--force" in refused.stderr
    assert mine.read_text() == "page,line,name\n1,1,My Own Line\n"
    assert runner.invoke(app, [*args, "--force"]).exit_code == 0
    assert mine.read_text() != "page,line,name\n1,1,My Own Line\n"
    assert runner.invoke(app, ["sample", str(d / "petition.toml")]).exit_code == 2
    few = runner.invoke(app, ["sample", str(tmp_path / "t"), "--parcels", "60"])
    assert few.exit_code == 2 and "at least 132" in few.stderr
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
