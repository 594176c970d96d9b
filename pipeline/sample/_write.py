"""File writers of the sample: CSV, GeoJSON with a ``crs`` member, GeoPackage, BOE file, TOML.

Every writer is byte-stable: same frame, same bytes (fixed line endings, fixed
float formatting, and a fixed GeoPackage timestamp).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import shapely

from pipeline.frames import BOE_FIELDS_47

EPSG = 2260
BOE_FIELDS = BOE_FIELDS_47


def write_csv(path: Path, frame: pd.DataFrame) -> None:
    """Write ``frame`` as UTF-8 CSV with ``\\n`` line endings and no index."""
    frame.to_csv(path, index=False, lineterminator="\n", float_format="%.10g")


def write_geojson(path: Path, geoms: list[shapely.Geometry], props: list[dict[str, str]]) -> None:
    """Write polygons or lines as a GeoJSON FeatureCollection in EPSG:2260 (``crs`` member).

    Coordinates are rounded to 0.01 ft.
    """
    feats = []
    for g, p in zip(geoms, props, strict=True):
        gj = json.loads(shapely.to_geojson(shapely.set_precision(g, 0.01)))
        feats.append({"type": "Feature", "properties": p, "geometry": gj})
    doc = {
        "type": "FeatureCollection",
        "crs": {"type": "name", "properties": {"name": f"urn:ogc:def:crs:EPSG::{EPSG}"}},
        "features": feats,
    }
    path.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")


def write_parcels(path: Path, swis: np.ndarray, print_key: np.ndarray, polys: np.ndarray) -> None:
    """Write the parcel layer (fields ``SWIS``, ``PRINT_KEY``) as a GeoPackage.

    The GeoPackage's ``last_change`` timestamp is pinned (GDAL ``OGR_CURRENT_DATE``)
    so that the file is byte-stable; the option is restored afterwards.
    """
    if path.exists():
        path.unlink()
    gdf = gpd.GeoDataFrame(
        {"SWIS": pd.array(swis, dtype=object), "PRINT_KEY": pd.array(print_key, dtype=object)},
        geometry=polys,
        crs=EPSG,
    )
    old = pyogrio.get_gdal_config_option("OGR_CURRENT_DATE")
    pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": "2023-06-01T00:00:00.000Z"})
    try:
        pyogrio.write_dataframe(gdf, path, layer="parcels", driver="GPKG")
    finally:
        pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": old})


def write_voters(path: Path, frame: pd.DataFrame) -> None:
    """Write the NYS BOE voter file: 47 fields, no header, all quoted, Latin-1, CRLF."""
    cols = frame[list(BOE_FIELDS)].astype(str)
    with path.open("w", encoding="latin-1", newline="") as fh:
        w = csv.writer(fh, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
        w.writerows(cols.itertuples(index=False, name=None))


def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def write_config(
    path: Path,
    *,
    name: str,
    towns: list[dict[str, str]],
    designees: list[dict[str, str]],
    apportionment: bool,
    streets: bool = False,
    filed_on: str = "2023-06-01",
    parcels: str = "parcels.gpkg",
    comment: str = "Sample petition written by `petition sample` (invented data).",
    out_dir: str = "out",
) -> None:
    """Write ``petition.toml`` (paths relative to it).

    ``filed_on``, ``parcels`` (the parcel layer of every town), ``comment``
    (the first line) and ``out_dir`` (``[output] dir``) let a later year's
    config be written beside it.
    """
    out = [
        f"# {comment}",
        "[petition]",
        f"name = {_toml_str(name)}",
        f"filed_on = {filed_on}",
        'bases = ["owners", "residents"]',
        "",
        "[territory]",
        'boundary = "territory.geojson"',
        'crs = "EPSG:2260"',
        *(['streets = "streets.geojson"'] if streets else []),
        "",
    ]
    for t in towns:
        out += [
            "[[towns]]",
            f"swis = {_toml_str(t['swis'])}",
            f"name = {_toml_str(t['name'])}",
            f"roll = {_toml_str(t['roll'])}",
            f"parcels = {_toml_str(parcels)}",
            f"boundary = {_toml_str(t['boundary'])}",
            "",
        ]
    out += [
        "[equalization]",
        'rates = "rates.csv"',
        "",
        "[signers]",
        'pages = "pages.csv"',
        'signatures = "signatures.csv"',
        "",
        "[voters]",
        'file = "voters.txt"',
        "",
        "[inhabitants]",
        'file = "inhabitants.csv"',
        "",
    ]
    for d in designees:
        out += [
            "[[designees]]",
            f"name = {_toml_str(d['name'])}",
            f"address = {_toml_str(d['address'])}",
            f"town = {_toml_str(d['town'])}",
            "",
        ]
    if apportionment:
        out += ["[overrides]", 'apportionment = "apportionment.csv"', ""]
    out += ["[output]", f"dir = {_toml_str(out_dir)}", ""]
    path.write_text("\n".join(out), encoding="utf-8")
