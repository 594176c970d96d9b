"""Metes-and-bounds description of the territory (§ 2-202.1.c(1)).

The petition must describe the territory "with common certainty". This module
writes the boundary polygon as a surveyor's description: a point of beginning
given by its State Plane grid coordinates, then course after course (a quadrant
bearing ``N dd°mm'ss" E`` and a distance in feet) clockwise back to the point of
beginning. Each part of a multi-part territory is a separate ``PARCEL``; each
hole is an ``EXCEPTION`` of its parcel, described the same way.

:func:`parse_metes_and_bounds` reads such a description back into a polygon, so
that the tests (and a reviewer) can check that the text closes and matches the
territory.

The module is pure: no file is opened.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pyproj
import shapely
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

__all__ = [
    "Course",
    "MetesAndBounds",
    "Ring",
    "Traverse",
    "bearing_text",
    "describe_territory",
    "metes_and_bounds",
    "parse_metes_and_bounds",
    "parse_traverses",
]

#: Largest error (feet) a rounded bearing may put at the end of its course.
_LATERAL_TOLERANCE_FT = 0.004
#: Distances are written to the hundredth of a foot.
_DISTANCE_PLACES = 2
_FEET_UNITS = ("US survey foot", "foot")


@dataclass(frozen=True)
class Course:
    """One course of a traverse, as written."""

    bearing: str
    distance_ft: float
    #: Azimuth (degrees clockwise from grid north) of the bearing as written.
    azimuth_deg: float
    #: End of the course as a reader of the text reconstructs it (grid feet).
    end: tuple[float, float]


@dataclass(frozen=True)
class Ring:
    """One closed traverse: the outline of a parcel or of an exception."""

    part: int
    hole: int  # 0 for the outline of the parcel, 1, 2, ... for its exceptions
    beginning: tuple[float, float]  # (easting, northing), rounded as written
    courses: tuple[Course, ...]
    #: Distance (feet) between the end of the last course and the beginning.
    closure_ft: float


@dataclass(frozen=True)
class MetesAndBounds:
    """A metes-and-bounds description and the traverses it is made of."""

    text: str
    rings: tuple[Ring, ...]
    crs: str

    @property
    def max_closure_ft(self) -> float:
        """The largest error of closure of any ring (feet)."""
        return max((r.closure_ft for r in self.rings), default=0.0)


@dataclass(frozen=True)
class Traverse:
    """A ring read back from a description (:func:`parse_traverses`)."""

    part: int
    hole: int
    points: tuple[tuple[float, float], ...]  # beginning, then the end of each course
    closure_ft: float


# --- bearings ---------------------------------------------------------------------


def _seconds_places(distance: float) -> int:
    """Decimal places of the seconds so that rounding moves the end < 0.004 ft."""
    for places in (0, 1, 2, 3):
        half_step_rad = 0.5 * 10.0**-places / 3600.0 * math.pi / 180.0
        if distance * half_step_rad <= _LATERAL_TOLERANCE_FT:
            return places
    return 4


def bearing_text(azimuth_deg: float, *, seconds_places: int = 0) -> str:
    """Quadrant bearing of an azimuth: ``N 12°34'56" E``.

    Parameters
    ----------
    azimuth_deg
        Degrees clockwise from (grid) north, any value (taken modulo 360).
    seconds_places
        Decimal places of the seconds (0 for whole seconds).

    Returns
    -------
    str
        ``"<N|S> dd°mm'ss" <E|W>"``.

    Notes
    -----
    For an azimuth :math:`\\alpha`: NE quadrant :math:`\\theta = \\alpha`;
    SE :math:`180 - \\alpha`; SW :math:`\\alpha - 180`; NW :math:`360 - \\alpha`.
    :math:`\\theta` is rounded to the stated fraction of a second before being
    split into degrees, minutes and seconds (so 59.9999" never prints as 60").
    """
    az = azimuth_deg % 360.0
    if az <= 90.0:
        ns, ew, theta = "N", "E", az
    elif az < 180.0:
        ns, ew, theta = "S", "E", 180.0 - az
    elif az < 270.0:
        ns, ew, theta = "S", "W", az - 180.0
    else:
        ns, ew, theta = "N", "W", 360.0 - az
    scale = 10**seconds_places
    total = round(theta * 3600.0 * scale)  # in units of 10^-places seconds
    deg, rest = divmod(total, 3600 * scale)
    minutes, sec_units = divmod(rest, 60 * scale)
    if seconds_places:
        sec = f"{sec_units / scale:0{3 + seconds_places}.{seconds_places}f}"
    else:
        sec = f"{sec_units:02d}"
    return f"{ns} {deg:02d}°{minutes:02d}'{sec}\" {ew}"


def _bearing_re(p: str = "") -> str:
    """Regular expression of a quadrant bearing (named groups when ``p`` is given)."""

    def g(name: str) -> str:
        return f"?P<{p}{name}>" if p else ""

    return (
        rf"({g('ns')}[NS])\s*({g('deg')}\d{{1,3}})\s*°\s*({g('min')}\d{{1,2}})\s*['′’]\s*"
        rf"({g('sec')}\d{{1,2}}(?:\.\d+)?)\s*(?:\"|″|”|'')\s*({g('ew')}[EW])"
    )


_BEARING = _bearing_re()


def _azimuth(ns: str, deg: str, minutes: str, sec: str, ew: str) -> float:
    theta = int(deg) + int(minutes) / 60.0 + float(sec) / 3600.0
    if ns == "N":
        return theta if ew == "E" else (360.0 - theta) % 360.0
    return 180.0 - theta if ew == "E" else 180.0 + theta


def _step(start: tuple[float, float], azimuth: float, distance: float) -> tuple[float, float]:
    a = math.radians(azimuth)
    return (start[0] + distance * math.sin(a), start[1] + distance * math.cos(a))


# --- description ----------------------------------------------------------------------


def _feet(text: float) -> str:
    return f"{text:,.2f}"


def _clockwise_from_northwest(ring: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Vertices of a closed ring, clockwise, starting at its northwesternmost vertex.

    Northwesternmost = the largest ``northing - easting``; ties go to the
    northernmost.
    """
    pts = ring[:-1] if ring and ring[0] == ring[-1] else list(ring)
    if shapely.LinearRing([*pts, pts[0]]).is_ccw:
        pts = pts[::-1]
    start = max(range(len(pts)), key=lambda i: (pts[i][1] - pts[i][0], pts[i][1], -pts[i][0]))
    return pts[start:] + pts[:start]


def _ring(part: int, hole: int, vertices: list[tuple[float, float]]) -> Ring:
    """The traverse of one ring, with the rounding errors fed forward.

    Each course runs from the point a reader reaches by following the text so
    far (not from the true vertex) to the next true vertex, so rounding errors
    never accumulate: every reconstructed corner lies within a few thousandths
    of a foot of the true one, and the ring closes to within the rounding of
    its last course.
    """
    pob = (round(vertices[0][0], _DISTANCE_PLACES), round(vertices[0][1], _DISTANCE_PLACES))
    here = pob
    courses: list[Course] = []
    targets = [*vertices[1:], pob]
    for i, target in enumerate(targets):
        dx, dy = target[0] - here[0], target[1] - here[1]
        dist = round(math.hypot(dx, dy), _DISTANCE_PLACES)
        if dist <= 0.0 and i < len(targets) - 1:
            continue  # a vertex within half a hundredth of a foot: no course
        if dist <= 0.0:
            break
        text = bearing_text(math.degrees(math.atan2(dx, dy)), seconds_places=_seconds_places(dist))
        match = re.fullmatch(_BEARING, text)
        assert match is not None
        az = _azimuth(*match.groups())
        end = _step(here, az, dist)
        courses.append(Course(bearing=text, distance_ft=dist, azimuth_deg=az, end=end))
        here = end
    closure = math.hypot(here[0] - pob[0], here[1] - pob[1])
    return Ring(part=part, hole=hole, beginning=pob, courses=tuple(courses), closure_ft=closure)


#: A vertex within this of the straight line through its neighbours (feet:
#: under the 0.01 ft the courses are written to) starts no course of its own:
#: two courses of one bearing along a straight side read as a surveyor's error.
_STRAIGHT_FT = 0.005


def _described_polygons(territory: BaseGeometry) -> list[Polygon]:
    """The polygons of a territory (in feet) as the descriptions traverse them.

    Repeated vertices are dropped, and so are the vertices of straight sides
    (where two pieces of the territory met), so that one side is one course.
    """
    geom = shapely.remove_repeated_points(territory, 0.0)
    return _polygons(shapely.simplify(geom, _STRAIGHT_FT, preserve_topology=True))


def _polygons(geom: BaseGeometry) -> list[Polygon]:
    if isinstance(geom, Polygon):
        polys = [geom]
    elif isinstance(geom, MultiPolygon):
        polys = list(geom.geoms)
    else:
        polys = [g for g in getattr(geom, "geoms", []) if isinstance(g, Polygon)]
    polys = [p for p in polys if not p.is_empty and p.area > 0]
    # largest first; ties by the northwest corner (deterministic)
    return sorted(polys, key=lambda p: (-round(p.area, 2), -p.bounds[3], p.bounds[0]))


def _coords(ring: shapely.LinearRing) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y, *_ in ring.coords]


def _crs_words(crs: str) -> str:
    c = pyproj.CRS.from_user_input(crs)
    unit = c.axis_info[0].unit_name if c.axis_info else ""
    if not c.is_projected or unit not in _FEET_UNITS:
        raise ValueError(f"{crs}: a metes-and-bounds description needs a projected CRS in feet")
    code = c.to_authority()
    ref = f"{code[0]}:{code[1]}" if code else crs
    return f"{c.name} ({ref})"


def _ring_text(ring: Ring, *, what: str) -> list[str]:
    e, n = ring.beginning
    lines = [
        f"BEGINNING at a point having grid coordinates N {_feet(n)} feet and E {_feet(e)} "
        f"feet, being the northwesternmost corner of {what};",
        "",
    ]
    last = len(ring.courses)
    for k, c in enumerate(ring.courses, start=1):
        end = " to the POINT OF BEGINNING." if k == last else ";"
        lines.append(f"THENCE ({k}) {c.bearing}, {_feet(c.distance_ft)} feet{end}")
    return lines


def metes_and_bounds(
    territory: BaseGeometry,
    *,
    crs: str,
    name: str = "",
    place: str = "",
) -> MetesAndBounds:
    """Describe a territory by metes and bounds.

    Parameters
    ----------
    territory
        Polygon or MultiPolygon in ``crs`` (holes allowed).
    crs
        A projected CRS in feet (the county's State Plane zone, e.g. ``EPSG:2260``).
    name
        Name of the proposed village, for the heading.
    place
        Where the land lies, e.g. ``"the Towns of Harlow and Brinton, County of
        Columbia"``.

    Returns
    -------
    MetesAndBounds
        The text and its traverses (with each ring's error of closure).

    Raises
    ------
    ValueError
        An empty or non-polygonal territory, or a CRS not in feet.

    Notes
    -----
    Bearings refer to grid north of ``crs``; distances are grid distances
    rounded to 0.01 ft. A course from the reconstructed point :math:`P` to the
    next vertex :math:`V` has azimuth
    :math:`\\alpha = \\operatorname{atan2}(V_E - P_E, V_N - P_N)` and length
    :math:`|V - P|`; seconds get as many decimals as keep
    :math:`d \\cdot \\delta\\alpha / 2 \\le 0.004` ft. Rings are clockwise and
    start at the vertex with the largest :math:`N - E`.
    """
    words = _crs_words(crs)
    polys = _described_polygons(territory)
    if not polys:
        raise ValueError("the territory has no polygon to describe")
    rings: list[Ring] = []
    title = f"DESCRIPTION OF THE TERRITORY OF THE PROPOSED {name.upper()}".rstrip()
    where = f" situate in {place}," if place else ""
    lines = [
        title,
        "(Village Law § 2-202.1.c(1))",
        "",
        f"All that tract or parcel of land{where} State of New York, "
        f"consisting of {len(polys)} parcel{'s' if len(polys) > 1 else ''}, "
        "bounded and described as follows:",
        "",
        f"Bearings refer to grid north of {words}; distances are horizontal grid "
        "distances in feet.",
        "",
    ]
    for p, poly in enumerate(polys, start=1):
        outline = _ring(p, 0, _clockwise_from_northwest(_coords(poly.exterior)))
        rings.append(outline)
        lines += [f"PARCEL {p}", ""]
        lines += _ring_text(outline, what=f"Parcel {p}")
        outline_area = _feet(Polygon(poly.exterior).area)
        lines += [
            "",
            f"Containing {outline_area} square feet (grid area), more or less"
            + (", before the exceptions below." if poly.interiors else "."),
            "",
        ]
        holes = sorted(
            (Polygon(h) for h in poly.interiors),
            key=lambda h: (-round(h.area, 2), -h.bounds[3], h.bounds[0]),
        )
        for h, hole in enumerate(holes, start=1):
            ring = _ring(p, h, _clockwise_from_northwest(_coords(hole.exterior)))
            rings.append(ring)
            lines += [
                f"EXCEPTION {h} OF PARCEL {p}",
                "",
                "EXCEPTING AND RESERVING from Parcel "
                f"{p} all that land bounded and described as follows:",
                "",
            ]
            lines += _ring_text(ring, what=f"Exception {h} of Parcel {p}")
            lines += [
                "",
                f"Containing {_feet(hole.area)} square feet (grid area), more or less.",
                "",
            ]
    lines.append(
        f"The whole containing {_feet(sum(p.area for p in polys))} square feet "
        "(grid area), more or less."
    )
    return MetesAndBounds(text="\n".join(lines) + "\n", rings=tuple(rings), crs=crs)


# --- parser ----------------------------------------------------------------------------

_NUMBER = r"\d{1,3}(?:,\d{3})*(?:\.\d+)?|\d+(?:\.\d+)?"
_TOKEN = re.compile(
    r"(?P<parcel>^PARCEL\s+(?P<pn>\d+)\s*$)"
    r"|(?P<exception>^EXCEPTION\s+(?P<hn>\d+)\s+OF\s+PARCEL\s+(?P<hp>\d+)\s*$)"
    rf"|(?P<pob>BEGINNING\s+at\b[^;]*?\bN\s+(?P<n>{_NUMBER})\s+feet\s+and\s+E\s+(?P<e>{_NUMBER})\s+feet)"
    rf"|(?P<course>THENCE\s*(?:\(\d+\))?\s*{_bearing_re('b_')}\s*,?\s*(?P<d>{_NUMBER})\s+feet)",
    re.MULTILINE | re.DOTALL,
)


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def parse_traverses(text: str) -> list[Traverse]:
    """Read the traverses of a description back (see :func:`metes_and_bounds`).

    Parameters
    ----------
    text
        A description: ``PARCEL n`` and ``EXCEPTION h OF PARCEL n`` headings,
        each followed by ``BEGINNING ... N <northing> feet and E <easting>
        feet`` and ``THENCE <bearing>, <distance> feet`` courses.

    Returns
    -------
    list of Traverse
        One per ring, in the order of the text, with its error of closure.

    Raises
    ------
    ValueError
        A course before any point of beginning, or no ring at all.
    """
    out: list[Traverse] = []
    part, hole = 1, 0
    points: list[tuple[float, float]] | None = None
    ring_part, ring_hole = part, hole

    def flush() -> None:
        if points is not None:
            closure = math.hypot(points[-1][0] - points[0][0], points[-1][1] - points[0][1])
            out.append(Traverse(ring_part, ring_hole, tuple(points), closure))

    for m in _TOKEN.finditer(text):
        if m.group("parcel"):
            part, hole = int(m.group("pn")), 0
        elif m.group("exception"):
            part, hole = int(m.group("hp")), int(m.group("hn"))
        elif m.group("pob"):
            flush()
            n, e = _num(m.group("n")), _num(m.group("e"))
            points, ring_part, ring_hole = [(e, n)], part, hole
        else:
            if points is None:
                raise ValueError(f"a course before any point of beginning: {m.group(0)!r}")
            az = _azimuth(*(m.group(f"b_{k}") for k in ("ns", "deg", "min", "sec", "ew")))
            points.append(_step(points[-1], az, _num(m.group("d"))))
    flush()
    if not out:
        raise ValueError("no point of beginning found in the description")
    return out


def parse_metes_and_bounds(text: str) -> Polygon | MultiPolygon:
    """The polygon a metes-and-bounds description encloses.

    Parameters
    ----------
    text
        A description in the form written by :func:`metes_and_bounds`.

    Returns
    -------
    Polygon or MultiPolygon
        Each parcel's outline with its exceptions as holes (grid coordinates).
        Each ring is closed on its point of beginning; its error of closure is
        reported by :func:`parse_traverses`.
    """
    shells: dict[int, list[tuple[float, float]]] = {}
    holes: dict[int, list[list[tuple[float, float]]]] = {}
    for t in parse_traverses(text):
        pts = list(t.points[:-1]) if len(t.points) > 1 else list(t.points)
        if t.hole == 0:
            shells[t.part] = pts
        else:
            holes.setdefault(t.part, []).append(pts)
    polys = [Polygon(shells[p], holes.get(p, [])) for p in sorted(shells)]
    return polys[0] if len(polys) == 1 else MultiPolygon(polys)


def describe_territory(
    territory: BaseGeometry,
    *,
    working_crs: str,
    swis: str | None = None,
    name: str = "",
    place: str = "",
) -> MetesAndBounds:
    """Metes and bounds of the territory in its county's State Plane zone.

    Parameters
    ----------
    territory
        The territory in ``working_crs``.
    working_crs
        The CRS of ``territory``.
    swis
        A SWIS code of a town of the territory: its county gives the State
        Plane zone (NAD83, US survey feet); without it the zone comes from the
        territory's position.
    name, place
        As for :func:`metes_and_bounds`.

    Returns
    -------
    MetesAndBounds
        The description in the State Plane zone (reprojected when the working
        CRS is another one).
    """
    from pipeline.geometry.area import working_crs_for

    src = pyproj.CRS.from_user_input(working_crs)
    to_ll = pyproj.Transformer.from_crs(src, "EPSG:4326", always_xy=True)
    minx, miny, maxx, maxy = territory.bounds
    lon, lat = to_ll.transform([minx, maxx], [miny, maxy])
    zone = working_crs_for((min(lon), min(lat), max(lon), max(lat)), swis=swis)
    target = pyproj.CRS.from_user_input(zone)
    geom = territory
    if not src.equals(target):
        tr = pyproj.Transformer.from_crs(src, target, always_xy=True)
        geom = shapely.transform(territory, lambda xy: _stack(tr.transform(xy[:, 0], xy[:, 1])))
    return metes_and_bounds(geom, crs=zone, name=name, place=place)


def _stack(xy: tuple[object, object]) -> object:
    import numpy as np

    return np.column_stack([np.asarray(xy[0]), np.asarray(xy[1])])
