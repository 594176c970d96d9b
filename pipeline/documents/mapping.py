"""The map of the territory (matplotlib, PNG and PDF).

The territory outline, its town parts, the parcels coloured by signer status
(credited to a signer / not signed), parcels that straddle the boundary hatched,
a north arrow, a scale bar in feet or miles and a legend; roll records without
a polygon (unmapped) are counted in the legend. The figures are byte-stable:
the Agg backend, no timestamps in the metadata, fixed size and resolution.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import pyproj
import shapely
from shapely.geometry.base import BaseGeometry

from pipeline.documents._common import write_bytes
from pipeline.frames import PARCEL_KEY
from pipeline.keys import schedule_keys

__all__ = ["parcel_status", "render_map", "write_map"]

CREDITED = "#2e7d32"
NOT_SIGNED = "#f2c14e"
OUTLINE = "#b00020"
_TOWN_COLORS = ("#1f4e79", "#6a3d9a", "#00796b", "#8d6e63", "#455a64")
_US_FOOT_M = 1200.0 / 3937.0


def parcel_status(parcels: pd.DataFrame) -> pd.DataFrame:
    """Signer status and straddling flag of each parcel key of the schedule.

    Parameters
    ----------
    parcels
        The parcel schedule (``parcels.csv`` rows).

    Returns
    -------
    pandas.DataFrame
        Indexed by parcel key: ``status`` (``credited`` when any record of the
        parcel carries a signer credit, ``not signed`` otherwise, ``unmapped``
        for records without polygon) and ``straddles`` (0 < fraction < 1, by
        geometry).
    """
    if parcels.empty:
        return pd.DataFrame(
            {
                "status": pd.Series(dtype="str"),
                "straddles": pd.Series(dtype=bool),
                "inside": pd.Series(dtype=bool),
            },
            index=pd.Index([], dtype="str", name=PARCEL_KEY),
        )
    keys = schedule_keys(parcels["swis_code"], parcels["print_key_code"])
    frac = pd.to_numeric(parcels["fraction_in_territory"], errors="coerce").fillna(0.0)
    credit = pd.to_numeric(parcels["signer_credit_assessed"], errors="coerce").fillna(0.0)
    df = pd.DataFrame(
        {
            PARCEL_KEY: keys,
            "credited": (credit > 0).to_numpy(),
            "unmapped": (parcels["fraction_source"].astype("str") == "unmapped").to_numpy(),
            # crossed by the boundary: apportioned by area (an override's
            # fraction says nothing of where the line runs)
            "straddles": (
                (frac > 0) & (frac < 1) & (parcels["fraction_source"].astype("str") == "geometry")
            ).to_numpy(),
            "inside": (frac > 0).to_numpy(),
        }
    )
    g = df.groupby(PARCEL_KEY, sort=True).agg(
        credited=("credited", "any"),
        unmapped=("unmapped", "all"),
        straddles=("straddles", "any"),
        inside=("inside", "any"),
    )
    status = np.where(g["unmapped"], "unmapped", np.where(g["credited"], "credited", "not signed"))
    return pd.DataFrame(
        {
            "status": status,
            "straddles": g["straddles"].to_numpy(),
            "inside": g["inside"].to_numpy(),
        },
        index=g.index,
    )


def _nice(length: float) -> float:
    """The largest 1, 2, 5 × 10^k not above ``length``."""
    if length <= 0:
        return 1.0
    k = math.floor(math.log10(length))
    for m in (5, 2, 1):
        if m * 10**k <= length:
            return float(m * 10**k)
    return float(10**k)


def _feet_per_unit(crs: str) -> float:
    c = pyproj.CRS.from_user_input(crs)
    metres = c.axis_info[0].unit_conversion_factor if c.axis_info else 1.0
    return float(metres) / _US_FOOT_M


def _polygon_path(geoms: np.ndarray[Any, Any]) -> Any:
    """One compound matplotlib path of every polygon part of ``geoms``, or None.

    Each ring is a MOVETO … CLOSEPOLY subpath; rings are oriented (exteriors
    counter-clockwise, holes clockwise) so that holes stay empty under the
    non-zero fill rule. Parcels do not overlap, so one compound path per colour
    fills exactly what one path per parcel would, and is written as a single
    path: the PDF backend draws a collection path by path in Python (13,834
    parcels took 1.7 s; one compound path takes milliseconds).
    """
    from matplotlib.path import Path as MplPath

    polys = shapely.get_parts(shapely.get_parts(geoms[~shapely.is_missing(geoms)]))
    polys = polys[shapely.get_type_id(polys) == 3]  # polygons (a collection may hold lines)
    polys = shapely.orient_polygons(polys[~shapely.is_empty(polys)])
    if len(polys) == 0:
        return None
    rings = shapely.get_rings(polys)
    coords, ring = shapely.get_coordinates(rings, return_index=True)
    codes = np.full(len(coords), MplPath.LINETO, dtype=MplPath.code_type)
    first = np.r_[True, ring[1:] != ring[:-1]]
    codes[first] = MplPath.MOVETO
    codes[np.r_[first[1:], True]] = MplPath.CLOSEPOLY
    return MplPath(coords, codes)


#: Colour of the street centrelines.
STREET = "#7a5c2e"


def _draw_streets(ax: Any, streets: gpd.GeoDataFrame, view: tuple[float, ...]) -> None:
    """Street centrelines clipped to the view, each name written once along its longest piece."""
    clip = shapely.box(*view)
    lines = shapely.intersection(np.asarray(streets.geometry.array), clip)
    names = streets["name"].astype("str").to_numpy() if "name" in streets else None
    longest: dict[str, Any] = {}
    for i, geom in enumerate(lines):
        if geom is None or geom.is_empty:
            continue
        for piece in shapely.get_parts(geom):
            if piece.geom_type != "LineString" or piece.length <= 0:
                continue
            xy = np.asarray(piece.coords)
            ax.plot(xy[:, 0], xy[:, 1], color=STREET, linewidth=0.8, zorder=3)
            name = str(names[i]).strip() if names is not None else ""
            if name and (name not in longest or piece.length > longest[name].length):
                longest[name] = piece
    for name in sorted(longest):
        piece = longest[name]
        mid = piece.interpolate(0.5, normalized=True)
        a = piece.interpolate(max(0.0, 0.5 * piece.length - 1.0))
        b = piece.interpolate(min(piece.length, 0.5 * piece.length + 1.0))
        angle = float(np.degrees(np.arctan2(b.y - a.y, b.x - a.x)))
        if angle > 90.0:
            angle -= 180.0
        elif angle < -90.0:
            angle += 180.0
        ax.text(
            mid.x,
            mid.y,
            name,
            fontsize=5,
            color=STREET,
            rotation=angle,
            rotation_mode="anchor",
            ha="center",
            va="bottom",
            zorder=4,
        )


def _literal_text(draw: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``draw`` with matplotlib's maths parsing off: every text is drawn as written.

    A ``$`` in a street or town name is a dollar sign, not TeX (which would draw
    ``Mill $x^2$ St`` as maths, and fail on an unbalanced ``$``).
    """

    @functools.wraps(draw)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        import matplotlib

        matplotlib.use("Agg", force=False)
        with matplotlib.rc_context({"text.parse_math": False}):
            return draw(*args, **kwargs)

    return wrapper


@_literal_text
def render_map(
    *,
    territory: BaseGeometry,
    crs: str,
    parcels: gpd.GeoDataFrame,
    status: pd.DataFrame,
    towns: list[tuple[str, str, BaseGeometry | None]],
    title: str,
    unmapped: int,
    streets: gpd.GeoDataFrame | None = None,
    parts: Sequence[str] = (),
    regime: str = "",
) -> Any:
    """Draw the map; return the matplotlib figure (Agg canvas).

    ``parts``: the towns of the territory's parts; one without a drawn part
    (no town polygon, or reached only through the assessor's apportionment of a
    record without a polygon) is named in the legend all the same.

    ``streets`` (``name``, lines), when given, are drawn and named: a map that
    describes the territory shows "existing streets" (§ 2-202.1.c(1)(c)). Every
    text is drawn as written (:func:`_literal_text`). ``regime``, when given, is
    named under the title beside the grid (rules § 8).
    """
    from matplotlib.collections import PathCollection
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyArrow, Patch, Rectangle

    fig = Figure(figsize=(8.5, 11.0), dpi=150)
    ax = fig.add_axes((0.05, 0.12, 0.9, 0.80))
    ax.set_aspect("equal")
    ax.set_axis_off()
    fig.suptitle(title, fontsize=13, y=0.965)

    # status by key (a map, not a merge: either frame may be empty, and the
    # parcels' index may carry the key's name too)
    shown = parcels.reset_index(drop=True)
    shown = shown.loc[shown[PARCEL_KEY].isin(status.index)]
    for col in ("status", "straddles", "inside"):
        shown[col] = shown[PARCEL_KEY].map(status[col])
    shown = shown.loc[shown["inside"].astype(bool)].sort_values(PARCEL_KEY, kind="stable")
    colors = {"credited": CREDITED, "not signed": NOT_SIGNED}
    # one compound path per colour (parcels do not overlap); the limits are set below
    for st, color in colors.items():
        path = _polygon_path(shown.geometry[shown["status"] == st].to_numpy())
        if path is not None:
            ax.add_collection(
                PathCollection([path], facecolors=color, edgecolors="#555555", linewidths=0.2),
                autolim=False,
            )
    path = _polygon_path(shown.geometry[shown["straddles"]].to_numpy())
    if path is not None:
        ax.add_collection(
            PathCollection(
                [path], facecolors="none", edgecolors="#333333", hatch="////", linewidths=0.3
            ),
            autolim=False,
        )
    handles: list[Any] = [
        Patch(facecolor=CREDITED, edgecolor="#555555", label="parcel credited to a signer"),
        Patch(facecolor=NOT_SIGNED, edgecolor="#555555", label="parcel not signed for"),
        Patch(
            facecolor="white",
            edgecolor="#333333",
            hatch="////",
            label="parcel straddling the boundary (apportioned)",
        ),
    ]
    for i, (swis, name, geom) in enumerate(towns):
        part_geom = territory.intersection(geom) if geom is not None else None
        if part_geom is None or part_geom.is_empty:
            if swis in parts:  # a town of the territory with no part to draw
                why = "no town polygon given" if geom is None else "no area on the maps"
                handles.append(
                    Patch(
                        facecolor="none",
                        edgecolor="none",
                        label=f"part in the Town of {name} ({swis}): {why}",
                    )
                )
            continue
        color = _TOWN_COLORS[i % len(_TOWN_COLORS)]
        gpd.GeoSeries([part_geom], crs=crs).boundary.plot(
            ax=ax, color=color, linewidth=1.0, linestyle="--"
        )
        handles.append(
            Patch(
                facecolor="none",
                edgecolor=color,
                linestyle="--",
                label=f"part in the Town of {name} ({swis})",
            )
        )
    gpd.GeoSeries([territory], crs=crs).boundary.plot(ax=ax, color=OUTLINE, linewidth=1.8)
    handles.append(
        Patch(facecolor="none", edgecolor=OUTLINE, linewidth=1.8, label="boundary of the territory")
    )
    handles.append(
        Patch(
            facecolor="none",
            edgecolor="none",
            label=(
                "roll records without a polygon or an apportionment override "
                f"(unmapped, not counted): {unmapped:,}"
            ),
        )
    )

    minx, miny, maxx, maxy = territory.bounds
    pad = 0.05 * max(maxx - minx, maxy - miny, 1.0)
    if streets is not None and len(streets):
        _draw_streets(ax, streets, (minx - pad, miny - pad, maxx + pad, maxy + pad))
        handles.append(
            Patch(facecolor="none", edgecolor=STREET, linewidth=0.8, label="street centreline")
        )
    ax.set_xlim(minx - pad, maxx + pad)
    ax.set_ylim(miny - pad, maxy + pad)
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    # north arrow (grid north), top right
    ax.add_patch(
        FancyArrow(
            x1 - 0.06 * (x1 - x0),
            y1 - 0.14 * (y1 - y0),
            0,
            0.08 * (y1 - y0),
            width=0.008 * (x1 - x0),
            head_width=0.03 * (x1 - x0),
            head_length=0.03 * (y1 - y0),
            color="black",
            length_includes_head=True,
        )
    )
    ax.text(
        x1 - 0.06 * (x1 - x0),
        y1 - 0.05 * (y1 - y0),
        "N",
        ha="center",
        va="bottom",
        fontsize=12,
        fontweight="bold",
    )
    # scale bar, bottom left
    ft = _feet_per_unit(crs)
    width_ft = (x1 - x0) * ft
    if width_ft >= 2 * 5280:
        bar = _nice(width_ft / 5280 / 4)
        bar_units, label = bar * 5280 / ft, f"{bar:g} mile{'s' if bar != 1 else ''}"
    else:
        bar = _nice(width_ft / 4)
        bar_units, label = bar / ft, f"{bar:,.0f} feet"
    bx, by, h = x0 + 0.03 * (x1 - x0), y0 + 0.03 * (y1 - y0), 0.008 * (y1 - y0)
    ax.add_patch(Rectangle((bx, by), bar_units / 2, h, facecolor="black", edgecolor="black"))
    ax.add_patch(
        Rectangle((bx + bar_units / 2, by), bar_units / 2, h, facecolor="white", edgecolor="black")
    )
    ax.text(bx, by + 1.6 * h, "0", ha="center", va="bottom", fontsize=8)
    ax.text(
        bx + bar_units,
        by + 1.6 * h,
        label,
        ha="left",
        va="bottom",
        fontsize=8,
        bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.0, "alpha": 0.85},
    )
    fig.legend(
        handles=handles,
        loc="lower center",
        ncol=2,
        fontsize=7.5,
        frameon=False,
        bbox_to_anchor=(0.5, 0.01),
    )
    sub = f"Grid: {crs}" + (f" · rules of regime {regime}" if regime else "")
    fig.text(0.5, 0.935, sub, ha="center", fontsize=8, color="#444444")
    return fig


def write_map(
    directory: Path,
    *,
    territory: BaseGeometry,
    crs: str,
    parcels: gpd.GeoDataFrame,
    schedule: pd.DataFrame,
    towns: list[tuple[str, str, BaseGeometry | None]],
    title: str,
    streets: gpd.GeoDataFrame | None = None,
    parts: Sequence[str] = (),
    regime: str = "",
) -> dict[str, Path]:
    """Write ``map.png`` and ``map.pdf``; return them by name (streets drawn when given).

    ``parts``: the towns in which part of the territory lies (the summary's
    ``territory.towns``); each is named in the legend, drawn or not; ``regime``
    is named under the title (:func:`render_map`).
    """
    status = parcel_status(schedule)
    # records without polygon of the towns the territory reaches (those of a
    # listed town it does not reach are listed, but no part of it: audit A34 F2)
    unmapped = 0
    if len(schedule):
        none = schedule["fraction_source"].astype("str") == "unmapped"
        if parts and "town_swis" in schedule.columns:
            none &= schedule["town_swis"].astype("str").isin(set(parts))
        unmapped = int(none.sum())
    keys = status.index[status["inside"]] if len(status) else pd.Index([])
    drawn = parcels.loc[parcels[PARCEL_KEY].isin(keys), [PARCEL_KEY, "geometry"]]
    fig = render_map(
        territory=territory,
        crs=crs,
        parcels=drawn,
        status=status,
        towns=towns,
        title=title,
        unmapped=unmapped,
        streets=streets,
        parts=parts,
        regime=regime,
    )
    files: dict[str, Path] = {}
    for ext, meta in (
        ("png", {"Software": None}),
        ("pdf", {"Creator": None, "Producer": None, "CreationDate": None}),
    ):
        buf = io.BytesIO()
        fig.savefig(buf, format=ext, metadata=meta)
        files[f"map.{ext}"] = write_bytes(directory / f"map.{ext}", buf.getvalue())
    return files
