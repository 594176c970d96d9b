"""One small document model, rendered to DOCX (python-docx) and PDF (reportlab).

A document is a list of blocks; the certification and the exhibits are written
once as blocks and rendered twice, so the DOCX and the PDF always say the same.
Both renderers are deterministic (fixed dates, reportlab's invariant mode).
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape as xml_escape

from pipeline.documents._common import stable_zip, write_bytes


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
            _docx_table(d, block, usable)
        elif isinstance(block, PageBreak):
            d.add_page_break()  # type: ignore[no-untyped-call]
    buf = io.BytesIO()
    d.save(buf)
    return write_bytes(path, stable_zip(buf.getvalue(), when=doc.when))


def _docx_table(d: Any, block: Table, usable_in: float) -> None:
    """Append a table as one piece of WordprocessingML (fast for thousands of rows)."""
    from docx.oxml import parse_xml

    total_w = sum(block.widths) or 1.0
    twips = [int(usable_in * 1440 * w / total_w) for w in block.widths]
    rows = [block.header, *block.rows]
    last = len(rows) - 1
    out = [
        f'<w:tbl {_W_NS}><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="{sum(twips)}" '
        'w:type="dxa"/><w:tblLayout w:type="fixed"/></w:tblPr><w:tblGrid>',
        *(f'<w:gridCol w:w="{t}"/>' for t in twips),
        "</w:tblGrid>",
    ]
    for r, row in enumerate(rows):
        bold = "<w:b/>" if r == 0 or (block.totals and r == last) else ""
        head = "<w:trPr><w:tblHeader/></w:trPr>" if r == 0 else ""
        out.append(f"<w:tr>{head}")
        for c, text in enumerate(row):
            jc = '<w:jc w:val="right"/>' if c in block.right and r > 0 else ""
            out.append(
                f'<w:tc><w:tcPr><w:tcW w:w="{twips[c]}" w:type="dxa"/></w:tcPr>'
                f'<w:p><w:pPr><w:spacing w:after="0"/>{jc}</w:pPr><w:r><w:rPr>{bold}'
                f'<w:sz w:val="16"/></w:rPr><w:t xml:space="preserve">{xml_escape(str(text))}'
                "</w:t></w:r></w:p></w:tc>"
            )
        out.append("</w:tr>")
    out.append("</w:tbl>")
    body = d.element.body
    body.insert(len(body) - 1, parse_xml("".join(out)))  # before the final sectPr
    d.add_paragraph()


_W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


# --- PDF ----------------------------------------------------------------------------


def render_pdf(doc: Document, path: Path) -> Path:
    """Write ``doc`` as PDF with reportlab (invariant mode: byte-stable)."""
    from reportlab.lib import colors
    from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
    from reportlab.lib.pagesizes import landscape, letter
    from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
    from reportlab.lib.units import inch
    from reportlab.platypus import (
        LongTable,
        Paragraph,
        Preformatted,
        SimpleDocTemplate,
        Spacer,
        TableStyle,
    )
    from reportlab.platypus import (
        PageBreak as RLPageBreak,
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
    cell = ParagraphStyle(
        "cell",
        parent=body,
        fontName="Helvetica",
        fontSize=7,
        leading=8.5,
        spaceAfter=0,
        alignment=TA_LEFT,
    )
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
            data: list[list[object]] = [
                [Paragraph(f"<b>{xml_escape(h)}</b>", cell) for h in block.header]
            ]
            for row in block.rows:
                data.append(
                    [
                        Paragraph(xml_escape(str(v)), cell) if i in block.wrap else str(v)
                        for i, v in enumerate(row)
                    ]
                )
            t = LongTable(data, colWidths=widths, repeatRows=1)
            style = [
                ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
                ("FONT", (0, 1), (-1, -1), "Helvetica", 7),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ]
            for i in block.right:
                style.append(("ALIGN", (i, 1), (i, -1), "RIGHT"))
            if block.totals and block.rows:
                style.append(("FONT", (0, -1), (-1, -1), "Helvetica-Bold", 7))
            t.setStyle(TableStyle(style))
            story.append(t)
            story.append(Spacer(1, 8))
    template.build(story)
    return write_bytes(path, buf.getvalue())
