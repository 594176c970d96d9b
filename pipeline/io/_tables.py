"""Readers of the small CSV tables: rates, pages, signatures, inhabitants, overrides.

All are UTF-8 CSV files with a header row; column names are matched after
snake_case conversion (``"Rate Year"`` is ``rate_year``); extra columns are
ignored. Rows are numbered from 1 (the header is not a data row).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.errors import InputError
from pipeline.frames import (
    APPORTIONMENT_OVERRIDE_COLUMNS,
    INHABITANT_COLUMNS,
    MATCH_DECISION_COLUMNS,
    OWNERSHIP_OVERRIDE_COLUMNS,
    PAGE_COLUMNS,
    PARCEL_KEY,
    RATE_COLUMNS,
    SIGNATURE_COLUMNS,
    SOURCE_ROW,
)
from pipeline.io._common import (
    check_unique,
    finish,
    load_table,
    normalize_keys,
    rename_columns,
    require_columns,
    text,
    to_date,
    to_enum,
    to_float,
    to_int,
    to_money,
    to_swis,
)
from pipeline.people.owners import override_owner_names

_KEY_ALIASES = {
    "swis": "swis_code",
    "print_key": "print_key_code",
    "printkey": "print_key_code",
}


def _load(
    path: str | Path, required: tuple[str, ...], aliases: dict[str, str] | None = None
) -> pd.DataFrame:
    df = rename_columns(load_table(path), path, aliases=aliases)
    require_columns(df, path, required)
    return df


def _first_row(df: pd.DataFrame, mask: pd.Series) -> int:
    pos = int(np.flatnonzero(mask.to_numpy(dtype=bool))[0])
    return int(df[SOURCE_ROW].iloc[pos])


def _require_text(df: pd.DataFrame, path: str | Path, col: str) -> pd.Series:
    s = text(df, col)
    blank = s == ""
    if blank.any():
        raise InputError(path, "value is missing", row=_first_row(df, blank), column=col)
    return s


def _parcel_keys(df: pd.DataFrame, path: str | Path) -> tuple[pd.Series, pd.Series, pd.Series]:
    """(parcel_key, swis_code, print_key_code) of rows that all name a parcel."""
    swis = to_swis(df, path, "swis_code")
    pk = _require_text(df, path, "print_key_code")
    norm = normalize_keys(df, path, "print_key_code", pk)
    return (swis + "|" + norm).astype("str"), swis, pk


# --------------------------------------------------------------------- rates

_RATE_ALIASES = {
    "swis": "swis_code",
    "year": "rate_year",
    "roll_year": "rate_year",
    "rate": "equalization_rate",
    "equalization_rate_percent": "equalization_rate",
    "final_equalization_rate": "equalization_rate",
}


def read_rates(path: str | Path) -> pd.DataFrame:
    """Read equalization rates (ORPTS layout or the data.ny.gov export).

    Parameters
    ----------
    path
        CSV with ``swis_code``, ``rate_year``, ``equalization_rate`` (percent);
        Title Case headers and extra columns (type, county_name ...) are fine.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`pipeline.frames.RATE_COLUMNS`; a blank rate (not final)
        is NaN.

    Raises
    ------
    InputError
        Missing column, SWIS not 6 digits, a year that is not a whole number,
        a rate that is not a number or not in (0, 1000], two rates for the same
        SWIS and year.
    """
    df = _load(path, ("swis_code", "rate_year", "equalization_rate"), _RATE_ALIASES)
    out = pd.DataFrame(
        {
            "swis_code": to_swis(df, path, "swis_code"),
            "rate_year": to_int(df, path, "rate_year", minimum=1800),
            "equalization_rate": to_float(
                df, path, "equalization_rate", minimum=0.0, min_exclusive=True, maximum=1000.0
            ),
            SOURCE_ROW: df[SOURCE_ROW],
        },
        index=df.index,
    )
    check_unique(
        out,
        path,
        ["swis_code", "rate_year"],
        column="equalization_rate",
        label=lambda r: f"rate for SWIS {r['swis_code']} in {r['rate_year']}",
    )
    return finish(out, RATE_COLUMNS)


# ------------------------------------------------------- pages and signatures


def read_pages(path: str | Path, *, absent: list[str] | None = None) -> pd.DataFrame:
    """Read the signature pages (``pages.csv``).

    Parameters
    ----------
    path
        CSV with ``page``, ``basis`` (``owners``/``residents``),
        ``witness_name``, ``witness_address``, ``stated_signature_count``,
        ``sworn_on`` (date, may be blank).
    absent
        When given, the reader appends to it the contract's columns that the
        file does not have and that are read as blank (``sworn_on``), so that
        the caller can say which checks could not run.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`pipeline.frames.PAGE_COLUMNS`; ``sworn_on`` as ISO
        ``YYYY-MM-DD`` or ``""``.

    Raises
    ------
    InputError
        Missing column, bad page number or count, bad basis, bad date, a page
        number used twice.
    """
    df = _load(path, ("page", "basis", "witness_name", "witness_address", "stated_signature_count"))
    if absent is not None:
        absent.extend(c for c in ("sworn_on",) if c not in df.columns)
    out = pd.DataFrame(
        {
            "page": to_int(df, path, "page", minimum=1),
            "basis": to_enum(df, path, "basis", ("owners", "residents")),
            "witness_name": text(df, "witness_name"),
            "witness_address": text(df, "witness_address"),
            "stated_signature_count": to_int(df, path, "stated_signature_count", minimum=0),
            "sworn_on": to_date(df, path, "sworn_on"),
            SOURCE_ROW: df[SOURCE_ROW],
        },
        index=df.index,
    )
    check_unique(out, path, ["page"], column="page", label=lambda r: f"page {r['page']}")
    return finish(out, PAGE_COLUMNS)


def read_signatures(path: str | Path, *, absent: list[str] | None = None) -> pd.DataFrame:
    """Read the signature lines (``signatures.csv``).

    Parameters
    ----------
    path
        CSV with ``page``, ``line``, ``name``, ``address``, and optionally
        ``town``, ``signed_on`` (date), ``signing_for``,
        ``credited_assessed_value``.
    absent
        When given, the reader appends to it the contract's columns that the
        file does not have and that are read as blank (``town``,
        ``signed_on``), so that the caller can say which checks could not run.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`pipeline.frames.SIGNATURE_COLUMNS`.

    Raises
    ------
    InputError
        Missing column, bad page/line number, bad date or value, the same
        (page, line) twice.
    """
    df = _load(path, ("page", "line", "name", "address"))
    if absent is not None:
        absent.extend(c for c in ("town", "signed_on") if c not in df.columns)
    out = pd.DataFrame(
        {
            "page": to_int(df, path, "page", minimum=1),
            "line": to_int(df, path, "line", minimum=1),
            "name": text(df, "name"),
            "address": text(df, "address"),
            "town": text(df, "town"),
            "signed_on": to_date(df, path, "signed_on"),
            "signing_for": text(df, "signing_for"),
            "credited_assessed_value": to_money(df, path, "credited_assessed_value", minimum=0.0),
            SOURCE_ROW: df[SOURCE_ROW],
        },
        index=df.index,
    )
    check_unique(
        out,
        path,
        ["page", "line"],
        column="line",
        label=lambda r: f"signature line (page {r['page']}, line {r['line']})",
    )
    return finish(out, SIGNATURE_COLUMNS)


def check_signatures_against_pages(
    signatures: pd.DataFrame, pages: pd.DataFrame, *, file: str | Path
) -> None:
    """Every signature line must be on a page listed in the pages file.

    Parameters
    ----------
    signatures
        Frame from :func:`read_signatures`.
    pages
        Frame from :func:`read_pages`.
    file
        The signatures file (named in the error).

    Raises
    ------
    InputError
        At the first signature whose page is not in ``pages``.
    """
    missing = ~signatures["page"].isin(pages["page"])
    if missing.any():
        pos = int(np.flatnonzero(missing.to_numpy())[0])
        rec = signatures.iloc[pos]
        raise InputError(
            file,
            f"page {int(rec['page'])} is not in the pages file",
            row=int(rec[SOURCE_ROW]),
            column="page",
        )


# ------------------------------------------------------------------ people


def read_inhabitants(path: str | Path) -> pd.DataFrame:
    """Read the list of regular inhabitants (``name``, ``address``, ``town``).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`pipeline.frames.INHABITANT_COLUMNS`.

    Raises
    ------
    InputError
        Missing column or a blank name or address.
    """
    df = _load(path, ("name", "address", "town"))
    out = pd.DataFrame(
        {
            "name": _require_text(df, path, "name"),
            "address": _require_text(df, path, "address"),
            "town": text(df, "town"),
            SOURCE_ROW: df[SOURCE_ROW],
        },
        index=df.index,
    )
    return finish(out, INHABITANT_COLUMNS)


# --------------------------------------------------------------- overrides


def read_apportionment_overrides(path: str | Path) -> pd.DataFrame:
    """Read the assessor's apportionment overrides.

    Parameters
    ----------
    path
        CSV with ``swis_code``, ``print_key_code`` and exactly one of
        ``fraction_in_territory`` (0 to 1) or ``value_in_territory`` (>= 0) per
        row; ``note`` optional. One of the two value columns may be absent.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`pipeline.frames.APPORTIONMENT_OVERRIDE_COLUMNS`.

    Raises
    ------
    InputError
        Missing column, bad key or number, both or neither value given, a
        parcel listed twice.
    """
    df = _load(path, ("swis_code", "print_key_code"), _KEY_ALIASES)
    if "fraction_in_territory" not in df.columns and "value_in_territory" not in df.columns:
        raise InputError(
            path,
            "required column is missing: give fraction_in_territory or value_in_territory",
            column="fraction_in_territory",
        )
    key, swis, pk = _parcel_keys(df, path)
    frac = to_float(df, path, "fraction_in_territory", minimum=0.0, maximum=1.0)
    value = to_float(df, path, "value_in_territory", minimum=0.0)
    both = frac.notna() & value.notna()
    if both.any():
        raise InputError(
            path,
            "give fraction_in_territory or value_in_territory, not both",
            row=_first_row(df, both),
            column="value_in_territory",
        )
    neither = frac.isna() & value.isna()
    if neither.any():
        raise InputError(
            path,
            "give fraction_in_territory or value_in_territory",
            row=_first_row(df, neither),
            column="fraction_in_territory",
        )
    out = pd.DataFrame(
        {
            PARCEL_KEY: key,
            "swis_code": swis,
            "print_key_code": pk,
            "fraction_in_territory": frac,
            "value_in_territory": value,
            "note": text(df, "note"),
            SOURCE_ROW: df[SOURCE_ROW],
        },
        index=df.index,
    )
    check_unique(
        out,
        path,
        [PARCEL_KEY],
        column="print_key_code",
        label=lambda r: f"parcel {r['swis_code']}:{r['print_key_code']}",
    )
    return finish(out, APPORTIONMENT_OVERRIDE_COLUMNS)


#: Words that join owners' names, not names (an override name of these only names no one).
_JOINING = re.compile(r"(?i)&|\b(?:and|et\s*al|etal)\b")
_NAME_WORD = re.compile(r"[^\W\d_]")


def read_ownership_overrides(path: str | Path) -> pd.DataFrame:
    """Read ownership overrides (number and names of owners per parcel).

    Parameters
    ----------
    path
        CSV with ``swis_code``, ``print_key_code``, ``owner_count`` (>= 1;
        blank where ``owners`` names them all: the number of owners they
        name, ``John & Mary Lee`` two), ``owners``
        (names separated by ``;``, optional) and ``note``.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`pipeline.frames.OWNERSHIP_OVERRIDE_COLUMNS`; ``owners``
        holds a tuple of stripped, non-empty names.

    Raises
    ------
    InputError
        Missing column, bad key, an owner count below 1 or not a whole number,
        more owners named than ``owner_count`` (counted as
        :func:`~pipeline.people.owners.parse_owners` reads them: ``John & Mary
        Lee`` is two), a name of no owner, ``ET AL`` without a count, a
        parcel listed twice.
    """
    df = _load(path, ("swis_code", "print_key_code", "owner_count"), _KEY_ALIASES)
    key, swis, pk = _parcel_keys(df, path)
    owners = [tuple(n.strip() for n in str(v).split(";") if n.strip()) for v in text(df, "owners")]
    # a name of joining words only ("&", "AND", "ETAL"): a key-entry leftover, no owner
    no_name = pd.Series(
        [any(not _NAME_WORD.search(_JOINING.sub(" ", n)) for n in o) for o in owners],
        index=df.index,
    )
    if no_name.any():
        row = _first_row(df, no_name)
        names = owners[int(np.flatnonzero(no_name.to_numpy())[0])]
        raise InputError(
            path,
            f"owners {';'.join(names)!r} holds a name that names no one (no letter, or only "
            "'&', 'AND' or 'ETAL'): write each owner's name, separated by ';'",
            row=row,
            column="owners",
        )
    # the owners the names give, read as parse_owners reads them: one name may
    # give several ("John & Mary Lee" is two owners of the divisor), a care-of
    # name none
    read = [[o for o in override_owner_names(names) if o.is_owner] for names in owners]
    named = pd.Series([len(r) for r in read], index=df.index, dtype="int64")
    given = text(df, "owner_count") != ""

    def first(mask: pd.Series) -> int:
        return int(np.flatnonzero(mask.to_numpy())[0])

    nobody = pd.Series([len(o) > 0 for o in owners], index=df.index) & (named == 0)
    if nobody.any():
        raise InputError(
            path,
            f"owners {';'.join(owners[first(nobody)])!r} names no owner (a care-of name only): "
            "write each owner's name, separated by ';'",
            row=_first_row(df, nobody),
            column="owners",
        )
    etal = ~given & pd.Series([any(o.etal for o in r) for r in read], index=df.index)
    if etal.any():
        raise InputError(
            path,
            f"owners {';'.join(owners[first(etal)])!r} says ET AL (more owners than it names): "
            "give owner_count, the number of owners",
            row=_first_row(df, etal),
            column="owner_count",
        )
    # a blank owner_count where the owners are named is their number
    blank = ~given & (named > 0)
    count = to_int(
        df.assign(owner_count=text(df, "owner_count").where(~blank, "1")),
        path,
        "owner_count",
        minimum=1,
    )
    count = count.where(~blank.to_numpy(), named)
    too_many = named > count
    if too_many.any():
        i = first(too_many)
        raise InputError(
            path,
            f"owners {';'.join(owners[i])!r} names {named.iloc[i]} owners "
            f"({'; '.join(o.name for o in read[i])}), more than owner_count {count.iloc[i]}: "
            "the parcel is divided by the number of owners (§ 2-202.1.a(2))",
            row=_first_row(df, too_many),
            column="owners",
        )
    out = pd.DataFrame(
        {
            PARCEL_KEY: key,
            "swis_code": swis,
            "print_key_code": pk,
            "owner_count": count,
            "owners": pd.Series(owners, index=df.index, dtype=object),
            "note": text(df, "note"),
            SOURCE_ROW: df[SOURCE_ROW],
        },
        index=df.index,
    )
    check_unique(
        out,
        path,
        [PARCEL_KEY],
        column="print_key_code",
        label=lambda r: f"parcel {r['swis_code']}:{r['print_key_code']}",
    )
    return finish(out, OWNERSHIP_OVERRIDE_COLUMNS)


def read_match_decisions(path: str | Path) -> pd.DataFrame:
    """Read the reviewer's match decisions.

    Parameters
    ----------
    path
        CSV with ``page``, ``line``, ``decision`` (``accept``/``reject``), and
        for an accept either ``swis_code`` + ``print_key_code`` (an owner
        match) or ``SBOEID`` (a voter match); ``note`` optional. A reject may
        name the candidate it rejects, or nothing (reject the line's match).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`pipeline.frames.MATCH_DECISION_COLUMNS`; ``parcel_key``
        is ``""`` unless a parcel is named.

    Raises
    ------
    InputError
        Missing column, bad page/line/decision, a SWIS without a print key (or
        the reverse), an accept naming neither or both a parcel and a voter,
        the same (page, line, candidate) twice.
    """
    df = _load(path, ("page", "line", "decision"), {**_KEY_ALIASES, "sboeid": "SBOEID"})
    page = to_int(df, path, "page", minimum=1)
    line = to_int(df, path, "line", minimum=1)
    decision = to_enum(df, path, "decision", ("accept", "reject"))
    swis = text(df, "swis_code")
    pk = text(df, "print_key_code")
    sboeid = text(df, "SBOEID")
    has_swis, has_pk, has_voter = swis != "", pk != "", sboeid != ""
    if (has_swis & ~has_pk).any():
        raise InputError(
            path,
            "swis_code without print_key_code",
            row=_first_row(df, has_swis & ~has_pk),
            column="print_key_code",
        )
    if (has_pk & ~has_swis).any():
        raise InputError(
            path,
            "print_key_code without swis_code",
            row=_first_row(df, has_pk & ~has_swis),
            column="swis_code",
        )
    accept = decision == "accept"
    neither = accept & ~has_pk & ~has_voter
    if neither.any():
        raise InputError(
            path,
            "an accept must name a parcel (swis_code + print_key_code) or a voter (SBOEID)",
            row=_first_row(df, neither),
            column="decision",
        )
    both = has_pk & has_voter
    if both.any():
        raise InputError(
            path, "name a parcel or a voter, not both", row=_first_row(df, both), column="SBOEID"
        )
    key = pd.Series("", index=df.index, dtype="str")
    if has_pk.any():
        sub = df.loc[has_pk.to_numpy()]
        sub_swis = to_swis(sub, path, "swis_code")
        sub_norm = normalize_keys(sub, path, "print_key_code", text(sub, "print_key_code"))
        key.loc[has_pk.to_numpy()] = (sub_swis + "|" + sub_norm).astype("str")
    out = pd.DataFrame(
        {
            "page": page,
            "line": line,
            "decision": decision,
            PARCEL_KEY: key,
            "swis_code": swis,
            "print_key_code": pk,
            "SBOEID": sboeid,
            "note": text(df, "note"),
            SOURCE_ROW: df[SOURCE_ROW],
        },
        index=df.index,
    )
    check_unique(
        out,
        path,
        ["page", "line", PARCEL_KEY, "SBOEID"],
        column="decision",
        label=lambda r: f"decision for page {r['page']} line {r['line']}",
    )
    return finish(out, MATCH_DECISION_COLUMNS)
