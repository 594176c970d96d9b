"""Readers for runs over time: results folders, rolls of several years, boundary alternatives.

* :func:`read_results` reads a results folder (``summary.json``,
  ``parcels.csv``, ``signatures.csv``, ``manifest.json``) into a
  :class:`pipeline.diff.ResultSet` for :func:`pipeline.diff.diff_results`.
* :func:`roll_years` and :func:`roll_files_for_year` pick a town's roll when
  its config key ``roll`` names a folder holding one roll per year: files named
  ``roll-<year>.csv`` (or ``.json``), or any CSV/JSON roll whose
  ``roll_year`` column says the year.
* :func:`read_alternatives` reads boundary alternatives for ``petition batch``:
  a folder of territory files (one alternative per file, named by the file
  stem) or one layer of several features (one alternative per feature, named
  by a field).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pandas as pd
from shapely.geometry.base import BaseGeometry

from pipeline.diff import ResultSet
from pipeline.errors import InputError
from pipeline.geometry import union_territory
from pipeline.io._vector import read_boundary
from pipeline.io.results import FORMULA_PREFIXES

__all__ = [
    "ROLL_SUFFIXES",
    "VECTOR_SUFFIXES",
    "read_alternatives",
    "read_manifest",
    "read_results",
    "roll_files_for_year",
    "roll_years",
]

#: File endings of rolls inside a roll folder.
ROLL_SUFFIXES = (".csv", ".json")
#: File endings of boundary files inside an alternatives folder.
VECTOR_SUFFIXES = (".geojson", ".json", ".gpkg", ".shp", ".fgb", ".parquet", ".kml", ".gml")

#: A year in a file's name, not part of a longer number (two years, as in
#: ``roll-2022-2023``, name no one year: both are found)
_YEAR_NAME = re.compile(r"(?<![0-9])((?:19|20)\d{2})(?![0-9])")
_TEXT_COLUMNS = ("swis_code", "print_key_code", "town_swis", "owners", "signing_owners")


# --------------------------------------------------------------------------- results folders


def _uninert(value: Any) -> Any:
    """Undo :func:`pipeline.io.results.inert_text` (``'=x`` → ``=x``)."""
    if isinstance(value, str) and value[:1] == "'" and value[1:].startswith(FORMULA_PREFIXES):
        return value[1:]
    return value


def _read_json(path: Path) -> Any:
    if not path.is_file():
        raise InputError(path, "file not found (is this a results folder of `petition run`?)")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(path, f"not valid JSON: {exc}") from None


def _read_schedule(path: Path, *, required: tuple[str, ...]) -> pd.DataFrame:
    if not path.is_file():
        raise InputError(path, "file not found (is this a results folder of `petition run`?)")
    text_cols = {c: "str" for c in (*_TEXT_COLUMNS, "name", "matched_to", "status", "basis")}
    try:
        frame = pd.read_csv(path, dtype=text_cols, keep_default_na=False, na_values=[""])
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(path, f"not a readable CSV: {exc}") from None
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise InputError(path, f"column(s) {', '.join(missing)} missing", column=missing[0])
    for col in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[col]) and not pd.api.types.is_bool_dtype(
            frame[col]
        ):
            frame[col] = frame[col].map(_uninert)
    return frame


def read_manifest(folder: str | Path) -> dict[str, Any]:
    """``manifest.json`` of a results folder.

    Raises
    ------
    InputError
        The file is missing or not a JSON object with ``inputs``.
    """
    path = Path(folder) / "manifest.json"
    data = _read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("inputs"), dict):
        raise InputError(path, "not a manifest of `petition run` (no `inputs` object)")
    _check_manifest(data, path)
    return data


def _check_manifest(data: dict[str, Any], path: Path) -> None:
    """The manifest's parts that ``verify`` reads have the types a run writes.

    Raises
    ------
    InputError
        Naming the key (``inputs.<key>.path``, ``outputs``, ``options.roll_year``...)
        and what it should be: a manifest edited by hand is bad input, not a crash.
    """

    def bad(key: str, what: str) -> InputError:
        return InputError(path, f"should be {what}", column=key)

    def file_entry(entry: Any, key: str) -> None:
        if not isinstance(entry, dict):
            raise bad(key, "an object with `path` and `sha256`")
        if not isinstance(entry.get("path"), str):
            raise bad(f"{key}.path", "a file path (text)")
        if not isinstance(entry.get("sha256"), str):
            raise bad(f"{key}.sha256", "a SHA-256 digest (text)")
        for i, part in enumerate(entry.get("sidecars") or []):
            file_entry(part, f"{key}.sidecars[{i}]")

    for key, entry in data["inputs"].items():
        where = f"inputs.{key}"
        if not isinstance(entry, dict):
            raise bad(where, "an object")
        if "used" in entry:
            if not isinstance(entry["used"], list):
                raise bad(f"{where}.used", "a list of files")
            for i, used in enumerate(entry["used"]):
                file_entry(used, f"{where}.used[{i}]")
        else:
            file_entry(entry, where)
        offered = entry.get("offered")
        if offered is not None:
            if not isinstance(offered, list):
                raise bad(f"{where}.offered", "a list of files")
            for i, other in enumerate(offered):
                file_entry(other, f"{where}.offered[{i}]")
    outputs = data.get("outputs", {})
    if not isinstance(outputs, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in outputs.items()
    ):
        raise bad("outputs", "an object of file names and SHA-256 digests")
    options = data.get("options")
    if options is not None:
        if not isinstance(options, dict):
            raise bad("options", "an object")
        year = options.get("roll_year")
        if year is not None and (isinstance(year, bool) or not isinstance(year, int)):
            raise bad("options.roll_year", "a year (a whole number) or null")
    for key in ("config_file",):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise bad(key, "a file path (text)")


def read_results(folder: str | Path, *, name: str | None = None) -> ResultSet:
    """Read a results folder of ``petition run``.

    Parameters
    ----------
    folder
        The folder holding ``summary.json``, ``parcels.csv`` and
        ``signatures.csv`` (``manifest.json`` is read when present).
    name
        Label of the run in reports (default: the folder's name).

    Raises
    ------
    InputError
        The folder or one of the three files is missing or unreadable, or a
        schedule lacks a key column.
    """
    root = Path(folder)
    if not root.is_dir():
        raise InputError(root, "results folder not found")
    summary = _read_json(root / "summary.json")
    if not isinstance(summary, dict) or "owner_test" not in summary:
        raise InputError(root / "summary.json", "not a summary of `petition run`")
    from pipeline.scenario import metrics  # what a diff reads of it: a hand edit is bad input

    try:
        metrics(summary)
    except (KeyError, TypeError, AttributeError) as exc:
        raise InputError(
            root / "summary.json",
            f"not a summary of `petition run` (edited?): {type(exc).__name__} {exc}",
        ) from None
    parcels = _read_schedule(
        root / "parcels.csv", required=("swis_code", "print_key_code", "owners", "assessed_value")
    )
    signatures = _read_schedule(
        root / "signatures.csv", required=("page", "line", "name", "status", "matched_to")
    )
    manifest = read_manifest(root) if (root / "manifest.json").is_file() else None
    return ResultSet(
        name=name or root.resolve().name,
        summary=summary,
        parcels=parcels,
        signatures=signatures,
        manifest=manifest,
    )


# --------------------------------------------------------------------------- roll folders


def _year_of_name(path: Path) -> int | None:
    found = _YEAR_NAME.findall(path.stem)
    return int(found[-1]) if len(found) == 1 else None


def _years_in_file(path: Path) -> set[int]:
    """The ``roll_year`` values of a roll file (its header read, one column parsed)."""
    try:
        if path.suffix.lower() == ".json":
            rows = json.loads(path.read_text(encoding="utf-8"))
            frame = pd.DataFrame(rows if isinstance(rows, list) else [])
        else:
            header = pd.read_csv(path, nrows=0, encoding="utf-8").columns
            wanted = [c for c in header if re.sub(r"[^a-z]", "", c.lower()) == "rollyear"]
            frame = pd.read_csv(path, usecols=wanted, dtype="str", encoding="utf-8")
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as exc:
        raise InputError(path, f"not a readable roll: {exc}") from None
    cols = [c for c in frame.columns if re.sub(r"[^a-z]", "", str(c).lower()) == "rollyear"]
    if not cols:
        return set()
    values = pd.to_numeric(frame[cols[0]], errors="coerce").dropna()
    return {int(v) for v in values.unique() if int(v) != 0}


def roll_file_years(path: Path) -> set[int]:
    """The roll years a roll file offers: the year of its name, else its ``roll_year`` column.

    Raises
    ------
    InputError
        A file named for one year (``roll-2023.csv``) whose ``roll_year``
        column holds another year: which roll it is cannot be told (used or
        not, it would offer one year's roll under another's name).
    """
    named = _year_of_name(path)
    inside = _years_in_file(path)
    if named is None:
        return inside
    others = sorted(inside - {named})
    if others:
        held = ", ".join(str(y) for y in others)
        what = (
            f"also holds records of roll year(s) {held}"
            if named in inside
            else f"its records are of roll year(s) {held}"
        )
        raise InputError(
            path,
            f"the file is named for roll year {named} but {what}: rename it, or correct its "
            "roll_year column (one file, one year)",
            column="roll_year",
        )
    return {named}


def roll_years(folder: str | Path) -> dict[int, list[Path]]:
    """The rolls of a roll folder by year.

    Parameters
    ----------
    folder
        A folder of roll files (CSV or JSON). A file named with one year
        (``roll-2023.csv``, ``2023.csv``) holds that year; any other file is
        assigned the years its ``roll_year`` column holds.

    Returns
    -------
    dict[int, list[pathlib.Path]]
        Year → the files holding it, in name order.

    Raises
    ------
    InputError
        The folder holds no roll file, or a roll file whose year can be told
        neither from its name nor from a ``roll_year`` column.
    """
    root = Path(folder)
    files = sorted(
        p
        for p in root.iterdir()
        if p.is_file() and p.suffix.lower() in ROLL_SUFFIXES and not p.name.startswith(".")
    )
    if not files:
        raise InputError(root, "the roll folder holds no roll file (.csv or .json)")
    out: dict[int, list[Path]] = {}
    for f in files:
        years = roll_file_years(f)
        if not years:
            raise InputError(
                f,
                "the roll year can be told neither from the file name (roll-<year>.csv) "
                "nor from a roll_year column",
                column="roll_year",
            )
        for y in years:
            out.setdefault(y, []).append(f)
    return dict(sorted(out.items()))


def roll_files_for_year(folder: str | Path, roll_year: int, *, why: str = "") -> list[Path]:
    """The roll file(s) of ``roll_year`` in a roll folder.

    Parameters
    ----------
    folder
        See :func:`roll_years`.
    roll_year
        The roll year wanted.
    why
        How the year was chosen, for the message (e.g. ``"the last completed
        roll as of 2023-06-01"``).

    Raises
    ------
    InputError
        No file of that year, naming the years the folder holds.
    """
    years = roll_years(folder)
    if roll_year not in years:
        because = f", {why}" if why else ""
        raise InputError(
            folder,
            f"the roll folder holds years {sorted(years)} but not {roll_year}{because}",
            column="roll_year",
        )
    return years[roll_year]


# --------------------------------------------------------------------------- alternatives


def read_alternatives(
    path: str | Path,
    *,
    crs: str | None,
    working_crs: str,
    name_field: str | None = None,
) -> list[tuple[str, BaseGeometry, list[str]]]:
    """Boundary alternatives: ``(name, territory, notes)`` each, in the working CRS.

    Parameters
    ----------
    path
        A folder of boundary files (one alternative per file, named by its
        stem; the features of a file are unioned), or one layer with several
        features (one alternative per feature).
    crs
        CRS assumed when a file carries none (the config's ``territory.crs``).
    working_crs
        CRS of the returned geometries.
    name_field
        Field naming the features of a layer (default: ``name`` when present,
        else ``feature <n>``).

    Raises
    ------
    InputError
        No boundary file in the folder, an unknown ``name_field``, two
        alternatives with the same name, or a bad boundary (see
        :func:`pipeline.io.read_boundary`).
    """
    root = Path(path)
    out: list[tuple[str, BaseGeometry, list[str]]] = []
    if root.is_dir():
        files = sorted(
            p
            for p in root.iterdir()
            if p.suffix.lower() in VECTOR_SUFFIXES and not p.name.startswith(".")
        )
        if not files:
            raise InputError(root, f"no boundary file ({', '.join(VECTOR_SUFFIXES)}) in the folder")
        for f in files:
            layer, notes = read_boundary(f, crs=crs, working_crs=working_crs, what="alternative")
            try:
                # features named as the file counts them, from 1 (as the run)
                features = layer.geometry.set_axis(range(1, len(layer) + 1))
                geom, more = union_territory(features)
            except ValueError as exc:
                raise InputError(f, str(exc)) from None
            out.append((f.stem, geom, notes + more))
        return out
    layer, notes = read_boundary(root, crs=crs, working_crs=working_crs, what="alternative")
    field = name_field
    if field is not None and field not in layer.columns:
        raise InputError(root, f"no field '{field}' to name the alternatives", column=field)
    if field is None and "name" in layer.columns:
        field = "name"
    seen: set[str] = set()
    for i in range(len(layer)):
        row = layer.iloc[[i]]
        label = f"feature {i + 1}"
        if field is not None:
            value = row[field].iloc[0]
            if value is None or pd.isna(value) or not str(value).strip():
                raise InputError(
                    root,
                    f"an alternative without a name in '{field}': name every feature (or "
                    "none, and they are named 'feature 1', 'feature 2', ...)",
                    feature=i + 1,
                    column=field,
                )
            label = str(value).strip()
        if label in seen:
            raise InputError(
                root, f"two alternatives are named '{label}'", feature=i + 1, column=field
            )
        seen.add(label)
        try:
            geom, more = union_territory(row.geometry.set_axis([i + 1]))
        except ValueError as exc:
            raise InputError(root, str(exc), feature=i + 1) from None
        # the layer's repair notes name their feature ("… feature 2: …"): each
        # goes to its alternative; a note naming no feature goes to the first
        mine = [
            n
            for n in notes
            if f"feature {i + 1}:" in n or (i == 0 and not re.search(r"feature \d+:", n))
        ]
        out.append((label, geom, mine + more))
    return out
