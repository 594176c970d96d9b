"""Description of the territory by reference to streets (§ 2-202.1.c(1)(b))."""

from __future__ import annotations

import json
from pathlib import Path

import geopandas as gpd
import pytest
import shapely

from pipeline.errors import InputError
from pipeline.geometry.streets import direction_word, streets_description
from pipeline.io import read_lines

CRS = "EPSG:2260"  # NAD83 / New York East (ftUS)
E0, N0 = 600_000.0, 1_100_000.0


def _streets(rows: list[tuple[str, list[tuple[float, float]]]]) -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(
        {"name": [n for n, _ in rows]},
        geometry=[shapely.LineString(c) for _, c in rows],
        crs=CRS,
    )


# The territory: the 1,000 ft square with corners (E0, N0) and (E0 + 1000, N0 + 1000).
# Main Street runs east-west 10 ft north of its north side; Oak Avenue runs
# north-south 10 ft east of its east side; both overshoot the square by 200 ft.
SQUARE = shapely.box(E0, N0, E0 + 1000, N0 + 1000)
MAIN = ("Main Street", [(E0 - 200, N0 + 1010), (E0 + 1200, N0 + 1010)])
OAK = ("Oak Avenue", [(E0 + 1010, N0 + 1200), (E0 + 1010, N0 - 200)])


def test_a_street_that_stops_short_of_a_corner_and_a_jog() -> None:
    # Oak Avenue ends 150 ft south of the north side: the first part of the
    # east side follows no street. That stretch is its own course across lands
    # (not folded into Main Street around the corner, nor into Oak Avenue), and
    # Main Street does not "intersect" Oak Avenue, so it ends "to a point".
    oak_short = ("Oak Avenue", [(E0 + 1010, N0 + 850), (E0 + 1010, N0 - 200)])
    d = streets_description(SQUARE, _streets([MAIN, oak_short]), crs=CRS, name="Village of X")
    runs = [(r.street, r.direction) for r in d.runs]
    assert runs[:3] == [("Main Street", "easterly"), ("", "southerly"), ("Oak Avenue", "southerly")]
    assert 100.0 <= d.runs[1].length_ft <= 175.0  # about 150 ft, to the sampling step
    assert "THENCE easterly along Main Street 1,000.00 feet to a point;" in d.text
    # a 50 ft jog between two parallel streets that never meet: a course of its own
    jog = shapely.Polygon(
        [
            (E0, N0 + 1000),
            (E0 + 500, N0 + 1000),
            (E0 + 500, N0 + 1050),
            (E0 + 1000, N0 + 1050),
            (E0 + 1000, N0),
            (E0, N0),
        ]
    )
    main_w = ("Main Street", [(E0 - 200, N0 + 1010), (E0 + 500, N0 + 1010)])
    high = ("High Street", [(E0 + 500, N0 + 1060), (E0 + 1200, N0 + 1060)])
    d = streets_description(jog, _streets([main_w, high]), crs=CRS, name="Village of X")
    assert [(r.street, round(r.length_ft)) for r in d.runs[:3]] == [
        ("Main Street", 500),
        ("", 50),
        ("High Street", 500),
    ]
    assert "intersection with High Street" not in d.text


def test_square_on_two_streets() -> None:
    d = streets_description(SQUARE, _streets([MAIN, OAK]), crs=CRS, name="Village of X")
    # Clockwise from the northwest corner (E0, N0 + 1000):
    #   north side, east 1,000 ft, along Main Street (10 ft off, parallel);
    #   east side, south 1,000 ft, along Oak Avenue; the samples of the north
    #   side near the NE corner are within 75 ft of Oak Avenue but at right
    #   angles to it, so they stay on Main Street, and the run changes at the corner;
    #   south side, west 1,000 ft, and west side, north 1,000 ft: across lands.
    assert [(r.street, round(r.length_ft, 2), r.direction) for r in d.runs] == [
        ("Main Street", 1000.0, "easterly"),
        ("Oak Avenue", 1000.0, "southerly"),
        ("", 2000.0, "northwesterly"),  # chord from (E0+1000, N0) back to (E0, N0+1000)
    ]
    assert d.runs[2].courses == (
        ("N 90°00'00\" W", 1000.0, ()),  # azimuth 270
        ("N 00°00'00\" E", 1000.0, ()),  # azimuth 0
    )
    text = d.text
    # the point of beginning is 10 ft south of Main Street's centreline
    assert "BEGINNING at a point on the southerly side of Main Street," in text
    assert "N 1,101,000.00 feet and E 600,000.00 feet" in text
    assert (
        "THENCE easterly along Main Street 1,000.00 feet to its intersection with Oak Avenue;"
        in text
    )
    assert "THENCE southerly along Oak Avenue 1,000.00 feet to a point;" in text
    assert "THENCE N 90°00'00\" W 1,000.00 feet across lands;" in text
    assert "THENCE N 00°00'00\" E 1,000.00 feet across lands to the POINT OF BEGINNING." in text
    # 4,000 ft of boundary, 2,000 of them along 2 streets
    assert "Of 4,000.00 feet of boundary, 2,000.00 feet follow 2 streets" in text
    assert "(Village Law § 2-202.1.c(1)(b))" in text


def test_crossing_short_and_unnamed_streets() -> None:
    rows = [
        MAIN,
        OAK,
        # crosses the south side at E0 + 500: named in that course
        ("Elm Street", [(E0 + 500, N0 - 300), (E0 + 500, N0 + 300)]),
        # 60 ft long, 5 ft west of the west side: its samples (feet at 412.5 and
        # 437.5 ft up the side, every 25 ft) make a 50 ft run < 100 ft, merged away
        ("Short Lane", [(E0 - 5, N0 + 400), (E0 - 5, N0 + 460)]),
        # unnamed: never used
        ("", [(E0 + 300, N0 - 300), (E0 + 300, N0 + 300)]),
    ]
    d = streets_description(SQUARE, _streets(rows), crs=CRS)
    assert [r.street for r in d.runs] == ["Main Street", "Oak Avenue", ""]
    assert d.runs[2].courses[0][2] == ("Elm Street",)
    assert "W 1,000.00 feet across lands, crossing Elm Street;" in d.text
    assert "Short Lane" not in d.text


def test_no_street_at_all_is_metes_and_bounds() -> None:
    d = streets_description(SQUARE, _streets([MAIN])[0:0], crs=CRS)
    assert [r.street for r in d.runs] == [""]
    assert len(d.runs[0].courses) == 4
    assert "BEGINNING at a point having grid coordinates" in d.text
    assert d.text.rstrip().splitlines()[-3].endswith("to the POINT OF BEGINNING.")


def test_direction_words() -> None:
    # sectors of 45° centred on N, NE, E, ...: 22.5 starts NE, 337.5 starts N
    assert direction_word(0) == "northerly"
    assert direction_word(22.4) == "northerly"
    assert direction_word(22.5) == "northeasterly"
    assert direction_word(100) == "easterly"
    assert direction_word(200) == "southerly"
    assert direction_word(337.5) == "northerly"
    assert direction_word(-45) == "northwesterly"


def test_not_feet_is_an_error() -> None:
    box = shapely.box(0, 0, 100, 100)
    with pytest.raises(ValueError, match="feet"):
        streets_description(box, _streets([]), crs="EPSG:32618")


# --- reader -------------------------------------------------------------------------


def _write(path: Path, features: list[dict[str, object]]) -> Path:
    doc = {
        "type": "FeatureCollection",
        "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::2260"}},
        "features": features,
    }
    path.write_text(json.dumps(doc))
    return path


def test_read_lines(tmp_path: Path) -> None:
    f = _write(
        tmp_path / "s.geojson",
        [
            {
                "type": "Feature",
                "properties": {"FullName": " Main St "},
                "geometry": {"type": "LineString", "coordinates": [[0, 0], [100, 0]]},
            },
            {
                "type": "Feature",
                "properties": {"FullName": None},
                "geometry": {
                    "type": "MultiLineString",
                    "coordinates": [[[0, 10], [100, 10]], [[0, 20], [50, 20]]],
                },
            },
        ],
    )
    gdf = read_lines(f, crs=None, working_crs=CRS, what="street")
    assert list(gdf.columns) == ["name", "source_row", "geometry"]
    assert gdf["name"].tolist() == ["Main St", ""]
    assert gdf["source_row"].tolist() == [1, 2]
    assert gdf.crs.equals(CRS)


def test_read_lines_point_layer_is_an_error(tmp_path: Path) -> None:
    f = _write(
        tmp_path / "p.geojson",
        [
            {
                "type": "Feature",
                "properties": {"NAME": "Main St"},
                "geometry": {"type": "LineString", "coordinates": [[0, 0], [100, 0]]},
            },
            {
                "type": "Feature",
                "properties": {"NAME": "Oak Ave"},
                "geometry": {"type": "Point", "coordinates": [5, 5]},
            },
        ],
    )
    with pytest.raises(InputError) as err:
        read_lines(f, crs=None, working_crs=CRS, what="street")
    assert err.value.feature == 2
    assert err.value.column == "geometry"
    assert "Point" in str(err.value)


def test_read_lines_without_name_field(tmp_path: Path) -> None:
    f = _write(
        tmp_path / "n.geojson",
        [
            {
                "type": "Feature",
                "properties": {"ROUTE": "9"},
                "geometry": {"type": "LineString", "coordinates": [[0, 0], [100, 0]]},
            }
        ],
    )
    with pytest.raises(InputError, match="name field") as err:
        read_lines(f, crs=None, working_crs=CRS, what="street")
    assert "ROUTE" in str(err.value)


# --- the sample -----------------------------------------------------------------------


def test_sample_run_writes_streets_description(tmp_path: Path) -> None:
    from pipeline.run import run_petition
    from pipeline.sample import generate_sample

    cfg = generate_sample(tmp_path / "in", parcels=300, towns=2, seed=11)
    assert 'streets = "streets.geojson"' in cfg.read_text()
    out = run_petition(cfg, out=tmp_path / "out")
    text = (out / "exhibit-description-streets.txt").read_text()
    names = set(gpd.read_file(cfg.parent / "streets.geojson")["NAME"])
    assert any(n in text for n in names)
    # the description, then (after a blank line) the note naming the regime
    lines = text.rstrip().splitlines()
    assert lines[-1] == "(Prepared for the petition under the rules of regime 2-202-pre-2024.)"
    assert lines[-5].endswith("to the POINT OF BEGINNING.")
    manifest = json.loads((out / "manifest.json").read_text())
    assert "exhibit-description-streets.txt" in manifest["outputs"]
