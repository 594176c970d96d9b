"""Exhibits of the petition (§ 2-202.1.c): the territory and its regular inhabitants.

- c(1) description of the territory: the metes-and-bounds text computed by
  :func:`pipeline.geometry.metes.describe_territory`, as plain text and DOCX;
  with a street-centreline layer, also the description by reference to streets
  (c(1)(b), :func:`pipeline.geometry.streets.describe_streets`), as plain text
  and as the second section of the DOCX.
- c(2) list of the regular inhabitants: the persons the evaluation placed in
  the territory (status ``inside`` of the inhabitant schedule), as PDF and CSV.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from pipeline.documents._common import town_label, write_bytes
from pipeline.documents._render import (
    Document,
    Heading,
    Mono,
    PageBreak,
    Para,
    Table,
    Title,
    render_docx,
    render_pdf,
)
from pipeline.geometry.metes import MetesAndBounds
from pipeline.geometry.streets import StreetsDescription
from pipeline.io.results import write_csv

__all__ = ["inhabitants_exhibit", "write_description", "write_inhabitants"]


def inhabitants_exhibit(inhabitants: pd.DataFrame) -> pd.DataFrame:
    """The exhibit's rows: number, name, address of each inhabitant placed inside.

    Parameters
    ----------
    inhabitants
        The inhabitant schedule of the evaluation (``status`` per entry).

    Returns
    -------
    pandas.DataFrame
        Columns ``number``, ``name``, ``address``, ``town`` (as written on the
        list) in the order of the list.
    """
    inside = inhabitants.loc[inhabitants["status"].astype("str") == "inside"]
    out = pd.DataFrame(
        {
            "number": range(1, len(inside) + 1),
            "name": inside["name"].astype("str").to_numpy(),
            "address": inside["address"].astype("str").to_numpy(),
            "town": (
                inside["town"].astype("str").to_numpy()
                if "town" in inside.columns
                else [""] * len(inside)
            ),
        }
    )
    return out


def write_inhabitants(
    directory: Path,
    inhabitants: pd.DataFrame | None,
    summary: Mapping[str, Any],
    *,
    when: dt.date,
) -> dict[str, Path]:
    """Write ``exhibit-inhabitants.pdf`` and ``exhibit-inhabitants.csv`` (c(2))."""
    if inhabitants is None:
        return {}
    rows = inhabitants_exhibit(inhabitants)
    population = summary.get("population") or {}
    name = str((summary.get("petition") or {}).get("name", ""))
    regime = str(summary.get("regime", ""))
    doc = Document(title="Exhibit: regular inhabitants", when=when)
    doc.add(
        Title("EXHIBIT — LIST OF REGULAR INHABITANTS"),
        Para(f"Village Law § 2-202.1.c(2) — proposed {name}", align="center"),
        Para(
            "Regular inhabitants of the territory: "
            f"{population.get('regular_inhabitants', len(rows)):,} distinct persons (minimum "
            f"{population.get('minimum', '—')} under the rules of regime {regime}). Entries "
            "of the list found "
            f"outside the territory ({population.get('outside', 0)}), repeated "
            f"({population.get('duplicates', 0)}), that could not be placed "
            f"({population.get('unplaced', 0)}), without a name "
            f"({population.get('without_name', 0)}) or with a name that does not tell who "
            f"it is ({population.get('incomplete_names', 0)}) are not listed here; they are "
            "in inhabitants.csv."
        ),
        Table(
            header=("No.", "Name", "Address", "Town"),
            rows=[
                [f"{n:,}", str(a), str(b), str(c)]
                for n, a, b, c in zip(
                    rows["number"].tolist(),
                    rows["name"].tolist(),
                    rows["address"].tolist(),
                    rows["town"].tolist(),
                    strict=True,
                )
            ],
            widths=(0.6, 2.6, 2.6, 1.2),
            right=(0,),
        ),
    )
    files = {"exhibit-inhabitants.pdf": render_pdf(doc, directory / "exhibit-inhabitants.pdf")}
    write_csv(directory / "exhibit-inhabitants.csv", rows.assign(regime=regime))
    files["exhibit-inhabitants.csv"] = directory / "exhibit-inhabitants.csv"
    return files


def place_words(towns: Sequence[tuple[str, str | None]]) -> str:
    """``[("Harlow", "Columbia"), ("Brinton", "Columbia")]`` →
    ``"the Towns of Harlow and Brinton, County of Columbia"``."""
    names = [n for n, _ in towns]
    counties = sorted({c for _, c in towns if c})
    if len(names) == 1:
        where = f"the {town_label(names[0])}"
    else:
        where = "the Towns of " + ", ".join(names[:-1]) + " and " + names[-1]
    if len(counties) == 1:
        where += f", County of {counties[0]}"
    elif counties:
        where += ", Counties of " + ", ".join(counties[:-1]) + " and " + counties[-1]
    return where


def _add_text(doc: Document, lines: list[str]) -> None:
    """Add a description's lines (after its title line) as headings, paragraphs, courses."""
    para: list[str] = []
    for line in [*lines[1:], ""]:
        if line.strip():
            para.append(line)
            continue
        if para:
            text = " ".join(para)
            if text.startswith(("PARCEL", "EXCEPTION ")):
                doc.add(Heading(text))
            elif text.startswith("THENCE"):
                doc.add(Mono("\n".join(para)))
            else:
                doc.add(Para(text))
            para = []


def _with_note(text: str, note: str) -> bytes:
    """``text`` (ending in a newline) then, after a blank line, ``note``, as UTF-8."""
    if not note:
        return text.encode("utf-8")
    return (text.rstrip("\n") + "\n\n" + note).encode("utf-8")


def write_description(
    directory: Path,
    description: MetesAndBounds | None,
    *,
    when: dt.date,
    problem: str = "",
    streets: StreetsDescription | None = None,
    regime: str = "",
) -> dict[str, Path]:
    """Write ``exhibit-description.txt`` and ``exhibit-description.docx`` (c(1)).

    When the description could not be made (``description`` is ``None``), the
    text file states why. With ``streets`` (the description by reference to
    streets, c(1)(b)), ``exhibit-description-streets.txt`` is written too and
    its text is the second section of the DOCX.

    ``regime`` (the rule set of the petition, rules § 8) is named on a last
    line of each file, after the description proper.
    """
    note = f"(Prepared for the petition under the rules of regime {regime}.)\n" if regime else ""
    txt = directory / "exhibit-description.txt"
    files: dict[str, Path] = {}
    if streets is not None:
        files["exhibit-description-streets.txt"] = write_bytes(
            directory / "exhibit-description-streets.txt", _with_note(streets.text, note)
        )
    if description is None:
        write_bytes(txt, _with_note(f"No metes-and-bounds description: {problem}\n", note))
        return {"exhibit-description.txt": txt, **files}
    write_bytes(txt, _with_note(description.text, note))
    doc = Document(title="Exhibit: description of the territory", when=when)
    doc.add(Title("EXHIBIT — DESCRIPTION OF THE TERRITORY"))
    _add_text(doc, description.text.splitlines())
    doc.add(
        Para(
            f"Error of closure of every course list: at most {description.max_closure_ft:.3f} "
            "feet (bearings and distances as written)."
        )
    )
    if streets is not None:
        doc.add(PageBreak(), Title("DESCRIPTION BY REFERENCE TO STREETS"))
        _add_text(doc, streets.text.splitlines())
    if note:
        doc.add(Para(note.strip()))
    return {
        "exhibit-description.txt": txt,
        "exhibit-description.docx": render_docx(doc, directory / "exhibit-description.docx"),
        **files,
    }
