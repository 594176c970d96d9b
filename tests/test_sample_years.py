"""Tests of the sample's second roll year and boundary alternatives (diff and batch on it)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest
import shapely

from pipeline.batch import run_batch
from pipeline.config import load_config
from pipeline.diff import ResultsDiff, diff_results
from pipeline.io.history import read_results
from pipeline.io.load import resolve_rolls
from pipeline.run import run_petition
from pipeline.sample import ALTERNATIVES, generate_sample
from pipeline.sample._years import _divide, _halves
from pipeline.scenario import metrics

N = 700  # small: fast, still two towns, splits and merges in the territory


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_sample(tmp_path_factory.mktemp("years"), parcels=N, towns=2, seed=7)


def _changes(cfg: Path) -> list[str]:
    text = (cfg.parent / "rolls" / "changes-2023.txt").read_text(encoding="utf-8")
    return [ln for ln in text.splitlines() if ln and not ln.startswith("#")]


def _roll(cfg: Path, year: int) -> pd.DataFrame:
    return pd.concat(
        [
            pd.read_csv(f, dtype=str, keep_default_na=False)
            for f in sorted((cfg.parent / "rolls").glob(f"*/roll-{year}.csv"))
        ],
        ignore_index=True,
    )


def _keyed(roll: pd.DataFrame) -> pd.DataFrame:
    return roll.set_index(["swis_code", "print_key_code"])


@pytest.fixture(scope="module")
def runs(sample: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("runs")
    a = run_petition(sample, out=d / "this-year")
    b = run_petition(sample.with_name("petition-next-year.toml"), out=d / "next-year")
    return a, b


@pytest.fixture(scope="module")
def diff(runs: tuple[Path, Path]) -> ResultsDiff:
    return diff_results(read_results(runs[0]), read_results(runs[1]))


# --- helpers, by hand --------------------------------------------------------------------


def test_halves_cut_across_the_longer_side() -> None:
    # a 100 x 50 box cut 30 % along x: 30 x 50 = 1500 and 70 x 50 = 3500 sq ft
    cut = _halves(shapely.box(0, 0, 100, 50), 0.3)
    assert cut is not None
    assert cut[0].area == pytest.approx(1500) and cut[1].area == pytest.approx(3500)
    # a 20 x 80 box (taller) cut half way along y: two 20 x 40 = 800 sq ft halves
    tall = _halves(shapely.box(0, 0, 20, 80), 0.5)
    assert tall is not None and tall[0].bounds == (0, 0, 20, 40)


def test_divide_keeps_the_sum() -> None:
    row = pd.Series(
        {
            "assessment_land": "1000",
            "assessment_total": "2550",
            "full_market_value": "2550",
            "town_taxable_value": "0",
        }
    )
    a, b = _divide(row, 0.37)
    # 1000 x 0.37 = 370 -> 400 and 600; 2550 x 0.37 = 943.5 -> 900 and 1650; 0 -> 0 and 0
    assert (a["assessment_land"], b["assessment_land"]) == ("400", "600")
    assert (a["assessment_total"], b["assessment_total"]) == ("900", "1650")
    assert (a["town_taxable_value"], b["town_taxable_value"]) == ("0", "0")


# --- the files ---------------------------------------------------------------------------


def test_years_1_writes_the_same_petition_without_the_next_year(
    sample: Path, tmp_path: Path
) -> None:
    one = generate_sample(tmp_path, parcels=N, towns=2, seed=7, years=1)
    assert not (tmp_path / "rolls").exists()
    assert not (tmp_path / "petition-next-year.toml").exists()
    for f in tmp_path.iterdir():  # what years=1 writes is byte for byte in years=2
        assert f.read_bytes() == (sample.parent / f.name).read_bytes(), f.name
    assert one.read_bytes() == sample.read_bytes()


def test_rolls_folder_holds_both_years(sample: Path) -> None:
    d = sample.parent
    for swis in ("104400", "104600"):
        assert (d / "rolls" / swis / "roll-2022.csv").read_bytes() == (
            d / f"roll-{swis}.csv"
        ).read_bytes()
        nxt = pd.read_csv(d / "rolls" / swis / "roll-2023.csv", dtype=str)
        assert set(nxt["roll_year"]) == {"2023"}
        assert set(nxt["municipality_code"]) == {swis}


def test_next_year_config_chooses_the_2023_rolls(sample: Path) -> None:
    conf = tomllib.loads(sample.with_name("petition-next-year.toml").read_text())
    base = tomllib.loads(sample.read_text())
    # filed after the 2023 rolls were completed (1 July), before the 2024 amendments
    assert str(conf["petition"]["filed_on"]) == "2023-12-01"
    assert [t["roll"] for t in conf["towns"]] == ["rolls/104400", "rolls/104600"]
    assert {t["parcels"] for t in conf["towns"]} == {"parcels-2023.gpkg"}
    assert conf["signers"] == base["signers"] and conf["territory"] == base["territory"]
    assert conf["output"]["dir"] != base["output"]["dir"]
    config = load_config(sample.with_name("petition-next-year.toml"))
    chosen = resolve_rolls(config)
    assert {c.year for c in chosen.values()} == {2023}
    assert {c.files[0].name for c in chosen.values()} == {"roll-2023.csv"}


def test_split_divides_the_record_and_the_polygon(sample: Path) -> None:
    splits = [ln for ln in _changes(sample) if ln.startswith("split: ")]
    assert len(splits) >= 2
    old, new = _keyed(_roll(sample, 2022)), _keyed(_roll(sample, 2023))
    layer = gpd.read_file(sample.with_name("parcels-2023.gpkg"))
    before = gpd.read_file(sample.with_name("parcels.gpkg"))
    for line in splits:
        swis, pk = line.removeprefix("split: ").split(" ->")[0].split(":")
        kids = [(swis, f"{pk}.1"), (swis, f"{pk}.2")]
        assert (swis, pk) in old.index and (swis, pk) not in new.index
        assert all(k in new.index for k in kids)
        total = sum(int(new.loc[k, "assessment_total"]) for k in kids)
        parent = int(old.loc[(swis, pk), "assessment_total"])
        if swis.startswith("1046"):  # no reassessment in the second town: the sum is kept
            assert total == parent
        else:  # the first town reassesses by 4 %: each child rounded to 100
            assert abs(total - parent * 1.04) <= 100
        area = layer.loc[layer["PRINT_KEY"].isin([k[1] for k in kids])].area.sum()
        assert area == pytest.approx(before.loc[before["PRINT_KEY"] == pk].area.sum())


def test_signers_parcels_change_owner(sample: Path) -> None:
    sold = [ln for ln in _changes(sample) if ln.endswith("(a signer's parcel)")]
    assert len(sold) >= 2
    truth = pd.read_csv(sample.with_name("ground_truth.csv"), dtype=str, keep_default_na=False)
    old, new = _keyed(_roll(sample, 2022)), _keyed(_roll(sample, 2023))
    for line in sold:
        key = line.removeprefix("sold: ").split(" ")[0]
        swis, pk = key.split(":")
        signer = truth.loc[truth["parcels"] == key, "true_name"]
        assert not signer.empty
        owner_cols = ["primary_owner_first_name", "primary_owner_last_name"]
        assert list(old.loc[(swis, pk), owner_cols]) != list(new.loc[(swis, pk), owner_cols])


def test_rates_change_for_the_second_town(sample: Path) -> None:
    rates = pd.read_csv(sample.with_name("rates.csv"), dtype={"swis_code": str})
    r = rates.set_index(["swis_code", "rate_year"])["equalization_rate"]
    assert r[("104600", 2022)] == 35.0 and r[("104600", 2023)] == 33.9
    assert r[("104400", 2022)] == r[("104400", 2023)] == 100.0


def test_alternatives_are_named_and_in_the_territory_crs(sample: Path) -> None:
    alt = json.loads(sample.with_name("alternatives.geojson").read_text())
    terr = json.loads(sample.with_name("territory.geojson").read_text())
    assert alt["crs"] == terr["crs"]
    assert [f["properties"]["name"] for f in alt["features"]] == list(ALTERNATIVES)
    assert alt["features"][0]["geometry"] == terr["features"][0]["geometry"]  # as filed
    shapes = [shapely.geometry.shape(f["geometry"]) for f in alt["features"]]
    assert all(s.geom_type == "Polygon" and s.is_valid for s in shapes)
    assert shapes[1].area < shapes[0].area < shapes[2].area and shapes[3].area < shapes[0].area


# --- diff and batch on the sample ----------------------------------------------------------


def test_diff_reports_split_signer_owner_change_and_rate(sample: Path, diff: ResultsDiff) -> None:
    c = diff.changes
    split_keys = {
        ln.removeprefix("split: ").split(" ->")[0].split(":")[1]
        for ln in _changes(sample)
        if ln.startswith("split: ")
    }
    assert diff.count("split") >= 1
    assert set(c.loc[c["change"] == "split", "print_key_code"]) <= split_keys
    # the owner change of a signer's parcel, with the signer
    signer = c.loc[
        (c["change"] == "signer_owner_changed") & c["field"].str.startswith("owners changed")
    ]
    assert len(signer) >= 2 and signer["name"].notna().all()
    assert signer["field"].str.contains("no longer credited").any()
    # the equalization rate of the second town, per parcel and per test
    rate = c.loc[(c["change"] == "value_changed") & (c["field"] == "equalization_rate")]
    assert not rate.empty
    assert set(rate["before"]) == {35.0} and set(rate["after"]) == {33.9}
    t = diff.tests
    assert t.loc["owner test, part 104600: equalization rate", "before"] == 35.0
    assert t.loc["owner test, part 104600: equalization rate", "after"] == 33.9
    # each test before and after: the owner test moved, both runs have one
    assert t.loc["owner test: percent", "before"] != t.loc["owner test: percent", "after"]
    assert "owner test: percent" in set(c.loc[c["change"] == "test", "field"])
    report = diff.report()
    for words in ("Parcels split:", "owners changed; no longer credited", "equalization rate"):
        assert words in report


def test_batch_with_alternatives_one_row_each(sample: Path, runs: tuple[Path, Path]) -> None:
    result = run_batch([sample], alternatives=sample.with_name("alternatives.geojson"))
    assert [r.name for r in result.rows] == list(ALTERNATIVES)
    assert result.loads == 1
    table = result.table()
    assert list(table.columns) == list(ALTERNATIVES)
    plain = json.loads((runs[0] / "summary.json").read_text())
    expected = metrics(plain, name="as filed")
    for label in ("owner test: percent", "owner test: total value", "resident test: percent"):
        assert table.loc[label, "as filed"] == pytest.approx(expected[label], rel=1e-12)
    assert (
        table.loc["territory: square miles", "smaller core"] < expected["territory: square miles"]
    )
