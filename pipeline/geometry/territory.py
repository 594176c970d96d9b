"""The territory: union of the boundary polygons, repairs, and parts by town.

§ 2-200 and § 2-202.1.b(4): the territory is the union of the boundary
polygons; invalid rings are repaired and each repair is reported. The territory
is split into town parts with the towns' boundary polygons.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import geopandas as gpd
import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from pipeline.errors import InputError
from pipeline.geometry.apportion import apportion_table, polygonal
from pipeline.keys import town_of_swis
from pipeline.tools.shapes import made_valid

__all__ = [
    "TownParts",
    "check_unlisted_towns",
    "shares_area",
    "town_parts",
    "union_territory",
]

_POLYGONAL = (shapely.GeometryType.POLYGON, shapely.GeometryType.MULTIPOLYGON)


def shares_area(
    geoms: Any, territory: BaseGeometry, *, tree: shapely.STRtree | None = None
) -> bool:
    """Whether any of ``geoms`` shares area with the territory.

    Touching along an edge or at a point shares none. With ``tree`` (an
    STR-tree of ``geoms``) only the geometries near the territory are tested.
    """
    geoms = np.asarray(geoms)
    if tree is not None:
        near = geoms[tree.query(territory, predicate="intersects")]
    else:
        near = geoms[shapely.intersects(geoms, territory)]
    return bool(len(near) and (~shapely.touches(near, territory)).any())


def union_territory(boundary: gpd.GeoSeries) -> tuple[Any, list[str]]:
    """Union the boundary polygons into one territory, repairing invalid ones.

    Parameters
    ----------
    boundary
        The boundary features (Polygon or MultiPolygon), in the working CRS.
        Index labels name the features in the repair notes and errors.

    Returns
    -------
    territory : shapely.Polygon or shapely.MultiPolygon
        The union, valid, holes kept.
    repairs : list of str
        One plain-words note per repair (invalid ring repaired, empty feature
        ignored, non-polygonal pieces of a repaired ring dropped), naming the
        feature and the planar area before and after in CRS units².

    Raises
    ------
    ValueError
        A feature that is neither polygonal nor empty (e.g. a line layer given
        as the boundary), or a boundary with no polygon at all.

    Notes
    -----
    :math:`T = \\bigcup_j \\operatorname{make\\_valid}(B_j)`, keeping the
    polygonal parts only. ``make_valid`` uses GEOS' "structure" method: a
    self-intersecting ring (bow-tie) becomes the polygons its lobes enclose.
    """
    if not isinstance(boundary, gpd.GeoSeries):
        raise TypeError("boundary must be a GeoSeries")
    repairs: list[str] = []
    pieces: list[Any] = []
    labels: list[Any] = []  # each piece's feature label
    for label, geom in boundary.items():
        if geom is None or geom.is_empty:
            repairs.append(f"feature {label!r}: no geometry; ignored")
            continue
        if shapely.get_type_id(geom) not in _POLYGONAL:
            raise ValueError(f"feature {label!r}: boundary must be polygons, got {geom.geom_type}")
        if geom.is_valid:
            pieces.append(geom)
            labels.append(label)
            continue
        reason = shapely.is_valid_reason(geom)
        fixed = polygonal(made_valid(geom))
        repairs.append(
            f"feature {label!r}: invalid ({reason}); repaired with make_valid, "
            f"area {geom.area:.6g} -> {fixed.area:.6g}"
        )
        if fixed.is_empty:
            repairs.append(f"feature {label!r}: nothing left after repair; ignored")
            continue
        pieces.append(fixed)
        labels.append(label)
    if not pieces:
        raise ValueError("the boundary holds no polygon")
    territory = polygonal(shapely.union_all(pieces))
    if territory.is_empty:
        raise ValueError("the boundary polygons have zero area")
    repairs += _overlap_notes(pieces, labels, territory.area)
    return territory, repairs


def _overlap_notes(pieces: list[Any], labels: list[Any], union_area: float) -> list[str]:
    """A note naming the features that overlap one another (their union is taken).

    Features that tile the territory share edges only: the sum of their areas
    is the union's. A pair covering the same land over more than
    :data:`OVERLAP_NOTE_SHARE` of the territory means a second copy of the
    boundary, or an old and a new line in one layer: the territory is still
    their union, and the note names the pairs and the share covered twice.
    Less is the noise of a shared edge drawn with other vertices, or moved
    by reprojection.
    """
    least = union_area * OVERLAP_NOTE_SHARE
    if len(pieces) < 2 or sum(p.area for p in pieces) <= union_area + least:
        return []
    tree = shapely.STRtree(pieces)
    left, right = tree.query(pieces, predicate="intersects")
    pairs = [(int(i), int(j)) for i, j in zip(left, right, strict=True) if i < j]
    overlaps = [(i, j, pieces[i].intersection(pieces[j]).area) for i, j in pairs]
    overlaps = [o for o in overlaps if o[2] > least]
    if not overlaps:
        return []
    shown = "; ".join(
        # not a threshold: four decimals (a copy of the boundary is "100.0000 %")
        f"{labels[i]} and {labels[j]} by {100 * a / union_area:.4f} %"
        for i, j, a in overlaps[:5]
    )
    more = f" and {len(overlaps) - 5} more pairs" if len(overlaps) > 5 else ""
    return [
        f"boundary features overlap (share of the territory's area): {shown}{more}. The "
        "territory is their union; check that the boundary file holds the proposed "
        "territory only once"
    ]


#: Overlaps of boundary features over this share of the territory's area are
#: told (:func:`union_territory`); below it, the noise of shared edges.
OVERLAP_NOTE_SHARE = 1e-5


class TownParts(NamedTuple):
    """The territory split by town (see :func:`town_parts`)."""

    #: Town key -> the part of the territory in that town (positive area only).
    parts: dict[str, Any]
    #: The part of the territory in no town polygon (maybe empty).
    uncovered: Any
    #: Its planar area, CRS units² (a warning figure when > 0).
    uncovered_area: float
    #: Area counted in two or more town parts (overlapping town polygons), CRS units².
    overlap_area: float


def town_parts(
    territory: BaseGeometry,
    towns: Mapping[str, BaseGeometry],
    *,
    min_area: float = 0.0,
) -> TownParts:
    """Split the territory by the towns' boundary polygons.

    Parameters
    ----------
    territory
        The territory (Polygon or MultiPolygon) in the working CRS.
    towns
        Town key (e.g. SWIS code) -> town boundary polygon, same CRS.
    min_area
        Parts whose planar area is at most this (CRS units²) are omitted;
        with the default 0 only empty or line-like overlaps are omitted.

    Returns
    -------
    TownParts
        ``parts`` in the order of ``towns``, the uncovered remainder and its
        area, and the area counted twice where town polygons overlap.

    Notes
    -----
    :math:`T_t = T \\cap G_t`; uncovered :math:`U = T \\setminus \\bigcup_t G_t`;
    overlap :math:`= \\sum_t \\operatorname{area}(T_t) -
    \\operatorname{area}(\\bigcup_t T_t)`.
    """
    parts: dict[str, Any] = {}
    for key, town in towns.items():
        part = polygonal(shapely.intersection(territory, town))
        if not part.is_empty and part.area > min_area:
            parts[key] = part
    if towns:
        uncovered = polygonal(
            shapely.difference(territory, shapely.union_all(list(towns.values())))
        )
    else:
        uncovered = territory
    overlap = 0.0
    if len(parts) > 1:
        overlap = sum(p.area for p in parts.values()) - shapely.union_all(list(parts.values())).area
        overlap = max(overlap, 0.0)
    return TownParts(parts, uncovered, float(uncovered.area), float(overlap))


def check_unlisted_towns(others: gpd.GeoDataFrame | None, territory: Any, tolerance: float) -> None:
    """A parcel of a town the config does not list may not lie in the territory.

    Its value would silently be missing from the owner test (§ 2-202.1.a(2)): the
    territory then lies in a town without a ``[[towns]]`` table. Overlaps under
    the sliver tolerance (digitising noise along a town line) are let through.
    ``others``: :attr:`pipeline.model.PetitionInputs.unlisted_parcels` (its
    spatial index is built once and kept, so that each alternative territory
    of a batch or a scenario is checked in a tree query).
    """
    if others is None or others.empty:
        return
    hit = np.unique(others.sindex.query(territory, predicate="intersects"))
    if not len(hit):
        return
    near = others.iloc[hit]
    frac = apportion_table(near.geometry, territory)["raw_fraction"].to_numpy()
    # as the apportionment snaps: only an overlap smaller than the tolerance is
    # noise; one exactly at it is a real part of the parcel
    inside = frac >= tolerance if tolerance > 0 else frac > 1e-9
    if not inside.any():
        return
    first = near.loc[inside].iloc[0]
    town = town_of_swis(str(first["swis"]))
    raise InputError(
        first["layer"],
        f"parcel {first['swis']} {first['print_key']} of town {town} lies "
        f"{float(frac[inside][0]):.1%} in the territory, but town {town} has no [[towns]] "
        f"table in the config ({int(inside.sum())} such parcels): add the town with its roll",
        feature=int(first["source_row"]),
        column="SWIS",
    )


#: A town polygon is another town's when more than this share of the parcels it
#: holds (at least :data:`_OTHER_TOWN_MIN` of them) are on other towns' rolls.
_OTHER_TOWN_SHARE = 0.5
_OTHER_TOWN_MIN = 5


def check_town_polygons_hold_their_parcels(
    parcels: gpd.GeoDataFrame,
    boundaries: Mapping[str, Any],
    names: Mapping[str, str],
    files: Mapping[str, Any],
) -> None:
    """A town's boundary polygon must hold its own roll's parcels, not another town's.

    Parameters
    ----------
    parcels
        The parcel polygons of the listed towns, with their ``swis`` (the town
        of a parcel is its SWIS code's town, :func:`pipeline.keys.town_of_swis`).
    boundaries
        Town SWIS -> the town's boundary polygon (towns without one are left out).
    names
        Town SWIS -> name, for the message.
    files
        Town SWIS -> the boundary file (the error names it).

    Raises
    ------
    InputError
        Naming the town's boundary file when more than half of the parcels
        whose box centre lies in its polygon (at least five) are on other
        towns' rolls: the boundary files of two towns swapped, or a polygon
        in another CRS. The parts of the territory, the owner test per part
        and the filing plan (§ 2-202.1.f: the original with the town holding
        the greatest part) would all follow the wrong polygons. A polygon
        clipped to the neighbourhood of the territory is fine: it holds fewer
        parcels, but its own.
    """
    if not len(boundaries) or parcels.empty:
        return
    bounds = shapely.bounds(np.asarray(parcels.geometry.values, dtype=object))
    cx = (bounds[:, 0] + bounds[:, 2]) / 2
    cy = (bounds[:, 1] + bounds[:, 3]) / 2
    town = (parcels["swis"].astype("str").str.slice(0, 4) + "00").to_numpy(dtype=object)
    for swis, polygon in boundaries.items():
        if polygon is None or polygon.is_empty:
            continue
        shapely.prepare(polygon)
        held = shapely.contains_xy(polygon, cx, cy)
        n = int(held.sum())
        other = town[held] != swis
        k = int(other.sum())
        if n >= _OTHER_TOWN_MIN and k > _OTHER_TOWN_SHARE * n:
            values, counts = np.unique(town[held][other], return_counts=True)
            most = str(values[int(np.argmax(counts))])
            raise InputError(
                files[swis],
                f"the boundary polygon of town {names.get(swis, swis)} ({swis}) holds {n} "
                f"parcels, {k} ({k / n:.0%}) of them on other towns' rolls (most of "
                f"{names.get(most, most)}, {most}): are two towns' boundary files swapped, "
                "or is this polygon in another CRS?",
            )


#: Where two boundaries drawn apart (a territory and a village, a territory and
#: the town polygons) disagree, a piece narrower than this everywhere (a strip
#: along the boundary, see :func:`real_overlap`), or smaller than
#: ``NOISE_AREA_SQ_FT``, is digitising noise: they rarely agree closer, while
#: any real piece of land is wider.
NOISE_WIDTH_FT = 10.0
NOISE_AREA_SQ_FT = 1_000.0


def real_overlap(overlap: BaseGeometry, working_crs: str) -> BaseGeometry:
    """The pieces of ``overlap`` that are not digitising noise (maybe empty).

    ``overlap``: where two boundaries disagree (a territory and a village, or
    the part of a territory in no town polygon), in ``working_crs``.

    Notes
    -----
    A piece is noise when it is narrower than :math:`w` = 10 ft everywhere
    (nothing is left of it when its boundary is moved :math:`w / 2` inwards:
    every point of it lies within 5 ft of its edge) or when its area is under
    1,000 sq ft. A piece at least 10 ft wide somewhere is a real part of the
    village.

    The width is found by erosion, not by the mean width :math:`2A / P`: where
    the territory shares a stretch of line with the village, the overlap comes
    back with hair-thin spikes along that line, whose length swells :math:`P`
    and would pass a 90 x 100 ft block off as a 3 ft strip.
    """
    if overlap.is_empty:
        return overlap
    from pyproj import CRS

    axis = CRS.from_user_input(working_crs).axis_info
    ft = (axis[0].unit_conversion_factor if axis else 1.0) / 0.3048  # feet per unit
    pieces = shapely.get_parts(overlap)
    area = shapely.area(pieces) * ft * ft
    # eroded by a hair less than half the width: a strip exactly 10 ft wide keeps
    # a core, one narrower than 10 ft keeps none
    core = shapely.buffer(pieces, -(NOISE_WIDTH_FT / 2.0) * (1.0 - 1e-9) / ft)
    wide = ~shapely.is_empty(core) & (shapely.area(core) > 0.0)
    keep = wide & (area >= NOISE_AREA_SQ_FT)
    return shapely.union_all(pieces[keep]) if keep.any() else shapely.Polygon()
