"""Parcel and boundary layers: fields, CRS, repairs, bad geometry."""

from __future__ import annotations

import json
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pyogrio
import pytest
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box

from pipeline.errors import InputError
from pipeline.frames import PARCEL_COLUMNS
from pipeline.io import read_boundary, read_parcels

UTM = "EPSG:26918"

# writing a test layer without CRS is deliberate
pytestmark = pytest.mark.filterwarnings("ignore:'crs' was not provided:UserWarning")
BOWTIE = Polygon([(0, 0), (10, 10), (10, 0), (0, 10)])  # self-intersecting ring


def layer(
    tmp_path: Path,
    data: dict[str, list[object]],
    geoms: list[object],
    *,
    crs: str | None = UTM,
    name: str = "parcels.gpkg",
) -> Path:
    p = tmp_path / name
    gpd.GeoDataFrame(data, geometry=geoms, crs=crs).to_file(p)
    return p


def test_gpkg_swis_print_key(tmp_path: Path) -> None:
    p = layer(
        tmp_path,
        {"SWIS": ["104401", "104401"], "PRINT_KEY": ["43.11-1-2", "043.011-0001-003.000"]},
        [box(0, 0, 10, 10), box(10, 0, 20, 10)],
    )
    gdf, notes = read_parcels(p, crs=None, working_crs=UTM)
    assert tuple(gdf.columns) == PARCEL_COLUMNS
    assert gdf["parcel_key"].tolist() == ["104401|43.11-1-2", "104401|43.11-1-3"]
    assert gdf["print_key"].tolist() == ["43.11-1-2", "043.011-0001-003.000"]
    assert gdf["source_row"].tolist() == [1, 2]
    assert gdf.geometry.area.tolist() == [100.0, 100.0]  # 10 m x 10 m
    assert notes == []


def test_lower_case_fields_and_numeric_swis(tmp_path: Path) -> None:
    # SWIS stored as a number: 10100 is 010100 (Albany County) with its zero lost
    p = layer(tmp_path, {"swis": [10100], "printkey": ["1.-1-1"]}, [box(0, 0, 1, 1)])
    gdf, _ = read_parcels(p, crs=None, working_crs=UTM)
    assert gdf["parcel_key"].tolist() == ["010100|1-1-1"]


def test_five_digit_swis_written_as_text(tmp_path: Path) -> None:
    # audit A18 F2: "12289" as text (a spreadsheet's save) is 012289, as in the roll
    p = layer(tmp_path, {"SWIS": ["12289"], "PRINT_KEY": ["1.-1-1"]}, [box(0, 0, 1, 1)])
    gdf, _ = read_parcels(p, crs=None, working_crs=UTM)
    assert gdf["parcel_key"].tolist() == ["012289|1-1-1"]


def test_combined_field(tmp_path: Path) -> None:
    p = layer(
        tmp_path,
        {"SWISPRINTK": ["503689-13.-3-1", "503689-18.-4-17.2"]},
        [box(0, 0, 1, 1), box(1, 0, 2, 1)],
        name="p.geojson",
    )
    gdf, _ = read_parcels(p, crs=None, working_crs=UTM)
    assert gdf["parcel_key"].tolist() == ["503689|13-3-1", "503689|18-4-17.2"]
    assert gdf["swis"].tolist() == ["503689", "503689"]


def test_shapefile_and_reprojection(tmp_path: Path) -> None:
    p = layer(
        tmp_path,
        {"SWIS": ["104401"], "PRINT_KEY": ["1-1-1"]},
        [box(500000, 4600000, 500100, 4600100)],
        name="p.shp",
    )
    gdf, _ = read_parcels(p, crs=None, working_crs="EPSG:4326")
    assert gdf.crs.to_epsg() == 4326
    # 500000 m easting is the central meridian of UTM 18N: -75 degrees
    assert abs(gdf.geometry.iloc[0].bounds[0] - (-75.0)) < 1e-6


def test_geoparquet(tmp_path: Path) -> None:
    p = tmp_path / "p.parquet"
    gpd.GeoDataFrame(
        {"SWIS": ["104401"], "PRINT_KEY": ["1-1-1"]}, geometry=[box(0, 0, 1, 1)], crs=UTM
    ).to_parquet(p)
    gdf, _ = read_parcels(p, crs=None, working_crs=UTM)
    assert gdf["parcel_key"].tolist() == ["104401|1-1-1"]


def test_repair_is_reported(tmp_path: Path) -> None:
    p = layer(
        tmp_path,
        {"SWIS": ["104401", "104401"], "PRINT_KEY": ["1-1-1", "1-1-2"]},
        [box(20, 0, 30, 10), BOWTIE],
    )
    gdf, notes = read_parcels(p, crs=None, working_crs=UTM)
    assert gdf.geometry.is_valid.all()
    assert gdf.geometry.iloc[1].geom_type in ("Polygon", "MultiPolygon")
    # the bow-tie becomes two triangles of 5 x 10 / 2 = 25 m2 each
    assert gdf.geometry.iloc[1].area == pytest.approx(50.0)
    assert len(notes) == 1 and "feature 2" in notes[0] and "self-intersection" in notes[0]


def test_duplicate_parcel_keys_are_kept(tmp_path: Path) -> None:
    p = layer(
        tmp_path,
        {"SWIS": ["104401", "104401"], "PRINT_KEY": ["1-1-1", "1.0-1-1"]},
        [box(0, 0, 1, 1), box(1, 0, 2, 1)],
    )
    gdf, _ = read_parcels(p, crs=None, working_crs=UTM)
    assert gdf["parcel_key"].tolist() == ["104401|1-1-1", "104401|1-1-1"]


def test_crs_from_config_when_file_has_none(tmp_path: Path) -> None:
    # (a GeoJSON without a crs member is read as EPSG:4326 by GDAL: use a shapefile, no .prj)
    p = layer(
        tmp_path,
        {"SWIS": ["104401"], "PRINT_KEY": ["1-1-1"]},
        [box(0, 0, 1, 1)],
        crs=None,
        name="p.shp",
    )
    with pytest.raises(InputError) as exc:
        read_parcels(p, crs=None, working_crs=UTM)
    assert "no CRS" in exc.value.message and "p.shp" in exc.value.message
    gdf, notes = read_parcels(p, crs=UTM, working_crs=UTM)
    assert gdf.crs.to_epsg() == 26918 and notes == []


def test_file_crs_wins_over_config(tmp_path: Path) -> None:
    p = layer(tmp_path, {"SWIS": ["104401"], "PRINT_KEY": ["1-1-1"]}, [box(0, 0, 1, 1)])
    gdf, notes = read_parcels(p, crs="EPSG:2260", working_crs=UTM)
    assert gdf.geometry.iloc[0].area == pytest.approx(1.0)  # not reinterpreted as feet
    assert len(notes) == 1 and "EPSG:26918" in notes[0] and "EPSG:2260" in notes[0]


def test_unknown_config_crs(tmp_path: Path) -> None:
    p = layer(
        tmp_path,
        {"SWIS": ["104401"], "PRINT_KEY": ["1-1-1"]},
        [box(0, 0, 1, 1)],
        crs=None,
        name="p.shp",
    )
    with pytest.raises(InputError) as exc:
        read_parcels(p, crs="EPSG:999999", working_crs=UTM)
    assert exc.value.column == "crs"


@pytest.mark.parametrize(
    ("geoms", "fragment"),
    [
        ([box(0, 0, 1, 1), None], "missing"),
        ([box(0, 0, 1, 1), Polygon()], "empty"),
        ([box(0, 0, 1, 1), Point(0, 0)], "Point"),
        ([box(0, 0, 1, 1), LineString([(0, 0), (1, 1)])], "LineString"),
    ],
)
def test_bad_geometry(tmp_path: Path, geoms: list[object], fragment: str) -> None:
    p = layer(
        tmp_path,
        {"SWIS": ["104401", "104401"], "PRINT_KEY": ["1-1-1", "1-1-2"]},
        geoms,
        name="p.geojson",
    )
    with pytest.raises(InputError) as exc:
        read_parcels(p, crs=None, working_crs=UTM)
    assert exc.value.feature == 2
    assert "p.geojson, feature 2" in exc.value.message and fragment in exc.value.message


def test_missing_fields(tmp_path: Path) -> None:
    p = layer(tmp_path, {"NAME": ["x"]}, [box(0, 0, 1, 1)])
    with pytest.raises(InputError) as exc:
        read_parcels(p, crs=None, working_crs=UTM)
    assert exc.value.column == "SWIS" and "NAME" in exc.value.message


def test_bad_print_key_and_swis(tmp_path: Path) -> None:
    p = layer(
        tmp_path,
        {"SWIS": ["104401", "104401"], "PRINT_KEY": ["1-1-1", "1--1"]},
        [box(0, 0, 1, 1), box(1, 0, 2, 1)],
    )
    with pytest.raises(InputError) as exc:
        read_parcels(p, crs=None, working_crs=UTM)
    assert (exc.value.feature, exc.value.column) == (2, "PRINT_KEY")
    p = layer(
        tmp_path,
        {"SWIS": ["104401", "1044"], "PRINT_KEY": ["1-1-1", "1-1-2"]},
        [box(0, 0, 1, 1), box(1, 0, 2, 1)],
        name="q.gpkg",
    )
    with pytest.raises(InputError) as exc:
        read_parcels(p, crs=None, working_crs=UTM)
    assert (exc.value.feature, exc.value.column) == (2, "SWIS")
    p = layer(
        tmp_path,
        {"SWIS": ["104401", None], "PRINT_KEY": ["1-1-1", "1-1-2"]},
        [box(0, 0, 1, 1), box(1, 0, 2, 1)],
        name="r.gpkg",
    )
    with pytest.raises(InputError) as exc:
        read_parcels(p, crs=None, working_crs=UTM)
    assert (exc.value.feature, exc.value.column) == (2, "SWIS")


def test_missing_and_empty_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        read_parcels(tmp_path / "none.gpkg", crs=None, working_crs=UTM)
    (tmp_path / "empty.geojson").write_text("")
    with pytest.raises(InputError, match="empty"):
        read_parcels(tmp_path / "empty.geojson", crs=None, working_crs=UTM)
    (tmp_path / "nofeature.geojson").write_text('{"type":"FeatureCollection","features":[]}')
    with pytest.raises(InputError, match="no feature"):
        read_parcels(tmp_path / "nofeature.geojson", crs=None, working_crs=UTM)


def test_real_tompkins_parcels(real_data: Path) -> None:
    gdf, notes = read_parcels(
        real_data / "tompkins-4-parcels.gpkg", crs=None, working_crs="EPSG:2261"
    )  # NY Central, US feet
    assert len(gdf) == 4
    assert gdf["swis"].tolist() == ["503689"] * 4
    assert gdf["print_key"].tolist() == ["13.-3-1", "18.-4-11", "18.-4-17.2", "18.-4-18.1"]
    assert gdf["parcel_key"].tolist() == [
        "503689|13-3-1",
        "503689|18-4-11",
        "503689|18-4-17.2",
        "503689|18-4-18.1",
    ]
    assert gdf.crs.to_epsg() == 2261
    assert notes == []
    # the layer's own CALCACRES of 13.-3-1 is 30.04 acres; planar area in state plane feet
    acres = gdf.geometry.iloc[0].area / 43560.0
    assert acres == pytest.approx(30.04, rel=0.01)


def test_real_tompkins_parcels_keyed_by_their_26_character_sbl(
    real_data: Path, tmp_path: Path
) -> None:
    # the same 4 parcels with only SWIS and SBL: "50368901300000030010000000" is
    # SWIS 503689 then the 20-character SBL 013.000-0003-001.000 = 13.-3-1
    layer = gpd.read_file(real_data / "tompkins-4-parcels.gpkg")[["SWIS", "SBL", "geometry"]]
    layer.to_file(tmp_path / "sbl.gpkg", driver="GPKG")
    gdf, _ = read_parcels(tmp_path / "sbl.gpkg", crs=None, working_crs="EPSG:2261")
    assert gdf["parcel_key"].tolist() == [
        "503689|13-3-1",
        "503689|18-4-11",
        "503689|18-4-17.2",
        "503689|18-4-18.1",
    ]


# -------------------------------------------------------------------- boundaries


def test_boundary(tmp_path: Path) -> None:
    p = layer(
        tmp_path,
        {"NAME": ["T"]},
        [MultiPolygon([box(0, 0, 1, 1), box(2, 0, 3, 1)])],
        name="territory.geojson",
    )
    gdf, notes = read_boundary(p, crs=None, working_crs=UTM, what="territory")
    assert list(gdf.columns) == ["NAME", "source_row", "geometry"]
    assert gdf.geometry.area.sum() == pytest.approx(2.0)
    assert notes == []


def test_boundary_repair_and_lines(tmp_path: Path) -> None:
    p = layer(tmp_path, {"NAME": ["a"]}, [BOWTIE], name="t.geojson")
    gdf, notes = read_boundary(p, crs=None, working_crs=UTM, what="territory")
    assert gdf.geometry.is_valid.all() and "feature 1" in notes[0]
    p = layer(
        tmp_path,
        {"NAME": ["a", "b"]},
        [box(0, 0, 1, 1), LineString([(0, 0), (1, 0)])],
        name="d.geojson",
    )
    with pytest.raises(InputError) as exc:
        read_boundary(p, crs=None, working_crs=UTM, what="district")
    assert exc.value.feature == 2 and "district" in exc.value.message


def test_a_boundary_hole_outside_its_shell_is_refused(tmp_path: Path) -> None:
    # audit A33 F1: a 1500 x 500 shell with a 400 x 400 "hole" ring at x
    # 1600..2000, outside it. The repair made the ring land of the territory
    # (750,000 + 160,000 sq ft), the opposite of a hole: refused, feature 1
    shell = [(0, 0), (1500, 0), (1500, 500), (0, 500)]
    ring = [(1600, 600), (2000, 600), (2000, 1000), (1600, 1000)]
    p = layer(tmp_path, {"NAME": ["a"]}, [Polygon(shell, [ring])], name="t.geojson")
    with pytest.raises(InputError) as exc:
        read_boundary(p, crs=None, working_crs=UTM, what="territory")
    assert exc.value.feature == 1 and "hole ring lies outside" in exc.value.problem
    # a parcel drawn so is still repaired (the county's layer, told in a note)
    q = layer(
        tmp_path,
        {"SWIS": ["104489"], "PRINT_KEY": ["1.-1-1"]},
        [Polygon(shell, [ring])],
        name="parcels.geojson",
    )
    assert len(read_parcels(q, crs=None, working_crs=UTM)[0]) == 1


def test_a_boundary_repair_that_changes_the_area_says_so(tmp_path: Path) -> None:
    # a bow-tie's rings cancel as written (area 0); repaired it is two
    # triangles of 25 each (10 x 5 / 2): the note gives both areas
    p = layer(tmp_path, {"NAME": ["a"]}, [BOWTIE], name="t.geojson")
    _, notes = read_boundary(p, crs=None, working_crs=UTM, what="territory")
    assert notes == [
        "t.geojson feature 1: self-intersection repaired (area 0 before, 50 after, in the "
        "layer's units: check the boundary)"
    ]


def test_a_hole_touching_its_shell_stays_a_hole(tmp_path: Path) -> None:
    # a 500 x 400 territory with a 100 x 100 hole at x 400..500, y 100..200: the
    # hole touches the shell's east edge at (500, 100)-(500, 200), which makes the
    # ring invalid as written. The area meant is 500 * 400 - 100 * 100 = 190,000;
    # repairing by the rings' lines (make_valid's default) fills the hole: 200,000.
    shell = [(0, 0), (500, 0), (500, 400), (0, 400)]
    hole = [(400, 100), (500, 100), (500, 200), (400, 200)]
    p = layer(tmp_path, {"NAME": ["a"]}, [Polygon(shell, [hole])], name="t.geojson")
    gdf, notes = read_boundary(p, crs=None, working_crs=UTM, what="territory")
    assert gdf.geometry.is_valid.all() and "feature 1" in notes[0]
    assert gdf.geometry.area.sum() == pytest.approx(190_000.0)
    # the same shape in a parcel layer: the same area
    p = layer(tmp_path, {"SWIS": ["104401"], "PRINT_KEY": ["1.-1-1"]}, [Polygon(shell, [hole])])
    gdf, notes = read_parcels(p, crs=None, working_crs=UTM)
    assert gdf.geometry.area.sum() == pytest.approx(190_000.0)


def test_a_file_of_several_layers_is_refused(tmp_path: Path) -> None:
    # a GeoPackage holding the 2019 boundary and the proposed one: reading its
    # first layer (GDAL's default) could build the petition on the wrong one
    p = tmp_path / "territory.gpkg"
    gpd.GeoDataFrame({"NAME": ["old"]}, geometry=[box(0, 0, 2, 2)], crs=UTM).to_file(
        p, layer="boundary_2019"
    )
    gpd.GeoDataFrame({"NAME": ["new"]}, geometry=[box(0, 0, 1, 1)], crs=UTM).to_file(
        p, layer="proposed_2023"
    )
    with pytest.raises(InputError, match="2 layers with geometry") as exc:
        read_boundary(p, crs=None, working_crs=UTM, what="territory")
    assert "boundary_2019, proposed_2023" in exc.value.message
    # a table without geometry beside the one layer (styles, metadata) is no choice
    q = tmp_path / "one.gpkg"
    gpd.GeoDataFrame({"NAME": ["new"]}, geometry=[box(0, 0, 1, 1)], crs=UTM).to_file(
        q, layer="proposed_2023"
    )
    pyogrio.write_dataframe(pd.DataFrame({"style": ["x"]}), q, layer="layer_styles")
    gdf, _ = read_boundary(q, crs=None, working_crs=UTM, what="territory")
    assert gdf.geometry.area.sum() == pytest.approx(1.0)


def test_boundary_no_crs(tmp_path: Path) -> None:
    p = layer(tmp_path, {"NAME": ["a"]}, [box(0, 0, 1, 1)], crs=None, name="t.shp")
    with pytest.raises(InputError, match="no CRS"):
        read_boundary(p, crs=None, working_crs=UTM, what="territory")


def test_real_athens_boundaries(real_data: Path) -> None:
    town, _ = read_boundary(
        real_data / "athens" / "athens-town.shp", crs=None, working_crs=UTM, what="town"
    )
    village, _ = read_boundary(
        real_data / "athens" / "athens-village.shp", crs=None, working_crs=UTM, what="village"
    )
    assert len(town) >= 1 and len(village) >= 1
    # the village lies inside the town
    assert town.union_all().buffer(1.0).contains(village.union_all())


def test_geojson_without_a_crs_member_in_feet(tmp_path: Path) -> None:
    # a legacy GeoJSON in NY State Plane East feet with no "crs" member: GDAL
    # reads it as longitude/latitude (RFC 7946), which its numbers cannot be
    p = tmp_path / "territory.geojson"
    ring = [[700000, 1300000], [701000, 1300000], [701000, 1301000], [700000, 1300000]]
    p.write_text(
        '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, '
        f'"geometry": {{"type": "Polygon", "coordinates": [{ring}]}}}}]}}'
    )
    # with the config's crs: that CRS is used, and a note says why
    gdf, notes = read_boundary(p, crs="EPSG:2260", working_crs="EPSG:2260", what="territory")
    # a right triangle of legs 1,000 ft: 500,000 sq ft
    assert gdf.geometry.area.sum() == pytest.approx(500_000.0)
    assert any("not degrees" in n and "EPSG:2260" in n for n in notes)
    # without it: bad input naming the file and the crs key
    with pytest.raises(InputError) as exc:
        read_boundary(p, crs=None, working_crs="EPSG:2260", what="territory")
    assert exc.value.column == "crs" and "are not degrees" in exc.value.message
    # a configured longitude/latitude CRS cannot be right either (audit A5: a
    # GEOS traceback while repairing the reprojected rings, before)
    with pytest.raises(InputError) as exc:
        read_boundary(p, crs="EPSG:4326", working_crs="EPSG:2260", what="territory")
    assert exc.value.column == "crs"
    assert "the configured crs EPSG:4326 is longitude/latitude" in exc.value.message


def test_layer_crs_is_the_crs_the_reader_will_use(tmp_path: Path) -> None:
    from pipeline.io._vector import layer_crs

    ring = [[600000, 4685000], [600100, 4685000], [600100, 4685100], [600000, 4685000]]
    feature = {
        "type": "Feature",
        "properties": {},
        "geometry": {"type": "Polygon", "coordinates": [ring]},
    }
    # no "crs" member: RFC 7946 says degrees, but 600,000 cannot be a longitude,
    # so the reader takes the configured CRS, and so does layer_crs
    projected = tmp_path / "projected.geojson"
    projected.write_text(json.dumps({"type": "FeatureCollection", "features": [feature]}))
    assert layer_crs(projected, crs="EPSG:26918") == "EPSG:26918"
    assert layer_crs(projected) is None
    degrees = tmp_path / "degrees.geojson"
    lonlat = [[-73.8, 42.3], [-73.7, 42.3], [-73.7, 42.4], [-73.8, 42.3]]
    feature["geometry"]["coordinates"] = [lonlat]  # type: ignore[index]
    degrees.write_text(json.dumps({"type": "FeatureCollection", "features": [feature]}))
    assert layer_crs(degrees, crs="EPSG:26918") == "EPSG:4326"
    gpkg = tmp_path / "utm.gpkg"
    gpd.GeoDataFrame(geometry=[box(0, 0, 1, 1)], crs="EPSG:26918").to_file(gpkg, driver="GPKG")
    assert layer_crs(gpkg, crs="EPSG:2260") == "EPSG:26918"
    assert layer_crs(tmp_path / "missing.gpkg") is None


@pytest.mark.parametrize("x", ["NaN", "1e300"])
def test_a_vertex_without_a_usable_coordinate_is_bad_input(tmp_path: Path, x: str) -> None:
    # vertex 3 of feature 1 has x = NaN (or 1e300): the polygon drawn is not known,
    # so no repair can keep it (audit A5: dropped with a warning, before)
    p = tmp_path / "territory.geojson"
    ring = f"[[0, 0], [1000, 0], [{x}, 1000], [0, 1000], [0, 0]]"
    p.write_text(
        '{"type": "FeatureCollection", "crs": {"type": "name", "properties": {"name": '
        '"urn:ogc:def:crs:EPSG::2260"}}, "features": [{"type": "Feature", "properties": {}, '
        f'"geometry": {{"type": "Polygon", "coordinates": [{ring}]}}}}]}}'
    )
    with pytest.raises(InputError) as exc:
        read_boundary(p, crs=None, working_crs="EPSG:2260", what="territory")
    assert (exc.value.feature, exc.value.column) == (1, "geometry")
    assert "vertex 3 has no usable coordinate" in exc.value.message
