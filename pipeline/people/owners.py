"""Owners parsed from the assessment roll (§ 2-202.1.a(2): co-owners and entities).

The ORPTS roll carries up to four owners per record: the primary owner and
``additional_owner_1..3``, each as first name, middle initial, last name and
suffix. An entity (LLC, corporation, trust, estate, municipality, church...)
is written in the last-name field only. An ownership override (the assessor's
word, :data:`pipeline.frames.OWNERSHIP_OVERRIDE_COLUMNS`) replaces the roll's
owners of its parcel.

The result is the *owners frame*, one row per (parcel, owner):

=============  ==============================================================
parcel_key     canonical parcel key
owner_index    0, 1, ... in the roll's order (primary first)
name           display name, e.g. ``"JOHN A SMITH"``, ``"EXAMPLE HOLDINGS LLC"``
kind           ``"person"`` or ``"entity"``
first, middle, last, suffix   the parts (upper case; entity: ``last`` only)
norm_name      :func:`pipeline.people.names.normalize_name` of ``name``
owner_count    number of owners of the parcel (the divisor of § 2-202.1.a(2))
owner_source   ``"roll"`` or ``"override"``
=============  ==============================================================
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from pipeline.frames import PARCEL_KEY
from pipeline.people.names import NAME_SUFFIXES, normalize_names

__all__ = [
    "ENTITY_PATTERN",
    "ENTITY_REGEX",
    "OWNER_COLUMNS",
    "is_entity_name",
    "owner_counts",
    "parse_owners",
]

OWNER_COLUMNS: tuple[str, ...] = (
    PARCEL_KEY,
    "owner_index",
    "name",
    "kind",
    "first",
    "middle",
    "last",
    "suffix",
    "norm_name",
    "owner_count",
    "owner_source",
)

_ENTITY_WORDS = (
    # business forms
    r"L\.? ?L\.? ?C\.?|INC|INCORPORATED|CORP|CORPORATION|CO|COMPANY|LTD|LIMITED|LP|LLP|PLLC|PC"
    r"|HOLDINGS?|PROPERTIES|PROPERTY|REALTY|ENTERPRISES?|PARTNERS|PARTNERSHIP|ASSOCIATES"
    r"|DEVELOPMENT|DEVELOPERS|INVESTMENTS?|VENTURES?|GROUP|FUND|MANAGEMENT|MGMT"
    # trusts and estates
    r"|TRUST|TRUSTS|TRUSTEES?|TRST|ESTATE|EST|REVOCABLE|IRREVOCABLE|LIVING TRUST"
    # public bodies
    r"|TOWN OF|VILLAGE OF|CITY OF|COUNTY OF|STATE OF|PEOPLE OF|UNITED STATES|USA|NYS"
    r"|DISTRICT|DIST|AUTHORITY|COMMISSION|DEPT|DEPARTMENT|BOARD OF"
    # institutions
    r"|CHURCH|PARISH|DIOCESE|SYNAGOGUE|CONGREGATION|TEMPLE|MINISTRIES|CEMETERY"
    r"|SCHOOL|ACADEMY|COLLEGE|UNIVERSITY|HOSPITAL|LIBRARY|MUSEUM|FOUNDATION|SOCIETY"
    r"|ASSOC|ASSOCIATION|ASSN|CLUB|LODGE|LEAGUE|LEGION|FIRE|RESCUE|HOA|CONDOMINIUM|CONDO"
    r"|BANK|SAVINGS|CREDIT UNION|FEDERAL|MORTGAGE"
    # utilities and carriers
    r"|RAILROAD|RAILWAY|RR|POWER|ELECTRIC|GAS|TELEPHONE|TEL|COMMUNICATIONS|CABLE|WATER WORKS"
    r"|NATIONAL GRID|VERIZON|CENTRAL HUDSON|NIAGARA MOHAWK|FARMS|ORCHARDS|BROS|BROTHERS"
    r"|& ?SONS?|AND SONS?"
)

#: A name matching this (upper case) is an entity, whatever fields it sits in. (The
#: pattern is valid both for Python ``re`` and for RE2, which pyarrow uses.)
ENTITY_REGEX = rf"(?:^|[^A-Z0-9])(?:{_ENTITY_WORDS})(?:[^A-Z0-9]|$)"
ENTITY_PATTERN: re.Pattern[str] = re.compile(ENTITY_REGEX)

_SLOTS: tuple[tuple[str, str, str, str], ...] = (
    (
        "primary_owner_first_name",
        "primary_owner_mi",
        "primary_owner_last_name",
        "primary_owner_suffix",
    ),
    *(
        (
            f"additional_owner_{i}_first",
            f"additional_owner_{i}_mi",
            f"additional_owner_{i}_last_name",
            f"additional_owner_{i}_suffix",
        )
        for i in (1, 2, 3)
    ),
)

_SPACES = re.compile(r"\s+")
_SPACES_RE2 = "[ \t\r\n\f\v]+"  # RE2-safe (pandas runs "\\s" in Python)


def is_entity_name(name: str) -> bool:
    """Whether a name reads as an entity (LLC, trust, town, church...).

    Parameters
    ----------
    name
        A name as written, any case.

    Returns
    -------
    bool
        True when :data:`ENTITY_PATTERN` finds an entity word in it.
    """
    return bool(ENTITY_PATTERN.search(name.upper()))


def _text(s: pd.Series) -> pd.Series:
    """Upper-case, space-collapsed text; missing values as ``""``."""
    return (
        s.astype("str")
        .where(s.notna(), "")
        .str.upper()
        .str.replace(_SPACES_RE2, " ", regex=True)
        .str.strip()
    )


def _join(*parts: pd.Series) -> pd.Series:
    out = parts[0]
    for p in parts[1:]:
        out = out + " " + p
    return out.str.replace(_SPACES_RE2, " ", regex=True).str.strip()


def _kind(first: pd.Series, full: pd.Series) -> pd.Series:
    is_entity = full.str.contains(ENTITY_REGEX, regex=True).astype(bool) | (first == "")
    return pd.Series(
        np.where(is_entity.to_numpy(), "entity", "person"), index=full.index, dtype="str"
    )


def _roll_owners(roll: pd.DataFrame) -> pd.DataFrame:
    empty = pd.Series("", index=roll.index, dtype="str")
    pieces: list[pd.DataFrame] = []
    for slot, cols in enumerate(_SLOTS):
        raw = {
            out: (roll[col].astype("str").where(roll[col].notna(), "") if col in roll else empty)
            for out, col in zip(("first", "middle", "last", "suffix"), cols, strict=True)
        }
        piece = pd.DataFrame({PARCEL_KEY: roll[PARCEL_KEY].astype("str"), **raw})
        piece["_slot"] = slot
        piece["_row"] = np.arange(len(roll))
        # an owner slot is used when its first or last name holds any text
        used = (piece["first"].str.strip() != "") | (piece["last"].str.strip() != "")
        pieces.append(piece[used])
    long = pd.concat(pieces, ignore_index=True)
    for col in ("first", "middle", "last", "suffix"):
        long[col] = _text(long[col])
    return long.sort_values(["_row", "_slot"], kind="stable")


def _override_owners(overrides: pd.DataFrame) -> pd.DataFrame:
    rows: list[dict[str, object]] = []
    for key, owners in zip(overrides[PARCEL_KEY], overrides["owners"], strict=True):
        names = list(owners) if isinstance(owners, (tuple, list)) else str(owners).split(";")
        for idx, raw in enumerate(n for n in (str(x).strip() for x in names) if n):
            full = _SPACES.sub(" ", raw.upper()).strip()
            tokens = full.split()
            if is_entity_name(full) or len(tokens) < 2:
                first, middle, last, suffix = "", "", full, ""
            else:
                suffix = ""
                if len(tokens) > 2 and tokens[-1].rstrip(".") in NAME_SUFFIXES:
                    suffix = tokens.pop().rstrip(".")
                first, last = tokens[0], tokens[-1]
                middle = " ".join(tokens[1:-1])
            rows.append(
                {
                    PARCEL_KEY: str(key),
                    "first": first,
                    "middle": middle,
                    "last": last,
                    "suffix": suffix,
                    "_slot": idx,
                }
            )
    return pd.DataFrame(
        rows, columns=[PARCEL_KEY, "first", "middle", "last", "suffix", "_slot"]
    ).astype({PARCEL_KEY: "str", "first": "str", "middle": "str", "last": "str", "suffix": "str"})


def parse_owners(roll: pd.DataFrame, *, overrides: pd.DataFrame | None = None) -> pd.DataFrame:
    """Parse the owners of every roll record.

    Parameters
    ----------
    roll
        The roll frame (:data:`pipeline.frames.ROLL_COLUMNS`).
    overrides
        Ownership overrides (:data:`pipeline.frames.OWNERSHIP_OVERRIDE_COLUMNS`):
        for a parcel listed there, its ``owners`` (names) replace the roll's
        owners and its ``owner_count`` is the divisor.

    Returns
    -------
    pandas.DataFrame
        The owners frame, columns :data:`OWNER_COLUMNS`, one row per
        (parcel, owner), ordered as the roll and then by ``owner_index``.
        A record without any owner name has no row (its owner count is 0,
        see :func:`owner_counts`).

    Notes
    -----
    An owner is an *entity* when its first-name field is empty or its name
    contains an entity word (:data:`ENTITY_PATTERN`: LLC, INC, CORP, TRUST,
    ESTATE, TOWN OF, COUNTY OF, CHURCH, SCHOOL, DISTRICT, ASSOC, BANK,
    "& SONS", ...). An entity is one owner (§ 2-202.1.a(2)).

    ``owner_count`` of a parcel is the number of owner rows, or the
    override's ``owner_count`` when the parcel is overridden (a positive
    count there wins even when it differs from the number of names, since
    the statute divides by the number of owners; a count of 0 or missing
    falls back to the number of names).

    When several roll records share a parcel key, their owners are listed
    under that key in roll order (owner_index continues).
    """
    long = _roll_owners(roll)
    source = pd.Series("roll", index=long.index, dtype="str")
    count_override: dict[str, int] = {}
    if overrides is not None and len(overrides):
        ov_keys = set(overrides[PARCEL_KEY].astype("str"))
        keep = ~long[PARCEL_KEY].isin(ov_keys)
        long, source = long[keep], source[keep]
        ov = _override_owners(overrides)
        # an overridden parcel keeps the place of its roll record
        first_row = dict(
            zip(roll[PARCEL_KEY].astype("str")[::-1], range(len(roll) - 1, -1, -1), strict=True)
        )
        ov["_row"] = [first_row.get(k, len(roll)) for k in ov[PARCEL_KEY]]
        long = pd.concat([long, ov], ignore_index=True)
        source = pd.concat(
            [source, pd.Series("override", index=range(len(ov)), dtype="str")], ignore_index=True
        )
        order = long.sort_values(["_row", "_slot"], kind="stable").index
        long, source = long.loc[order], source.loc[order]
        for key, n in zip(overrides[PARCEL_KEY], overrides["owner_count"], strict=True):
            if pd.notna(n) and int(n) > 0:
                count_override[str(key)] = int(n)
    long = long.assign(owner_source=source.to_numpy()).reset_index(drop=True)
    name = _join(long["first"], long["middle"], long["last"], long["suffix"])
    out = pd.DataFrame(
        {
            PARCEL_KEY: long[PARCEL_KEY].astype("str"),
            "owner_index": long.groupby(PARCEL_KEY, sort=False).cumcount().astype("int64"),
            "name": name,
            "kind": _kind(long["first"], name),
            "first": long["first"],
            "middle": long["middle"],
            "last": long["last"],
            "suffix": long["suffix"],
            "norm_name": normalize_names(name),
        }
    )
    counts = out.groupby(PARCEL_KEY, sort=False)[PARCEL_KEY].transform("size").astype("int64")
    if count_override:
        counts = out[PARCEL_KEY].map(count_override).fillna(counts).astype("int64")
    out["owner_count"] = counts
    out["owner_source"] = long["owner_source"].astype("str")
    # entity parts: the whole name sits in "last"
    ent = out["kind"] == "entity"
    out.loc[ent, "last"] = out.loc[ent, "name"]
    out.loc[ent, ["first", "middle", "suffix"]] = ""
    return out.loc[:, list(OWNER_COLUMNS)].reset_index(drop=True)


def owner_counts(owners: pd.DataFrame) -> pd.Series:
    """Number of owners per parcel.

    Parameters
    ----------
    owners
        The owners frame from :func:`parse_owners`.

    Returns
    -------
    pandas.Series
        ``parcel_key`` -> owner count (int64), override counts included.
        Parcels without any owner are absent (count 0).
    """
    if "owner_count" in owners.columns:
        s = owners.groupby(PARCEL_KEY, sort=False)["owner_count"].first()
    else:
        s = owners.groupby(PARCEL_KEY, sort=False).size()
    return s.astype("int64").rename("owner_count")
