"""The town parts of the territory (§ 2-202.1.a(2), f): their areas and checks.

A territory in several towns has a part in each; the owner test is decided per
part, and the original petition is filed with the town holding the greatest
part by area (§ 2-202.1.f(1)). This module finds the parts' areas from the
towns' boundary polygons, or, without them, from the rolls' municipality codes
(:func:`part_areas`); the towns reached only through value
(:func:`with_value_parts`); and the checks that go with them: the town
polygons cover the territory, no parcel lies in another town's part, tiny
parts, near ties for the greatest part, and an equalization rate for every
part (:func:`check_part_rates`).

Pure functions over in-memory frames and geometries, called by
:func:`pipeline.evaluate.assess` and :class:`pipeline.scenario.Scenario`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
from shapely.geometry.base import BaseGeometry

from pipeline.errors import (
    RATES_LABEL,
    TERRITORY_LABEL,
    InputError,
    town_boundary_label,
)
from pipeline.frames import PARCEL_KEY, SOURCE_ROW
from pipeline.geometry.apportion import polygonal
from pipeline.geometry.area import geodesic_area_sq_mi
from pipeline.geometry.territory import NOISE_WIDTH_FT, real_overlap, town_parts
from pipeline.law.filing import tied_greatest
from pipeline.model import PetitionInputs

if TYPE_CHECKING:
    from pipeline.evaluate import Prepared

__all__ = [
    "check_part_rates",
    "part_areas",
    "tie_warning",
    "towns_with_parts",
    "with_value_parts",
]


def part_areas(
    prepared: Prepared,
    territory: BaseGeometry,
    territory_sq_mi: float,
    geometric_rows: Callable[[], pd.DataFrame],
    warnings: list[str],
) -> dict[str, float]:
    """Square miles of each town part (geometric where the towns have polygons).

    Parameters
    ----------
    prepared
        From :func:`pipeline.evaluate.prepare`.
    territory
        The territory.
    territory_sq_mi
        Its geodesic area.
    geometric_rows
        Called only when needed: the schedule rows (``parcel_key``,
        ``town_swis``, ``fraction_in_territory``, ``fraction_source``,
        ``geometric_fraction``) in the territory. ``geometric_fraction`` is
        the fraction of the parcel's polygon in the territory (after sliver
        snapping) even where an override sets ``fraction_in_territory``; 0 for
        a record without a polygon.
    warnings
        Appended to.

    Returns
    -------
    dict
        Town SWIS -> square miles.

    Notes
    -----
    With a polygon :math:`G_t` for every town, part :math:`T_t = T \\cap
    G_t`. With polygons for some towns only, those towns' parts are so, and
    the rest of the territory :math:`R = T \\setminus \\bigcup_t G_t` is the
    part of the one town listed without a polygon, or is shared out among
    several such towns as below.

    Without town polygons the territory's area is shared out in proportion to
    :math:`\\sum_i a_i g_i` per town (parcel area :math:`a_i` times the
    geometric fraction :math:`g_i` of its polygon in the territory). The
    assessor's overrides apportion value, not land: they do not move area
    between towns (the greatest part by area decides where the petition is
    filed, § 2-202.1.f).
    """
    inputs = prepared.inputs
    given = {t.swis: t.boundary for t in inputs.towns if t.boundary is not None}
    if len(given) == len(inputs.towns):
        whole_split = town_parts(territory, given)
        split = _without_overlap_noise(
            whole_split, prepared.policy.sliver_tolerance, inputs.working_crs, warnings
        )
        missed = [t.swis for t in inputs.towns if t.swis not in split.parts]
        if missed:
            _check_town_polygons(missed, geometric_rows(), split.parts)
        warnings += _tiny_parts(
            split.parts, territory.area, prepared.policy.sliver_tolerance, geometric_rows
        )
        _check_town_cover(
            whole_split, territory, prepared.policy.sliver_tolerance, inputs.working_crs, warnings
        )
        if prepared.cross_town_keys:  # else no parcel can lie in another town's part
            warnings += _parcels_in_another_part(
                prepared, split.parts, geometric_rows(), prepared.policy.sliver_tolerance
            )
        return {
            swis: geodesic_area_sq_mi(part, inputs.working_crs)
            for swis, part in sorted(split.parts.items())
        }
    if given:
        return _mixed_part_areas(prepared, territory, given, geometric_rows, warnings)
    by_town = _land_by_roll_town(prepared, geometric_rows())
    if len(inputs.towns) > 1:  # one town's part is the whole territory: nothing approximate
        warnings.append(_no_town_polygons_warning(sum(1 for v in by_town.values() if v > 0) > 1))
    total = float(sum(by_town.values()))
    if not total > 0:
        raise InputError(
            TERRITORY_LABEL,
            "no roll record's parcel lies in the territory (beyond slivers under the sliver "
            "tolerance), so without town polygons its town parts cannot be found: do the "
            "print keys of the rolls and of the parcel layer join (a polygon whose key is "
            "on no roll is not counted), and is the territory in the right place and CRS? "
            "(or give the towns' boundary polygons)",
        )
    out: dict[str, float] = {}
    for t in inputs.towns:
        share = by_town.get(t.swis, 0.0) / total
        if share > 0:
            out[t.swis] = territory_sq_mi * share
    return out


def _no_town_polygons_warning(several: bool) -> str:
    """The warning of town parts taken from the rolls (``several`` towns hold land)."""
    return (
        "no town polygons: town parts come from each parcel's roll municipality_code and "
        "their areas are approximate (each parcel's area times its fraction in the "
        "territory by geometry; the assessor's overrides apportion value, not land)"
        + (
            "; the town of the original petition (§ 2-202.1.f(1): the one holding the "
            "greatest part of the territory) is chosen on these approximate areas: give the "
            "towns' boundary polygons to confirm it"
            if several
            else ""
        )
    )


def _land_by_roll_town(prepared: Prepared, rows: pd.DataFrame) -> dict[str, float]:
    """Town SWIS -> :math:`\\sum_i a_i g_i` over the rows' parcels of that roll.

    ``rows``: as ``geometric_rows`` of :func:`part_areas`. Parcel area
    :math:`a_i` (working CRS) times the geometric fraction :math:`g_i`, each
    polygon once (two records of one parcel, as condominium units, share it);
    a record without a polygon adds 0. Towns adding 0 are left out.
    """
    mapped = rows.loc[rows["fraction_source"] != "unmapped"].drop_duplicates(PARCEL_KEY)
    area = mapped[PARCEL_KEY].map(prepared.parcel_area).astype("float64").fillna(0.0)
    inside = area * mapped["geometric_fraction"].astype("float64").fillna(0.0)
    by_town = inside.groupby(mapped["town_swis"].astype("str")).sum()
    return {str(k): float(v) for k, v in by_town.items() if float(v) > 0}


def _mixed_part_areas(
    prepared: Prepared,
    territory: BaseGeometry,
    given: Mapping[str, BaseGeometry],
    geometric_rows: Callable[[], pd.DataFrame],
    warnings: list[str],
) -> dict[str, float]:
    """:func:`part_areas` when some towns have a boundary polygon and others not.

    The towns with a polygon have their geometric parts. The rest of the
    territory, in none of the polygons given, is the part of the town listed
    without one; of several such towns, it is shared among them in proportion
    to the land of each one's parcels in that rest (:func:`_land_in_rest`;
    approximate, with a warning). A rest under the sliver tolerance (as a
    share of the territory) where no parcel of those towns lies is digitising
    noise along the town lines. Parcels of the towns with a polygon lying in
    the rest are warned about.
    """
    inputs = prepared.inputs
    tolerance = prepared.policy.sliver_tolerance
    working_crs = inputs.working_crs
    names = {t.swis: t.name for t in inputs.towns}
    rest = [t.swis for t in inputs.towns if t.swis not in given]
    whole_split = town_parts(territory, given)
    split = _without_overlap_noise(whole_split, tolerance, working_crs, warnings)
    missed = [s for s in given if s not in split.parts]
    if missed:
        _check_town_polygons(missed, geometric_rows(), split.parts, need_parts=False)
    warnings += _tiny_parts(split.parts, territory.area, tolerance, geometric_rows)
    _check_town_cover(whole_split, territory, tolerance, working_crs, warnings, rest=rest)
    out = {swis: geodesic_area_sq_mi(part, working_crs) for swis, part in split.parts.items()}
    if prepared.cross_town_keys:
        warnings += _parcels_in_another_part(prepared, split.parts, geometric_rows(), tolerance)

    def town(swis: str) -> str:
        return f"{names.get(swis) or swis} ({swis})"

    with_polygon = ", ".join(town(s) for s in given)
    whole = max(float(territory.area), 1e-300)
    land: dict[str, float] = {}
    if split.uncovered_area > 0:
        land, strays = _land_in_rest(prepared, geometric_rows(), split.uncovered, rest, tolerance)
        if strays:
            label = town(rest[0]) if len(rest) == 1 else "the towns listed without one"
            warnings.append(
                f"{len(strays)} parcel(s) of towns with a boundary polygon lie outside it, in "
                f"the rest of the territory taken as the part of {label}: "
                + ", ".join(strays[:5])
                + (f" and {len(strays) - 5} more" if len(strays) > 5 else "")
                + ". Each counts in its own roll's town part, with that town's rate; if the "
                "parcel layer and the town polygons disagree, check them (the town parts "
                "decide where the petition is filed, § 2-202.1.f)"
            )
    detached = _detached_land(split, working_crs)
    if split.uncovered_area <= tolerance * whole and not land and detached.is_empty:
        if split.uncovered_area > 1e-6 * whole:
            warnings.append(
                f"{split.uncovered_area / whole:.4%} of the territory lies in none of the town "
                f"polygons given ({with_polygon}) and holds no parcel of the towns listed "
                "without one (under the sliver tolerance: digitising noise along the town "
                "lines)"
            )
        return dict(sorted(out.items()))
    rest_sq_mi = geodesic_area_sq_mi(split.uncovered, working_crs)
    if len(rest) == 1:
        out[rest[0]] = rest_sq_mi
        warnings.append(
            f"town polygons are given for {with_polygon} only: the rest of the territory, "
            f"{rest_sq_mi:.4f} square miles in none of them, is taken as the part of "
            f"{town(rest[0])}, the one town listed without a polygon"
        )
        return dict(sorted(out.items()))
    total = float(sum(land.values()))
    if not total > 0:
        raise InputError(
            TERRITORY_LABEL,
            f"{split.uncovered_area / whole:.2%} of the territory ({rest_sq_mi:.4f} square "
            f"miles) lies in none of the town polygons given ({with_polygon}) and no parcel "
            f"of the towns without one ({', '.join(town(s) for s in rest)}) lies in it, so "
            "it cannot be given to a town: give those towns' boundary polygons",
        )
    for swis in rest:
        share = land.get(swis, 0.0) / total
        if share > 0:
            out[swis] = rest_sq_mi * share
    warnings.append(
        f"town polygons are given for {with_polygon} only: the rest of the territory, "
        f"{rest_sq_mi:.4f} square miles, is shared among "
        f"{', '.join(town(s) for s in rest)} by each parcel's roll municipality_code, and "
        "their areas are approximate (each parcel's area times its fraction in that rest "
        "by geometry)"
    )
    return dict(sorted(out.items()))


def _land_in_rest(
    prepared: Prepared,
    rows: pd.DataFrame,
    rest_geom: BaseGeometry,
    rest: Sequence[str],
    tolerance: float,
) -> tuple[dict[str, float], list[str]]:
    """Land of each polygon-less town in the rest of the territory, and stray parcels.

    ``rows``: as ``geometric_rows`` of :func:`part_areas`; ``rest_geom``: the
    territory outside the town polygons given; ``rest``: the towns without one.
    Returns town SWIS -> :math:`\\sum_i a_i r_i` over that town's parcels
    (area :math:`a_i`, fraction :math:`r_i` in the rest; each polygon once;
    towns adding 0 left out), and labels (``SWIS:PRINT_KEY of town T
    (share)``) of the parcels of towns *with* a polygon having more than
    ``tolerance`` of their area in the rest.
    """
    from pipeline.geometry import apportion_table

    geo = rows.loc[
        (rows["fraction_source"] != "unmapped").to_numpy()
        & (rows["geometric_fraction"].astype("float64").to_numpy() > 0)
    ].drop_duplicates(PARCEL_KEY)
    pos = prepared.keys.get_indexer(pd.Index(geo[PARCEL_KEY].astype("str")))
    geo, pos = geo.loc[pos >= 0], pos[pos >= 0]
    if geo.empty:
        return {}, []
    geoms = np.asarray(prepared.parcels.geometry.values, dtype=object)[pos]
    share = apportion_table(gpd.GeoSeries(geoms), rest_geom)["raw_fraction"].to_numpy()
    town = geo["town_swis"].astype("str").to_numpy()
    mine = np.isin(town, list(rest))
    inside = shapely.area(geoms) * share
    land: dict[str, float] = {}
    for swis in rest:
        total = float(inside[town == swis].sum())
        if total > 0:
            land[swis] = total
    stray = ~mine & (share > tolerance)
    keys = geo[PARCEL_KEY].astype("str").to_numpy()[stray]
    roll = prepared.inputs.roll
    named = roll.loc[roll[PARCEL_KEY].astype("str").isin(keys.tolist())]
    labels = dict(
        zip(
            named[PARCEL_KEY].astype("str"),
            named["swis_code"].astype("str") + ":" + named["print_key_code"].astype("str"),
            strict=True,
        )
    )
    strays = [
        f"{labels.get(k, k)} of town {t} ({v:.1%})"
        for k, t, v in zip(keys, town[stray], share[stray], strict=True)
    ]
    return land, strays


#: Town parts whose areas differ by at most this share of the greater, but more
#: than :data:`pipeline.law.filing.TIE`, are told: which is the greatest rests
#: on the drawing of the town line (audit A22 O3).
NEAR_TIE = 1e-4


def tie_warning(areas: Mapping[str, float], warnings: list[str]) -> None:
    """Warn when the greatest town part is not clearly the greatest (§ 2-202.1.f(1))."""
    if len(areas) < 2:
        return
    tied = tied_greatest(areas)
    if len(tied) > 1:
        shown = ", ".join(f"{s} ({float(areas[s]):.6f} sq mi)" for s in tied)
        warnings.append(
            f"the town parts {shown} are equal to the precision of the boundaries: the "
            "statute files the original with the town of the greatest part (§ 2-202.1.f(1)) "
            f"and does not settle a tie; {tied[0]} was chosen (the lower SWIS code), which "
            "counsel should review"
        )
        return
    first, second = sorted(areas, key=lambda s: (-float(areas[s]), s))[:2]
    big, next_big = float(areas[first]), float(areas[second])
    if big > 0 and big - next_big <= NEAR_TIE * big:
        warnings.append(
            f"the town parts {first} ({big:.6f} sq mi) and {second} ({next_big:.6f} sq mi) "
            f"differ by {100 * (big - next_big) / big:.5f} % of the greater, less than the "
            "boundaries can be trusted to (a tenth of a foot along a town line moves a "
            f"part of a square mile by some 0.002 %): the original goes to {first}, the "
            "greatest part (§ 2-202.1.f(1)), which counsel should review"
        )


def _without_overlap_noise(
    split: Any, tolerance: float, working_crs: str, warnings: list[str]
) -> Any:
    """``split`` without the parts that are only noise where town polygons overlap.

    A town whose polygon meets the territory only where it overlaps another
    town's (nothing of its part lies outside the other parts), within the
    sliver tolerance (a share of the territory), holds no portion of it that
    is not already another town's: it gets no part (nor a copy of the
    petition, § 2-202.1.f). Such a sliver counted as a part of no value would
    fail the owner test (audit A33 F2). A thin part of its own is kept, and
    warned about (:func:`_tiny_parts`).
    """
    if len(split.parts) < 2:
        return split
    whole = sum(float(p.area) for p in split.parts.values()) - float(split.overlap_area)
    whole = max(whole + float(split.uncovered_area), 1e-300)
    noise: list[str] = []
    for swis, part in split.parts.items():
        if float(part.area) > tolerance * whole:
            continue
        others = [p for k, p in split.parts.items() if k != swis and k not in noise]
        own = polygonal(shapely.difference(part, shapely.union_all(others)))
        # nothing of its own: the part lies within other towns' parts (a part
        # of its own, however thin, is a portion of the territory in that town)
        if own.is_empty or float(own.area) <= 1e-9 * whole:
            noise.append(swis)
    if not noise:
        return split
    warnings.append(
        "the polygon of "
        + ", ".join(f"town {s}" for s in noise)
        + " meets the territory only where it overlaps another town's polygon, over less "
        f"than {tolerance:.2%} of the territory (digitising noise along the town line): no "
        "town part of it"
    )
    return split._replace(parts={k: p for k, p in split.parts.items() if k not in noise})


def _detached_land(split: Any, working_crs: str) -> BaseGeometry:
    """The pieces of the territory in no town polygon that lie apart from every part.

    Digitising noise lies along a town line, beside the parts; a piece of land
    more than :data:`~pipeline.geometry.territory.NOISE_WIDTH_FT` from every
    town's part, and no noise by its own width and area
    (:func:`~pipeline.geometry.territory.real_overlap`), is a portion of the
    territory in another town (audit A33 F3), whatever its share.
    """
    if split.uncovered.is_empty:
        return split.uncovered
    from pyproj import CRS

    axis = CRS.from_user_input(working_crs).axis_info
    ft = (axis[0].unit_conversion_factor if axis else 1.0) / 0.3048  # feet per unit
    pieces = shapely.get_parts(real_overlap(split.uncovered, working_crs))
    if not len(pieces):
        return shapely.Polygon()
    parts = shapely.union_all(list(split.parts.values())) if split.parts else None
    if parts is None or parts.is_empty:
        return shapely.union_all(pieces)
    apart = shapely.distance(pieces, parts) * ft > NOISE_WIDTH_FT
    return shapely.union_all(pieces[apart]) if apart.any() else shapely.Polygon()


def _check_town_cover(
    split: Any,
    territory: BaseGeometry,
    tolerance: float,
    working_crs: str,
    warnings: list[str],
    *,
    rest: Sequence[str] = (),
) -> None:
    """The town polygons must share the territory out once, and all of it (rules § 1).

    A part of the territory in no town polygon, or in two, beyond ``tolerance``
    (the sliver tolerance, here as a share of the territory's area) is bad
    input: the town parts, the owner test per part and the filing plan would
    be wrong. Less than that is digitising noise, reported as a warning.
    With towns listed without a polygon (``rest``), the part in no polygon is
    theirs: only overlaps are checked.
    """
    whole = max(float(territory.area), 1e-300)
    names = ", ".join(town_boundary_label(s) for s in split.parts) or "the town polygons"
    if not rest and split.uncovered_area > tolerance * whole:
        sq_mi = geodesic_area_sq_mi(split.uncovered, working_crs)
        raise InputError(
            TERRITORY_LABEL,
            f"{split.uncovered_area / whole:.2%} of the territory ({sq_mi:.4f} square miles) "
            f"lies in none of the town polygons ({names}): list every town the territory "
            "reaches, each with its boundary, or check the boundary files and their CRS",
        )
    elif not rest and split.uncovered_area > 1e-6 * whole:
        detached = _detached_land(split, working_crs)
        if not detached.is_empty:
            sq_mi = geodesic_area_sq_mi(detached, working_crs)
            raise InputError(
                TERRITORY_LABEL,
                f"{float(detached.area) / whole:.4%} of the territory ({sq_mi:.6f} square "
                f"miles) lies in none of the town polygons ({names}), apart from them: a "
                "piece of land, not noise along a town line; list every town the "
                "territory reaches, each with its boundary, or check the boundary files",
            )
        warnings.append(
            f"{split.uncovered_area / whole:.4%} of the territory lies in none of the town "
            "polygons (under the sliver tolerance: digitising noise along the town lines)"
        )
    if split.overlap_area > tolerance * whole:
        # the pair of towns that overlap most: the error is in one of their files
        swis = sorted(split.parts)
        pairs = [
            (float(shapely.area(shapely.intersection(split.parts[a], split.parts[b]))), a, b)
            for i, a in enumerate(swis)
            for b in swis[i + 1 :]
        ]
        _, first, second = max(pairs, default=(0.0, "", ""))
        pair = f"{town_boundary_label(first)} and {town_boundary_label(second)}" if first else names
        raise InputError(
            town_boundary_label(first) if first else TERRITORY_LABEL,
            f"town polygons overlap inside the territory over {split.overlap_area / whole:.2%} "
            f"of its area ({pair}): a place is in one town only, so the town parts would "
            "count it twice; check the boundary files and their CRS",
        )
    if split.overlap_area > 1e-6 * whole:
        warnings.append(
            f"town polygons overlap over {split.overlap_area / whole:.4%} of the territory "
            "(under the sliver tolerance: digitising noise along the town lines)"
        )


def _check_town_polygons(
    missed: Sequence[str],
    rows: pd.DataFrame,
    parts: Mapping[str, Any],
    *,
    need_parts: bool = True,
) -> None:
    """A town whose polygon misses the territory may not have parcels in it.

    ``missed``: the towns whose boundary polygon does not meet the territory;
    ``rows``: the schedule rows in the territory. A parcel of such a town placed
    in the territory by its own polygon means that the town polygon is wrong
    (another file, or another CRS): the filing plan (§ 2-202.1.f) would then
    leave the town out. With ``need_parts`` (every town has a polygon) the
    territory must meet one of them.
    """
    geo = rows.loc[
        rows["fraction_source"].isin(["geometry", "sliver"])
        & (rows["fraction_in_territory"].astype("float64") > 0)
    ]
    for swis in missed:
        mine = geo.loc[geo["town_swis"].astype("str") == swis]
        if len(mine):
            first = mine.iloc[0]
            raise InputError(
                town_boundary_label(swis),
                f"the boundary polygon of town {swis} does not meet the territory, yet "
                f"{len(mine)} of the town's parcels lie in it (parcel "
                f"{first['print_key_code']}, {float(first['fraction_in_territory']):.1%} "
                "inside): is it the town's boundary, in the right CRS?",
            )
    if need_parts and not parts:
        raise InputError(
            TERRITORY_LABEL,
            "the territory meets none of the towns' boundary polygons: is it in the right "
            "place and CRS?",
        )


def _parcels_in_another_part(
    prepared: Prepared,
    parts: Mapping[str, Any],
    rows: pd.DataFrame,
    tolerance: float,
    limit: int = 5,
) -> list[str]:
    r"""Warnings for parcels lying in the part of a town other than their roll's.

    A parcel's value is on its town's roll and is equalized with that town's
    rate, so it counts in that town's part (§ 2-202.1.a(2)); the town polygons
    say which part its land is in. A parcel of one town's roll with more than
    ``tolerance`` of its area in another town's part means the parcel layer and
    the town polygons disagree (another vintage, another CRS): that part may look
    emptier than it is. ``rows``: the schedule rows in the territory
    (``parcel_key``, ``town_swis``, ``fraction_in_territory``,
    ``fraction_source``).

    Notes
    -----
    Only parcels whose box meets the part's box are measured, with
    :func:`pipeline.geometry.apportion_table` against the part: the share of parcel
    :math:`P` in part :math:`T_y` is :math:`\operatorname{area}(P \cap T_y) /
    \operatorname{area}(P)`.
    """
    from pipeline.geometry import apportion_table

    geo = rows.loc[
        rows["fraction_source"].isin(["geometry", "sliver"]).to_numpy()
        & (rows["fraction_in_territory"].astype("float64").to_numpy() > 0)
        & rows[PARCEL_KEY].astype("str").isin(prepared.cross_town_keys).to_numpy()
    ]
    if geo.empty or not parts:
        return []
    pos = prepared.keys.get_indexer(pd.Index(geo[PARCEL_KEY].astype("str")))
    found = pos >= 0
    geo, pos = geo.loc[found], pos[found]
    geoms = np.asarray(prepared.parcels.geometry.values, dtype=object)[pos]
    bounds = shapely.bounds(geoms)
    town = geo["town_swis"].astype("str").to_numpy()
    out: list[str] = []
    for swis, part in sorted(parts.items()):
        x0, y0, x1, y1 = shapely.bounds(part)
        near = (
            (town != swis)
            & (bounds[:, 0] <= x1)
            & (bounds[:, 2] >= x0)
            & (bounds[:, 1] <= y1)
            & (bounds[:, 3] >= y0)
        )
        if not near.any():
            continue
        share = apportion_table(gpd.GeoSeries(geoms[near]), part)["raw_fraction"].to_numpy()
        over = share > tolerance
        if not over.any():
            continue
        keys = geo[PARCEL_KEY].astype("str").to_numpy()[near][over]
        towns = town[near][over]
        roll = prepared.inputs.roll
        named = roll.loc[roll[PARCEL_KEY].astype("str").isin(keys[:limit].tolist())]
        label = dict(
            zip(
                named[PARCEL_KEY].astype("str"),
                named["swis_code"].astype("str") + ":" + named["print_key_code"].astype("str"),
                strict=True,
            )
        )
        shown = ", ".join(
            f"{label.get(k, k)} of town {t} ({v:.1%})"
            for k, t, v in list(zip(keys, towns, share[over], strict=True))[:limit]
        )
        more = f" and {len(keys) - limit} more" if len(keys) > limit else ""
        out.append(
            f"{len(keys)} parcel(s) of other towns' rolls lie in the part of the territory in "
            f"town {swis} by its boundary polygon: {shown}{more}. Each counts in its own "
            "roll's town part, with that town's rate; if the parcel layer and the town "
            f"polygons disagree, the part of town {swis} may hold more real property than "
            "its roll shows (§ 2-202.1.a(2)): check the town polygons and the parcels"
        )
    return out


def _tiny_parts(
    parts: Mapping[str, Any],
    territory_area: float,
    tolerance: float,
    geometric_rows: Callable[[], pd.DataFrame],
) -> list[str]:
    """Warnings for town parts under ``tolerance`` of the territory holding no parcel.

    Such a part is likely digitising noise along a town line; as a part, it
    must pass the owner test and it takes a copy and a deposit (§ 2-202.1.f).
    ``geometric_rows`` (the schedule rows in the territory) is called only
    when a part is that small.
    """
    tiny = [swis for swis, part in parts.items() if part.area < tolerance * territory_area]
    if not tiny:
        return []
    rows = geometric_rows()
    inside = rows["fraction_in_territory"].astype("float64") > 0
    placed = set(rows.loc[inside, "town_swis"].astype("str"))
    return [
        f"the part of the territory in town {swis} is "
        f"{parts[swis].area / max(territory_area, 1.0):.4%} of it and holds no parcel "
        "(slivers under the tolerance aside, which count for 0): if it is digitising noise "
        "along the town line, correct the town or territory boundary (as a part, it must "
        "pass the owner test, which a part of no value cannot, and it takes a copy of the "
        "petition and a deposit)"
        for swis in tiny
        if swis not in placed
    ]


def towns_with_parts(
    inputs: PetitionInputs, schedule: pd.DataFrame, areas: Mapping[str, float]
) -> list[str]:
    """The towns with a part of the territory, in the config's order.

    A town part exists where the territory has area in the town or a record of
    the town has value in it; a listed town the line does not reach is no part
    (its records, unmapped ones included, cannot lie in the territory).
    """
    towns_col = schedule["town_swis"].astype("str")
    value = schedule["apportioned_assessed"].astype("float64").to_numpy()
    reached = {s for s, a in areas.items() if a > 0} | set(towns_col[value > 0])
    listed = [t.swis for t in inputs.towns]
    return [s for s in listed if s in reached] or listed


def with_value_parts(
    inputs: PetitionInputs,
    schedule: pd.DataFrame,
    areas: Mapping[str, float],
    warnings: list[str],
) -> dict[str, float]:
    """``areas`` with the towns reached only through value added, at zero area.

    A town whose records have value in the territory (an assessor's override of
    an unmapped record: special franchise, utility property) has a part of the
    territory though no polygon shows it (:func:`towns_with_parts`): the owner test
    checks that part, and the filing plan must give its supervisor a copy and a
    deposit (§ 2-202.1.f), so both read the same towns. Warned about: the
    part's area is unknown.
    """
    towns_col = schedule["town_swis"].astype("str").to_numpy()
    value = schedule["apportioned_assessed"].astype("float64").to_numpy()
    by_value = set(towns_col[value > 0].tolist())
    overridden = (schedule["fraction_source"].astype("str") == "override").to_numpy()
    by_override = set(towns_col[(value > 0) & overridden].tolist())
    extra = [t.swis for t in inputs.towns if t.swis in by_value and not areas.get(t.swis, 0.0) > 0]
    for swis in extra:
        how = (
            "through apportionment overrides"
            if swis in by_override
            else "its parcels lie in another town's boundary polygon"
        )
        warnings.append(
            f"town {swis} has no area of the territory on the maps given, but its records "
            f"have value in it ({how}): it is taken as a town in "
            "which part of the territory lies, with its own owner test, a copy of the "
            "petition and a deposit (§ 2-202.1.a(2), f); its area is shown as 0"
        )
    return {**areas, **{swis: 0.0 for swis in extra}}


def check_part_rates(inputs: PetitionInputs, part_towns: Sequence[str]) -> None:
    """A territory in several towns needs each part's equalization rate (§ 2-202.1.a(2)).

    A listed town that the territory does not reach needs none. Called only
    where the owner test applies: the rates serve it alone.
    """
    if len(part_towns) < 2:
        return
    for town in inputs.towns:
        if town.swis in part_towns and town.equalization_rate is None:
            # the rates file's row for that town and year, when it has one (blank)
            row = None
            rates = inputs.rates
            if rates is not None and len(rates):
                hit = rates[
                    (rates["swis_code"].astype("str") == town.swis)
                    & (rates["rate_year"].astype("int64") == int(town.roll_year))
                ]
                if len(hit) and SOURCE_ROW in hit.columns:
                    row = int(hit[SOURCE_ROW].iloc[0])
            what = (
                f"the equalization rate of town {town.swis} ({town.name}) for roll year "
                f"{town.roll_year} is blank (not final)"
                if row is not None
                else f"no equalization rate for town {town.swis} ({town.name}) in roll year "
                f"{town.roll_year}"
            )
            # rows keyed by the town's village or outside-village codes (104401,
            # 104489: the roll's swis_code) instead of the town's own
            hint = ""
            if row is None and rates is not None and len(rates):
                codes = rates["swis_code"].astype("str")
                near = sorted(
                    set(codes[(codes.str.slice(0, 4) == town.swis[:4]) & (codes != town.swis)])
                )
                if near:
                    hint = (
                        f" (the file has rows for {', '.join(near)}: rates are keyed by the "
                        f"town's SWIS code, {town.swis}, the roll's municipality_code)"
                    )
            raise InputError(
                RATES_LABEL,
                f"{what}: a territory in several towns needs one per town{hint}",
                row=row,
                column="equalization_rate",
            )
