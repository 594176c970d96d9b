"""The filing package's fast writers: long tables, spliced XML, bulk map paths.

The documents are written without per-cell library objects (a platypus table
re-measures every remaining row at each page break; python-docx and openpyxl
cost tens of microseconds a cell). These tests pin what that must keep: every
row on paper, the header on every page, text escaped, values unrounded.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import docx
import numpy as np
import openpyxl
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader
from shapely.geometry import MultiPolygon, Polygon, box

from pipeline.documents._render import (
    Document,
    Para,
    Table,
    Title,
    _grid_table,
    _wrap_words,
    render_docx,
    render_pdf,
)
from pipeline.documents.mapping import _polygon_path
from pipeline.documents.schedules import write_schedule_xlsx

WHEN = dt.date(2023, 6, 1)


def _long_doc(n: int) -> Document:
    rows = [[f"{i:,}", f"NAME {i:04d} & <SON>", f"${i * 1000:,.2f}"] for i in range(1, n + 1)]
    rows.append(["Total", f"{n:,} records", "$0.00"])
    doc = Document(title="Long", when=WHEN)
    doc.add(
        Title("LONG TABLE"),
        Para("A table longer than a page."),
        Table(
            header=("No.", "Name", "Amount"),
            rows=rows,
            widths=(0.6, 3.0, 1.4),
            right=(0, 2),
            totals=True,
        ),
    )
    return doc


def test_wrap_words_hand_worked() -> None:
    # one unit per character, a line at most 10 units:
    # "AAA BBB CCC DDDDDDDDDDDD E" → "AAA BBB" (7; + " CCC" would be 11),
    # "CCC", "DDDDDDDDDDDD" (12: a long word overflows on its own line), "E"
    lines = _wrap_words("AAA BBB CCC DDDDDDDDDDDD E", 10.0, lambda s: float(len(s)))
    assert lines == ["AAA BBB", "CCC", "DDDDDDDDDDDD", "E"]
    assert _wrap_words("", 10.0, lambda s: float(len(s))) == [""]
    assert _wrap_words("A\nB", 10.0, lambda s: float(len(s))) == ["A", "B"]


def _greedy_wrap(text: str, width: float, measure) -> list[str]:  # type: ignore[no-untyped-def]
    """The plain greedy wrap, word by word (what the one-line shortcut must equal)."""
    lines: list[str] = []
    for para in text.split("\n"):
        words = para.split()
        if not words:
            lines.append("")
            continue
        line, used = words[0], measure(words[0])
        for word in words[1:]:
            if used + measure(" ") + measure(word) <= width:
                line, used = line + " " + word, used + measure(" ") + measure(word)
            else:
                lines.append(line)
                line, used = word, measure(word)
        lines.append(line)
    return lines or [""]


@given(
    st.text(alphabet="ab .\n", max_size=30),
    st.floats(min_value=0.5, max_value=40.0),
)
@settings(max_examples=300, deadline=None)
def test_wrap_words_equals_the_plain_greedy_wrap(text: str, width: float) -> None:
    # widths of 0.7 a character: sums of such floats round, the shortcut must not care
    def measure(s: str) -> float:
        return sum(0.7 for _ in s)

    assert _wrap_words(text, width, measure) == _greedy_wrap(text, width, measure)


def test_grid_split_keeps_every_row_once() -> None:
    # 200 one-line rows of 2·1.5 + 8.5 = 11.5 pt under an 11.5 pt header:
    # a 300 pt frame holds floor((300 - 11.5) / 11.5) = 25 rows.
    table = Table(header=("A",), rows=[[str(i)] for i in range(200)], widths=(1.0,))
    flow = _grid_table(table, [100.0])
    pieces = []
    while True:
        parts = flow.split(100.0, 300.0)
        pieces.append(parts[0])
        if len(parts) == 1:
            break
        flow = parts[1]
    assert [p.stop - p.start for p in pieces] == [25] * 8
    assert [p.start for p in pieces] == list(range(0, 200, 25))
    assert all(p.wrap(100.0, 300.0)[1] <= 300.0 for p in pieces)
    assert flow.split(100.0, 5.0) == []  # not even the header fits: next frame


def test_long_pdf_table_every_row_header_on_each_page(tmp_path: Path) -> None:
    n = 400
    path = render_pdf(_long_doc(n), tmp_path / "long.pdf")
    pages = [p.extract_text() or "" for p in PdfReader(str(path)).pages]
    assert len(pages) > 5
    assert all("Name" in p and "Amount" in p for p in pages)  # header repeated
    text = "\n".join(pages)
    for i in (1, 2, 199, n):
        assert f"NAME {i:04d} & <SON>" in text  # escaped for PDF, read back as written
    assert f"${n * 1000:,.2f}" in text
    assert f"{n:,} records" in text  # the totals row
    again = render_pdf(_long_doc(n), tmp_path / "again.pdf")
    assert path.read_bytes() == again.read_bytes()


def test_pdf_table_non_latin_text(tmp_path: Path) -> None:
    doc = Document(title="t", when=WHEN)
    doc.add(Table(header=("Name",), rows=[["José Müller (Jr.)"], ["a\\b"]], widths=(1.0,)))
    text = PdfReader(str(render_pdf(doc, tmp_path / "t.pdf"))).pages[0].extract_text()
    assert "José Müller (Jr.)" in text and "a\\b" in text


def test_docx_table_spliced_and_escaped(tmp_path: Path) -> None:
    doc = _long_doc(50)
    doc.add(Para("after"), Table(header=("X",), rows=[["bell\x07 & <b>"]], widths=(1.0,)))
    path = render_docx(doc, tmp_path / "long.docx")
    d = docx.Document(str(path))
    assert len(d.tables) == 2
    first = [[c.text for c in r.cells] for r in d.tables[0].rows]
    assert first[0] == ["No.", "Name", "Amount"]
    assert first[1] == ["1", "NAME 0001 & <SON>", "$1,000.00"]
    assert first[-1] == ["Total", "50 records", "$0.00"]
    assert len(first) == 1 + 50 + 1
    # a control character XML cannot hold becomes U+FFFD (the rest is kept)
    assert d.tables[1].rows[1].cells[0].text == "bell\ufffd & <b>"
    assert "after" in [p.text for p in d.paragraphs]
    again = render_docx(doc, tmp_path / "again.docx")
    assert path.read_bytes() == again.read_bytes()


def test_xlsx_values_formats_and_empty_text(tmp_path: Path) -> None:
    import pandas as pd

    frame = pd.DataFrame(
        {
            "name": ["A", "", " padded "],
            "credit_assessed": [0.1 + 0.2, float("nan"), 2.0],
            "page": [1, 2, 3],
        }
    )
    path = write_schedule_xlsx(
        tmp_path / "s.xlsx", frame, sheet="S", title="t", when=WHEN, totals=("credit_assessed",)
    )
    ws = openpyxl.load_workbook(path).active
    assert ws is not None
    assert [c.value for c in ws[1]] == ["name", "credit_assessed", "page"]
    assert ws.cell(row=1, column=1).font.b
    assert ws.cell(row=2, column=2).value == 0.1 + 0.2  # 0.30000000000000004, unrounded
    assert ws.cell(row=3, column=1).value is None  # empty text: an empty cell
    assert ws.cell(row=3, column=2).value is None  # NaN: an empty cell
    assert ws.cell(row=4, column=1).value == " padded "
    assert ws.cell(row=4, column=3).value == 3
    # totals: 0.30000000000000004 + unknown (NaN) + 2.0 is unknown: blank, not
    # 2.3 (what the figures known add up to); a column all known is summed below
    assert ws.cell(row=5, column=2).value is None
    assert ws.cell(row=5, column=1).font.b and ws.cell(row=5, column=2).font.b
    assert ws.cell(row=5, column=2).number_format == '"$"#,##0.00'
    assert ws.auto_filter.ref == "A1:C4"
    # width of credit_assessed: "credit_assessed" has 15 characters, wider than
    # "0.30" (5 with the margin of 1) → 15 + 2 = 17
    assert ws.column_dimensions["B"].width == 17
    z = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
    assert all(i.date_time == (2023, 6, 1, 0, 0, 0) for i in z.infolist())


def test_polygon_path_parts_and_holes() -> None:
    from matplotlib.path import Path as MplPath

    ring = box(0, 0, 10, 10)
    holed = Polygon(ring.exterior.coords, [box(2, 2, 4, 4).exterior.coords[::-1]])
    multi = MultiPolygon([box(20, 0, 21, 1), box(30, 0, 31, 1)])
    geoms = np.array([holed, multi, None, Polygon()], dtype=object)
    path = _polygon_path(geoms)
    # one compound path: the holed square (exterior 5 points + hole 5 points) and
    # the two parts (5 points each) = 20 vertices in 4 rings; None and empty dropped
    assert len(path.vertices) == 20
    codes = path.codes
    assert list(np.flatnonzero(codes == MplPath.MOVETO)) == [0, 5, 10, 15]
    assert list(np.flatnonzero(codes == MplPath.CLOSEPOLY)) == [4, 9, 14, 19]
    assert _polygon_path(np.array([None, Polygon()], dtype=object)) is None
    # orientation: exterior counter-clockwise, hole clockwise (non-zero fill leaves it empty)
    ext, hole = path.vertices[:5], path.vertices[5:10]
    assert shapely.LinearRing(ext).is_ccw and not shapely.LinearRing(hole).is_ccw
    # drawn (Agg, 10 px per unit, no margins): the hole stays white, the ring is black
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import PathCollection
    from matplotlib.figure import Figure

    fig = Figure(figsize=(1, 1), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 10)
    ax.add_collection(PathCollection([path], facecolors="black", linewidths=0), autolim=False)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    img = np.asarray(canvas.buffer_rgba())
    # pixel (row, col) from the top left: (3, 3) in data units → col 30, row 100 - 30 = 70
    assert img[70, 30, 0] > 200  # inside the hole: white
    assert img[30, 70, 0] < 50  # (7, 7): black


def test_widest_money_hand_worked() -> None:
    from pipeline.documents.schedules import _widest_money

    # "1,234.50" is 8 characters (+1 = 9); "-0.00" is 5 (+1 = 6)
    assert _widest_money([1234.5, -0.0, 3.0]) == 9
    # "-1,234.57" is 9 characters (+1 = 10)
    assert _widest_money([-1234.567, 99.0]) == 10
    # 0.0 and -0.0: "-0.00" is the wider (5 + 1)
    assert _widest_money([0.0, -0.0]) == 6
    # 999.995 is stored just below it and shows as "999.99" (6 + 1)
    assert _widest_money([999.995]) == len(f"{999.995:,.2f}") + 1


def test_xml_bytes_replaces_what_xml_cannot_hold() -> None:
    from pipeline.documents._common import xml_bytes, xml_clean

    assert xml_bytes("a\tb\nc") == b"a\tb\nc"
    # BEL (U+0007), U+FFFE and U+001F become U+FFFD (EF BF BD in UTF-8)
    assert xml_bytes("x\x07y\ufffez\x1f") == "x\ufffdy\ufffdz\ufffd".encode()
    assert xml_clean("é & <b>") and not xml_clean("bell\x07")
