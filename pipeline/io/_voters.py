"""Reader of the NYS Board of Elections voter file (FOIL layout).

Headerless files have 47 fields (or 45 in the older layout, which lacks
``RAPARTMENTTYPE`` and ``RADDRNONSTD`` and has ``RAPARTMENT`` right after
``RHALFCODE``), every field double-quoted, Latin-1.
A CSV whose first row holds the field names (three or more BOE names) is
read by name. Only :data:`pipeline.frames.VOTER_COLUMNS` are kept: date of
birth, voting history, previous address and the rest are dropped at read
time and never carried. The registration, inactive and purge dates
(``REGDATE``, ``INACT_DATE``, ``PURGE_DATE``; ``YYYYMMDD`` in the BOE file)
are kept as ISO text for the status as of the filing date.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.config import VOTER_STATUS_CODES
from pipeline.errors import InputError
from pipeline.frames import BOE_FIELDS_47, SOURCE_ROW, VOTER_COLUMNS
from pipeline.io._common import csv_text_frame, read_bytes

#: The older 45-field layout: no RAPARTMENTTYPE or RADDRNONSTD, and RAPARTMENT
#: right after RHALFCODE (…, RADDNUMBER, RHALFCODE, RAPARTMENT, RPREDIRECTION,
#: RSTREETNAME, RPOSTDIRECTION, RCITY, …), as the older county extracts write it.
_OLD_RESIDENCE = ("RADDNUMBER", "RHALFCODE", "RAPARTMENT", "RPREDIRECTION", "RSTREETNAME")
BOE_FIELDS_45: tuple[str, ...] = (
    *BOE_FIELDS_47[: BOE_FIELDS_47.index("RADDNUMBER")],
    *_OLD_RESIDENCE,
    "RPOSTDIRECTION",
    *BOE_FIELDS_47[BOE_FIELDS_47.index("RCITY") :],
)
assert len(BOE_FIELDS_45) == 45 and set(BOE_FIELDS_45) == set(BOE_FIELDS_47) - {
    "RAPARTMENTTYPE",
    "RADDRNONSTD",
}
_OPTIONAL = ("RAPARTMENTTYPE", "RADDRNONSTD")
_REQUIRED_BY_NAME = ("SBOEID", "LASTNAME", "FIRSTNAME", "STATUS")
_FIELD_NAMES = frozenset(BOE_FIELDS_47) | frozenset(BOE_FIELDS_45)
_KEEP = tuple(
    c for c in VOTER_COLUMNS if c not in (SOURCE_ROW, "REGISTRANT", "VOTED_BY", "MINOR_ON_FILING")
)
#: A date in a voting history field or ``LASTVOTERDATE``: ``YYYYMMDD`` (the BOE
#: file), ``YYYY-MM-DD`` or ``M/D/YYYY`` (as a spreadsheet may save it; audit
#: A22 F1), or a year standing alone.
_HISTORY_DATE = re.compile(
    r"(?<!\d)(?:"
    r"(?P<iy>(?:19|20)\d{2})-(?P<im>\d{1,2})-(?P<id>\d{1,2})"
    r"|(?P<um>\d{1,2})/(?P<ud>\d{1,2})/(?P<uy>(?:19|20)\d{2})"
    r"|(?P<by>(?:19|20)\d{2})(?P<bm>\d{2})(?P<bd>\d{2})"
    r"|(?P<year>(?:19|20)\d{2})"
    r")(?!\d)"
)
#: The dates kept (``YYYYMMDD`` in the BOE file; ``YYYY-MM-DD`` and ``M/D/YYYY``
#: as a spreadsheet may save them), read into ISO text.
_DATES = ("REGDATE", "INACT_DATE", "PURGE_DATE")
_DATE_FORMS = (
    (re.compile(r"(\d{4})(\d{2})(\d{2})"), (1, 2, 3)),
    (re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})"), (1, 2, 3)),
    (re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})"), (3, 1, 2)),
)


def _decode(data: bytes) -> tuple[bytes, str]:
    """The bytes to read and their encoding: UTF-8 when valid, else Latin-1, line by line.

    A file of valid UTF-8 (ASCII included) is UTF-8; one with no line of
    UTF-8 beyond ASCII is Latin-1 (the BOE's). A file mixing the two (lines
    of UTF-8 names, and a line saved in Latin-1: audit A35 F3) is read line
    by line, each in its own encoding, so that neither kind of name is
    garbled; it is given back as UTF-8.
    """
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return data, "utf-8"
    lines = data.split(b"\n")
    utf8 = 0
    out: list[bytes] = []
    for line in lines:
        if line.isascii():
            out.append(line)
            continue
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            out.append(line.decode("latin-1").encode("utf-8"))
        else:
            utf8 += 1
            out.append(line)
    if not utf8:
        return data, "latin-1"
    return b"\n".join(out), "utf-8"


def read_voters(path: str | Path, *, filed_on: dt.date | None = None) -> pd.DataFrame:
    """Read a voter file into the canonical voter frame.

    Parameters
    ----------
    path
        The BOE file: headerless with 47 (or 45) quoted fields, or a CSV with
        the BOE field names as header. Latin-1 (UTF-8 is accepted too).
    filed_on
        The filing date: ``MINOR_ON_FILING`` is ``"1"`` for a voter whose date
        of birth shows them under 18 that day (a pre-registrant, whom a file
        extracted after their birthday shows active); None: ``""`` for all.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`pipeline.frames.VOTER_COLUMNS` (text, stripped;
        ``source_row`` = data row from 1). ``REGDATE``, ``INACT_DATE`` and
        ``PURGE_DATE`` as ISO text (``""`` when blank). Date of birth and
        every other field are dropped.

    Raises
    ------
    InputError
        Missing or empty file, a file with no voter (a header alone), a row
        with another number of fields (row and count named), a header missing
        a required field, a missing or repeated ``SBOEID``, a ``STATUS`` that
        is no Board of Elections status code (blank, ``ACTIVE`` written out, an
        unknown word): such a voter cannot be counted in or out, so it is
        refused rather than dropped from the denominator; a ``REGDATE``,
        ``INACT_DATE`` or ``PURGE_DATE`` that is no date.

    Notes
    -----
    Parsed by pyarrow's C++ CSV reader: 150,000 voters take about a second.
    """
    data, encoding = _decode(read_bytes(path))
    head = data[:4096].split(b"\n", 1)[0].upper()
    # a header row: the first row names BOE fields (three or more of them: a
    # header missing SBOEID is still a header, and is then told so)
    cells = {c.strip().strip('"').strip() for c in head.decode("latin-1").split(",")}
    has_header = len(cells & _FIELD_NAMES) >= 3
    raw = csv_text_frame(data, path, encoding=encoding, header=has_header)
    if has_header:
        written = list(raw.columns)
        raw.columns = [c if c == SOURCE_ROW else str(c).strip().upper() for c in raw.columns]
        twice = raw.columns[raw.columns.duplicated()]
        if len(twice):
            same = [str(w) for w, c in zip(written, raw.columns, strict=True) if c == twice[0]]
            raise InputError(
                path,
                f"the header names {twice[0]} twice ({', '.join(same)}): which one holds "
                "the voters' values cannot be told",
                column=str(twice[0]),
            )
        for col in _REQUIRED_BY_NAME:
            if col not in raw.columns:
                raise InputError(path, "required column is missing", column=col)
        for col in _KEEP:
            if col not in raw.columns:
                raw[col] = ""
    else:
        width = len(raw.columns) - 1
        if width == 47:
            names = BOE_FIELDS_47
        elif width == 45:
            names = BOE_FIELDS_45
        else:
            raise InputError(
                path,
                f"{width} fields: a BOE voter file has 47 (or 45 in the older layout)",
                row=1,
            )
        raw.columns = [*names, SOURCE_ROW]
        for col in _OPTIONAL:
            if col not in raw.columns:
                raw[col] = ""
    if not len(raw):
        # a header alone, or rows of empty fields: no voter to place or match
        raise InputError(path, "the voter file holds no voter")
    out = pd.DataFrame({c: raw[c].astype("str").str.strip() for c in _KEEP}, index=raw.index)
    out[SOURCE_ROW] = raw[SOURCE_ROW].astype("int64")
    sboeid = out["SBOEID"]
    blank = sboeid == ""
    if blank.any():
        pos = int(np.flatnonzero(blank.to_numpy())[0])
        raise InputError(
            path, "SBOEID is missing", row=int(out[SOURCE_ROW].iloc[pos]), column="SBOEID"
        )
    dup = sboeid.duplicated(keep="first")
    if dup.any():
        pos = int(np.flatnonzero(dup.to_numpy())[0])
        value = sboeid.iloc[pos]
        rows = out.loc[sboeid == value, SOURCE_ROW].tolist()
        raise InputError(
            path,
            f"duplicate SBOEID {value}: rows {', '.join(str(r) for r in rows)}",
            row=int(out[SOURCE_ROW].iloc[pos]),
            column="SBOEID",
        )
    _check_statuses(out, path)
    for col in _DATES:
        out[col] = _iso_dates(out, col, path)
    out["REGISTRANT"] = _registrants(out, raw["DOB"] if "DOB" in raw.columns else None)
    out["VOTED_BY"] = _voted_by(raw)
    out["MINOR_ON_FILING"] = _minor_on(raw["DOB"] if "DOB" in raw.columns else None, filed_on)
    return out.loc[:, list(VOTER_COLUMNS)].reset_index(drop=True)


def _minor_on(dob: pd.Series | None, day: dt.date | None) -> pd.Series:
    """``"1"`` where the date of birth ``dob`` shows the voter under 18 on ``day``, else ``""``.

    Eighteen on the birthday itself (born on ``day`` 18 years before: of
    age); a 29 February birthday falls on 28 February in other years (a
    day early: the count leans to the voter). A blank or unreadable date of
    birth tells nothing (``""``): it is not refused, since it is not kept.
    """
    if dob is None:
        return pd.Series("", dtype=str)
    text = dob.astype("str").str.strip()
    if day is None:
        return pd.Series("", index=dob.index, dtype=str)
    found = {u: _iso_date(u) or "" for u in pd.unique(text.to_numpy())}
    iso = text.map(found).astype(str)
    try:
        cutoff = day.replace(year=day.year - 18)
    except ValueError:  # 29 February
        cutoff = day.replace(year=day.year - 18, day=28)
    minor = (iso != "") & (iso > cutoff.isoformat())
    return pd.Series(np.where(minor, "1", ""), index=dob.index, dtype=str)


def _voted_by(raw: pd.DataFrame) -> pd.Series:
    """The earliest day each voter is shown voting, ISO text (``""``: none shown).

    From ``LASTVOTERDATE`` (``YYYYMMDD``, ``YYYY-MM-DD`` or ``M/D/YYYY``, as
    the other dates) and the dates or years of ``VOTERHISTORY``: votes cast
    on this registration; a year alone stands for
    its last day (the vote was in it, no later). A value that is no date is
    left aside: these fields only confirm a registration older than its
    ``REGDATE``. ``PREVYEARVOTED`` is not read: it is the year the applicant
    last voted at a previous registration (with ``PREVCOUNTY``,
    ``PREVADDRESS``: from the registration form, perhaps in another county or
    state), no sign that this registration is older (audit A10 F6).
    """

    def earliest(*texts: str) -> str:
        found: list[str] = []
        for text in texts:
            for hit in _HISTORY_DATE.finditer(text):
                if hit["year"]:
                    day = dt.date(int(hit["year"]), 12, 31)
                else:
                    y, m, d = (
                        ("iy", "im", "id")
                        if hit["iy"]
                        else ("uy", "um", "ud")
                        if hit["uy"]
                        else ("by", "bm", "bd")
                    )
                    try:
                        day = dt.date(int(hit[y]), int(hit[m]), int(hit[d]))
                    except ValueError:
                        continue
                found.append(day.isoformat())
        return min(found) if found else ""

    def col(name: str) -> list[str]:
        if name in raw.columns:
            return [str(v) for v in raw[name].fillna("").tolist()]
        return [""] * len(raw)

    # each distinct pair of the fields read once (histories repeat a lot)
    seen: dict[tuple[str, str], str] = {}
    values = []
    for fields in zip(col("LASTVOTERDATE"), col("VOTERHISTORY"), strict=True):
        got = seen.get(fields)
        if got is None:
            got = seen[fields] = earliest(*fields)
        values.append(got)
    return pd.Series(values, index=raw.index, dtype=str)


def _registrants(voters: pd.DataFrame, dob: pd.Series | None) -> pd.Series:
    """Each voter's person: the SBOEID of the first registration of their name and birth date.

    A person registered twice (a stale registration at an old address left
    beside the new one) is one qualified voter and one signer
    (§ 2-202.1.a(1)): registrations with the same last, first and suffix
    names, the same middle initial and the same date of birth share the
    SBOEID of the first of them in the file. A registration without a date
    of birth is its own person. The date of birth is used here only and
    never kept.
    """
    sboeid = voters["SBOEID"]
    if dob is None:
        return sboeid.copy()
    born = dob.astype("str").str.strip().reindex(voters.index).fillna("")

    def part(col: str) -> pd.Series:
        return voters[col].str.upper().str.replace(r"[^A-Z0-9 ]", "", regex=True).str.strip()

    key = (
        part("LASTNAME")
        + "|"
        + part("FIRSTNAME")
        + "|"
        + part("MIDDLENAME").str.slice(0, 1)
        + "|"
        + part("NAMESUFFIX")
        + "|"
        + born
    )
    first = sboeid.groupby(key, sort=False).transform("first")
    out: pd.Series = first.where(born != "", sboeid)
    return out


def _check_statuses(voters: pd.DataFrame, path: str | Path) -> None:
    """Raise for the first voter whose ``STATUS`` is no BOE status code.

    The codes (:data:`pipeline.config.VOTER_STATUS_CODES`) are read in any
    case (``a`` is ``A``): a status the policy does not count is known to be
    out, but a word that is no code (``ACTIVE``, blank) cannot be classed,
    and the resident test's denominator would lose the voter silently.
    """
    status = voters["STATUS"].str.upper()
    bad = ~status.isin(VOTER_STATUS_CODES)
    if not bad.any():
        return
    pos = int(np.flatnonzero(bad.to_numpy())[0])
    value = str(voters["STATUS"].iloc[pos])
    written = f"status {value!r}" if value else "a blank status"
    raise InputError(
        path,
        f"{written} is no Board of Elections voter status code (accepted, in any case: "
        f"{', '.join(VOTER_STATUS_CODES)})",
        row=int(voters[SOURCE_ROW].iloc[pos]),
        column="STATUS",
    )


def _iso_date(text: str) -> str | None:
    """``text`` as an ISO date (``"2023-07-15"``), ``""`` when blank, None when no date."""
    if not text:
        return ""
    for form, (y, m, d) in _DATE_FORMS:
        hit = form.fullmatch(text)
        if hit:
            try:
                return dt.date(int(hit[y]), int(hit[m]), int(hit[d])).isoformat()
            except ValueError:
                return None
    return None


def _iso_dates(voters: pd.DataFrame, column: str, path: str | Path) -> pd.Series:
    """Column ``column`` as ISO dates, each distinct text parsed once; raise for a non-date."""
    values = voters[column]
    found = {u: _iso_date(u) for u in pd.unique(values.to_numpy())}
    bad = [u for u, iso in found.items() if iso is None]
    if bad:
        pos = int(np.flatnonzero(values.isin(bad).to_numpy())[0])
        raise InputError(
            path,
            f"{values.iloc[pos]!r} is not a date (the BOE file writes YYYYMMDD)",
            row=int(voters[SOURCE_ROW].iloc[pos]),
            column=column,
        )
    return values.map(found).astype(str)
