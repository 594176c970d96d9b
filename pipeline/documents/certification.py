"""The assessor's certification, one per town (Village Law § 2-202.1.d).

- One town, d(1): the total assessed valuation of the territory and the amount
  of it owned by the signers.
- Several towns, d(2): for each town, the total full valuation of the part of
  the territory in that town and the full valuation of it owned by the signers,
  with the equalization rate and the roll year used.

Each certification carries the jurat for the notary and, as an annex, the
parcel schedule of its town. Every figure is taken from the evaluation
(``summary["owner_test"]["parts"]`` and the parcel schedule): nothing is
recomputed here except the annex's column totals.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pandas as pd

from pipeline.documents._common import dollars, fraction, percent, rate, town_label
from pipeline.documents._render import (
    Document,
    Heading,
    PageBreak,
    Para,
    Table,
    Title,
    render_docx,
    render_pdf,
)
from pipeline.keys import label_order
from pipeline.tools.numbers import cents, total

__all__ = [
    "CertificationFigures",
    "certification_document",
    "certification_figures",
    "write_certifications",
]

_BASIS_WORDS = {
    "assessment_total": "total assessed value (roll field assessment_total)",
    "town_taxable_value": "town taxable value (roll field town_taxable_value)",
}


def _is_half(share: float | None) -> bool:
    """Whether a percentage is exactly 50, as the pass rule reads it.

    The owner test's percentages are exactly 50 wherever the verdict reads one
    half (:func:`pipeline.valuation.owner_test`, within ``PASS_REL_TOL``), and
    differ from 50 by more than 5e-11 elsewhere.
    """
    return share == 50.0


def _share(share: float | None) -> str:
    """The signers' share as the certification states it."""
    return f"exactly one half ({percent(share)})" if _is_half(share) else percent(share)


def _being(share: float | None, of: str, whole: float | None) -> str:
    """``being <share> of <of>``; in words where no share can be computed (audit A26 F5).

    A part of no value ($0.00: all exempt, or no parcel but area) has no
    share, and the certification says so rather than swear to a dash.
    """
    if share is None:
        return (
            f"being no computable share of {of}, whose total is {dollars(whole)} "
            "(no percentage can be taken of it)"
        )
    return f"being {_share(share)} of {of}"


def _tie_note(share: float | None, signer: float | None, whole: float | None) -> str:
    """Where the amounts as printed seem to say other than the share (audits A20 O2, A26 F1).

    Each amount is rounded to the cent on its own: at exactly one half,
    $41,297.94 of $82,595.87 doubles to more than the total; just under one
    half (49.9999999 %) the same two amounts may be printed, and just over it
    $41,297.93 of $82,595.87, which doubles to less. Where twice the signers'
    amount as printed does not stand to the total as printed as the share
    stands to 50 %, the certification says which it is, and why the amounts
    seem to say otherwise; at exactly one half it always says "not more than
    one half" (the share fails, however the amounts print); elsewhere it says
    nothing more.
    """
    if share is None or signer is None or whole is None:
        return ""
    half = _is_half(share)
    printed = 2 * cents(signer) - cents(whole)
    if half:
        words = "not more than one half"
    elif share > 50.0:
        if printed > 0:
            return ""
        words = "more than one half"
    else:
        if printed < 0:
            return ""
        words = "less than one half"
    return (
        f", and {words} (each amount above is rounded to the cent on its "
        "own, so that twice the one may differ by a cent from the other)"
    )


@dataclass(frozen=True)
class CertificationFigures:
    """What one assessor certifies, as the evaluation computed it."""

    paragraph: str  # "2-202.1.d(1)" or "2-202.1.d(2)"
    basis: str  # "assessed" (one town) or "full" (several towns)
    territory_name: str
    filed_on: str
    regime: str
    swis: str
    town: str
    county: str | None
    roll_year: int | None
    equalization_rate: float | None
    total_assessed: float
    signer_assessed: float
    total_full: float | None
    signer_full: float | None
    percent: float | None
    value_basis_column: str
    towns_in_territory: int
    #: The year of the town's last completed roll as of the filing date
    #: (summary ``rolls``); None when not recorded.
    last_completed_roll_year: int | None = None
    #: Signature lines of owner pages awaiting review (summary ``review``):
    #: credited nothing in the figures above until decided.
    owner_lines_pending: int = 0


def certification_figures(
    summary: Mapping[str, Any], *, counties: Mapping[str, str | None] | None = None
) -> list[CertificationFigures]:
    """One :class:`CertificationFigures` per town part of the owner test.

    Parameters
    ----------
    summary
        The ``summary.json`` object of the evaluation.
    counties
        County of each town (by SWIS), for the jurat; missing → a blank line.

    Returns
    -------
    list of CertificationFigures
        Empty when the owner test does not apply (no owner allegation, or a
        regime without the owner basis): § 2-202.1.d asks for no certification.
    """
    otest = summary.get("owner_test") or {}
    if not otest.get("applies"):
        return []
    parts = list(otest.get("parts") or [])
    rolls = {str(r["swis"]): r for r in summary.get("rolls") or []}
    several = len(parts) > 1 or otest.get("value_basis") == "full"
    petition = summary.get("petition") or {}
    pending = int((summary.get("review") or {}).get("owner_lines_pending") or 0)
    out: list[CertificationFigures] = []
    for part in parts:
        swis = str(part["swis"])
        roll = rolls.get(swis, {})
        out.append(
            CertificationFigures(
                paragraph="2-202.1.d(2)" if several else "2-202.1.d(1)",
                basis="full" if several else "assessed",
                territory_name=str(petition.get("name", "")),
                filed_on=str(petition.get("filed_on", "")),
                regime=str(summary.get("regime", "")),
                swis=swis,
                town=str(roll.get("name") or swis),
                county=(counties or {}).get(swis),
                roll_year=roll.get("roll_year"),
                last_completed_roll_year=roll.get("last_completed_roll_year"),
                equalization_rate=part.get("equalization_rate", roll.get("equalization_rate")),
                total_assessed=float(part.get("total_assessed") or 0.0),
                signer_assessed=float(part.get("signer_assessed") or 0.0),
                total_full=part.get("total_full"),
                signer_full=part.get("signer_full"),
                percent=part.get("percent"),
                value_basis_column=str(otest.get("value_basis_column", "assessment_total")),
                towns_in_territory=len(parts),
                owner_lines_pending=pending,
            )
        )
    return out


#: Columns of the annex (label, schedule column, formatter, relative width, numeric).
def _count(value: Any) -> str:
    """A number of owners as a whole number (blank when unknown)."""
    number = pd.to_numeric(value, errors="coerce")
    return "" if pd.isna(number) else f"{int(number):,}"


#: The annex's columns of dollars, and those of them totalled: the roll's
#: whole-parcel values are not, since beside the apportioned total certified
#: their sum (of parcels partly outside) would mislead.
_MONEY = frozenset(
    {
        "assessed_value",
        "apportioned_assessed",
        "apportioned_full",
        "signer_credit_assessed",
        "signer_credit_full",
    }
)
_TOTALLED = _MONEY - {"assessed_value"}


def _annex_columns(fig: CertificationFigures) -> list[tuple[str, str, Callable[[Any], str], float]]:
    """The annex's columns: heading, ``parcels.csv`` column, formatter, width."""
    full = fig.basis == "full"
    # under the town taxable basis the roll column read is the taxable value:
    # headed so, so that the assessor compares it with the right roll field
    word = "taxable" if fig.value_basis_column == "town_taxable_value" else "assessed"
    cols: list[tuple[str, str, Callable[[Any], str], float]] = [
        ("SWIS", "swis_code", str, 0.7),
        ("Print key", "print_key_code", str, 1.1),
        ("Owners", "owners", str, 2.4),
        ("No. of owners", "owner_count", _count, 0.6),
        (f"{word.capitalize()} value", "assessed_value", dollars, 1.2),
        ("Fraction in territory", "fraction_in_territory", fraction, 0.9),
        ("Source", "fraction_source", str, 0.7),
        (f"Apportioned {word}", "apportioned_assessed", dollars, 1.2),
    ]
    if full:
        cols.append(("Apportioned full", "apportioned_full", dollars, 1.2))
    cols += [
        ("Signing owners", "signing_owners", str, 1.6),
        (f"Signer credit ({word})", "signer_credit_assessed", dollars, 1.2),
    ]
    if full:
        cols.append(("Signer credit (full)", "signer_credit_full", dollars, 1.2))
    return cols


def _annex(parcels: pd.DataFrame, fig: CertificationFigures) -> Table:
    cols = _annex_columns(fig)
    columns = [
        [formatter(v) for v in (parcels[col].tolist() if col in parcels else [""] * len(parcels))]
        for _label, col, formatter, _width in cols
    ]
    rows: list[list[str]] = [list(r) for r in zip(*columns, strict=True)] if columns else []
    money = _MONEY
    totals = []
    for i, (_, col, _, _) in enumerate(cols):
        if col in _TOTALLED:
            figures = pd.to_numeric(parcels[col], errors="coerce").astype("float64")
            totals.append(dollars(total(figures.tolist())))
        elif i == 0:
            totals.append("Total")
        elif i == 1:
            totals.append(f"{len(parcels):,} records")
        else:
            totals.append("")
    rows.append(totals)
    right = tuple(
        i
        for i, (_, col, _, _) in enumerate(cols)
        if col in money or col in ("fraction_in_territory", "owner_count")
    )
    return Table(
        header=tuple(c[0] for c in cols),
        rows=rows,
        widths=tuple(c[3] for c in cols),
        right=right,
        totals=True,
        wrap=tuple(
            i for i, (_, col, _, _) in enumerate(cols) if col in ("owners", "signing_owners")
        ),
    )


def _rounding_note(parcels: pd.DataFrame, fig: CertificationFigures) -> str:
    """How the annex's rounded lines stand to its totals, column by column (audit A26 F3).

    Each total is the sum of the unrounded amounts (the figure certified),
    rounded once; each line is rounded on its own, by up to half a cent, so
    that the lines as printed may add up to cents more or less (29 cents over
    3,863 lines of one town was seen). The note gives each column's sum of the
    lines as printed where it is not its total, so that nothing in the annex
    disagrees unsaid.
    """
    apart: list[str] = []
    for heading, col, _formatter, _width in _annex_columns(fig):
        if col not in _TOTALLED or col not in parcels:
            continue
        figures = pd.to_numeric(parcels[col], errors="coerce").astype("float64").tolist()
        lines = sum((cents(v) for v in figures if not math.isnan(v)), Decimal(0))
        whole = cents(total(figures))
        if lines != whole:
            gap = lines - whole
            apart.append(
                f'the lines of "{heading}" add up to {dollars(float(lines))}, '
                f"{dollars(float(abs(gap)))} {'more' if gap > 0 else 'less'} than its total"
            )
    said = "here " + "; ".join(apart) + "." if apart else "here they add up to the totals exactly."
    return (
        "Amounts are shown rounded to the cent (half up). Each total is the sum of the "
        "unrounded amounts, rounded once: the figure certified above. Each line is rounded "
        "on its own, by up to half a cent, so that the lines as shown may add up to a little "
        f"more or less than the total: {said}"
    )


def _line(n: int = 30) -> str:
    return "_" * n


def certification_document(
    fig: CertificationFigures, parcels: pd.DataFrame, *, pending_lines: Sequence[str] = ()
) -> Document:
    """The certification of one town as a document (rendered to DOCX and PDF).

    Parameters
    ----------
    fig
        The figures of the town (:func:`certification_figures`).
    parcels
        The parcel schedule (``parcels.csv`` rows) of that town.
    pending_lines
        The owner-page lines awaiting review, as ``page:line`` (named in the
        section "Not yet complete"; without them it gives their number only).
    """
    when = _date(fig.filed_on)
    doc = Document(
        title=f"Assessor's certification — {town_label(fig.town)}", when=when, landscape=True
    )
    town = town_label(fig.town)
    county = fig.county or _line(20)
    roll = f"{fig.roll_year}" if fig.roll_year else _line(6)
    last = fig.last_completed_roll_year
    if last is None or not fig.roll_year or last == fig.roll_year:
        upon = f"the last completed assessment roll of the {town} (the final roll of {roll})"
    else:
        # the roll used is not the one the law names: said, not sworn away
        upon = (
            f"the final assessment roll of {roll} of the {town}, which is not its last "
            f"completed assessment roll as of the filing date (that is the roll of {last})"
        )
    basis_words = _BASIS_WORDS.get(fig.value_basis_column, fig.value_basis_column)
    doc.add(
        Title("CERTIFICATION OF ASSESSOR"),
        Para(f"Village Law § {fig.paragraph}", align="center"),
        Para(
            f"Petition for the incorporation of the proposed {fig.territory_name}",
            bold=True,
            align="center",
        ),
        Para(f"{town} (SWIS {fig.swis}), County of {county}, State of New York", align="center"),
        Heading("Certification"),
        Para(
            f"I, {_line(36)}, an assessor of the {town}, County of {county}, State of New "
            f"York, being duly sworn, certify as follows upon {upon}, "
            f"valued on the basis of the {basis_words}:"
        ),
    )
    # under the town taxable basis, "assessed valuation" is measured by that value
    measured = (
        " (measured by the town taxable value)"
        if fig.value_basis_column == "town_taxable_value"
        else ""
    )
    if fig.basis == "assessed":
        doc.add(
            Para(
                f"1. The total assessed valuation{measured} of the real property in the "
                f"territory of the proposed {fig.territory_name}, as described in the exhibit "
                f"annexed to the petition, is {dollars(fig.total_assessed)}."
            ),
            Para(
                "2. The correct total amount of that assessed valuation owned by the signers "
                f"of the petition is {dollars(fig.signer_assessed)}, "
                + _being(
                    fig.percent,
                    "the total assessed valuation of the territory",
                    fig.total_assessed,
                )
                + f"{_tie_note(fig.percent, fig.signer_assessed, fig.total_assessed)}."
            ),
        )
    else:
        doc.add(
            Para(
                f"1. The territory of the proposed {fig.territory_name} lies in "
                f"{fig.towns_in_territory} towns. The equalization rate of the {town} for the "
                f"roll year {roll} is {rate(fig.equalization_rate)}; full valuation = assessed "
                "valuation ÷ (equalization rate ÷ 100)."
            ),
            Para(
                f"2. The total full valuation of that portion of the territory located in the "
                f"{town} is {dollars(fig.total_full)} (total assessed valuation{measured} "
                f"{dollars(fig.total_assessed)})."
            ),
            Para(
                "3. The correct total amount of full valuation of real property in the "
                f"territory and in the {town} owned by the signers of the petition is "
                f"{dollars(fig.signer_full)} (assessed valuation{measured} "
                f"{dollars(fig.signer_assessed)}), "
                + _being(fig.percent, "the full valuation of that portion", fig.total_full)
                + f"{_tie_note(fig.percent, fig.signer_full, fig.total_full)}."
            ),
        )
    open_items = _open_items(fig, parcels, pending_lines)
    if open_items:
        doc.add(
            Heading("Not yet complete"),
            *(Para(item) for item in open_items),
        )
    doc.add(
        Para(
            "Where a parcel lies partly in the territory, its assessed value has been "
            "apportioned to the part in the territory (§ 2-202.1.a(2)); co-owners are each "
            "credited the value divided by the number of owners. The apportionment and the "
            "credit of every parcel are shown in the annexed schedule."
        ),
        Para(
            f"{_line(40)}\nAssessor, {town}          Printed name: {_line(32)}"
            f"          Date: {_line(20)}"
        ),
        Heading("Jurat"),
        Para(
            f"STATE OF NEW YORK\nCOUNTY OF {fig.county.upper() if fig.county else _line(20)}"
            "          ss.:"
        ),
        Para(
            f"Sworn to before me this ___ day of ______, 20__\n\n{_line(40)}\n"
            "Notary Public, State of New York"
        ),
        PageBreak(),
        Para(
            f"Prepared from the petition computation (regime {fig.regime}; petition filed "
            f"{fig.filed_on}) for the assessor's review. The figures are the assessor's to "
            "certify.",
            align="left",
        ),
        Heading(f"Annex: parcel schedule of the {town} (SWIS {fig.swis}), roll year {roll}"),
        _annex(parcels, fig),
        Para(_rounding_note(parcels, fig), align="left"),
    )
    return doc


def _open_items(
    fig: CertificationFigures, parcels: pd.DataFrame, pending_lines: Sequence[str]
) -> list[str]:
    """What the figures above leave open, said in the certification itself.

    A roll record of the town without a polygon and without the assessor's
    apportionment is counted at $0 (the deficiency ``unapportioned_records``),
    and a line of an owner page awaiting review is credited nothing: the
    assessor must not swear to totals that still leave them out unsaid. Each
    is named (audit A26 F2: the records past the tenth were "and 5 more", the
    lines only counted).
    """
    items: list[str] = []
    source = parcels["fraction_source"].astype("str") if "fraction_source" in parcels else None
    if source is not None and (source == "unmapped").any():
        rows = parcels.loc[source == "unmapped"]
        labels = sorted(
            (rows["swis_code"].astype("str") + ":" + rows["print_key_code"].astype("str")).tolist(),
            key=label_order,
        )
        shown = ", ".join(labels)
        items.append(
            f"{len(labels):,} roll record(s) of the {town_label(fig.town)} have no parcel "
            f'polygon and no apportionment by the assessor ({shown}; source "unmapped" in '
            "the annex): they are counted above at $0.00. The assessor must apportion the part "
            "of each in the territory (§ 2-202.1.a(2)) before this certification is sworn."
        )
    if fig.owner_lines_pending:
        named = (
            f"page:line {', '.join(pending_lines)}; review.csv"
            if len(pending_lines) == fig.owner_lines_pending
            else "review.csv"
        )
        items.append(
            f"{fig.owner_lines_pending:,} signature line(s) of the owner pages of the petition "
            f"await review ({named}) and no valuation is credited to them in the amount owned "
            "by the signers above: it may rise when they are decided."
        )
    return items


def _pending_lines(signatures: pd.DataFrame | None) -> tuple[str, ...]:
    """``page:line`` of each owner-page line awaiting review (``signatures.csv`` rows)."""
    if signatures is None or not len(signatures) or "status" not in signatures:
        return ()
    basis = signatures["basis"].astype("str") if "basis" in signatures else None
    pending = signatures["status"].astype("str") == "needs_review"
    if basis is not None:
        pending &= basis == "owners"
    rows = signatures.loc[pending]
    return tuple(
        f"{p}:{ln}"
        for p, ln in zip(rows["page"].astype("str"), rows["line"].astype("str"), strict=True)
    )


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return dt.date(2000, 1, 1)


def write_certifications(
    directory: Path,
    summary: Mapping[str, Any],
    parcels: pd.DataFrame,
    *,
    counties: Mapping[str, str | None] | None = None,
    signatures: pd.DataFrame | None = None,
) -> dict[str, Path]:
    """Write ``certification-<swis>.docx`` and ``.pdf`` for each town part.

    ``signatures`` (the ``signatures.csv`` rows) names the owner-page lines
    awaiting review in each certification's "Not yet complete".

    Returns
    -------
    dict of str to Path
        The files written, by file name (empty when no certification applies).
    """
    files: dict[str, Path] = {}
    town_col = parcels["town_swis"].astype("str") if "town_swis" in parcels else None
    pending = _pending_lines(signatures)
    for fig in certification_figures(summary, counties=counties):
        own = parcels.loc[town_col == fig.swis] if town_col is not None else parcels.iloc[0:0]
        doc = certification_document(fig, own, pending_lines=pending)
        for ext, render in (("docx", render_docx), ("pdf", render_pdf)):
            name = f"certification-{fig.swis}.{ext}"
            files[name] = render(doc, directory / name)
    return files
