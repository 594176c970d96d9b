"""Tests for pipeline.geometry.territory: union with repairs, and town parts."""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import pytest
import shapely
from shapely.geometry import LineString, Polygon, box

from pipeline.geometry import apportion_table, town_parts, union_territory

REAL = Path(__file__).resolve().parents[2] / "shared/data/real"


@pytest.fixture
def real() -> Path:
    if not (REAL / "athens").is_dir():
        pytest.skip(f"real NY data not found at {REAL} (only beside the project checkout)")
    return REAL


def test_union_of_overlapping_features() -> None:
    # [0,100]x[0,100] and [50,150]x[0,100] overlap by 50x100: union = 15000
    territory, repairs = union_territory(gpd.GeoSeries([box(0, 0, 100, 100), box(50, 0, 150, 100)]))
    assert territory.area == pytest.approx(15000.0)
    assert territory.geom_type == "Polygon"
    # the 5,000 covered twice, a third of the 15,000, is told (audit A15 F3)
    assert repairs == [
        "boundary features overlap (share of the territory's area): 0 and 1 by 33.3333 %. "
        "The territory is their union; check that the boundary file holds the proposed "
        "territory only once"
    ]


def test_a_boundary_held_twice_overlaps_by_100_percent() -> None:
    # audit A27 F2: the same polygon twice overlaps by the whole territory; the
    # share came out 99.99999999999997 % in binary and was printed so. Not a
    # threshold: four decimals
    g = gpd.GeoSeries([box(0.1, 0.3, 100.7, 33.9), box(0.1, 0.3, 100.7, 33.9)], index=[1, 2])
    _, notes = union_territory(g)
    assert any(": 1 and 2 by 100.0000 %." in n for n in notes)


def test_union_keeps_holes_and_disjoint_parts() -> None:
    # 300^2 square minus a 100^2 hole = 80000, plus a separate 10x10 = 100
    holed = Polygon(
        [(0, 0), (300, 0), (300, 300), (0, 300)],
        [[(100, 100), (100, 200), (200, 200), (200, 100)]],
    )
    territory, repairs = union_territory(gpd.GeoSeries([holed, box(400, 0, 410, 10)]))
    assert territory.geom_type == "MultiPolygon"
    assert territory.area == pytest.approx(80100.0)
    assert repairs == []


def test_invalid_ring_repaired_and_reported() -> None:
    # bow-tie: two triangles of 0.5 * 100 * 50 = 2500 each -> 5000 after repair
    bowtie = Polygon([(0, 0), (100, 100), (100, 0), (0, 100)])
    territory, repairs = union_territory(gpd.GeoSeries([bowtie], index=["lot 7"]))
    assert territory.is_valid
    assert territory.area == pytest.approx(5000.0)
    assert len(repairs) == 1
    assert "'lot 7'" in repairs[0]
    assert "Self-intersection" in repairs[0]


def test_empty_feature_reported_not_silently_dropped() -> None:
    territory, repairs = union_territory(gpd.GeoSeries([box(0, 0, 10, 10), None], index=[1, 2]))
    assert territory.area == pytest.approx(100.0)
    assert repairs == ["feature 2: no geometry; ignored"]


def test_non_polygon_boundary_rejected() -> None:
    with pytest.raises(ValueError, match="LineString"):
        union_territory(gpd.GeoSeries([LineString([(0, 0), (1, 1)])], index=["road"]))
    with pytest.raises(ValueError, match="no polygon"):
        union_territory(gpd.GeoSeries([None]))


def test_town_parts_split() -> None:
    territory = box(0, 0, 100, 100)
    towns = {
        "A": box(-50, -50, 60, 150),  # x 0..60 -> 60 * 100 = 6000
        "B": box(60, -50, 200, 150),  # x 60..100 -> 40 * 100 = 4000
        "C": box(500, 500, 600, 600),  # disjoint -> omitted
        "D": box(100, 0, 200, 100),  # touches x = 100 only -> zero area, omitted
    }
    result = town_parts(territory, towns)
    assert list(result.parts) == ["A", "B"]
    assert result.parts["A"].area == pytest.approx(6000.0)
    assert result.parts["B"].area == pytest.approx(4000.0)
    assert result.uncovered_area == 0.0
    assert result.uncovered.is_empty
    assert result.overlap_area == pytest.approx(0.0)


def test_town_parts_uncovered_and_overlap() -> None:
    territory = box(0, 0, 100, 100)
    # A: x 0..50, B: x 40..80 -> overlap x 40..50 = 10 * 100 = 1000; uncovered x 80..100 = 2000
    towns = {"A": box(-10, -10, 50, 110), "B": box(40, -10, 80, 110)}
    result = town_parts(territory, towns)
    assert result.parts["A"].area == pytest.approx(5000.0)
    assert result.parts["B"].area == pytest.approx(4000.0)
    assert result.uncovered_area == pytest.approx(2000.0)
    assert result.overlap_area == pytest.approx(1000.0)


def test_town_parts_min_area() -> None:
    # B covers x 99.99..100: 0.01 * 100 = 1 unit^2 <= min_area=1.5 -> omitted
    towns = {"A": box(0, 0, 99.99, 100), "B": box(99.99, 0, 200, 100)}
    result = town_parts(box(0, 0, 100, 100), towns, min_area=1.5)
    assert list(result.parts) == ["A"]


@pytest.mark.real
def test_athens_village_lies_in_athens_town(real: Path) -> None:
    town = gpd.read_file(real / "athens/athens-town.shp")
    village = gpd.read_file(real / "athens/athens-village.shp")
    territory, repairs = union_territory(village.geometry)
    assert repairs == []
    result = town_parts(territory, {"192200": town.geometry.iloc[0]})
    assert list(result.parts) == ["192200"]
    assert result.parts["192200"].area == pytest.approx(territory.area, rel=1e-9)
    assert result.uncovered_area == pytest.approx(0.0, abs=1e-6 * territory.area)
    # the village, apportioned against its own territory, is wholly inside
    whole = apportion_table(village.geometry, territory)
    assert whole["fraction_in_territory"].tolist() == [1.0]
    # the town against the village territory: village area / town area (Shape_Area fields
    # of the two files: 12,045,727.46 / 74,809,318.998 = 0.16102...)
    frac = apportion_table(town.geometry, territory)["fraction_in_territory"].iloc[0]
    assert frac == pytest.approx(12_045_727.4645 / 74_809_318.9981, rel=1e-6)
    assert shapely.within(territory, town.geometry.iloc[0].buffer(1e-6))
