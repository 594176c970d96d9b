"""The schedules as formatted workbooks (XLSX): parcels and signatures.

Same rows and columns as ``parcels.csv`` and ``signatures.csv``; a bold frozen
header, money as ``$#,##0.00``, fractions with six decimals, column widths to
fit, an auto-filter and a totals row. Every text cell that starts with ``=``,
``+``, ``-`` or ``@`` is made inert with a leading ``'``
(:func:`pipeline.io.results.inert_text`), so a name such as
``=HYPERLINK(...)`` stays text. Values are written unrounded (the shortest
decimal that reads back as the same float): only the display format rounds.

openpyxl (write-only mode) writes the workbook, its styles and the header; the
data and totals rows are written as SpreadsheetML text and spliced into the
sheet, which keeps a schedule of tens of thousands of rows to about a second.
"""

from __future__ import annotations

import datetime as dt
import io
import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from pipeline.documents._common import stable_zip, write_bytes, xml_bytes, xml_text
from pipeline.io.results import FORMULA_PREFIXES, inert_text
from pipeline.tools.numbers import total

__all__ = ["write_schedule_xlsx", "write_schedules"]

MONEY_FORMAT = '"$"#,##0.00'
FRACTION_FORMAT = "0.000000"

_MONEY = {
    "assessed_value",
    "apportioned_assessed",
    "apportioned_full",
    "signer_credit_assessed",
    "signer_credit_full",
    "credit_assessed",
    "credit_full",
}
_FRACTIONS = {"fraction_in_territory", "match_score", "fraction"}
_RATES = {"equalization_rate"}


def _cell_value(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
        if isinstance(value, float) and not math.isfinite(value):
            return None
    if isinstance(value, bool | int | float):
        return value
    return inert_text(str(value))


def write_schedule_xlsx(
    path: Path,
    frame: pd.DataFrame,
    *,
    sheet: str,
    title: str,
    when: dt.date,
    totals: Iterable[str] = (),
) -> Path:
    """Write one schedule as a formatted workbook.

    Parameters
    ----------
    path
        The ``.xlsx`` file to write.
    frame
        The schedule (one row per record), columns in order.
    sheet
        Sheet name.
    title
        Document title (workbook properties).
    when
        Date of the workbook properties and zip entries (byte-stable output).
    totals
        Columns summed in a totals row under the data.

    Returns
    -------
    Path
        ``path``.
    """
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    # write-only mode: widths, panes and filter are set before the header row
    wb = Workbook(write_only=True)
    ws = wb.create_sheet(sheet[:31])
    stamp = dt.datetime(when.year, when.month, when.day)
    wb.properties.created = stamp
    wb.properties.modified = stamp
    wb.properties.creator = "village-petition"
    wb.properties.title = title
    columns = [str(c) for c in frame.columns]
    n_rows = len(frame)
    totals = [c for c in totals if c in columns]
    total_row: list[Any] = []
    if totals:
        total_row = [None] * len(columns)
        total_row[0] = "Total"
        for c in totals:
            values = pd.to_numeric(frame[c], errors="coerce")
            # a column with a figure unknown (the full value of a line or
            # parcel of one town without a rate) has no total either: blank,
            # not the sum of the figures known ($0.00 of the lines not counted)
            total_row[columns.index(c)] = (
                total(values.astype("float64").tolist())
                if len(values) and values.notna().all()
                else None
            )
    formats = [_format(col) for col in columns]
    letters = [get_column_letter(i + 1) for i in range(len(columns))]
    bold = Font(bold=True)

    # The data and totals rows are written as SpreadsheetML text and spliced
    # into the sheet (openpyxl spends ~30 µs a cell); the cell styles are
    # registered with the workbook so that styles.xml carries them.
    def style(fmt: str | None, strong: bool) -> str:
        if fmt is None and not strong:
            return ""
        cell = WriteOnlyCell(ws)
        if fmt is not None:
            cell.number_format = fmt
        if strong:
            cell.font = bold
        return f' s="{cell.style_id}"'

    cells: list[list[str]] = []
    for i, name in enumerate(columns):
        column, width = _column_xml(frame.iloc[:, i].tolist(), letters[i], style(formats[i], False))
        cells.append(column)
        ws.column_dimensions[letters[i]].width = min(max(max(width, len(name)) + 2, 8), 60)
    ws.freeze_panes = "A2"
    if n_rows:
        ws.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{n_rows + 1}"

    fill = PatternFill("solid", fgColor="E8E8E8")
    header = []
    for c in columns:
        cell = WriteOnlyCell(ws, value=inert_text(c))
        cell.font = bold
        cell.fill = fill
        cell.alignment = Alignment(wrap_text=False)
        header.append(cell)
    ws.append(header)

    rows_xml = [
        f'<row r="{r}">{"".join(row)}</row>'
        for r, row in enumerate(zip(*cells, strict=True) if cells else (), start=2)
    ]
    if total_row:
        last = [
            _column_xml([v], letters[i], style(formats[i], True), first_row=n_rows + 2)[0][0]
            for i, v in enumerate(total_row)
        ]
        rows_xml.append(f'<row r="{n_rows + 2}">{"".join(last)}</row>')
    data = xml_bytes("".join(rows_xml))

    def splice(name: str, content: bytes) -> bytes:
        if name != "xl/worksheets/sheet1.xml":
            return content
        if content.count(b"</sheetData>") != 1:  # pragma: no cover - openpyxl changed
            raise RuntimeError("the sheet has no single sheetData element")
        return content.replace(b"</sheetData>", data + b"</sheetData>")

    buf = io.BytesIO()
    wb.save(buf)
    return write_bytes(path, stable_zip(buf.getvalue(), when=when, edit=splice))


def _column_xml(
    values: list[Any], letter: str, style: str, *, first_row: int = 2
) -> tuple[list[str], int]:
    """The ``<c>`` elements of one column and its widest shown value (characters).

    Numbers are written unrounded (money shown with separators and cents
    counts ``len(f"{v:,.2f}") + 1``); text as inline strings, made inert by
    :func:`pipeline.io.results.inert_text`; missing values and empty text as
    empty cells (kept only when styled).
    """
    out: list[str] = []
    width = 0
    add = out.append
    empty = f'<c r="{letter}{{}}"{style}/>'.format if style else None
    number = f'<c r="{letter}{{}}"{style}><v>{{!r}}</v></c>'.format
    kinds = set(map(type, values))
    if kinds == {int}:  # a whole column of integers (or of finite floats): in bulk
        out = list(map(number, range(first_row, first_row + len(values)), values))
        return out, max(map(len, map(str, values)))
    if kinds == {float} and all(map(math.isfinite, values)):
        values = [v + 0.0 for v in values]  # -0.0 is written 0.0
        out = list(map(number, range(first_row, first_row + len(values)), values))
        return out, _widest_money(values)
    if str in kinds and kinds <= {str, float} and all(v != v for v in values if type(v) is float):
        # a text column (missing values are NaN): inert, escaped, in bulk
        texts = [
            ("'" + v if v.startswith(FORMULA_PREFIXES) else v) if type(v) is str else ""
            for v in values
        ]
        cell = f'<c r="{letter}{{}}"{style} t="inlineStr"><is><t{{}}>{{}}</t></is></c>'.format
        blank: Callable[[int], str] = empty if empty is not None else (lambda _r: "")
        out = [
            cell(r, ' xml:space="preserve"' if t != t.strip() else "", xml_text(t))
            if t
            else blank(r)
            for r, t in enumerate(texts, start=first_row)
        ]
        return out, max(map(len, texts))
    floats: list[float] = []  # finite floats: their widest display is found once, below
    for r, raw in enumerate(values, start=first_row):
        kind = type(raw)
        if kind is float:
            if raw != raw or raw in (math.inf, -math.inf):
                add(empty(r) if empty else "")
            else:
                add(number(r, raw + 0.0))  # -0.0 is written 0.0
                floats.append(raw)
            continue
        if kind is int:
            add(number(r, raw))
            n = len(str(raw))
            if n > width:
                width = n
            continue
        # text (inert_text inlined for plain str) and anything else
        v = (
            ("'" + raw if raw.startswith(FORMULA_PREFIXES) else raw)
            if kind is str
            else _cell_value(raw)
        )
        if v is None or v == "" or v != v or v in (math.inf, -math.inf):
            add(empty(r) if empty else "")
            continue
        if isinstance(v, bool):
            add(f'<c r="{letter}{r}"{style} t="b"><v>{int(v)}</v></c>')
            n = len(str(v))
        elif isinstance(v, int | float):
            add(number(r, v + 0.0 if isinstance(v, float) else v))
            if isinstance(v, float):
                floats.append(v)
                continue
            n = len(str(v))
        else:
            text = str(v)
            space = ' xml:space="preserve"' if text != text.strip() else ""
            add(
                f'<c r="{letter}{r}"{style} t="inlineStr">'
                f"<is><t{space}>{xml_text(text)}</t></is></c>"
            )
            n = len(text)
        if n > width:
            width = n
    if floats:
        width = max(width, _widest_money(floats))
    return out, width


def _widest_money(values: list[float]) -> int:
    """``max(len(f"{v:,.2f}") + 1 for v in values)`` of finite floats, in two formats.

    Notes
    -----
    The length of ``f"{v:,.2f}"`` never decreases with ``|v|`` among values of
    one sign (the rounded digits only grow), and the sign adds one character
    (``-0.0`` too: ``"-0.00"``). The widest is therefore the largest value
    without a sign bit or the smallest value with one.
    """
    import numpy as np

    arr = np.asarray(values, dtype=float)
    neg = np.signbit(arr)
    widest = [arr[~neg].max()] if (~neg).any() else []
    if neg.any():
        widest.append(arr[neg].min())
    return max(len(f"{float(v):,.2f}") + 1 for v in widest)


def _format(column: str) -> str | None:
    """The number format of a schedule column (``None``: general)."""
    if column in _MONEY:
        return MONEY_FORMAT
    if column in _FRACTIONS:
        return FRACTION_FORMAT
    if column in _RATES:
        return "0.0000"
    return None


def write_schedules(
    directory: Path,
    *,
    parcels: pd.DataFrame,
    signatures: pd.DataFrame,
    when: dt.date,
    several_towns: bool | None = None,
) -> dict[str, Path]:
    """Write ``schedule-parcels.xlsx`` and ``schedule-signatures.xlsx``.

    A territory in several towns (``several_towns``: the summary's town parts;
    None: the towns of the parcel rows) has assessed values on different
    scales (each town's equalization rate): only full values are totalled
    then (§ 2-202.1.a(2)); each town's assessed totals are in its
    certification.
    """
    several = (
        several_towns
        if several_towns is not None
        else "town_swis" in parcels and parcels["town_swis"].nunique(dropna=True) > 1
    )
    # the roll's whole-parcel values (assessed_value) are not totalled: beside
    # the territory's apportioned total their sum would mislead
    assessed = () if several else ("apportioned_assessed",)
    files = {
        "schedule-parcels.xlsx": write_schedule_xlsx(
            directory / "schedule-parcels.xlsx",
            parcels,
            sheet="Parcels",
            title="Parcel schedule (Village Law § 2-202.1.a(2), d)",
            when=when,
            totals=(
                *assessed,
                "apportioned_full",
                *(() if several else ("signer_credit_assessed",)),
                "signer_credit_full",
            ),
        ),
        "schedule-signatures.xlsx": write_schedule_xlsx(
            directory / "schedule-signatures.xlsx",
            signatures,
            sheet="Signatures",
            title="Signature schedule (Village Law § 2-202.1.a, e)",
            when=when,
            totals=(() if several else ("credit_assessed",)) + ("credit_full",),
        ),
    }
    return files
