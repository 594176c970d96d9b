"""Tests for pipeline.geometry.area: geodesic square miles and the working CRS."""

from __future__ import annotations

import math
from pathlib import Path

import geopandas as gpd
import numpy as np
import pytest
import shapely
from pyproj import Transformer
from shapely.geometry import MultiPolygon, Polygon, box

from pipeline.geometry import SQ_M_PER_SQ_MI, geodesic_area_sq_mi, working_crs_for

REAL = Path(__file__).resolve().parents[2] / "shared/data/real"
MILE_M = 1609.344
US_FT_M = 1200 / 3937


@pytest.fixture
def real() -> Path:
    if not (REAL / "ny-villages").is_dir():
        pytest.skip(f"real NY data not found at {REAL} (only beside the project checkout)")
    return REAL


def _square(cx: float, cy: float, side: float) -> Polygon:
    return box(cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)


def test_square_mile_constant() -> None:
    # 1 mile = 1609.344 m exactly: 1609.344^2 = 2,589,988.110336 m^2
    assert abs(SQ_M_PER_SQ_MI - 2_589_988.110336) < 1e-6


def test_one_mile_square_on_utm_central_meridian() -> None:
    # UTM 18N central meridian is -75 deg (easting 500,000 m), scale factor k0 = 0.9996 there:
    # a grid square of 1 mi^2 is 1 / 0.9996^2 = 1 / 0.99920016 = 1.00080048 mi^2 on the ellipsoid
    sq = _square(500_000, 4_700_000, MILE_M)
    assert geodesic_area_sq_mi(sq, "EPSG:26918") == pytest.approx(1.00080048, rel=2e-6)


def test_holes_subtracted_and_multipolygons_summed() -> None:
    # a square of 1 mi side with a hole of 1/2 mi side: 1 - 1/4 = 0.75 grid mi^2,
    # times 1.00080048 (k0 = 0.9996 as above) = 0.75060036
    outer = _square(500_000, 4_700_000, MILE_M)
    hole = _square(500_000, 4_700_000, MILE_M / 2)
    holed = Polygon(outer.exterior.coords, [hole.exterior.coords])
    assert geodesic_area_sq_mi(holed, "EPSG:26918") == pytest.approx(0.75060036, rel=2e-6)
    # two separate squares: 0.75060036 + 1.00080048 = 1.75140084
    other = _square(500_000, 4_710_000, MILE_M)
    both = MultiPolygon([holed, other])
    assert geodesic_area_sq_mi(both, "EPSG:26918") == pytest.approx(1.75140084, rel=2e-6)
    # orientation does not matter (clockwise exterior)
    assert geodesic_area_sq_mi(shapely.reverse(holed), "EPSG:26918") == pytest.approx(
        0.75060036, rel=2e-6
    )


def test_five_square_miles_in_ny_east_state_plane() -> None:
    # EPSG:2260 (NY East, US ft): central meridian -74.5, k0 = 0.9999. A grid square of 5 mi^2
    # on the central meridian is 5 / 0.9999^2 = 5 / 0.99980001 = 5.00100015 mi^2 on the ellipsoid:
    # within 0.05 % of 5.0, and exact to the scale factor.
    x, y = Transformer.from_crs(4326, 2260, always_xy=True).transform(-74.5, 42.3)
    side_ft = math.sqrt(5.0) * MILE_M / US_FT_M
    sq = _square(x, y, side_ft)
    area = geodesic_area_sq_mi(sq, "EPSG:2260")
    assert area == pytest.approx(5.00100015, rel=5e-6)
    assert area == pytest.approx(5.0, rel=5e-4)


def test_geographic_input_and_empty() -> None:
    # the same 1-mile UTM square, given in lon/lat: its edges are then straight in degrees,
    # a difference far below 1e-4 at this size
    sq = _square(500_000, 4_700_000, MILE_M)
    t = Transformer.from_crs(26918, 4326, always_xy=True)
    ll = shapely.transform(shapely.segmentize(sq, 10.0), t.transform, interleaved=False)
    assert geodesic_area_sq_mi(ll, "EPSG:4326") == pytest.approx(1.00080048, rel=1e-4)
    assert geodesic_area_sq_mi(Polygon(), "EPSG:26918") == 0.0
    assert geodesic_area_sq_mi(shapely.LineString([(0, 0), (1, 1)]), "EPSG:26918") == 0.0


def test_working_crs_for_places() -> None:
    def at(lon: float, lat: float) -> str:
        return working_crs_for((lon - 0.01, lat - 0.01, lon + 0.01, lat + 0.01))

    assert at(-73.86, 42.26) == "EPSG:2260"  # Athens, Greene County (East)
    assert at(-73.75, 42.36) == "EPSG:2260"  # Kinderhook, Columbia County (East)
    assert at(-76.15, 43.05) == "EPSG:2261"  # Syracuse, Onondaga (Central)
    assert at(-76.50, 42.44) == "EPSG:2261"  # Ithaca, Tompkins (Central)
    assert at(-78.88, 42.89) == "EPSG:2262"  # Buffalo, Erie (West)
    assert at(-73.62, 40.71) == "EPSG:2263"  # Hempstead, Nassau (Long Island)
    assert at(-74.15, 40.58) == "EPSG:2263"  # Staten Island
    assert at(-71.95, 41.04) == "EPSG:2263"  # Montauk, Suffolk
    assert at(-73.48, 40.95) == "EPSG:2263"  # Lloyd Neck, Suffolk
    assert at(-73.66, 41.00) == "EPSG:2260"  # Port Chester, Westchester (East)
    assert at(-104.99, 39.74) == "EPSG:5070"  # Denver
    assert at(-157.86, 21.31) == "EPSG:6933"  # Honolulu
    with pytest.raises(ValueError):
        working_crs_for((1.0, 1.0, 0.0, 0.0))


@pytest.mark.real
def test_all_ny_villages_against_equal_area_projection(real: Path) -> None:
    villages = gpd.read_file(real / "ny-villages/Villages.shp")
    assert len(villages) == 533
    geodesic = np.array([geodesic_area_sq_mi(g, villages.crs) for g in villages.geometry])
    # independent figure: planar area in NAD83(2011) Conus Albers (equal-area on GRS80),
    # edges densified the same way so both follow the UTM straight edges
    dense = villages.geometry.segmentize(100.0)
    albers = dense.to_crs("EPSG:6350").area.to_numpy() / SQ_M_PER_SQ_MI
    rel = np.abs(geodesic - albers) / albers
    assert rel.max() < 5e-4, villages["NAME"].iloc[int(rel.argmax())]
    # CALC_SQ_MI is planar UTM: it differs from the ellipsoid by the UTM scale, up to ~0.27 %
    calc = villages["CALC_SQ_MI"].to_numpy()
    assert (np.abs(geodesic - calc) / calc).max() < 3.5e-3


@pytest.mark.real
def test_athens_village_area(real: Path) -> None:
    village = gpd.read_file(real / "athens/athens-village.shp")
    area = geodesic_area_sq_mi(village.geometry.iloc[0], village.crs)
    # CALC_SQ_MI 4.650881 planar UTM; near -73.86 deg (x ~ 597 km, 97 km east of the central
    # meridian) the UTM scale is k0 (1 + x^2 / 2R^2) = 0.9996 * 1.000116 = 0.999716, so the
    # ellipsoidal area is 4.650881 / 0.999716^2 = 4.65352 (to the variation across the village)
    assert area == pytest.approx(4.65352, rel=2e-4)
    bounds = village.to_crs(4326).total_bounds
    assert working_crs_for(tuple(bounds)) == "EPSG:2260"


def test_working_crs_for_swis_county() -> None:
    anywhere = (-75.0, 43.0, -74.9, 43.1)
    assert working_crs_for(anywhere, swis="104400") == "EPSG:2260"  # 10 Columbia: East
    assert working_crs_for(anywhere, swis="502700") == "EPSG:2261"  # 50 Tompkins: Central
    assert working_crs_for(anywhere, swis="146400") == "EPSG:2262"  # 14 Erie: West
    assert working_crs_for(anywhere, swis="282000") == "EPSG:2263"  # 28 Nassau: Long Island
    with pytest.raises(ValueError, match="county"):
        working_crs_for(anywhere, swis="990000")


# Zones by county name, as the EPSG areas of use of the four zones list them
# (pyproj.CRS.from_epsg(2260).area_of_use.name ...): Herkimer, Otsego and St
# Lawrence are in the East zone.
_ZONE_COUNTIES = {
    "EPSG:2262": "Allegany Cattaraugus Chautauqua Erie Genesee Livingston Monroe Niagara Orleans "
    "Wyoming",
    "EPSG:2261": "Broome Cayuga Chemung Chenango Cortland Jefferson Lewis Madison Oneida "
    "Onondaga Ontario Oswego Schuyler Seneca Steuben Tioga Tompkins Wayne Yates",
    "EPSG:2260": "Albany Clinton Columbia Delaware Dutchess Essex Franklin Fulton Greene Hamilton "
    "Herkimer Montgomery Orange Otsego Putnam Rensselaer Rockland Saratoga Schenectady Schoharie "
    "StLawrence Sullivan Ulster Warren Washington Westchester",
    "EPSG:2263": "Bronx Kings Nassau NewYork Queens Richmond Suffolk",
}


def test_the_county_table_agrees_with_epsg() -> None:
    import pyproj

    for zone, names in _ZONE_COUNTIES.items():
        listed = pyproj.CRS.from_user_input(zone).area_of_use.name.replace(" ", "")
        assert all(name in listed for name in names.split()), zone


@pytest.mark.real
def test_working_crs_for_all_ny_villages(real: Path) -> None:
    villages = gpd.read_file(real / "ny-villages/Villages.shp")
    zone_of = {c: z for z, names in _ZONE_COUNTIES.items() for c in names.split()}
    assert len(zone_of) == 62
    bounds = villages.to_crs(4326).geometry.bounds.to_numpy()
    by_place = np.array([working_crs_for(tuple(b)) for b in bounds])
    by_swis = np.array(
        [working_crs_for(tuple(b), swis=s) for b, s in zip(bounds, villages["SWIS"], strict=True)]
    )
    # a village in several counties may use the zone of any of them
    allowed = [
        {zone_of[c.strip().replace(" ", "")] for c in county.split(",")}
        for county in villages["COUNTY"]
    ]
    assert all(z in ok for z, ok in zip(by_swis, allowed, strict=True))
    misplaced = [
        name for name, z, ok in zip(villages["NAME"], by_place, allowed, strict=True) if z not in ok
    ]
    # by location alone too, every village falls in its county's zone
    assert misplaced == []


def test_a_projected_crs_suits_the_place_when_its_scale_is_near_one() -> None:
    from pipeline.geometry.area import suits_place

    albany = (-73.76, 42.65)
    # UTM 18N: central scale 0.9996, about 1.6 degrees from its meridian (75 W)
    # the scale is 0.9996 * (1 + (0.0216 rad * cos 42.65)^2 / 2) = 0.99973: ok
    assert suits_place("EPSG:26918", *albany)
    assert suits_place("EPSG:2260", *albany)  # NY East State Plane: 1:10,000 at worst
    # Web Mercator: 1 / cos(42.65) = 1.36; Conus Albers is 0.7 % off along a meridian
    assert not suits_place("EPSG:3857", *albany)
    assert not suits_place("EPSG:5070", *albany)
    assert not suits_place("EPSG:4326", *albany)  # degrees: not projected
    # UTM 17N east of its zone: 4.2 degrees from 81 W, scale 1.0039
    assert not suits_place("EPSG:26917", *albany)
