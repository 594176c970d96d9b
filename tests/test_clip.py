"""Tests for pipeline.geometry._clip: areas of polygons clipped by triangles."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely import affinity
from shapely.geometry import Polygon, box

from pipeline.geometry import _clip, apportion_table
from pipeline.geometry._clip import clipped_areas, triangles_of

# the L-shaped parcel: [0,2] x [0,1] plus [0,1] x [1,2]; area 2 + 1 = 3
L_SHAPE = Polygon([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)])


def _areas(subjects: list[Polygon], clippers: list[Polygon]) -> np.ndarray:
    """Every subject against every clipper, pairs in row order."""
    s = np.asarray(subjects, dtype=object)
    c = np.asarray(clippers, dtype=object)
    i, j = np.meshgrid(np.arange(len(s)), np.arange(len(c)), indexing="ij")
    return clipped_areas(s, c, (i.ravel(), j.ravel())).reshape(len(s), len(c))


def test_square_by_triangles() -> None:
    square = box(0, 0, 1, 1)
    big = Polygon([(0, 0), (2, 0), (0, 2)])  # x + y <= 2 holds on the whole square: 1
    half = Polygon([(0, 0), (1, 0), (0, 1)])  # x + y <= 1 cuts the square on its diagonal: 1/2
    apart = Polygon([(5, 5), (6, 5), (5, 6)])  # no common point: 0
    got = _areas([square], [big, half, apart])
    np.testing.assert_allclose(got, [[1.0, 0.5, 0.0]], rtol=0, atol=1e-15)


def test_a_hole_is_taken_away() -> None:
    # unit square less the hole [0.25, 0.75]^2 (area 1/4), clipped by x + y <= 1:
    # the square gives 1/2; the line x + y = 1 runs through the hole's corners
    # (0.25, 0.75) and (0.75, 0.25), so half the hole (1/8) is inside: 1/2 - 1/8 = 3/8
    holed = Polygon(box(0, 0, 1, 1).exterior.coords, [box(0.25, 0.25, 0.75, 0.75).exterior.coords])
    half = Polygon([(0, 0), (1, 0), (0, 1)])
    assert _areas([holed], [half])[0, 0] == pytest.approx(0.375, abs=1e-15)


def test_a_subject_that_is_not_convex() -> None:
    # the L clipped by x + y <= 2:
    #   bottom [0,2] x [0,1]: width 2 - y for y in [0, 1]: 2 - 1/2 = 1.5
    #   top    [0,1] x [1,2]: width 2 - y for y in [1, 2]: 1 - 1/2 = 0.5
    #   1.5 + 0.5 = 2.0; and x + y <= 4 holds on the whole L: 3
    small = Polygon([(0, 0), (2, 0), (0, 2)])
    large = Polygon([(0, 0), (4, 0), (0, 4)])
    np.testing.assert_allclose(_areas([L_SHAPE], [small, large]), [[2.0, 3.0]], atol=1e-15)


def test_orientation_does_not_matter() -> None:
    # the same L and triangle, each wound the other way: still 2.0
    cw_triangle = Polygon([(0, 0), (0, 2), (2, 0)])
    reversed_l = Polygon(list(L_SHAPE.exterior.coords)[::-1])
    assert _areas([reversed_l], [cw_triangle])[0, 0] == pytest.approx(2.0, abs=1e-15)


def test_state_plane_coordinates_keep_their_precision() -> None:
    # the L and its triangle moved to (1,000,000, 1,200,000) ft: still 2.0; the
    # shoelace from each ring's first vertex keeps the error near 1e-16 of 1e6
    dx, dy = 1_000_000.0, 1_200_000.0
    moved_l = affinity.translate(L_SHAPE, dx, dy)
    moved_t = affinity.translate(Polygon([(0, 0), (2, 0), (0, 2)]), dx, dy)
    assert _areas([moved_l], [moved_t])[0, 0] == pytest.approx(2.0, abs=1e-9)


def test_no_pairs_gives_nothing() -> None:
    empty = np.empty(0, dtype=np.intp)
    out = clipped_areas(np.asarray([L_SHAPE]), np.asarray([box(0, 0, 1, 1)]), (empty, empty))
    assert out.shape == (0,)


def test_triangles_partition_a_territory_with_a_hole() -> None:
    # 10 x 10 square less a 2 x 2 hole: 100 - 4 = 96 in triangles that use the
    # polygon's own 8 vertices (n + 2h - 2 = 8 + 2 - 2 = 8 triangles)
    territory = Polygon(box(0, 0, 10, 10).exterior.coords, [box(4, 4, 6, 6).exterior.coords])
    triangles = triangles_of(territory)
    assert triangles is not None
    assert len(triangles) == 8
    assert float(shapely.area(triangles).sum()) == pytest.approx(96.0, abs=1e-12)
    assert (shapely.get_num_coordinates(triangles) == 4).all()


def test_a_failed_triangulation_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # a triangulation that does not add up to the territory is not used
    territory = box(0, 0, 10, 10)
    monkeypatch.setattr(
        _clip.shapely,
        "constrained_delaunay_triangles",
        lambda g: shapely.GeometryCollection([Polygon([(0, 0), (10, 0), (0, 10)])]),
    )
    assert triangles_of(territory) is None


def test_apportion_agrees_with_the_overlay_beyond_the_triangulation_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the same parcels through both routes: the triangles (default) and GEOS's
    # overlay (a territory above the vertex limit), within 1e-12
    import importlib

    module = importlib.import_module("pipeline.geometry.apportion")
    rng = np.random.default_rng(3)
    angles = np.linspace(0, 2 * np.pi, 60, endpoint=False)
    radius = 400 * (1 + 0.2 * np.sin(5 * angles))
    territory = Polygon(np.c_[radius * np.cos(angles), radius * np.sin(angles)])
    lots = [box(x, y, x + 90, y + 70) for x, y in rng.uniform(-500, 400, size=(300, 2))]
    parcels = gpd.GeoSeries(lots)
    by_triangles = apportion_table(parcels, territory)["raw_fraction"].to_numpy()
    monkeypatch.setattr(module, "_MAX_TRIANGULATED_VERTICES", 3)
    by_overlay = apportion_table(parcels, territory)["raw_fraction"].to_numpy()
    crossing = (by_overlay > 0) & (by_overlay < 1)
    assert crossing.sum() > 20  # the case exercises the clipping
    np.testing.assert_allclose(by_triangles, by_overlay, rtol=0, atol=1e-12)


# --- against GEOS's overlay ------------------------------------------------------

coord = st.floats(-100, 100, allow_nan=False, allow_infinity=False).map(lambda v: round(v, 9))


@st.composite
def polygons(draw: st.DrawFn) -> Polygon:
    """A valid polygon: a star around a point (not convex), maybe with a hole."""
    cx, cy = draw(coord), draw(coord)
    k = draw(st.integers(3, 9))
    angles = np.sort(draw(st.lists(st.floats(0, 2 * np.pi), min_size=k, max_size=k, unique=True)))
    radii = draw(st.lists(st.floats(5, 60), min_size=k, max_size=k))
    shell = np.c_[cx + np.cos(angles) * radii, cy + np.sin(angles) * radii]
    # to a nanometre: a vertex 1.6e-193 off an axis (sin of a tiny angle) makes
    # GEOS's overlay, the reference here, return two points for a triangle's
    # intersection with a near copy of itself (GEOS 3.14.1), no coordinate a map holds
    shell = np.round(shell, 9)
    poly = shapely.make_valid(Polygon(shell))
    if draw(st.booleans()):
        poly = shapely.difference(poly, shapely.Point(cx, cy).buffer(draw(st.floats(0.5, 4))))
    parts = [p for p in shapely.get_parts(poly) if p.geom_type == "Polygon" and p.area > 1e-6]
    if not parts:
        return box(cx, cy, cx + 1, cy + 1)
    return max(parts, key=lambda p: p.area)


@st.composite
def triangles(draw: st.DrawFn) -> Polygon:
    pts = draw(st.lists(st.tuples(coord, coord), min_size=3, max_size=3, unique=True))
    tri = Polygon(pts)
    if tri.area < 1e-3:
        return Polygon([(0, 0), (50, 0), (0, 50)])
    return tri


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(polygons(), min_size=1, max_size=6),
    st.lists(triangles(), min_size=1, max_size=4),
    st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6)),
)
def test_the_same_areas_as_geos(
    subjects: list[Polygon], clippers: list[Polygon], shift: tuple[float, float]
) -> None:
    # clipping by a triangle is an intersection: GEOS's area of it, to 1e-9 of
    # the subject's area, wherever the pair lies, or to the noise of the
    # arithmetic itself: products of coordinates of magnitude M over an extent D
    # carry an error of about 1e-16 M D each, which for a sliver of 2.7e-6 sq
    # units at y = 64 (drawn once by make_valid of a star) is 1.3e-9 of its area:
    # allowed 1e-12 M D, a millionth of a square foot for a 100 ft lot at
    # State Plane magnitudes (10**6 ft)
    subjects = [affinity.translate(p, *shift) for p in subjects]
    clippers = [affinity.translate(t, *shift) for t in clippers]
    got = _areas(subjects, clippers)
    want = shapely.area(
        shapely.intersection(
            np.asarray(subjects, dtype=object)[:, None], np.asarray(clippers, dtype=object)[None, :]
        )
    )
    arr = np.asarray(subjects, dtype=object)
    b = shapely.bounds(arr)
    magnitude = np.abs(b).max(axis=1)
    extent = np.hypot(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])
    allowed = 1e-9 * shapely.area(arr) + 1e-12 * magnitude * extent
    assert (np.abs(got - want) <= allowed[:, None]).all(), (got, want, allowed)


def test_parts_empty_or_nested_are_read_right() -> None:
    # audit G8: a MultiPolygon with an EMPTY part (valid; GeoJSON and GPKG keep
    # it) shifted every later ring of the call. Territory box(0, 0, 100, 100):
    #   MULTIPOLYGON(EMPTY, box(50, 10, 150, 20)): 50 x 10 of 100 x 10 inside = 0.5
    #   a polygon with a hole: shell box(80, 30, 120, 70) (1,600) less the hole
    #     box(90, 40, 110, 60) (400) = 1,200; inside x <= 100: 20 x 40 = 800 less
    #     the hole's 10 x 20 = 200 -> 600 / 1,200 = 0.5
    #   box(60, 80, 140, 90): 40 x 10 of 80 x 10 = 0.5
    #   a collection of box(95, 0, 105, 5) (25 of 50 inside) and the line
    #     (0, 0)-(200, 0) (no area) and box(200, 0, 210, 10) (0 of 100):
    #     25 / 150 = 1/6
    from shapely.geometry import GeometryCollection, LineString, MultiPolygon

    territory = box(0, 0, 100, 100)
    holed = Polygon(box(80, 30, 120, 70).exterior.coords, [box(90, 40, 110, 60).exterior.coords])
    empty_part = shapely.from_wkt("MULTIPOLYGON (EMPTY, ((50 10, 150 10, 150 20, 50 20, 50 10)))")
    collection = GeometryCollection(
        [MultiPolygon([box(95, 0, 105, 5)]), LineString([(0, 0), (200, 0)]), box(200, 0, 210, 10)]
    )
    parcels = gpd.GeoSeries([empty_part, holed, box(60, 80, 140, 90), collection])
    got = apportion_table(parcels, territory)["raw_fraction"].to_numpy()
    np.testing.assert_allclose(got, [0.5, 0.5, 0.5, 1 / 6], rtol=0, atol=1e-12)


def test_clipped_areas_takes_polygons_only() -> None:
    multi = shapely.from_wkt("MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)))")
    tri = Polygon([(0, 0), (2, 0), (0, 2)])
    one = np.zeros(1, dtype=np.intp)
    with pytest.raises(ValueError, match="Polygons"):
        clipped_areas(np.asarray([multi], dtype=object), np.asarray([tri]), (one, one))
    # an empty polygon has area 0
    empty = np.asarray([Polygon()], dtype=object)
    assert clipped_areas(empty, np.asarray([tri]), (one, one)).tolist() == [0.0]


def test_costly_parcels_go_to_the_overlay_and_chunks_change_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # audit G8: a parcel of many vertices whose box meets many long triangles
    # took vertices x triangles rows (9 M for 2,000 x 4,625). Above
    # _MAX_CLIP_ROWS a parcel is intersected by GEOS's overlay. A 400-vertex
    # circle of radius 50 centred on the edge x = 100 of box(0, 0, 100, 100)
    # at y = 50 is half inside, 0.5 (symmetric about x = 100); its box meets
    # both triangles of the box: 401 x 2 = 802 rows, over 150, so it alone goes
    # to the overlay; box(90, 0, 110, 10), 5 x 2 rows, is clipped: 10 / 20 = 0.5
    import importlib

    module = importlib.import_module("pipeline.geometry.apportion")
    circle = shapely.Point(100, 50).buffer(50, quad_segs=100)
    parcels = gpd.GeoSeries([circle, box(90, 0, 110, 10), box(95, 90, 105, 100)])
    territory = box(0, 0, 100, 100)
    calls: list[int] = []
    overlay = module._overlay_areas
    monkeypatch.setattr(
        module, "_overlay_areas", lambda g, t: calls.append(len(g)) or overlay(g, t)
    )
    default = apportion_table(parcels, territory)["raw_fraction"].to_numpy()
    assert calls == [1]  # the circle alone went to the overlay
    np.testing.assert_allclose(default, [0.5, 0.5, 0.5], rtol=0, atol=1e-12)
    monkeypatch.setattr(module, "_MAX_CLIP_ROWS", 10**6)  # the circle clipped too
    clipped = apportion_table(parcels, territory)["raw_fraction"].to_numpy()
    assert calls == [1]
    np.testing.assert_allclose(clipped, [0.5, 0.5, 0.5], rtol=0, atol=1e-12)
    # one parcel a chunk: the same bytes as one chunk for all
    monkeypatch.setattr(module, "_CLIP_CHUNK_ROWS", 1)
    chunked = apportion_table(parcels, territory)["raw_fraction"].to_numpy()
    assert chunked.tobytes() == clipped.tobytes()


def test_a_parcel_gets_the_same_bytes_whatever_the_other_parcels() -> None:
    # the route and the sums of a parcel depend on it and the territory alone:
    # apportioned alone, with its neighbours, or among many, the same bytes
    # (the dask engine's partitions and a Scenario's subsets rely on it)
    rng = np.random.default_rng(5)
    angles = np.linspace(0, 2 * np.pi, 80, endpoint=False)
    radius = 300 * (1 + 0.25 * np.sin(7 * angles))
    territory = Polygon(np.c_[radius * np.cos(angles), radius * np.sin(angles)])
    lots = gpd.GeoSeries(
        [box(x, y, x + 40, y + 30) for x, y in rng.uniform(-420, 380, size=(400, 2))]
    )
    together = apportion_table(lots, territory)["raw_fraction"].to_numpy()
    crossing = np.flatnonzero((together > 0) & (together < 1))
    assert len(crossing) > 20
    for k in crossing[:25]:
        alone = apportion_table(lots.iloc[[k]], territory)["raw_fraction"].to_numpy()
        assert alone.tobytes() == together[[k]].tobytes()
    half = apportion_table(lots.iloc[::2], territory)["raw_fraction"].to_numpy()
    assert half.tobytes() == together[::2].tobytes()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(polygons(), min_size=1, max_size=10),
    st.lists(polygons(), min_size=1, max_size=3),
)
def test_both_routes_give_the_same_fractions(parcels: list[Polygon], pieces: list[Polygon]) -> None:
    # any parcels (stars, holes) against any territory (a union of stars, maybe
    # several parts, maybe holes): the triangles and GEOS's overlay agree to 1e-9
    import importlib

    from pipeline.geometry.apportion import polygonal

    module = importlib.import_module("pipeline.geometry.apportion")
    territory = polygonal(shapely.union_all(pieces))
    series = gpd.GeoSeries(parcels)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "_MAX_TRIANGULATED_VERTICES", 10**9)
        mp.setattr(module, "_MAX_CLIP_ROWS", 10**9)
        by_triangles = apportion_table(series, territory)["raw_fraction"].to_numpy()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "_MAX_TRIANGULATED_VERTICES", 0)
        by_overlay = apportion_table(series, territory)["raw_fraction"].to_numpy()
    np.testing.assert_allclose(by_triangles, by_overlay, rtol=0, atol=1e-9)
