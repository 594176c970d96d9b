"""Metes-and-bounds description (§ 2-202.1.c(1)): written, read back, closed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import shapely
from shapely.geometry import MultiPolygon, Polygon

from pipeline.geometry.metes import (
    bearing_text,
    metes_and_bounds,
    parse_metes_and_bounds,
    parse_traverses,
)

CRS = "EPSG:2260"  # NAD83 / New York East (ftUS)
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "raw" / "sample" / "territory.geojson"


def _round_trip(geom: Polygon | MultiPolygon) -> tuple[Polygon | MultiPolygon, float]:
    desc = metes_and_bounds(geom, crs=CRS, name="Village of Test")
    back = parse_metes_and_bounds(desc.text)
    closure = max(t.closure_ft for t in parse_traverses(desc.text))
    assert closure == pytest.approx(desc.max_closure_ft, abs=1e-9)
    return back, closure


@pytest.mark.parametrize(
    ("azimuth", "expected"),
    [
        (0.0, "N 00°00'00\" E"),
        (45.0, "N 45°00'00\" E"),
        (90.0, "N 90°00'00\" E"),
        # 135° lies in the SE quadrant: 180 - 135 = 45
        (135.0, "S 45°00'00\" E"),
        # 200.5° → SW, 200.5 - 180 = 20.5° = 20°30'00"
        (200.5, "S 20°30'00\" W"),
        # 300.25° → NW, 360 - 300.25 = 59.75° = 59°45'00"
        (300.25, "N 59°45'00\" W"),
        # 10° + 59.9999"/3600 rounds up to 10°01'00", never 10°00'60"
        (10.0 + 59.9999 / 3600.0, "N 10°01'00\" E"),
    ],
)
def test_bearing_text(azimuth: float, expected: str) -> None:
    assert bearing_text(azimuth) == expected


def test_square_courses_and_round_trip() -> None:
    # a 100 ft square with its NW corner at (1000, 2100): four courses
    # clockwise from the NW corner: east, south, west, north, 100.00 ft each
    square = shapely.box(1000.0, 2000.0, 1100.0, 2100.0)
    desc = metes_and_bounds(square, crs=CRS)
    assert "N 2,100.00 feet and E 1,000.00 feet" in desc.text
    courses = re.findall(r"THENCE \(\d+\) (.+?), ([\d,.]+) feet", desc.text)
    assert courses == [
        ("N 90°00'00\" E", "100.00"),
        ("S 00°00'00\" W", "100.00"),
        ("N 90°00'00\" W", "100.00"),
        ("N 00°00'00\" E", "100.00"),
    ]
    assert desc.text.rstrip().endswith("more or less.")
    back, closure = _round_trip(square)
    assert closure < 0.01
    assert back.symmetric_difference(square).area < 0.01


def test_a_straight_side_is_one_course() -> None:
    # two 400 x 400 ft boxes side by side, unioned: the vertices where they met
    # (x = 1400 on the north and south sides) lie on straight sides, so the
    # 800 x 400 rectangle is four courses, not six
    both = shapely.union(
        shapely.box(1000.0, 2000.0, 1400.0, 2400.0), shapely.box(1400.0, 2000.0, 1800.0, 2400.0)
    )
    desc = metes_and_bounds(both, crs=CRS)
    courses = re.findall(r"THENCE \(\d+\) (.+?), ([\d,.]+) feet", desc.text)
    assert [d for _, d in courses] == ["800.00", "400.00", "800.00", "400.00"]


def test_l_shape_with_odd_bearings() -> None:
    # an L whose edges are not axis-aligned (rotated by 17.3°) and long enough
    # (about 3,000 ft) that whole-second bearings alone would miss by ~0.007 ft
    ell = Polygon([(0, 0), (3000, 0), (3000, 1000), (1000, 1000), (1000, 3000), (0, 3000)])
    ell = shapely.affinity.rotate(ell, 17.3, origin=(0, 0))
    ell = shapely.affinity.translate(ell, 700_000.123, 1_300_000.456)
    back, closure = _round_trip(ell)
    assert closure < 0.01
    # area 5,000,000 ft²; perimeter 12,000 ft × at most ~0.01 ft of offset
    assert back.symmetric_difference(ell).area < 12_000 * 0.01
    assert back.area == pytest.approx(ell.area, abs=100.0)


def test_polygon_with_hole_and_two_parts() -> None:
    outer = Polygon(
        [(0, 0), (0, 500), (500, 500), (500, 0)],
        [[(100, 100), (200, 100), (200, 200), (100, 200)]],
    )
    other = shapely.box(1000, 0, 1300, 250)
    territory = MultiPolygon([outer, other])
    desc = metes_and_bounds(territory, crs=CRS)
    assert "PARCEL 1" in desc.text and "PARCEL 2" in desc.text
    assert "EXCEPTION 1 OF PARCEL 1" in desc.text
    # 250,000 - 10,000 + 75,000 = 315,000 ft²
    assert "The whole containing 315,000.00 square feet" in desc.text
    back, closure = _round_trip(territory)
    assert closure < 0.01
    assert isinstance(back, MultiPolygon)
    assert back.area == pytest.approx(315_000.0, abs=0.1)
    assert back.symmetric_difference(territory).area < 0.1
    assert [(t.part, t.hole) for t in parse_traverses(desc.text)] == [(1, 0), (1, 1), (2, 0)]


def test_clockwise_from_northwest() -> None:
    # a counter-clockwise triangle: the description still runs clockwise
    tri = Polygon([(0, 0), (100, 0), (0, 100)])  # CCW; NW-most vertex is (0, 100)
    desc = metes_and_bounds(tri, crs=CRS)
    assert "N 100.00 feet and E 0.00 feet" in desc.text
    # clockwise from (0, 100): to (100, 0) → azimuth 135° = S 45° E
    assert "THENCE (1) S 45°00'00\" E, 141.42 feet;" in desc.text


def test_sample_territory() -> None:
    import geopandas as gpd

    if not SAMPLE.exists():
        pytest.skip("sample petition not generated")
    territory = gpd.read_file(SAMPLE).to_crs(CRS).geometry.union_all()
    back, closure = _round_trip(territory)
    assert closure < 0.01
    # perimeter ~25,000 ft × a few thousandths of a foot
    assert back.symmetric_difference(territory).area < 200.0
    assert back.area == pytest.approx(territory.area, rel=1e-6)


def test_rejects_crs_in_metres_and_empty() -> None:
    with pytest.raises(ValueError, match="feet"):
        metes_and_bounds(shapely.box(0, 0, 1, 1), crs="EPSG:32618")
    with pytest.raises(ValueError, match="no polygon"):
        metes_and_bounds(Polygon(), crs=CRS)
    with pytest.raises(ValueError, match="point of beginning"):
        parse_metes_and_bounds("nothing here")
