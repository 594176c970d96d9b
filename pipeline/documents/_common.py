"""Shared helpers of the filing package: formatting, fixed dates, stable zip files.

Every document is reproducible: the same inputs give the same bytes. Office
files (DOCX, XLSX) are zip archives whose entries carry the time they were
written, and whose ``docProps/core.xml`` carries created/modified times;
:func:`stable_zip` rewrites both to the filing date.
"""

from __future__ import annotations

import datetime as dt
import io
import math
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.tools.numbers import cents, percent_text

__all__ = [
    "dollars",
    "fraction",
    "percent",
    "rate",
    "stable_zip",
    "town_label",
    "write_bytes",
    "xml_bytes",
    "xml_clean",
    "xml_text",
    "xml_valid",
]


def _number(value: Any) -> float | None:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x + 0.0 if math.isfinite(x) else None  # -0.0 is shown as 0


def dollars(value: Any) -> str:
    """``1234567.891`` → ``"$1,234,567.89"`` (``"—"`` when missing)."""
    x = _number(value)
    if x is None:
        return "—"
    amount = cents(x)
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"


def percent(value: Any) -> str:
    """A percentage (0-100) with four decimals: ``33.086878`` → ``"33.0869 %"``.

    A share that is not whole but would print as whole gets more decimals
    (:func:`pipeline.tools.numbers.percent_text`): ``50.000025`` →
    ``"50.00003 %"``, never ``"50.0000 %"``.
    """
    x = _number(value)
    return "—" if x is None else f"{percent_text(x)} %"


def rate(value: Any) -> str:
    """An equalization rate (percent) with four decimals, or all it has (audit A26 F4).

    The full values are computed from the rate as given, so it is printed as
    given: ``33.9000 %``, but ``33.333333 %`` (not ``33.3333 %``, from which the
    full values stated could not be recomputed).
    """
    x = _number(value)
    if x is None:
        return "—"
    shown = f"{x:.4f}"
    if float(shown) != x:
        # the shortest digits that read back as the rate used, never in e-notation
        shown = np.format_float_positional(x, trim="-")
    return f"{shown} %"


def fraction(value: Any) -> str:
    """A fraction in the territory with six decimals, or all a short one has (audit A34 F1).

    A fraction measured on the map has all of a double's digits: six are
    shown. One the assessor wrote (an override: ``0.1234567``) is shown as
    written, up to ten decimals, so that the apportioned value beside it can
    be recomputed from it.
    """
    x = _number(value)
    if x is None:
        return "—"
    shown = f"{x:.6f}"
    if float(shown) != x:
        given = np.format_float_positional(x, trim="-")
        if len(given.partition(".")[2]) <= 10:
            shown = given
    return shown


def town_label(name: str) -> str:
    """``"Harlow"`` → ``"Town of Harlow"`` (unchanged when it already says so)."""
    n = name.strip()
    return n if n.lower().startswith(("town of", "city of")) else f"Town of {n}"


_CORE_TIME = re.compile(
    rb"(<dcterms:(?:created|modified)\b[^>]*>)[^<]*(</dcterms:(?:created|modified)>)"
)
_PRINTED = re.compile(rb"(<cp:lastPrinted>)[^<]*(</cp:lastPrinted>)")


def stable_zip(
    data: bytes, *, when: dt.date, edit: Callable[[str, bytes], bytes] | None = None
) -> bytes:
    """Rewrite an Office zip so that it no longer depends on the clock.

    Parameters
    ----------
    data
        The bytes of a DOCX or XLSX file.
    when
        The date written into every entry and into the document properties.
    edit
        Optional ``edit(name, content) -> content`` applied to every entry
        before it is written (e.g. to splice prepared XML into a part).

    Returns
    -------
    bytes
        The same entries in the same order, each dated ``when`` at midnight,
        deflated, with ``docProps/core.xml`` created/modified/last printed set
        to ``when``.
    """
    stamp = dt.datetime(when.year, when.month, when.day).strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            content = src.read(info.filename)
            if edit is not None:
                content = edit(info.filename, content)
            if info.filename == "docProps/core.xml":
                content = _CORE_TIME.sub(rb"\g<1>" + stamp + rb"\g<2>", content)
                content = _PRINTED.sub(rb"\g<1>" + stamp + rb"\g<2>", content)
            entry = zipfile.ZipInfo(
                info.filename, date_time=(when.year, when.month, when.day, 0, 0, 0)
            )
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.create_system = 3
            entry.external_attr = 0o644 << 16
            # level 1: a schedule's sheet of 10 MB deflates 3x faster than at
            # the default 6 (63 against 174 ms), for a file about a quarter larger
            dst.writestr(entry, content, compresslevel=1)
    return out.getvalue()


#: Characters XML 1.0 cannot hold (C0 controls but tab, newline, return; U+FFFE/F).
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_text(text: str) -> str:
    """Escape ``text`` for XML content (``&``, ``<``, ``>``).

    Characters XML cannot hold are left to :func:`xml_valid`, applied once to
    the finished markup (the markup itself never contains them).
    """
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def xml_valid(markup: str) -> str:
    """``markup`` with every character XML 1.0 cannot hold replaced by U+FFFD."""
    return _XML_BAD.sub("\ufffd", markup) if _XML_BAD.search(markup) else markup


def xml_clean(text: str) -> bool:
    """Whether ``text`` holds no character XML 1.0 cannot hold (``xml_valid(text) == text``)."""
    return _XML_BAD.search(text) is None


#: The UTF-8 bytes of the characters of ``_XML_BAD`` (C0 controls are single
#: bytes that never occur inside a multi-byte sequence).
_XML_BAD_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20)])
_XML_BAD_UTF8 = ("\ufffe".encode(), "\uffff".encode())


def xml_bytes(markup: str) -> bytes:
    """``xml_valid(markup)`` encoded as UTF-8, checked on the bytes (fast for long markup).

    A byte-level scan (``bytes.translate``) finds in milliseconds what a
    regular-expression scan of a long string finds in a tenth of a second;
    only markup that holds a bad character goes through :func:`xml_valid`.
    """
    data = markup.encode("utf-8")
    if len(data.translate(None, _XML_BAD_BYTES)) == len(data) and not any(
        b in data for b in _XML_BAD_UTF8
    ):
        return data
    return xml_valid(markup).encode("utf-8")


def write_bytes(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` and return the path."""
    path.write_bytes(data)
    return path


#: New York counties by the two digits that open a SWIS code (alphabetical, 01-57).
_COUNTIES = [
    "Albany",
    "Allegany",
    "Broome",
    "Cattaraugus",
    "Cayuga",
    "Chautauqua",
    "Chemung",
    "Chenango",
    "Clinton",
    "Columbia",
    "Cortland",
    "Delaware",
    "Dutchess",
    "Erie",
    "Essex",
    "Franklin",
    "Fulton",
    "Genesee",
    "Greene",
    "Hamilton",
    "Herkimer",
    "Jefferson",
    "Lewis",
    "Livingston",
    "Madison",
    "Monroe",
    "Montgomery",
    "Nassau",
    "Niagara",
    "Oneida",
    "Onondaga",
    "Ontario",
    "Orange",
    "Orleans",
    "Oswego",
    "Otsego",
    "Putnam",
    "Rensselaer",
    "Rockland",
    "St.Lawrence",
    "Saratoga",
    "Schenectady",
    "Schoharie",
    "Schuyler",
    "Seneca",
    "Steuben",
    "Suffolk",
    "Sullivan",
    "Tioga",
    "Tompkins",
    "Ulster",
    "Warren",
    "Washington",
    "Wayne",
    "Westchester",
    "Wyoming",
    "Yates",
]


def county_of_swis(swis: str) -> str | None:
    """The county a SWIS code lies in (``"104400"`` → ``"Columbia"``); ``None`` if unknown."""
    code = str(swis).strip()[:2]
    if not code.isdigit() or not 1 <= int(code) <= len(_COUNTIES):
        return None
    return _COUNTIES[int(code) - 1].replace("St.", "St. ")
