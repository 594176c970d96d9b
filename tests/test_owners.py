"""Owners parsed from the roll (§ 2-202.1.a(2): co-owners, entities, overrides)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from pipeline.frames import OWNERSHIP_OVERRIDE_COLUMNS, ROLL_COLUMNS
from pipeline.people.owners import (
    OWNER_COLUMNS,
    is_entity_name,
    owner_counts,
    owner_quality,
    parse_owner_text,
    parse_owners,
)

REAL = Path(__file__).resolve().parents[2] / "shared/data/real"


def make_roll(records: list[dict[str, Any]]) -> pd.DataFrame:
    """A roll frame in the canonical layout; unspecified text '' and money 0."""
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
        )
        row.update(rec)
        if not row["parcel_key"]:
            row["parcel_key"] = f"{row['swis_code']}|{row['print_key_code']}"
        rows.append(row)
    df = pd.DataFrame(rows, columns=list(ROLL_COLUMNS))
    text = [c for c in ROLL_COLUMNS if df[c].dtype == object or c.endswith(("name", "_mi"))]
    return df.astype(dict.fromkeys(text, "str"))


def test_primary_and_additional_owners_person_and_entity() -> None:
    roll = make_roll(
        [
            {
                "swis_code": "104401",
                "print_key_code": "1.-1-1",
                "primary_owner_first_name": "John",
                "primary_owner_mi": "A",
                "primary_owner_last_name": "Smith",
                "primary_owner_suffix": "Jr.",
                "additional_owner_1_first": "Mary",
                "additional_owner_1_last_name": "Smith",
                # slot 2 empty, slot 3 used: owner_index stays dense (0, 1, 2)
                "additional_owner_3_first": "Ann",
                "additional_owner_3_last_name": "Jones",
            },
            {
                "swis_code": "104401",
                "print_key_code": "1.-1-2",
                "primary_owner_last_name": "Example Holdings LLC",
            },
            {
                "swis_code": "104489",
                "print_key_code": "2.-1-1",
                "primary_owner_last_name": "Town of Kinderhook",
            },
            {
                # an entity word with a first name filled in is still an entity
                "swis_code": "104489",
                "print_key_code": "2.-1-2",
                "primary_owner_first_name": "Robert",
                "primary_owner_last_name": "Miller & Sons",
            },
            {"swis_code": "104489", "print_key_code": "2.-1-3"},  # no owner at all
        ]
    )
    owners = parse_owners(roll)
    assert list(owners.columns) == list(OWNER_COLUMNS)
    assert owners["name"].tolist() == [
        "JOHN A SMITH JR.",
        "MARY SMITH",
        "ANN JONES",
        "EXAMPLE HOLDINGS LLC",
        "TOWN OF KINDERHOOK",
        "ROBERT MILLER & SONS",
    ]
    assert owners["kind"].tolist() == ["person", "person", "person", "entity", "entity", "entity"]
    assert owners["owner_index"].tolist() == [0, 1, 2, 0, 0, 0]
    assert owners["norm_name"].tolist()[:2] == ["JOHN A SMITH JR", "MARY SMITH"]
    assert owners["norm_name"].iloc[5] == "ROBERT MILLER AND SONS"
    first = owners.iloc[0]
    assert (first["first"], first["middle"], first["last"], first["suffix"]) == (
        "JOHN",
        "A",
        "SMITH",
        "JR.",
    )
    ent = owners.iloc[3]
    assert (ent["first"], ent["last"]) == ("", "EXAMPLE HOLDINGS LLC")
    counts = owner_counts(owners)
    # 3 owners on the first record, 1 on each entity record; the empty record has none
    assert counts.to_dict() == {
        "104401|1.-1-1": 3,
        "104401|1.-1-2": 1,
        "104489|2.-1-1": 1,
        "104489|2.-1-2": 1,
    }
    assert owners["owner_count"].tolist() == [3, 3, 3, 1, 1, 1]
    assert set(owners["owner_source"]) == {"roll"}


def test_a_couple_in_one_first_name_field_is_two_owners() -> None:
    # "John & Mary" / "Doe": JOHN DOE and MARY DOE, 2 owners (a co-owner is
    # credited value / 2). "Ann B and Carl" / "Lee" with middle "Q": the first
    # person keeps the slot's initial only when the part has none of its own.
    # "Smith & Jones LLC" in the last name is an entity, left whole.
    roll = make_roll(
        [
            {
                "swis_code": "104489",
                "print_key_code": "1.-1-1",
                "primary_owner_first_name": "John & Mary",
                "primary_owner_last_name": "Doe",
                "additional_owner_1_first": "Pat",
                "additional_owner_1_last_name": "Roe",
            },
            {
                "swis_code": "104489",
                "print_key_code": "1.-1-2",
                "primary_owner_first_name": "Ann B and Carl",
                "primary_owner_mi": "Q",
                "primary_owner_last_name": "Lee",
            },
            {
                "swis_code": "104489",
                "print_key_code": "1.-1-3",
                "primary_owner_last_name": "Smith & Jones LLC",
            },
        ]
    )
    owners = parse_owners(roll)
    by = {k: g for k, g in owners.groupby("parcel_key", sort=False)}
    one = by["104489|1.-1-1"]
    assert one["name"].tolist() == ["JOHN DOE", "MARY DOE", "PAT ROE"]  # roll order kept
    assert one["owner_count"].tolist() == [3, 3, 3]
    two = by["104489|1.-1-2"]
    assert two["name"].tolist() == ["ANN B LEE", "CARL LEE"]
    assert two["owner_count"].tolist() == [2, 2]
    three = by["104489|1.-1-3"]
    assert three["name"].tolist() == ["SMITH & JONES LLC"]
    assert three["kind"].tolist() == ["entity"]


def test_ownership_override_wins() -> None:
    roll = make_roll(
        [
            {
                "swis_code": "104401",
                "print_key_code": "5",
                "primary_owner_first_name": "Old",
                "primary_owner_last_name": "Owner",
            },
            {
                "swis_code": "104401",
                "print_key_code": "6",
                "primary_owner_first_name": "Keep",
                "primary_owner_last_name": "Me",
            },
        ]
    )
    ov = pd.DataFrame(
        [
            {
                "parcel_key": "104401|5",
                "swis_code": "104401",
                "print_key_code": "5",
                # three tenants in common, two named: the divisor is the assessor's 3
                "owner_count": 3,
                "owners": ("Jane Q. Roe", "Smith Farms LLC"),
                "note": "deed 702/502",
                "source_row": 1,
            }
        ],
        columns=list(OWNERSHIP_OVERRIDE_COLUMNS),
    )
    owners = parse_owners(roll, overrides=ov)
    assert owners["name"].tolist() == ["JANE Q. ROE", "SMITH FARMS LLC", "KEEP ME"]
    assert owners["kind"].tolist() == ["person", "entity", "person"]
    assert owners["owner_source"].tolist() == ["override", "override", "roll"]
    assert (owners.iloc[0]["first"], owners.iloc[0]["middle"], owners.iloc[0]["last"]) == (
        "JANE",
        "Q.",
        "ROE",
    )
    assert owner_counts(owners).to_dict() == {"104401|5": 3, "104401|6": 1}


def test_ownership_override_of_the_count_alone_keeps_the_roll_owners() -> None:
    # the roll names John and Mary Smith; the assessor knows of a third tenant
    # in common and gives only the count: both keep their place, divisor 3
    roll = make_roll(
        [
            {
                "swis_code": "104401",
                "print_key_code": "5",
                "primary_owner_first_name": "John",
                "primary_owner_last_name": "Smith",
                "additional_owner_1_first": "Mary",
                "additional_owner_1_last_name": "Smith",
            }
        ]
    )
    ov = pd.DataFrame(
        [
            {
                "parcel_key": "104401|5",
                "swis_code": "104401",
                "print_key_code": "5",
                "owner_count": 3,
                "owners": (),
                "note": "a third tenant in common",
                "source_row": 1,
            }
        ],
        columns=list(OWNERSHIP_OVERRIDE_COLUMNS),
    )
    owners = parse_owners(roll, overrides=ov)
    assert owners["name"].tolist() == ["JOHN SMITH", "MARY SMITH"]
    assert owners["owner_source"].tolist() == ["roll", "roll"]
    assert owner_counts(owners).to_dict() == {"104401|5": 3}


@pytest.mark.parametrize(
    ("name", "entity"),
    [
        ("EXAMPLE HOLDINGS LLC", True),
        ("Example Holdings, L.L.C.", True),
        ("ST JOHN'S CHURCH", True),
        ("KINDERHOOK CENTRAL SCHOOL DISTRICT", True),
        ("COUNTY OF COLUMBIA", True),
        ("SMITH FAMILY TRUST", True),
        ("ESTATE OF JOHN DOE", True),
        ("FIRST NATIONAL BANK", True),
        ("JOHN SMITH", False),
        ("MARY COLLINS", False),  # "CO" inside a word is no entity
        ("INGRID LLOYD", False),
    ],
)
def test_entity_words(name: str, entity: bool) -> None:
    assert is_entity_name(name) is entity


def test_real_orpts_rows() -> None:
    path = REAL / "orpts-row-example.json"
    if not path.exists():
        pytest.skip(f"real data not present: {path}")
    records = json.loads(path.read_text())
    recs = [
        {k: v for k, v in r.items() if k in ROLL_COLUMNS and k not in ("roll_year", "roll_section")}
        for r in records
    ]
    owners = parse_owners(make_roll(recs))
    # row 1: "Example Holdings LLC" in the last-name field only -> one entity owner
    # row 2: Jonah J Carver and Krista N Samson -> two co-owners
    assert owners["name"].tolist() == ["EXAMPLE HOLDINGS LLC", "JONAH J CARVER", "KRISTA N SAMSON"]
    assert owners["kind"].tolist() == ["entity", "person", "person"]
    assert owners["owner_count"].tolist() == [1, 2, 2]


def test_many_rows_vectorised() -> None:
    # 20,000 records x 2 owners: every record parsed, no row lost
    n = 20_000
    roll = make_roll(
        [
            {
                "swis_code": "104401",
                "print_key_code": str(i),
                "primary_owner_first_name": "Pat" if i % 2 else "",
                "primary_owner_last_name": f"Owner{i % 997}" if i % 2 else f"Firm {i % 89} LLC",
                "additional_owner_1_first": "Sam",
                "additional_owner_1_last_name": "Lee",
            }
            for i in range(n)
        ]
    )
    owners = parse_owners(roll)
    assert len(owners) == 2 * n
    assert (owner_counts(owners) == 2).all()
    assert (owners["kind"] == "entity").sum() == n // 2


@pytest.mark.parametrize("text", ["AND", "&", "& AND", "and"])
def test_joining_words_alone_name_no_owner(text: str) -> None:
    # a key-entry leftover of "SMITH JOHN &" split across the owner fields: no
    # owner, and no crash (audit A5: IndexError before)
    assert parse_owner_text(text) == []


def test_an_owner_slot_without_a_letter_names_no_owner() -> None:
    # "SMITH JOHN &" keyed across slots leaves "&" alone in a slot (audit V10 N2):
    # it is no third co-owner. 1.-1-1: JOHN SMITH and MARY SMITH, 2 owners, so a
    # signer is credited 1/2 of the value, not 1/3. 1.-1-2 has "&" alone: no
    # owner at all, told as without_owner. 1.-1-3: "-" and "." name no one.
    roll = make_roll(
        [
            {
                "swis_code": "104401",
                "print_key_code": "1.-1-1",
                "primary_owner_first_name": "John",
                "primary_owner_last_name": "Smith",
                "additional_owner_1_last_name": "&",
                "additional_owner_2_first": "Mary",
                "additional_owner_2_last_name": "Smith",
            },
            {"swis_code": "104401", "print_key_code": "1.-1-2", "primary_owner_last_name": "&"},
            {
                "swis_code": "104401",
                "print_key_code": "1.-1-3",
                "primary_owner_first_name": "Ann",
                "primary_owner_last_name": "Lee",
                "additional_owner_1_first": "-",
                "additional_owner_1_last_name": ".",
            },
        ]
    )
    owners = parse_owners(roll)
    assert owners["name"].tolist() == ["JOHN SMITH", "MARY SMITH", "ANN LEE"]
    assert owner_counts(owners).to_dict() == {"104401|1.-1-1": 2, "104401|1.-1-3": 1}
    quality = owner_quality(owners, roll)
    assert quality["without_owner"]["keys"] == ["104401|1.-1-2"]


def test_a_trustee_in_the_name_fields_is_read_first_name_first() -> None:
    # Audit A14 F1: with a first name, the slot's fields are joined First Last:
    # ANN + "LEE TRUSTEE" is the trust of trustee ANN LEE (not "LEE ANN"), and
    # BOB KING with the suffix TRUSTEE is BOB KING's; with the last-name field
    # alone the text is surname first (DOE JANE TRUSTEE: JANE DOE).
    roll = make_roll(
        [
            {"swis_code": "104401", "print_key_code": "1", "primary_owner_first_name": "ANN",
             "primary_owner_last_name": "LEE TRUSTEE"},
            {"swis_code": "104401", "print_key_code": "2", "primary_owner_first_name": "BOB",
             "primary_owner_last_name": "KING", "primary_owner_suffix": "TRUSTEE"},
            {"swis_code": "104401", "print_key_code": "3",
             "primary_owner_last_name": "DOE JANE TRUSTEE"},
        ]
    )  # fmt: skip
    owners = parse_owners(roll)
    assert owners["kind"].tolist() == ["entity"] * 3
    assert owners["role"].tolist() == ["trustee"] * 3
    assert owners["agent"].tolist() == ["ANN LEE", "BOB KING", "JANE DOE"]


def test_an_owner_slot_of_a_first_name_only_takes_the_records_surname() -> None:
    # Audit A14 F2. 1: JOHN SMITH and MARY (no last name) -> MARY SMITH, 2 owners.
    # 2: MARY first, then PAUL JONES -> the nearest slot after gives JONES.
    # 3: the trust beside ANN is no person: ANN stays as written.
    # 4: "JOHN & MARY" beside ROE ALICE: both take ROE, then split (3 owners).
    roll = make_roll(
        [
            {"swis_code": "104401", "print_key_code": "1", "primary_owner_first_name": "JOHN",
             "primary_owner_last_name": "SMITH", "additional_owner_1_first": "MARY"},
            {"swis_code": "104401", "print_key_code": "2", "primary_owner_first_name": "MARY",
             "additional_owner_1_first": "PAUL", "additional_owner_1_last_name": "JONES"},
            {"swis_code": "104401", "print_key_code": "3",
             "primary_owner_last_name": "DOE FAMILY TRUST", "additional_owner_1_first": "ANN"},
            {"swis_code": "104401", "print_key_code": "4", "primary_owner_first_name": "ALICE",
             "primary_owner_last_name": "ROE", "additional_owner_1_first": "JOHN & MARY"},
        ]
    )  # fmt: skip
    owners = parse_owners(roll)
    by_key = owners.groupby("parcel_key")["name"].apply(list).to_dict()
    assert by_key == {
        "104401|1": ["JOHN SMITH", "MARY SMITH"],
        "104401|2": ["MARY JONES", "PAUL JONES"],
        "104401|3": ["DOE FAMILY TRUST", "ANN"],
        "104401|4": ["ALICE ROE", "JOHN ROE", "MARY ROE"],
    }
    assert owner_counts(owners).to_dict() == {
        "104401|1": 2, "104401|2": 2, "104401|3": 2, "104401|4": 3
    }  # fmt: skip
    listed = owner_quality(owners, roll)["surname_from_co_owner"]
    assert listed["keys"] == ["104401|1", "104401|2", "104401|3", "104401|4"]


def test_a_first_name_only_slot_takes_a_surname_only_where_it_is_sure() -> None:
    # Audit A16. Each record: JOHN SMITH (or as given) and a slot of no last name.
    # 1 "MARY JONES" may be a whole name: as written (not MARY JONES SMITH).
    # 2 "MR & MRS" are titles (MR is John): as written, 2 owners, not 3.
    # 3 two surnames in the record (POWER, SMITH): which is MARY's cannot be told.
    # 4 POWER is a surname beside a first name: MARY POWER.
    # 5 an accented given name: MARIÉ SMITH.
    # 6 "JOHN" beside JOHN SMITH would repeat him: as written.
    # 7 the surname field "SMITH JR" holds a suffix: as written.
    # 8 a given name and an initial: MARY J SMITH.
    # 9-11 below.
    slots = [
        ("primary_owner_first_name", "primary_owner_last_name", "primary_owner_suffix"),
        *(
            (f"additional_owner_{i}_first", f"additional_owner_{i}_last_name",
             f"additional_owner_{i}_suffix")
            for i in (1, 2)
        ),
    ]  # fmt: skip
    records = [
        [("JOHN", "SMITH"), ("MARY JONES", "")],
        [("JOHN", "SMITH"), ("MR & MRS", "")],
        [("JOHN", "POWER"), ("MARY", ""), ("WM", "SMITH", "III")],
        [("JOHN", "POWER"), ("MARY", "")],
        [("JOHN", "SMITH"), ("MARIÉ", "")],
        [("JOHN", "SMITH"), ("JOHN", "")],
        [("JOHN", "SMITH JR"), ("MARY", "")],
        [("JOHN", "SMITH"), ("MARY J", "")],
        [("JOHN", "SMITH"), ("UNKNOWN", "")],
        [("JOHN", "SMITH REVOCABLE TRUST"), ("ALICE", "WHITE"), ("MARY", "")],
        [("JOHN", "SMITH"), ("MARY", "", "TRUSTEE")],
        [("", "JOHN SMITH TRUST"), ("ROBERT", "SMITH"), ("JOHN", "")],
        [("BOB", "KING", "TRUSTEE"), ("MARY", "")],
        [("JOHN & MARY", "SMITH"), ("MARY", "")],
    ]
    rows = []
    for n, rec in enumerate(records, start=1):
        row = {"swis_code": "104401", "print_key_code": str(n)}
        for (f, last, sfx), written in zip(slots, rec, strict=False):
            row[f], row[last] = written[0], written[1]
            if len(written) > 2:
                row[sfx] = written[2]
        rows.append(row)
    owners = parse_owners(make_roll(rows))
    names = owners.groupby("parcel_key", sort=False)["name"].apply(list).tolist()
    assert names == [
        ["JOHN SMITH", "MARY JONES"],
        ["JOHN SMITH", "MR & MRS"],
        ["JOHN POWER", "MARY", "WM SMITH III"],
        ["JOHN POWER", "MARY POWER"],
        ["JOHN SMITH", "MARIÉ SMITH"],
        ["JOHN SMITH", "JOHN"],
        ["JOHN SMITH JR", "MARY"],
        ["JOHN SMITH", "MARY J SMITH"],
        ["JOHN SMITH", "UNKNOWN"],  # 9: no given name
        # 10: the trust is the SMITHs' too: WHITE or SMITH cannot be told
        ["JOHN SMITH REVOCABLE TRUST", "ALICE WHITE", "MARY"],
        ["JOHN SMITH", "MARY TRUSTEE"],  # 11: a suffix of her own: as written
        # 12-14 (audit A17): a family trust in the last-name field, a trustee's
        # slot (the trust is the owner), a repeat of a joint name: as written
        ["JOHN SMITH TRUST", "ROBERT SMITH", "JOHN"],
        ["BOB KING TRUSTEE", "MARY"],
        ["JOHN SMITH", "MARY SMITH", "MARY"],
    ]


def test_a_trust_written_with_tr_is_the_owner_and_its_trustee_no_second() -> None:
    # Audit A17: DOE IRREVOCABLE TR (TR for TRUST) with JANE DOE TRUSTEE beside
    # it: one owner, the trust, signed for by Jane Doe (it was two: the TR read
    # as a trustee's mark, the trust found by no trust word)
    roll = make_roll(
        [
            {"swis_code": "104401", "print_key_code": "1",
             "primary_owner_last_name": "DOE IRREVOCABLE TR",
             "additional_owner_1_first": "JANE", "additional_owner_1_last_name": "DOE",
             "additional_owner_1_suffix": "TRUSTEE"},
        ]
    )  # fmt: skip
    owners = parse_owners(roll)
    assert owners["name"].tolist() == ["DOE IRREVOCABLE TR"]
    assert owners["agent"].tolist() == ["JANE DOE"]
    assert owner_counts(owners).tolist() == [1]
