"""Description of the territory by reference to streets (§ 2-202.1.c(1)(b)).

Besides the metes and bounds (:mod:`pipeline.geometry.metes`), the petition
may describe the territory "with reference to existing streets and navigable
waters". This module walks each outline of the territory from the same point
of beginning as the metes-and-bounds description (the northwesternmost vertex,
clockwise) and splits it into runs:

- a *street run* where the boundary keeps within a tolerance of one named
  street centreline and runs parallel to it: ``THENCE easterly along Main
  Street 1,234.56 feet to its intersection with Oak Avenue;``
- a *lands run* elsewhere, written course by course as in the metes and
  bounds: ``THENCE N 12°34'56" W 234.56 feet across lands, crossing Elm
  Street;``

The module is pure: no file is opened.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import geopandas as gpd
import numpy as np
import pyproj
import shapely
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry

from pipeline.geometry.metes import (
    _clockwise_from_northwest,
    _coords,
    _crs_words,
    _described_polygons,
    _feet,
    _seconds_places,
    _stack,
    bearing_text,
)

__all__ = ["StreetRun", "StreetsDescription", "describe_streets", "streets_description"]

#: Compass words of the eight 45° sectors, clockwise from north.
_WORDS = (
    "northerly",
    "northeasterly",
    "easterly",
    "southeasterly",
    "southerly",
    "southwesterly",
    "westerly",
    "northwesterly",
)
#: Largest sine of the angle between the boundary and a street it "follows" (30°).
_PARALLEL_SIN = 0.5


@dataclass(frozen=True)
class StreetRun:
    """One run of the boundary: along a street, or across lands."""

    part: int
    #: The street followed; ``""`` for a run across lands.
    street: str
    #: Distances along the outline (feet from the point of beginning).
    start_ft: float
    end_ft: float
    start: tuple[float, float]
    end: tuple[float, float]
    #: Compass word of the chord from start to end (``"southeasterly"``).
    direction: str
    #: Courses of a lands run as ``(bearing, distance_ft, streets crossed)``.
    courses: tuple[tuple[str, float, tuple[str, ...]], ...] = ()
    #: A street run followed by another: whether the two streets meet there
    #: (else the text says "to a point", not "to its intersection with").
    meets_next: bool = False

    @property
    def length_ft(self) -> float:
        """Length of the run along the boundary (feet)."""
        return self.end_ft - self.start_ft


@dataclass(frozen=True)
class StreetsDescription:
    """A description by reference to streets and the runs it is made of."""

    text: str
    runs: tuple[StreetRun, ...]
    crs: str


def direction_word(azimuth_deg: float) -> str:
    """Compass word of an azimuth: 0 → ``"northerly"``, 100 → ``"easterly"``.

    Notes
    -----
    Sector :math:`k = \\lfloor ((\\alpha + 22.5) \\bmod 360) / 45 \\rfloor` of
    the eight 45° sectors centred on N, NE, E, ... .
    """
    return _WORDS[int(((azimuth_deg + 22.5) % 360.0) // 45.0) % 8]


def _azimuth(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])) % 360.0


def _labels(
    points: np.ndarray,
    tangents: np.ndarray,
    geoms: np.ndarray,
    names: np.ndarray,
    tolerance: float,
) -> list[str]:
    """Per sample point, the nearest named street within ``tolerance`` running parallel."""
    out = [""] * len(points)
    if len(geoms) == 0 or len(points) == 0:
        return out
    pts = shapely.points(points)
    tree = shapely.STRtree(geoms)
    a, b = tree.query(pts, predicate="dwithin", distance=tolerance)
    if len(a) == 0:
        return out
    dist = shapely.distance(pts[a], geoms[b])
    at = shapely.line_locate_point(geoms[b], pts[a])
    length = shapely.length(geoms[b])
    p1 = shapely.get_coordinates(shapely.line_interpolate_point(geoms[b], np.maximum(at - 1, 0)))
    p2 = shapely.get_coordinates(
        shapely.line_interpolate_point(geoms[b], np.minimum(at + 1, length))
    )
    v = p2 - p1
    norm = np.hypot(v[:, 0], v[:, 1])
    t = tangents[a]
    cross = np.abs(t[:, 0] * v[:, 1] - t[:, 1] * v[:, 0])
    # the foot of the sample on the street lies inside it, and the two run parallel
    parallel = (
        (at > 0)
        & (at < length)
        & (norm > 0)
        & (cross <= _PARALLEL_SIN * np.where(norm > 0, norm, 1.0))
    )
    best: dict[int, tuple[float, str]] = {}
    for i, j, d, ok in zip(a.tolist(), b.tolist(), dist.tolist(), parallel.tolist(), strict=True):
        if not ok:
            continue
        key = (round(d, 6), str(names[j]))
        if i not in best or key < best[i]:
            best[i] = key
    for i, (_, name) in best.items():
        out[i] = name
    return out


def _runs(
    labels: list[str],
    breaks: list[float],
    total: float,
    min_run: float,
    vertices: Sequence[float] = (),
    step: float = 0.0,
) -> list[list[Any]]:
    """Group equal labels into runs ``[label, start, end]``; merge runs under ``min_run``.

    A short run is merged into a neighbour only along a straight side: never
    across a corner of the outline (a vertex at the end they share, or inside
    the short run, within ``step``), where it is a course of its own (a
    street that stops short of a corner, a jog between two streets); and a
    short stretch across lands only when it is a gap between two runs of one
    street.
    """
    runs: list[list[Any]] = []
    for k, lab in enumerate(labels):
        start = 0.0 if k == 0 else breaks[k - 1]
        end = total if k == len(labels) - 1 else breaks[k]
        if runs and runs[-1][0] == lab:
            runs[-1][2] = end
        else:
            runs.append([lab, start, end])
    corners = np.asarray(vertices, dtype="float64")

    def corner_near(at: float) -> bool:
        return bool(len(corners)) and bool((np.abs(corners - at) <= step).any())

    def corner_inside(a: float, b: float) -> bool:
        return bool(len(corners)) and bool(((corners > a + step) & (corners < b - step)).any())

    kept: set[tuple[str, float]] = set()  # short runs at a corner: courses of their own
    while len(runs) > 1:
        short = [
            k for k, r in enumerate(runs) if r[2] - r[1] < min_run and (r[0], r[1]) not in kept
        ]
        if not short:
            break
        k = min(short, key=lambda i: (runs[i][2] - runs[i][1], i))
        prev = runs[k - 1] if k > 0 else None
        nxt = runs[k + 1] if k + 1 < len(runs) else None
        inside = corner_inside(runs[k][1], runs[k][2])
        can_prev = prev is not None and not inside and not corner_near(runs[k][1])
        can_next = nxt is not None and not inside and not corner_near(runs[k][2])
        if not runs[k][0]:
            # a short stretch across lands is a gap in a street only between two
            # runs of that one street; else the street does not reach there
            gap = prev is not None and nxt is not None and prev[0] == nxt[0] != ""
            can_prev = can_prev and gap
            can_next = can_next and gap
        if not (can_prev or can_next):
            kept.add((runs[k][0], runs[k][1]))
            continue
        if can_next and (
            not can_prev
            or (nxt is not None and prev is not None and nxt[2] - nxt[1] > prev[2] - prev[1])
        ):
            assert nxt is not None
            nxt[1] = runs[k][1]
        else:
            assert prev is not None
            prev[2] = runs[k][2]
        del runs[k]
        merged: list[list[Any]] = []
        for r in runs:
            if merged and merged[-1][0] == r[0]:
                merged[-1][2] = r[2]
            else:
                merged.append(r)
        runs = merged
    return runs


def _outline_runs(
    part: int,
    vertices: list[tuple[float, float]],
    geoms: np.ndarray,
    names: np.ndarray,
    *,
    tolerance: float,
    step: float,
    min_run: float,
) -> list[StreetRun]:
    closed = [*vertices, vertices[0]]
    xy = np.asarray(closed, dtype="float64")
    seg = np.diff(xy, axis=0)
    lengths = np.hypot(seg[:, 0], seg[:, 1])
    offsets = np.concatenate([[0.0], np.cumsum(lengths)])
    total = float(offsets[-1])
    pos: list[float] = []
    pts: list[tuple[float, float]] = []
    tan: list[tuple[float, float]] = []
    for i, length in enumerate(lengths.tolist()):
        if length <= 0:
            continue
        n = max(1, math.ceil(length / step))
        u = seg[i] / length
        for k in range(n):
            f = (k + 0.5) / n
            pos.append(float(offsets[i]) + f * length)
            pts.append((float(xy[i, 0] + f * seg[i, 0]), float(xy[i, 1] + f * seg[i, 1])))
            tan.append((float(u[0]), float(u[1])))
    labels = _labels(np.asarray(pts), np.asarray(tan), geoms, names, tolerance)
    breaks = [(pos[k] + pos[k + 1]) / 2 for k in range(len(pos) - 1)]
    runs = _runs(labels, breaks, total, min_run, offsets[1:-1].tolist(), step)
    # Snap the ends of runs to the nearest vertex within one sampling step.
    inner = offsets[1:-1]
    for r in runs[1:]:
        if len(inner):
            j = int(np.argmin(np.abs(inner - r[1])))
            if abs(float(inner[j]) - r[1]) <= step:
                r[1] = float(inner[j])
    for prev, r in itertools.pairwise(runs):
        prev[2] = r[1]
    line = LineString(closed)
    reach = 2.0 * tolerance + step
    out: list[StreetRun] = []
    for label, start, end in runs:
        if end - start <= 0:
            continue
        a = _point(line, start, total, closed)
        b = _point(line, end, total, closed)
        path = [a, *(closed[j] for j in range(1, len(closed) - 1) if start < offsets[j] < end), b]
        courses: list[tuple[str, float, tuple[str, ...]]] = []
        if not label:
            for p, q in itertools.pairwise(path):
                dist = round(math.hypot(q[0] - p[0], q[1] - p[1]), 2)
                if dist <= 0:
                    continue
                seg_line = LineString([p, q])
                crossed = sorted(
                    {str(names[j]) for j in np.flatnonzero(shapely.crosses(geoms, seg_line))}
                )
                text = bearing_text(_azimuth(p, q), seconds_places=_seconds_places(dist))
                courses.append((text, dist, tuple(crossed)))
        out.append(
            StreetRun(
                part=part,
                street=label,
                start_ft=start,
                end_ft=end,
                start=a,
                end=b,
                direction=direction_word(_azimuth(a, b)),
                courses=tuple(courses),
            )
        )
    # two street runs in a row: do their streets meet at the junction?
    for k, (run, nxt) in enumerate(itertools.pairwise(out)):
        if run.street and nxt.street:
            near = shapely.buffer(shapely.Point(run.end), reach)
            mine = shapely.union_all(geoms[names == run.street])
            theirs = shapely.union_all(geoms[names == nxt.street])
            meets = bool(shapely.intersects(shapely.intersection(mine, near), theirs))
            out[k] = dataclasses.replace(run, meets_next=meets)
    return out


def _point(
    line: LineString, at: float, total: float, closed: list[tuple[float, float]]
) -> tuple[float, float]:
    if at <= 0:
        return closed[0]
    if at >= total:
        return closed[-1]
    p = line.interpolate(at)
    return (float(p.x), float(p.y))


def _beginning(
    runs: Sequence[StreetRun], geoms: np.ndarray, names: np.ndarray, *, what: str
) -> str:
    pob = runs[0].start
    e, n = pob
    where = ""
    street = runs[0].street or runs[-1].street
    if street:
        idx = [j for j in range(len(names)) if names[j] == street]
        pt = shapely.Point(pob)
        j = min(idx, key=lambda k: (float(shapely.distance(geoms[k], pt)), k))
        near = shapely.get_coordinates(shapely.shortest_line(geoms[j], pt))
        dx, dy = near[1] - near[0]
        if math.hypot(dx, dy) < 0.5:
            where = f" in the centreline of {street},"
        else:
            side = direction_word(math.degrees(math.atan2(dx, dy)))
            where = f" on the {side} side of {street},"
    return (
        f"BEGINNING at a point{where} having grid coordinates N {_feet(round(n, 2))} feet and "
        f"E {_feet(round(e, 2))} feet, being the northwesternmost corner of {what};"
    )


def _run_lines(runs: Sequence[StreetRun]) -> list[str]:
    lines: list[str] = []
    for k, run in enumerate(runs):
        last = k == len(runs) - 1
        if run.street:
            nxt = runs[k + 1].street if not last else ""
            if last:
                tail = " to the POINT OF BEGINNING."
            elif nxt and run.meets_next:
                tail = f" to its intersection with {nxt};"
            else:
                tail = " to a point;"
            lines.append(
                f"THENCE {run.direction} along {run.street} {_feet(run.length_ft)} feet{tail}"
            )
            continue
        for c, (bearing, dist, crossed) in enumerate(run.courses):
            cross = f", crossing {_and(crossed)}" if crossed else ""
            end = last and c == len(run.courses) - 1
            tail = " to the POINT OF BEGINNING." if end else ";"
            lines.append(f"THENCE {bearing} {_feet(dist)} feet across lands{cross}{tail}")
    return lines


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def streets_description(
    territory: BaseGeometry,
    streets: gpd.GeoDataFrame,
    *,
    crs: str,
    tolerance_ft: float = 75.0,
    step_ft: float = 25.0,
    min_run_ft: float = 100.0,
    name: str = "",
    place: str = "",
) -> StreetsDescription:
    """Describe a territory by reference to the streets its boundary follows.

    Parameters
    ----------
    territory
        Polygon or MultiPolygon in ``crs``.
    streets
        Street centrelines in ``crs``: columns ``name`` and ``geometry``
        (lines); features with an empty name are not used.
    crs
        A projected CRS in feet (the county's State Plane zone).
    tolerance_ft
        Largest distance between the boundary and a street it follows.
    step_ft
        Spacing of the sample points along the boundary.
    min_run_ft
        Runs shorter than this merge into their longer neighbour.
    name, place
        As for :func:`pipeline.geometry.metes.metes_and_bounds`.

    Returns
    -------
    StreetsDescription
        The text and its runs.

    Raises
    ------
    ValueError
        An empty or non-polygonal territory, or a CRS not in feet.

    Notes
    -----
    Each outline (clockwise, from the northwesternmost vertex as in the metes
    and bounds) is sampled every ``step_ft`` at most, at the middle of equal
    pieces of each side. A sample belongs to the nearest named street within
    ``tolerance_ft`` whose direction makes at most 30° with the side
    (:math:`|\\hat t \\times \\hat s| \\le 0.5`) and on which the sample's
    foot falls between the street's ends; consecutive samples of the
    same street form a run, which ends halfway between two samples, moved to
    the nearest vertex within ``step_ft``. The direction word is the sector of
    the chord's azimuth :math:`\\operatorname{atan2}(\\Delta E, \\Delta N)`;
    distances are along the boundary, rounded to 0.01 ft.
    """
    words = _crs_words(crs)
    polys = _described_polygons(territory)
    if not polys:
        raise ValueError("the territory has no polygon to describe")
    named = streets.loc[streets["name"].astype("str").str.strip() != ""]
    geoms = np.asarray(named.geometry.array, dtype=object)
    names = named["name"].astype("str").str.strip().to_numpy(dtype=object)
    title = (
        f"DESCRIPTION OF THE TERRITORY OF THE PROPOSED {name.upper()}".rstrip()
        + " BY REFERENCE TO STREETS"
    )
    where = f" situate in {place}," if place else ""
    lines = [
        title,
        "(Village Law § 2-202.1.c(1)(b))",
        "",
        f"All that tract or parcel of land{where} State of New York, "
        f"consisting of {len(polys)} parcel{'s' if len(polys) > 1 else ''}, "
        "bounded and described with reference to existing streets as follows:",
        "",
        f"Bearings refer to grid north of {words}; distances are horizontal grid "
        "distances in feet along the boundary. A course along a street follows it at "
        f"the distance the boundary keeps from its centreline (at most {tolerance_ft:g} feet).",
        "",
    ]
    all_runs: list[StreetRun] = []
    for p, poly in enumerate(polys, start=1):
        vertices = _clockwise_from_northwest(_coords(poly.exterior))
        runs = _outline_runs(
            p,
            vertices,
            geoms,
            names,
            tolerance=tolerance_ft,
            step=step_ft,
            min_run=min_run_ft,
        )
        all_runs += runs
        if len(polys) > 1:
            lines += [f"PARCEL {p}", ""]
        what = f"Parcel {p}" if len(polys) > 1 else "the territory"
        lines += [_beginning(runs, geoms, names, what=what), ""]
        lines += _run_lines(runs)
        if poly.interiors:
            n = len(poly.interiors)
            lines += [
                "",
                f"EXCEPTING the {n} exception{'s' if n > 1 else ''} of Parcel {p} described "
                "in the metes-and-bounds description.",
            ]
        lines.append("")
    followed = sorted({r.street for r in all_runs if r.street})
    along = sum(r.length_ft for r in all_runs if r.street)
    total = sum(r.length_ft for r in all_runs)
    lines.append(
        f"Of {_feet(total)} feet of boundary, {_feet(along)} feet follow "
        f"{len(followed)} street{'' if len(followed) == 1 else 's'}"
        + (f" ({_and(followed)})." if followed else ".")
    )
    return StreetsDescription(text="\n".join(lines) + "\n", runs=tuple(all_runs), crs=crs)


def describe_streets(
    territory: BaseGeometry,
    streets: gpd.GeoDataFrame,
    *,
    working_crs: str,
    crs: str,
    tolerance_ft: float = 75.0,
    name: str = "",
    place: str = "",
) -> StreetsDescription:
    """:func:`streets_description` in ``crs``, from geometries in ``working_crs``.

    ``crs`` is the State Plane zone of the metes-and-bounds description
    (:attr:`pipeline.geometry.metes.MetesAndBounds.crs`), so that both
    descriptions share the point of beginning and the bearings.
    """
    src = pyproj.CRS.from_user_input(working_crs)
    target = pyproj.CRS.from_user_input(crs)
    if not src.equals(target):
        tr = pyproj.Transformer.from_crs(src, target, always_xy=True)
        territory = shapely.transform(
            territory, lambda xy: _stack(tr.transform(xy[:, 0], xy[:, 1]))
        )
        streets = streets.to_crs(target)
    return streets_description(
        territory, streets, crs=crs, tolerance_ft=tolerance_ft, name=name, place=place
    )
