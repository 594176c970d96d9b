"""The resident test of § 2-202.1.a(1), exact-address form, with hand-worked numbers."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from pipeline.frames import VOTER_COLUMNS
from pipeline.law.regimes import REGIMES
from pipeline.people.placement import place_addresses, situs_addresses
from pipeline.people.voters import (
    RESIDENT_MATCH_COLUMNS,
    match_resident_lines,
    qualified_voters,
    resident_test,
    signer_name_key,
    status_at_filing,
    unplaced_voters_deficiency,
    voter_addresses,
)

PRE = REGIMES["2-202-pre-2024"]
STATUSES = ["A", "AM", "AF", "AP", "AU", "I"]

# Parcels: 1 "12 Oak St" wholly inside; 2 "14 Oak St" straddles with exactly 0.5
# inside; 3 "30 Elm Ave" outside (fraction 0.2); "50 Main St" is on no parcel.
ROLL = pd.DataFrame(
    {
        "parcel_key": ["104489|1", "104489|2", "104489|3"],
        "parcel_address_number": ["12", "14", "30"],
        "parcel_address_street": ["Oak", "Oak", "Elm"],
        "parcel_address_suff": ["Street", "St", "Ave"],
    }
)
FRACTIONS = pd.Series({"104489|1": 1.0, "104489|2": 0.5, "104489|3": 0.2})


def voter(
    sboeid: str, first: str, last: str, number: str, street: str, **kw: str
) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(VOTER_COLUMNS, "")
    row.update(
        SBOEID=sboeid,
        FIRSTNAME=first,
        LASTNAME=last,
        RADDNUMBER=number,
        RSTREETNAME=street,
        STATUS="A",
        source_row=0,
    )
    row.update(kw)
    return row


def place(voters: pd.DataFrame) -> pd.DataFrame:
    return place_addresses(
        voter_addresses(voters), situs=situs_addresses(ROLL), fractions=FRACTIONS
    )


def pages(*bases: str) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "page": list(range(1, len(bases) + 1)),
            "basis": list(bases),
            "stated_signature_count": [0] * len(bases),
        }
    )


def sigs(rows: list[tuple[int, int, str, str]]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "page": [r[0] for r in rows],
            "line": [r[1] for r in rows],
            "name": [r[2] for r in rows],
            "address": [r[3] for r in rows],
            "town": ["Kinderhook"] * len(rows),
            "credited_assessed_value": [float("nan")] * len(rows),
        }
    )


def run(s: pd.DataFrame, v: pd.DataFrame, p: pd.DataFrame, **kw: Any) -> Any:
    return resident_test(s, p, v, place(v), statuses=STATUSES, regime=PRE, **kw)


def many_voters(n: int) -> pd.DataFrame:
    # n voters, all at 12 Oak St (an apartment house: units in RAPARTMENT)
    return pd.DataFrame(
        [
            voter(f"NY{i:06d}", f"First{i}", f"Last{i}", "12", "OAK ST", RAPARTMENT=str(i))
            for i in range(n)
        ]
    )


def test_voter_addresses_join_parts() -> None:
    v = pd.DataFrame(
        [
            voter("1", "A", "B", "12", "MAIN ST", RHALFCODE="1/2", RPREDIRECTION="N"),
            voter(
                "2", "A", "B", "7", "ELM", RPOSTDIRECTION="W", RAPARTMENTTYPE="APT", RAPARTMENT="3"
            ),
            voter("3", "A", "B", "", "", RADDRNONSTD="RR 2 BOX 5"),
        ]
    )
    assert voter_addresses(v).tolist() == ["12 1/2 N MAIN ST", "7 ELM W", "RR 2 BOX 5"]


def test_signer_name_key() -> None:
    assert signer_name_key("Smith, John A.") == ("JOHN A SMITH", "")
    assert signer_name_key("John Smith, Jr.") == ("JOHN SMITH", "JR")
    assert signer_name_key("Smith, John, Jr.") == ("JOHN SMITH", "JR")
    # audit A9 F7: the suffix after the given names, one comma
    assert signer_name_key("Smith, John Jr") == ("JOHN SMITH", "JR")
    assert signer_name_key("Smith, John A. Jr.") == ("JOHN A SMITH", "JR")
    assert signer_name_key("Smith, John V") == ("JOHN V SMITH", "")  # V: an initial here


def test_exactly_twenty_percent_passes() -> None:
    # 50 qualified voters, 10 of them sign: 100 × 10 / 50 = 20.0 >= 20 -> passes
    v = many_voters(50)
    s = sigs([(1, i + 1, f"First{i} Last{i}", "12 Oak Street Apt 9") for i in range(10)])
    summary, lines, defs = run(s, v, pages("residents"))
    assert summary["qualified_voters"] == 50
    assert summary["qualifying_signers"] == 10
    assert summary["percent"] == 20.0
    assert summary["passes"] is True and summary["applies"] is True
    assert defs == []
    assert (lines["status"] == "counted").all()
    assert lines["matched_to"].tolist() == [f"NY{i:06d}" for i in range(10)]
    assert (lines["match_score"] == 100.0).all()


def test_nineteen_point_nine_nine_fails() -> None:
    # 10,000 voters, 1,999 sign: 100 × 1,999 / 10,000 = 19.99 < 20 -> fails
    v = many_voters(10_000)
    s = sigs([(1, i + 1, f"First{i} Last{i}", "12 Oak St") for i in range(1999)])
    summary, _, defs = run(s, v, pages("residents"))
    assert summary["qualifying_signers"] == 1999
    assert abs(summary["percent"] - 19.99) < 1e-9
    assert summary["passes"] is False
    assert [d["code"] for d in defs] == ["resident_percent_not_met"]
    assert defs[0]["paragraph"] == "2-202.1.a(1)"


def test_straddling_parcel_at_half_counts_inside() -> None:
    # voter at 14 Oak St, parcel fraction exactly 0.5 >= 0.5 -> inside
    v = pd.DataFrame([voter("V1", "Ann", "Lee", "14", "OAK ST")])
    s = sigs([(1, 1, "Ann Lee", "14 Oak Street")])
    summary, lines, _ = run(s, v, pages("residents"))
    assert summary["qualified_voters"] == 1
    assert lines["status"].tolist() == ["counted"]
    # 1 of 1 = 100 % -> passes
    assert summary["percent"] == 100.0 and summary["passes"] is True


def test_purged_and_preregistered_not_counted() -> None:
    # 4 voters at 12 Oak St: A, I count; P (purged) and 17 (pre-registered) do not
    v = pd.DataFrame(
        [
            voter("V1", "Ann", "Lee", "12", "OAK ST", STATUS="A"),
            voter("V2", "Bob", "Lee", "12", "OAK ST", STATUS="I"),
            voter("V3", "Cy", "Lee", "12", "OAK ST", STATUS="P"),
            voter("V4", "Di", "Lee", "12", "OAK ST", STATUS="17"),
        ]
    )
    q = qualified_voters(v, statuses=STATUSES, placement=place(v))
    assert q["SBOEID"].tolist() == ["V1", "V2"]
    s = sigs(
        [
            (1, 1, "Cy Lee", "12 Oak St"),
            (1, 2, "Di Lee", "12 Oak St"),
            (1, 3, "Ann Lee", "12 Oak St"),
        ]
    )
    summary, lines, _ = run(s, v, pages("residents"))
    assert lines["status"].tolist() == ["not_qualified_voter", "not_qualified_voter", "counted"]
    assert lines["matched_to"].tolist() == ["V3", "V4", "V1"]
    # 1 of 2 qualified = 50 %
    assert summary["qualified_voters"] == 2
    assert summary["qualifying_signers"] == 1
    assert summary["percent"] == 50.0


def test_duplicate_signer_counted_once() -> None:
    # Ann Lee signs on page 1 and again on page 2: counted once; 1 of 5 = 20 %
    v = many_voters(4)
    v = pd.concat([v, pd.DataFrame([voter("V1", "Ann", "Lee", "12", "OAK ST")])], ignore_index=True)
    s = sigs([(2, 1, "ANN LEE", "12 Oak St"), (1, 1, "Ann Lee", "12 Oak Street")])
    summary, lines, _ = run(s, v, pages("residents", "residents"))
    assert summary["qualifying_signers"] == 1
    assert summary["percent"] == 20.0 and summary["passes"] is True
    # lines come in page/line order: page 1 first
    assert lines[["page", "status"]].values.tolist() == [[1, "counted"], [2, "duplicate"]]
    assert lines["person_id"].nunique() == 1


def test_outside_unmatched_unplaced_defect_and_owner_pages() -> None:
    v = pd.DataFrame(
        [
            voter("V1", "Ann", "Lee", "30", "ELM AVE"),  # parcel fraction 0.2 -> outside
            voter("V2", "Bob", "Roe", "50", "MAIN ST"),  # no parcel -> unplaced
            voter("V3", "Cy", "Poe", "12", "OAK ST"),
        ]
    )
    s = sigs(
        [
            (1, 1, "Ann Lee", "30 Elm Avenue"),
            (1, 2, "Bob Roe", "50 Main Street"),
            (1, 3, "Zed Nobody", "12 Oak St"),
            (1, 4, "Cy Poe", ""),
            # another address than Cy Poe's registered one: a voter who moved
            # within the territory, or a namesake: review (audit A2), not rejected
            (1, 5, "Cy Poe", "14 Oak St"),
            (2, 1, "Cy Poe", "12 Oak St"),  # owner page: not examined here
        ]
    )
    summary, lines, defs = run(s, v, pages("residents", "owners"))
    assert lines["status"].tolist() == [
        "outside_territory",
        "needs_review",
        "not_qualified_voter",
        "page_defect",
        "needs_review",
    ]
    assert (lines["page"] == 1).all()
    assert summary["qualified_voters"] == 1  # only Cy Poe
    assert summary["qualifying_signers"] == 0
    assert summary["voters_unplaced"] == 1
    assert [d["code"] for d in defs] == ["resident_percent_not_met"]


def test_middle_names_and_suffixes() -> None:
    v = pd.DataFrame(
        [
            voter("V1", "John", "Smith", "12", "OAK ST", MIDDLENAME="Albert"),
            voter("V2", "John", "Smith", "12", "OAK ST", MIDDLENAME="Albert", NAMESUFFIX="JR"),
            voter("V3", "Mary", "Jones", "12", "OAK ST", MIDDLENAME="Beth"),
            voter("V4", "Kim", "Park", "12", "OAK ST"),
        ]
    )
    s = sigs(
        [
            (1, 1, "John A. Smith Jr.", "12 Oak St"),  # suffix equal -> V2
            (1, 2, "John Smith", "12 Oak St"),  # father or son? -> review
            (1, 3, "Smith, John Albert", "12 Oak St"),  # both fit, neither suffix-equal
            (1, 4, "Mary Jones", "12 Oak St"),  # middle not written -> V3
            (1, 5, "Mary C. Jones", "12 Oak St"),  # middle disagrees -> no match
            (1, 6, "Kim J. Park", "12 Oak St"),  # middle not in file -> review (90)
        ]
    )
    _, lines, _ = run(s, v, pages("residents"))
    assert lines["status"].tolist() == [
        "counted",
        "needs_review",
        "needs_review",
        "counted",
        "not_qualified_voter",
        "needs_review",
    ]
    assert lines["matched_to"].tolist() == ["V2", "", "", "V3", "", ""]
    assert lines["match_score"].tolist() == [100.0, 100.0, 100.0, 100.0, 0.0, 90.0]
    assert "V1;V2" in lines["note"].iloc[1]


def kim_accepted_al_rejected() -> pd.DataFrame:
    """Decisions: page 1 line 1 accepted as voter V1, page 1 line 2 rejected."""
    return pd.DataFrame(
        {
            "page": [1, 1],
            "line": [1, 2],
            "decision": ["accept", "reject"],
            "SBOEID": ["V1", ""],
            "note": ["", ""],
        }
    )


def test_match_decisions() -> None:
    v = pd.DataFrame(
        [voter("V1", "Kim", "Park", "12", "OAK ST"), voter("V2", "Al", "Ng", "12", "OAK ST")]
    )
    s = sigs([(1, 1, "Kim J. Park", "12 Oak St"), (1, 2, "Al Ng", "12 Oak St")])
    dec = kim_accepted_al_rejected()
    summary, lines, _ = run(s, v, pages("residents"), decisions=dec)
    assert lines["status"].tolist() == ["counted", "not_qualified_voter"]
    assert lines["matched_to"].tolist() == ["V1", ""]
    assert summary["qualifying_signers"] == 1


def test_a_reject_naming_a_voter_and_an_accept_on_one_line() -> None:
    # Al Ng's line: "reject V2" (his automatic match) with "accept V3" (ALAN NG
    # at 14 Oak St): the accept stands (matched to V3, not rejected with V2); a
    # reject naming a voter Kim's line is not matched to changes nothing there
    v = pd.DataFrame(
        [
            voter("V1", "Kim", "Park", "12", "OAK ST"),
            voter("V2", "Al", "Ng", "12", "OAK ST"),
            voter("V3", "Alan", "Ng", "14", "OAK ST"),
        ]
    )
    s = sigs([(1, 1, "Kim J. Park", "12 Oak St"), (1, 2, "Al Ng", "12 Oak St")])
    dec = pd.DataFrame(
        {
            "page": [1, 1, 1],
            "line": [2, 2, 1],
            "decision": ["reject", "accept", "reject"],
            "SBOEID": ["V2", "V3", "V2"],
            "note": ["", "", ""],
        }
    )
    _, alone, _ = run(s, v, pages("residents"))
    _, lines, _ = run(s, v, pages("residents"), decisions=dec)
    assert lines["matched_to"].iloc[1] == "V3"
    assert lines["note"].iloc[1] == "accepted by match decision"
    assert lines["status"].iloc[0] == alone["status"].iloc[0]
    # the reject alone: Al's line loses V2 and is not a qualified voter's
    _, lines, _ = run(s, v, pages("residents"), decisions=dec.iloc[[0]])
    assert lines["status"].iloc[1] == "not_qualified_voter"
    assert lines["note"].iloc[1] == "rejected by match decision: V2"


def test_matches_made_once_serve_every_territory() -> None:
    # the matching does not depend on the territory: made once (as prepare does),
    # it gives the same lines as the test matching by itself, and the decisions
    # applied on top (Kim: accept V1; Al: reject) do not write into it
    v = pd.DataFrame(
        [voter("V1", "Kim", "Park", "12", "OAK ST"), voter("V2", "Al", "Ng", "12", "OAK ST")]
    )
    s = sigs(
        [(1, 2, "Al Ng", "12 Oak St"), (1, 1, "Kim J. Park", "12 Oak St"), (2, 1, "X Y", "1 A")]
    )
    p = pages("residents", "owners")
    dec = kim_accepted_al_rejected()
    found = match_resident_lines(s, p, v, place(v))
    assert tuple(found.columns) == RESIDENT_MATCH_COLUMNS
    # resident page only, in page/line order: Kim (row 1) then Al (row 0)
    assert found.index.tolist() == [1, 0]
    # Kim wrote a middle initial the file lacks: review, no voter yet; Al: V2
    assert found["voter_row"].isna().tolist() == [True, False]
    before = found.copy()
    alone = run(s, v, p, decisions=dec)
    given = run(s, v, p, decisions=dec, matches=found)
    assert given[0] == alone[0]
    pd.testing.assert_frame_equal(given[1], alone[1])
    assert given[1]["status"].tolist() == ["counted", "not_qualified_voter"]
    pd.testing.assert_frame_equal(found, before)


def test_matches_of_other_lines_are_refused() -> None:
    v = pd.DataFrame([voter("V1", "Kim", "Park", "12", "OAK ST")])
    s = sigs([(1, 1, "Kim Park", "12 Oak St")])
    other = sigs([(1, 1, "Kim Park", "12 Oak St"), (1, 2, "Al Ng", "12 Oak St")])
    found = match_resident_lines(other, pages("residents"), v, place(v))
    with pytest.raises(ValueError, match="not the resident-page lines"):
        run(s, v, pages("residents"), matches=found)


def test_no_resident_lines_match_nothing() -> None:
    v = pd.DataFrame([voter("V1", "Kim", "Park", "12", "OAK ST")])
    found = match_resident_lines(
        sigs([(1, 1, "Kim Park", "12 Oak St")]), pages("owners"), v, place(v)
    )
    assert len(found) == 0
    assert tuple(found.columns) == RESIDENT_MATCH_COLUMNS


def test_no_voters_and_not_alleged() -> None:
    v = pd.DataFrame([voter("V1", "Ann", "Lee", "30", "ELM AVE")])  # outside
    s = sigs([(1, 1, "Ann Lee", "30 Elm Ave")])
    summary, _, defs = run(s, v, pages("residents"))
    # no qualified voter: percent 0, fails
    assert summary["qualified_voters"] == 0
    assert summary["percent"] == 0.0 and summary["passes"] is False
    assert [d["code"] for d in defs] == ["resident_percent_not_met"]
    summary, _, defs = run(s, v, pages("residents"), alleged=False)
    assert summary["applies"] is False and summary["passes"] is None
    assert defs == []
    # alleged but no resident page at all
    summary, lines, defs = run(s, v, pages("owners"))
    assert len(lines) == 0
    assert [d["code"] for d in defs] == ["no_signatures", "resident_percent_not_met"]


def test_a_line_signed_after_the_affidavit_or_the_filing_does_not_count() -> None:
    # page 1 sworn on 2023-05-03, filed 2023-06-01. Ann Lee signed 2023-05-01 (in
    # time), Bob Ray 2023-05-04 (after the oath: the witness cannot have seen it),
    # Cy Fox on page 2 (no sworn date) 2023-06-02 (after filing): 1 of 4 = 25 %
    v = many_voters(1)
    v = pd.concat(
        [
            v,
            pd.DataFrame(
                [
                    voter("V1", "Ann", "Lee", "12", "OAK ST"),
                    voter("V2", "Bob", "Ray", "12", "OAK ST"),
                    voter("V3", "Cy", "Fox", "12", "OAK ST"),
                ]
            ),
        ],
        ignore_index=True,
    )
    s = sigs(
        [
            (1, 1, "Ann Lee", "12 Oak St"),
            (1, 2, "Bob Ray", "12 Oak St"),
            (2, 1, "Cy Fox", "12 Oak St"),
        ]
    )
    s["signed_on"] = ["2023-05-01", "2023-05-04", "2023-06-02"]
    p = pages("residents", "residents").assign(sworn_on=["2023-05-03", ""])
    summary, lines, _ = run(s, v, p, filed_on=dt.date(2023, 6, 1))
    assert lines["status"].tolist() == ["counted", "page_defect", "page_defect"]
    assert "after the witness's affidavit sworn on 2023-05-03" in lines["note"].iloc[1]
    assert "after the petition was filed on 2023-06-01" in lines["note"].iloc[2]
    assert summary["qualifying_signers"] == 1 and summary["percent"] == 25.0


def test_unplaced_voters_that_could_change_the_verdict_are_warned_about() -> None:
    # 1 signer of 5 qualified voters = 20 %: passes. 4 voters of a counted status
    # could not be placed: had they lived in the territory, 1 of 9 = 11.1111 %
    # fails, so the verdict rests on their review. With 1 unplaced: 1 of 6 =
    # 16.7 % also fails; with 0 unplaced, or a failing test, no warning
    from pipeline.people.voters import unplaced_voters_warning

    test = {
        "applies": True,
        "passes": True,
        "qualified_voters": 5,
        "qualifying_signers": 1,
        "required_percent": 20.0,
        "voters_unplaced_counted_status": 4,
    }
    (warning,) = unplaced_voters_warning(test)
    assert "1 of 9 = 11.1111 %" in warning
    # and a deficiency: the petition is not shown sufficient while the verdict
    # rests on a review still to be made (audit A2), as inhabitants_unplaced
    from pipeline.people.voters import unplaced_voters_deficiency

    (deficiency,) = unplaced_voters_deficiency(test)
    assert deficiency["code"] == "voters_unplaced"
    assert deficiency["paragraph"] == "2-202.1.a(1)"
    assert deficiency["message"] == warning
    assert deficiency["where"] == "voters-unplaced.csv"
    assert unplaced_voters_deficiency({**test, "voters_unplaced_counted_status": 0}) == []
    assert unplaced_voters_warning({**test, "voters_unplaced_counted_status": 0}) == []
    assert unplaced_voters_warning({**test, "passes": False}) == []
    # 3 signers of 10: 30 %; 5 unplaced: 3 of 15 = 20 %, still passes: no warning
    assert (
        unplaced_voters_warning(
            {
                **test,
                "qualified_voters": 10,
                "qualifying_signers": 3,
                "voters_unplaced_counted_status": 5,
            }
        )
        == []
    )


# --- names that must not be credited automatically (audit R2) -------------------


def test_a_middle_name_written_in_full_must_be_the_voters() -> None:
    # the one voter at 12 Oak St is JOHN ALLEN SMITH; "John Albert Smith" shares
    # the initial A, not the name: review, not counted (0 of 2 = 0 %, fails);
    # "John Allen Smith" and "John A. Smith" are he (1 of 2 = 50 %)
    v = pd.DataFrame(
        [
            voter("NY1", "JOHN", "SMITH", "12", "OAK ST", MIDDLENAME="ALLEN"),
            voter("NY2", "ANN", "LEE", "12", "OAK ST"),
        ]
    )
    albert = sigs([(1, 1, "John Albert Smith", "12 Oak St")])
    summary, lines, _ = run(albert, v, pages("residents"))
    assert lines["status"].tolist() == ["needs_review"]
    assert "middle name ALBERT written, ALLEN on record" in lines["note"].iloc[0]
    assert (summary["qualifying_signers"], summary["passes"]) == (0, False)
    for written in ("John Allen Smith", "John A. Smith"):
        summary, lines, _ = run(sigs([(1, 1, written, "12 Oak St")]), v, pages("residents"))
        assert lines["status"].tolist() == ["counted"], written
        assert summary["percent"] == 50.0  # 100 × 1 / 2


def test_two_voters_of_one_initial_are_told_apart_by_the_middle_name() -> None:
    # JOHN ALBERT SMITH and JOHN ALLEN SMITH at 12 Oak St: "John Albert Smith"
    # is the first (a middle name written in full decides), 1 of 2 = 50 %
    v = pd.DataFrame(
        [
            voter("NY1", "JOHN", "SMITH", "12", "OAK ST", MIDDLENAME="ALBERT"),
            voter("NY2", "JOHN", "SMITH", "12", "OAK ST", MIDDLENAME="ALLEN"),
        ]
    )
    summary, lines, _ = run(sigs([(1, 1, "John Albert Smith", "12 Oak St")]), v, pages("residents"))
    assert lines["status"].tolist() == ["counted"]
    assert lines["matched_to"].tolist() == ["NY1"]
    assert summary["percent"] == 50.0


@pytest.mark.parametrize("written", ["John and Mary Smith", "John & Mary Smith"])
def test_a_line_naming_two_people_is_reviewed(written: str) -> None:
    # voters JOHN A SMITH and MARY SMITH at 12 Oak St; one line for both is
    # neither of them without a look ("and" is no middle initial A): 0 of 2
    v = pd.DataFrame(
        [
            voter("NY1", "JOHN", "SMITH", "12", "OAK ST", MIDDLENAME="A"),
            voter("NY2", "MARY", "SMITH", "12", "OAK ST"),
        ]
    )
    summary, lines, _ = run(sigs([(1, 1, written, "12 Oak St")]), v, pages("residents"))
    assert lines["status"].tolist() == ["needs_review"]
    assert "names two people" in lines["note"].iloc[0]
    assert summary["qualifying_signers"] == 0


def test_an_accept_naming_another_persons_voter_is_not_applied() -> None:
    # "accept NY3" (WILLIAM BAKER) was written when Bill Baker was line 2; the
    # lines were renumbered and line 2 is now "Zack Zed": the decision does not
    # fit (neither the name rules, nor the first names, nor the words relate
    # ZACK ZED and WILLIAM BAKER) and is not applied: 0 of 2 = 0 %, and the
    # reviewer is told. On "Bill Baker" (a nickname) the same accept applies.
    from pipeline.people.voters import resident_decisions_not_applied

    v = pd.DataFrame(
        [
            voter("NY3", "William", "Baker", "12", "OAK ST"),
            voter("NY4", "Zack", "Zed", "30", "ELM AVE"),
        ]
    )
    dec = pd.DataFrame(
        {"page": [1], "line": [2], "decision": ["accept"], "SBOEID": ["NY3"], "note": [""]}
    )
    s = sigs([(1, 1, "Ann Lee", "50 Main St"), (1, 2, "Zack Zed", "12 Oak St")])
    summary, lines, _ = run(s, v, pages("residents"), decisions=dec)
    assert lines["matched_to"].tolist() == ["", ""]
    assert lines["note"].iloc[1].startswith("match decision not applied: it accepts SBOEID NY3")
    assert summary["qualifying_signers"] == 0
    told = resident_decisions_not_applied(dec, s, pages("residents"), v)
    assert len(told) == 1 and told[0].startswith("line 1:2: match decision not applied")
    s = sigs([(1, 1, "Ann Lee", "50 Main St"), (1, 2, "Bill Baker", "12 Oak St")])
    summary, lines, _ = run(s, v, pages("residents"), decisions=dec)
    assert lines["matched_to"].tolist() == ["", "NY3"]
    assert summary["qualifying_signers"] == 1
    assert resident_decisions_not_applied(dec, s, pages("residents"), v) == []


def test_the_unit_written_tells_apart_two_voters_of_one_name() -> None:
    # MARY JONES in apartment 1 and in apartment 2 of 12 Oak St: "12 Oak St
    # Apt 2" is the second (RAPARTMENT 2); "12 Oak St" alone is either: review.
    # 1 counted of 2 qualified = 50 %
    v = pd.DataFrame(
        [
            voter("V1", "MARY", "JONES", "12", "OAK ST", RAPARTMENTTYPE="APT", RAPARTMENT="1"),
            voter("V2", "MARY", "JONES", "12", "OAK ST", RAPARTMENTTYPE="APT", RAPARTMENT="2"),
        ]
    )
    s = sigs([(1, 1, "Mary Jones", "12 Oak St Apt 2"), (1, 2, "Mary Jones", "12 Oak St")])
    summary, lines, _ = run(s, v, pages("residents"))
    assert lines["status"].tolist() == ["counted", "needs_review"]
    assert lines["matched_to"].tolist() == ["V2", ""]
    assert lines["note"].iloc[0].endswith("told apart by the unit written (2)")
    assert summary["percent"] == 50.0


def test_a_street_written_without_its_type_is_reviewed_not_refused() -> None:
    # ANN LEE lives at 12 OAK ST; "12 Oak" names the street without its type:
    # a clerk looks (review), the line is not refused as another address
    v = pd.DataFrame([voter("V1", "ANN", "LEE", "12", "OAK ST")])
    _, lines, _ = run(sigs([(1, 1, "Ann Lee", "12 Oak")]), v, pages("residents"))
    assert lines["status"].tolist() == ["needs_review"]
    assert "address close" in lines["note"].iloc[0]


def test_a_namesake_jr_living_elsewhere_is_no_rival_of_the_sr_here() -> None:
    # DAVID HALL SR is registered at 12 Oak St, DAVID HALL JR at 30 Elm Ave:
    # "David Hall, 12 Oak St" is the Sr (a residence is the registered one), 1
    # of 1 qualified inside (30 Elm Ave lies outside: fraction 0.2) = 100 %
    v = pd.DataFrame(
        [
            voter("V1", "DAVID", "HALL", "12", "OAK ST", NAMESUFFIX="SR"),
            voter("V2", "DAVID", "HALL", "30", "ELM AVE", NAMESUFFIX="JR"),
        ]
    )
    summary, lines, _ = run(sigs([(1, 1, "David Hall", "12 Oak St")]), v, pages("residents"))
    assert lines["matched_to"].tolist() == ["V1"]
    assert summary["percent"] == 100.0


def test_a_suffix_written_into_the_surname_is_a_suffix() -> None:
    # the extract writes GEORGE / "MILLER JR" (blank NAMESUFFIX) and GEORGE
    # MILLER, both at 12 Oak St: two namesakes, so "George Miller" is either
    # (review), and "George Miller Jr." is the first
    v = pd.DataFrame(
        [
            voter("V1", "GEORGE", "MILLER JR", "12", "OAK ST"),
            voter("V2", "GEORGE", "MILLER", "12", "OAK ST"),
        ]
    )
    _, lines, _ = run(sigs([(1, 1, "George Miller", "12 Oak St")]), v, pages("residents"))
    assert lines["status"].tolist() == ["needs_review"]
    _, lines, _ = run(sigs([(1, 1, "George Miller Jr.", "12 Oak St")]), v, pages("residents"))
    assert lines["matched_to"].tolist() == ["V1"]


def test_an_accept_of_mrs_john_smith_as_his_wife_applies() -> None:
    # "Mrs. John Smith" accepted as MARY SMITH (NY2), a voter of that surname:
    # by the old custom the line is the wife's; the decision applies, 1 of 2
    from pipeline.people.voters import resident_decisions_not_applied

    v = pd.DataFrame(
        [
            voter("NY1", "John", "Smith", "12", "OAK ST"),
            voter("NY2", "Mary", "Smith", "12", "OAK ST"),
        ]
    )
    dec = pd.DataFrame(
        {"page": [1], "line": [1], "decision": ["accept"], "SBOEID": ["NY2"], "note": [""]}
    )
    s = sigs([(1, 1, "Mrs. John Smith", "12 Oak St")])
    summary, lines, _ = run(s, v, pages("residents"), decisions=dec)
    assert lines["matched_to"].tolist() == ["NY2"]
    assert summary["percent"] == 50.0
    assert resident_decisions_not_applied(dec, s, pages("residents"), v) == []


def test_status_as_of_the_filing_date() -> None:
    # F4. Filed 2023-06-01; every voter at 12 Oak St (wholly inside).
    # V1 A, registered 2010: qualified.
    # V2 A, registered 2023-07-15, after filing: not qualified (status "").
    # V3 P, purged 2023-09-01, after filing, never inactive: qualified as A.
    # V4 P, purged 2022-06-01, before filing: not qualified.
    # V5 P, purged 2023-09-01, made inactive 2021-03-15: qualified as I.
    # V6 I, made inactive 2023-08-01, after filing: A on the filing date.
    # V7 A, registered on the filing date itself: qualified.
    filed = dt.date(2023, 6, 1)
    v = pd.DataFrame(
        [
            voter("V1", "Ann", "Ash", "12", "OAK ST", REGDATE="2010-01-01"),
            voter("V2", "Bo", "Birch", "12", "OAK ST", REGDATE="2023-07-15"),
            voter("V3", "Cy", "Cedar", "12", "OAK ST", STATUS="P", PURGE_DATE="2023-09-01"),
            voter("V4", "Di", "Dogwood", "12", "OAK ST", STATUS="P", PURGE_DATE="2022-06-01"),
            voter(
                "V5",
                "Ed",
                "Elm",
                "12",
                "OAK ST",
                STATUS="p",
                INACT_DATE="2021-03-15",
                PURGE_DATE="2023-09-01",
            ),
            voter("V6", "Flo", "Fir", "12", "OAK ST", STATUS="I", INACT_DATE="2023-08-01"),
            voter("V7", "Gus", "Gum", "12", "OAK ST", REGDATE="2023-06-01"),
        ]
    )
    assert status_at_filing(v, filed).tolist() == ["A", "", "A", "P", "I", "A", "A"]
    assert status_at_filing(v, None).tolist() == ["A", "A", "P", "P", "P", "I", "A"]
    # qualified on the filing date: V1, V3, V5, V6, V7 = 5 (without the dates:
    # V1, V2, V6, V7 = 4). Bo (V2) and Cy (V3) sign: Cy counts, Bo does not;
    # 100 x 1 / 5 = 20.0 >= 20, passes
    s = sigs([(1, 1, "Bo Birch", "12 Oak St"), (1, 2, "Cy Cedar", "12 Oak St")])
    summary, lines, _ = run(s, v, pages("residents"), filed_on=filed)
    assert (summary["qualified_voters"], summary["qualifying_signers"]) == (5, 1)
    assert summary["percent"] == 20.0 and summary["passes"] is True
    assert (summary["voters_registered_after_filing"], summary["voters_purged_after_filing"]) == (
        1,
        2,
    )
    assert lines["status"].tolist() == ["not_qualified_voter", "counted"]
    assert "registered after the filing date" in lines["note"].iloc[0]
    assert "purged after the filing date" in lines["note"].iloc[1]
    # no date is written into a line: only the field's name
    assert not lines["note"].str.contains("2023").any()
    # only the policy's statuses: counting A alone, V5 (I on the filing date) is out
    only_a = qualified_voters(v, statuses=["A"], placement=place(v), filed_on=filed)
    assert only_a["SBOEID"].tolist() == ["V1", "V3", "V6", "V7"]


def _kevin(old: tuple[str, str], new: tuple[str, str]) -> pd.DataFrame:
    # 4 voters at 12 Oak St (inside) and Kevin Ormsby registered twice, one
    # person (REGISTRANT K1): an old registration of 2000 and a new one of 2020
    v = many_voters(4)
    kevin = [
        voter("K1", "Kevin", "Ormsby", *old, REGISTRANT="K1", REGDATE="2000-03-01"),
        voter("K2", "Kevin", "Ormsby", *new, REGISTRANT="K1", REGDATE="2020-03-01"),
    ]
    return pd.concat([v, pd.DataFrame(kevin)], ignore_index=True)


FILED = dt.date(2023, 6, 1)
INSIDE, OUTSIDE = ("12", "OAK ST"), ("30", "ELM AVE")  # parcel 1 (1.0), parcel 3 (0.2)


def test_a_person_registered_twice_resides_at_the_later_registration() -> None:
    # audit A7 F2. Old registration inside, new one outside: Kevin resides
    # outside, so he is no qualified voter of the territory: 4 qualified, not 5.
    # Ann Lee (voter 0) signs: 1 of 4 = 25 %. Kevin's line at the new (outside)
    # address is outside_territory; at the old (inside) one it goes to review,
    # with a note naming both registrations, and is not counted.
    v = _kevin(INSIDE, OUTSIDE)
    assert qualified_voters(v, statuses=STATUSES, placement=place(v), filed_on=FILED)[
        "SBOEID"
    ].tolist() == ["NY000000", "NY000001", "NY000002", "NY000003"]
    for address, status in (("30 Elm Ave", "outside_territory"), ("12 Oak St", "needs_review")):
        s = sigs([(1, 1, "First0 Last0", "12 Oak St"), (1, 2, "Kevin Ormsby", address)])
        summary, lines, _ = run(s, v, pages("residents"), filed_on=FILED)
        assert summary["qualified_voters"] == 4
        assert summary["qualifying_signers"] == 1 and summary["percent"] == 25.0
        assert lines["status"].tolist() == ["counted", status]
    note = lines["note"].iloc[1]
    assert "SBOEID K1, registered 2000-03-01, an older registration" in note
    assert "(SBOEID K2, registered 2020-03-01, at 30 ELM AVE)" in note


def test_a_person_who_moved_into_the_territory_counts_at_the_new_address() -> None:
    # Old registration outside, new one inside: Kevin is a qualified voter: 5.
    # His line at the new address counts: 2 of 5 = 40 %; at the old (outside)
    # address it goes to review (he is a voter of the territory, but the line
    # gives the address he left): 1 of 5 = 20 %, still passing, one line pending.
    v = _kevin(OUTSIDE, INSIDE)
    for address, status, signers in (
        ("12 Oak St", "counted", 2),
        ("30 Elm Ave", "needs_review", 1),
    ):
        s = sigs([(1, 1, "First0 Last0", "12 Oak St"), (1, 2, "Kevin Ormsby", address)])
        summary, lines, _ = run(s, v, pages("residents"), filed_on=FILED)
        assert summary["qualified_voters"] == 5
        assert summary["qualifying_signers"] == signers
        assert summary["percent"] == 100.0 * signers / 5
        assert lines["status"].tolist() == ["counted", status]


def test_a_stale_registration_line_beside_a_counted_one_is_a_duplicate() -> None:
    # Kevin signs at the new (inside) address and again at the old one: the
    # first line counts, the second names the same person: duplicate, nothing
    # to review. 2 of 5 = 40 %.
    v = _kevin(OUTSIDE, INSIDE)
    s = sigs(
        [
            (1, 1, "First0 Last0", "12 Oak St"),
            (1, 2, "Kevin Ormsby", "30 Elm Ave"),
            (1, 3, "Kevin Ormsby", "12 Oak St"),
        ]
    )
    summary, lines, _ = run(s, v, pages("residents"), filed_on=FILED)
    assert summary["qualifying_signers"] == 2 and summary["percent"] == 40.0
    assert lines["status"].tolist() == ["counted", "duplicate", "counted"]


def test_registrations_of_one_date_or_without_one_are_all_current() -> None:
    # Which registration is current cannot be told when both have one
    # REGDATE, or one has none, or one is dated after the filing (a
    # re-registration that counts then, VOTED_BY before it: audit A8 F11):
    # Kevin counts once, inside (as any registration inside places him): 5
    # qualified. His line, at either address, is judged as he is counted
    # (audit A8 F10: not in the denominator but unable to sign): counted,
    # 2 of 5 = 40 %; at the outside address its note says why
    for dates, voted in (
        (("2020-03-01", "2020-03-01"), ""),
        (("", "2020-03-01"), ""),
        (("2010-03-01", "2024-02-01"), "2022-11-08"),
    ):
        for address in ("12 Oak St", "30 Elm Ave"):
            v = _kevin(INSIDE, OUTSIDE)
            v.loc[v["SBOEID"] == "K1", "REGDATE"] = dates[0]
            v.loc[v["SBOEID"] == "K2", ["REGDATE", "VOTED_BY"]] = [dates[1], voted]
            s = sigs([(1, 1, "First0 Last0", "12 Oak St"), (1, 2, "Kevin Ormsby", address)])
            summary, lines, _ = run(s, v, pages("residents"), filed_on=FILED)
            assert summary["qualified_voters"] == 5
            assert lines["status"].tolist() == ["counted", "counted"]
            assert summary["percent"] == 40.0
    note = lines["note"].iloc[1]
    assert "registered at several addresses (SBOEID K1 at 12 OAK ST" in note
    assert "SBOEID K2 at 30 ELM AVE" in note


def test_a_person_of_two_current_registrations_signing_twice_is_one_signer() -> None:
    # audit A9 F11, F12: the same (one REGDATE), Kevin signing at each
    # address, one line accepted for K2 (outside) by decision: one signer
    # whatever the order of the file or the registration named (2 of 5 = 40 %)
    for order in (slice(None), slice(None, None, -1)):
        v = _kevin(INSIDE, OUTSIDE)
        v["REGDATE"] = "2020-03-01"
        v = pd.concat([v.iloc[:4], v.iloc[4:].iloc[order]], ignore_index=True)
        s = sigs(
            [
                (1, 1, "First0 Last0", "12 Oak St"),
                (1, 2, "Kevin Ormsby", "30 Elm Ave"),
                (1, 3, "Kevin Ormsby", "12 Oak St"),
            ]
        )
        decisions = pd.DataFrame(
            {
                "page": [1],
                "line": [2],
                "decision": ["accept"],
                "parcel_key": [""],
                "SBOEID": ["K2"],
            }
        )
        summary, lines, _ = run(s, v, pages("residents"), filed_on=FILED, decisions=decisions)
        assert lines["status"].tolist() == ["counted", "counted", "duplicate"]
        assert summary["percent"] == 40.0


def test_an_accept_of_a_stale_registration_is_judged_by_the_current_one() -> None:
    # audit A8 F9: Kevin moved out (old K1 inside, new K2 outside): 4 qualified.
    # A decision accepting the stale K1 for his line does not count him: the
    # line is judged by K2, outside (1 of 4 = 25 %, not 2 of 4)
    v = _kevin(INSIDE, OUTSIDE)
    s = sigs([(1, 1, "First0 Last0", "12 Oak St"), (1, 2, "Kevin Ormsby", "12 Oak St")])
    decisions = pd.DataFrame(
        {"page": [1], "line": [2], "decision": ["accept"], "parcel_key": [""], "SBOEID": ["K1"]}
    )
    summary, lines, _ = run(s, v, pages("residents"), filed_on=FILED, decisions=decisions)
    assert summary["qualified_voters"] == 4
    assert lines["status"].tolist() == ["counted", "outside_territory"]
    assert lines["matched_to"].tolist()[1] == "K2"
    assert "judged by the current one (SBOEID K2)" in lines["note"].iloc[1]
    # and why it does not count all the same (audit A9 F14)
    assert "; the voter's residence is on parcel 104489|3, 0.2 of it" in lines["note"].iloc[1]
    assert summary["percent"] == 25.0


def test_a_person_counted_inside_is_no_unplaced_voter_through_another_registration() -> None:
    # audit A9 F15: Kevin's registrations share one date, one at 50 Main St (on
    # no parcel), one at 12 Oak St (inside): he is a qualified voter (5), and
    # not also one of the unplaced voters who might be (0, not 1)
    v = _kevin(("50", "MAIN ST"), INSIDE)
    v["REGDATE"] = "2020-03-01"
    summary, _, _ = run(sigs([(1, 1, "First0 Last0", "12 Oak St")]), v, pages("residents"))
    assert summary["qualified_voters"] == 5
    assert summary["voters_unplaced_counted_status"] == 0


def test_a_purged_later_registration_leaves_the_old_one_current() -> None:
    # The new registration (outside) was purged before the filing: the old one
    # (inside) is Kevin's only registration of a counted status, so it is
    # current: 5 qualified, and his line there counts (2 of 5 = 40 %).
    v = _kevin(INSIDE, OUTSIDE)
    v.loc[v["SBOEID"] == "K2", ["STATUS", "PURGE_DATE"]] = ["P", "2022-01-01"]
    s = sigs([(1, 1, "First0 Last0", "12 Oak St"), (1, 2, "Kevin Ormsby", "12 Oak St")])
    summary, lines, _ = run(s, v, pages("residents"), filed_on=FILED)
    assert summary["qualified_voters"] == 5
    assert lines["status"].tolist() == ["counted", "counted"]


def test_an_accept_of_the_later_registration_judges_the_line_by_it() -> None:
    # the review's way out: a decision accepting K2 (inside) for the line
    # written at the old address counts it: 2 of 5 = 40 %
    v = _kevin(OUTSIDE, INSIDE)
    s = sigs([(1, 1, "First0 Last0", "12 Oak St"), (1, 2, "Kevin Ormsby", "30 Elm Ave")])
    decisions = pd.DataFrame(
        {"page": [1], "line": [2], "decision": ["accept"], "parcel_key": [""], "SBOEID": ["K2"]}
    )
    summary, lines, _ = run(s, v, pages("residents"), filed_on=FILED, decisions=decisions)
    assert lines["status"].tolist() == ["counted", "counted"]
    assert summary["percent"] == 40.0


def test_a_line_not_counted_says_why() -> None:
    # audit A7 O3: Ann Lee at 30 Elm Ave (parcel 3, 0.2 inside: under the 0.5
    # threshold), Bea Cole purged (P) before filing, Cal Dunn pre-registered
    # (17), and a signer who is no voter: none counts, and each note says why
    v = pd.DataFrame(
        [
            voter("V1", "Ann", "Lee", "30", "ELM AVE"),
            voter("V2", "Bea", "Cole", "12", "OAK ST", STATUS="P", PURGE_DATE="2022-01-01"),
            voter("V3", "Cal", "Dunn", "12", "OAK ST", STATUS="17"),
            voter("V4", "Dee", "Fox", "12", "OAK ST"),
        ]
    )
    s = sigs(
        [
            (1, 1, "Ann Lee", "30 Elm Ave"),
            (1, 2, "Bea Cole", "12 Oak St"),
            (1, 3, "Cal Dunn", "12 Oak St"),
            (1, 4, "Eve Gray", "12 Oak St"),
        ]
    )
    # the parcel named as the roll writes it (audit A8 F14), as parcels.csv does
    labels = {"104489|3": "104489:3.-0-0"}
    summary, lines, _ = run(s, v, pages("residents"), filed_on=FILED, labels=labels)
    assert summary["qualified_voters"] == 1  # Dee Fox alone
    assert lines["status"].tolist() == [
        "outside_territory",
        "not_qualified_voter",
        "not_qualified_voter",
        "not_qualified_voter",
    ]
    assert lines["note"].tolist() == [
        "the voter's residence is on parcel 104489:3.-0-0, 0.2 of it in the territory: outside "
        "(under the straddle threshold, [policy] straddle_voter_threshold)",
        "the voter's status on the filing date is P (purged), which the policy does not "
        "count ([policy] voter_statuses)",
        "the voter's status on the filing date is 17 (pre-registered, under 18), which the "
        "policy does not count ([policy] voter_statuses)",
        "no voter of this name is registered at this address (voter file)",
    ]


def test_a_stale_registration_that_cannot_be_placed_is_no_unplaced_voter() -> None:
    # Kevin's old registration (2000) is at 50 Main St, on no parcel; his new
    # one (2020) at 12 Oak St, inside. He lives at the new one: 5 qualified
    # voters, and no voter of a counted status left unplaced (the old address
    # could not change the verdict; before, it was 1 and could)
    v = _kevin(("50", "MAIN ST"), INSIDE)
    s = sigs([(1, 1, "First0 Last0", "12 Oak St")])
    summary, _, _ = run(s, v, pages("residents"), filed_on=FILED)
    assert summary["qualified_voters"] == 5
    assert summary["voters_unplaced"] == 1  # the registration, whatever its status
    assert summary["voters_unplaced_counted_status"] == 0


def test_two_registrations_of_one_person_at_one_home_are_that_person() -> None:
    # audit A9 F13: the board's duplicate record: Kevin registered twice at 12
    # Oak St ("12 OAK ST" and "12 OAK STREET"), one date. His line is his, not
    # a choice between two voters: counted, 2 of 5 = 40 %
    v = _kevin(INSIDE, ("12", "OAK STREET"))
    v["REGDATE"] = "2020-03-01"
    s = sigs([(1, 1, "First0 Last0", "12 Oak St"), (1, 2, "Kevin Ormsby", "12 Oak St")])
    summary, lines, _ = run(s, v, pages("residents"), filed_on=FILED)
    assert summary["qualified_voters"] == 5
    assert lines["status"].tolist() == ["counted", "counted"]
    assert summary["percent"] == 40.0


@pytest.mark.parametrize(
    "k2",
    [
        {"REGDATE": "2023-07-15"},  # made after the filing (2023-06-01)
        {"REGDATE": "2020-03-01", "STATUS": "P", "PURGE_DATE": "2022-01-01"},  # purged before
    ],
)
def test_of_two_registrations_at_one_home_the_line_is_the_current_ones(k2: dict[str, str]) -> None:
    # audit A31 F1: Kevin's K1 (2000, active) and K2 at the same home; K2 does
    # not count on the filing date, so K1 is his registration then. His line
    # was judged on K2 (the later REGDATE): not_qualified_voter, 1 of 5. It is
    # K1's: 2 of 5 = 40 %
    v = _kevin(INSIDE, ("12", "OAK STREET"))
    for column, value in k2.items():
        v.loc[v["SBOEID"] == "K2", column] = value
    s = sigs([(1, 1, "First0 Last0", "12 Oak St"), (1, 2, "Kevin Ormsby", "12 Oak St")])
    summary, lines, _ = run(s, v, pages("residents"), filed_on=FILED)
    assert summary["qualified_voters"] == 5
    assert lines["status"].tolist() == ["counted", "counted"]
    assert lines["matched_to"].tolist()[1] == "K1"
    assert summary["percent"] == 40.0  # 100 x 2 / 5


def test_a_voter_under_18_on_the_filing_date_is_no_qualified_voter(tmp_path: Path) -> None:
    # audit A31 F2: Yara, born 2005-09-01, pre-registered 2022-09-01, is 17 on
    # 2023-06-01; the file, extracted after her birthday, writes A. She is no
    # qualified voter (status 17 then): 0 of 1 (Otto), not 1 of 2 = 50 %. Otto
    # turned 18 on the filing day itself (born 2005-06-01): of age.
    from pipeline.io._voters import read_voters

    f = tmp_path / "voters.csv"
    f.write_text(
        "SBOEID,LASTNAME,FIRSTNAME,MIDDLENAME,NAMESUFFIX,RADDNUMBER,RSTREETNAME,RCITY,"
        "TOWNCITY,DOB,STATUS,REGDATE\n"
        "NY1,Young,Yara,,,12,OAK ST,,,20050901,A,20220901\n"
        "NY2,Old,Otto,,,12,OAK ST,,,20050601,A,20220901\n"
    )
    v = read_voters(f, filed_on=FILED)
    assert "DOB" not in v.columns
    assert v["MINOR_ON_FILING"].tolist() == ["1", ""]
    assert status_at_filing(v, FILED).tolist() == ["17", "A"]
    s = sigs([(1, 1, "Yara Young", "12 Oak St")])
    summary, lines, _ = run(s, v, pages("residents"), filed_on=FILED)
    assert (summary["qualified_voters"], summary["qualifying_signers"]) == (1, 0)
    assert lines["status"].tolist() == ["not_qualified_voter"]
    # read without a filing date, nothing is told (the date of birth is not kept)
    assert read_voters(f)["MINOR_ON_FILING"].tolist() == ["", ""]


def test_a_person_unplaced_at_two_registrations_is_one_voter_who_might_be_inside() -> None:
    # audit A31 F3: 4 voters inside, 1 signer; Kevin registered twice on one
    # date at 50 and 60 Main St, on no parcel: one person. 1 of 4 + 1 = 20 %
    # is not under 20 %: no deficiency (counted twice: 1 of 6 = 16.67 %, one)
    v = _kevin(("50", "MAIN ST"), ("60", "MAIN ST"))
    v.loc[v["SBOEID"].isin(["K1", "K2"]), "REGDATE"] = "2020-03-01"
    s = sigs([(1, 1, "First0 Last0", "12 Oak St")])
    summary, _, _ = run(s, v, pages("residents"), filed_on=FILED)
    assert summary["voters_unplaced"] == 2  # the registrations listed for review
    assert summary["voters_unplaced_counted_status"] == 1  # the persons
    assert unplaced_voters_deficiency(summary) == []
