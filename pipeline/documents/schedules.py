"""The schedules as formatted workbooks (XLSX): parcels and signatures.

Same rows and columns as ``parcels.csv`` and ``signatures.csv``; a bold frozen
header, money as ``$#,##0.00``, fractions with six decimals, column widths to
fit, an auto-filter and a totals row. Every text cell that starts with ``=``,
``+``, ``-`` or ``@`` is made inert with a leading ``'``
(:func:`pipeline.io.results.inert_text`), so a name such as
``=HYPERLINK(...)`` stays text. Values are written unrounded: only the display
format rounds.
"""

from __future__ import annotations

import datetime as dt
import io
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from pipeline.documents._common import stable_zip, write_bytes
from pipeline.io.results import inert_text

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
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = sheet[:31]
    stamp = dt.datetime(when.year, when.month, when.day)
    wb.properties.created = stamp
    wb.properties.modified = stamp
    wb.properties.creator = "village-petition"
    wb.properties.title = title
    columns = [str(c) for c in frame.columns]
    ws.append([inert_text(c) for c in columns])
    bold = Font(bold=True)
    fill = PatternFill("solid", fgColor="E8E8E8")
    for cell in ws[1]:
        cell.font = bold
        cell.fill = fill
        cell.alignment = Alignment(wrap_text=False)
    widths = [len(c) for c in columns]
    for row in frame.itertuples(index=False, name=None):
        values = [_cell_value(v) for v in row]
        ws.append(values)
        for i, v in enumerate(values):
            n = (
                len(f"{v:,.2f}") + 1
                if isinstance(v, float)
                else len(str(v))
                if v is not None
                else 0
            )
            if n > widths[i]:
                widths[i] = n
    n_rows = len(frame)
    totals = [c for c in totals if c in columns]
    if totals:
        row_vals: list[Any] = [None] * len(columns)
        row_vals[0] = "Total"
        for c in totals:
            row_vals[columns.index(c)] = float(pd.to_numeric(frame[c], errors="coerce").sum())
        ws.append(row_vals)
        for cell in ws[n_rows + 2]:
            cell.font = bold
    for i, col in enumerate(columns, start=1):
        fmt = (
            MONEY_FORMAT
            if col in _MONEY
            else FRACTION_FORMAT
            if col in _FRACTIONS
            else "0.0000"
            if col in _RATES
            else None
        )
        letter = get_column_letter(i)
        if fmt is not None:
            for (cell,) in ws.iter_rows(min_row=2, max_row=n_rows + 2, min_col=i, max_col=i):
                cell.number_format = fmt
        ws.column_dimensions[letter].width = min(max(widths[i - 1] + 2, 8), 60)
    ws.freeze_panes = "A2"
    if n_rows:
        ws.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{n_rows + 1}"
    buf = io.BytesIO()
    wb.save(buf)
    return write_bytes(path, stable_zip(buf.getvalue(), when=when))


def write_schedules(
    directory: Path, *, parcels: pd.DataFrame, signatures: pd.DataFrame, when: dt.date
) -> dict[str, Path]:
    """Write ``schedule-parcels.xlsx`` and ``schedule-signatures.xlsx``."""
    files = {
        "schedule-parcels.xlsx": write_schedule_xlsx(
            directory / "schedule-parcels.xlsx",
            parcels,
            sheet="Parcels",
            title="Parcel schedule",
            when=when,
            totals=(
                "assessed_value",
                "apportioned_assessed",
                "apportioned_full",
                "signer_credit_assessed",
                "signer_credit_full",
            ),
        ),
        "schedule-signatures.xlsx": write_schedule_xlsx(
            directory / "schedule-signatures.xlsx",
            signatures,
            sheet="Signatures",
            title="Signature schedule",
            when=when,
            totals=("credit_assessed", "credit_full"),
        ),
    }
    return files
