"""`petition batch`: two boundary alternatives of the hand-worked petition, inputs read once.

Alternatives (the petition of ``test_run_handworked``):

* ``east``: x in [0, 1500], y in [0, 500] (the original territory): A1, A2 whole,
  B1 half. Full values 100,000 + 50,000 + 40,000 = 190,000; signers 125,000
  -> 65.789... %; part B 0 % -> fails.
* ``west``: x in [0, 1250], y in [0, 500]: A1, A2 whole, B1 a quarter
  (250 of its 1000 ft width): 40,000 x 0.25 = 10,000 assessed / 0.5 = 20,000
  full. Total 100,000 + 50,000 + 20,000 = 170,000; signers 125,000 ->
  73.529... %; part B 0 % -> fails.

The batch must give the figures of two separate ``petition run``s.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import geopandas as gpd
import pandas as pd
import pytest
import shapely
from test_run_handworked import CRS, _b, make_petition
from typer.testing import CliRunner

from pipeline.batch import run_batch, write_batch
from pipeline.cli import app
from pipeline.errors import InputError
from pipeline.run import run_petition

ALTS = {"east": (0, 0, 1500, 500), "west": (0, 0, 1250, 500)}


def _same(a: Any, b: Any, where: str = "") -> None:
    """Equal JSON objects, floats to 1e-9 relative."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), where
        for k in a:
            _same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and not isinstance(b, bool):
        assert math.isclose(a, float(b), rel_tol=1e-9, abs_tol=1e-9), where
    else:
        assert a == b, where


@pytest.fixture(scope="module")
def petition(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("batch")
    config = make_petition(root / "p")
    alts = root / "p" / "alternatives"
    alts.mkdir()
    configs = {}
    for name, (x1, y1, x2, y2) in ALTS.items():
        gpd.GeoDataFrame(geometry=[_b(x1, y1, x2, y2)], crs=CRS).to_file(
            alts / f"{name}.geojson", driver="GeoJSON"
        )
        cfg = root / "p" / f"petition-{name}.toml"
        cfg.write_text(
            config.read_text().replace(
                'boundary = "territory.geojson"', f'boundary = "alternatives/{name}.geojson"'
            )
        )
        configs[name] = cfg
    runs = {
        name: json.loads((run_petition(cfg, out=root / f"run-{name}") / "summary.json").read_text())
        for name, cfg in configs.items()
    }
    return {"root": root, "config": config, "alts": alts, "configs": configs, "runs": runs}


def test_alternatives_folder_equals_separate_runs(petition) -> None:
    result = run_batch([petition["config"]], alternatives=petition["alts"])
    assert result.loads == 1  # rolls and parcel layer read once
    assert [r.name for r in result.rows] == ["east", "west"]
    for row in result.rows:
        _same(row.summary, petition["runs"][row.name], row.name)
    east, west = (r.summary["owner_test"] for r in result.rows)
    assert east["percent"] == pytest.approx(100 * 125_000 / 190_000)  # 65.789...
    assert east["passes"] is False  # part B: 0 %
    assert west["total_value"] == pytest.approx(170_000)
    assert west["percent"] == pytest.approx(100 * 125_000 / 170_000)  # 73.529...
    assert west["parts"][1]["total_full"] == pytest.approx(20_000)
    table = result.table()
    assert list(table.columns) == ["east", "west"]
    assert table.loc["owner test, part 104600: total full"].tolist() == pytest.approx(
        [40_000, 20_000]
    )


def _add_a_third_towns_lot(root: Path) -> None:
    """A lot of a third town (SWIS 1050xx, no [[towns]] table) beside the territory."""
    layer = gpd.read_file(root / "parcels.gpkg")
    extra = gpd.GeoDataFrame(
        {"SWIS": ["105089"], "PRINT_KEY": ["5.-5-5"]}, geometry=[_b(0, -600, 500, -100)], crs=CRS
    )
    pd.concat([layer, extra], ignore_index=True).to_file(root / "parcels.gpkg", driver="GPKG")


def test_an_input_error_met_by_one_of_several_configs_names_it(petition, tmp_path: Path) -> None:
    # the second config's territory reaches a parcel of a town with no [[towns]]
    # table: the error names the parcel layer's feature and the config
    root = tmp_path / "p"
    config = make_petition(root)
    _add_a_third_towns_lot(root)
    grown = root / "grown.geojson"
    territory = gpd.read_file(root / "territory.geojson").geometry.iloc[0]
    gpd.GeoDataFrame(geometry=[territory.union(_b(0, -600, 500, 0))], crs=CRS).to_file(
        grown, driver="GeoJSON"
    )
    other = root / "petition-grown.toml"
    other.write_text(config.read_text().replace('"territory.geojson"', '"grown.geojson"'))
    with pytest.raises(InputError) as exc:
        run_batch([config, other])
    assert exc.value.problem.endswith("(reached by config petition-grown.toml)")


def test_many_configs_share_one_load(petition) -> None:
    cfgs = petition["configs"]
    result = run_batch([cfgs["east"], cfgs["west"]])
    assert result.loads == 1  # the two configs differ only in their territory
    # both are named "Village of Handworked": the second column is told apart by
    # its config, and each summary keeps the petition's own name (audit A4: the
    # name was rewritten "(2)" in batch.json)
    assert [r.name for r in result.rows] == [
        "Village of Handworked [petition-east]",
        "Village of Handworked [petition-west]",
    ]
    assert {r.summary["petition"]["name"] for r in result.rows} == {"Village of Handworked"}
    _same(result.rows[1].summary, petition["runs"]["west"])
    # the table says what each column was computed under: date, regime, roll years, rates
    table = result.table()
    assert table.loc["regime"].tolist() == ["2-202-pre-2024"] * 2
    assert table.loc["value basis"].tolist() == ["assessment_total"] * 2
    assert table.loc["petition: filed on"].tolist() == ["2023-06-01"] * 2
    assert table.loc["roll, town 104600: roll year"].tolist() == [2022, 2022]
    assert table.loc["roll, town 104600: equalization rate"].tolist() == [50.0, 50.0]


def test_layer_of_features_named_by_field(petition, tmp_path: Path) -> None:
    layer = tmp_path / "alts.gpkg"
    gpd.GeoDataFrame(
        {"label": ["W", "E"]},
        geometry=[_b(*ALTS["west"]), _b(*ALTS["east"])],
        crs=CRS,
    ).to_file(layer, driver="GPKG")
    result = run_batch([petition["config"]], alternatives=layer, name_field="label")
    assert [r.name for r in result.rows] == ["W", "E"]
    _same(result.rows[0].summary, petition["runs"]["west"])
    files = write_batch(tmp_path / "out", result)
    table = pd.read_csv(files["batch.csv"], index_col="metric")
    assert list(table.columns) == ["W", "E"]
    assert float(table.loc["owner test: percent", "W"]) == pytest.approx(1250 / 17)  # 73.53
    data = json.loads(files["batch.json"].read_text())
    assert data["loads"] == 1
    assert [t["name"] for t in data["territories"]] == ["W", "E"]


def test_a_bad_alternative_is_named_by_its_file_and_feature(petition, tmp_path: Path) -> None:
    # feature 2 lies beyond every parcel (x 5000..5500): as `petition run` on
    # that territory, bad input, but named as the alternatives' file and feature
    layer = tmp_path / "alts.geojson"
    gpd.GeoDataFrame(
        {"name": ["west", "far"]},
        geometry=[_b(*ALTS["west"]), _b(5000, 0, 5500, 500)],
        crs=CRS,
    ).to_file(layer, driver="GeoJSON")
    with pytest.raises(InputError) as exc:
        run_batch([petition["config"]], alternatives=layer)
    assert (Path(str(exc.value.file)).name, exc.value.feature) == ("alts.geojson", 2)
    assert "overlaps no parcel" in exc.value.problem


def _bowtie() -> shapely.Polygon:
    """A bow-tie ring over the petition's parcels (self-intersecting: repaired)."""
    x0, y0 = 700_000.0, 1_300_000.0
    return shapely.Polygon(
        [(x0, y0), (x0 + 1500, y0 + 500), (x0 + 1500, y0), (x0, y0 + 500), (x0, y0)]
    )


def test_an_alternatives_repair_is_in_its_summary(petition, tmp_path: Path) -> None:
    # a bow-tie ring is repaired; the run reports its own repairs in the
    # summary's warnings, and so does each alternative of a batch
    layer = tmp_path / "bowtie.geojson"
    gpd.GeoDataFrame({"name": ["bow"]}, geometry=[_bowtie()], crs=CRS).to_file(
        layer, driver="GeoJSON"
    )
    result = run_batch([petition["config"]], alternatives=layer)
    assert any("repaired" in w for w in result.rows[0].summary["warnings"])


def test_batch_command(petition, tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "b"
    ok = runner.invoke(
        app,
        [
            "batch",
            str(petition["config"]),
            "--alternatives",
            str(petition["alts"]),
            "--out",
            str(out),
        ],
    )
    assert ok.exit_code == 0, ok.output
    assert (out / "batch.csv").is_file() and (out / "batch.json").is_file()
    bad = runner.invoke(
        app, ["batch", str(petition["config"]), "--alternatives", str(tmp_path), "--out", str(out)]
    )
    assert bad.exit_code == 2
    assert "no boundary file" in bad.stderr


def test_configs_differing_in_their_villages_are_loaded_apart(petition, tmp_path: Path) -> None:
    # "west" again, with a village polygon over x 300..400 (a real part of the
    # territory): that config is loaded on its own, and its row carries the
    # deficiency its own run gives; the plain "east" row does not
    cfgs = petition["configs"]
    root = cfgs["west"].parent
    gpd.GeoDataFrame(geometry=[_b(300, 0, 400, 500)], crs=CRS).to_file(
        root / "village-w.geojson", driver="GeoJSON"
    )
    with_village = root / "petition-west-village.toml"
    with_village.write_text(
        cfgs["west"]
        .read_text()
        .replace(
            'boundary = "alternatives/west.geojson"\n',
            'boundary = "alternatives/west.geojson"\nvillages = "village-w.geojson"\n',
        )
    )
    result = run_batch([cfgs["east"], with_village])
    assert result.loads == 2
    east, west = (r.summary for r in result.rows)
    assert west["territory"]["includes_existing_village"] is True
    assert "includes_existing_village" in [d["code"] for d in west["deficiencies"]]
    assert east["territory"]["includes_existing_village"] is False


def test_an_alternative_into_a_town_without_a_table_is_bad_input(petition, tmp_path: Path) -> None:
    # a third town's lot (SWIS 1050xx) beside the territory, on the parcel layer:
    # the config's territory misses it, an alternative taking it in is bad input,
    # as its own run would be (its value would be missing from the owner test)
    from pipeline.scenario import Scenario

    root = tmp_path / "p"
    config = make_petition(root)
    _add_a_third_towns_lot(root)
    base = Scenario.from_config(config)
    assert base.results()["owner_test"]["applies"] is True
    grown = base.add_polygon(_b(0, -600, 500, 0))
    with pytest.raises(InputError, match="town 105000 has no \\[\\[towns\\]\\] table"):
        grown.results()
    # in a batch: named where it is (the parcel layer's feature), and which
    # alternative reached it
    layer = tmp_path / "alts.geojson"
    gpd.GeoDataFrame(
        {"name": ["same", "grown"]}, geometry=[base.territory, grown.territory], crs=CRS
    ).to_file(layer, driver="GeoJSON")
    with pytest.raises(InputError) as exc:
        run_batch([config], alternatives=layer)
    assert Path(str(exc.value.file)).name == "parcels.gpkg" and exc.value.feature == 5
    assert exc.value.problem.endswith("(reached by alternative 'grown', alts.geojson, feature 2)")


def test_an_alternative_outside_the_town_polygons_is_named_by_its_feature(
    petition, tmp_path: Path
) -> None:
    # feature 2 reaches 300 ft below the town polygons (y -300..500, x 0..1500):
    # 1500 x 300 = 450,000 of 1,200,000 sq ft (37.5 %) in no town polygon, bad
    # input as its own run would be, named as the alternatives' file and
    # feature, not as the config's territory
    layer = tmp_path / "alts.geojson"
    gpd.GeoDataFrame(
        {"name": ["west", "low"]},
        geometry=[_b(*ALTS["west"]), _b(0, -300, 1500, 500)],
        crs=CRS,
    ).to_file(layer, driver="GeoJSON")
    with pytest.raises(InputError) as exc:
        run_batch([petition["config"]], alternatives=layer)
    assert (Path(str(exc.value.file)).name, exc.value.feature) == ("alts.geojson", 2)
    assert (
        "alternative 'low'" in exc.value.problem
        and "none of the town polygons" in exc.value.problem
    )


@pytest.mark.parametrize("blank", [None, "  "])
def test_an_alternative_without_a_name_is_named_by_its_feature(
    petition, tmp_path: Path, blank: str | None
) -> None:
    # a `name` field that one feature leaves empty: not a column headed "nan"
    layer = tmp_path / "alts.geojson"
    gpd.GeoDataFrame(
        {"name": ["west", blank]},
        geometry=[_b(*ALTS["west"]), _b(*ALTS["east"])],
        crs=CRS,
    ).to_file(layer, driver="GeoJSON")
    with pytest.raises(InputError) as exc:
        run_batch([petition["config"]], alternatives=layer)
    assert (exc.value.feature, exc.value.column) == (2, "name")
    assert "without a name" in exc.value.problem


def test_a_repair_note_goes_to_its_own_alternative(petition, tmp_path: Path) -> None:
    # feature 2 is a bow-tie (repaired); feature 1 is a plain box: the note is
    # feature 2's alone
    layer = tmp_path / "alts.geojson"
    gpd.GeoDataFrame(
        {"name": ["west", "bow"]}, geometry=[_b(*ALTS["west"]), _bowtie()], crs=CRS
    ).to_file(layer, driver="GeoJSON")
    result = run_batch([petition["config"]], alternatives=layer)
    files = write_batch(tmp_path / "out", result)
    notes = {
        t["name"]: t["notes"] for t in json.loads(files["batch.json"].read_text())["territories"]
    }
    assert notes["west"] == []
    assert any("feature 2" in n for n in notes["bow"])


def test_the_features_of_an_alternative_are_counted_from_1_as_the_run_counts_them(
    petition, tmp_path: Path
) -> None:
    # audit A25 F3: a boundary file of two features that overlap (x 0..1000
    # and x 500..1500, y 0..500: 500 x 500 = 250,000 of the union's 750,000 =
    # 33.3333 %) is warned of as features 1 and 2 by `petition run`; a batch
    # named them 0 and 1
    folder = tmp_path / "alts"
    folder.mkdir()
    layer = folder / "two.geojson"
    gpd.GeoDataFrame(geometry=[_b(0, 0, 1000, 500), _b(500, 0, 1500, 500)], crs=CRS).to_file(
        layer, driver="GeoJSON"
    )
    cfg = petition["config"].parent / "petition-two-features.toml"
    cfg.write_text(
        petition["config"]
        .read_text()
        .replace('boundary = "territory.geojson"', f'boundary = "{layer.as_posix()}"')
    )
    run = json.loads((run_petition(cfg, out=tmp_path / "run") / "summary.json").read_text())
    said = [w for w in run["warnings"] if "overlap" in w]
    assert len(said) == 1 and ": 1 and 2 by 33.3333 %" in said[0]
    for result in (
        run_batch([petition["config"]], alternatives=folder),
        run_batch([cfg]),
    ):
        assert [w for w in result.rows[0].summary["warnings"] if "overlap" in w] == said
