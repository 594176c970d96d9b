"""Readers of rates, pages, signatures, inhabitants, overrides and match decisions."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from pipeline.errors import InputError
from pipeline.frames import (
    APPORTIONMENT_OVERRIDE_COLUMNS,
    INHABITANT_COLUMNS,
    MATCH_DECISION_COLUMNS,
    OWNERSHIP_OVERRIDE_COLUMNS,
    PAGE_COLUMNS,
    RATE_COLUMNS,
    SIGNATURE_COLUMNS,
)
from pipeline.io import (
    check_signatures_against_pages,
    read_apportionment_overrides,
    read_inhabitants,
    read_match_decisions,
    read_ownership_overrides,
    read_pages,
    read_rates,
    read_signatures,
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


# ---------------------------------------------------------------------- rates


def test_rates(tmp_path: Path) -> None:
    p = write(
        tmp_path,
        "rates.csv",
        "swis_code,rate_year,equalization_rate\n104400,2023,60.5\n104400,2024,\n192200,2024,3.25\n",
    )
    rates = read_rates(p)
    assert tuple(rates.columns) == RATE_COLUMNS
    assert rates["rate_year"].tolist() == [2023, 2024, 2024]
    assert rates["equalization_rate"].iloc[0] == 60.5
    assert np.isnan(rates["equalization_rate"].iloc[1])  # blank = not final, kept
    assert rates["source_row"].tolist() == [1, 2, 3]


def test_rates_data_ny_gov_export(tmp_path: Path) -> None:
    p = write(
        tmp_path,
        "rates.csv",
        "Rate Year,Swis Code,Type,County Name,Municipality Name,Village Name,Equalization Rate\n"
        "2024,104400,Town,Columbia,Kinderhook,,60.00\n2024,104401,Village,Columbia,Kinderhook,"
        "Kinderhook,112.5\n",
    )
    rates = read_rates(p)
    assert rates["swis_code"].tolist() == ["104400", "104401"]
    assert rates["equalization_rate"].tolist() == [60.0, 112.5]  # above 100 is allowed


@pytest.mark.parametrize(
    ("rate", "fragment"),
    [
        ("0", "greater than 0"),
        ("-5", "greater than 0"),
        ("1001", "at most"),
        ("sixty", "not a number"),
    ],
)
def test_bad_rate(tmp_path: Path, rate: str, fragment: str) -> None:
    p = write(tmp_path, "rates.csv", f"swis_code,rate_year,equalization_rate\n104400,2024,{rate}\n")
    with pytest.raises(InputError) as exc:
        read_rates(p)
    assert exc.value.row == 1 and exc.value.column == "equalization_rate"
    assert fragment in exc.value.message and "rates.csv" in exc.value.message


def test_rates_duplicate(tmp_path: Path) -> None:
    p = write(
        tmp_path,
        "rates.csv",
        "swis_code,rate_year,equalization_rate\n104400,2024,60\n104489,2024,60\n104400,2024,61\n",
    )
    with pytest.raises(InputError) as exc:
        read_rates(p)
    assert exc.value.row == 3 and "rows 1, 3" in exc.value.message


def test_rates_missing_column_and_file(tmp_path: Path) -> None:
    with pytest.raises(InputError) as exc:
        read_rates(write(tmp_path, "rates.csv", "swis_code,rate_year\n104400,2024\n"))
    assert exc.value.column == "equalization_rate"
    with pytest.raises(InputError, match="not found"):
        read_rates(tmp_path / "none.csv")
    with pytest.raises(InputError, match="empty"):
        read_rates(write(tmp_path, "empty.csv", "\n"))


# ----------------------------------------------------------------------- pages

PAGES = (
    "page,basis,witness_name,witness_address,stated_signature_count,sworn_on\n"
    "1,owners,Ann Lee,1 Main St,10,2023-05-01\n"
    "2,Residents,Bob Roe,2 Main St,3,5/2/2023\n"
    "3,residents,Cy Doe,3 Main St,0,\n"
)


def test_pages(tmp_path: Path) -> None:
    pages = read_pages(write(tmp_path, "pages.csv", PAGES))
    assert tuple(pages.columns) == PAGE_COLUMNS
    assert pages["basis"].tolist() == ["owners", "residents", "residents"]
    assert pages["sworn_on"].tolist() == ["2023-05-01", "2023-05-02", ""]
    assert pages["stated_signature_count"].tolist() == [10, 3, 0]


@pytest.mark.parametrize(
    ("line", "column", "fragment"),
    [
        ("4,owners,A,B,1,2023-02-30", "sworn_on", "not a valid date"),
        ("4,owners,A,B,1,yesterday", "sworn_on", "not a date"),
        ("4,tenants,A,B,1,", "basis", "is not one of"),
        ("4x,owners,A,B,1,", "page", "not a whole number"),
        ("4,owners,A,B,1.5,", "stated_signature_count", "not a whole number"),
        ("1,owners,A,B,1,", "page", "duplicate page 1"),
    ],
)
def test_bad_pages(tmp_path: Path, line: str, column: str, fragment: str) -> None:
    with pytest.raises(InputError) as exc:
        read_pages(write(tmp_path, "pages.csv", PAGES + line + "\n"))
    assert (exc.value.row, exc.value.column) == (4, column)
    assert fragment in exc.value.message
    assert f"pages.csv, row 4, column '{column}'" in exc.value.message


# ------------------------------------------------------------------ signatures

SIGS = (
    "page,line,name,address,town,signed_on,signing_for,credited_assessed_value\n"
    "1,1,Jonah Carver,55 Sunset Ave,Kinderhook,2023-04-01,,\n"
    "1,2,Krista Samson,55 Sunset Ave,Kinderhook,2023-04-01,Example Holdings LLC,260000\n"
    "2,1,Ann Lee,1 Main St,Kinderhook,,,\n"
)


def test_signatures(tmp_path: Path) -> None:
    sigs = read_signatures(write(tmp_path, "signatures.csv", SIGS))
    assert tuple(sigs.columns) == SIGNATURE_COLUMNS
    assert sigs["line"].tolist() == [1, 2, 1]
    assert sigs["signing_for"].tolist() == ["", "Example Holdings LLC", ""]
    assert np.isnan(sigs["credited_assessed_value"].iloc[0])
    assert sigs["credited_assessed_value"].iloc[1] == 260000.0


def test_signatures_optional_columns(tmp_path: Path) -> None:
    sigs = read_signatures(write(tmp_path, "s.csv", "page,line,name,address\n1,1,A,B\n"))
    assert sigs["town"].tolist() == [""] and sigs["signed_on"].tolist() == [""]


def test_signature_duplicate_line(tmp_path: Path) -> None:
    with pytest.raises(InputError) as exc:
        read_signatures(write(tmp_path, "signatures.csv", SIGS + "1,2,Z,Y,Kinderhook,,,\n"))
    assert (exc.value.row, exc.value.column) == (4, "line")
    assert "rows 2, 4" in exc.value.message


def test_signature_bad_value(tmp_path: Path) -> None:
    with pytest.raises(InputError) as exc:
        read_signatures(write(tmp_path, "signatures.csv", SIGS + "2,2,Z,Y,K,,,12a\n"))
    assert (exc.value.row, exc.value.column) == (4, "credited_assessed_value")


def test_signature_values_as_written_on_paper(tmp_path: Path) -> None:
    # "$45,000", "45,000.00" and "$ 1200" are the amounts 45,000, 45,000 and
    # 1,200; a misplaced separator ("12,34") is still refused
    lines = '2,2,Z,Y,K,,,"$45,000"\n2,3,Z,Y,K,,,"45,000.00"\n2,4,Z,Y,K,,,$ 1200\n'
    sigs = read_signatures(write(tmp_path, "signatures.csv", SIGS + lines))
    assert sigs["credited_assessed_value"].tolist()[-3:] == [45_000.0, 45_000.0, 1_200.0]
    with pytest.raises(InputError) as exc:
        read_signatures(write(tmp_path, "bad.csv", SIGS + '2,2,Z,Y,K,,,"12,34"\n'))
    assert (exc.value.row, exc.value.column) == (4, "credited_assessed_value")


def test_signatures_against_pages(tmp_path: Path) -> None:
    pages = read_pages(write(tmp_path, "pages.csv", PAGES))
    sigs = read_signatures(write(tmp_path, "signatures.csv", SIGS + "7,1,Z,Y,K,,,\n"))
    with pytest.raises(InputError) as exc:
        check_signatures_against_pages(sigs, pages, file=tmp_path / "signatures.csv")
    assert (exc.value.row, exc.value.column) == (4, "page")
    assert "page 7" in exc.value.message and "signatures.csv" in exc.value.message
    check_signatures_against_pages(sigs.iloc[:3], pages, file="signatures.csv")  # no error


# ----------------------------------------------------------------- inhabitants


def test_inhabitants(tmp_path: Path) -> None:
    p = write(tmp_path, "inh.csv", "name,address,town\nAnn Lee, 1 Main St ,Kinderhook\n")
    inh = read_inhabitants(p)
    assert tuple(inh.columns) == INHABITANT_COLUMNS
    assert inh["address"].tolist() == ["1 Main St"]


def test_inhabitants_blank_name(tmp_path: Path) -> None:
    p = write(tmp_path, "inh.csv", "name,address,town\nAnn Lee,1 Main St,K\n,2 Main St,K\n")
    with pytest.raises(InputError) as exc:
        read_inhabitants(p)
    assert (exc.value.row, exc.value.column) == (2, "name")


def test_empty_rows_a_spreadsheet_leaves_at_the_end_are_no_rows(tmp_path: Path) -> None:
    # ",," lines after the last entry (an Excel export) are not entries; one in
    # the middle is read and named by its row
    p = write(tmp_path, "inh.csv", "name,address,town\nAnn Lee,1 Main St,K\n,,\n , ,\n")
    assert read_inhabitants(p)["name"].tolist() == ["Ann Lee"]
    p = write(
        tmp_path, "mid.csv", "name,address,town\nAnn Lee,1 Main St,K\n,,\nBo Li,2 Main St,K\n"
    )
    with pytest.raises(InputError) as exc:
        read_inhabitants(p)
    assert (exc.value.row, exc.value.column) == (2, "name")


def test_inhabitants_wrong_encoding(tmp_path: Path) -> None:
    p = tmp_path / "inh.csv"
    p.write_bytes("name,address,town\nJosé Núñez,1 Main St,K\n".encode("cp1252"))
    with pytest.raises(InputError) as exc:
        read_inhabitants(p)
    assert "UTF-8" in exc.value.message and exc.value.row == 1


# ------------------------------------------------------------------- overrides


def test_apportionment_overrides(tmp_path: Path) -> None:
    p = write(
        tmp_path,
        "app.csv",
        "swis_code,print_key_code,fraction_in_territory,value_in_territory,note\n"
        "104401,043.011-0001-002.000,0.25,,assessor letter\n104489,5-1-1,,12000,\n",
    )
    ov = read_apportionment_overrides(p)
    assert tuple(ov.columns) == APPORTIONMENT_OVERRIDE_COLUMNS
    assert ov["parcel_key"].tolist() == ["104401|43.11-1-2", "104489|5-1-1"]
    assert ov["fraction_in_territory"].iloc[0] == 0.25
    assert np.isnan(ov["fraction_in_territory"].iloc[1])
    assert ov["value_in_territory"].iloc[1] == 12000.0


def test_apportionment_only_one_value_column(tmp_path: Path) -> None:
    p = write(
        tmp_path, "app.csv", "swis_code,print_key_code,fraction_in_territory\n104401,1-1-1,1\n"
    )
    assert np.isnan(read_apportionment_overrides(p)["value_in_territory"].iloc[0])


@pytest.mark.parametrize(
    ("line", "column", "fragment"),
    [
        ("104401,1-1-2,0.5,100", "value_in_territory", "not both"),
        ("104401,1-1-2,,", "fraction_in_territory", "give fraction"),
        ("104401,1-1-2,1.5,", "fraction_in_territory", "at most 1"),
        ("104401,1-1-2,,-1", "value_in_territory", "at least 0"),
        ("104401,1-1-1.0,0.5,", "print_key_code", "duplicate parcel 104401:1-1-1.0: rows 1, 2"),
        ("1044,1-1-2,0.5,", "swis_code", "6 digits"),
    ],
)
def test_bad_apportionment(tmp_path: Path, line: str, column: str, fragment: str) -> None:
    p = write(
        tmp_path,
        "app.csv",
        "swis_code,print_key_code,fraction_in_territory,value_in_territory\n"
        f"104401,1-1-1,0.5,\n{line}\n",
    )
    with pytest.raises(InputError) as exc:
        read_apportionment_overrides(p)
    assert (exc.value.row, exc.value.column) == (2, column)
    assert fragment in exc.value.message


def test_apportionment_needs_a_value_column(tmp_path: Path) -> None:
    p = write(tmp_path, "app.csv", "swis_code,print_key_code,note\n104401,1-1-1,x\n")
    with pytest.raises(InputError, match="fraction_in_territory"):
        read_apportionment_overrides(p)


def test_ownership_overrides(tmp_path: Path) -> None:
    p = write(
        tmp_path,
        "own.csv",
        "swis_code,print_key_code,owner_count,owners,note\n"
        "104401,43.11-1-2,3,Jonah Carver; Krista Samson ;,deed\n104401,43.11-1-3,1,,\n",
    )
    ov = read_ownership_overrides(p)
    assert tuple(ov.columns) == OWNERSHIP_OVERRIDE_COLUMNS
    assert ov["owners"].iloc[0] == ("Jonah Carver", "Krista Samson")
    assert ov["owners"].iloc[1] == ()
    assert ov["owner_count"].tolist() == [3, 1]


def test_ownership_override_naming_its_owners_needs_no_count(tmp_path: Path) -> None:
    # audit A18 F9: owners named, count blank -> their number (2); with neither a
    # count nor a name the count is missing (bad input, the test below)
    p = write(
        tmp_path,
        "own.csv",
        "swis_code,print_key_code,owner_count,owners,note\n"
        "104401,43.11-1-2,,Jonah Carver;Krista Samson,deed\n",
    )
    assert read_ownership_overrides(p)["owner_count"].tolist() == [2]


def test_an_ownership_override_counts_the_owners_a_name_gives(tmp_path: Path) -> None:
    # audit A30 F2: "John & Mary Lee" is two owners, as parse_owners reads it;
    # a blank count took the one entry for one owner, and a signing husband was
    # credited the whole parcel (90,000 / 1 instead of 90,000 / 2 = 45,000)
    p = write(
        tmp_path,
        "own.csv",
        "swis_code,print_key_code,owner_count,owners,note\n"
        "104401,43.11-1-2,,John & Mary Lee,deed\n"
        "104401,43.11-1-3,,Lee Family Trust; Ann Poe,deed\n",
    )
    ov = read_ownership_overrides(p)
    assert ov["owner_count"].tolist() == [2, 2]
    assert ov["owners"].iloc[0] == ("John & Mary Lee",)


@pytest.mark.parametrize(
    ("line", "column", "says"),
    [
        # two owners named, one given: the divisor would be 1
        ("104401,1-1-2,1,John & Mary Lee", "owners", "names 2 owners (JOHN LEE; MARY LEE)"),
        # ET AL: more owners than named, and no count to say how many
        ("104401,1-1-2,,John Lee et al", "owner_count", "says ET AL"),
    ],
)
def test_an_ownership_override_whose_names_disagree_with_its_count(
    tmp_path: Path, line: str, column: str, says: str
) -> None:
    p = write(
        tmp_path,
        "own.csv",
        f"swis_code,print_key_code,owner_count,owners\n104401,1-1-1,1,\n{line}\n",
    )
    with pytest.raises(InputError, match=re.escape(says)) as exc:
        read_ownership_overrides(p)
    assert (exc.value.row, exc.value.column) == (2, column)
    # with the count given, ET AL reads: two owners, one named
    if column == "owner_count":
        p.write_text(p.read_text().replace(",,John Lee et al", ",2,John Lee et al"))
        assert read_ownership_overrides(p)["owner_count"].tolist() == [1, 2]


@pytest.mark.parametrize(
    ("line", "column"),
    [
        ("104401,1-1-2,,", "owner_count"),
        ("104401,1-1-2,0,", "owner_count"),
        ("104401,1-1-2,two,", "owner_count"),
        ("104401,1-1-2,1,A;B", "owners"),
        ("104401,01-1-1,2,", "print_key_code"),
        # names of joining words only name no one (audit A5: a traceback before)
        ("104401,1-1-2,2,AND;&", "owners"),
        ("104401,1-1-2,2,ETAL AND", "owners"),
        ("104401,1-1-2,2,Jane Doe;&", "owners"),
    ],
)
def test_bad_ownership(tmp_path: Path, line: str, column: str) -> None:
    p = write(
        tmp_path,
        "own.csv",
        f"swis_code,print_key_code,owner_count,owners\n104401,1-1-1,1,\n{line}\n",
    )
    with pytest.raises(InputError) as exc:
        read_ownership_overrides(p)
    assert (exc.value.row, exc.value.column) == (2, column)


# -------------------------------------------------------------- match decisions

MATCHES = (
    "page,line,decision,swis_code,print_key_code,SBOEID,note\n"
    "1,1,accept,104401,043.011-0001-002.000,,same person\n"
    "1,1,accept,104401,43.11-1-3,,second parcel\n"
    "2,4,Accept,,,NY000000000012345678,\n"
    "2,5,reject,,,,not the voter\n"
)


def test_match_decisions(tmp_path: Path) -> None:
    md = read_match_decisions(write(tmp_path, "matches.csv", MATCHES))
    assert tuple(md.columns) == MATCH_DECISION_COLUMNS
    assert md["parcel_key"].tolist() == ["104401|43.11-1-2", "104401|43.11-1-3", "", ""]
    assert md["decision"].tolist() == ["accept", "accept", "accept", "reject"]
    assert md["SBOEID"].iloc[2] == "NY000000000012345678"


@pytest.mark.parametrize(
    ("line", "column", "fragment"),
    [
        ("3,1,accept,,,,", "decision", "must name a parcel"),
        ("3,1,maybe,,,,", "decision", "is not one of"),
        ("3,1,accept,104401,,,", "print_key_code", "without print_key_code"),
        ("3,1,accept,104401,1-1-1,NY1,", "SBOEID", "not both"),
        ("1,1,reject,104401,43.11-1-2,,", "decision", "duplicate"),
    ],
)
def test_bad_match_decisions(tmp_path: Path, line: str, column: str, fragment: str) -> None:
    with pytest.raises(InputError) as exc:
        read_match_decisions(write(tmp_path, "matches.csv", MATCHES + line + "\n"))
    assert (exc.value.row, exc.value.column) == (5, column)
    assert fragment in exc.value.message


def test_a_csv_saved_with_semicolons_or_as_a_workbook_is_told_so(tmp_path: Path) -> None:
    # Excel writes "CSV" with semicolons where the decimal mark is a comma, and a
    # workbook renamed .csv is a zip: each is named as what it is
    from pipeline.io._common import csv_text_frame

    with pytest.raises(InputError, match="separated by semicolons"):
        csv_text_frame(b"page;line;name\n1;1;Ann\n", tmp_path / "s.csv")
    with pytest.raises(InputError, match="separated by tabs"):
        csv_text_frame(b"page\tline\tname\n1\t1\tAnn\n", tmp_path / "s.csv")
    with pytest.raises(InputError, match="Excel workbook"):
        csv_text_frame(b"PK\x03\x04\x14\x00rest of a zip", tmp_path / "s.csv")
    # a comma file whose cells hold semicolons is a CSV like any other
    frame = csv_text_frame(b"page,line,name\n1,1,Ann; Bob\n", tmp_path / "s.csv")
    assert frame["name"].tolist() == ["Ann; Bob"]


def test_carriage_returns_and_nul_bytes(tmp_path: Path) -> None:
    # Excel's "CSV (Macintosh)" ends lines with a carriage return alone: read as
    # lines; a NUL byte is not text: exit 2 naming the line, never a crash
    from pipeline.io._common import csv_text_frame

    mac = csv_text_frame(b"page,line,name\r1,1,Ann\r2,1,Bob\r", tmp_path / "s.csv")
    assert mac["name"].tolist() == ["Ann", "Bob"]
    assert mac["source_row"].tolist() == [1, 2]
    mixed = csv_text_frame(b"page,line,name\r\n1,1,Ann\r2,1,Bob\n", tmp_path / "s.csv")
    assert mixed["name"].tolist() == ["Ann", "Bob"]
    with pytest.raises(InputError) as exc:
        csv_text_frame(b"page,line,name\n1,1,Ann\n2,1,B\x00b\n", tmp_path / "s.csv")
    # line 3 of the file is data row 2
    assert exc.value.row == 2
    assert "NUL byte on line 3" in exc.value.message


def test_bad_bytes_after_a_field_of_two_lines_name_the_data_row(tmp_path: Path) -> None:
    # row 1's name is quoted over two lines (file lines 2 and 3), so the bad byte
    # on file line 4 is in data row 2, not 3; and a byte in the header is in no row
    from pipeline.io._common import csv_text_frame, json_text_frame

    two_lines = b'page,line,name\n1,1,"Ann\nMarie"\n2,1,'
    with pytest.raises(InputError) as exc:
        csv_text_frame(two_lines + b"B\x00b\n", tmp_path / "s.csv")
    assert "NUL byte on line 4" in exc.value.message
    assert exc.value.row == 2
    with pytest.raises(InputError) as exc:
        csv_text_frame(two_lines + b"Jos\xe9\n", tmp_path / "s.csv")
    assert "byte 0xe9 on line 4" in exc.value.message
    assert exc.value.row == 2
    # the byte opens a record: "B" at the start of file line 4 is row 3 of a
    # headerless file (records: 1,1,"Ann Marie" / 2,1,x / the byte's)
    with pytest.raises(InputError) as exc:
        csv_text_frame(b'1,1,"Ann\nMarie"\n2,1,x\n\xe9,1,y\n', tmp_path / "v.txt", header=False)
    assert exc.value.row == 3
    with pytest.raises(InputError) as exc:
        csv_text_frame(b"page,line,n\xe9me\n1,1,Ann\n", tmp_path / "s.csv")
    assert exc.value.row is None
    # JSON has lines, not rows
    with pytest.raises(InputError) as exc:
        json_text_frame(b'[\n{"name": "Jos\xe9"}\n]', tmp_path / "s.json")
    assert "on line 2" in exc.value.message
    assert exc.value.row is None


def test_a_headerless_file_whose_first_row_is_short_names_row_1(tmp_path: Path) -> None:
    # rows 2 and 3 agree on 3 fields; row 1 has 2: row 1 is the bad one
    from pipeline.io._common import csv_text_frame

    with pytest.raises(InputError) as exc:
        csv_text_frame(b"a,b\nc,d,e\nf,g,h\n", tmp_path / "v.txt", header=False)
    assert exc.value.row == 1
    assert "2 fields where the rows after it have 3" in exc.value.message


@pytest.mark.parametrize("written", ["１２３", "10440０", "٣٤٥"])
def test_digits_other_than_ascii_are_no_number(tmp_path: Path, written: str) -> None:
    # audit A35 F1/F2: full-width and other Unicode digits passed the number
    # check (then a traceback, exit 1), and a SWIS code so written joined no
    # parcel (its value counted 0): each is bad input naming row and column
    import pandas as pd

    from pipeline.io._common import to_float, to_int, to_swis

    df = pd.DataFrame({"v": [written], "source_row": [1]})
    for parse in (to_float, to_int, to_swis):
        with pytest.raises(InputError) as exc:
            parse(df, "t.csv", "v")
        assert (exc.value.row, exc.value.column) == (1, "v")


@pytest.mark.parametrize("before", ["\n", "\r\n", "\n\n", ",,\n", "  \n"])
def test_blank_lines_before_the_header_are_no_rows(tmp_path: Path, before: str) -> None:
    # audit A35 F7: the header was read as data row 1 (a person "name" at
    # "address"), and every row number after it was one too high
    from pipeline.io import read_inhabitants

    p = tmp_path / "inhabitants.csv"
    p.write_bytes((before + "name,address,town\nAnn Poe,1 Oak St,Harlow\n").encode())
    got = read_inhabitants(p)
    assert got["name"].tolist() == ["Ann Poe"]
    assert got["source_row"].tolist() == [1]


def test_stray_quotes_around_a_whole_row_are_refused_whatever_the_ends(tmp_path: Path) -> None:
    # audit A35 F4: a quote opens row 2's address and another closes row 4's;
    # row 3 between is a whole row of the file. The last line's name is of a
    # shape no other name has (Mary-Jo O'Neil), which let the rows through
    # into one cell: two people lost without a word
    from pipeline.io import read_inhabitants

    p = tmp_path / "inhabitants.csv"
    p.write_text(
        "name,address,town\n"
        "Ann Poe,1 Oak St,Harlow\n"
        'Ines P. Murphy,"269 Clinton St,Harlow\n'
        "Patrick C. Simmons,269 Clinton St,Harlow\n"
        "Mary-Jo O'Neil,241 Clinton St\",Harlow\n"
        "Bo Ray,2 Oak St,Harlow\n"
    )
    with pytest.raises(InputError) as exc:
        read_inhabitants(p)
    assert (exc.value.row, exc.value.column) == (2, "address")
