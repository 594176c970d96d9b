"""One small document model, rendered to DOCX (python-docx) and PDF (reportlab).

A document is a list of blocks; the certification and the exhibits are written
once as blocks and rendered twice, so the DOCX and the PDF always say the same.
Both renderers are deterministic (fixed dates, reportlab's invariant mode).

Tables are written in bulk, so that an annex of thousands of rows costs
seconds, not minutes: in the DOCX as one piece of WordprocessingML spliced into
``word/document.xml``; in the PDF as a hand-drawn grid whose cells are measured
once and whose page breaks only cut a range of rows (the header is repeated on
every page).
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape as xml_escape

from pipeline.documents._common import stable_zip, write_bytes, xml_clean, xml_text, xml_valid


@dataclass(frozen=True)
class Title:
    text: str


@dataclass(frozen=True)
class Heading:
    text: str


@dataclass(frozen=True)
class Para:
    text: str
    bold: bool = False
    align: str = "left"  # "left" | "center" | "right"


@dataclass(frozen=True)
class Mono:
    """Preformatted text (the metes-and-bounds courses)."""

    text: str


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: Sequence[Sequence[str]]
    #: Relative column widths (any unit; scaled to the page).
    widths: tuple[float, ...]
    #: Columns (0-based) aligned right (numbers).
    right: tuple[int, ...] = ()
    #: The last row is a totals row (bold).
    totals: bool = False
    #: Columns (0-based) whose text wraps in the PDF (others stay on one line).
    wrap: tuple[int, ...] = ()


@dataclass(frozen=True)
class PageBreak:
    pass


Block = Title | Heading | Para | Mono | Table | PageBreak


@dataclass
class Document:
    title: str
    when: dt.date
    blocks: list[Block] = field(default_factory=list)
    landscape: bool = False

    def add(self, *blocks: Block) -> None:
        self.blocks.extend(blocks)


# --- DOCX ---------------------------------------------------------------------------


def render_docx(doc: Document, path: Path) -> Path:
    """Write ``doc`` as an editable Word document (byte-stable)."""
    import docx
    from docx.enum.section import WD_ORIENT
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Inches, Pt

    d = docx.Document()
    when = dt.datetime(doc.when.year, doc.when.month, doc.when.day)
    props = d.core_properties
    props.created = props.modified = props.last_printed = when
    props.title = doc.title
    props.author = props.last_modified_by = "village-petition"
    props.revision = 1
    style = d.styles["Normal"]
    style.font.name = "Times New Roman"
    style.font.size = Pt(11)
    section = d.sections[0]
    section.page_width, section.page_height = Inches(8.5), Inches(11)
    if doc.landscape:
        section.orientation = WD_ORIENT.LANDSCAPE
        section.page_width, section.page_height = Inches(11), Inches(8.5)
    for margin in ("left_margin", "right_margin", "top_margin", "bottom_margin"):
        setattr(section, margin, Inches(0.8))
    usable = (11.0 if doc.landscape else 8.5) - 1.6
    aligns = {
        "left": WD_ALIGN_PARAGRAPH.LEFT,
        "center": WD_ALIGN_PARAGRAPH.CENTER,
        "right": WD_ALIGN_PARAGRAPH.RIGHT,
    }
    tables: list[bytes] = []
    for block in doc.blocks:
        if isinstance(block, Title):
            p = d.add_heading(block.text, level=0)
            p.alignment = WD_ALIGN_PARAGRAPH.CENTER
        elif isinstance(block, Heading):
            d.add_heading(block.text, level=2)
        elif isinstance(block, Para):
            p = d.add_paragraph()
            run = p.add_run(block.text)
            run.bold = block.bold
            p.alignment = aligns[block.align]
        elif isinstance(block, Mono):
            for line in block.text.splitlines():
                p = d.add_paragraph()
                p.paragraph_format.space_after = Pt(0)
                run = p.add_run(line)
                run.font.name = "Courier New"
                run.font.size = Pt(9)
        elif isinstance(block, Table):
            # a marker paragraph, replaced by the table in the saved XML
            d.add_paragraph(_marker(len(tables)))
            tables.append(_docx_table(block, usable))
        elif isinstance(block, PageBreak):
            d.add_page_break()  # type: ignore[no-untyped-call]
    buf = io.BytesIO()
    d.save(buf)

    def splice(name: str, content: bytes) -> bytes:
        if name != "word/document.xml":
            return content
        for i, table in enumerate(tables):
            marker = f"<w:p><w:r><w:t>{_marker(i)}</w:t></w:r></w:p>".encode()
            if content.count(marker) != 1:  # pragma: no cover - python-docx changed
                raise RuntimeError(f"table marker {i} not found once in the document")
            content = content.replace(marker, table)
        return content

    return write_bytes(path, stable_zip(buf.getvalue(), when=doc.when, edit=splice))


def _docx_table(block: Table, usable_in: float) -> bytes:
    """A table as one piece of WordprocessingML, written as text (fast for many rows).

    The body of the document declares the ``w`` namespace; the table is
    spliced into ``word/document.xml`` in place of its marker paragraph.
    """
    total_w = sum(block.widths) or 1.0
    twips = [int(usable_in * 1440 * w / total_w) for w in block.widths]
    out = [
        f'<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="{sum(twips)}" '
        'w:type="dxa"/><w:tblLayout w:type="fixed"/></w:tblPr><w:tblGrid>',
        *(f'<w:gridCol w:w="{t}"/>' for t in twips),
        "</w:tblGrid>",
    ]

    def cells(bold: bool, align: bool) -> list[str]:
        b = "<w:b/>" if bold else ""
        return [
            f'<w:tc><w:tcPr><w:tcW w:w="{t}" w:type="dxa"/></w:tcPr><w:p><w:pPr>'
            f'<w:spacing w:after="0"/>{jc if align and c in block.right else ""}</w:pPr><w:r>'
            f'<w:rPr>{b}<w:sz w:val="16"/></w:rPr><w:t xml:space="preserve">'
            for c, t in enumerate(twips)
        ]

    jc = '<w:jc w:val="right"/>'
    head, body, bold_body = cells(True, False), cells(False, True), cells(True, True)
    end = "</w:t></w:r></w:p></w:tc>"
    last = len(block.rows) - 1

    def row_xml(pre: list[str], row: Sequence[str], start: str = "<w:tr>") -> str:
        inner = "".join(f"{pre[c]}{xml_text(str(t))}{end}" for c, t in enumerate(row))
        return f"{start}{inner}</w:tr>"

    header = row_xml(head, block.header, "<w:tr><w:trPr><w:tblHeader/></w:trPr>")
    totals = row_xml(bold_body, block.rows[last]) if block.totals and block.rows else ""
    body_rows = block.rows[:last] if block.totals else block.rows
    # rows of full width through one template (the same markup as row_xml, faster)
    template = "".join(f"{p.replace('{', '{{').replace('}', '}}')}{{}}{end}" for p in body)
    fmt = f"<w:tr>{template}</w:tr>".format
    texts = [list(map(xml_text, map(str, row))) for row in body_rows]
    out.append(header)
    out.extend(
        fmt(*t) if len(t) == len(body) else row_xml(body, row)
        for t, row in zip(texts, body_rows, strict=True)
    )
    out.append(totals)
    out.append("</w:tbl><w:p/>")
    markup = "".join(out)
    # The markup around the texts holds no character XML cannot hold: scanning
    # the texts of the body, the header and the totals is scanning the table.
    if xml_clean(header) and xml_clean(totals) and xml_clean("".join(map("".join, texts))):
        return markup.encode("utf-8")
    return xml_valid(markup).encode("utf-8")


def _marker(i: int) -> str:
    return f"@@village-petition-table-{i}@@"


# --- PDF ----------------------------------------------------------------------------


def render_pdf(doc: Document, path: Path) -> Path:
    """Write ``doc`` as PDF with reportlab (invariant mode: byte-stable)."""
    from reportlab.lib.enums import TA_CENTER, TA_RIGHT
    from reportlab.lib.pagesizes import landscape, letter
    from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
    from reportlab.lib.units import inch
    from reportlab.platypus import (
        PageBreak as RLPageBreak,
    )
    from reportlab.platypus import (
        Paragraph,
        Preformatted,
        SimpleDocTemplate,
        Spacer,
    )

    size = landscape(letter) if doc.landscape else letter
    buf = io.BytesIO()
    template = SimpleDocTemplate(
        buf,
        pagesize=size,
        leftMargin=0.8 * inch,
        rightMargin=0.8 * inch,
        topMargin=0.8 * inch,
        bottomMargin=0.8 * inch,
        title=doc.title,
        author="village-petition",
        creator="village-petition",
        producer="village-petition",
        invariant=1,
    )
    styles = getSampleStyleSheet()
    body = ParagraphStyle(
        "body",
        parent=styles["BodyText"],
        fontName="Times-Roman",
        fontSize=11,
        leading=14,
        spaceAfter=6,
    )
    aligned = {
        "left": body,
        "center": ParagraphStyle("c", parent=body, alignment=TA_CENTER),
        "right": ParagraphStyle("r", parent=body, alignment=TA_RIGHT),
    }
    title = ParagraphStyle("t", parent=styles["Title"], fontName="Times-Bold", fontSize=15)
    heading = ParagraphStyle("h", parent=styles["Heading2"], fontName="Times-Bold", fontSize=12)
    mono = ParagraphStyle("mono", parent=body, fontName="Courier", fontSize=8.5, leading=10.5)
    usable = size[0] - 1.6 * inch
    story: list[object] = []
    for block in doc.blocks:
        if isinstance(block, Title):
            story.append(Paragraph(xml_escape(block.text), title))
        elif isinstance(block, Heading):
            story.append(Paragraph(xml_escape(block.text), heading))
        elif isinstance(block, Para):
            text = xml_escape(block.text).replace("\n", "<br/>")
            story.append(Paragraph(f"<b>{text}</b>" if block.bold else text, aligned[block.align]))
        elif isinstance(block, Mono):
            story.append(Preformatted(block.text, mono))
        elif isinstance(block, PageBreak):
            story.append(RLPageBreak())
        elif isinstance(block, Table):
            total_w = sum(block.widths) or 1.0
            widths = [usable * w / total_w for w in block.widths]
            story.append(_grid_table(block, widths))
            story.append(Spacer(1, 8))
    # Streams deflated only: reportlab's pure-Python ASCII85 step costs seconds
    # on long tables and adds nothing to a binary file.
    from reportlab import rl_config

    a85 = rl_config.useA85
    rl_config.useA85 = 0
    # reportlab dates the file from SOURCE_DATE_EPOCH when it is set, even in
    # invariant mode: the same inputs must give the same bytes whatever the
    # environment, so the invariant date (2000-01-01) is used always
    epoch = os.environ.pop("SOURCE_DATE_EPOCH", None)
    try:
        template.build(story)
    finally:
        rl_config.useA85 = a85
        if epoch is not None:
            os.environ["SOURCE_DATE_EPOCH"] = epoch
    return write_bytes(path, buf.getvalue())


# --- PDF tables ---------------------------------------------------------------------
#
# A platypus ``Table`` re-measures every remaining row each time it is split
# across a page, so a table of n rows over p pages costs O(n·p): minutes for
# the annex of a large town. The tables here are drawn by hand instead: every
# cell is measured once (character widths cached per font), the row heights
# are summed once, and a page break only cuts the index range of the rows.

_CELL_FONT = "Helvetica"
_CELL_BOLD = "Helvetica-Bold"
_CELL_SIZE = 7.0
_CELL_LEADING = 8.5
_PAD_X = 4.0
_PAD_Y = 1.5
_GRID_WIDTH = 0.25
_GRID_GREY = 0.5  # reportlab's colors.grey
_HEADER_GREY = (0xE8 / 255, 0xE8 / 255, 0xE8 / 255)


class _Measure:
    """Text width in points for one font and size, character widths cached.

    Notes
    -----
    The standard Type 1 fonts have no kerning, so the width of a string is the
    sum of the widths of its characters:
    ``width(s) = Σ w(c) · size / 1000``.
    """

    def __init__(self, font: str, size: float) -> None:
        self.font = font
        self.size = size
        self._chars: dict[str, float] = {}
        self._texts: dict[str, float] = {}

    def __call__(self, text: str) -> float:
        width = self._texts.get(text)
        if width is None:
            width = self._texts[text] = self._width(text)
        return width

    def _width(self, text: str) -> float:
        try:
            return sum(map(self._chars.__getitem__, text))
        except KeyError:
            from reportlab.pdfbase.pdfmetrics import stringWidth

            for ch in set(text) - self._chars.keys():
                self._chars[ch] = stringWidth(ch, self.font, self.size)
            return sum(map(self._chars.__getitem__, text))


def _wrap_words(text: str, width: float, measure: Callable[[str], float]) -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``width`` (long words overflow).

    A text of single-spaced words that fits on one line with room to spare
    (more than any rounding of the sums below) is that one line.
    """
    if measure(text) < width * (1.0 - 1e-9) and text == " ".join(text.split()):
        return [text] if text else [""]
    lines: list[str] = []
    space = measure(" ")
    for para in text.split("\n"):
        words = para.split()
        if not words:
            lines.append("")
            continue
        line, used = words[0], measure(words[0])
        for word in words[1:]:
            w = measure(word)
            if used + space + w <= width:
                line += " " + word
                used += space + w
            else:
                lines.append(line)
                line, used = word, w
        lines.append(line)
    return lines or [""]


@dataclass
class _GridData:
    """A table measured once: the lines of every cell and the height of every row."""

    widths: list[float]
    right: frozenset[int]
    header: list[list[str]]
    header_h: float
    rows: list[list[list[str]]]
    #: ``tops[i]`` = height of rows ``0 .. i-1`` (``tops[0] = 0``).
    tops: list[float]
    bold_last: bool
    measure: _Measure
    measure_bold: _Measure


def _row_height(cells: list[list[str]]) -> float:
    return 2 * _PAD_Y + _CELL_LEADING * max((len(c) for c in cells), default=1)


def _grid_table(block: Table, widths: list[float]) -> Any:
    """The flowable of one table (header repeated on every page)."""
    from itertools import accumulate

    measure = _Measure(_CELL_FONT, _CELL_SIZE)
    bold = _Measure(_CELL_BOLD, _CELL_SIZE)
    inner = [max(w - 2 * _PAD_X, 1.0) for w in widths]
    wrap = frozenset(block.wrap)
    header = [_wrap_words(str(h), inner[i], bold) for i, h in enumerate(block.header)]
    last = len(block.rows) - 1
    # the lines of a wrapped text, per column and font (equal cells share a list)
    wrapped: dict[tuple[int, bool], dict[str, list[str]]] = {}

    def lines(i: int, text: str, strong: bool) -> list[str]:
        known = wrapped.setdefault((i, strong), {})
        out = known.get(text)
        if out is None:
            out = known[text] = _wrap_words(text, inner[i], bold if strong else measure)
        return out

    rows: list[list[list[str]]] = []
    for r, row in enumerate(block.rows):
        strong = block.totals and r == last
        rows.append(
            [
                lines(i, str(v), strong) if i in wrap else str(v).split("\n")
                for i, v in enumerate(row)
            ]
        )
    tops = [0.0, *accumulate(_row_height(c) for c in rows)]
    data = _GridData(
        widths=widths,
        right=frozenset(block.right),
        header=header,
        header_h=_row_height(header),
        rows=rows,
        tops=tops,
        bold_last=block.totals and bool(block.rows),
        measure=measure,
        measure_bold=bold,
    )
    return _make_grid_flowable(data, 0, len(rows))


def _make_grid_flowable(data: _GridData, start: int, stop: int) -> Any:
    return _grid_class()(data, start, stop)


@functools.cache
def _grid_class() -> type:
    """The flowable class (made on first use: reportlab is imported lazily)."""
    from bisect import bisect_right

    from reportlab.platypus.flowables import Flowable

    class GridTable(Flowable):  # type: ignore[misc]
        """Rows ``start .. stop-1`` of a measured table, under its header."""

        def __init__(self, data: _GridData, start: int, stop: int) -> None:
            super().__init__()
            self.data, self.start, self.stop = data, start, stop
            self.width = sum(data.widths)
            self.height = data.header_h + data.tops[stop] - data.tops[start]

        def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
            return self.width, self.height

        def split(self, avail_width: float, avail_height: float) -> list[Any]:
            data, start, stop = self.data, self.start, self.stop
            room = avail_height - data.header_h + data.tops[start]
            end = bisect_right(data.tops, room, lo=start, hi=stop + 1) - 1
            if end <= start:
                return []
            if end >= stop:
                return [self]
            return [GridTable(data, start, end), GridTable(data, end, stop)]

        def draw(self) -> None:
            _draw_grid(self.canv, self.data, self.start, self.stop, self.height)

    return GridTable


def _draw_grid(canv: Any, data: _GridData, start: int, stop: int, height: float) -> None:
    """Draw the header and rows ``start .. stop-1`` with the top edge at ``height``."""
    xs = [0.0, *data.widths]
    for i in range(1, len(xs)):
        xs[i] += xs[i - 1]
    width = xs[-1]
    canv.saveState()
    canv.setFillColorRGB(*_HEADER_GREY)
    canv.rect(0, height - data.header_h, width, data.header_h, stroke=0, fill=1)
    # row boundaries (y from the top of the flowable)
    ys = [height, height - data.header_h]
    base = data.tops[start]
    for i in range(start + 1, stop + 1):
        ys.append(height - data.header_h - (data.tops[i] - base))
    canv.setStrokeGray(_GRID_GREY)
    canv.setLineWidth(_GRID_WIDTH)
    grid = [f"0 {y:.2f} m {width:.2f} {y:.2f} l" for y in ys]
    grid += [f"{x:.2f} {ys[-1]:.2f} m {x:.2f} {height:.2f} l" for x in xs]
    canv.addLiteral("\n".join(grid) + "\nS")
    canv.setFillGray(0)
    # The text as raw PDF operators: one text object, a text matrix per line.
    # Printable ASCII is escaped here; any other text goes through reportlab's
    # encoder (WinAnsi and the substitution fonts), as a platypus table would.
    fonts = {f: canv._doc.getInternalFontName(f) for f in (_CELL_FONT, _CELL_BOLD)}
    encoder = canv.beginText()
    ops = ["BT"]
    add = ops.append
    # left edges of the text, as the start of a text matrix
    left = [f"1 0 0 1 {x + _PAD_X:.2f} " for x in xs[:-1]]
    rights = [xs[c + 1] - _PAD_X if c in data.right else None for c in range(len(data.widths))]
    lead = _CELL_LEADING

    # Caches of this page: the shown text of a line in the current font (the
    # encoder may register a substitution font with the page's document) and,
    # per font and right-aligned column, the text matrix start of a line.
    shown: dict[str, str] = {}
    placed: list[dict[str, str]] = []

    def font(bold: bool) -> _Measure:
        name = _CELL_BOLD if bold else _CELL_FONT
        add(f"{fonts[name]} {_CELL_SIZE:g} Tf {lead:g} TL")
        encoder.setFont(name, _CELL_SIZE, lead)
        shown.clear()
        placed[:] = [{} for _ in rights]
        return data.measure_bold if bold else data.measure

    def show(line: str) -> str:
        """``" Tm (text) Tj"``: the text operator of a line in the current font."""
        if line.isascii() and line.isprintable():
            esc = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            op = f" Tm ({esc}) Tj"
        else:
            op = f" Tm {encoder._formatText(line)}"
        shown[line] = op
        return op

    def put(
        cells: list[list[str]], top: float, measure: _Measure, right: list[float | None]
    ) -> None:
        first = top - _PAD_Y - _CELL_SIZE
        y_first = f"{first:.2f}"
        for c, lines in enumerate(cells):
            edge = right[c]
            if len(lines) == 1:  # most cells: one line at the first baseline
                line = lines[0]
                if not line:
                    continue
                if edge is None:
                    at = left[c]
                else:
                    at = placed[c].get(line) or placed[c].setdefault(
                        line, f"1 0 0 1 {edge - measure(line):.2f} "
                    )
                add(f"{at}{y_first}{shown.get(line) or show(line)}")
                continue
            y = first
            for line in lines:
                if line:
                    at = left[c] if edge is None else f"1 0 0 1 {edge - measure(line):.2f} "
                    add(f"{at}{y:.2f}{shown.get(line) or show(line)}")
                y -= lead

    put(data.header, height, font(True), [None] * len(rights))
    measure = font(False)
    bold_at = len(data.rows) - 1 if data.bold_last else -1
    for i in range(start, stop):
        if i == bold_at:
            measure = font(True)
        put(data.rows[i], ys[i - start + 1], measure, rights)
    ops.append("ET")
    canv.addLiteral("\n".join(ops))
    canv.restoreState()
