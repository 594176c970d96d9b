"""Benchmark: pipeline.apportion vs geopandas.overlay vs tobler area_interpolate.

Not a test. Run from the repository root::

    .venv/bin/python bench/apportion.py                      # 10,000 and 200,000 parcels
    .venv/bin/python bench/apportion.py --sizes 1000000 --slow-max 200000

For each size it builds a parcel layer and a territory, then times, in this
one process:

- ``apportion``: :func:`pipeline.apportion` (the fraction of each parcel, a
  Series, as the issue asks); ``table_s`` is :func:`pipeline.geometry.apportion_table`
  (the same with each fraction's source and the raw fraction: the frame
  ``petition run`` uses), timed beside it;
- ``overlay``: ``geopandas.overlay(how="intersection")`` then
  area(piece) / area(parcel) summed per parcel;
- ``tobler P->T``: ``area_interpolate(parcels, territory,
  extensive_variables=["area"], allocate_total=False)`` — gives one total,
  the area of parcels in the territory, compared with sum(f_i * a_i);
- ``tobler T->P``: ``area_interpolate(territory, parcels,
  extensive_variables=["area"], allocate_total=False)`` with the territory's
  own area as the extensive variable — gives area(T ∩ P_i) per parcel, so
  per-parcel fractions to compare.

It prints one row per size: seconds for each (best of ``--repeat`` runs for
apportion, of ``--alt-repeat`` for the others, taken in interleaved rounds so
that a slow spell of the machine hits every method alike), the ratio alternative /
apportion, and the largest |fraction difference| (relative difference of the
total for ``tobler P->T``). Alternatives are skipped above ``--slow-max``.

Two layouts (``--layout``, default both):

- ``lots``: a jittered lot layout built in-process: lots of ~40 m on a grid
  whose shared corners are jittered (so lots tile like a real tax map), and a
  territory that is a wobbly blob of 4,000 vertices, with a hole, covering
  about a third of the lots (the hard case: many parcels inside or crossing);
- ``sample``: the in-memory layout behind :func:`pipeline.sample.generate_sample`
  (two towns, a territory of up to 4 sq mi on the town line, most parcels far
  from it, as in a real town roll); falls back to ``lots`` if unavailable.

Memory: about 1 GB at 1,000,000 parcels (2 cores / 24 GB is plenty).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.geometry import apportion, apportion_table

CRS = "EPSG:2260"  # NY State Plane East, US survey feet (lot sizes below are in feet)


def lot_layout(n: int, *, seed: int = 0, lot_ft: float = 130.0) -> gpd.GeoDataFrame:
    """About ``n`` quadrilateral lots tiling a square, corners jittered."""
    rng = np.random.default_rng(seed)
    nx = int(np.ceil(np.sqrt(n)))
    ny = int(np.ceil(n / nx))
    xs, ys = np.meshgrid(np.arange(nx + 1) * lot_ft, np.arange(ny + 1) * lot_ft, indexing="ij")
    jitter = rng.uniform(-0.3, 0.3, size=(2, nx + 1, ny + 1)) * lot_ft
    cx = xs + jitter[0] + 600_000.0
    cy = ys + jitter[1] + 1_200_000.0
    i, j = np.meshgrid(np.arange(nx), np.arange(ny), indexing="ij")
    i, j = i.ravel()[:n], j.ravel()[:n]
    ring_i = np.stack([i, i + 1, i + 1, i, i], axis=1)
    ring_j = np.stack([j, j, j + 1, j + 1, j], axis=1)
    coords = np.stack([cx[ring_i, ring_j], cy[ring_i, ring_j]], axis=-1)
    lots = shapely.polygons(coords)
    return gpd.GeoDataFrame({"pid": np.arange(n)}, geometry=lots, crs=CRS)


def blob_territory(parcels: gpd.GeoDataFrame, *, seed: int = 1, vertices: int = 4000) -> Any:
    """A wobbly polygon with a hole covering about a third of the parcels' extent."""
    rng = np.random.default_rng(seed)
    xmin, ymin, xmax, ymax = parcels.total_bounds
    cx, cy = (xmin + xmax) / 2, (ymin + ymax) / 2
    r0 = 0.33 * min(xmax - xmin, ymax - ymin)
    t = np.linspace(0, 2 * np.pi, vertices, endpoint=False)
    r = r0 * (1 + 0.15 * np.sin(5 * t) + 0.05 * np.sin(23 * t + 1) + rng.normal(0, 0.004, vertices))
    shell = np.column_stack([cx + r * np.cos(t), cy + r * np.sin(t)])
    th = np.linspace(0, 2 * np.pi, 200, endpoint=False)
    hole = np.column_stack([cx + 0.2 * r0 * np.cos(th), cy + 0.15 * r0 * np.sin(th)])
    return shapely.make_valid(shapely.Polygon(shell, [hole[::-1]]))


def sample_parcels(n: int, layout: str) -> tuple[gpd.GeoDataFrame, Any, str]:
    """Parcels and territory: the sample generator's layout, or the built-in lot layout.

    ``layout="sample"`` uses the in-memory layout behind
    :func:`pipeline.sample.generate_sample` (two towns, a territory of up to
    4 sq mi on the town line: most parcels are far from it, as in a real roll);
    if that cannot be had it falls back to the built-in layout.
    """
    if layout == "sample":
        try:
            from pipeline.sample._parcels import build_layout

            lay = build_layout(lots=n, towns=2, rng=np.random.default_rng(1))
            parcels = gpd.GeoDataFrame(
                {"pid": np.arange(len(lay.polygons))}, geometry=lay.polygons, crs=CRS
            )
            return parcels, lay.territory, "pipeline.sample"
        except Exception as exc:  # any failure means: use the built-in layout
            print(f"pipeline.sample layout unavailable ({exc!r}); using built-in", file=sys.stderr)
    parcels = lot_layout(n)
    return parcels, blob_territory(parcels), "built-in lots"


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def by_overlay(parcels: gpd.GeoDataFrame, territory: Any) -> np.ndarray:
    tdf = gpd.GeoDataFrame({"tid": [0]}, geometry=[territory], crs=parcels.crs)
    pieces = gpd.overlay(parcels[["pid", "geometry"]], tdf, how="intersection")
    inside = pieces.geometry.area.groupby(pieces["pid"].to_numpy()).sum()
    area_in = np.zeros(len(parcels))
    area_in[inside.index.to_numpy()] = inside.to_numpy()
    return np.asarray(area_in / parcels.geometry.area.to_numpy())


def by_tobler_p2t(parcels: gpd.GeoDataFrame, territory: Any) -> float:
    from tobler.area_weighted import area_interpolate

    src = gpd.GeoDataFrame(
        {"area": parcels.geometry.area.to_numpy()},
        geometry=parcels.geometry.values,
        crs=parcels.crs,
    )
    tdf = gpd.GeoDataFrame({"tid": [0]}, geometry=[territory], crs=parcels.crs)
    out = area_interpolate(src, tdf, extensive_variables=["area"], allocate_total=False)
    return float(out["area"].iloc[0])


def by_tobler_t2p(parcels: gpd.GeoDataFrame, territory: Any) -> np.ndarray:
    from tobler.area_weighted import area_interpolate

    src = gpd.GeoDataFrame({"area": [territory.area]}, geometry=[territory], crs=parcels.crs)
    tgt = gpd.GeoDataFrame(geometry=parcels.geometry.values, crs=parcels.crs)
    out = area_interpolate(src, tgt, extensive_variables=["area"], allocate_total=False)
    return np.asarray(out["area"].to_numpy() / parcels.geometry.area.to_numpy())


def run(n: int, layout: str, slow_max: int, repeat: int, alt_repeat: int = 3) -> dict[str, Any]:
    """One row: times are best-of, taken in interleaved rounds.

    Each round times ``apportion`` (``repeat / alt_repeat`` runs, at least 5)
    and then each alternative once, so that a slow spell of the machine hits
    every method alike and the ratios compare like with like.
    """
    parcels, territory, origin = sample_parcels(n, layout)
    row: dict[str, Any] = {"parcels": len(parcels), "source": origin, "apportion_s": np.nan}
    fractions = apportion(parcels, territory).to_numpy()  # no tolerance: the raw fractions
    row["crossing"] = int(((fractions > 0) & (fractions < 1)).sum())
    row["inside"] = int((fractions == 1).sum())
    slow = len(parcels) <= slow_max
    alternatives: dict[str, Callable[[], Any]] = (
        {
            "overlay": lambda: by_overlay(parcels, territory),
            "toblerPT": lambda: by_tobler_p2t(parcels, territory),
            "toblerTP": lambda: by_tobler_t2p(parcels, territory),
        }
        if slow
        else {}
    )
    rounds = alt_repeat if slow else 1
    per_round = max(5, -(-repeat // rounds))
    best: dict[str, float] = {}
    answer: dict[str, Any] = {}
    for _ in range(rounds):
        t_app = min(timed(lambda: apportion(parcels, territory))[0] for _ in range(per_round))
        best["apportion"] = min(best.get("apportion", np.inf), t_app)
        t_table = min(
            timed(lambda: apportion_table(parcels, territory))[0] for _ in range(per_round)
        )
        best["table"] = min(best.get("table", np.inf), t_table)
        for name, fn in alternatives.items():
            t, answer[name] = timed(fn)
            best[name] = min(best.get(name, np.inf), t)
    t_app = best["apportion"]
    row["apportion_s"] = t_app
    row["table_s"] = best["table"]
    if not slow:
        return row
    row["overlay_s"], row["overlay_x"] = best["overlay"], best["overlay"] / t_app
    row["overlay_maxdiff"] = float(np.max(np.abs(answer["overlay"] - fractions)))
    ours = float(np.sum(fractions * parcels.geometry.area.to_numpy()))
    row["toblerPT_s"], row["toblerPT_x"] = best["toblerPT"], best["toblerPT"] / t_app
    row["toblerPT_reldiff"] = abs(answer["toblerPT"] - ours) / ours
    row["toblerTP_s"], row["toblerTP_x"] = best["toblerTP"], best["toblerTP"] / t_app
    row["toblerTP_maxdiff"] = float(np.max(np.abs(answer["toblerTP"] - fractions)))
    return row


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,200000", help="comma-separated parcel counts")
    ap.add_argument(
        "--slow-max",
        type=int,
        default=200_000,
        help="skip overlay and tobler above this many parcels",
    )
    ap.add_argument(
        "--layout",
        choices=("sample", "lots", "both"),
        default="both",
        help="parcels from pipeline.sample, the built-in lot layout, or both",
    )
    ap.add_argument("--repeat", type=int, default=15, help="best of N runs for apportion")
    ap.add_argument(
        "--alt-repeat", type=int, default=3, help="best of N runs for overlay and tobler"
    )
    args = ap.parse_args(argv)
    warnings.filterwarnings("ignore")
    rows = []
    layouts = ("lots", "sample") if args.layout == "both" else (args.layout,)
    for n in (int(s) for s in args.sizes.split(",") if s.strip()):
        for layout in layouts:
            row = run(n, layout, args.slow_max, args.repeat, args.alt_repeat)
            rows.append(row)
        print(pd.DataFrame([row]).to_string(index=False, float_format="{:.3g}".format), flush=True)
    print()
    print(pd.DataFrame(rows).to_string(index=False, float_format="{:.3g}".format))


if __name__ == "__main__":
    main()
