"""Apportionment, equalization, signers' credits and the owner test (§ 2-202.1.a(2)).

Every expected number is worked by hand in the comment beside it.
"""

from __future__ import annotations

import math
from datetime import date
from typing import Any

import numpy as np
import pandas as pd
import pytest
from test_owners import make_roll

from pipeline.errors import InputError
from pipeline.frames import APPORTIONMENT_OVERRIDE_COLUMNS, PAGE_COLUMNS, SIGNATURE_COLUMNS
from pipeline.people.matching import owner_matcher
from pipeline.people.owners import parse_owners
from pipeline.valuation import (
    SCHEDULE_COLUMNS,
    apportion_values,
    credit_signers,
    equalize,
    owner_test,
    roll_year_for,
    select_rate,
    taxable_basis_warnings,
)

T1, T2 = "104400", "104600"


def rec(pk: str, value: float, town: str = T1, **kw: Any) -> dict[str, Any]:
    swis = {T1: "104401", T2: "104689"}[town]
    return {
        "swis_code": swis,
        "print_key_code": pk,
        "municipality_code": town,
        "assessment_total": float(value),
        **kw,
    }


def key(pk: str, town: str = T1) -> str:
    return f"{ {T1: '104401', T2: '104689'}[town] }|{pk}"


def fractions(rows: dict[str, tuple[float, str]]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "fraction_in_territory": [f for f, _ in rows.values()],
            "fraction_source": pd.array([s for _, s in rows.values()], dtype="str"),
        },
        index=pd.Index(list(rows), name="parcel_key", dtype="str"),
    )


def overrides(rows: list[dict[str, Any]]) -> pd.DataFrame:
    out = []
    for i, r in enumerate(rows, start=1):
        swis, pk = r["parcel_key"].split("|")
        out.append(
            {
                "swis_code": swis,
                "print_key_code": pk,
                "fraction_in_territory": np.nan,
                "value_in_territory": np.nan,
                "note": "assessor",
                "source_row": i,
                **r,
            }
        )
    return pd.DataFrame(out, columns=list(APPORTIONMENT_OVERRIDE_COLUMNS))


# ----------------------------------------------------------------------------- apportionment


@pytest.fixture
def six() -> tuple[pd.DataFrame, pd.DataFrame]:
    roll = make_roll(
        [
            rec("A", 100_000),  # cut in half by the boundary
            rec("B", 80_000),  # a sliver overlap snapped to 0
            rec("C", 60_000),  # a sliver gap snapped to 1
            rec("D", 40_000),  # outside
            rec("E", 30_000),  # no polygon (e.g. special franchise)
            rec("F", 20_000),  # wholly inside
        ]
    )
    fr = fractions(
        {
            key("A"): (0.5, "geometry"),
            key("B"): (0.0, "sliver"),
            key("C"): (1.0, "sliver"),
            key("D"): (0.0, "geometry"),
            key("F"): (1.0, "geometry"),
        }
    )
    return roll, fr


def test_apportion_geometry_sliver_unmapped(six: tuple[pd.DataFrame, pd.DataFrame]) -> None:
    roll, fr = six
    s = apportion_values(roll, fr)
    assert list(s.columns) == list(SCHEDULE_COLUMNS)
    # D (outside, fraction 0 by geometry) is the only record left out
    assert s["print_key_code"].tolist() == ["A", "B", "C", "E", "F"]
    assert s["fraction_source"].tolist() == ["geometry", "sliver", "sliver", "unmapped", "geometry"]
    # A: 100,000 x 0.5 = 50,000; B: 80,000 x 0 = 0 (listed, as a sliver);
    # C: 60,000 x 1 = 60,000; E: no polygon, no override -> 0; F: 20,000 x 1
    assert s["apportioned_assessed"].tolist() == [50_000.0, 0.0, 60_000.0, 0.0, 20_000.0]
    assert s["fraction_in_territory"].tolist() == [0.5, 0.0, 1.0, 0.0, 1.0]
    assert s["assessed_value"].tolist() == [100_000.0, 80_000.0, 60_000.0, 30_000.0, 20_000.0]
    assert s["town_swis"].unique().tolist() == [T1]
    assert s["source_row"].tolist() == [1, 2, 3, 5, 6]


def test_overrides_beat_geometry(six: tuple[pd.DataFrame, pd.DataFrame]) -> None:
    roll, fr = six
    ov = overrides(
        [
            # fraction override: geometry said 0.5, the assessor says 0.25 -> 100,000 x 0.25
            {"parcel_key": key("A"), "fraction_in_territory": 0.25},
            # value override: 5,000 of F's 20,000 -> fraction 5,000 / 20,000 = 0.25
            {"parcel_key": key("F"), "value_in_territory": 5_000.0},
            # outside by geometry, but the assessor puts 10 % in: 40,000 x 0.1 = 4,000
            {"parcel_key": key("D"), "fraction_in_territory": 0.1},
            # the unmapped record placed by the assessor: 12,000 of 30,000 -> fraction 0.4
            {"parcel_key": key("E"), "value_in_territory": 12_000.0},
        ]
    )
    s = apportion_values(roll, fr, apportionment_overrides=ov).set_index("print_key_code")
    assert s.loc["A", "apportioned_assessed"] == 25_000.0
    assert s.loc["A", "fraction_source"] == "override"
    assert s.loc["F", "apportioned_assessed"] == 5_000.0
    assert s.loc["F", "fraction_in_territory"] == 0.25
    assert s.loc["D", "apportioned_assessed"] == pytest.approx(4_000.0)
    assert s.loc["E", "apportioned_assessed"] == 12_000.0
    assert s.loc["E", "fraction_in_territory"] == pytest.approx(0.4)
    assert s.loc["E", "fraction_source"] == "override"
    # untouched: B and C stay slivers
    assert s.loc[["B", "C"], "fraction_source"].tolist() == ["sliver", "sliver"]


@pytest.mark.parametrize(
    ("row", "column"),
    [
        (
            {"parcel_key": "104401|A", "fraction_in_territory": 0.5, "value_in_territory": 1.0},
            "value_in_territory",
        ),
        ({"parcel_key": "104401|A"}, "fraction_in_territory"),
        ({"parcel_key": "104401|A", "fraction_in_territory": 1.5}, "fraction_in_territory"),
        ({"parcel_key": "104401|ZZZ", "fraction_in_territory": 0.5}, "print_key_code"),
        # more than the parcel's whole value (100,000)
        ({"parcel_key": "104401|A", "value_in_territory": 100_001.0}, "value_in_territory"),
    ],
)
def test_bad_override_is_input_error(
    six: tuple[pd.DataFrame, pd.DataFrame], row: dict[str, Any], column: str
) -> None:
    roll, fr = six
    with pytest.raises(InputError) as err:
        apportion_values(roll, fr, apportionment_overrides=overrides([row]))
    assert err.value.column == column
    assert err.value.row == 1


def test_value_basis_town_taxable() -> None:
    # a wholly exempt church: assessed 500,000, taxable 0. Under the default basis it
    # stays in the denominator; under town_taxable_value it weighs 0.
    roll = make_roll(
        [rec("A", 500_000, town_taxable_value=0.0), rec("B", 100_000, town_taxable_value=80_000.0)]
    )
    fr = fractions({key("A"): (1.0, "geometry"), key("B"): (0.5, "geometry")})
    total = apportion_values(roll, fr)["apportioned_assessed"].tolist()
    assert total == [500_000.0, 50_000.0]
    taxable = apportion_values(roll, fr, value_basis="town_taxable_value")
    assert taxable["apportioned_assessed"].tolist() == [0.0, 40_000.0]  # 80,000 x 0.5


def test_a_value_override_is_a_part_of_the_assessed_value_under_every_basis() -> None:
    # § 2-202.1.a(2): the assessor apportions "the assessed value". Parcel B is
    # assessed 100,000 (taxable 80,000); the assessor puts 50,000 of it in the
    # territory, i.e. half the parcel. Default basis: 50,000, fraction 0.5.
    # Taxable basis: the same half of 80,000 = 40,000 (not 50,000 / 80,000 = 0.625).
    roll = make_roll([rec("B", 100_000, town_taxable_value=80_000.0)])
    fr = fractions({key("B"): (1.0, "geometry")})
    ov = overrides([{"parcel_key": key("B"), "value_in_territory": 50_000.0}])
    assessed = apportion_values(roll, fr, apportionment_overrides=ov)
    assert assessed["apportioned_assessed"].tolist() == [50_000.0]
    assert assessed["fraction_in_territory"].tolist() == [0.5]
    taxable = apportion_values(
        roll, fr, apportionment_overrides=ov, value_basis="town_taxable_value"
    )
    assert taxable["apportioned_assessed"].tolist() == [40_000.0]  # 80,000 x 50,000 / 100,000
    assert taxable["fraction_in_territory"].tolist() == [0.5]
    assert taxable["fraction_source"].tolist() == ["override"]
    # 90,000 of the assessed 100,000 is a valid apportionment under either basis:
    # 80,000 x 0.9 = 72,000 taxable (before, it was refused as above the taxable 80,000)
    ov90 = overrides([{"parcel_key": key("B"), "value_in_territory": 90_000.0}])
    taxable90 = apportion_values(
        roll, fr, apportionment_overrides=ov90, value_basis="town_taxable_value"
    )
    assert taxable90["apportioned_assessed"].tolist() == [72_000.0]
    # above the assessed value: refused under either basis, naming assessment_total
    ov_high = overrides([{"parcel_key": key("B"), "value_in_territory": 100_001.0}])
    for basis in ("assessment_total", "town_taxable_value"):
        with pytest.raises(InputError) as err:
            apportion_values(roll, fr, apportionment_overrides=ov_high, value_basis=basis)  # type: ignore[arg-type]
        assert err.value.column == "value_in_territory" and err.value.row == 1
        assert "assessment_total" in str(err.value)


def test_the_taxable_basis_warns_of_a_roll_error_and_of_a_part_all_exempt() -> None:
    # Audit A14 O1/O4. Town A: A (assessed 50,000, taxable 60,000: above the total,
    # a roll error) wholly inside. Town B: C (assessed 80,000, taxable 0: exempt)
    # half inside -> taxable 0 x 0.5 = 0 of 0, while its assessed part is
    # 80,000 x 0.5 = 40,000: the part cannot pass on this basis, and is told.
    roll = make_roll(
        [
            rec("A", 50_000, town_taxable_value=60_000.0),
            rec("C", 80_000, town=T2, town_taxable_value=0.0),
        ]
    )
    fr = fractions({key("A"): (1.0, "geometry"), key("C", T2): (0.5, "geometry")})
    schedule = apportion_values(roll, fr, value_basis="town_taxable_value")
    warned = taxable_basis_warnings(roll, schedule)
    assert len(warned) == 2
    assert warned[0].startswith("1 record(s) of the territory have a town taxable value above")
    assert "A in town 104400 (60,000.00 > 50,000.00)" in warned[0]
    assert warned[1].startswith("the part in town 104600 holds no town taxable value")
    assert "is 40,000.00, all exempt" in warned[1]
    # a roll without either fault warns of nothing
    fine = make_roll([rec("A", 50_000, town_taxable_value=50_000.0)])
    ok = apportion_values(
        fine, fractions({key("A"): (1.0, "geometry")}), value_basis="town_taxable_value"
    )
    assert taxable_basis_warnings(fine, ok) == []


def test_a_value_override_without_an_assessed_value_under_the_taxable_basis() -> None:
    # no assessment_total: no share of it can be taken for the taxable basis
    roll = make_roll([{**rec("B", 0), "assessment_total": np.nan, "town_taxable_value": 8.0}])
    fr = fractions({key("B"): (1.0, "geometry")})
    ov = overrides([{"parcel_key": key("B"), "value_in_territory": 5.0}])
    with pytest.raises(InputError) as err:
        apportion_values(roll, fr, apportionment_overrides=ov, value_basis="town_taxable_value")
    assert "give fraction_in_territory" in str(err.value) and err.value.row == 1


def test_missing_value_is_input_error() -> None:
    roll = make_roll([rec("A", 1.0)])  # town_taxable_value NaN
    with pytest.raises(InputError) as err:
        apportion_values(
            roll, fractions({key("A"): (1.0, "geometry")}), value_basis="town_taxable_value"
        )
    assert err.value.column == "town_taxable_value" and err.value.row == 1


# ----------------------------------------------------------------------------- rates, roll year


def test_only_the_roll_years_rate() -> None:
    rates = pd.DataFrame(
        {
            "swis_code": [T1, T1, T1, T2, T2],
            "rate_year": [2021, 2022, 2023, 2022, 2023],
            "equalization_rate": [55.0, 60.0, 62.0, np.nan, 100.0],
            "source_row": [1, 2, 3, 4, 5],
        }
    )
    assert select_rate(rates, swis=T1, roll_year=2022) == 60.0  # not 55 nor 62
    assert select_rate(rates, swis=T1, roll_year=2023) == 62.0
    assert select_rate(rates, swis=T1, roll_year=2020) is None  # no such year
    assert select_rate(rates, swis=T2, roll_year=2022) is None  # blank = not final
    twice = pd.concat([rates, rates.iloc[[1]].assign(equalization_rate=61.0, source_row=6)])
    with pytest.raises(InputError):
        select_rate(twice, swis=T1, roll_year=2022)


@pytest.mark.parametrize(
    ("filed", "completion", "year"),
    [
        (date(2023, 6, 1), (7, 1), 2022),
        (date(2023, 6, 30), (7, 1), 2022),
        (date(2023, 7, 1), (7, 1), 2023),  # completed that day
        (date(2023, 12, 31), (7, 1), 2023),
        (date(2024, 1, 1), (7, 1), 2023),
        (date(2023, 9, 14), (9, 15), 2022),
        (date(2023, 9, 15), (9, 15), 2023),
        # completed "02-29": in 2023 (no such day) the last day of February
        (date(2023, 2, 27), (2, 29), 2022),
        (date(2023, 2, 28), (2, 29), 2023),
        (date(2024, 2, 28), (2, 29), 2023),  # 2024 has the day: not yet
        (date(2024, 2, 29), (2, 29), 2024),
    ],
)
def test_roll_year_for(filed: date, completion: tuple[int, int], year: int) -> None:
    assert roll_year_for(filed, completion=completion) == year


def test_equalize() -> None:
    s = apportion_values(
        make_roll([rec("A", 30_000), rec("B", 50_000, town=T2)]),
        fractions({key("A"): (1.0, "geometry"), key("B", T2): (0.5, "geometry")}),
    )
    e = equalize(s, {T1: 60.0, T2: 125.0})
    # A: 30,000 / 0.60 = 50,000; B: 50,000 x 0.5 = 25,000 / 1.25 = 20,000
    assert e["apportioned_full"].tolist() == pytest.approx([50_000.0, 20_000.0])
    assert e["equalization_rate"].tolist() == [60.0, 125.0]
    with pytest.raises(InputError):
        equalize(s, {T1: 60.0})
    partial = equalize(s, {T1: 60.0}, missing="nan")
    assert math.isnan(partial["apportioned_full"].iloc[1])
    with pytest.raises(InputError):
        equalize(s, {T1: 0.0, T2: 100.0})


def test_at_a_rate_of_100_full_value_is_assessed_value_to_the_last_digit() -> None:
    # a parcel of the sample apportioned at 3,691.594879931362: x 100 / 100 gives
    # 3,691.5948799313614 (x 100 rounds first). At 100 % the full value is the
    # assessed value, exactly; at 70 % a whole-dollar 230,000 is 230,000 x 100 /
    # 70 = 328,571.42857142857 (one rounding)
    from pipeline.valuation import full_value

    a = 3_691.594879931362
    assert a * 100.0 / 100.0 != a  # what the plain formula does
    got = full_value(np.array([a, 230_000.0]), np.array([100.0, 70.0]))
    assert got[0] == a
    assert got[1] == 328_571.42857142857


# ----------------------------------------------------------------------------- credits


def signatures(lines: list[dict[str, Any]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    sig = pd.DataFrame(
        [
            {
                "town": "Kinderhook",
                "signed_on": "2023-05-01",
                "signing_for": "",
                "credited_assessed_value": np.nan,
                "source_row": i,
                **ln,
            }
            for i, ln in enumerate(lines, start=1)
        ],
        columns=list(SIGNATURE_COLUMNS),
    ).astype({"page": "int64", "line": "int64"})
    pages = pd.DataFrame(
        [
            {
                "page": p,
                "basis": "owners",
                "witness_name": "W",
                "witness_address": "1 Main St",
                "stated_signature_count": 1,
                "sworn_on": "",
                "source_row": p,
            }
            for p in sorted(set(sig["page"]))
        ],
        columns=list(PAGE_COLUMNS),
    )
    return sig, pages


def owned(
    pk: str, value: float, names: list[tuple[str, str]], situs: str, town: str = T1, **kw: Any
) -> dict[str, Any]:
    num, street, suff = situs.split(" ")
    d = rec(
        pk,
        value,
        town,
        parcel_address_number=num,
        parcel_address_street=street,
        parcel_address_suff=suff,
        **kw,
    )
    slots = ["primary_owner", "additional_owner_1", "additional_owner_2", "additional_owner_3"]
    for slot, (first, last) in zip(slots, names, strict=False):
        d[f"{slot}_first" if slot != "primary_owner" else "primary_owner_first_name"] = first
        d[f"{slot}_last_name"] = last
    return d


def test_co_owner_entity_and_two_parcels() -> None:
    roll = make_roll(
        [
            # P1: three co-owners; only Ann signs -> 1/3 of 90,000 = 30,000
            owned("P1", 90_000, [("Ann", "Lee"), ("Bob", "Lee"), ("Cy", "Lee")], "1 Oak St"),
            # P2: the LLC, credited whole through signing_for: 60,000 x 0.5 (half inside)
            owned("P2", 60_000, [("", "Example Holdings LLC")], "2 Oak St"),
            # P3 and P4: Dan Roe owns both (P4 mailed to P3's address) -> both credited
            owned("P3", 10_000, [("Dan", "Roe")], "3 Oak St"),
            owned(
                "P4",
                20_000,
                [("Dan", "Roe")],
                "4 Oak St",
                mailing_address_number="3",
                mailing_address_street="Oak",
                mailing_address_suff="Street",
            ),
            # P5: nobody signs
            owned("P5", 70_000, [("Eve", "Poe")], "5 Oak St"),
        ]
    )
    fr = fractions(
        {key(p): (1.0, "geometry") for p in ("P1", "P3", "P4", "P5")}
        | {key("P2"): (0.5, "geometry")}
    )
    schedule = equalize(apportion_values(roll, fr), {T1: 50.0})
    owners = parse_owners(roll)
    sig, pages = signatures(
        [
            {"page": 1, "line": 1, "name": "Ann Lee", "address": "1 Oak Street"},
            {
                "page": 1,
                "line": 2,
                "name": "Zed Ray",
                "address": "9 Elm St",
                "signing_for": "Example Holdings, L.L.C.",
            },
            {"page": 1, "line": 3, "name": "Dan Roe", "address": "3 Oak St"},
            {"page": 2, "line": 1, "name": "Dan Roe", "address": "4 Oak St"},  # twice
        ]
    )
    matches = owner_matcher(sig, pages, owners, roll)
    sched, credits = credit_signers(schedule, owners, matches)
    s = sched.set_index("print_key_code")
    assert s["owner_count"].tolist() == [3, 1, 1, 1, 1]
    assert s.loc["P1", "owners"] == "ANN LEE; BOB LEE; CY LEE"
    assert s.loc["P1", "signing_owners"] == "ANN LEE"
    # 90,000 / 3 = 30,000 assessed; full at rate 50 %: 30,000 / 0.5 = 60,000
    assert s.loc["P1", "signer_credit_assessed"] == pytest.approx(30_000.0)
    assert s.loc["P1", "signer_credit_full"] == pytest.approx(60_000.0)
    # 60,000 x 0.5 = 30,000 apportioned, one owner (the LLC) -> all of it
    assert s.loc["P2", "signer_credit_assessed"] == 30_000.0
    assert s.loc["P2", "signing_owners"] == "EXAMPLE HOLDINGS LLC"
    assert s.loc[["P3", "P4", "P5"], "signer_credit_assessed"].tolist() == [10_000.0, 20_000.0, 0.0]
    assert s.loc["P5", "signing_owners"] == ""

    assert credits["status"].tolist() == ["counted", "counted", "counted", "duplicate"]
    # line credits: Ann 30,000; the LLC 30,000; Dan 10,000 + 20,000 = 30,000; duplicate 0
    assert credits["credit_assessed"].tolist() == pytest.approx([30_000.0, 30_000.0, 30_000.0, 0.0])
    assert credits["credit_full"].tolist() == pytest.approx([60_000.0, 60_000.0, 60_000.0, 0.0])
    assert credits["matched_to"].tolist() == [
        "104401:P1",
        "104401:P2",
        "104401:P3;104401:P4",
        "104401:P3;104401:P4",  # shown on the duplicate, credited once
    ]

    # territory total: 90,000 + 30,000 + 10,000 + 20,000 + 70,000 = 220,000
    # signers: 30,000 + 30,000 + 10,000 + 20,000 = 90,000 -> 90/220 = 40.909... % -> fails
    t = owner_test(sched, towns=[T1])
    assert t["value_basis"] == "assessed"
    assert t["total_value"] == 220_000.0
    assert t["signer_value"] == pytest.approx(90_000.0)
    assert t["percent"] == pytest.approx(100 * 90_000 / 220_000)
    assert t["passes"] is False
    assert [d["code"] for d in t["deficiencies"]] == ["owner_percent_not_met"]
    assert t["deficiencies"][0]["paragraph"] == "2-202.1.a(2)"


def test_two_co_owners_signing_add_up() -> None:
    roll = make_roll(
        [owned("P1", 90_000, [("Ann", "Lee"), ("Bob", "Lee"), ("Cy", "Lee")], "1 Oak St")]
    )
    owners = parse_owners(roll)
    schedule = apportion_values(roll, fractions({key("P1"): (1.0, "geometry")}))
    sig, pages = signatures(
        [
            {"page": 1, "line": 1, "name": "Ann Lee", "address": "1 Oak St"},
            {"page": 1, "line": 2, "name": "Cy Lee", "address": "1 Oak St"},
        ]
    )
    sched, credits = credit_signers(schedule, owners, owner_matcher(sig, pages, owners, roll))
    # 2 of 3 owners: 90,000 x 2/3 = 60,000, 30,000 per line
    assert sched["signer_credit_assessed"].iloc[0] == pytest.approx(60_000.0)
    assert sched["signing_owners"].iloc[0] == "ANN LEE; CY LEE"
    assert credits["credit_assessed"].tolist() == pytest.approx([30_000.0, 30_000.0])
    # not equalized: full values unknown
    assert math.isnan(sched["signer_credit_full"].iloc[0])


def test_owner_outside_the_territory() -> None:
    roll = make_roll(
        [
            owned("P1", 10_000, [("Ann", "Lee")], "1 Oak St"),
            owned("P2", 10_000, [("Bob", "Poe")], "2 Oak St"),
        ]
    )
    owners = parse_owners(roll)
    schedule = apportion_values(
        roll, fractions({key("P1"): (1.0, "geometry"), key("P2"): (0.0, "geometry")})
    )
    sig, pages = signatures([{"page": 1, "line": 1, "name": "Bob Poe", "address": "2 Oak St"}])
    _, credits = credit_signers(schedule, owners, owner_matcher(sig, pages, owners, roll))
    assert credits["status"].tolist() == ["outside_territory"]
    assert credits["credit_assessed"].tolist() == [0.0]


def test_a_line_that_earns_nothing_says_why() -> None:
    # audit A7 O2, O3. P1 (Ann Lee) inside; P2 (Bob Poe) a record without a
    # polygon or override (unmapped: may be in the territory, credited 0 until
    # apportioned); P3 (Cy Dee) at fraction 0. Zed Zane owns nothing. Each line's
    # note tells why it earns nothing: Ann 10,000, the others 0.
    roll = make_roll(
        [
            owned("P1", 10_000, [("Ann", "Lee")], "1 Oak St"),
            owned("P2", 20_000, [("Bob", "Poe")], "2 Oak St"),
            owned("P3", 30_000, [("Cy", "Dee")], "3 Oak St"),
        ]
    )
    owners = parse_owners(roll)
    schedule = apportion_values(
        roll, fractions({key("P1"): (1.0, "geometry"), key("P3"): (0.0, "geometry")})
    )
    sig, pages = signatures(
        [
            {"page": 1, "line": 1, "name": "Ann Lee", "address": "1 Oak St"},
            {"page": 1, "line": 2, "name": "Bob Poe", "address": "2 Oak St"},
            {"page": 1, "line": 3, "name": "Cy Dee", "address": "3 Oak St"},
            {"page": 1, "line": 4, "name": "Zed Zane", "address": "4 Oak St"},
        ]
    )
    _, credits = credit_signers(schedule, owners, owner_matcher(sig, pages, owners, roll))
    assert credits["status"].tolist() == ["counted", "counted", "outside_territory", "not_owner"]
    assert credits["credit_assessed"].tolist() == [10_000.0, 0.0, 0.0, 0.0]
    assert credits["note"].tolist() == [
        "",
        "record 104401:P2 has no polygon and no apportionment override: nothing of it is "
        "credited until the assessor apportions it (unapportioned_records, § 2-202.1.a(2))",
        "none of the signer's records lies in the territory (fraction 0)",
        "no owner of the roll matches this name, at this address or elsewhere (a name that "
        "differs in its middle initial or its suffix is another person's)",
    ]


# ----------------------------------------------------------------------------- the owner test


def sched(
    rows: list[tuple[str, str, float, float, str]], rates: dict[str, float] | None = None
) -> pd.DataFrame:
    """(town, pk, apportioned assessed, signer credit assessed, source) rows."""
    df = pd.DataFrame(
        {
            "parcel_key": [f"{t}|{pk}" for t, pk, *_ in rows],
            "swis_code": [t for t, *_ in rows],
            "print_key_code": [pk for _, pk, *_ in rows],
            "town_swis": [t for t, *_ in rows],
            "assessed_value": [a for _, _, a, _, _ in rows],
            "fraction_source": [s for *_, s in rows],
            "apportioned_assessed": [a for _, _, a, _, _ in rows],
            "signer_credit_assessed": [c for _, _, _, c, _ in rows],
        }
    )
    if rates is not None:
        df["equalization_rate"] = df["town_swis"].map(rates)
        df["apportioned_full"] = df["apportioned_assessed"] / (df["equalization_rate"] / 100)
        df["signer_credit_full"] = df["signer_credit_assessed"] / (df["equalization_rate"] / 100)
    return df


@pytest.mark.parametrize(
    ("signer", "passes"),
    [
        (100_000.0, False),  # 100,000 / 200,000 = exactly 50 % -> not "more than"
        (100_000.2, True),  # 100,000.2 / 200,000 = 50.0001 %
        (99_999.8, False),  # 49.9999 %
    ],
)
def test_exactly_fifty_fails(signer: float, passes: bool) -> None:
    s = sched([(T1, "A", 150_000.0, signer, "geometry"), (T1, "B", 50_000.0, 0.0, "geometry")])
    t = owner_test(s, towns=[T1])
    assert t["passes"] is passes
    assert t["percent"] == pytest.approx(100 * signer / 200_000, rel=1e-15)
    assert t["parts"][0]["passes"] is passes
    assert ("owner_percent_not_met" in [d["code"] for d in t["deficiencies"]]) is not passes


def test_fifty_percent_by_thirds_still_fails() -> None:
    # 3 parcels of 100,000/3 each, signers own 1.5 of them in float arithmetic:
    # exactly half in exact arithmetic, whatever the rounding of the thirds
    third = 100_000 / 3
    s = sched(
        [
            (T1, "A", third, third, "geometry"),
            (T1, "B", third, third / 2, "geometry"),
            (T1, "C", third, 0.0, "geometry"),
        ]
    )
    t = owner_test(s, towns=[T1])
    assert t["passes"] is False
    # the float sums may leave the quotient a few units in the last place off
    # 50, but the share the verdict reads as one half is 50 exactly, and prints so
    assert t["percent"] == 50.0
    (d,) = t["deficiencies"]
    assert "signers own 50.0000 % of the assessed valuation" in d["message"]


@pytest.mark.parametrize(
    ("signer", "total", "passes", "shown"),
    [
        # audit A24 F2, at the edge of the pass tolerance (one part in 10**12):
        # 2S - T = 3,059,281,448.967781 - 3,059,281,448.9647217 = 0.0030593 >
        # 1e-12 x T = 0.0030593 (by 6e-9): passes, so it must not print as the
        # 50.0000 of a tie (it printed "50.0000" beside "passes")
        (1_529_640_724.4838905, 3_059_281_448.9647217, True, "50.0000000000"),
        # 2S - T = 5,050,876,997.6129388 - 5,050,876,997.607888 = 0.0050508 <=
        # 1e-12 x T = 0.0050509: one half, fails, and prints as one half (it
        # printed "50.0000000001" beside the failure)
        (2_525_438_498.8064694, 5_050_876_997.607888, False, "50.0000 "),
    ],
)
def test_a_share_at_the_pass_tolerance_prints_as_its_verdict(
    signer: float, total: float, passes: bool, shown: str
) -> None:
    from pipeline.tools.numbers import percent_text

    s = sched([(T1, "A", signer, signer, "geometry"), (T1, "B", total - signer, 0.0, "geometry")])
    t = owner_test(s, towns=[T1])
    assert t["passes"] is passes
    text = percent_text(t["percent"]) + " "
    assert text.startswith(shown)
    if passes:
        assert t["percent"] > 50.0 and float(text) != 50.0
    else:
        assert t["percent"] == 50.0
        (d,) = t["deficiencies"]
        assert "signers own 50.0000 % of" in d["message"]


def test_two_towns_overall_passes_one_part_fails() -> None:
    # Town 1 (rate 50 %): assessed 100,000 -> full 100,000 / 0.5 = 200,000; signers own all
    #   -> part 1: 200,000 / 200,000 = 100 %
    # Town 2 (rate 100 %): assessed 60,000 + 40,000 = 100,000 -> full 100,000;
    #   signers own the 40,000 parcel -> part 2: 40,000 / 100,000 = 40 %  (fails)
    # Overall on full values: (200,000 + 40,000) / (200,000 + 100,000) = 240/300 = 80 %
    # (on assessed values it would be 140,000 / 200,000 = 70 %: not the measure here)
    s = sched(
        [
            (T1, "A", 100_000.0, 100_000.0, "geometry"),
            (T2, "B", 60_000.0, 0.0, "geometry"),
            (T2, "C", 40_000.0, 40_000.0, "geometry"),
        ],
        rates={T1: 50.0, T2: 100.0},
    )
    t = owner_test(s, towns=[T2, T1], parts_area={T1: 0.7, T2: 0.3})
    assert t["applies"] is True
    assert t["value_basis"] == "full"
    assert t["total_value"] == pytest.approx(300_000.0)
    assert t["signer_value"] == pytest.approx(240_000.0)
    assert t["percent"] == pytest.approx(80.0)
    assert t["passes"] is False  # a part fails
    p1, p2 = t["parts"]  # sorted by swis
    assert (p1["swis"], p2["swis"]) == (T1, T2)
    assert p1 == {
        "swis": T1,
        "equalization_rate": 50.0,
        "total_assessed": 100_000.0,
        "signer_assessed": 100_000.0,
        "total_full": 200_000.0,
        "signer_full": 200_000.0,
        "percent": 100.0,
        "passes": True,
        "square_miles": 0.7,
    }
    assert p2["percent"] == pytest.approx(40.0) and p2["passes"] is False
    codes = [(d["code"], d["where"]) for d in t["deficiencies"]]
    assert codes == [("owner_part_percent_not_met", f"town {T2}")]


def test_unapportioned_records_reported_once() -> None:
    s = sched(
        [
            (T1, "A", 100_000.0, 100_000.0, "geometry"),
            (T1, "SF-1", 0.0, 0.0, "unmapped"),
            (T1, "UT-2", 0.0, 0.0, "unmapped"),
            (T1, "OV-3", 5.0, 0.0, "override"),  # placed by the assessor: not reported
        ]
    )
    t = owner_test(s, towns=[T1])
    assert t["passes"] is True  # 100,000 / 100,005
    (d,) = t["deficiencies"]
    assert d["code"] == "unapportioned_records"
    assert d["paragraph"] == "2-202.1.a(2)"
    assert d["where"] == f"{T1}:SF-1;{T1}:UT-2"
    assert "(assessed value 0.00 in all)" in d["message"]
    # under the taxable basis the values are taxable ones, and named so (audit G7)
    (d,) = owner_test(s, towns=[T1], value_basis="town_taxable_value")["deficiencies"]
    assert "(town taxable value 0.00 in all)" in d["message"]


def test_unapportioned_value_across_towns_is_told_per_town() -> None:
    # two unmapped records in town 1 (assessed 6,000 + 700 = 6,700 at rate 50) and
    # one in town 2 (2,000 at rate 100): assessed values of different rates do not
    # add up, so the deficiency tells each town's sum, not 8,700 "in all"
    rows = [
        (T1, "A", 100_000.0, 100_000.0, "geometry"),
        (T2, "B", 50_000.0, 50_000.0, "geometry"),
        (T2, "SF-3", 2_000.0, 0.0, "unmapped"),
        (T1, "UT-10", 700.0, 0.0, "unmapped"),
        (T1, "UT-9", 6_000.0, 0.0, "unmapped"),
    ]
    s = sched(rows, rates={T1: 50.0, T2: 100.0})
    for col in ("apportioned_assessed", "apportioned_full"):  # counted as 0
        s.loc[s["fraction_source"] == "unmapped", col] = 0.0
    t = owner_test(s, towns=[T1, T2], parts_area={T1: 0.5, T2: 0.5})
    (d,) = t["deficiencies"]
    assert d["code"] == "unapportioned_records"
    assert f"assessed value 6700.00 in town {T1}, 2000.00 in town {T2}" in d["message"]
    assert "in all" not in d["message"]
    # listed as people read them, whatever the roll's order: 9 before 10
    assert d["where"] == f"{T1}:UT-9;{T1}:UT-10;{T2}:SF-3"


def test_unapportioned_record_without_a_value_is_told_not_summed_as_nan() -> None:
    # SF-1 6,000 and UT-2 with no value under the basis: 6,000.00 and one record
    # without a value (not "nan")
    s = sched(
        [
            (T1, "A", 100_000.0, 100_000.0, "geometry"),
            (T1, "SF-1", 6_000.0, 0.0, "unmapped"),
            (T1, "UT-2", float("nan"), 0.0, "unmapped"),
        ]
    )
    s.loc[s["fraction_source"] == "unmapped", "apportioned_assessed"] = 0.0
    (d,) = owner_test(s, towns=[T1])["deficiencies"]
    assert "assessed value 6000.00 (and 1 record(s) without a value) in all" in d["message"]
    assert "nan" not in d["message"]
    # none with a value: unknown, not 0.00
    s.loc[s["print_key_code"] == "SF-1", "assessed_value"] = float("nan")
    (d,) = owner_test(s, towns=[T1])["deficiencies"]
    assert "assessed value unknown (2 record(s) without a value) in all" in d["message"]


def test_empty_territory_value_fails_without_crash() -> None:
    s = sched([(T1, "A", 0.0, 0.0, "geometry")])
    t = owner_test(s, towns=[T1])
    assert t["percent"] is None and t["passes"] is False


def test_a_blank_value_is_an_error_only_where_it_counts() -> None:
    # B (a sliver snapped to 0) and E (no polygon, no override) have no
    # assessment_total: none of their value counts (0 whatever it is), so the
    # schedule lists them at 0; A (half inside) with no value is bad input
    roll = make_roll([rec("A", 100_000), rec("B", np.nan), rec("E", np.nan), rec("F", 20_000)])
    fr = fractions(
        {key("A"): (0.5, "geometry"), key("B"): (0.0, "sliver"), key("F"): (1.0, "geometry")}
    )
    s = apportion_values(roll, fr).set_index("print_key_code")
    assert s["apportioned_assessed"].to_dict() == {"A": 50_000.0, "B": 0.0, "E": 0.0, "F": 20_000.0}
    roll = make_roll([rec("A", np.nan), rec("F", 20_000)])
    with pytest.raises(InputError, match="no assessment_total for parcel A"):
        apportion_values(roll, fr)


def test_a_part_the_signers_own_outright_is_100_percent() -> None:
    # audit A27 F1: signers' full value = the part's full value =
    # 372,892.4895992993; 100 x S / T is 100.00000000000001 in binary (100 x S
    # rounds up first), and was sworn so. S = T: 100 exactly
    v = 372_892.4895992993
    assert 100.0 * v / v != 100.0
    t = owner_test(sched([(T1, "A", v, v, "geometry")]), towns=[T1])
    assert t["percent"] == 100.0 and t["parts"][0]["percent"] == 100.0
    assert t["passes"] is True
