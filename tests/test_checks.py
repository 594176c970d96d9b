"""The sufficiency checks of §§ 2-200 and 2-202 with hand-worked edges."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import numpy as np
import pandas as pd
import pytest

from pipeline.law.checks import (
    affidavit_check,
    area_check,
    basis_check,
    designees_check,
    existing_village_check,
    inhabitant_identities,
    inhabitant_schedule,
    late_lines,
    line_checks,
    one_person_keys,
    population_check,
    sufficiency,
    unauthenticated_lines,
    witness_count_check,
)
from pipeline.law.deficiency import PARAGRAPHS, deficiency, deficiency_for
from pipeline.law.regimes import REGIMES

PRE = REGIMES["2-202-pre-2024"]
NEW = REGIMES["2024"]


def codes(defs: list[dict[str, str]]) -> list[str]:
    return [d["code"] for d in defs]


# --------------------------------------------------------------------------- deficiency


def test_deficiency_object_and_paragraphs() -> None:
    d = deficiency("witness_count_mismatch", "2-202.1.e(4)", "msg", "page 3")
    assert d == {
        "code": "witness_count_mismatch",
        "paragraph": "2-202.1.e(4)",
        "message": "msg",
        "where": "page 3",
    }
    expected = {
        "owner_percent_not_met": "2-202.1.a(2)",
        "owner_part_percent_not_met": "2-202.1.a(2)",
        "resident_percent_not_met": "2-202.1.a(1)",
        "population_below_minimum": "2-200",
        "area_exceeds_limit": "2-200",
        "designees_invalid": "2-202.1.b(5)",
        "witness_count_mismatch": "2-202.1.e(4)",
        "page_without_affidavit": "2-202.1.e(4)",
        "affidavit_incomplete": "2-202.1.e(4)",
        "affidavit_sworn_after_filing": "2-202.1.e(4)",
        "includes_existing_village": "2-200",
        "unapportioned_records": "2-202.1.a(2)",
        "coterminous_claim_not_supported": "2-200",
        "line_without_address": "2-202.1.e(3)",
        "line_without_town": "2-202.1.e(3)",
        "owner_page_without_value": "2-202.1.e(3)",
        "inhabitants_unplaced": "2-202.1.c(2)",
    }
    for code, para in expected.items():
        assert PARAGRAPHS[code] == para
    assert "owner_basis_not_allowed" in PARAGRAPHS
    assert "no_signatures" in PARAGRAPHS
    assert deficiency_for("area_exceeds_limit", "m")["paragraph"] == "2-200"
    with pytest.raises(KeyError):
        deficiency_for("no_such_code", "m")


# --------------------------------------------------------------------------- basis / regime


def test_owner_basis_not_allowed_in_2024() -> None:
    part, defs = basis_check(["owners", "residents"], regime=NEW)
    assert codes(defs) == ["owner_basis_not_allowed"]
    assert part["allowed"] is False
    _, defs = basis_check(["owners"], regime=PRE)
    assert defs == []
    _, defs = basis_check(["residents"], regime=NEW)
    assert defs == []


# --------------------------------------------------------------------------- area


def _area(sq: float, **kw: Any) -> tuple[dict[str, Any], list[dict[str, str]]]:
    args: dict[str, Any] = {
        "regime": PRE,
        "coterminous_with": None,
        "district_symmetric_difference_share": None,
        "tolerance": 0.001,
    }
    args.update(kw)
    return area_check(sq, **args)


def test_area_exactly_five_passes() -> None:
    # 5.0 <= 5.0
    part, defs = _area(5.0)
    assert part == {"square_miles": 5.0, "limit": 5.0, "exception": None, "passes": True}
    assert defs == []


def test_area_just_over_five_fails() -> None:
    # 5.0001 > 5.0, no exception claimed
    part, defs = _area(5.0001)
    assert part["passes"] is False
    assert codes(defs) == ["area_exceeds_limit"]


def test_area_a_hair_over_five_does_not_print_as_five() -> None:
    # 5.000001 > 5 fails; at 4 decimals it would read "5.0000 square miles,
    # more than the 5 allowed" (audit A7 O1): printed with the digits that tell
    part, defs = _area(5.000001)
    assert part["passes"] is False
    assert "covers 5.000001 square miles, more than the 5 allowed" in defs[0]["message"]


def test_area_exception_supported_and_not() -> None:
    # 7 sq mi, coterminous with a fire district; share 0.0005 <= tolerance 0.001 -> supported
    # (0.0035 sq mi of a 7 sq mi district: 0.0005 of it)
    part, defs = _area(
        7.0,
        coterminous_with="fire district",
        district_symmetric_difference_share=0.0005,
        district_symmetric_difference_sq_mi=0.0035,
    )
    assert part["passes"] is True
    assert part["exception"] == {
        "coterminous_with": "fire district",
        "kinds_read": ["fire"],
        "kind_stated": None,
        "symmetric_difference_share": 0.0005,
        "symmetric_difference_sq_mi": 0.0035,
        "kind_allowed": True,
        "supported": True,
    }
    assert defs == []
    # share 0.02 > 0.001 -> not supported; 7 > 5 -> fails
    part, defs = _area(
        7.0, coterminous_with="fire district", district_symmetric_difference_share=0.02
    )
    assert part["passes"] is False
    assert part["exception"]["supported"] is False
    assert codes(defs) == ["coterminous_claim_not_supported", "area_exceeds_limit"]
    # claimed, no polygon given: taken as stated
    part, defs = _area(7.0, coterminous_with="school district")
    assert part["passes"] is True
    assert part["exception"]["symmetric_difference_share"] is None
    assert defs == []


# --------------------------------------------------------------------------- villages


def test_existing_village_by_swis_and_overlap() -> None:
    # 104401 is a village code (last two digits 01); 104489 and 104400 are not
    part, defs = existing_village_check(
        pd.Series(["104489", "104401", "104401", "104400"]), village_overlap_sq_mi=None
    )
    assert part["includes_existing_village"] is True
    assert part["village_swis"] == ["104401"]
    assert codes(defs) == ["includes_existing_village"]
    assert "104401" in defs[0]["where"]
    assert "2 roll record(s)" in defs[0]["message"]

    part, defs = existing_village_check(pd.Series(["104489"]), village_overlap_sq_mi=0.0)
    assert part["includes_existing_village"] is False
    assert defs == []
    part, defs = existing_village_check(pd.Series(["104489"]), village_overlap_sq_mi=0.01)
    assert part["includes_existing_village"] is True
    assert codes(defs) == ["includes_existing_village"]


# --------------------------------------------------------------------------- population


def _placement(
    inside: list[bool], placed: list[bool] | None = None, addresses: list[str] | None = None
) -> pd.DataFrame:
    n = len(inside)
    placed = placed if placed is not None else [True] * n
    addresses = addresses if addresses is not None else [f"{i + 1} OAK ST" for i in range(n)]
    return pd.DataFrame(
        {
            # one parcel per address, as placement finds it
            "parcel_key": [
                f"104489|{a}" if p else "" for a, p in zip(addresses, placed, strict=True)
            ],
            "placed": placed,
            "fraction": [
                1.0 if i else (0.0 if p else np.nan) for i, p in zip(inside, placed, strict=True)
            ],
            "inside": inside,
            "reason": ["" if p else "no_match" for p in placed],
            "candidates": [1 if p else 0 for p in placed],
            "address_norm": addresses,
        }
    )


def _people(n: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    inh = pd.DataFrame(
        {
            "name": [f"Person {i}" for i in range(n)],
            "address": [f"{i + 1} Oak St" for i in range(n)],
            "town": ["Kinderhook"] * n,
            "source_row": range(1, n + 1),
        }
    )
    return inh, _placement([True] * n)


@pytest.mark.parametrize(
    ("n", "regime", "passes"),
    [
        (499, PRE, False),  # 499 < 500
        (500, PRE, True),  # 500 >= 500
        (1499, NEW, False),  # 1,499 < 1,500
        (1500, NEW, True),  # 1,500 >= 1,500
    ],
)
def test_population_minimum(n: int, regime: Any, passes: bool) -> None:
    inh, pl = _people(n)
    part, defs = population_check(inh, pl, regime=regime)
    assert part["regular_inhabitants"] == n
    assert part["minimum"] == regime.minimum_population
    assert part["passes"] is passes
    assert codes(defs) == ([] if passes else ["population_below_minimum"])


def test_population_outside_duplicates_unplaced_minors() -> None:
    inh = pd.DataFrame(
        {
            "name": [
                "John Smith",  # 0 inside
                "JOHN SMITH",  # 1 same person, same address -> duplicate
                "Mary Jones",  # 2 outside
                "Ann Lee",  # 3 unplaced
                "Minor child 1",  # 4 inside
                "Minor child 2",  # 5 inside, another child (label differs)
                "Minor child 1",  # 6 same label, same address -> duplicate
                "(minor)",  # 7 inside, another address
                "",  # 8 no name
            ],
            "address": ["1 Oak St"] * 2
            + ["2 Oak St", "9 Nowhere"]
            + ["1 Oak St"] * 3
            + ["3 Oak St", "1 Oak St"],
            "town": ["K"] * 9,
            "source_row": range(1, 10),
        }
    )
    pl = _placement(
        inside=[True, True, False, False, True, True, True, True, True],
        placed=[True, True, True, False, True, True, True, True, True],
        addresses=["1 OAK ST"] * 2
        + ["2 OAK ST", "9 NOWHERE"]
        + ["1 OAK ST"] * 3
        + ["3 OAK ST", "1 OAK ST"],
    )
    sched = inhabitant_schedule(inh, pl)
    assert sched["status"].tolist() == [
        "inside",
        "duplicate",
        "outside",
        "unplaced",
        "inside",
        "inside",
        "duplicate",
        "inside",
        "no_name",
    ]
    part, defs = population_check(inh, pl, regime=PRE)
    # inside: John Smith, Minor child 1, Minor child 2, (minor) = 4
    assert part["regular_inhabitants"] == 4
    assert part["duplicates"] == 2
    assert part["outside"] == 1
    assert part["unplaced"] == 1
    assert part["without_name"] == 1
    assert part["anonymised"] == 3
    # 4 inside and 1 unplaced: placed, it could not make up 500 (audit A22 O2),
    # so it is reported (part["unplaced"]), not a deficiency of the petition
    assert codes(defs) == ["population_below_minimum"]
    # with a minimum of 5 it could: 4 + 1 = 5, a deficiency naming its row
    _, defs = population_check(inh, pl, regime=dataclasses.replace(PRE, minimum_population=5))
    assert codes(defs) == ["population_below_minimum", "inhabitants_unplaced"]
    assert defs[1]["where"] == "inhabitants rows 4"
    # with a minimum of 6 the one entry cannot make up the shortfall of 2
    _, defs = population_check(inh, pl, regime=dataclasses.replace(PRE, minimum_population=6))
    assert codes(defs) == ["population_below_minimum"]


def test_inhabitant_identities_are_reused_for_another_territory() -> None:
    # who each entry is does not depend on the territory: identities taken once
    # (with every placed entry outside) give, for a territory holding 1 Oak St,
    # the schedule computed afresh. Entries: John Smith twice at 1 Oak St (one
    # person: the second is a duplicate), Ann Lee unplaced, Bo Li at 2 Oak St.
    inh = pd.DataFrame(
        {
            "name": ["John Smith", "JOHN SMITH", "Ann Lee", "Bo Li"],
            "address": ["1 Oak St", "1 Oak St", "9 Nowhere", "2 Oak St"],
            "town": ["K"] * 4,
            "source_row": [1, 2, 3, 4],
        }
    )
    addresses = ["1 OAK ST", "1 OAK ST", "9 NOWHERE", "2 OAK ST"]
    placed = [True, True, False, True]
    before = _placement(inside=[False] * 4, placed=placed, addresses=addresses)
    after = _placement(inside=[True, True, False, False], placed=placed, addresses=addresses)
    ids = inhabitant_identities(inh, before)
    assert ids["status"].tolist() == ["", "duplicate", "unplaced", ""]
    reused = inhabitant_schedule(inh, after, identities=ids)
    assert reused["status"].tolist() == ["inside", "duplicate", "unplaced", "outside"]
    pd.testing.assert_frame_equal(reused, inhabitant_schedule(inh, after))
    # identities of another list (another index) are not used
    other = ids.iloc[:2]
    pd.testing.assert_frame_equal(
        inhabitant_schedule(inh, after, identities=other), inhabitant_schedule(inh, after)
    )


def test_an_inhabitant_written_surname_first_is_the_same_person() -> None:
    # "Smith, Mary B" and "Mary B. Smith" at 1 Oak St: one person listed twice;
    # "Mary Smith Jr." there is another (a suffix): 2 inside, 1 duplicate
    inh = pd.DataFrame(
        {
            "name": ["Smith, Mary B", "Mary B. Smith", "Mary Smith Jr."],
            "address": ["1 Oak St"] * 3,
            "town": ["K"] * 3,
            "source_row": [1, 2, 3],
        }
    )
    pl = _placement(inside=[True] * 3, placed=[True] * 3, addresses=["1 OAK ST"] * 3)
    sched = inhabitant_schedule(inh, pl)
    assert sched["status"].tolist() == ["inside", "duplicate", "inside"]
    # the exhibit lists each person inside with the town written on the list
    from pipeline.documents.exhibits import inhabitants_exhibit

    exhibit = inhabitants_exhibit(sched)
    assert exhibit.columns.tolist() == ["number", "name", "address", "town"]
    assert exhibit["town"].tolist() == ["K", "K"]


def test_unplaced_inhabitants_are_reported_not_a_deficiency_when_enough_are_placed() -> None:
    # 500 placed inside and 1 that cannot be placed: the population passes
    # (500 >= 500) and the unplaced entry, which cannot change that, is reported
    inh, pl = _people(501)
    pl.loc[pl.index[-1], ["placed", "inside"]] = False
    part, defs = population_check(inh, pl, regime=PRE)
    assert (part["regular_inhabitants"], part["unplaced"], part["passes"]) == (500, 1, True)
    assert codes(defs) == []


# --------------------------------------------------------------------------- designees


def _designees(n: int) -> list[dict[str, str]]:
    return [{"name": f"Jane Doe{i}", "address": f"{i + 1} Oak St", "town": "K"} for i in range(n)]


def test_designees_two_of_three_inside_pass() -> None:
    # 2 × 2 = 4 > 3
    part, defs = designees_check(_designees(3), _placement([True, True, False]))
    assert part == {
        "count": 3,
        "residing_in_territory": 2,
        "passes": True,
        "problems": [],
        "listed_twice": [],
    }
    assert defs == []


def test_designees_one_of_two_fails() -> None:
    # 2 × 1 = 2, not > 2
    part, defs = designees_check(_designees(2), _placement([True, False]))
    assert part["passes"] is False
    assert part["residing_in_territory"] == 1
    assert codes(defs) == ["designees_invalid"]


def test_a_designee_listed_twice_is_one_person() -> None:
    # Alice Able (inside) listed twice, written two ways, and Zed Zulu (outside):
    # two persons, one residing: 2 x 1 = 2, not > 2, no majority
    listed = [
        {"name": "Alice Able", "address": "1 Main St", "town": "K"},
        {"name": "Zed Zulu", "address": "99 Elm St", "town": "K"},
        {"name": "Able, Alice", "address": "1 Main Street", "town": "K"},
    ]
    homes = ["1 MAIN ST", "99 ELM ST", "1 MAIN ST"]  # both Alices on one parcel
    part, defs = designees_check(listed, _placement([True, False, True], addresses=homes))
    assert (part["count"], part["residing_in_territory"], part["passes"]) == (2, 1, False)
    assert part["listed_twice"] == ["Able, Alice"]
    assert codes(defs) == ["designees_invalid"]


def test_designees_of_one_name_in_two_homes_are_two_persons() -> None:
    # Pat Lee of 1 Elm St in Brinton (outside) and Pat Lee of 1 Elm St in Harlow
    # (inside, another parcel), and Ann Apt of 6 Main St Apt 1 and Apt 2 (one
    # parcel, inside, two units): four persons, three residing: 2 x 3 > 4, but
    # four designees are one too many
    listed = [
        {"name": "Pat Lee", "address": "1 Elm St", "town": "Brinton"},
        {"name": "Pat Lee", "address": "1 Elm St", "town": "Harlow"},
        {"name": "Ann Apt", "address": "6 Main St Apt 1", "town": "Harlow"},
        {"name": "Ann Apt", "address": "6 Main St, Apt 2", "town": "Harlow"},
    ]
    place = _placement(
        [False, True, True, True], addresses=["1 ELM ST B", "1 ELM ST H", "6 MAIN ST", "6 MAIN ST"]
    )
    part, defs = designees_check(listed, place)
    assert (part["count"], part["residing_in_territory"]) == (4, 3)
    assert part["listed_twice"] == []
    assert codes(defs) == ["designees_invalid"]
    assert part["problems"] == ["4 designees (no more than three allowed)"]


@pytest.mark.parametrize("name", ["Mr. Smith", "Dr. Smith", "Mrs Smith", "Jane Q.", "J. Smith"])
def test_a_title_or_an_initial_is_no_full_name(name: str) -> None:
    # § 2-202.1.b(5): designees by full name; "J. Robert Smith" is one
    part, _ = designees_check(
        [{"name": name, "address": "1 Oak St", "town": "K"}], _placement([True])
    )
    assert part["problems"] == [f"{name}: a full name (first and last) is required"]
    part, _ = designees_check(
        [{"name": "J. Robert Smith", "address": "1 Oak St", "town": "K"}], _placement([True])
    )
    assert part["passes"] is True


def test_area_exception_only_for_the_bodies_the_law_lists() -> None:
    # 6.18 sq mi > 5: claimed coterminous with a ZIP code, an election district,
    # a county: none of them is a school, fire (protection, alarm), town special
    # or improvement district or a town (§ 2-200): not supported, and the area fails
    from pipeline.law.checks import exception_kind_allowed

    for body in (
        "ZIP code 12106",
        "election district 3",
        "Columbia County",
        # audit A7: a word of the list somewhere in the text is not enough
        "Election District 3 of the Town of Harlow",
        "ZIP code 12106 (Town of Harlow)",
        "part of the Town of Harlow",
        "the Town of Harlow north of Route 9",
        "Harlow State Park",
        "Columbia County Sewer District No. 1",  # a county's district, not a town's
        "Town of Harlow Water Authority",
        "Harlow Library District",
        "Harlow Fire District and Election District 3",
    ):
        assert not exception_kind_allowed(body)
        part, defs = _area(6.18, coterminous_with=body)
        assert part["passes"] is False and part["exception"]["kind_allowed"] is False
        assert codes(defs) == ["coterminous_claim_not_supported", "area_exceeds_limit"]
    for body in (
        "Kinderhook Central School District",
        "Stuyvesant Fire Protection District",
        "Valatie Water District",
        "the entire Town of Harlow",
        "Harlow Fire Alarm District",
        "Ichabod Crane CSD",
        "Hudson City School District",
        "Valatie Water District and Valatie Sewer District",
        "Town of Harlow Special Improvement District",
        "Town of East Greenbush, Rensselaer County",
        "Harlow (town)",
    ):
        assert exception_kind_allowed(body)
        part, defs = _area(6.18, coterminous_with=body)
        assert part["passes"] is True and defs == []


#: Claims read (audit A8's corpus, in part): expected allowed or not by § 2-200.
_CLAIMS_ALLOWED = (
    "Hewlett-Woodmere UFSD",
    "Union Free School District No. 14",
    "Central School District No. 1 of the Towns of Chatham, Austerlitz, Ghent and Stuyvesant",
    "Three Village Central School District",  # a school district may bear any name
    "Harlow C.S.D.",
    "Fire Protection District No. 2",
    "Harlow-Brinton Joint Fire District",
    "Harlow Fire Dist. No. 1",
    "Harlow Fire-Protection District",
    "Harlow Water and Sewer Districts",
    "Harlow Fire Districts Nos. 1 and 2",
    "Harlow Refuse and Garbage District",
    "Harlow Beach Erosion Control District",
    "Sanitary District No. 2, Town of Hempstead",
    "Town of Harlow Water District No. 1 (the entire district)",
    "the Town of Harlow, County of Columbia, State of New York",
    "The Town of Harlow, in the County of Columbia",
    "Town of Hyde Park",
    # audit A9
    "Half Hollow Hills Central School District",
    "Ward Road Water District",
    "Pine Acres Water District",
    "West Side Sewer District",
    "Garden City Park Water District",
    "County Route 9 Water District",
    "State Street Sewer District",
    "Joint Fire District of the Town of Harlow and the Village of Valatie",
)
_CLAIMS_NOT_ALLOWED = (
    "part of the Harlow Fire District",
    "the northern half of the Kinderhook Central School District",
    "Harlow Fire District except the portion north of Route 9",
    "Kinderhook Central School District, excluding the Village of Valatie",
    "Harlow Fire District, ZIP code 12106",
    "Harlow Fire District plus 40 acres east of Route 9",
    "Village of Valatie Water District",
    "City of Hudson Sewer District",
    "Harlow Business Improvement District",
    "Harlow School District Public Library",
    "Hamlet of Niverville",
    "Harlow Fire District (part)",
    # audit A9
    "Harlow Fire District in the Town of Harlow and the Village of Valatie",
    "Kinderhook Central School District in the Town of Kinderhook and Columbia County Sewer "
    "District No. 1",
    "Harlow Fire District, 12106",
    "City of Hudson Fire District",
    "Harlow Fire District outside the Village of Valatie",
    "Town of Harlow Ward 2",
)
_CLAIMS_UNREAD = (
    "Town of Harlow Golf Course",
    "Old Town",
    "Harlow Fire Company",
    "Harlow Fire Distrct",
    "Harlow Zoning District R-1",
    "Continental Village Water District",  # a hamlet's name, or a village's district
    "Harlow Fire District of the Town of Harlow and the Harlow Golf Course",
)


def test_coterminous_claims_are_read_by_what_they_name() -> None:
    # audit A8 F1-F5: every body named must be a listed kind, entire, and a
    # town special district a town's (not a village's, a city's, a county's)
    from pipeline.law.coterminous import read_claim

    assert [c for c in _CLAIMS_ALLOWED if read_claim(c).verdict != "allowed"] == []
    assert [c for c in _CLAIMS_NOT_ALLOWED if read_claim(c).verdict != "not_allowed"] == []
    assert [c for c in _CLAIMS_UNREAD if read_claim(c).verdict != "unknown"] == []
    assert read_claim("Harlow Fire Districts Nos. 1 and 2").kinds == ("fire", "fire")
    assert read_claim("Stuyvesant Fire Protection District").kinds == ("fire_protection",)
    assert read_claim("Town of Harlow Special Improvement District").kinds == ("town_improvement",)
    assert read_claim("Sanitary District No. 7, Town of Hempstead").kinds == ("town_special",)


def test_a_claim_that_cannot_be_read() -> None:
    # within the limit (4.9 sq mi) the exception is not needed: a warning, no
    # deficiency; over it (6.18) it is not established: both deficiencies
    warnings: list[str] = []
    part, defs = _area(4.9, coterminous_with="Harlow Fire Distrct", warnings=warnings)
    assert part["passes"] is True and defs == []
    assert len(warnings) == 1 and "could not be read" in warnings[0]
    part, defs = _area(6.18, coterminous_with="Harlow Fire Distrct", warnings=[])
    assert part["passes"] is False
    assert codes(defs) == ["coterminous_claim_not_supported", "area_exceeds_limit"]
    assert "state [territory] coterminous_kind" in defs[0]["message"]


def test_a_stated_kind_is_taken_with_a_warning_but_never_for_part_of_a_body() -> None:
    # coterminous_kind = "fire": the claim the tool cannot read is taken as a
    # fire district (6.18 sq mi passes), with a warning for counsel; a claim of
    # part of a body stays unsupported whatever kind is stated
    warnings: list[str] = []
    part, defs = _area(
        6.18, coterminous_with="Harlow Fire Distrct", coterminous_kind="fire", warnings=warnings
    )
    assert part["passes"] is True and defs == []
    assert part["exception"]["kind_stated"] == "fire"
    assert len(warnings) == 1 and "taken as stated to be of kind 'fire'" in warnings[0]
    # audit A9 F3: a claim read as part of a body, or as another kind, stays
    # unsupported whatever kind is stated
    for claim, kind in (
        ("part of the Harlow Fire District", "fire"),
        ("ZIP code 12106", "town"),
        ("Columbia County Sewer District No. 1", "town_special"),
        ("Election District 3", "fire"),
    ):
        part, defs = _area(6.18, coterminous_with=claim, coterminous_kind=kind)
        assert part["passes"] is False, claim
        assert codes(defs) == ["coterminous_claim_not_supported", "area_exceeds_limit"]
    # audit A9 F6: a kind stated otherwise than read is warned about
    warnings = []
    part, defs = _area(
        6.18, coterminous_with="Harlow Fire District", coterminous_kind="school", warnings=warnings
    )
    assert part["passes"] is True and "read as fire" in warnings[0]


def test_an_entire_town_claimed_is_a_town_of_the_petition() -> None:
    # audit A9 F1, F5: "Town of Ward" is a town (Allegany County), not a ward;
    # with the petition's towns, "Town of Harlow Reservoir" names none of them
    from pipeline.law.coterminous import read_claim

    assert read_claim("Town of Ward", towns=["Ward"]).verdict == "allowed"
    assert read_claim("Town of Harlow, Columbia County", towns=["Harlow"]).kinds == ("town",)
    assert read_claim("Town of Harlow Reservoir", towns=["Harlow"]).verdict == "unknown"
    assert read_claim("Town of Brinton", towns=["Harlow"]).verdict == "unknown"
    # audit A10 F4, F5: the legal forms of a district's name, and spellings
    towns = ["Harlow", "Brinton", "Chatham", "Ghent", "Stuyvesant", "Mount Pleasant"]
    for claim, kinds in (
        ("Harlow Fire District of the Towns of Harlow and Brinton, Columbia County", ("fire",)),
        (
            "Central School District No. 1 of the Towns of Chatham, Ghent and Stuyvesant, "
            "County of Columbia",
            ("school",),
        ),
        ("Kinderhook Central School District, Columbia and Rensselaer Counties", ("school",)),
        ("Harlow Fire District, Towns of Harlow and Brinton", ("fire",)),
        ("Franklin Square and Munson Fire District", ("fire",)),
        ("Town of Mt. Pleasant", ("town",)),
        ("the whole of the Town of Harlow", ("town",)),
    ):
        got = read_claim(claim, towns=towns)
        assert (got.verdict, got.kinds) == ("allowed", kinds), claim
    assert read_claim("Harlow Golf Course and Harlow Fire District").verdict == "unknown"
    # audit A11 F3, F4: "X and the Y District" names two bodies; county and state
    # written the ways addresses write them are where the district lies
    assert read_claim("Ghent and the Harlow Fire District", towns=towns).verdict == "unknown"
    for where in (", Columbia Co.", ", Columbia County, NYS", ", State of N.Y.", ", U.S.A."):
        assert read_claim("Harlow Fire District" + where).verdict == "allowed", where
    assert read_claim("Harlow Fire District, Harlow, NY 12184").kinds == ("fire",)
    part, defs = _area(0.32, coterminous_with="Town of Ward", towns=["Ward"])
    assert part["passes"] is True and defs == []
    assert part["exception"]["kind_allowed"] is True


def test_designees_one_of_one_passes() -> None:
    # 2 × 1 = 2 > 1
    part, defs = designees_check(_designees(1), _placement([True]))
    assert part["passes"] is True and defs == []


def test_designees_count_and_full_names() -> None:
    part, defs = designees_check([], _placement([]))
    assert part["passes"] is False and codes(defs) == ["designees_invalid"]
    part, _ = designees_check(_designees(4), _placement([True] * 4))
    assert part["passes"] is False
    bad = [
        {"name": "Jane", "address": "1 Oak St", "town": "K"},
        {"name": "John Roe Jr.", "address": "", "town": "K"},
    ]
    part, defs = designees_check(bad, _placement([True, True]))
    assert part["passes"] is False
    assert len(part["problems"]) == 2  # Jane: no last name; John Roe Jr.: no address
    # an unplaced designee does not reside: 1 of 2 placed inside -> fails
    part, _ = designees_check(_designees(2), _placement([True, False], placed=[True, False]))
    assert part["residing_in_territory"] == 1 and part["passes"] is False


@pytest.mark.parametrize(
    ("second", "address"),
    [
        ("Aaron Abbott", "10 Main St"),  # no middle name: one of the others
        ("AARON ABBOTT", "10 Main St"),
        ("Aaron Alfred Abbott", "10 Main St"),  # A is the initial of ALFRED
        ("Abbott Aaron A", "10 Main St"),  # surname first, the roll's order
        ("Aaron A. Abbott", "10 Main St Apt 1"),  # a unit beside none
        ("Ron A. Abbott", "10 Main St"),  # RON is a nickname of AARON
    ],
)
def test_a_designee_the_list_cannot_tell_from_another_is_one_person(
    second: str, address: str
) -> None:
    # § 2-202.1.b(5), audit F1: Aaron A. Abbott of 10 Main St (inside), the same
    # person written another way at the same parcel (inside), and Lydia L.
    # Lockhart of 120 Main St (outside): two persons, one residing;
    # 2 x 1 = 2, not > 2: no majority (listed as three, 2 of 3 would pass)
    listed = [
        {"name": "Aaron A. Abbott", "address": "10 Main St", "town": "Harlow"},
        {"name": second, "address": address, "town": "Harlow"},
        {"name": "Lydia L. Lockhart", "address": "120 Main St", "town": "Harlow"},
    ]
    homes = ["10 MAIN ST", "10 MAIN ST", "120 MAIN ST"]  # one parcel for both Aarons
    part, defs = designees_check(listed, _placement([True, True, False], addresses=homes))
    assert (part["count"], part["residing_in_territory"], part["passes"]) == (2, 1, False)
    assert part["listed_twice"] == [second]
    assert codes(defs) == ["designees_invalid"]


def test_designees_of_one_home_whose_names_differ_are_two_persons() -> None:
    # Aaron A. and Aaron B. Abbott of 10 Main St (other middle initials), and
    # Paul and Paula Green of 20 Main St (a close spelling is no nickname): four
    # persons, all inside; 2 x 4 = 8 > 4, but four designees are one too many
    listed = [
        {"name": "Aaron A. Abbott", "address": "10 Main St", "town": "Harlow"},
        {"name": "Aaron B. Abbott", "address": "10 Main St", "town": "Harlow"},
        {"name": "Paul Green", "address": "20 Main St", "town": "Harlow"},
        {"name": "Paula Green", "address": "20 Main St", "town": "Harlow"},
    ]
    homes = ["10 MAIN ST", "10 MAIN ST", "20 MAIN ST", "20 MAIN ST"]
    part, _ = designees_check(listed, _placement([True] * 4, addresses=homes))
    assert (part["count"], part["residing_in_territory"], part["listed_twice"]) == (4, 4, [])
    assert part["problems"] == ["4 designees (no more than three allowed)"]


def test_a_designee_written_surname_first_has_a_full_name() -> None:
    # "Abbott Aaron A" ends in a lone initial: read surname first (the roll's
    # order, WALSH DAVID R), Aaron A. Abbott is a full name; 1 of 1 inside passes
    part, defs = designees_check(
        [{"name": "Abbott Aaron A", "address": "10 Main St", "town": "Harlow"}],
        _placement([True]),
    )
    assert (part["passes"], part["problems"], defs) == (True, [], [])


# --------------------------------------------------------------------------- pages / lines


def _pages() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "page": [1, 2, 3],
            "basis": ["owners", "residents", "residents"],
            "stated_signature_count": [2, 3, 1],
        }
    )


def _signatures() -> pd.DataFrame:
    # page 1: 2 lines (stated 2: ok); page 2: 2 lines (stated 3: mismatch);
    # page 3: 1 line (ok); page 4: 1 line, no page record
    return pd.DataFrame(
        {
            "page": [1, 1, 2, 2, 3, 4],
            "line": [1, 2, 1, 2, 1, 1],
            "name": ["A B", "C D", "E F", "G H", "I J", "K L"],
            "address": ["1 Oak St", "", "3 Oak St", "  ", "5 Oak St", "6 Oak St"],
            "credited_assessed_value": [1000.0, np.nan, np.nan, np.nan, np.nan, np.nan],
        }
    )


def test_witness_count_mismatch_named_by_page() -> None:
    part, defs = witness_count_check(_pages(), _signatures())
    assert part["mismatched_pages"] == [2, 4]
    assert [d["where"] for d in defs] == ["page 2", "page 4"]
    assert codes(defs) == ["witness_count_mismatch"] * 2
    assert part["pages"][1] == {"page": 2, "stated": 3, "lines": 2, "matches": False}


@pytest.mark.parametrize(("stated", "mismatch"), [(3, True), (2, False)])
def test_the_count_sworn_to_is_of_the_lines_signed_by_the_oath(stated: int, mismatch: bool) -> None:
    # audit A36 F1: page 1 sworn on 2023-05-03 holds 3 lines, the third signed
    # on 2023-05-04, after the oath. When sworn the page held 2: a statement of
    # 3 is the mismatch (it passed: 3 lines), one of 2 the truth (it was
    # flagged). The late line counts for nothing either way (late_lines).
    pages = pd.DataFrame(
        {"page": [1], "stated_signature_count": [stated], "sworn_on": ["2023-05-03"]}
    )
    lines = pd.DataFrame(
        {
            "page": [1, 1, 1],
            "line": [1, 2, 3],
            "signed_on": ["2023-05-01", "2023-05-02", "2023-05-04"],
        }
    )
    part, defs = witness_count_check(pages, lines)
    assert part["pages"] == [{"page": 1, "stated": stated, "lines": 2, "matches": not mismatch}]
    assert [d["message"] for d in defs] == (
        [
            "page 1: the witness affidavit states 3 signature(s) but the page held 2 when it "
            "was sworn (1 more line(s) are dated after the affidavit, 2023-05-03)"
        ]
        if mismatch
        else []
    )


def test_a_line_signed_after_the_filing_says_so_first() -> None:
    pages = pd.DataFrame({"page": [1], "sworn_on": ["2023-06-10"]})
    lines = pd.DataFrame({"page": [1], "line": [1], "signed_on": ["2023-06-20"]})
    why = late_lines(lines, pages, filed_on=dt.date(2023, 6, 1)).tolist()
    assert why == ["signed on 2023-06-20, after the petition was filed on 2023-06-01"]


def test_line_checks() -> None:
    part, defs = line_checks(_signatures(), _pages())
    # without address: 1:2 and 2:2 (blank); owner page 1 without value: line 1:2
    # no town column in this frame: the towns are not checked
    assert part == {
        "lines": 6,
        "without_address": 2,
        "without_town": None,
        "owner_lines_without_value": 1,
    }
    assert codes(defs) == ["line_without_address", "owner_page_without_value"]
    assert defs[0]["where"] == "lines 1:2, 2:2"
    assert defs[1]["where"] == "lines 1:2"


def test_line_checks_list_lines_in_page_order_whatever_the_files() -> None:
    # the same lines in reverse file order: the same lists, page then line
    # (numerically: 2:2 before 10:1)
    sig = _signatures().assign(page=[1, 1, 10, 10, 3, 4], line=[1, 2, 1, 2, 1, 1])
    sig.loc[1, "page"] = 2  # "C D" (no address) is now line 2:2
    _, defs = line_checks(sig.iloc[::-1].reset_index(drop=True), _pages())
    assert defs[0]["where"] == "lines 2:2, 10:2"


def test_a_line_whose_address_lacks_its_town() -> None:
    # § 2-202.1.e(3): "street name and number, if any, and town". Lines 1:1 and
    # 3:1 have no town; 1:2 and 2:2 have no address at all (already
    # line_without_address, not counted twice): without_town = 2.
    signatures = _signatures().assign(town=["", "", "Harlow", "Harlow", " ", "Harlow"])
    part, defs = line_checks(signatures, _pages())
    assert part["without_town"] == 2
    assert codes(defs) == ["line_without_address", "line_without_town", "owner_page_without_value"]
    assert defs[1]["where"] == "lines 1:1, 3:1"
    assert defs[1]["paragraph"] == "2-202.1.e(3)"
    # towns not transcribed at all (no column in the file): not judged
    part, defs = line_checks(signatures, _pages(), towns_recorded=False)
    assert part["without_town"] is None
    assert "line_without_town" not in codes(defs)


def _affidavits() -> pd.DataFrame:
    # page 1 complete; 2 no witness; 3 no residence and no date; 4 sworn after
    # filing (2023-06-01); 5 no date
    return pd.DataFrame(
        {
            "page": [1, 2, 3, 4, 5],
            "witness_name": ["Ann W", " ", "Bob W", "Cy W", "Di W"],
            "witness_address": ["5 Main St", "", "", "6 Main St", "7 Main St"],
            "sworn_on": ["2023-05-03", "2023-05-03", "", "2023-06-05", ""],
        }
    )


def test_affidavit_check() -> None:
    part, defs = affidavit_check(_affidavits(), filed_on=dt.date(2023, 6, 1))
    assert part == {"without_affidavit": [2], "incomplete": [3, 5], "sworn_after_filing": [4]}
    assert codes(defs) == [
        "page_without_affidavit",
        "affidavit_incomplete",
        "affidavit_sworn_after_filing",
    ]
    assert {d["paragraph"] for d in defs} == {"2-202.1.e(4)"}
    assert defs[0]["where"] == "pages 2"
    assert defs[1]["where"] == "page 3: no witness residence and no date, page 5: no date"
    assert defs[2]["where"] == "pages 4"
    # no sworn_on column in the file: blank dates are not judged
    part, _ = affidavit_check(_affidavits(), filed_on=dt.date(2023, 6, 1), sworn_recorded=False)
    assert part["incomplete"] == [3]


def test_lines_of_an_unauthenticated_page_do_not_count() -> None:
    lines = pd.DataFrame(
        {
            "page": [1, 1, 2, 3, 4, 5],
            "line": [1, 2, 1, 1, 1, 1],
            "signed_on": ["2023-05-01", "2023-05-04", "2023-05-01", "", "2023-05-01", ""],
        }
    )
    why = unauthenticated_lines(lines, _affidavits(), filed_on=dt.date(2023, 6, 1)).tolist()
    assert why[0] == ""  # page 1, signed before the oath
    assert why[1] == "signed on 2023-05-04, after the witness's affidavit sworn on 2023-05-03"
    assert why[2] == "page 2 has no witness affidavit (no witness named)"
    assert why[3] == ""  # page 3: incomplete affidavit, the line still counts
    assert why[4] == (
        "the witness affidavit of page 4 was sworn on 2023-06-05, after the petition was "
        "filed on 2023-06-01"
    )
    assert why[5] == ""


# --------------------------------------------------------------------------- verdict


def _summary(**over: Any) -> dict[str, Any]:
    s: dict[str, Any] = {
        "territory": {"includes_existing_village": False},
        "owner_test": {"applies": False, "passes": None},
        "resident_test": {"applies": True, "passes": True},
        "population": {"passes": True},
        "area": {"passes": True},
        "designees": {"passes": True},
        "deficiencies": [],
    }
    s.update(over)
    return s


def test_sufficiency() -> None:
    assert sufficiency(_summary()) is True
    # a deficiency remains
    d = deficiency_for("witness_count_mismatch", "m", "page 2")
    assert sufficiency(_summary(deficiencies=[d])) is False
    # an alleged basis fails
    assert sufficiency(_summary(owner_test={"applies": True, "passes": False})) is False
    # no basis applies
    assert sufficiency(_summary(resident_test={"applies": False, "passes": None})) is False
    assert sufficiency(_summary(population={"passes": False})) is False
    assert sufficiency(_summary(territory={"includes_existing_village": True})) is False


def test_inhabitant_duplicates_are_one_person_in_one_home() -> None:
    # Mary Smith at 12 Main St Apt 1 and Apt 2 (one parcel): two homes, two
    # persons; "Smith, Mary" again at Apt 1: a duplicate. John Doe at "1 Main St"
    # in Harlow and in Brinton (two parcels, one address in two towns): two
    # persons. Inside: 4 of 5, 1 duplicate
    inh = pd.DataFrame(
        {
            "name": ["Mary Smith", "Mary Smith", "Smith, Mary", "John Doe", "John Doe"],
            "address": [
                "12 Main St Apt 1",
                "12 Main St Apt 2",
                "12 Main St Apt 1",
                "1 Main St",
                "1 Main St",
            ],
            "town": ["Harlow", "Harlow", "Harlow", "Harlow", "Brinton"],
            "source_row": range(1, 6),
        }
    )
    pl = pd.DataFrame(
        {
            "parcel_key": ["104489|12", "104489|12", "104489|12", "104489|1", "104689|1"],
            "placed": [True] * 5,
            "fraction": [1.0] * 5,
            "inside": [True] * 5,
            "reason": [""] * 5,
            "candidates": [1, 1, 1, 2, 2],
            "address_norm": ["12 MAIN ST"] * 3 + ["1 MAIN ST"] * 2,
        }
    )
    sched = inhabitant_schedule(inh, pl)
    assert sched["status"].tolist() == ["inside", "inside", "duplicate", "inside", "inside"]


def test_a_straddle_threshold_of_zero_is_refused(tmp_path: Any) -> None:
    # at 0 a voter on a parcel wholly outside (fraction 0 >= 0) would count
    from test_run_handworked import make_petition

    from pipeline.config import load_config
    from pipeline.errors import InputError

    config = make_petition(tmp_path / "p")
    config.write_text(config.read_text() + "\n[policy]\nstraddle_voter_threshold = 0\n")
    with pytest.raises(InputError, match="straddle_voter_threshold"):
        load_config(config)


def test_no_list_of_inhabitants_is_a_deficiency_of_c2() -> None:
    # no list annexed: no inhabitant counted (0 < 500) and the petition lacks
    # the list § 2-202.1.c(2) asks for
    empty = pd.DataFrame(columns=["name", "address", "town", "source_row"])
    part, defs = population_check(empty, _placement([]), regime=PRE)
    assert part["regular_inhabitants"] == 0
    assert codes(defs) == ["population_below_minimum", "inhabitants_list_missing"]
    assert [d["paragraph"] for d in defs] == ["2-200", "2-202.1.c(2)"]


def test_an_inhabitant_written_with_and_without_the_middle_initial_is_one_person() -> None:
    # at 1 Oak St: "Mary Smith", "Mary B. Smith", "Mary Beth Smith": one
    # person (B is the initial of BETH; no middle name is one of them): 1 inside,
    # 2 duplicates. At 2 Oak St: "Pat A. Lee" and "Pat B. Lee" are two people;
    # "Pat Lee" is one of them (the count leans low): 2 inside, 1 duplicate. At 3
    # Oak St "Child of J. Smith" and "Child of K. Smith" may be one child of J.
    # and K. Smith: the labels carry no number to tell two children apart, so one
    # (1 inside, 1 duplicate). Total 1 + 2 + 1 = 4, duplicates 2 + 1 + 1 = 4
    names = ["Mary Smith", "Mary B. Smith", "Mary Beth Smith"]
    names += ["Pat A. Lee", "Pat B. Lee", "Pat Lee", "Child of J. Smith", "Child of K. Smith"]
    addresses = ["1 Oak St"] * 3 + ["2 Oak St"] * 3 + ["3 Oak St"] * 2
    inh = pd.DataFrame(
        {"name": names, "address": addresses, "town": ["K"] * 8, "source_row": range(1, 9)}
    )
    pl = _placement([True] * 8, addresses=[a.upper() for a in addresses])
    sched = inhabitant_schedule(inh, pl)
    assert sched["status"].tolist() == [
        "inside",
        "duplicate",
        "duplicate",
        "inside",
        "inside",
        "duplicate",
        "inside",
        "duplicate",
    ]
    part, _ = population_check(inh, pl, regime=PRE, schedule=sched)
    assert (part["regular_inhabitants"], part["duplicates"]) == (4, 4)


def test_inhabitants_whose_middle_names_differ_in_full_are_two_people() -> None:
    # at 1 Oak St: "John Allen Smith" and "John Albert Smith" are two people;
    # "John A. Smith" is one of them (the first, ALBERT): 2 inside. At 2 Oak St
    # "Mary A Smith", "Mary B Smith" and "Mary Beth Smith": MARY A, and MARY B =
    # MARY BETH: 2 inside. At 3 Oak St "Mary Ann Lee" and "Mary Anne Lee" (one
    # name spelled two ways): 1 inside. Total 5
    names = ["John Allen Smith", "John Albert Smith", "John A. Smith"]
    names += ["Mary A Smith", "Mary B Smith", "Mary Beth Smith", "Mary Ann Lee", "Mary Anne Lee"]
    addresses = ["1 Oak St"] * 3 + ["2 Oak St"] * 3 + ["3 Oak St"] * 2
    inh = pd.DataFrame(
        {"name": names, "address": addresses, "town": ["K"] * 8, "source_row": range(1, 9)}
    )
    sched = inhabitant_schedule(
        inh, _placement([True] * 8, addresses=[a.upper() for a in addresses])
    )
    assert sched["status"].tolist() == [
        "inside",
        "inside",
        "duplicate",
        "inside",
        "inside",
        "duplicate",
        "inside",
        "duplicate",
    ]


def _list_with(extra: list[tuple[str, str]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Aaron A. Abbott of 1 Oak St, Person 2 ... Person 499 of 2 ... 499 Oak St
    (499 persons), and ``extra`` entries (name, address) on the parcel of 1 Oak St."""
    names = ["Aaron A. Abbott"] + [f"Person {i}" for i in range(2, 500)]
    written = ["1 Oak St"] + [f"{i} Oak St" for i in range(2, 500)]
    homes = [a.upper() for a in written]
    names += [n for n, _ in extra]
    written += [a for _, a in extra]
    homes += ["1 OAK ST"] * len(extra)
    inh = pd.DataFrame(
        {
            "name": names,
            "address": written,
            "town": ["Harlow"] * len(names),
            "source_row": range(1, len(names) + 1),
        }
    )
    return inh, _placement([True] * len(names), addresses=homes)


@pytest.mark.parametrize(
    ("name", "address", "duplicates", "incomplete"),
    [
        ("A. Abbott", "1 Oak St", 1, 0),  # an initial for AARON
        ("Abbott Aaron A", "1 Oak St", 1, 0),  # surname first, no comma
        ("Abbott Aaron", "1 Oak St", 1, 0),  # two words, ABBOTT a surname of the home
        ("Aaron A. Abbott", "1 Oak St Apt 1", 1, 0),  # a unit beside none
        ("Aaron A. Abbott", "1 Oak St #1", 1, 0),
        ("Ron A. Abbott", "1 Oak St", 1, 0),  # RON is a nickname of AARON
        ("Aaron", "1 Oak St", 0, 1),  # a given name alone names no one: set aside
        ("Abbott", "1 Oak St", 0, 1),  # a surname alone
        ("Mr. Abbott", "1 Oak St", 0, 1),  # a title and a surname
        ("Aaron A.", "1 Oak St", 0, 1),  # a word and an initial
    ],
)
def test_an_entry_the_list_cannot_tell_from_another_does_not_make_500(
    name: str, address: str, duplicates: int, incomplete: int
) -> None:
    # § 2-200, § 2-202.1.b(3), c(2), audit F3: 499 persons and an entry at
    # Aaron A. Abbott's home that cannot be told from him (a duplicate) or
    # names no one (set aside): 499 + 0 = 499 < 500, fails
    inh, pl = _list_with([(name, address)])
    part, defs = population_check(inh, pl, regime=PRE)
    assert (part["regular_inhabitants"], part["passes"]) == (499, False)
    assert (part["duplicates"], part["incomplete_names"]) == (duplicates, incomplete)
    assert codes(defs) == ["population_below_minimum"]


@pytest.mark.parametrize(
    ("name", "address"),
    [
        ("Aaron B. Abbott", "1 Oak St"),  # another middle initial
        ("Bella Abbott", "1 Oak St"),  # another given name
        ("Abbott Bella", "1 Oak St"),  # the same, surname first
        ("Aaron A. Abbott Jr.", "1 Oak St"),  # a son
        ("Minor child 1", "1 Oak St"),  # a child
    ],
)
def test_an_entry_the_list_tells_apart_makes_500(name: str, address: str) -> None:
    # 499 persons and another person at Aaron A. Abbott's home: 499 + 1 = 500 >= 500
    inh, pl = _list_with([(name, address)])
    part, defs = population_check(inh, pl, regime=PRE)
    assert (part["regular_inhabitants"], part["passes"], part["duplicates"]) == (500, True, 0)
    assert defs == []


def test_people_of_one_home_the_list_tells_apart_are_counted_each() -> None:
    # at 1 Oak St: MARY A and MARY B SMITH (2); Paul and Paula Green, a close
    # spelling, no nickname (2); William R. and Robert R. Brown, both called
    # BILL but neither a nickname of the other (2). At 2 Oak St Apt 1 and Apt
    # 2 (one parcel): Ann Lee of each (2), and "Ann Lee" without a unit is one
    # of them (0). Inside 2 + 2 + 2 + 2 = 8, 1 duplicate
    names = ["Mary A Smith", "Mary B Smith", "Paul Green", "Paula Green"]
    names += ["William R. Brown", "Robert R. Brown", "Ann Lee", "Ann Lee", "Ann Lee"]
    written = ["1 Oak St"] * 6 + ["2 Oak St Apt 1", "2 Oak St Apt 2", "2 Oak St"]
    homes = ["1 OAK ST"] * 6 + ["2 OAK ST"] * 3
    inh = pd.DataFrame(
        {"name": names, "address": written, "town": ["K"] * 9, "source_row": range(1, 10)}
    )
    part, _ = population_check(inh, _placement([True] * 9, addresses=homes), regime=PRE)
    assert (part["regular_inhabitants"], part["duplicates"]) == (8, 1)


def test_a_nickname_of_two_names_does_not_join_them() -> None:
    # audit G7: at 1 Oak St "Bill Jones", "William Jones" and "Robert Jones".
    # BILL is a nickname of both WILLIAM and ROBERT, but WILLIAM and ROBERT are
    # two people: Bill is one of them (which one the list cannot tell), so 2
    # inside and 1 duplicate (before: Bill joined both, 1 inside)
    names = ["Bill Jones", "William Jones", "Robert Jones"]
    inh = pd.DataFrame(
        {"name": names, "address": ["1 Oak St"] * 3, "town": ["K"] * 3, "source_row": [1, 2, 3]}
    )
    part, _ = population_check(inh, _placement([True] * 3, addresses=["1 OAK ST"] * 3), regime=PRE)
    assert (part["regular_inhabitants"], part["duplicates"]) == (2, 1)


def test_anonymised_minors_of_one_home_are_told_apart_by_their_numbers() -> None:
    # audit F3 (mi1, mi2): at 1 Oak St "Child of Aaron A. Abbott" and "Minor
    # child 1" may be one child (1 inside); at 2 Oak St "Minor" and "Minor child
    # 1" too (1); at 3 Oak St "Minor child 1" and "Minor child 2" are two, and
    # "(minor)" one of them (2). Inside 1 + 1 + 2 = 4, duplicates 1 + 1 + 1 = 3
    names = ["Child of Aaron A. Abbott", "Minor child 1", "Minor", "Minor child 1"]
    names += ["Minor child 1", "Minor child 2", "(minor)"]
    written = ["1 Oak St"] * 2 + ["2 Oak St"] * 2 + ["3 Oak St"] * 3
    inh = pd.DataFrame(
        {"name": names, "address": written, "town": ["K"] * 7, "source_row": range(1, 8)}
    )
    sched = inhabitant_schedule(inh, _placement([True] * 7, addresses=[a.upper() for a in written]))
    assert sched["status"].tolist() == [
        "inside",
        "duplicate",
        "inside",
        "duplicate",
        "inside",
        "inside",
        "duplicate",
    ]
    part, _ = population_check(inh, _placement([True] * 7), regime=PRE, schedule=sched)
    assert (part["regular_inhabitants"], part["duplicates"], part["anonymised"]) == (4, 3, 4)


def _home_schedule(names: list[str], written: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A list of inhabitants, every entry placed inside at its address, and its schedule."""
    n = len(names)
    inh = pd.DataFrame(
        {"name": names, "address": written, "town": ["K"] * n, "source_row": range(1, n + 1)}
    )
    return inh, inhabitant_schedule(
        inh, _placement([True] * n, addresses=[a.upper() for a in written])
    )


def test_minor_as_a_surname_is_a_name_not_a_label() -> None:
    # Minor is a surname: "John Minor" and "Mary Minor" at 1 Oak St are two
    # named people (before: two anonymised labels without numbers, one person),
    # "Minor, John" is John Minor again (a duplicate); "Emma Smith (minor)" is
    # Emma Smith, marked as a minor, the same as "Emma Smith" at 2 Oak St.
    # Inside 2 + 1 = 3, duplicates 1 + 1 = 2, none anonymised
    names = ["John Minor", "Mary Minor", "Minor, John", "Emma Smith (minor)", "Emma Smith"]
    written = ["1 Oak St"] * 3 + ["2 Oak St"] * 2
    inh = pd.DataFrame(
        {"name": names, "address": written, "town": ["K"] * 5, "source_row": range(1, 6)}
    )
    sched = inhabitant_schedule(inh, _placement([True] * 5, addresses=[a.upper() for a in written]))
    assert sched["status"].tolist() == ["inside", "inside", "duplicate", "inside", "duplicate"]
    assert not sched["anonymised"].any()
    part, _ = population_check(inh, _placement([True] * 5), regime=PRE, schedule=sched)
    assert (part["regular_inhabitants"], part["duplicates"], part["anonymised"]) == (3, 2, 0)


def test_labels_and_named_minors_as_lists_write_them() -> None:
    # audit A8 F6-F8. At 1 Oak St "Smith, Minor Child 1" and "Smith, Minor
    # Child 2" are two children (numbered labels after a family name); at 2 Oak
    # St "Minor child 1 (age 4)" and "Minor child 2 (age 4)" two (the age tells
    # no one apart); at 3 Oak St "Minor Child A", "Minor Child B" two, and
    # "Minor 1" = "Minor 01" = "Minor1" one more (3); at 4 Oak St "Emma Smith",
    # "Emma Smith - minor", "Emma Smith, minor", "Emma Smith [minor]" and "Emma
    # Smith (minor child)" are Emma (1); at 5 Oak St "Newborn" is a label (1).
    # Inside 2 + 2 + 3 + 1 + 1 = 9; labels inside 2 + 2 + 3 + 0 + 1 = 8
    names = ["Smith, Minor Child 1", "Smith, Minor Child 2"]
    names += ["Minor child 1 (age 4)", "Minor child 2 (age 4)"]
    names += ["Minor Child A", "Minor Child B", "Minor 1", "Minor 01", "Minor1"]
    names += ["Emma Smith", "Emma Smith - minor", "Emma Smith, minor", "Emma Smith [minor]"]
    names += ["Emma Smith (minor child)", "Newborn"]
    written = ["1 Oak St"] * 2 + ["2 Oak St"] * 2 + ["3 Oak St"] * 5 + ["4 Oak St"] * 5
    written += ["5 Oak St"]
    inh, sched = _home_schedule(names, written)
    n = len(names)
    assert sched["status"].tolist() == ["inside"] * 6 + ["inside", "duplicate", "duplicate"] + [
        "inside"
    ] + ["duplicate"] * 4 + ["inside"]
    part, _ = population_check(inh, _placement([True] * n), regime=PRE, schedule=sched)
    assert (part["regular_inhabitants"], part["duplicates"], part["anonymised"]) == (9, 6, 8)


def test_what_the_list_writes_beside_a_name_tells_people_apart() -> None:
    # audit A9 F7-F10, one home each: a suffix after the given name (John Jr
    # and John), labels with an age, "4 months", "age four", twins A and B,
    # "Baby Girl A Smith", "Doe, Baby Boy A", roman numbers, two families'
    # "Minor Child 1", and two ages (4, 40; minors of 4 and 6) are two people
    # each (11 homes x 2 = 22); "Emma Smith, 4" is Emma Smith (1, and 1
    # duplicate). Inside 23; labels inside 2 x 8 = 16
    pairs = [
        ("Smith, John Jr", "Smith, John"),
        ("Smith, Minor Child 1, age 4", "Smith, Minor Child 2, age 6"),
        ("Minor child 1 (4 months)", "Minor child 2 (4 months)"),
        ("Minor child (twin A)", "Minor child (twin B)"),
        ("Baby Girl A Smith", "Baby Girl B Smith"),
        ("Doe, Baby Boy A", "Doe, Baby Boy B"),
        ("Smith, Minor Child II", "Smith, Minor Child III"),
        ("Emma Smith, age four", "Liam Smith, age four"),
        ("Emma Smith, 4", "Emma Smith"),
        ("Smith, Minor Child 1", "Jones, Minor Child 1"),
        ("Emma Smith (age 4)", "Emma Smith (age 40)"),
        ("Minor (age 4)", "Minor (age 6)"),
    ]
    names = [n for pair in pairs for n in pair]
    written = [f"{i + 1} Oak St" for i in range(len(pairs)) for _ in range(2)]
    inh, sched = _home_schedule(names, written)
    n = len(names)
    dup = [i for i, st in enumerate(sched["status"].tolist()) if st == "duplicate"]
    assert [names[i] for i in dup] == ["Emma Smith"]
    part, _ = population_check(inh, _placement([True] * n), regime=PRE, schedule=sched)
    assert (part["regular_inhabitants"], part["duplicates"], part["anonymised"]) == (23, 1, 16)


def test_surnames_addresses_and_sexes_written_on_the_list() -> None:
    # audit A10 F1-F3, one home each: "Mary Agee" and "John Agee" are two
    # Agees (Agee is no age); "Mary Smith, 45 Elm St", "John Smith, 45 Elm St"
    # two Smiths (the address copied in); "Mary Jones, Apt 2", "John Jones, Apt
    # 2" two; twins "Emma Brown, 4 y.o." and "Liam Brown, 4 y.o." two; "Smith,
    # Baby Boy" and "Smith, Baby Girl" two; "Infant Son of John Smith" and
    # "Infant Daughter of John Smith" two; "John Smith Jr 12" and "John Smith
    # 40" two (a son and his father); "Mary Clark 45" and "Mary Clark" one
    # (1 duplicate). Inside 7 x 2 + 1 = 15
    pairs = [
        ("Mary Agee", "John Agee"),
        ("Mary Smith, 45 Elm St", "John Smith, 45 Elm St"),
        ("Mary Jones, Apt 2", "John Jones, Apt 2"),
        ("Emma Brown, 4 y.o.", "Liam Brown, 4 y.o."),
        ("Smith, Baby Boy", "Smith, Baby Girl"),
        ("Infant Son of John Smith", "Infant Daughter of John Smith"),
        ("John Smith Jr 12", "John Smith 40"),
        ("Mary Clark 45", "Mary Clark"),
    ]
    names = [n for pair in pairs for n in pair]
    written = [f"{i + 1} Oak St" for i in range(len(pairs)) for _ in range(2)]
    inh, sched = _home_schedule(names, written)
    n = len(names)
    assert [names[i] for i, st in enumerate(sched["status"]) if st != "inside"] == ["Mary Clark"]
    part, _ = population_check(inh, _placement([True] * n), regime=PRE, schedule=sched)
    assert (part["regular_inhabitants"], part["duplicates"]) == (15, 1)


def test_surname_first_given_names_that_begin_like_units_are_names() -> None:
    # audit A11 F1, F2: "Smith, Steven" is Steven Smith (not "Smith" and a
    # suite "ven"), and so are Stephanie, Florence, Unity; ", 3rd" is a suffix
    # (the son of "John Smith"), not an address. One home each: 4 + 2 = 6 inside
    names = ["Smith, Steven", "Baker, Stephanie", "Lee, Florence", "Jones, Unity"]
    names += ["John Smith, 3rd", "John Smith"]
    written = ["1 Oak St", "2 Oak St", "3 Oak St", "4 Oak St", "5 Oak St", "5 Oak St"]
    _, sched = _home_schedule(names, written)
    assert sched["status"].tolist() == ["inside"] * 6


def test_labels_after_a_surname_of_several_words_are_labels() -> None:
    # audit A12 R1: "Van Alstyne, Minor Child 1", "…2", "…3" are three children
    # of the Van Alstynes (not a person named Van Alstyne); "De La Cruz, Twin A"
    # and "…B" two; "Emma Van Alstyne, minor" is Emma. Inside 3 + 2 + 1 = 6
    names = ["Van Alstyne, Minor Child 1", "Van Alstyne, Minor Child 2"]
    names += ["Van Alstyne, Minor Child 3", "De La Cruz, Twin A", "De La Cruz, Twin B"]
    names += ["Emma Van Alstyne, minor"]
    written = ["1 Oak St"] * 3 + ["2 Oak St"] * 2 + ["3 Oak St"]
    _, sched = _home_schedule(names, written)
    assert sched["status"].tolist() == ["inside"] * 6
    assert sched["anonymised"].tolist() == [True] * 5 + [False]


def test_a_name_written_both_ways_round_is_one_person() -> None:
    # "Abbott Aaron" and "Aaron Abbott" alone at 1 Oak St: either may be
    # surname first; one person (1 inside, 1 duplicate)
    inh = pd.DataFrame(
        {
            "name": ["Abbott Aaron", "Aaron Abbott"],
            "address": ["1 Oak St"] * 2,
            "town": ["K"] * 2,
            "source_row": [1, 2],
        }
    )
    sched = inhabitant_schedule(inh, _placement([True] * 2, addresses=["1 OAK ST"] * 2))
    assert sched["status"].tolist() == ["inside", "duplicate"]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Peter Van Buren", "Peter VanBuren"),
        ("Ana De La Cruz", "Ana DeLaCruz"),
        ("John Mc Donald", "John McDonald"),
        ("Kim Le Blanc", "Kim LeBlanc"),
        ("Van Buren, Peter", "Peter VanBuren"),
    ],
)
def test_a_surname_of_particles_is_one_family_name_spaced_or_joined(one: str, other: str) -> None:
    # audit A31 F4: the last word was the surname (BUREN against VANBUREN): one
    # person listed twice at one home counted as two (499 inhabitants as 500)
    keys = one_person_keys(pd.Series([one, other]), pd.Series(["P1", "P1"]), pd.Series(["", ""]))
    assert keys[0] == keys[1]


def test_a_middle_initial_o_is_no_particle() -> None:
    # "John O Smith" is John O. Smith, not a John Osmith; Ann O Smith is another
    keys = one_person_keys(
        pd.Series(["John O Smith", "John Smith", "John Osmith"]),
        pd.Series(["P1", "P1", "P1"]),
        pd.Series(["", "", ""]),
    )
    assert keys[0] == keys[1] != keys[2]


def test_the_2024_minimum_cites_the_amended_section() -> None:
    # audit A36 F2: "fewer than the 1500 required" cited § 2-200, whose text says 500
    inh, pl = _people(3)
    for regime, paragraph in ((PRE, "2-200"), (NEW, "2-200 (as amended 2024)")):
        _, defs = population_check(inh, pl, regime=regime)
        found = [d for d in defs if d["code"] == "population_below_minimum"]
        assert [d["paragraph"] for d in found] == [paragraph]


@pytest.mark.parametrize(("square_miles", "paragraph"), [(6.0, "2-200"), (1.0, "2-202.1.b(4)")])
def test_a_contradicted_claim_within_the_limit_cites_the_statement_of_it(
    square_miles: float, paragraph: str
) -> None:
    # audit A36 F2: over the limit the exception fails (§ 2-200); within it the
    # area passes, and what is wrong is the petition's statement of the manner
    # in which the area requirements are met (§ 2-202.1.b(4))
    _, defs = area_check(
        square_miles,
        regime=PRE,
        coterminous_with="Harlow Fire District",
        district_symmetric_difference_share=0.4,
        tolerance=0.001,
    )
    claim = [d for d in defs if d["code"] == "coterminous_claim_not_supported"]
    assert [d["paragraph"] for d in claim] == [paragraph]
