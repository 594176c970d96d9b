"""Readers of vector layers: parcel polygons and boundary polygons.

Feature numbers in messages and in ``source_row`` count the features of the
layer from 1, in file order.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pyarrow as pa
import pyogrio
import shapely
from pyproj import CRS
from pyproj.exceptions import CRSError

from pipeline.errors import InputError
from pipeline.frames import PARCEL_COLUMNS, PARCEL_KEY, SOURCE_ROW
from pipeline.keys import normalize_print_key, normalize_print_keys
from pipeline.tools.shapes import made_valid

_PARQUET = (".parquet", ".geoparquet", ".pq")

#: Field names (lower-cased) that hold the SWIS code, in order of preference.
SWIS_FIELDS = ("swis", "swis_code", "swiscode", "swis_cd", "swis_id")
#: Field names (lower-cased) that hold the print key, in order of preference.
PRINT_KEY_FIELDS = (
    "print_key",
    "printkey",
    "print_key_code",
    "printkeycode",
    "print_key_",
    "prnt_key",
    "taxid",
    "tax_id",
    "sbl",
)
#: Field names (lower-cased) holding SWIS and print key together ("503689-13.-3-1").
COMBINED_FIELDS = (
    "swis_print_key",
    "swisprintk",
    "swisprintkey",
    "swis_printkey",
    "swis_print",
    "swis_sbl",
    "swissbl",
    "parcelkey",
    "parcel_key",
)
_COMBINED = re.compile(r"^\s*(\d{6})[\s\-_|:]*(.+?)\s*$")


def _read_layer(path: str | Path) -> gpd.GeoDataFrame:
    p = Path(path)
    if not p.exists():
        raise InputError(p, "file not found")
    if p.is_file() and p.stat().st_size == 0:
        raise InputError(p, "file is empty")
    try:
        if p.suffix.lower() in _PARQUET:
            gdf = gpd.read_parquet(p)
        else:
            layer = _the_layer(p)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                try:
                    gdf = pyogrio.read_dataframe(p, layer=layer, use_arrow=True)
                except Exception:
                    gdf = pyogrio.read_dataframe(p, layer=layer)
    except InputError:
        raise
    except Exception as exc:
        raise InputError(p, f"cannot read as a vector layer: {exc}") from None
    if not isinstance(gdf, gpd.GeoDataFrame) or gdf.geometry is None:
        raise InputError(p, "the layer has no geometry")
    if len(gdf) == 0:
        raise InputError(p, "the layer has no feature")
    return gdf.reset_index(drop=True)


def _the_layer(p: Path) -> str | None:
    """The one layer with geometry of a vector file (None: the file's only layer).

    A file of several layers with geometry (a county GeoPackage holding the
    2019 and the proposed boundaries, say) is refused: reading its first
    layer, as GDAL does, could build the petition on the wrong one.
    """
    try:
        layers = pyogrio.list_layers(p)
    except Exception:
        return None  # the read that follows reports the problem
    if len(layers) <= 1:
        return None
    spatial = [str(name) for name, kind in layers.tolist() if kind is not None]
    if len(spatial) > 1:
        raise InputError(
            p,
            f"the file holds {len(spatial)} layers with geometry ({', '.join(spatial)}); "
            "which one is meant cannot be told: save the one wanted in a file of its own "
            f"(e.g. ogr2ogr one.gpkg {p.name} {spatial[-1]})",
        )
    return spatial[0] if spatial else None


def layer_crs(path: str | Path, *, crs: str | None = None) -> str | None:
    """The CRS the reader will give a vector file, without reading its features.

    As :func:`read_parcels` decides it: the file's CRS; ``crs`` (the
    configured one) when the file has none, or when it says longitude/latitude
    (a GeoJSON without a ``crs`` member, a GeoParquet without one) but its
    bounds cannot be degrees. None when the file cannot be opened (the reader
    then reports the problem) or when nothing tells.
    """
    p = Path(path)
    bounds: tuple[float, ...] = ()
    try:
        if p.suffix.lower() in _PARQUET:
            import json

            import pyarrow.parquet as pq

            meta = pq.read_schema(p).metadata or {}
            geo = json.loads(meta.get(b"geo", b"{}"))
            column = geo.get("columns", {}).get(geo.get("primary_column", ""), {})
            bounds = tuple(float(v) for v in column.get("bbox", ()))
            if "crs" not in column:
                declared: str | None = "OGC:CRS84"  # the GeoParquet default
            elif column["crs"] is None:
                declared = None
            else:
                declared = CRS.from_json_dict(column["crs"]).to_string()
        else:
            layers = pyogrio.list_layers(p)
            spatial = [str(n) for n, kind in layers.tolist() if kind is not None]
            info = pyogrio.read_info(
                p, layer=spatial[0] if spatial else None, force_total_bounds=True
            )
            declared = str(info["crs"]) if info["crs"] else None
            if info.get("total_bounds") is not None:
                bounds = tuple(float(v) for v in info["total_bounds"])
        if declared is None:
            return crs
        geographic = CRS.from_user_input(declared).is_geographic
        if len(bounds) == 4 and geographic and not _can_be_degrees(*bounds):
            return crs
    except Exception:
        return None
    return declared


def _parse_crs(value: str, path: str | Path) -> CRS:
    try:
        return CRS.from_user_input(value)
    except CRSError as exc:
        raise InputError(path, f"unknown CRS {value!r}: {exc}", column="crs") from None


def _configured_crs(gdf: gpd.GeoDataFrame, path: str | Path, crs: str) -> gpd.GeoDataFrame:
    """``gdf`` in the configured ``crs``; a longitude/latitude CRS must fit the numbers."""
    given = _parse_crs(crs, path)
    if given.is_geographic:
        x0, y0, x1, y1 = (float(v) for v in gdf.total_bounds)
        if not _can_be_degrees(x0, y0, x1, y1):
            raise InputError(
                path,
                f"the configured crs {crs} is longitude/latitude, but the coordinates "
                f"({x0:,.0f}..{x1:,.0f}, {y0:,.0f}..{y1:,.0f}) are not degrees: set `crs` to "
                "the CRS they are in (a state plane or UTM zone)",
                column="crs",
            )
    return gdf.set_crs(given, allow_override=True)


def _set_crs(
    gdf: gpd.GeoDataFrame, path: str | Path, crs: str | None, notes: list[str]
) -> gpd.GeoDataFrame:
    if gdf.crs is None:
        if crs is None:
            raise InputError(path, "no CRS: set `crs` in the config", column="crs")
        return _configured_crs(gdf, path, crs)
    bounds = tuple(float(v) for v in gdf.total_bounds) if gdf.crs.is_geographic else ()
    if bounds and not _can_be_degrees(*bounds):
        # coordinates that cannot be degrees: a GeoJSON without a "crs" member
        # is read as longitude/latitude (RFC 7946) whatever its numbers are
        x0, y0, x1, y1 = bounds
        if crs is None:
            raise InputError(
                path,
                f"the file's CRS is {gdf.crs.to_string()} (longitude/latitude), but its "
                f"coordinates ({x0:,.0f}..{x1:,.0f}, {y0:,.0f}..{y1:,.0f}) are not degrees: "
                "set `crs` in the config to the CRS they are in",
                column="crs",
            )
        notes.append(
            f"{Path(path).name}: coordinates are not degrees, so the file's CRS "
            f"({gdf.crs.to_string()}) cannot be right: the configured {crs} is used"
        )
        return _configured_crs(gdf, path, crs)
    if crs is not None:
        given = _parse_crs(crs, path)
        if not gdf.crs.equals(given, ignore_axis_order=True):
            notes.append(
                f"{Path(path).name}: the file's CRS ({gdf.crs.to_string()}) is used, "
                f"not the configured {crs}"
            )
    return gdf


def _can_be_degrees(x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether a layer's bounds can be longitudes/latitudes in degrees."""
    finite = all(np.isfinite(v) for v in (x0, y0, x1, y1))
    return not finite or (x0 >= -360.0 and x1 <= 360.0 and y0 >= -90.0 and y1 <= 90.0)


def _check_present(geoms: np.ndarray, path: str | Path, what: str) -> None:
    """Raise naming the first feature (from 1) whose geometry is missing or empty."""
    for bad, problem in (
        (shapely.is_missing(geoms), "missing"),
        (shapely.is_empty(geoms), "empty"),
    ):
        if bad.any():
            fid = int(np.flatnonzero(bad)[0]) + 1
            raise InputError(path, f"{what}: geometry is {problem}", feature=fid, column="geometry")


#: No coordinate of any CRS used here comes near this (in its units).
_FARTHEST = 1e9


def _repair_polygons(
    geoms: np.ndarray, path: str | Path, what: str, notes: list[str], *, boundary: bool = False
) -> np.ndarray:
    """Check and repair polygon geometries; raise on null/empty/non-polygonal.

    ``boundary`` (a territory, town, district or village layer): a hole ring
    lying outside its shell is refused, not repaired (the repair would make
    the land the ring excludes part of the boundary, the opposite of what it
    was drawn for), and every repair note gives the area before and after.
    """
    types = shapely.get_type_id(geoms)
    _check_present(geoms, path, what)
    # 3 Polygon, 6 MultiPolygon, 7 GeometryCollection (checked after repair)
    not_poly = ~np.isin(types, (3, 6, 7))
    if not_poly.any():
        i = int(np.flatnonzero(not_poly)[0])
        name = geoms[i].geom_type
        raise InputError(
            path,
            f"{what}: a {name} where a polygon is expected",
            feature=i + 1,
            column="geometry",
        )
    # a vertex without a usable coordinate (NaN, infinite, or absurdly far) is
    # no boundary a repair could keep: the polygon drawn is not known. Far ones
    # show in the boxes (which skip NaN); a NaN makes its polygon invalid, so
    # only the invalid ones are read vertex by vertex
    valid = shapely.is_valid(geoms)
    far = ~(np.abs(shapely.bounds(geoms)) < _FARTHEST).all(axis=1)
    suspects = np.flatnonzero(far | ~valid)
    if len(suspects):
        coords, at = shapely.get_coordinates(geoms[suspects], return_index=True)
        unusable = ~(np.abs(coords) < _FARTHEST).all(axis=1)  # NaN compares False
        if unusable.any():
            first = int(np.flatnonzero(unusable)[0])
            k = int(at[first])
            vertex = first - int(np.flatnonzero(at == k)[0]) + 1
            x, y = (float(v) for v in coords[first])
            raise InputError(
                path,
                f"{what}: vertex {vertex} has no usable coordinate ({x:g}, {y:g})",
                feature=int(suspects[k]) + 1,
                column="geometry",
            )
    out = geoms.copy()
    invalid = np.flatnonzero(~valid | (types == 7))
    if len(invalid):
        reasons = shapely.is_valid_reason(geoms[invalid])
        if boundary:
            outside = [k for k, r in enumerate(reasons) if str(r).startswith("Hole lies outside")]
            if outside:
                k = outside[0]
                raise InputError(
                    path,
                    f"{what}: a hole ring lies outside its polygon's shell ({reasons[k]}): "
                    "whether its land is in or out cannot be told; draw the hole inside its "
                    "shell, or the piece as a polygon of its own",
                    feature=int(invalid[k]) + 1,
                    column="geometry",
                )
        fixed = made_valid(geoms[invalid])
        for k, i in enumerate(invalid.tolist()):
            poly = _polygonal_part(fixed[k])
            if poly is None or poly.is_empty:
                raise InputError(
                    path,
                    f"{what}: no polygon left after repairing ({reasons[k]})",
                    feature=i + 1,
                    column="geometry",
                )
            out[i] = poly
            reason = str(reasons[k]).split("[")[0].strip().lower()
            done = "reduced to its polygons" if reason == "valid geometry" else "repaired"
            if reason == "valid geometry":
                reason = "geometry collection"
            area = ""
            if boundary:
                before, after = float(shapely.area(geoms[i])), float(shapely.area(poly))
                if not np.isclose(before, after, rtol=1e-9, atol=0.0):
                    area = (
                        f" (area {before:,.6g} before, {after:,.6g} after, in the layer's "
                        "units: check the boundary)"
                    )
            notes.append(f"{Path(path).name} feature {i + 1}: {reason} {done}{area}")
    return out


def _polygonal_part(geom: shapely.Geometry) -> shapely.Geometry | None:
    if geom is None:
        return None
    if isinstance(geom, (shapely.Polygon, shapely.MultiPolygon)):
        return geom
    if isinstance(geom, shapely.GeometryCollection):
        polys: list[shapely.Polygon] = []
        for part in geom.geoms:
            p = _polygonal_part(part)
            if isinstance(p, shapely.Polygon):
                polys.append(p)
            elif isinstance(p, shapely.MultiPolygon):
                polys.extend(p.geoms)
        if not polys:
            return None
        return polys[0] if len(polys) == 1 else shapely.MultiPolygon(polys)
    return None


def _to_working(gdf: gpd.GeoDataFrame, path: str | Path, working_crs: str) -> gpd.GeoDataFrame:
    target = _parse_crs(working_crs, path)
    try:
        return gdf.to_crs(target)
    except Exception as exc:  # pragma: no cover - pyproj failures are rare
        raise InputError(path, f"cannot reproject to {working_crs}: {exc}") from None


def _find_field(columns: list[str], candidates: tuple[str, ...]) -> str | None:
    lower = {c.lower(): c for c in columns}
    for cand in candidates:
        if cand in lower:
            return lower[cand]
    return None


def _as_text(values: pd.Series, path: str | Path, field: str, *, swis: bool) -> pd.Series:
    """Field values as stripped text; integers (e.g. SWIS stored as a number) kept exact."""
    if pd.api.types.is_float_dtype(values):
        bad = values.notna() & (values != np.floor(values))
        if bad.any():
            fid = int(np.flatnonzero(bad.to_numpy())[0]) + 1
            raise InputError(
                path, f"not a whole number: {values.iloc[fid - 1]}", feature=fid, column=field
            )
        out = values.map(lambda v: "" if pd.isna(v) else str(int(v)))
    elif pd.api.types.is_integer_dtype(values):
        out = values.astype("int64").astype("str")
    else:
        # str() of each value; None, NaN and NA are blank
        out = values.astype("str").fillna("")
    try:
        out = out.astype("str").str.strip()
    except pa.ArrowException:
        _raise_not_utf8(values.rename(field), path, "parcels")
        raise
    if swis:
        # a SWIS stored as a number loses its leading zero (e.g. 10100 for 010100),
        # and so does one saved as text by a spreadsheet that read it as a number
        short = out.str.fullmatch(r"\d{5}")
        out = out.where(~short, "0" + out)
    missing = out == ""
    if missing.any():
        fid = int(np.flatnonzero(missing.to_numpy())[0]) + 1
        raise InputError(path, "value is missing", feature=fid, column=field)
    return out


def read_parcels(
    path: str | Path, *, crs: str | None, working_crs: str
) -> tuple[gpd.GeoDataFrame, list[str]]:
    """Read a parcel polygon layer into the canonical parcel frame.

    Parameters
    ----------
    path
        GeoPackage, shapefile, GeoJSON or anything GDAL reads; GeoParquet by
        extension (``.parquet``).
    crs
        The CRS to assume when the file carries none. When the file has a CRS
        that differs, the file's is used and a note says so.
    working_crs
        The CRS of the returned geometries.

    Returns
    -------
    tuple[geopandas.GeoDataFrame, list[str]]
        The frame (columns :data:`pipeline.frames.PARCEL_COLUMNS`; ``swis``
        6 digits, ``print_key`` as written, ``source_row`` = feature number
        from 1) and the notes (geometry repairs, CRS choice).

    Raises
    ------
    InputError
        Missing/empty/unreadable file, no CRS, no SWIS or print-key field, a
        missing or unparseable key, a missing/empty or non-polygonal geometry.

    Notes
    -----
    Fields are found case-insensitively: ``SWIS`` and ``PRINT_KEY`` (or
    ``PRINTKEY``, ``PRINT_KEY_CODE``, ``SBL`` ...), or a combined field such
    as ``SWISPRINTK`` = ``"503689-13.-3-1"`` (6-digit SWIS, optional
    separator, print key). A 26-character SBL that starts with the parcel's
    SWIS code (county layers such as Tompkins') is read as that SWIS and the
    20-character SBL after it. Duplicate keys are kept (see
    :func:`pipeline.quality.data_quality`).
    """
    notes: list[str] = []
    gdf = _read_layer(path)
    cols = [str(c) for c in gdf.columns if c != gdf.geometry.name]
    swis_f = _find_field(cols, SWIS_FIELDS)
    pk_f = _find_field(cols, PRINT_KEY_FIELDS)
    if swis_f is not None and pk_f is not None:
        swis = _as_text(gdf[swis_f], path, swis_f, swis=True)
        pk = _as_text(gdf[pk_f], path, pk_f, swis=False)
        pk_field = pk_f
        swis_field = swis_f
    else:
        comb_f = _find_field(cols, COMBINED_FIELDS)
        if comb_f is None:
            missing = "PRINT_KEY" if swis_f is not None else "SWIS"
            raise InputError(
                path,
                "no SWIS and print-key fields (looked for SWIS + PRINT_KEY/PRINTKEY/SBL "
                f"or a combined SWISPRINTK); fields found: {', '.join(cols)}",
                column=missing,
            )
        comb = _as_text(gdf[comb_f], path, comb_f, swis=False)
        parts = comb.str.extract(_COMBINED.pattern)
        bad = parts[0].isna()
        if bad.any():
            fid = int(np.flatnonzero(bad.to_numpy())[0]) + 1
            raise InputError(
                path,
                f"cannot split {comb.iloc[fid - 1]!r} into a 6-digit SWIS and a print key",
                feature=fid,
                column=comb_f,
            )
        swis = parts[0].astype("str")
        pk = parts[1].astype("str")
        if swis_f is not None:
            swis = _as_text(gdf[swis_f], path, swis_f, swis=True)
        pk_field = swis_field = comb_f
        if swis_f is not None:
            swis_field = swis_f
    ok_swis = swis.str.fullmatch(r"\d{6}")
    if not ok_swis.all():
        fid = int(np.flatnonzero(~ok_swis.to_numpy())[0]) + 1
        raise InputError(
            path,
            f"SWIS code must be 6 digits, got {swis.iloc[fid - 1]!r}",
            feature=fid,
            column=swis_field,
        )
    # a county SBL field of 26 characters: the SWIS code then the 20-character
    # SBL ("50368901300000030010000000" = 503689 + 013.000-0003-001.000)
    prefixed = pk.str.fullmatch(r"\d{6}[0-9A-Za-z]{20}") & (pk.str.slice(0, 6) == swis)
    if prefixed.any():
        pk = pk.where(~prefixed, pk.str.slice(6))
    norm = normalize_print_keys(pk, errors="coerce")
    if norm.isna().any():
        fid = int(np.flatnonzero(norm.isna().to_numpy())[0]) + 1
        value = pk.iloc[fid - 1]
        try:
            normalize_print_key(value)
            problem = f"bad print key {value!r}"
        except ValueError as exc:
            problem = f"bad print key: {exc}"
        raise InputError(path, problem, feature=fid, column=pk_field)

    gdf = _set_crs(gdf, path, crs, notes)
    geoms = _repair_polygons(np.asarray(gdf.geometry.array), path, "parcel", notes)
    out = gpd.GeoDataFrame(
        {
            PARCEL_KEY: (swis + "|" + norm).astype("str"),
            "swis": swis.astype("str"),
            "print_key": pk.astype("str"),
            SOURCE_ROW: np.arange(1, len(gdf) + 1, dtype="int64"),
        },
        geometry=gpd.GeoSeries(geoms, crs=gdf.crs),
    )
    out = _to_working(out, path, working_crs)
    out = out.rename_geometry("geometry") if out.geometry.name != "geometry" else out
    return out.loc[:, list(PARCEL_COLUMNS)], notes


def read_boundary(
    path: str | Path, *, crs: str | None, working_crs: str, what: str
) -> tuple[gpd.GeoDataFrame, list[str]]:
    """Read a boundary layer (territory, town, district, village polygons).

    Parameters
    ----------
    path
        Any vector format GDAL reads, or GeoParquet.
    crs
        The CRS to assume when the file carries none (the file's wins otherwise,
        with a note).
    working_crs
        The CRS of the returned geometries.
    what
        What the layer is (``"territory"``, ``"town"``...), used in messages.

    Returns
    -------
    tuple[geopandas.GeoDataFrame, list[str]]
        The layer's attribute columns, ``source_row`` (feature number from 1)
        and ``geometry`` (polygons, repaired, in ``working_crs``), and the
        notes (repairs, CRS choice).

    Raises
    ------
    InputError
        Missing/empty file, no CRS, a missing/empty geometry, a line or point
        feature (names the feature), a geometry with nothing polygonal left.
    """
    notes: list[str] = []
    gdf = _read_layer(path)
    gdf = _set_crs(gdf, path, crs, notes)
    geoms = _repair_polygons(np.asarray(gdf.geometry.array), path, what, notes, boundary=True)
    attrs = pd.DataFrame(gdf.drop(columns=gdf.geometry.name))
    attrs[SOURCE_ROW] = np.arange(1, len(gdf) + 1, dtype="int64")
    out = gpd.GeoDataFrame(attrs, geometry=gpd.GeoSeries(geoms, crs=gdf.crs, index=attrs.index))
    out = _to_working(out, path, working_crs)
    if out.geometry.name != "geometry":
        out = out.rename_geometry("geometry")
    return out, notes


#: Field names (lower-cased) that hold a street's name, in order of preference.
STREET_NAME_FIELDS = ("name", "fullname", "street", "st_name", "label")
_LINE_TYPES = (1, 2, 5)  # LineString, LinearRing, MultiLineString


def _raise_not_utf8(values: pd.Series, path: str | Path, what: str) -> None:
    """Raise naming the first feature whose text is not valid UTF-8 (if any).

    GDAL hands a field's bytes over as text as they are: a Latin-1 ``ü`` in a
    file without an encoding declared is no UTF-8, and the column cannot be read.
    """
    raw = pa.chunked_array(pa.array(values.array)).cast(pa.binary()).to_pylist()
    for i, b in enumerate(raw):
        if b is None:
            continue
        try:
            b.decode("utf-8")
        except UnicodeDecodeError:
            shown = b.decode("utf-8", "replace")
            raise InputError(
                path,
                f"{what}: the text {shown!r} is not valid UTF-8; save the file with UTF-8 "
                "encoding (or declare its encoding, e.g. a .cpg file beside a shapefile)",
                feature=i + 1,
                column=str(values.name),
            ) from None


def read_lines(
    path: str | Path, *, crs: str | None, working_crs: str, what: str
) -> gpd.GeoDataFrame:
    """Read a line layer (street centrelines) with a name per feature.

    Parameters
    ----------
    path
        Any vector format GDAL reads, or GeoParquet.
    crs
        The CRS to assume when the file carries none (the file's wins otherwise).
    working_crs
        The CRS of the returned geometries.
    what
        What a feature is (``"street"``), used in messages.

    Returns
    -------
    geopandas.GeoDataFrame
        Columns ``name`` (stripped text; ``""`` when the feature has none),
        ``source_row`` (feature number from 1) and ``geometry`` (LineString or
        MultiLineString in ``working_crs``), one row per feature, in file order.

    Raises
    ------
    InputError
        Missing/empty/unreadable file, no CRS, no name field (looked for
        ``NAME``, ``FULLNAME``, ``STREET``, ``ST_NAME``, ``LABEL``,
        case-insensitively), a missing/empty geometry, a feature that is not a
        line (names the feature).
    """
    notes: list[str] = []
    gdf = _read_layer(path)
    cols = [str(c) for c in gdf.columns if c != gdf.geometry.name]
    field = _find_field(cols, STREET_NAME_FIELDS)
    if field is None:
        raise InputError(
            path,
            f"no {what} name field (looked for NAME, FULLNAME, STREET, ST_NAME, LABEL); "
            f"fields found: {', '.join(cols) or 'none'}",
            column="NAME",
        )
    gdf = _set_crs(gdf, path, crs, notes)
    geoms = np.asarray(gdf.geometry.array)
    _check_present(geoms, path, what)
    not_line = ~np.isin(shapely.get_type_id(geoms), _LINE_TYPES)
    if not_line.any():
        i = int(np.flatnonzero(not_line)[0])
        raise InputError(
            path,
            f"{what}: a {geoms[i].geom_type} where a line is expected "
            f"({int(not_line.sum())} such features)",
            feature=i + 1,
            column="geometry",
        )
    try:
        names = gdf[field].map(lambda v: "" if v is None or pd.isna(v) else str(v).strip())
    except pa.ArrowException:
        _raise_not_utf8(gdf[field], path, what)
        raise
    out = gpd.GeoDataFrame(
        {
            "name": names.astype("str").to_numpy(),
            SOURCE_ROW: np.arange(1, len(gdf) + 1, dtype="int64"),
        },
        geometry=gpd.GeoSeries(geoms, crs=gdf.crs),
    )
    out = _to_working(out, path, working_crs)
    if out.geometry.name != "geometry":
        out = out.rename_geometry("geometry")
    return out
