"""The filing package (§ 2-202.1.c, d): documents read back carry the figures."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import docx
import openpyxl
import pandas as pd
import pytest
from pypdf import PdfReader

from pipeline.documents._common import county_of_swis, dollars, percent, stable_zip
from pipeline.documents.certification import certification_figures, write_certifications
from pipeline.documents.report import render_report
from pipeline.documents.schedules import write_schedule_xlsx, write_schedules
from pipeline.evaluate import PARCEL_SCHEDULE_COLUMNS

WHEN = dt.date(2023, 6, 1)


def docx_text(path: Path) -> str:
    d = docx.Document(str(path))
    parts = [p.text for p in d.paragraphs]
    for table in d.tables:
        for row in table.rows:
            parts.append(" | ".join(c.text for c in row.cells))
    return "\n".join(parts)


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(str(path)).pages)


def _parcel(
    swis: str,
    pk: str,
    town: str,
    value: float,
    frac: float,
    rate: float,
    credit: float,
    owners: str = "A OWNER",
    signer: str = "",
) -> dict[str, Any]:
    app = value * frac
    return {
        "swis_code": swis,
        "print_key_code": pk,
        "town_swis": town,
        "roll_section": 1,
        "owners": owners,
        "owner_count": 1,
        "assessed_value": value,
        "fraction_in_territory": frac,
        "fraction_source": "geometry",
        "apportioned_assessed": app,
        "equalization_rate": rate,
        "apportioned_full": app / (rate / 100),
        "signing_owners": signer,
        "signer_credit_assessed": credit,
        "signer_credit_full": credit / (rate / 100),
        "value_basis": "assessment_total",
        "roll_row": 1,
    }


def _summary(parts: list[dict[str, Any]], rolls: list[dict[str, Any]]) -> dict[str, Any]:
    several = len(parts) > 1
    return {
        "regime": "2-202-pre-2024",
        "petition": {"name": "Village of Test", "filed_on": "2023-06-01", "bases": ["owners"]},
        "territory": {"square_miles": 1.0, "towns": [], "includes_existing_village": False},
        "rolls": rolls,
        "owner_test": {
            "applies": True,
            "value_basis": "full" if several else "assessed",
            "parts": parts,
            "value_basis_column": "assessment_total",
            "total_value": 0.0,
            "signer_value": 0.0,
            "percent": 0.0,
            "passes": False,
        },
        "deficiencies": [],
        "sufficient": False,
    }


def test_formatting() -> None:
    assert dollars(1234567.891) == "$1,234,567.89"
    assert dollars(float("nan")) == "—"
    assert percent(49.99993750015625) == "49.9999 %"
    assert county_of_swis("104400") == "Columbia"  # 10 = Columbia (alphabetical)
    assert county_of_swis("404400") == "St. Lawrence"
    assert county_of_swis("014400") == "Albany"


def test_certification_one_town(tmp_path: Path) -> None:
    # parcel A: 100,000.00 wholly inside, signed for → credit 100,000.00
    # parcel B: 200,000.50 half inside → 100,000.25, not signed
    # total assessed = 200,000.25; signers 100,000.00;
    # percent = 100,000 / 200,000.25 × 100 = 49.99993750... → "49.9999 %"
    parcels = pd.DataFrame(
        [
            _parcel(
                "104489", "1.-1-1", "104400", 100_000.0, 1.0, 100.0, 100_000.0, signer="A OWNER"
            ),
            _parcel(
                "104489", "1.-1-2", "104400", 200_000.50, 0.5, 100.0, 0.0, owners="=HYPERLINK(x)"
            ),
        ],
        columns=list(PARCEL_SCHEDULE_COLUMNS),
    )
    part = {
        "swis": "104400",
        "equalization_rate": 100.0,
        "total_assessed": 200_000.25,
        "signer_assessed": 100_000.0,
        "total_full": 200_000.25,
        "signer_full": 100_000.0,
        "percent": 100_000.0 / 200_000.25 * 100,
        "passes": False,
    }
    summary = _summary(
        [part],
        [{"swis": "104400", "name": "Harlow", "roll_year": 2022, "equalization_rate": 100.0}],
    )
    figs = certification_figures(summary)
    assert [f.paragraph for f in figs] == ["2-202.1.d(1)"]
    files = write_certifications(tmp_path, summary, parcels, counties={"104400": "Columbia"})
    assert sorted(files) == ["certification-104400.docx", "certification-104400.pdf"]
    for text in (
        docx_text(files["certification-104400.docx"]),
        pdf_text(files["certification-104400.pdf"]),
    ):
        flat = " ".join(text.split())
        assert "2-202.1.d(1)" in flat
        assert "total assessed valuation" in flat
        assert "$200,000.25" in flat and "$100,000.00" in flat
        assert "49.9999 %" in flat
        assert "Town of Harlow" in flat and "2022" in flat
        assert "STATE OF NEW YORK" in flat and "COUNTY OF COLUMBIA" in flat and "ss.:" in flat
        assert "Sworn to before me this ___ day of ______, 20__" in flat
        # annex: the print keys and the half-apportioned value 100,000.25
        assert "1.-1-2" in flat and "0.500000" in flat
        # the roll's whole-parcel values (100,000 + 200,000.50) are not totalled
        assert "$300,000.50" not in flat


def test_certification_says_what_it_leaves_open_and_its_basis(tmp_path: Path) -> None:
    # parcel A: 80,000 (the town taxable value of a parcel assessed 100,000),
    # wholly inside, 4 owners by an override, one signs: credit 80,000 / 4 = 20,000.
    # record U: a utility without a polygon and without the assessor's
    # apportionment: counted at 0, to be apportioned. 3 owner lines await review.
    a = _parcel("104489", "1.-1-1", "104400", 80_000.0, 1.0, 100.0, 20_000.0, signer="A OWNER")
    a.update(owner_count=4, value_basis="town_taxable_value")
    u = _parcel("104489", "1.-99-2", "104400", 300_000.0, 0.0, 100.0, 0.0, owners="UTILITY INC")
    u.update(fraction_source="unmapped", value_basis="town_taxable_value")
    parcels = pd.DataFrame([a, u], columns=list(PARCEL_SCHEDULE_COLUMNS))
    part = {
        "swis": "104400",
        "equalization_rate": 100.0,
        "total_assessed": 80_000.0,
        "signer_assessed": 20_000.0,
        "total_full": 80_000.0,
        "signer_full": 20_000.0,
        "percent": 25.0,  # 20,000 / 80,000
        "passes": False,
    }
    summary = _summary(
        [part],
        [{"swis": "104400", "name": "Harlow", "roll_year": 2022, "equalization_rate": 100.0}],
    )
    summary["owner_test"]["value_basis_column"] = "town_taxable_value"
    summary["review"] = {"lines_pending": 5, "owner_lines_pending": 3, "resident_lines_pending": 2}
    files = write_certifications(tmp_path, summary, parcels)
    for text in (
        docx_text(files["certification-104400.docx"]),
        pdf_text(files["certification-104400.pdf"]),
    ):
        flat = " ".join(text.split())
        assert "total assessed valuation (measured by the town taxable value)" in flat
        assert "Taxable value" in flat and "Signer credit (taxable)" in flat
        assert "Assessed value" not in flat
        assert "No. of owners" in flat
        assert "Not yet complete" in flat
        assert "1 roll record(s) of the Town of Harlow have no parcel polygon" in flat
        assert "104489:1.-99-2" in flat
        assert "3 signature line(s) of the owner pages" in flat
    # nothing open: no such section
    parcels_done = pd.DataFrame([a], columns=list(PARCEL_SCHEDULE_COLUMNS))
    summary["review"] = {"lines_pending": 0, "owner_lines_pending": 0, "resident_lines_pending": 0}
    (tmp_path / "done").mkdir()
    done = write_certifications(tmp_path / "done", summary, parcels_done)
    assert "Not yet complete" not in docx_text(done["certification-104400.docx"])


def test_annex_and_schedule_totals_are_the_certified_figure(tmp_path: Path) -> None:
    # the assessor's fractions 0.589, 0.237 and 0.673 of 155,393, 424,764 and
    # 63,070: 91,526.477 + 100,669.068 + 42,446.11 = 234,641.655 exactly, which
    # rounds half up to $234,641.66 (the figure certified, summed exactly). Summed
    # left to right in binary the same three give 234,641.65499999997: $234,641.65.
    # The annex's total row and the XLSX total must read $234,641.66 too
    values = [(155_393.0, 0.589), (424_764.0, 0.237), (63_070.0, 0.673)]
    parcels = pd.DataFrame(
        [
            _parcel("104489", f"1.-1-{i}", "104400", v, f, 100.0, 0.0)
            for i, (v, f) in enumerate(values, start=1)
        ],
        columns=list(PARCEL_SCHEDULE_COLUMNS),
    )
    amounts = parcels["apportioned_assessed"].tolist()
    assert sum(amounts) < 234_641.655  # what a plain sum gives
    total = 234_641.655
    part = {
        "swis": "104400",
        "equalization_rate": 100.0,
        "total_assessed": total,
        "signer_assessed": 0.0,
        "total_full": total,
        "signer_full": 0.0,
        "percent": 0.0,
        "passes": False,
    }
    summary = _summary(
        [part],
        [{"swis": "104400", "name": "Harlow", "roll_year": 2022, "equalization_rate": 100.0}],
    )
    files = write_certifications(tmp_path, summary, parcels)
    for text in (
        docx_text(files["certification-104400.docx"]),
        pdf_text(files["certification-104400.pdf"]),
    ):
        flat = " ".join(text.split())
        assert "$234,641.66" in flat and "$234,641.65" not in flat
        # the lines as shown, $91,526.48 + $100,669.07 + $42,446.11 = $234,641.66
        assert "here they add up to the totals exactly" in flat
    path = write_schedule_xlsx(
        tmp_path / "s.xlsx",
        parcels[["print_key_code", "apportioned_assessed"]],
        sheet="S",
        title="t",
        when=WHEN,
        totals=("apportioned_assessed",),
    )
    ws = openpyxl.load_workbook(path).active
    assert ws is not None
    assert ws.cell(row=5, column=1).value == "Total"
    assert ws.cell(row=5, column=2).value == 234_641.655


def test_schedule_totals_across_towns_are_of_full_values_only(tmp_path: Path) -> None:
    # two towns: 100,000 assessed at rate 100 (full 100,000) and 80,000 at rate
    # 50 (full 160,000). Full values add up: 260,000. Assessed values of two
    # rates do not (180,000 would mean nothing): their totals are blank
    parcels = pd.DataFrame(
        {
            "town_swis": ["104400", "104600"],
            "apportioned_assessed": [100_000.0, 80_000.0],
            "apportioned_full": [100_000.0, 160_000.0],
        }
    )
    signatures = pd.DataFrame({"credit_assessed": [0.0], "credit_full": [0.0]})
    files = write_schedules(tmp_path, parcels=parcels, signatures=signatures, when=WHEN)
    ws = openpyxl.load_workbook(files["schedule-parcels.xlsx"]).active
    assert ws is not None
    total = [c.value for c in ws[ws.max_row]]
    assert total == ["Total", None, 260_000.0]  # town_swis, assessed, full
    # one town: the apportioned values add up; the roll's whole-parcel value
    # (400,000 of a parcel a quarter inside) is no figure of the territory: not
    # totalled beside them
    one = parcels.iloc[[0]].assign(assessed_value=[400_000.0])
    files = write_schedules(tmp_path, parcels=one, signatures=signatures, when=WHEN)
    ws = openpyxl.load_workbook(files["schedule-parcels.xlsx"]).active
    assert ws is not None
    assert [c.value for c in ws[ws.max_row]] == ["Total", 100_000.0, 100_000.0, None]


def test_a_total_with_a_figure_unknown_is_blank(tmp_path: Path) -> None:
    # one town without an equalization rate: the full value of a counted line
    # is unknown (blank); a line not counted is credited 0, whatever the rate.
    # 100,000 + unknown is unknown: the total is blank, not $0.00
    signatures = pd.DataFrame(
        {"status": ["counted", "not_owner"], "credit_assessed": [100_000.0, 0.0]}
    ).assign(credit_full=[float("nan"), 0.0])
    parcels = pd.DataFrame({"town_swis": ["104400"], "apportioned_assessed": [100_000.0]}).assign(
        apportioned_full=[float("nan")]
    )
    files = write_schedules(tmp_path, parcels=parcels, signatures=signatures, when=WHEN)
    ws = openpyxl.load_workbook(files["schedule-signatures.xlsx"]).active
    assert ws is not None
    assert [c.value for c in ws[ws.max_row]] == ["Total", 100_000.0, None]
    ws = openpyxl.load_workbook(files["schedule-parcels.xlsx"]).active
    assert ws is not None
    assert [c.value for c in ws[ws.max_row]] == ["Total", 100_000.0, None]


def test_certification_two_towns(tmp_path: Path) -> None:
    # town 104400 (rate 100): assessed 200,000.25 = full 200,000.25; signers 100,000.00
    # town 104600 (rate 50): assessed 80,000 → full 80,000 / 0.5 = 160,000.00;
    #   signers assessed 50,000 → full 100,000.00; 100,000 / 160,000 = 62.5 %
    parcels = pd.DataFrame(
        [
            _parcel("104489", "1.-1-1", "104400", 100_000.0, 1.0, 100.0, 100_000.0),
            _parcel("104489", "1.-1-2", "104400", 200_000.50, 0.5, 100.0, 0.0),
            _parcel("104689", "9.-1-1", "104600", 80_000.0, 1.0, 50.0, 50_000.0),
        ],
        columns=list(PARCEL_SCHEDULE_COLUMNS),
    )
    parts = [
        {
            "swis": "104400",
            "equalization_rate": 100.0,
            "total_assessed": 200_000.25,
            "signer_assessed": 100_000.0,
            "total_full": 200_000.25,
            "signer_full": 100_000.0,
            "percent": 49.99993750015625,
            "passes": False,
        },
        {
            "swis": "104600",
            "equalization_rate": 50.0,
            "total_assessed": 80_000.0,
            "signer_assessed": 50_000.0,
            "total_full": 160_000.0,
            "signer_full": 100_000.0,
            "percent": 62.5,
            "passes": True,
        },
    ]
    rolls = [
        {"swis": "104400", "name": "Harlow", "roll_year": 2022, "equalization_rate": 100.0},
        {"swis": "104600", "name": "Brinton", "roll_year": 2021, "equalization_rate": 50.0},
    ]
    files = write_certifications(tmp_path, _summary(parts, rolls), parcels)
    assert sorted(files) == [
        "certification-104400.docx",
        "certification-104400.pdf",
        "certification-104600.docx",
        "certification-104600.pdf",
    ]
    for name in ("certification-104600.docx", "certification-104600.pdf"):
        reader = docx_text if name.endswith("docx") else pdf_text
        flat = " ".join(reader(files[name]).split())
        assert "2-202.1.d(2)" in flat
        assert "total full valuation" in flat
        assert "$160,000.00" in flat and "$100,000.00" in flat
        assert "$80,000.00" in flat and "$50,000.00" in flat
        assert "50.0000 %" in flat and "62.5000 %" in flat
        assert "Town of Brinton" in flat and "2021" in flat
        assert "COUNTY OF ____" in flat  # no county given: a blank line for the notary
        assert "9.-1-1" in flat and "1.-1-2" not in flat  # only this town's annex
    # under the town taxable basis both items name the value they are measured by
    summary = _summary(parts, rolls)
    summary["owner_test"]["value_basis_column"] = "town_taxable_value"
    (tmp_path / "taxable").mkdir()
    files = write_certifications(tmp_path / "taxable", summary, parcels)
    flat = " ".join(docx_text(files["certification-104600.docx"]).split())
    measured = "(measured by the town taxable value)"
    assert f"total assessed valuation {measured} $80,000.00" in flat
    assert f"assessed valuation {measured} $50,000.00" in flat


def test_a_part_of_exactly_half_is_certified_as_not_more_than_half(tmp_path: Path) -> None:
    # audit A20 O2: 28,000 assessed at rate 33.9 = 28,000 / 0.339 = $82,595.870206...
    # in full; the signers' 14,000 = $41,297.935103..., printed $41,297.94, twice
    # which ($82,595.88) reads as more than the total's $82,595.87. The holdings
    # are exactly half (the part fails); binary arithmetic gave 50.00000000000001,
    # which the owner test gives as 50 exactly (within its pass tolerance)
    parcels = pd.DataFrame(
        [
            _parcel("104489", "1.-1-1", "104400", 10_000.0, 1.0, 100.0, 10_000.0),
            _parcel("104689", "2.-1-2", "104600", 14_000.0, 1.0, 33.9, 14_000.0),
            _parcel("104689", "2.-1-3", "104600", 14_000.0, 1.0, 33.9, 0.0),
        ],
        columns=list(PARCEL_SCHEDULE_COLUMNS),
    )
    parts = [
        {
            "swis": "104400",
            "equalization_rate": 100.0,
            "total_assessed": 10_000.0,
            "signer_assessed": 10_000.0,
            "total_full": 10_000.0,
            "signer_full": 10_000.0,
            "percent": 100.0,
            "passes": True,
        },
        {
            "swis": "104600",
            "equalization_rate": 33.9,
            "total_assessed": 28_000.0,
            "signer_assessed": 14_000.0,
            "total_full": 28_000 / 0.339,
            "signer_full": 14_000 / 0.339,
            "percent": 50.0,
            "passes": False,
        },
    ]
    rolls = [
        {"swis": "104400", "name": "Harlow", "roll_year": 2022, "equalization_rate": 100.0},
        {"swis": "104600", "name": "Brinton", "roll_year": 2022, "equalization_rate": 33.9},
    ]
    files = write_certifications(tmp_path, _summary(parts, rolls), parcels)
    flat = " ".join(docx_text(files["certification-104600.docx"]).split())
    assert "$82,595.87" in flat and "$41,297.94" in flat
    assert "being exactly one half (50.0000 %) of the full valuation of that portion" in flat
    assert "and not more than one half (each amount above is rounded to the cent" in flat


@pytest.mark.parametrize(
    ("signer", "whole", "passes", "amounts", "share", "said"),
    [
        # audit A26 F1, just under one half: 41,297.935 of 82,595.8702 (half:
        # 41,297.9351) = 50 - 100 x 0.0001 / 82,595.8702 = 49.99999988 %, printed
        # 49.9999999 %, fails; printed $41,297.94 (half up) of $82,595.87,
        # twice which ($82,595.88) reads as more than the total
        (41_297.935, 82_595.8702, False, ("$41,297.94", "$82,595.87"), "49.9999999", "less"),
        # just over: 41,297.934 of 82,595.865 (half: 41,297.9325) = 50 + 100 x
        # 0.0015 / 82,595.865 = 50.0000018 %, printed 50.000002 %, passes;
        # printed $41,297.93 of $82,595.87, twice which ($82,595.86) reads as less
        (41_297.934, 82_595.865, True, ("$41,297.93", "$82,595.87"), "50.000002", "more"),
    ],
)
def test_amounts_that_read_otherwise_than_the_share_are_explained(
    tmp_path: Path,
    signer: float,
    whole: float,
    passes: bool,
    amounts: tuple[str, str],
    share: str,
    said: str,
) -> None:
    parcels = pd.DataFrame(
        [
            _parcel("104489", "1.-1-1", "104400", signer, 1.0, 100.0, signer, signer="A OWNER"),
            _parcel("104489", "1.-1-2", "104400", whole - signer, 1.0, 100.0, 0.0),
        ],
        columns=list(PARCEL_SCHEDULE_COLUMNS),
    )
    part = {
        "swis": "104400",
        "equalization_rate": 100.0,
        "total_assessed": whole,
        "signer_assessed": signer,
        "total_full": whole,
        "signer_full": signer,
        "percent": 100.0 * signer / whole,
        "passes": passes,
    }
    rolls = [{"swis": "104400", "name": "Harlow", "roll_year": 2022, "equalization_rate": 100.0}]
    files = write_certifications(tmp_path, _summary([part], rolls), parcels)
    flat = " ".join(docx_text(files["certification-104400.docx"]).split())
    assert all(a in flat for a in amounts)
    assert f"being {share}" in flat and "exactly one half" not in flat
    assert f"and {said} than one half (each amount above is rounded to the cent" in flat
    # where the amounts as printed say what the share says: no such words
    part = {**part, "signer_assessed": 30_000.0, "percent": 100.0 * 30_000.0 / whole}
    (tmp_path / "plain").mkdir()
    files = write_certifications(tmp_path / "plain", _summary([part], rolls), parcels)
    assert "rounded to the cent on its own" not in docx_text(files["certification-104400.docx"])


def test_what_is_open_is_named_and_the_annex_lines_are_accounted_for(tmp_path: Path) -> None:
    # audit A26 F2: 12 records without polygon, every one named (not "and 2
    # more"); the owner lines awaiting review named by page and line, the
    # resident line awaiting review not (it credits no value). F3: three lines
    # of 100.005 each show $100.01 (half up): $300.03; their total 300.015 shows
    # $300.02, and the note says so. F4: a rate of 33.333333 is printed as given.
    lines = [_parcel("104489", f"1.-1-{i}", "104400", 100.005, 1.0, 100.0, 0.0) for i in (1, 2, 3)]
    unmapped = []
    for i in range(1, 13):
        u = _parcel("104489", f"888.500-1-{i}", "104400", 1_000.0, 0.0, 100.0, 0.0)
        u["fraction_source"] = "unmapped"
        unmapped.append(u)
    parcels = pd.DataFrame(lines + unmapped, columns=list(PARCEL_SCHEDULE_COLUMNS))
    part = {
        "swis": "104400",
        "equalization_rate": 100.0,
        "total_assessed": 300.015,
        "signer_assessed": 0.0,
        "total_full": 300.015,
        "signer_full": 0.0,
        "percent": 0.0,
        "passes": False,
    }
    rolls = [{"swis": "104400", "name": "Harlow", "roll_year": 2022, "equalization_rate": 100.0}]
    summary = _summary([part], rolls)
    summary["review"] = {"lines_pending": 3, "owner_lines_pending": 2, "resident_lines_pending": 1}
    signatures = pd.DataFrame(
        {
            "page": [1, 1, 1, 2],
            "line": [1, 2, 4, 1],
            "basis": ["owners", "owners", "owners", "residents"],
            "status": ["counted", "needs_review", "needs_review", "needs_review"],
        }
    )
    files = write_certifications(tmp_path, summary, parcels, signatures=signatures)
    for text in (
        docx_text(files["certification-104400.docx"]),
        pdf_text(files["certification-104400.pdf"]),
    ):
        flat = " ".join(text.split())
        assert "12 roll record(s) of the Town of Harlow" in flat
        assert "104489:888.500-1-11, 104489:888.500-1-12; source" in flat
        assert "more" not in flat.split("12 roll record(s)")[1].split("source")[0]
        assert "2 signature line(s) of the owner pages of the petition await review " in flat
        assert "(page:line 1:2, 1:4; review.csv)" in flat
        assert 'the lines of "Apportioned assessed" add up to $300.03, $0.01 more than' in flat
        assert "$300.02" in flat
    # several towns: the rate as given; a part of no value has no share, in words
    other = {
        **part,
        "swis": "104600",
        "equalization_rate": 33.333333,
        "total_assessed": 0.0,
        "total_full": 0.0,
        "percent": None,
    }
    rolls.append(
        {"swis": "104600", "name": "Brinton", "roll_year": 2022, "equalization_rate": 33.333333}
    )
    (tmp_path / "two").mkdir()
    files = write_certifications(tmp_path / "two", _summary([part, other], rolls), parcels)
    flat = " ".join(docx_text(files["certification-104600.docx"]).split())
    assert "roll year 2022 is 33.333333 %" in flat
    assert (
        "being no computable share of the full valuation of that portion, whose total is " in flat
    )
    assert "being —" not in flat


def test_no_certification_without_owner_basis(tmp_path: Path) -> None:
    summary = {"owner_test": {"applies": False, "passes": None}}
    empty = pd.DataFrame(columns=list(PARCEL_SCHEDULE_COLUMNS))
    assert write_certifications(tmp_path, summary, empty) == {}


def test_xlsx_formula_injection_and_format(tmp_path: Path) -> None:
    frame = pd.DataFrame(
        {
            "name": ['=HYPERLINK("http://x","y")', "+1", "-2", "@SUM(A1)", "Plain"],
            "credit_assessed": [1.5, 2.25, 0.0, 0.0, 10.0],
        }
    )
    path = write_schedule_xlsx(
        tmp_path / "s.xlsx", frame, sheet="S", title="t", when=WHEN, totals=("credit_assessed",)
    )
    ws = openpyxl.load_workbook(path).active
    assert ws is not None
    names = [ws.cell(row=r, column=1).value for r in range(2, 7)]
    assert names == ['\'=HYPERLINK("http://x","y")', "'+1", "'-2", "'@SUM(A1)", "Plain"]
    assert all(ws.cell(row=r, column=1).data_type == "s" for r in range(2, 7))
    assert ws.freeze_panes == "A2"
    assert ws.cell(row=2, column=2).value == 1.5  # unrounded value, formatted display
    assert ws.cell(row=2, column=2).number_format == '"$"#,##0.00'
    # totals row: 1.5 + 2.25 + 10 = 13.75
    assert ws.cell(row=7, column=1).value == "Total"
    assert ws.cell(row=7, column=2).value == pytest.approx(13.75)
    again = write_schedule_xlsx(
        tmp_path / "t.xlsx", frame, sheet="S", title="t", when=WHEN, totals=("credit_assessed",)
    )
    assert path.read_bytes() == again.read_bytes()


def test_stable_zip_ignores_clock(tmp_path: Path) -> None:
    import io
    import zipfile

    def make(stamp: tuple[int, int, int, int, int, int]) -> bytes:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            z.writestr(
                zipfile.ZipInfo("docProps/core.xml", date_time=stamp),
                b'<x><dcterms:modified a="b">2026-01-01T10:11:12Z</dcterms:modified></x>',
            )
        return buf.getvalue()

    a = stable_zip(make((2026, 1, 1, 10, 11, 12)), when=WHEN)
    b = stable_zip(make((2025, 5, 5, 5, 5, 6)), when=WHEN)
    assert a == b
    z = zipfile.ZipFile(io.BytesIO(a))
    assert b"2023-06-01T00:00:00Z" in z.read("docProps/core.xml")


def test_report_escapes_and_embeds() -> None:
    summary = _summary([], [])
    summary["deficiencies"] = [
        {
            "code": "witness_count_mismatch",
            "paragraph": "2-202.1.e(4)",
            "message": "<script>alert(1)</script>",
            "where": "page 3",
        }
    ]

    def report(summary: dict[str, Any]) -> str:
        return render_report(
            summary,
            pd.DataFrame(columns=list(PARCEL_SCHEDULE_COLUMNS)),
            pd.DataFrame(columns=["status"]),
            map_png=b"\x89PNG",
            files=["map.png"],
        )

    html_text = report(summary)
    assert "witness_count_mismatch" in html_text and "2-202.1.e(4)" in html_text
    assert "<script>" not in html_text and "&lt;script&gt;" in html_text
    assert "data:image/png;base64,iVBORw" in html_text
    assert "NOT SUFFICIENT" in html_text
    # a designee listed twice is said so where the designees are
    summary["designees"] = {
        "count": 2,
        "residing_in_territory": 1,
        "passes": False,
        "problems": [],
        "listed_twice": ["Adams, John"],
    }
    html_text = report(summary)
    assert "Adams, John: listed again, one person counted once" in html_text


def test_the_map_shows_and_names_the_streets() -> None:
    # § 2-202.1.c(1)(c): a map that describes the territory shows existing
    # streets: each street given is drawn and named once (Main St along the
    # north side; Oak Ave, outside the view, is clipped away)
    import geopandas as gpd
    import shapely

    from pipeline.documents.mapping import parcel_status, render_map

    territory = shapely.box(0, 0, 1000, 500)
    streets = gpd.GeoDataFrame(
        {"name": ["Main St", "Main St", "Oak Ave"]},
        geometry=[
            shapely.LineString([(-50, 510), (400, 510)]),
            shapely.LineString([(400, 510), (1050, 510)]),
            shapely.LineString([(5000, 0), (5000, 500)]),
        ],
        crs="EPSG:2260",
    )
    empty = pd.DataFrame(
        columns=[
            "swis_code",
            "print_key_code",
            "fraction_in_territory",
            "fraction_source",
            "signer_credit_assessed",
        ]
    )

    def draw(title: str, **more: Any) -> Any:
        drawing: dict[str, Any] = {"towns": [], "streets": streets, **more}
        return render_map(
            territory=territory,
            crs="EPSG:2260",
            parcels=gpd.GeoDataFrame({"parcel_key": []}, geometry=[], crs="EPSG:2260"),
            status=parcel_status(empty),
            title=title,
            unmapped=0,
            **drawing,
        )

    fig = draw("t")
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts.count("Main St") == 1
    assert "Oak Ave" not in texts
    # a name with dollar signs is written as it is, never parsed as TeX (which
    # would draw "Mill $x^2$ St" as maths, and fail on an unbalanced one)
    import io

    for name in ("Mill $x^2$ St", "Old $\\undefinedcmd{$ Rd"):
        streets.loc[0, "name"] = name
        fig = draw(f"Village of {name}")
        fig.savefig(io.BytesIO(), format="png")
        drawn = [t for t in fig.axes[0].texts if t.get_text() == name]
        assert len(drawn) == 1 and not drawn[0].get_parse_math()
    # a town of the territory with no part to draw (no polygon; or reached only
    # through the assessor's apportionment) is named in the legend all the same
    fig = draw(
        "t",
        towns=[("104400", "Harlow", None), ("104600", "Brinton", shapely.box(5e4, 0, 6e4, 1))],
        parts=["104400", "104600"],
        streets=None,
    )
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "part in the Town of Harlow (104400): no town polygon given" in legend
    assert "part in the Town of Brinton (104600): no area on the maps" in legend


def test_pdf_bytes_do_not_depend_on_source_date_epoch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # reportlab would date the PDF from SOURCE_DATE_EPOCH: the same document
    # must give the same bytes with it set (and it is left set as it was)
    from pipeline.documents._render import Document, Para, render_pdf

    doc = Document(title="t", when=dt.date(2023, 6, 1), blocks=[Para("Sworn to before me")])
    plain = render_pdf(doc, tmp_path / "a.pdf").read_bytes()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert render_pdf(doc, tmp_path / "b.pdf").read_bytes() == plain
    import os

    assert os.environ["SOURCE_DATE_EPOCH"] == "1700000000"


def test_the_review_report_prints_a_failing_area_with_the_digits_that_tell() -> None:
    # audit A33 F4: 5.00002 square miles fails the limit of 5; it printed "5.0000"
    from pipeline.documents.report import _tests

    rows = _tests({"area": {"square_miles": 5.00002, "limit": 5.0, "passes": False}})
    area = next(r for r in rows if r[0] == "Area")
    assert area[2].startswith("5.00002 square miles; limit 5.0")


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (0.1234567, "0.1234567"),  # the assessor's override, as written (audit A34 F1)
        (0.5, "0.500000"),
        (1 / 3, "0.333333"),  # measured on the map: six decimals
        (0.02405477342749451, "0.024055"),
    ],
)
def test_a_fraction_prints_as_written_when_short(value: float, shown: str) -> None:
    # 0.1234567 of $2,000,400 is $246,962.78; printed 0.123457 it read $246,963.38
    from pipeline.documents._common import fraction

    assert fraction(value) == shown
