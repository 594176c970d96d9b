"""The BOE voter file reader."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

import pytest

from pipeline.errors import InputError
from pipeline.frames import VOTER_COLUMNS
from pipeline.io import read_voters
from pipeline.io._voters import BOE_FIELDS_45, BOE_FIELDS_47


def record(fields: tuple[str, ...], **values: str) -> dict[str, str]:
    rec = {f: "" for f in fields}
    rec.update(values)
    return rec


def boe_line(fields: tuple[str, ...], rec: dict[str, str]) -> str:
    return ",".join(f'"{rec[f]}"' for f in fields)


ANNA = {
    "LASTNAME": "MUÑOZ",
    "FIRSTNAME": "ANNA",
    "RADDNUMBER": "12",
    "RSTREETNAME": "OAK ST",
    "RCITY": "KINDERHOOK",
    "RZIP5": "12106",
    "DOB": "19800101",
    "STATUS": "A",
    "SBOEID": "NY000000000000000001",
    "TOWNCITY": "KINDERHOOK",
    "ED": "001",
    "RAPARTMENTTYPE": "APT",
    "RAPARTMENT": "2",
    "VOTERHISTORY": "2022 GE;2020 GE",
}
BEN = {
    "LASTNAME": "ROE",
    "FIRSTNAME": "BEN",
    "STATUS": "I",
    "SBOEID": "NY000000000000000002",
    "PREVADDRESS": "1 ELM ST",
}


def write_boe(tmp_path: Path, fields: tuple[str, ...], recs: list[dict[str, str]]) -> Path:
    p = tmp_path / "voters.txt"
    lines = [
        boe_line(fields, record(fields, **{k: v for k, v in r.items() if k in fields}))
        for r in recs
    ]
    p.write_bytes(("\r\n".join(lines) + "\r\n").encode("latin-1"))
    return p


def test_headerless_47(tmp_path: Path) -> None:
    voters = read_voters(write_boe(tmp_path, BOE_FIELDS_47, [ANNA, BEN]))
    assert tuple(voters.columns) == VOTER_COLUMNS
    assert "DOB" not in voters.columns and "VOTERHISTORY" not in voters.columns
    assert voters["LASTNAME"].tolist() == ["MUÑOZ", "ROE"]  # Latin-1 decoded
    assert voters["RAPARTMENTTYPE"].tolist() == ["APT", ""]
    assert voters["STATUS"].tolist() == ["A", "I"]
    assert voters["source_row"].tolist() == [1, 2]


def test_headerless_45(tmp_path: Path) -> None:
    voters = read_voters(write_boe(tmp_path, BOE_FIELDS_45, [ANNA, BEN]))
    assert voters["RAPARTMENTTYPE"].tolist() == ["", ""]  # absent from the older layout
    assert voters["RADDRNONSTD"].tolist() == ["", ""]
    assert voters["RAPARTMENT"].tolist() == ["2", ""]
    assert voters["SBOEID"].tolist() == ["NY000000000000000001", "NY000000000000000002"]


def test_headerless_45_as_written_in_the_older_extracts(tmp_path: Path) -> None:
    # one record of the older layout written out field by field: RAPARTMENT is
    # the 7th field, right after RHALFCODE, before RPREDIRECTION and RSTREETNAME
    # (… RADDNUMBER, RHALFCODE, RAPARTMENT, RPREDIRECTION, RSTREETNAME,
    # RPOSTDIRECTION, RCITY …); 45 fields in all, SBOEID the 44th
    fields = ["ROE", "ANN", "", "", "20", "", "3", "N", "MAIN ST", "", "HARLOW", "12106"]
    fields += [""] * (43 - len(fields)) + ["NY000000000000000009", ""]
    fields[39] = "A"  # STATUS, the 40th
    assert len(fields) == 45
    p = tmp_path / "voters.txt"
    p.write_bytes((",".join(f'"{f}"' for f in fields) + "\r\n").encode("latin-1"))
    voters = read_voters(p)
    row = voters.iloc[0]
    assert (row["RADDNUMBER"], row["RAPARTMENT"], row["RPREDIRECTION"]) == ("20", "3", "N")
    assert (row["RSTREETNAME"], row["RCITY"], row["STATUS"]) == ("MAIN ST", "HARLOW", "A")
    assert row["SBOEID"] == "NY000000000000000009"


def test_with_header(tmp_path: Path) -> None:
    p = tmp_path / "voters.csv"
    p.write_text(
        "SBOEID,LASTNAME,FIRSTNAME,STATUS,DOB,RSTREETNAME\n"
        "NY1,Muñoz,Anna,A,19800101,Oak St\nNY2,Roe,Ben,I,19700101,Elm St\n",
        encoding="utf-8",
    )
    voters = read_voters(p)
    assert tuple(voters.columns) == VOTER_COLUMNS
    assert voters["LASTNAME"].tolist() == ["Muñoz", "Roe"]
    assert voters["RCITY"].tolist() == ["", ""]


def test_wrong_field_count(tmp_path: Path) -> None:
    p = tmp_path / "voters.txt"
    good = boe_line(BOE_FIELDS_47, record(BOE_FIELDS_47, SBOEID="NY1"))
    bad = boe_line(BOE_FIELDS_47[:46], record(BOE_FIELDS_47, SBOEID="NY2"))
    p.write_text(f"{good}\n{good.replace('NY1', 'NY3')}\n{bad}\n", encoding="latin-1")
    with pytest.raises(InputError) as exc:
        read_voters(p)
    assert exc.value.row == 3 and "46 fields" in exc.value.message
    assert "voters.txt, row 3" in exc.value.message


def test_unknown_layout(tmp_path: Path) -> None:
    p = tmp_path / "voters.txt"
    p.write_text('"a","b","c"\n', encoding="latin-1")
    with pytest.raises(InputError) as exc:
        read_voters(p)
    assert exc.value.row == 1 and "3 fields" in exc.value.message


def test_duplicate_and_missing_sboeid(tmp_path: Path) -> None:
    with pytest.raises(InputError) as exc:
        read_voters(write_boe(tmp_path, BOE_FIELDS_47, [ANNA, BEN, ANNA]))
    assert (exc.value.row, exc.value.column) == (3, "SBOEID")
    assert "rows 1, 3" in exc.value.message
    with pytest.raises(InputError) as exc:
        read_voters(write_boe(tmp_path, BOE_FIELDS_47, [ANNA, {**BEN, "SBOEID": ""}]))
    assert (exc.value.row, exc.value.column) == (2, "SBOEID")


def test_missing_and_empty(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        read_voters(tmp_path / "none.txt")
    (tmp_path / "e.txt").write_text("")
    with pytest.raises(InputError, match="empty"):
        read_voters(tmp_path / "e.txt")
    # a header alone, or a row of empty fields: no voter (not a 0 % resident test)
    (tmp_path / "h.csv").write_text("LASTNAME,FIRSTNAME,SBOEID,STATUS\n")
    (tmp_path / "b.txt").write_text(",".join(['""'] * 47) + "\n")
    for name in ("h.csv", "b.txt"):
        with pytest.raises(InputError, match="the voter file holds no voter"):
            read_voters(tmp_path / name)


def test_header_missing_required(tmp_path: Path) -> None:
    p = tmp_path / "voters.csv"
    p.write_text("SBOEID,LASTNAME,FIRSTNAME\nNY1,A,B\n")
    with pytest.raises(InputError) as exc:
        read_voters(p)
    assert exc.value.column == "STATUS"
    # a header without SBOEID is still a header (it names BOE fields), and is
    # told it lacks SBOEID, not that it has the wrong number of fields
    p.write_text("LASTNAME,FIRSTNAME,STATUS,RADDNUMBER\nA,B,A,1\n")
    with pytest.raises(InputError) as exc:
        read_voters(p)
    assert exc.value.column == "SBOEID"
    assert "required column is missing" in exc.value.message


@pytest.mark.slow
def test_150k_voters_fast(tmp_path: Path) -> None:
    rec = record(BOE_FIELDS_47, **{k: v for k, v in ANNA.items()})
    template = boe_line(BOE_FIELDS_47, {**rec, "SBOEID": "{}"}) + "\r\n"
    p = tmp_path / "voters.txt"
    body = "".join(template.format(f"NY{i:018d}") for i in range(150_000))
    p.write_bytes(body.encode("latin-1"))
    start = time.perf_counter()
    voters = read_voters(p)
    elapsed = time.perf_counter() - start
    assert len(voters) == 150_000
    assert elapsed < 3.0, elapsed


def test_status_that_is_no_boe_code_is_bad_input(tmp_path: Path) -> None:
    # F9: a voter whose STATUS is no BOE code cannot be classed as counted or
    # not: dropped silently, 5 such voters of 10 turned 1 signer in 10 (10 %)
    # into 1 in 5 (20 %). Refused, naming file, data row, column and value.
    for written, shown in (("ACTIVE", "status 'ACTIVE'"), ("", "a blank status")):
        recs = [ANNA, BEN, {**BEN, "SBOEID": "NY000000000000000003", "STATUS": written}]
        with pytest.raises(InputError) as exc:
            read_voters(write_boe(tmp_path, BOE_FIELDS_47, recs))
        assert (exc.value.row, exc.value.column) == (3, "STATUS")  # the third data row
        assert f"voters.txt, row 3, column 'STATUS': {shown} is no Board" in exc.value.message
        assert "A, AM, AF, AP, AU, I, P, 17" in exc.value.message


def test_status_codes_in_any_case(tmp_path: Path) -> None:
    # every BOE code is accepted, lower case too, and kept as written
    codes = ["a", "AM", "af", "AP", "au", "i", "p", "17"]
    recs = [{**BEN, "SBOEID": f"NY{i:018d}", "STATUS": c} for i, c in enumerate(codes)]
    voters = read_voters(write_boe(tmp_path, BOE_FIELDS_47, recs))
    assert voters["STATUS"].tolist() == codes


def test_registration_inactive_and_purge_dates_kept_as_iso(tmp_path: Path) -> None:
    # F4: REGDATE, INACT_DATE, PURGE_DATE are kept (as ISO text) for the status
    # as of the filing date; YYYYMMDD as the BOE writes it, ISO and US M/D/YYYY
    # as a spreadsheet may save it; blank stays blank. DOB stays dropped.
    recs = [
        {**ANNA, "REGDATE": "20230715"},
        {**BEN, "STATUS": "P", "INACT_DATE": "2021-03-15", "PURGE_DATE": "9/1/2023"},
    ]
    voters = read_voters(write_boe(tmp_path, BOE_FIELDS_47, recs))
    assert voters["REGDATE"].tolist() == ["2023-07-15", ""]
    assert voters["INACT_DATE"].tolist() == ["", "2021-03-15"]
    assert voters["PURGE_DATE"].tolist() == ["", "2023-09-01"]
    assert "DOB" not in voters.columns


def test_a_date_that_is_no_date_is_bad_input(tmp_path: Path) -> None:
    # 20231345: month 13 does not exist; the second data row, column PURGE_DATE
    recs = [ANNA, {**BEN, "STATUS": "P", "PURGE_DATE": "20231345"}]
    with pytest.raises(InputError) as exc:
        read_voters(write_boe(tmp_path, BOE_FIELDS_47, recs))
    assert (exc.value.row, exc.value.column) == (2, "PURGE_DATE")
    assert "'20231345' is not a date" in exc.value.message


def test_two_registrations_of_one_name_and_birth_date_are_one_person(tmp_path: Path) -> None:
    # Anna registered twice (same names, middle initial and date of birth): the
    # second registration's person is the first's SBOEID; Ben, born the same day
    # but of another name, and an Anna without a date of birth are their own.
    # The date of birth itself is not kept.
    twice = {**ANNA, "SBOEID": "NY000000000000000099", "DOB": "19650412"}
    recs = [
        {**ANNA, "DOB": "19650412"},
        {**BEN, "DOB": "19650412"},
        twice,
        {**ANNA, "SBOEID": "NY000000000000000077", "DOB": ""},
    ]
    voters = read_voters(write_boe(tmp_path, BOE_FIELDS_47, recs))
    first = voters["SBOEID"].iloc[0]
    assert voters["REGISTRANT"].tolist() == [
        first,
        voters["SBOEID"].iloc[1],
        first,
        "NY000000000000000077",
    ]
    assert "DOB" not in voters.columns


def test_a_re_registration_after_filing_does_not_undo_earlier_votes(tmp_path: Path) -> None:
    # audit V10: Anna's REGDATE is 2023-08-07 (a DMV update after filing on
    # 2023-06-01) but her history shows her voting on 2022-11-08: she was
    # registered when the petition was filed (status A then). Ben's REGDATE is
    # 2023-07-15 and the file shows no vote: not registered then ("").
    from pipeline.people.voters import status_at_filing

    recs = [
        {**ANNA, "REGDATE": "20230807", "VOTERHISTORY": "20221108 GE;20211102 GE"},
        {**BEN, "STATUS": "A", "REGDATE": "20230715"},
    ]
    voters = read_voters(write_boe(tmp_path, BOE_FIELDS_47, recs))
    assert voters["VOTED_BY"].tolist() == ["2021-11-02", ""]
    assert status_at_filing(voters, dt.date(2023, 6, 1)).tolist() == ["A", ""]


def test_a_last_vote_date_as_a_spreadsheet_saves_it_is_a_date(tmp_path: Path) -> None:
    # audit A22 F1: Anna re-registered on 2023-07-15 (after the filing on
    # 2023-06-01) and last voted on 2023-05-16, before it: registered then. With
    # LASTVOTERDATE saved as 2023-05-16 or 5/16/2023 (as REGDATE may be) only the
    # year was read, 2023 taken as its last day (after filing): she was dropped
    # from the voters and her signature did not count.
    from pipeline.people.voters import status_at_filing

    for written in ("20230516", "2023-05-16", "5/16/2023"):
        recs = [{**ANNA, "REGDATE": "2023-07-15", "VOTERHISTORY": "", "LASTVOTERDATE": written}]
        voters = read_voters(write_boe(tmp_path, BOE_FIELDS_47, recs))
        assert voters["VOTED_BY"].tolist() == ["2023-05-16"], written
        assert status_at_filing(voters, dt.date(2023, 6, 1)).tolist() == ["A"], written
    # a day-first date cannot be told from a month-first one: its year alone
    # (the vote was in 2023, no later), as a year written alone
    recs = [{**ANNA, "REGDATE": "2023-07-15", "VOTERHISTORY": "", "LASTVOTERDATE": "16.05.2023"}]
    assert read_voters(write_boe(tmp_path, BOE_FIELDS_47, recs))["VOTED_BY"].tolist() == [
        "2023-12-31"
    ]


def test_the_year_voted_at_a_previous_registration_is_no_vote_here(tmp_path: Path) -> None:
    # audit A10 F6: Ben registered on 2023-07-10, after the filing on
    # 2023-06-01; his form says he last voted in 2020 at a previous
    # registration (PREVYEARVOTED, PREVCOUNTY NJ). That is no vote on this
    # registration: he was not registered here then ("")
    from pipeline.people.voters import status_at_filing

    recs = [{**BEN, "STATUS": "A", "REGDATE": "20230710", "PREVYEARVOTED": "2020"}]
    voters = read_voters(write_boe(tmp_path, BOE_FIELDS_47, recs))
    assert voters["VOTED_BY"].tolist() == [""]
    assert status_at_filing(voters, dt.date(2023, 6, 1)).tolist() == [""]


def test_a_file_of_utf8_names_with_one_latin1_line_garbles_neither(tmp_path: Path) -> None:
    # audit A35 F3: one line saved in Latin-1 made the whole file Latin-1, and
    # every UTF-8 name garbled (MUÃ\x91OZ): each line is read in its own encoding
    f = tmp_path / "voters.csv"
    f.write_bytes(
        "SBOEID,LASTNAME,FIRSTNAME,STATUS\nNY1,MUÑOZ,JOSÉ,A\n".encode() + b"NY2,PE\xd1A,ANA,A\n"
    )
    v = read_voters(f)
    assert v["LASTNAME"].tolist() == ["MUÑOZ", "PEÑA"]
    assert v["FIRSTNAME"].tolist() == ["JOSÉ", "ANA"]


def test_a_header_naming_a_field_twice_in_two_cases_is_bad_input(tmp_path: Path) -> None:
    # audit A35 F6: STATUS and Status crashed (AttributeError, exit 1)
    f = tmp_path / "voters.csv"
    f.write_text("SBOEID,LASTNAME,FIRSTNAME,STATUS,Status\nNY1,SMITH,JOHN,A,I\n")
    with pytest.raises(InputError) as exc:
        read_voters(f)
    assert exc.value.column == "STATUS" and "twice (STATUS, Status)" in exc.value.problem
