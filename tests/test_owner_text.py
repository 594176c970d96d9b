"""Owners read from free text (county parcel layers, override names): hand-worked shapes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from pipeline.frames import OWNERSHIP_OVERRIDE_COLUMNS, ROLL_COLUMNS
from pipeline.people.owners import (
    OWNER_COLUMNS,
    ParsedOwner,
    owner_counts,
    owner_quality,
    parse_owner_text,
    parse_owners,
)


def parts(o: ParsedOwner) -> tuple[str, str, str, str]:
    return (o.first, o.middle, o.last, o.suffix)


def one(text: str, **kw: Any) -> ParsedOwner:
    out = parse_owner_text(text, **kw)
    assert len(out) == 1, out
    return out[0]


# ------------------------------------------------------------------ persons


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        # LAST FIRST MI, the county order
        ("SMITH JOHN A", "JOHN A SMITH", ("JOHN", "A", "SMITH", "")),
        # a comma: LAST, FIRST MI in any case
        ("Smith, Mary B", "MARY B SMITH", ("MARY", "B", "SMITH", "")),
        ("SMITH JOHN JR", "JOHN SMITH JR", ("JOHN", "", "SMITH", "JR")),
        # the suffix written right after the surname
        ("SMITH JR JOHN", "JOHN SMITH JR", ("JOHN", "", "SMITH", "JR")),
        # surname particles stay with the surname
        ("MC DONALD JOHN", "JOHN MC DONALD", ("JOHN", "", "MC DONALD", "")),
        ("VAN BUREN MARTIN", "MARTIN VAN BUREN", ("MARTIN", "", "VAN BUREN", "")),
        ("DE LA CRUZ MARIA", "MARIA DE LA CRUZ", ("MARIA", "", "DE LA CRUZ", "")),
        ("O'BRIEN PATRICK", "PATRICK O'BRIEN", ("PATRICK", "", "O'BRIEN", "")),
        # an entity word that is also a surname, in the surname place: a person
        ("POWER MARY", "MARY POWER", ("MARY", "", "POWER", "")),
    ],
)
def test_person_last_first(text: str, name: str, expected: tuple[str, str, str, str]) -> None:
    o = one(text)
    assert (o.name, o.kind, o.subkind, o.role, o.etal) == (name, "person", "person", "", False)
    assert parts(o) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Jane Q. Roe", ("JANE", "Q.", "ROE", "")),
        ("Martin Van Buren", ("MARTIN", "", "VAN BUREN", "")),
        ("Maria de la Cruz", ("MARIA", "", "DE LA CRUZ", "")),
        ("John Smith Jr.", ("JOHN", "", "SMITH", "JR.")),
        ("Smith, John", ("JOHN", "", "SMITH", "")),  # a comma wins over the order
    ],
)
def test_person_first_last(text: str, expected: tuple[str, str, str, str]) -> None:
    o = one(text, order="first_last")
    assert o.kind == "person"
    assert parts(o) == expected


# ------------------------------------------------------------------ co-owners


def test_two_persons_sharing_the_surname() -> None:
    a, b = parse_owner_text("SMITH JOHN & MARY")
    assert (a.name, b.name) == ("JOHN SMITH", "MARY SMITH")
    assert parts(b) == ("MARY", "", "SMITH", "")
    # a first name with an initial also shares it
    _, c = parse_owner_text("SMITH JOHN A & MARY B")
    assert parts(c) == ("MARY", "B", "SMITH", "")
    # "AND" as well as "&"; in first-last order the surname comes last
    assert [o.name for o in parse_owner_text("SMITH JOHN AND MARY")] == ["JOHN SMITH", "MARY SMITH"]
    assert [o.name for o in parse_owner_text("John & Mary Smith", order="first_last")] == [
        "JOHN SMITH",
        "MARY SMITH",
    ]


def test_two_persons_two_surnames() -> None:
    a, b = parse_owner_text("SMITH JOHN & JONES MARY")
    assert (parts(a), parts(b)) == (("JOHN", "", "SMITH", ""), ("MARY", "", "JONES", ""))


def test_etal_flags_more_owners() -> None:
    o = one("JONES ROBERT ETAL")
    assert (o.name, o.kind, o.etal) == ("ROBERT JONES", "person", True)
    assert one("JONES ROBERT ET AL").etal
    assert one("SMITH JOHN ET UX").etal  # "and wife": a second, unnamed owner
    assert not one("JONES ROBERT").etal


# ------------------------------------------------------------------ entities


@pytest.mark.parametrize(
    ("text", "subkind"),
    [
        ("EXAMPLE HOLDINGS LLC", "business"),
        ("EXAMPLE HOLDINGS, L.L.C.", "business"),
        ("ACME INC", "business"),
        ("ACME CORP", "business"),
        ("SMITH & SONS INC", "business"),  # not split on "&"
        ("ACME REAL ESTATE", "business"),  # "REAL ESTATE" is no estate
        ("TOWN OF KINDERHOOK", "government"),
        ("COUNTY OF COLUMBIA", "government"),
        ("STATE OF NEW YORK", "government"),
        ("PEOPLE OF THE STATE OF NY", "government"),
        ("KINDERHOOK CENTRAL SCHOOL DISTRICT", "government"),
        ("ST JOHNS CHURCH", "organization"),
        ("SMITH FAMILY REV TRUST", "trust"),
        ("SMITH JOHN TRUST", "trust"),
        ("SMITH JOHN & MARY REV LIV TRUST", "trust"),  # one trust, not two persons
        ("SMITH", "other"),  # no first name: one owner, not a person
        ("SMITH & JONES", "other"),
    ],
)
def test_entities_are_one_owner(text: str, subkind: str) -> None:
    o = one(text)
    assert (o.kind, o.subkind, o.role) == ("entity", subkind, "")
    assert o.name == text.upper()


def test_estates() -> None:
    a = one("ESTATE OF JOHN SMITH")
    b = one("SMITH JOHN ESTATE")
    c = one("SMITH JOHN EST")
    # the same estate whichever way it is written
    assert a.name == b.name == c.name == "ESTATE OF JOHN SMITH"
    assert (a.kind, a.subkind) == ("entity", "estate")
    assert parts(b) == ("JOHN", "", "SMITH", "")  # the decedent
    ex = one("SMITH MARY EXEC")
    assert (ex.kind, ex.subkind, ex.role, ex.agent) == (
        "entity",
        "estate",
        "executor",
        "MARY SMITH",
    )


def test_trustees_sign_for_one_trust() -> None:
    o = one("SMITH JOHN TRUSTEE")
    assert (o.kind, o.subkind, o.role, o.agent) == ("entity", "trust", "trustee", "JOHN SMITH")
    assert o.name == "SMITH JOHN TRUSTEE"
    # two trustees: still one owner, both named as agents
    t = one("SMITH JOHN & MARY TTEES")
    assert (t.kind, t.subkind, t.agent) == ("entity", "trust", "JOHN SMITH; MARY SMITH")
    # written in reading order
    r = one("John Smith Trustee", order="first_last")
    assert (r.subkind, r.agent) == ("trust", "JOHN SMITH")


def test_life_estate_and_remainder() -> None:
    for text in (
        "SMITH MARY LIFE ESTATE",
        "SMITH MARY (LU)",
        "SMITH MARY L/U",
        "SMITH MARY LIFE USE",
    ):
        o = one(text)
        assert (o.name, o.kind, o.role) == ("MARY SMITH", "person", "life tenant"), text
    # a bare LU is a name, not the life-use mark
    assert one("SMITH MARY LU").middle == "LU"
    lt, rem = parse_owner_text("SMITH MARY L/U & SMITH JOHN (REM)")
    assert (lt.role, rem.role) == ("life tenant", "remainder")
    assert (rem.name, rem.kind) == ("JOHN SMITH", "person")


def test_care_of_is_not_an_owner() -> None:
    for text in (
        "SMITH JOHN C/O JANE DOE",
        "SMITH JOHN\nC/O JANE DOE",
        "SMITH JOHN; ATTN JANE DOE",
    ):
        owner, care = parse_owner_text(text)
        assert (owner.name, owner.is_owner) == ("JOHN SMITH", True), text
        assert (care.name, care.role, care.is_owner) == ("JANE DOE", "c/o", False), text


def test_empty_text() -> None:
    assert parse_owner_text("") == []
    assert parse_owner_text("  ") == []


# ------------------------------------------------------------------ the owners frame


def make_roll(records: list[dict[str, Any]]) -> pd.DataFrame:
    """A roll frame in the canonical layout plus owner_text; unspecified text ''."""
    rows = []
    for i, rec in enumerate(records, start=1):
        row: dict[str, Any] = dict.fromkeys(ROLL_COLUMNS, "")
        row.update(
            roll_year=2023,
            roll_section=1,
            assessment_land=0.0,
            assessment_total=0.0,
            full_market_value=np.nan,
            town_taxable_value=np.nan,
            source_row=i,
            swis_code="104401",
            owner_text="",
        )
        row.update(rec)
        row["parcel_key"] = f"{row['swis_code']}|{row['print_key_code']}"
        rows.append(row)
    df = pd.DataFrame(rows, columns=[*ROLL_COLUMNS, "owner_text"])
    text = [c for c in df.columns if df[c].dtype == object or c.endswith(("name", "_mi"))]
    return df.astype(dict.fromkeys(text, "str"))


def test_owner_text_column_counts() -> None:
    roll = make_roll(
        [
            {"print_key_code": "1", "owner_text": "SMITH JOHN & MARY"},  # 2 co-owners
            {"print_key_code": "2", "owner_text": "SMITH JOHN & JONES MARY"},  # 2
            {"print_key_code": "3", "owner_text": "JONES ROBERT ETAL"},  # 1, at least
            {"print_key_code": "4", "owner_text": "SMITH FAMILY REV TRUST\nC/O JOHN SMITH"},
            {"print_key_code": "5", "owner_text": "C/O JOHN SMITH"},  # no owner at all
            # structured fields win over the text (ORPTS reads as before)
            {
                "print_key_code": "6",
                "primary_owner_first_name": "Ann",
                "primary_owner_last_name": "Lee",
                "owner_text": "SOMEONE ELSE",
            },
            {"print_key_code": "7", "owner_text": "SMITH JOHN & MARY"},  # same text again
        ]
    )
    owners = parse_owners(roll)
    assert list(owners.columns) == list(OWNER_COLUMNS)
    assert owners["name"].tolist() == [
        "JOHN SMITH",
        "MARY SMITH",
        "JOHN SMITH",
        "MARY JONES",
        "ROBERT JONES",
        "SMITH FAMILY REV TRUST",
        "ANN LEE",
        "JOHN SMITH",
        "MARY SMITH",
    ]
    assert owners["owner_source"].tolist() == ["text"] * 6 + ["roll"] + ["text"] * 2
    assert owners["owner_index"].tolist() == [0, 1, 0, 1, 0, 0, 0, 0, 1]
    assert owners["kind"].tolist() == ["person"] * 5 + ["entity"] + ["person"] * 3
    assert owners["subkind"].tolist() == ["person"] * 5 + ["trust"] + ["person"] * 3
    # counts: A & B -> 2; ETAL -> the 1 name read, flagged; a trust -> 1
    assert owner_counts(owners).to_dict() == {
        "104401|1": 2,
        "104401|2": 2,
        "104401|3": 1,
        "104401|4": 1,
        "104401|6": 1,
        "104401|7": 2,
    }
    assert owners.loc[owners["etal"], "parcel_key"].tolist() == ["104401|3"]
    assert owners.loc[owners["care_of"] != "", "care_of"].tolist() == ["JOHN SMITH"]
    trust = owners.iloc[5]
    assert (trust["first"], trust["last"]) == ("", "SMITH FAMILY REV TRUST")
    q = owner_quality(owners, roll)
    assert q["etal"]["keys"] == ["104401|3"]
    assert "override" in q["etal"]["note"]
    assert q["care_of"]["keys"] == ["104401|4"]
    assert q["without_owner"]["keys"] == ["104401|5"]


def test_structured_entity_subkinds_and_etal() -> None:
    roll = make_roll(
        [
            {"print_key_code": "1", "primary_owner_last_name": "Town of Kinderhook"},
            {"print_key_code": "2", "primary_owner_last_name": "Smith John Trustee"},
            {
                "print_key_code": "3",
                "primary_owner_first_name": "Robert",
                "primary_owner_last_name": "Jones Etal",
            },
        ]
    )
    owners = parse_owners(roll)
    assert owners["subkind"].tolist() == ["government", "trust", "person"]
    assert owners["role"].tolist() == ["", "trustee", ""]
    assert owners["agent"].tolist() == ["", "JOHN SMITH", ""]
    # "ETAL" leaves the name and flags the parcel
    assert (owners.iloc[2]["name"], bool(owners.iloc[2]["etal"])) == ("ROBERT JONES", True)
    assert owners["etal"].tolist() == [False, False, True]


def test_an_owner_slot_of_etal_alone_is_no_owner() -> None:
    # MARY B JONES, and "ETAL" as the additional owner's last name (audit E3):
    # one owner named (not two, one of them nameless), the parcel flagged ETAL.
    # A record whose only slot says ETAL keeps it (no name read, flagged)
    roll = make_roll(
        [
            {
                "print_key_code": "1",
                "primary_owner_first_name": "Mary",
                "primary_owner_mi": "B",
                "primary_owner_last_name": "Jones",
                "additional_owner_1_last_name": "ETAL",
            },
            {"print_key_code": "2", "primary_owner_last_name": "Etal"},
        ]
    )
    owners = parse_owners(roll)
    mine = owners.loc[owners["parcel_key"] == "104401|1"]
    assert mine["name"].tolist() == ["MARY B JONES"]
    assert mine["etal"].tolist() == [True]
    assert owner_counts(owners).to_dict()["104401|1"] == 1  # at least
    assert owners.loc[owners["parcel_key"] == "104401|2", "etal"].tolist() == [True]


@pytest.mark.parametrize(
    "fields",
    [
        # ETAL alone in an additional slot's first-name field (audit G4)
        {"additional_owner_1_first": "ETAL"},
        # ... or in its suffix field, the slot otherwise blank
        {"additional_owner_1_suffix": "ETAL"},
        # ... or in its initial field
        {"additional_owner_2_mi": "ET AL"},
    ],
)
def test_etal_in_an_otherwise_empty_slot_flags_the_record(fields: dict[str, str]) -> None:
    # EVA LANE and a slot saying only that more owners exist: one owner named
    # (at least), flagged, never a second owner called "ETAL"
    roll = make_roll(
        [
            {
                "print_key_code": "6",
                "primary_owner_first_name": "Eva",
                "primary_owner_last_name": "Lane",
                **fields,
            }
        ]
    )
    owners = parse_owners(roll)
    assert owners["name"].tolist() == ["EVA LANE"]
    assert owners["etal"].tolist() == [True]


def test_etal_in_the_first_name_field_is_no_part_of_the_name() -> None:
    # "ROBERT ETAL" / KING (audit G4): ROBERT KING, flagged
    roll = make_roll(
        [
            {
                "print_key_code": "2",
                "primary_owner_first_name": "Robert Etal",
                "primary_owner_last_name": "King",
            }
        ]
    )
    owners = parse_owners(roll)
    assert (owners["name"].tolist(), owners["etal"].tolist()) == (["ROBERT KING"], [True])


def test_override_names_parsed_and_count_wins() -> None:
    roll = make_roll([{"print_key_code": "9", "owner_text": "JONES ROBERT ETAL"}])
    ov = pd.DataFrame(
        [
            {
                "parcel_key": "104401|9",
                "swis_code": "104401",
                "print_key_code": "9",
                # the assessor: Robert Jones and his two sisters, one named here
                "owner_count": 3,
                "owners": ("Robert Jones & Ann Jones", "Jones Family Trust"),
                "note": "deed 12/34",
                "source_row": 1,
            }
        ],
        columns=list(OWNERSHIP_OVERRIDE_COLUMNS),
    )
    owners = parse_owners(roll, overrides=ov)
    assert owners["name"].tolist() == ["ROBERT JONES", "ANN JONES", "JONES FAMILY TRUST"]
    assert owners["kind"].tolist() == ["person", "person", "entity"]
    assert owners["owner_source"].tolist() == ["override"] * 3
    assert owner_counts(owners).to_dict() == {"104401|9": 3}
    # the override settles the ETAL: no longer reported
    assert owner_quality(owners)["etal"]["count"] == 0


def test_many_texts_parsed_once_each() -> None:
    # 20,000 records, 3 distinct texts: every record gets its owners
    n = 20_000
    texts = ["SMITH JOHN & MARY", "ACME LLC", "JONES ROBERT ETAL"]
    roll = make_roll([{"print_key_code": str(i), "owner_text": texts[i % 3]} for i in range(n)])
    owners = parse_owners(roll)
    # records i % 3 == 0 have 2 owners, the others 1: 6,667*2 + 6,667 + 6,666 = 26,667
    assert len(owners) == 26_667
    counts = owner_counts(owners)
    assert len(counts) == n
    assert int(owners["etal"].sum()) == 6_666
