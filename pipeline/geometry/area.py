"""Areas on the ellipsoid, and the choice of a working CRS.

§ 2-200 area test: the area is measured on the ellipsoid, never in degrees or
Web Mercator.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import shapely
from pyproj import CRS, Geod, Transformer

__all__ = ["SQ_M_PER_SQ_MI", "geodesic_area_sq_mi", "suits_place", "working_crs_for"]

#: Square metres in one (international) square mile: 1609.344² m².
SQ_M_PER_SQ_MI = 1609.344**2

_GEOD = Geod(ellps="WGS84")

#: Metres in one degree of latitude, roughly (only to size densification steps).
_M_PER_DEGREE = 111_320.0


def geodesic_area_sq_mi(geom: Any, crs: Any, *, max_segment_m: float = 100.0) -> float:
    """Area of a polygonal geometry on the WGS84 ellipsoid, in square miles.

    Parameters
    ----------
    geom
        Polygon, MultiPolygon (parts summed) or a collection (its polygons
        summed; lines and points have no area). Holes are subtracted.
    crs
        The CRS of ``geom``: anything :class:`pyproj.CRS` accepts.
    max_segment_m
        Edges longer than this (metres, measured in ``crs``) are split before
        the transformation, so the ellipsoidal polygon follows the straight
        edges of the source CRS to well under a metre.

    Returns
    -------
    float
        Square miles (1 sq mi = 1609.344² m²); 0.0 for an empty geometry.

    Notes
    -----
    For each polygon with exterior ring :math:`E` and holes :math:`H_k`,

    .. math:: A = |A_g(E)| - \\sum_k |A_g(H_k)|

    where :math:`A_g` is the geodesic area of a ring on the WGS84 ellipsoid
    (Karney's algorithm, :meth:`pyproj.Geod.polygon_area_perimeter`) after
    the ring, densified to ``max_segment_m``, is transformed to EPSG:4326.
    WGS84 and GRS80 (NAD83) differ by 0.1 mm in the semi-minor axis: the same
    area to 1e-9.
    """
    if geom is None or shapely.is_empty(geom):
        return 0.0
    unit_m, to_lonlat = _to_lonlat(crs if isinstance(crs, str) else CRS.from_user_input(crs))
    step = max_segment_m / unit_m
    dense = shapely.segmentize(geom, step)
    lonlat = shapely.transform(dense, to_lonlat.transform, interleaved=False)
    total = 0.0
    for part in shapely.get_parts(lonlat):
        total += _polygonal_area_m2(part)
    return total / SQ_M_PER_SQ_MI


@functools.lru_cache(maxsize=32)
def _to_lonlat(crs: str | CRS) -> tuple[float, Transformer]:
    """Metres per CRS unit (a degree for geographic CRSs) and a transformer to lon/lat.

    Cached: building a transformer costs milliseconds, which matters when a
    scenario measures the territory after every edit.
    """
    source = CRS.from_user_input(crs)
    unit_m = _M_PER_DEGREE if source.is_geographic else source.axis_info[0].unit_conversion_factor
    return unit_m, Transformer.from_crs(source, CRS.from_epsg(4326), always_xy=True)


def _polygonal_area_m2(geom: Any) -> float:
    """Geodesic area (m²) of a lon/lat Polygon, MultiPolygon or collection."""
    kind = shapely.get_type_id(geom)
    if kind == shapely.GeometryType.POLYGON:
        if geom.is_empty:
            return 0.0
        area = abs(_ring_area(geom.exterior))
        for hole in geom.interiors:
            area -= abs(_ring_area(hole))
        return area
    if kind in (shapely.GeometryType.MULTIPOLYGON, shapely.GeometryType.GEOMETRYCOLLECTION):
        return sum(_polygonal_area_m2(p) for p in shapely.get_parts(geom))
    return 0.0


def _ring_area(ring: Any) -> float:
    coords = np.asarray(ring.coords)
    area, _ = _GEOD.polygon_area_perimeter(coords[:, 0], coords[:, 1])
    return float(area)


#: Rough bounding box of New York State (lon/lat).
_NY = (-79.8, 40.45, -71.8, 45.05)
#: Rough bounding box of the conterminous United States (lon/lat).
_CONUS = (-125.0, 24.0, -66.5, 49.5)

_WEST, _CENTRAL, _EAST, _LONG_ISLAND = "EPSG:2262", "EPSG:2261", "EPSG:2260", "EPSG:2263"

#: NAD83 State Plane zone (US survey feet) of each county, by the county code that
#: opens a SWIS code (01 Albany ... 57 Yates, alphabetical; 6x: New York City).
_ZONE_BY_SWIS_COUNTY: dict[str, str] = {
    **dict.fromkeys(["02", "04", "06", "14", "18", "24", "26", "29", "34", "56"], _WEST),
    **dict.fromkeys(
        [
            "03",
            "05",
            "07",
            "08",
            "11",
            "22",
            "23",
            "25",
            "30",
            "31",
            "32",
            "35",
            "44",
            "45",
            "46",
            "49",
            "50",
            "54",
            "57",
        ],
        _CENTRAL,
    ),
    **dict.fromkeys(
        [
            "01",
            "09",
            "10",
            "12",
            "13",
            "15",
            "16",
            "17",
            "19",
            "20",
            "21",
            "27",
            "33",
            "36",
            "37",
            "38",
            "39",
            "40",
            "41",
            "42",
            "43",
            "48",
            "51",
            "52",
            "53",
            "55",
        ],
        _EAST,
    ),
    **dict.fromkeys(["28", "47", "60", "61", "62", "63", "64", "65", "66"], _LONG_ISLAND),
}


def _in_box(lon: float, lat: float, box: tuple[float, float, float, float]) -> bool:
    return box[0] <= lon <= box[2] and box[1] <= lat <= box[3]


def _ny_zone(lon: float, lat: float) -> str:
    """NY State Plane zone of a point, following the county lines roughly.

    The zones are made of whole counties; these meridians and parallels trace
    the county lines between them to within a few kilometres: every village of
    the state's village layer falls in its county's zone (tested).
    """
    # Long Island zone: the five NYC boroughs, Nassau, Suffolk
    if (
        (lon > -74.26 and lon <= -73.86 and lat < 40.915)  # Staten Island to the Bronx
        or (lon > -73.86 and lon <= -73.70 and lat < 40.88)  # Bronx east, Queens, west Nassau
        or (lon > -73.70 and lat < 40.93)  # north shore of Nassau (Rye is north of it)
        or (lon > -73.60 and lat < 41.0)  # Lloyd Neck, Eatons Neck
        or (lon > -73.45 and lat < 41.3)  # eastern Suffolk, the forks, Fishers Island
    ):
        return _LONG_ISLAND
    # West / Central
    if lat >= 43.0:
        west_edge = -77.37  # Monroe | Wayne
    elif lat >= 42.9:
        west_edge = -77.50  # Monroe, Livingston | Ontario
    elif lat >= 42.54:
        west_edge = -77.60  # Livingston | Ontario, Steuben
    else:
        west_edge = -77.72  # Allegany | Steuben
    if lon < west_edge:
        return _WEST
    # Central / East (EPSG's areas of use: St Lawrence, Herkimer, Otsego and
    # Delaware are East): St Lawrence against Jefferson, Herkimer against
    # Lewis and Oneida, Otsego against Madison and Chenango, Delaware against
    # Chenango and Broome
    if lat >= 44.25:
        east_edge = -75.70
    elif lat >= 43.95:
        east_edge = -75.40
    elif lat >= 42.95:
        east_edge = -75.10
    elif lat >= 42.55:
        east_edge = -75.30
    elif lat >= 42.45:
        east_edge = -75.35  # the Unadilla River, Gilbertsville on its east bank
    else:
        east_edge = -75.42
    return _CENTRAL if lon < east_edge else _EAST


#: Largest scale error (1:500) at which a projected CRS of the inputs is kept
#: as the working CRS: NAD83 / UTM zone 18N across New York (at most ~1:1,200)
#: and every State Plane zone pass; Web Mercator (1.35 at 42° N) or Conus
#: Albers (0.7 % off along a meridian) do not.
MAX_SCALE_ERROR = 2e-3


def suits_place(
    crs: str, lon: float, lat: float, *, max_scale_error: float = MAX_SCALE_ERROR
) -> bool:
    r"""Whether a CRS is a projected CRS fit for planar work at a place.

    Parameters
    ----------
    crs
        Any CRS pyproj reads.
    lon, lat
        The place (the territory's centre), in degrees.
    max_scale_error
        The largest accepted departure of the projection's scale from 1.

    Returns
    -------
    bool
        True when the CRS is projected and both its meridional scale ``h`` and
        its parallel scale ``k`` at the place are within ``max_scale_error``
        of 1.

    Notes
    -----
    The test is :math:`\max(|h - 1|, |k - 1|) \le \varepsilon`. A conformal
    projection with :math:`h = k \approx 1` keeps shapes and, over a parcel,
    scales every area by the same :math:`hk`, so area fractions are unchanged
    and distances (the alternatives' buffers) are off by at most
    :math:`\varepsilon`.
    """
    try:
        c = CRS.from_user_input(crs)
    except Exception:
        return False
    if not c.is_projected:
        return False
    from pyproj import Proj

    try:
        f = Proj(c).get_factors(lon, lat)
    except Exception:
        return False
    h, k = float(f.meridional_scale), float(f.parallel_scale)
    if not (np.isfinite(h) and np.isfinite(k)):
        return False
    return max(abs(h - 1.0), abs(k - 1.0)) <= max_scale_error


def working_crs_for(
    geom_bounds_lonlat: tuple[float, float, float, float], *, swis: str | None = None
) -> str:
    """A projected CRS suited to the place, for planar work (overlay, buffers).

    Parameters
    ----------
    geom_bounds_lonlat
        ``(min_lon, min_lat, max_lon, max_lat)`` of the geometry in degrees.
    swis
        Optional SWIS code (6 digits) of a town or village of the place: in New
        York its county (the first two digits) gives the zone exactly.

    Returns
    -------
    str
        In New York the NAD83 State Plane zone (US survey feet) of the centre
        of the box: ``"EPSG:2263"`` Long Island (NYC, Nassau, Suffolk),
        ``"EPSG:2262"`` West, ``"EPSG:2261"`` Central, ``"EPSG:2260"`` East.
        Elsewhere in the conterminous US ``"EPSG:5070"`` (NAD83 Conus Albers,
        equal-area); elsewhere ``"EPSG:6933"`` (global equal-area cylindrical).

    Raises
    ------
    ValueError
        Bounds not ordered min <= max, or a SWIS code whose county is unknown.

    Notes
    -----
    Without ``swis`` the zone comes from the box centre and approximate zone
    lines (see the real-data test: a few villages near the Central/East line
    get the neighbouring zone). A neighbouring zone is still a fine working
    CRS: its scale error stays under about 1:5,000 near the zone line, and
    fractions are ratios (the scale cancels). The legal area is always
    computed on the ellipsoid with :func:`geodesic_area_sq_mi`.
    """
    min_lon, min_lat, max_lon, max_lat = geom_bounds_lonlat
    if not (min_lon <= max_lon and min_lat <= max_lat):
        raise ValueError(
            f"bounds are not (min_lon, min_lat, max_lon, max_lat): {geom_bounds_lonlat}"
        )
    if swis is not None:
        zone = _ZONE_BY_SWIS_COUNTY.get(str(swis).strip()[:2])
        if zone is None:
            raise ValueError(f"SWIS code {swis!r}: unknown New York county code")
        return zone
    lon = (min_lon + max_lon) / 2.0
    lat = (min_lat + max_lat) / 2.0
    if _in_box(lon, lat, _NY):
        return _ny_zone(lon, lat)
    if _in_box(lon, lat, _CONUS):
        return "EPSG:5070"
    return "EPSG:6933"
