"""Reader of ORPTS assessment rolls (CSV with snake_case or Title Case headers, or JSON)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pipeline.errors import InputError
from pipeline.frames import PARCEL_KEY, ROLL_COLUMNS, ROLL_MONEY, SOURCE_ROW
from pipeline.io._common import (
    check_unique,
    csv_text_frame,
    finish,
    json_text_frame,
    normalize_keys,
    read_bytes,
    rename_columns,
    require_columns,
    require_rows,
    text,
    to_float,
    to_int,
    to_swis,
)

#: Irregular header names (after snake_case) -> the ORPTS field name.
ROLL_ALIASES: dict[str, str] = {
    "swis": "swis_code",
    "swis_cd": "swis_code",
    "print_key": "print_key_code",
    "printkey": "print_key_code",
    "municipality": "municipality_code",
    "muni_code": "municipality_code",
    "roll_sect": "roll_section",
    "property_class_code": "property_class",
    "prop_class": "property_class",
    "parcel_address_suffix": "parcel_address_suff",
    "mailing_address_suffix": "mailing_address_suff",
    "mailing_address_zip_code": "mailing_address_zip",
    "primary_owner_first": "primary_owner_first_name",
    "primary_owner_middle_initial": "primary_owner_mi",
    "primary_owner_last": "primary_owner_last_name",
    "assessment_land_value": "assessment_land",
    "land_assessment": "assessment_land",
    "assessment_total_value": "assessment_total",
    "total_assessment": "assessment_total",
    "full_market": "full_market_value",
    "town_taxable": "town_taxable_value",
}
for _n in (1, 2, 3):
    ROLL_ALIASES[f"additional_owner_{_n}_first_name"] = f"additional_owner_{_n}_first"
    ROLL_ALIASES[f"additional_owner_{_n}_middle_initial"] = f"additional_owner_{_n}_mi"
    ROLL_ALIASES[f"additional_owner_{_n}_last"] = f"additional_owner_{_n}_last_name"

ROLL_REQUIRED = ("swis_code", "print_key_code", "assessment_total")


def read_roll(path: str | Path, *, town_swis: str, absent: list[str] | None = None) -> pd.DataFrame:
    """Read one town's assessment roll into the canonical roll frame.

    Parameters
    ----------
    path
        CSV (snake_case ORPTS field names or the Title Case headers of the
        data.ny.gov export) or JSON (a list of rows, values as strings, absent
        fields omitted). CSV must be UTF-8.
    town_swis
        The town's 6-digit code: the default ``municipality_code``.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`pipeline.frames.ROLL_COLUMNS`; ``source_row`` is the
        data row counted from 1 (the position in the JSON list).

    Raises
    ------
    InputError
        Missing or empty file, no record, a required column missing
        (``swis_code``, ``print_key_code``, ``assessment_total``), a SWIS code
        that is not 6 digits, an unparseable print key, a bad number, or the
        same parcel (SWIS + normalised print key) twice in one roll year.

    Notes
    -----
    Numbers are strict: digits with an optional ``-`` and decimal point; a
    blank is NaN, in ``assessment_total`` too: a blank value is bad input only
    where it is used, for a record in the territory under the policy's value
    basis (:func:`pipeline.valuation.apportion_values`). ``roll_year`` and
    ``roll_section`` are 0 when absent. Records of another municipality are
    kept; the caller decides.
    """
    data = read_bytes(path)
    if str(path).lower().endswith(".json"):
        raw = json_text_frame(data, path)
    else:
        raw = csv_text_frame(data, path)
    return roll_from_text_frame(raw, path, town_swis=town_swis, absent=absent)


#: The columns that name a record's owners (the slots' names, or a county
#: layer's free text): a roll with none of them names no owner at all.
_OWNER_NAME_COLUMNS = (
    "primary_owner_first_name",
    "primary_owner_last_name",
    *(f"additional_owner_{i}_{p}" for i in (1, 2, 3) for p in ("first", "last_name")),
    "owner_text",
)

#: What ``absent`` holds for a roll without any owner name column.
OWNER_NAMES = "owner names"


def roll_from_text_frame(
    raw: pd.DataFrame, path: str | Path, *, town_swis: str, absent: list[str] | None = None
) -> pd.DataFrame:
    """Validate and convert a text frame of roll rows (see :func:`read_roll`).

    ``absent``, when given, receives the value columns (:data:`ROLL_MONEY`)
    the file does not have (their values read as blank), and
    :data:`OWNER_NAMES` when it has no column naming owners.
    """
    df = rename_columns(raw, path, aliases=ROLL_ALIASES)
    require_rows(df, path, "roll record")
    require_columns(df, path, ROLL_REQUIRED)
    if absent is not None:
        absent.extend(c for c in ROLL_MONEY if c not in df.columns)
        if not any(c in df.columns for c in _OWNER_NAME_COLUMNS):
            absent.append(OWNER_NAMES)
    if len(town_swis) != 6 or not (town_swis.isascii() and town_swis.isdigit()):
        raise InputError(path, f"town SWIS {town_swis!r} is not 6 digits", column="swis")

    out: dict[str, pd.Series] = {}
    swis = to_swis(df, path, "swis_code")
    pk = text(df, "print_key_code")
    blank_pk = pk == ""
    if blank_pk.any():
        pos = int(blank_pk.to_numpy().nonzero()[0][0])
        raise InputError(
            path,
            "print key is missing",
            row=int(df[SOURCE_ROW].iloc[pos]),
            column="print_key_code",
        )
    norm = normalize_keys(df, path, "print_key_code", pk)
    out[PARCEL_KEY] = (swis + "|" + norm).astype("str")
    out["swis_code"] = swis
    out["print_key_code"] = pk
    out["municipality_code"] = to_swis(df, path, "municipality_code", default=town_swis)
    out["roll_year"] = to_int(df, path, "roll_year", default=0)
    out["roll_section"] = to_int(df, path, "roll_section", default=0)
    for col in ROLL_COLUMNS:
        if col in out or col == SOURCE_ROW:
            continue
        if col in ROLL_MONEY:
            # values of a roll are never negative
            out[col] = to_float(df, path, col, blank_ok=True, minimum=0.0)
        else:
            out[col] = text(df, col)
    out[SOURCE_ROW] = df[SOURCE_ROW].astype("int64")
    frame = pd.DataFrame(out, index=df.index)
    # a roll export may hold several roll years (data.ny.gov's has a Roll Year
    # column): a parcel appears once per year; the year used is chosen later
    years = frame["roll_year"].nunique() > 1
    check_unique(
        frame,
        path,
        [PARCEL_KEY, "roll_year"] if years else [PARCEL_KEY],
        column="print_key_code",
        label=lambda r: (
            f"parcel {r['swis_code']} {r['print_key_code']} ({r[PARCEL_KEY]})"
            + (f" in roll year {r['roll_year']}" if years else "")
        ),
    )
    return finish(frame, ROLL_COLUMNS)
