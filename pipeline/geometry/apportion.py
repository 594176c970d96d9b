"""Apportionment: the share of each parcel's area that lies in the territory.

§ 2-202.1.a(2): a parcel partly in the territory counts only for the part in
the territory. The default apportionment is geometric (see :func:`apportion`);
overrides by the town assessor are applied later, outside this module.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from typing import Any, NamedTuple

import geopandas as gpd
import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import shapely
from shapely.geometry.base import BaseGeometry

from pipeline.geometry._clip import clipped_areas, triangles_of
from pipeline.tools.shapes import made_valid

__all__ = ["FRACTION_SOURCES", "apportion", "apportion_table"]

#: The values of ``fraction_source`` that :func:`apportion_table` produces.
FRACTION_SOURCES: tuple[str, ...] = ("geometry", "sliver")

#: Raw fractions within this distance of 0 or 1 are floating-point noise
#: (a parcel inside the territory that touches its edge), not slivers.
_NOISE = 1e-12

#: A territory with more vertices than this is cut into pieces of at most
#: this many vertices before parcels are intersected with it.
_MAX_PIECE_VERTICES = 256

#: A territory of at most this many vertices is cut into triangles to clip the
#: parcels it crosses (GEOS triangulates 1,000 vertices in about 10 ms); a
#: larger one is intersected by GEOS's overlay (the triangulation would cost
#: more than it saves for the few hundred parcels a boundary usually crosses).
_MAX_TRIANGULATED_VERTICES = 1_000

#: A parcel whose clipping takes more vertex rows than this (its vertices times
#: the triangles its box meets; a row costs 0.15-0.6 µs, GEOS's overlay 20-65 µs
#: a parcel) is intersected by GEOS's overlay instead.
_MAX_CLIP_ROWS = 150

#: Vertex rows clipped at a time (about 100 MB of working arrays at most).
_CLIP_CHUNK_ROWS = 1_000_000

#: Parcels near the territory from which the cell grid of :func:`_cell_verdicts`
#: settles the inside and apart ones (below it, the predicates alone are faster).
_GRID_MIN_PARCELS = 256

#: The grid has at most this many cells a side (16 M cells in all).
_GRID_MAX_SIDE = 4096

#: A boundary step covers at most this many cells a side once widened (it
#: covers at most 4 with steps of half a cell).
_GRID_MAX_SPAN = 8

#: Parcels whose bounding boxes are read at a time (a buffer of 512 KB).
_BOUNDS_BLOCK = 16384

#: Parcel arrays from which the bounding boxes are read in two threads.
_THREAD_MIN_PARCELS = 50_000

#: Parcels near the territory's box from which they are settled in two threads.
_THREAD_MIN_NEAR = 4_000

#: A sliver is digitising noise: a strip no wider than this, on average (in
#: feet), where the map and the boundary disagree by a line's width. A larger
#: piece under the sliver tolerance is land (an 80 ft strip is 0.4 % of a
#: 20,000 ft farm) and keeps its geometric fraction.
SLIVER_MAX_WIDTH_FT = 10.0

#: A share within this relative distance of the sliver tolerance is at it.
_AT_TOLERANCE = 1e-9

#: Spikes thinner than twice this (feet) joined to a sliver candidate's piece
#: are no part of its width (:func:`_wider_than_noise`).
_SPIKE_FT = 0.25

#: How far a piece's computed mean width may exceed :data:`SLIVER_MAX_WIDTH_FT`
#: and still be at most it: the rounding of the map's coordinates. At State
#: Plane or UTM magnitudes (10**6 ft) a coordinate is held to about 1e-10 ft, and
#: the width 2A/L of a strip drawn exactly 10 ft wide comes back up to 1.3e-9 ft
#: over (audit A24 F1: 10.0000000000913 ft in EPSG:2260, 10.0000000013 in
#: EPSG:32618, and on either side at random). A millionth of a foot (0.3 µm) is
#: far above that noise and far below any width drawn.
_WIDTH_NOISE_FT = 1e-6

#: A part of a sliver piece smaller than this share of the piece is a hairline
#: along the boundary (reprojection noise), not part of its shape.
_HAIRLINE = 1e-3

#: Parcels crossing the boundary from which they are intersected in two threads.
_THREAD_MIN_OVERLAYS = 64

_POLYGONAL = (shapely.GeometryType.POLYGON, shapely.GeometryType.MULTIPOLYGON)

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def apportion(
    parcels: gpd.GeoSeries | gpd.GeoDataFrame,
    territory: BaseGeometry | gpd.GeoSeries,
    *,
    sliver_tolerance: float = 0.0,
) -> pd.Series:
    """Fraction of each parcel's area that lies inside the territory.

    Parameters
    ----------
    parcels
        Parcel polygons in a projected CRS (the working CRS). A GeoDataFrame is
        read through its active geometry column. Every parcel must have a
        polygon of positive area. Invalid polygons that the territory's
        boundary touches (or of zero area) are repaired with ``make_valid``
        (polygonal parts kept) and flagged in the result; elsewhere a parcel is
        wholly inside or outside, its fraction is 1 or 0 whatever a repair
        would do, and validity is not checked.
    territory
        The territory: a (Multi)Polygon, holes allowed, in the same CRS as the
        parcels, or a GeoSeries of boundary polygons (unioned with
        :func:`pipeline.geometry.union_territory`; its repair notes are not
        returned: call that function yourself to report them).
    sliver_tolerance
        Overlaps smaller than this share of a parcel's own area are digitising
        noise: a raw fraction in ``(0, tol)`` snaps to 0 and one in
        ``(1 - tol, 1)`` snaps to 1. Must lie in ``[0, 0.5)``.

    Returns
    -------
    pandas.Series
        ``fraction_in_territory`` (float64 in [0, 1]): the fraction used for
        apportionment, indexed like ``parcels`` (same labels, same order).
        :func:`apportion_table` gives with it where each fraction came from
        (``"geometry"`` or ``"sliver"``), the raw geometric fraction and
        whether the polygon was repaired.

    Raises
    ------
    ValueError
        A parcel without geometry or with zero area (the message names its
        index label), an invalid or non-polygonal territory, parcels and
        territory in different CRSs, or a tolerance out of range.

    Notes
    -----
    For parcel :math:`P_i` and territory :math:`T`

    .. math:: f_i = \\frac{\\operatorname{area}(P_i \\cap T)}{\\operatorname{area}(P_i)}

    computed in the planar working CRS (the ratio is unitless, so the small
    scale error of a conformal projection cancels). Parcels properly inside
    :math:`T` (no boundary contact) get :math:`f_i = 1` and parcels not
    intersecting it get :math:`f_i = 0`, without any overlay: most are settled
    from their bounding boxes by a grid of cells over the territory's box
    (a box covering only cells wholly interior, or wholly outside, needs no
    further test), the rest by prepared predicates. Only parcels that the
    territory's boundary touches are
    intersected: the territory is cut into triangles :math:`T_k` (a
    partition, so :math:`\\operatorname{area}(P \\cap T) = \\sum_k
    \\operatorname{area}(P \\cap T_k)`) and each parcel is clipped by the
    triangles its box meets (:func:`pipeline.geometry._clip.clipped_areas`);
    a territory of over 1,000 vertices, and a parcel whose clipping would be
    costly (many vertices, many long triangles), are intersected by GEOS's
    overlay instead (the route of a parcel depends on it and the territory
    alone; both agree to about 1e-11 of its area).
    Raw fractions within 1e-12 of 0 or 1 are set to 0 or 1 (round-off, e.g. a
    parcel inside the territory that shares an edge with it).

    With tolerance :math:`\\tau`: :math:`0 < f_i < \\tau \\Rightarrow 0` and
    :math:`1 - \\tau < f_i < 1 \\Rightarrow 1`, source ``"sliver"``, when the
    piece snapped away (the part inside, or the part outside) is a strip of
    digitising noise: its mean width :math:`2A/L` is at most
    :data:`SLIVER_MAX_WIDTH_FT` (10 ft; the CRS's unit converted). A wider piece
    is land, and keeps its fraction however small a share of a large parcel.
    """
    computed = _apportioned(parcels, territory, sliver_tolerance)
    return pd.Series(
        computed.fraction, index=computed.labels, name="fraction_in_territory", copy=False
    )


def apportion_table(
    parcels: gpd.GeoSeries | gpd.GeoDataFrame,
    territory: BaseGeometry | gpd.GeoSeries,
    *,
    sliver_tolerance: float = 0.0,
) -> pd.DataFrame:
    """:func:`apportion`, with where each fraction came from.

    Parameters and method as :func:`apportion`.

    Returns
    -------
    pandas.DataFrame
        Indexed like ``parcels`` (same labels, same order), with columns

        ``fraction_in_territory`` (float64 in [0, 1])
            The fraction used for apportionment (:func:`apportion`'s values).
        ``fraction_source`` (str)
            ``"geometry"``, or ``"sliver"`` when the raw fraction was snapped.
        ``raw_fraction`` (float64 in [0, 1])
            The geometric fraction before any snapping.
        ``geometry_repaired`` (bool)
            True when the parcel polygon was invalid and was repaired.
    """
    computed = _apportioned(parcels, territory, sliver_tolerance)
    # the two float columns never share memory (a frame's columns are its own)
    fraction = computed.fraction if computed.fraction is not computed.raw else computed.raw.copy()
    return pd.DataFrame(
        {
            "fraction_in_territory": fraction,
            "fraction_source": _source_column(computed.sliver),
            "raw_fraction": computed.raw,
            "geometry_repaired": computed.repaired,
        },
        index=computed.labels,
        copy=False,  # fresh arrays of this call: wrapped, not consolidated into a copy
    )


class _Apportioned(NamedTuple):
    """What :func:`_apportioned` computes, one entry per parcel."""

    labels: pd.Index
    fraction: FloatArray
    raw: FloatArray
    sliver: BoolArray
    repaired: BoolArray


def _apportioned(
    parcels: gpd.GeoSeries | gpd.GeoDataFrame,
    territory: BaseGeometry | gpd.GeoSeries,
    sliver_tolerance: float,
) -> _Apportioned:
    """The fractions of :func:`apportion` and :func:`apportion_table`.

    ``fraction`` is ``raw`` itself (the same array) when nothing was snapped.
    """
    if not 0.0 <= sliver_tolerance < 0.5:
        raise ValueError(f"sliver_tolerance must lie in [0, 0.5), got {sliver_tolerance!r}")
    if not isinstance(parcels, gpd.GeoSeries | gpd.GeoDataFrame):
        raise TypeError("parcels must be a GeoSeries or GeoDataFrame")
    series: gpd.GeoSeries = parcels.geometry
    index = parcels.index
    territory_geom = territory_geometry(territory, series.crs)

    geoms: npt.NDArray[np.object_] = np.asarray(series.values, dtype=object)
    near, near_bounds, missing = _bounds_near(geoms, territory_geom)
    if len(missing):
        labels = _labels(index, _mask(len(geoms), missing))
        raise ValueError(f"parcel(s) without geometry: {labels}")
    # areas are needed (and checked) only where the territory can reach: a parcel
    # whose box misses the territory's box has fraction 0 whatever its area
    areas: FloatArray = np.full(len(geoms), np.nan)
    repaired = np.zeros(len(geoms), dtype=bool)
    raw = np.zeros(len(geoms), dtype="float64")
    if len(near):
        touched, deferred = _settle_near(geoms, near_bounds, near, territory_geom, raw, areas)
        if len(deferred):
            # polygons of zero area or invalid ones the boundary touches: repaired,
            # then judged by the predicates alone (their boxes may have changed)
            zero = deferred[~(areas[deferred] > 0)]
            repaired[zero] = ~shapely.is_valid(geoms[zero])
            repaired[deferred[areas[deferred] > 0]] = True  # invalid and touched
            geoms, areas = _repair(geoms, areas, repaired)
            bad = np.zeros(len(geoms), dtype=bool)
            bad[zero] = ~(np.isfinite(areas[zero]) & (areas[zero] > 0))
            if bad.any():
                raise ValueError(f"parcel(s) with zero area: {_labels(index, bad)}")
            shapely.prepare(territory_geom)
            inside = shapely.contains_properly(territory_geom, geoms[deferred])
            raw[deferred[inside]] = 1.0
            rest = deferred[~inside]
            more = rest[shapely.intersects(territory_geom, geoms[rest])]
            touched = np.sort(np.concatenate([touched, more]))
        if len(touched):
            # every other fraction is exactly 0 or 1 already
            share = np.clip(
                _intersection_areas(geoms[touched], territory_geom) / areas[touched], 0.0, 1.0
            )
            share[share < _NOISE] = 0.0
            share[share > 1.0 - _NOISE] = 1.0
            raw[touched] = share

    fraction = raw
    sliver = np.zeros(len(raw), dtype=bool)
    if sliver_tolerance > 0.0:
        # a share at the tolerance, as one route's rounding or another's gives
        # it back (0.0019999999999999996 for 0.002), is at it: not under it
        # (audit A38 F3)
        edge = sliver_tolerance * _AT_TOLERANCE
        low = (raw > 0.0) & (raw < sliver_tolerance - edge)
        high = (raw < 1.0) & (raw > 1.0 - sliver_tolerance + edge)
        candidates = np.flatnonzero(low | high)
        if len(candidates) and series.crs is not None and series.crs.is_geographic:
            # a width in degrees is no width in feet (audit A38 F2): every piece
            # under the tolerance would read as noise
            raise ValueError(
                f"the parcels' CRS ({series.crs.to_string()}) is geographic: the sliver "
                "rule measures widths in feet; reproject to a projected CRS (the county's "
                "State Plane zone) first"
            )
        if len(candidates):
            # only a thin strip is digitising noise: a wider piece is land
            wide = _wider_than_noise(
                geoms[candidates], territory_geom, high[candidates], _feet_per_unit(series.crs)
            )
            low[candidates[wide]] = False
            high[candidates[wide]] = False
        sliver = low | high
        if sliver.any():
            fraction = raw.copy()
            fraction[low] = 0.0
            fraction[high] = 1.0
    return _Apportioned(index, fraction, raw, sliver, repaired)


def _in_halves(n: int, work: Callable[[slice], None]) -> None:
    """``work(slice(0, h))`` here and ``work(slice(h, n))`` in a helper thread.

    For vectorised shapely and numpy steps, which release the GIL, so the two
    halves run on two cores. The helper thread is joined before returning: none
    outlives the call (nor a fork made later).

    Each half reads its own parcels; the one geometry both read, the territory,
    must have had its bounds taken first: GEOS computes the envelope of a
    collection (a MultiPolygon territory) lazily, on first use, and two
    threads must not do that at once. Both callers do so.
    """
    half = n // 2
    failed: list[BaseException] = []

    def second() -> None:
        try:
            work(slice(half, n))
        except BaseException as exc:  # re-raised below, in the caller's thread
            failed.append(exc)

    helper = threading.Thread(target=second, name="apportion-half")
    helper.start()
    try:
        work(slice(0, half))
    finally:
        helper.join()
    if failed:
        raise failed[0]


def _bounds_near(
    geoms: npt.NDArray[np.object_], territory: Any
) -> tuple[npt.NDArray[np.intp], FloatArray, npt.NDArray[np.intp]]:
    """The parcels whose box meets the territory's box, their boxes, and those without one.

    Returns the positions of the parcels ``near`` the territory's box (in
    order), their bounding boxes (one row each), and the positions of the
    parcels ``missing`` a geometry (None or empty: NaN bounds).

    The boxes are read in blocks of :data:`_BOUNDS_BLOCK` parcels into one
    buffer that stays in the processor's cache, and in two threads for a
    large array (:func:`_in_halves`); only the near parcels' boxes are kept.
    """
    xmin, ymin, xmax, ymax = shapely.bounds(territory)  # before any thread reads it
    Found = tuple[list[npt.NDArray[np.intp]], list[FloatArray], list[npt.NDArray[np.intp]]]
    found: dict[int, Found] = {}

    def work(part: slice) -> None:
        near: list[npt.NDArray[np.intp]] = []
        boxes: list[FloatArray] = []
        missing: list[npt.NDArray[np.intp]] = []
        buffer: FloatArray = np.empty((_BOUNDS_BLOCK, 4), dtype=np.float64)
        for start in range(part.start, part.stop, _BOUNDS_BLOCK):
            stop = min(start + _BOUNDS_BLOCK, part.stop)
            b = shapely.bounds(geoms[start:stop], out=buffer[: stop - start])
            hit = np.flatnonzero(
                (b[:, 0] <= xmax) & (b[:, 2] >= xmin) & (b[:, 1] <= ymax) & (b[:, 3] >= ymin)
            )
            near.append(hit + start)
            boxes.append(b[hit])
            nan = np.flatnonzero(np.isnan(b[:, 0]))
            if len(nan):
                missing.append(nan + start)
        found[part.stop] = (near, boxes, missing)  # the halves' stops differ (n >= 1)

    if len(geoms) < _THREAD_MIN_PARCELS:
        work(slice(0, len(geoms)))
    else:
        _in_halves(len(geoms), work)
    parts = [found[k] for k in sorted(found)]
    near = np.concatenate([a for p in parts for a in p[0]] or [np.empty(0, dtype=np.intp)])
    boxes = np.concatenate([a for p in parts for a in p[1]] or [np.empty((0, 4))])
    missing = np.concatenate([a for p in parts for a in p[2]] or [np.empty(0, dtype=np.intp)])
    return near.astype(np.intp, copy=False), boxes, missing.astype(np.intp, copy=False)


def _mask(n: int, positions: npt.NDArray[np.intp]) -> BoolArray:
    """A boolean mask of length ``n``, true at ``positions``."""
    mask = np.zeros(n, dtype=bool)
    mask[positions] = True
    return mask


def _settle_near(
    geoms: npt.NDArray[np.object_],
    bounds: FloatArray,
    near: npt.NDArray[np.intp],
    territory: Any,
    raw: FloatArray,
    areas: FloatArray,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Settle the parcels ``near`` the territory's box; return those left to intersect.

    ``bounds`` holds the near parcels' boxes, one row per entry of ``near``.

    Writes ``areas`` of every near parcel and ``raw = 1`` for those properly
    inside (the rest stay 0). Returns the parcels the territory touches without
    containing them properly (``touched``, valid polygons of positive area, to be
    intersected) and those ``deferred`` to the caller: zero area, or invalid
    and touched, which must be repaired first.

    The cell grid (:class:`_CellGrid`) settles most parcels from their boxes
    alone; prepared predicates decide the rest. For many parcels the work runs
    in two threads (:func:`_in_halves`), each with its own prepared copy of the
    territory: GEOS prepared geometries keep state while they answer
    (libgeos/geos#825) and must not be shared between threads.
    """
    grid = _CellGrid(territory, len(near)) if len(near) >= _GRID_MIN_PARCELS else None
    threaded = len(near) >= _THREAD_MIN_NEAR
    copies = [shapely.from_wkb(shapely.to_wkb(territory)) for _ in range(2)] if threaded else []
    found: dict[int, tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]] = {}

    def work(part: slice) -> None:
        # the helper thread's part is the one that ends the array (see _in_halves)
        mine = copies[part.stop == len(near)] if threaded else territory
        shapely.prepare(mine)
        idx = near[part]
        a = shapely.area(geoms[idx])
        areas[idx] = a
        positive = a > 0  # NaN (none) and zero are deferred: repaired first
        zero = idx[~positive]
        idx = idx[positive]
        unknown = idx
        if grid is not None:
            verdict = grid.verdicts(bounds[part][positive])
            raw[idx[verdict == 1]] = 1.0
            unknown = idx[verdict == -1]
        inside = shapely.contains_properly(mine, geoms[unknown])
        raw[unknown[inside]] = 1.0
        rest = unknown[~inside]
        touched = rest[shapely.intersects(mine, geoms[rest])]
        # validity matters only here: a parcel inside (1) or apart (0) keeps its
        # fraction whatever a repair would do; a parcel the boundary crosses does not
        valid = shapely.is_valid(geoms[touched])
        found[part.stop] = (touched[valid], np.concatenate([zero, touched[~valid]]))

    if threaded:
        shapely.bounds(territory)  # see _in_halves: the shared envelope, made first
        _in_halves(len(near), work)
    else:
        work(slice(0, len(near)))
    parts = [found[k] for k in sorted(found)]
    touched = np.concatenate([t for t, _ in parts])
    deferred = np.sort(np.concatenate([d for _, d in parts]))
    return touched, deferred


def _cell_verdicts(b: FloatArray, territory: Any) -> npt.NDArray[np.int8]:
    """Parcels settled by their bounding boxes ``b`` alone: 1 inside, 0 apart, -1 unknown.

    The verdicts of :class:`_CellGrid` for a grid sized for ``len(b)`` parcels.
    """
    return _CellGrid(territory, len(b)).verdicts(b)


class _CellGrid:
    """A grid of cells over the territory's box that settles parcels from their boxes.

    Notes
    -----
    The territory's bounding box is cut into a grid of about ``n`` square
    cells. A cell is *marked* when a point of the territory's boundary can lie
    in it or next to it: every cell of the box of each step of the boundary,
    widened by one cell on every side, is marked (the widening also absorbs
    rounding in the cell numbers). This holds for steps of any length; the
    boundary is segmentized to steps of half a cell so that each marks only a
    few cells. An unmarked cell holds no boundary point, so it lies wholly in
    the interior or wholly outside; a row's run of unmarked cells is connected, so one
    ``contains_xy`` test of its first cell's centre labels the whole run.

    A parcel whose box lies within the grid and covers only interior cells has
    no boundary point in its box: it is properly inside (``contains_properly``
    holds, fraction 1). One whose box covers only outside cells (the part of a
    box beyond the grid is outside the territory's box) does not intersect the
    territory (fraction 0). Both counts come from summed-area tables, in O(1)
    per parcel. Everything else is left to the exact predicates. The verdicts
    are the predicates' own answers, never an approximation of them.

    ``_GRID_MAX_SPAN`` is a safety valve: were a boundary step to cover more
    cells than that, the grid settles nothing (every verdict is -1).
    """

    #: Summed-area tables of the cells not interior (low 32 bits) and not
    #: outside (high 32 bits); None when the grid settles nothing.
    tables: npt.NDArray[np.int64] | None
    origin: tuple[float, float]
    cell: tuple[float, float]
    shape: tuple[int, int]

    def __init__(self, territory: Any, n: int) -> None:
        x0, y0, x1, y1 = shapely.bounds(territory)
        # square cells of side ``side`` (at most _GRID_MAX_SIDE a side); a cell
        # narrower than ``side`` is either at least side / 2 or the only one across
        side = max(
            float(np.sqrt((x1 - x0) * (y1 - y0) / max(n, 1))),
            max(x1 - x0, y1 - y0) / _GRID_MAX_SIDE,
        )
        gx = max(1, min(_GRID_MAX_SIDE, int(np.ceil((x1 - x0) / side))))
        gy = max(1, min(_GRID_MAX_SIDE, int(np.ceil((y1 - y0) / side))))
        w, h = (x1 - x0) / gx, (y1 - y0) / gy
        lines = shapely.segmentize(shapely.get_parts(shapely.boundary(territory)), side / 2)
        xy, part = shapely.get_coordinates(lines, return_index=True)
        cx = np.floor((xy[:, 0] - x0) / w)
        cy = np.floor((xy[:, 1] - y0) / h)
        step = part[1:] == part[:-1]  # consecutive points of one line

        def cells(c: FloatArray, n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
            lo = np.clip(np.minimum(c[:-1], c[1:])[step] - 1, 0, n - 1).astype(np.int64)
            hi = np.clip(np.maximum(c[:-1], c[1:])[step] + 1, 0, n - 1).astype(np.int64)
            return lo, hi

        lo_x, hi_x = cells(cx, gx)
        lo_y, hi_y = cells(cy, gy)
        span = int(max((hi_x - lo_x).max(initial=0), (hi_y - lo_y).max(initial=0)))
        if span > _GRID_MAX_SPAN:  # cannot happen with steps of side / 2; settle nothing
            self.tables = None
            return
        marked = np.zeros((gy, gx), dtype=bool)
        for dy in range(span + 1):
            rows = np.minimum(lo_y + dy, hi_y)
            for dx in range(span + 1):
                marked[rows, np.minimum(lo_x + dx, hi_x)] = True
        free = ~marked
        start = free.copy()
        start[:, 1:] &= marked[:, :-1]  # first unmarked cell of each run in a row
        first = start.ravel()
        ry, rx = np.divmod(np.flatnonzero(first), gx)
        run_inside = shapely.contains_xy(territory, x0 + (rx + 0.5) * w, y0 + (ry + 0.5) * h)
        run = np.cumsum(first) - 1
        label = np.full(gy * gx, -1, dtype=np.int8)  # -1 marked, 0 outside, 1 interior
        flat_free = free.ravel()
        label[flat_free] = run_inside[run[flat_free]]
        grid = label.reshape(gy, gx)

        def table(mask: BoolArray) -> npt.NDArray[np.int32]:
            s = np.zeros((gy + 1, gx + 1), dtype=np.int32)
            np.cumsum(np.cumsum(mask, axis=0, dtype=np.int32), axis=1, out=s[1:, 1:])
            return s

        # one table of both counts: cells not interior in the low 32 bits, cells not
        # outside in the high ones (each count is at most 16 M cells, under 2**32)
        packed = table(grid != 1).astype(np.int64) | (table(grid != 0).astype(np.int64) << 32)
        self.tables = packed
        self.origin, self.cell, self.shape = (x0, y0), (w, h), (gx, gy)

    def verdicts(self, b: FloatArray) -> npt.NDArray[np.int8]:
        """1 inside, 0 apart, -1 unknown for parcels of bounding boxes ``b``."""
        if self.tables is None:
            return np.full(len(b), -1, dtype=np.int8)
        s = self.tables
        (x0, y0), (w, h), (gx, gy) = self.origin, self.cell, self.shape
        ix0, ix1 = np.floor((b[:, 0] - x0) / w), np.floor((b[:, 2] - x0) / w)
        iy0, iy1 = np.floor((b[:, 1] - y0) / h), np.floor((b[:, 3] - y0) / h)
        within = (ix0 >= 0) & (iy0 >= 0) & (ix1 < gx) & (iy1 < gy)
        a0 = np.clip(ix0, 0, gx - 1).astype(np.intp)
        a1 = np.clip(ix1, 0, gx - 1).astype(np.intp) + 1
        c0 = np.clip(iy0, 0, gy - 1).astype(np.intp)
        c1 = np.clip(iy1, 0, gy - 1).astype(np.intp) + 1
        # the four corners of the box in the summed-area tables, both counts at
        # once: each count is >= 0 and < 2**32, so the halves of the sum separate
        # exactly (int64 arithmetic is exact here: the sums stay under 2**57)
        both = s[c1, a1] - s[c0, a1] - s[c1, a0] + s[c0, a0]
        not_inside = both & 0xFFFFFFFF
        not_outside = both >> 32
        verdict = np.full(len(b), -1, dtype=np.int8)
        verdict[within & (not_inside == 0)] = 1
        verdict[not_outside == 0] = 0
        return verdict


def _source_column(sliver: BoolArray) -> Any:
    """``fraction_source`` as a pandas ``str`` array, built in Arrow.

    Without slivers (the usual case) the Arrow buffers are written directly:
    ``"geometry"`` repeated, 1.5 ms for 200,000 parcels against 5 ms for a take.
    """
    str_dtype = pd.StringDtype("pyarrow", na_value=np.nan)
    n = len(sliver)
    if not sliver.any() and n < 2**31 // 8:
        word = FRACTION_SOURCES[0].encode()
        offsets = np.arange(0, len(word) * (n + 1), len(word), dtype=np.int32)
        data = np.tile(np.frombuffer(word, dtype=np.uint8), n)
        values = pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data))
    else:
        codes = pa.array(sliver.astype(np.int8))
        values = pa.array(list(FRACTION_SOURCES)).take(codes)
    return values.to_pandas(types_mapper={pa.string(): str_dtype}.get).array


def _repair(
    geoms: npt.NDArray[np.object_], areas: FloatArray, which: BoolArray
) -> tuple[npt.NDArray[np.object_], FloatArray]:
    """Copies of ``geoms`` and ``areas`` with the ``which`` polygons made valid."""
    geoms = geoms.copy()
    areas = areas.copy()
    idx = np.flatnonzero(which)
    for i in idx:
        geoms[i] = polygonal(made_valid(geoms[i]))
    areas[idx] = shapely.area(geoms[idx])
    return geoms, areas


def _feet_per_unit(crs: Any) -> float:
    """Feet per unit of a projected CRS (1 when it is not known: feet assumed)."""
    try:
        metres = float(crs.axis_info[0].unit_conversion_factor)
    except (AttributeError, IndexError, TypeError, ValueError):
        return 1.0
    return metres / 0.3048 if metres > 0 else 1.0


def _wider_than_noise(
    geoms: npt.NDArray[np.object_], territory: Any, outside: BoolArray, feet_per_unit: float
) -> BoolArray:
    """Whether each sliver candidate's piece is wider than digitising noise.

    The piece is the part of the parcel inside the territory (a candidate to
    snap to 0) or outside it (``outside``: a candidate to snap to 1). Its mean
    width is :math:`w = 2A / L` for area :math:`A` and perimeter :math:`L`
    (a strip of width :math:`w` and length :math:`\\ell \\gg w` has
    :math:`A = w\\ell`, :math:`L \\approx 2\\ell`); wider than
    :data:`SLIVER_MAX_WIDTH_FT` is land, not noise.
    """
    cut = np.where(
        outside,
        shapely.difference(geoms, territory),
        shapely.intersection(geoms, territory),
    )
    area = np.zeros(len(cut))
    length = np.zeros(len(cut))
    # a hair-thin spike joined to the piece (a line shared with the territory
    # comes back so) swells its perimeter, and would pass a 90 x 100 ft block
    # off as a 4 ft strip (audit A38 F1): the piece opened by a quarter of a
    # foot drops such spikes; where that takes off more than half of its
    # perimeter, the opened piece's width is the piece's
    hair = _SPIKE_FT / max(feet_per_unit, 1e-300)
    for k, piece in enumerate(cut):
        # the polygonal parts only: an edge the parcel shares with the territory
        # comes back as a line, and a territory reprojected from degrees as
        # hairline polygons along it; neither is a perimeter of the piece
        parts = shapely.get_parts(polygonal(piece))
        sizes = shapely.area(parts)
        kept = parts[sizes >= _HAIRLINE * sizes.sum()] if len(parts) else parts
        area[k] = float(shapely.area(kept).sum())
        length[k] = float(shapely.length(kept).sum())
        if len(kept) and length[k] > 0:
            opened = shapely.buffer(
                shapely.buffer(kept, -hair, join_style="mitre"), hair, join_style="mitre"
            )
            opened_length = float(shapely.length(opened).sum())
            if 0 < opened_length < 0.5 * length[k]:
                area[k] = float(shapely.area(opened).sum())
                length[k] = opened_length
    if abs(feet_per_unit - 1.0) < 1e-5:
        # a US survey foot (State Plane in New York) is 1.000002 international
        # feet: the limit is 10 feet of the map's own, so that a strip of
        # exactly 10 map feet is "at most 10 ft" (audit A20 F1)
        feet_per_unit = 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        width = np.where(length > 0, 2.0 * area / length, 0.0) * feet_per_unit
    # a width of exactly the limit, as floating point gives it back, is at most it
    wide: BoolArray = width > SLIVER_MAX_WIDTH_FT + _WIDTH_NOISE_FT
    return wide


def _intersection_areas(geoms: npt.NDArray[np.object_], territory: Any) -> FloatArray:
    """``area(g ∩ territory)`` for each g, each parcel by the cheaper of two exact routes.

    - **Triangles** (:mod:`pipeline.geometry._clip`): the territory cut into
      triangles, a parcel clipped in numpy by the triangles its box meets.
      Used for a territory of at most :data:`_MAX_TRIANGULATED_VERTICES`
      (the triangulation costs about 10 µs a vertex) and, there, for each
      parcel whose clipping takes at most :data:`_MAX_CLIP_ROWS` vertex rows
      (its vertices times the triangles its box meets).
    - **GEOS's overlay** for the rest: a larger territory, a parcel of many
      vertices or whose box meets many long triangles, a geometry collection
      (its polygons may overlap), or a territory GEOS cannot cut exactly into
      triangles.

    The route of a parcel depends on that parcel and the territory alone, never
    on the other parcels of the call, so a parcel gets the same bytes however
    the parcels are split into calls (the dask engine's partitions, a
    Scenario's parcels near an edit). Both routes give the area of the
    polygonal parts and agree to about 1e-11 of a parcel's area. Measured on
    the real village boundaries with 60 × 60 grids of lots: 1.3–7.9 ms
    against 5.1–17.1 ms by overlay for 250–330 crossing lots; the sample's 230
    crossing parcels: 1.5 ms against 4 ms.
    """
    n = len(geoms)
    if not n or shapely.get_num_coordinates(territory) > _MAX_TRIANGULATED_VERTICES:
        return _overlay_areas(geoms, territory)
    triangles = triangles_of(territory)
    if triangles is None:
        return _overlay_areas(geoms, territory)
    parts, owner = _polygon_parts(geoms)
    pairs = shapely.STRtree(triangles).query(parts)
    rows = shapely.get_num_coordinates(parts)[pairs[0]]
    cost = np.bincount(owner[pairs[0]], weights=rows, minlength=n)
    # a collection's polygons may overlap (GEOS calls it valid): its parts must
    # not be added up, so it takes the overlay, as it always did
    costly = (cost > _MAX_CLIP_ROWS) | (
        shapely.get_type_id(geoms) == shapely.GeometryType.GEOMETRYCOLLECTION
    )
    areas: FloatArray = np.zeros(n, dtype=np.float64)
    pairs = pairs[:, ~costly[owner[pairs[0]]]]
    if pairs.shape[1]:
        # in chunks of whole parcels of at most _CLIP_CHUNK_ROWS rows (one parcel
        # may exceed it alone): the working arrays stay small, and each parcel's
        # pieces are summed in one go, in the same order whatever the chunks
        per_parcel = np.where(costly, 0.0, cost)
        chunk_of = (np.cumsum(per_parcel) - per_parcel) // _CLIP_CHUNK_ROWS
        pair_chunk = chunk_of[owner[pairs[0]]]  # non-decreasing: parts are in parcel order
        edges = np.flatnonzero(pair_chunk[1:] != pair_chunk[:-1]) + 1
        for chunk in np.split(pairs, edges, axis=1):
            pieces = clipped_areas(parts, triangles, chunk)
            areas += np.bincount(owner[chunk[0]], weights=pieces, minlength=n)
    if costly.any():
        areas[costly] = _overlay_areas(geoms[costly], territory)
    return areas


def _polygon_parts(
    geoms: npt.NDArray[np.object_],
) -> tuple[npt.NDArray[np.object_], npt.NDArray[np.intp]]:
    """The non-empty Polygons of each geometry, and the geometry each comes from.

    In order of the geometries (a geometry's parts together, in their order).
    A MultiPolygon gives its polygons, empty ones left out; a collection gives
    only its members that are Polygons (collections take GEOS's overlay in
    :func:`_intersection_areas` anyway).
    """
    if np.all(shapely.get_type_id(geoms) == shapely.GeometryType.POLYGON) and not (
        shapely.is_empty(geoms).any()
    ):
        return geoms, np.arange(len(geoms), dtype=np.intp)  # the usual case: as they are
    parts, owner = shapely.get_parts(geoms, return_index=True)
    polygon = (shapely.get_type_id(parts) == shapely.GeometryType.POLYGON) & ~shapely.is_empty(
        parts
    )
    out: npt.NDArray[np.object_] = parts[polygon]
    return out, np.asarray(owner[polygon], dtype=np.intp)


def _overlay_areas(geoms: npt.NDArray[np.object_], territory: Any) -> FloatArray:
    """``area(g ∩ territory)`` by GEOS's overlay, cutting a large territory into pieces."""
    if shapely.get_num_coordinates(territory) <= 2 * _MAX_PIECE_VERTICES:
        areas: FloatArray = np.empty(len(geoms), dtype=np.float64)

        def work(part: slice) -> None:
            areas[part] = shapely.area(shapely.intersection(geoms[part], territory))

        if len(geoms) < _THREAD_MIN_OVERLAYS:
            work(slice(0, len(geoms)))
        else:
            shapely.bounds(territory)  # see _in_halves: the shared envelope, made first
            _in_halves(len(geoms), work)
        return areas
    pieces = np.asarray(_subdivide(territory, _MAX_PIECE_VERTICES), dtype=object)
    tree = shapely.STRtree(pieces)
    pairs = tree.query(geoms, predicate="intersects")
    parts = shapely.intersection(geoms[pairs[0]], pieces[pairs[1]])
    summed = np.bincount(pairs[0], weights=shapely.area(parts), minlength=len(geoms))
    return np.asarray(summed, dtype=np.float64)


def _subdivide(geom: Any, max_vertices: int, *, max_depth: int = 32) -> list[Any]:
    """Cut a polygonal geometry into polygons of at most ``max_vertices`` each.

    The pieces partition the geometry (they meet only along the cut lines),
    so areas of intersections with them add up to the whole.
    """
    out: list[Any] = []
    stack: list[tuple[Any, int]] = [(geom, 0)]
    while stack:
        g, depth = stack.pop()
        if depth >= max_depth or shapely.get_num_coordinates(g) <= max_vertices:
            out.extend(_polygons(g))
            continue
        xmin, ymin, xmax, ymax = g.bounds
        if xmax - xmin >= ymax - ymin:
            mid = (xmin + xmax) / 2.0
            boxes = [shapely.box(xmin, ymin, mid, ymax), shapely.box(mid, ymin, xmax, ymax)]
        else:
            mid = (ymin + ymax) / 2.0
            boxes = [shapely.box(xmin, ymin, xmax, mid), shapely.box(xmin, mid, xmax, ymax)]
        for b in boxes:
            stack.extend((p, depth + 1) for p in _polygons(shapely.intersection(g, b)))
    return out


def _polygons(geom: Any) -> list[Any]:
    """The polygons of positive area in ``geom`` (lines and points dropped)."""
    parts = shapely.get_parts(geom)
    keep = (shapely.get_type_id(parts) == shapely.GeometryType.POLYGON) & (shapely.area(parts) > 0)
    out: list[Any] = []
    for p in parts[keep]:
        out.append(p)
    for p in parts[shapely.get_type_id(parts) == shapely.GeometryType.GEOMETRYCOLLECTION]:
        out.extend(_polygons(p))
    return out


def polygonal(geom: Any) -> Any:
    """The polygonal part of ``geom`` as one Polygon or MultiPolygon (maybe empty)."""
    polys = _polygons(geom)
    if not polys:
        return shapely.Polygon()
    if len(polys) == 1:
        return polys[0]
    return shapely.MultiPolygon(polys)


def territory_geometry(territory: BaseGeometry | gpd.GeoSeries, parcels_crs: Any) -> Any:
    """A valid polygonal territory geometry, checked against the parcels' CRS."""
    if isinstance(territory, gpd.GeoSeries):
        if territory.crs is not None and parcels_crs is not None and territory.crs != parcels_crs:
            raise ValueError(
                f"territory CRS {territory.crs.to_string()} differs from parcels CRS "
                f"{parcels_crs.to_string()}"
            )
        from pipeline.geometry.territory import union_territory

        geom, _ = union_territory(territory)
        return geom
    if not isinstance(territory, BaseGeometry):
        raise TypeError("territory must be a shapely geometry or a GeoSeries")
    if territory.is_empty or shapely.get_type_id(territory) not in _POLYGONAL:
        raise ValueError(f"territory must be a non-empty (Multi)Polygon, got {territory.geom_type}")
    if not territory.is_valid:
        raise ValueError(
            f"territory geometry is invalid ({shapely.is_valid_reason(territory)}); "
            "repair it with union_territory first"
        )
    return territory


def _labels(index: pd.Index, mask: BoolArray, limit: int = 5) -> str:
    """The index labels where ``mask`` holds, at most ``limit`` of them."""
    labels: Sequence[Hashable] = list(index[mask])
    shown = ", ".join(repr(x) for x in labels[:limit])
    more = f" and {len(labels) - limit} more" if len(labels) > limit else ""
    return shown + more
