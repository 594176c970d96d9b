"""Placing addresses on parcels by exact normalised situs address."""

from __future__ import annotations

import datetime as dt
import time

import numpy as np
import pandas as pd
import pytest

from pipeline.people.placement import place_addresses, situs_addresses, town_codes


def _roll() -> pd.DataFrame:
    # four parcels: A (12 Oak Street), B (14 Oak Street, straddles the boundary),
    # C and D (two records with the same situs 20 Elm Ave: ambiguous),
    # E (no situs address at all)
    return pd.DataFrame(
        {
            "parcel_key": ["104489|1", "104489|2", "104489|3", "104489|4", "104489|5"],
            "parcel_address_number": ["12", "14", "20", "20", ""],
            "parcel_address_street": ["Oak", "OAK", "Elm", "Elm", ""],
            "parcel_address_suff": ["Street", "St", "Ave", "Avenue", ""],
        }
    )


def _fractions() -> pd.Series:
    # A wholly inside; B exactly half inside; C/D inside; parcel 5 not listed
    return pd.Series({"104489|1": 1.0, "104489|2": 0.5, "104489|3": 1.0, "104489|4": 1.0})


def test_situs_addresses_normalised() -> None:
    s = situs_addresses(_roll())
    assert list(s.columns) == ["parcel_key", "address_norm", "town_swis"]
    assert s["address_norm"].tolist() == ["12 OAK ST", "14 OAK ST", "20 ELM AVE", "20 ELM AVE", ""]


def test_apartment_units_share_the_parcel() -> None:
    addresses = pd.Series(["12 Oak Street Apt 3", "12 OAK ST #2", "12 Oak St Unit B", "12 oak st."])
    p = place_addresses(addresses, situs=situs_addresses(_roll()), fractions=_fractions())
    assert p["parcel_key"].tolist() == ["104489|1"] * 4
    assert p["placed"].all()
    assert p["inside"].all()


def test_fraction_exactly_threshold_is_inside() -> None:
    # parcel 2 has fraction 0.5 = threshold 0.5 -> inside (0.5 >= 0.5)
    p = place_addresses(
        pd.Series(["14 Oak Street"]), situs=situs_addresses(_roll()), fractions=_fractions()
    )
    assert p.loc[0, "fraction"] == 0.5
    assert bool(p.loc[0, "inside"])
    # with a threshold a hair above, 0.5 < 0.5000001 -> outside, still placed
    p2 = place_addresses(
        pd.Series(["14 Oak Street"]),
        situs=situs_addresses(_roll()),
        fractions=_fractions(),
        threshold=0.5000001,
    )
    assert bool(p2.loc[0, "placed"]) and not bool(p2.loc[0, "inside"])


def test_unplaced_reasons_and_outside() -> None:
    addresses = pd.Series(
        ["20 Elm Ave", "99 Nowhere Rd", "", None, "12 Oak St"], index=[10, 11, 12, 13, 14]
    )
    fractions = _fractions().drop("104489|1")  # parcel 1 not in the territory at all
    p = place_addresses(addresses, situs=situs_addresses(_roll()), fractions=fractions)
    assert p.index.tolist() == [10, 11, 12, 13, 14]
    assert p["reason"].tolist() == ["ambiguous", "no_match", "no_address", "no_address", ""]
    assert p["candidates"].tolist() == [2, 0, 0, 0, 1]
    assert p["placed"].tolist() == [False, False, False, False, True]
    assert p["parcel_key"].tolist() == ["", "", "", "", "104489|1"]
    # placed on a parcel that has no fraction -> fraction 0, outside
    assert p.loc[14, "fraction"] == 0.0
    assert not p["inside"].any()
    assert p.loc[[10, 11, 12, 13], "fraction"].isna().all()


def test_no_guessing_on_near_misses() -> None:
    # 12A is not 12, Oak Rd is not Oak St: exact only
    p = place_addresses(
        pd.Series(["12A Oak St", "12 Oak Rd", "13 Oak St"]),
        situs=situs_addresses(_roll()),
        fractions=_fractions(),
    )
    assert not p["placed"].any()


def test_same_parcel_two_records_not_ambiguous() -> None:
    # a parcel with two roll records and one situs is one candidate, not two
    roll = pd.concat([_roll(), _roll().iloc[[0]]], ignore_index=True)
    p = place_addresses(
        pd.Series(["12 Oak St"]), situs=situs_addresses(roll), fractions=_fractions()
    )
    assert bool(p.loc[0, "placed"])
    assert p.loc[0, "candidates"] == 1


def test_duplicate_fractions_rejected() -> None:
    fr = pd.concat([_fractions(), pd.Series({"104489|1": 0.2})])
    with pytest.raises(ValueError, match="more than once"):
        place_addresses(pd.Series(["12 Oak St"]), situs=situs_addresses(_roll()), fractions=fr)


def test_vectorised_speed() -> None:
    # 150,000 addresses against 50,000 parcels (about 7,500 distinct voter
    # addresses; units repeat): the lookup itself must be fast
    n = 50_000
    roll = pd.DataFrame(
        {
            "parcel_key": [f"104489|{i}" for i in range(n)],
            "parcel_address_number": [str(i % 100 + 1) for i in range(n)],
            "parcel_address_street": [f"Street{i // 100}" for i in range(n)],
            "parcel_address_suff": ["Road"] * n,
        }
    )
    situs = situs_addresses(roll)
    rng = np.random.default_rng(1)
    picks = rng.integers(0, 7_500, 150_000)
    addresses = pd.Series([f"{i % 100 + 1} Street{i // 100} Rd" for i in picks])
    fractions = pd.Series(1.0, index=roll["parcel_key"])
    t0 = time.perf_counter()
    p = place_addresses(addresses, situs=situs, fractions=fractions)
    elapsed = time.perf_counter() - t0
    assert p["inside"].all()
    assert elapsed < 5.0


def test_address_columns_equal_the_scalar_key() -> None:
    # the vectorised form reads each distinct street once; every row must give the
    # key of normalize_address: leading zeros dropped ("0012" -> "12", "000" -> "0"),
    # a number with a letter or no number goes the long way, "Route" -> "RTE"
    from pipeline.people.names import normalize_address, normalize_address_columns

    n = ["12", "0012", "000", "12A", "", " 7 ", "3", "5", "12"]
    s = ["Main", "Main", "Oak", "Main", "Main", "North", "", "1/2 Elm", "Route 9"]
    x = ["Street", "St", "Ave", "St", "", "", "", "St", ""]
    index = pd.Index([10, 11, 12, 13, 14, 15, 16, 17, 18])
    got = normalize_address_columns(
        pd.Series(n, index=index, dtype="str"),
        pd.Series(s, index=index, dtype="str"),
        pd.Series(x, index=index, dtype="str"),
    )
    assert got.index.equals(index)
    assert got.tolist() == [
        "12 MAIN ST",
        "12 MAIN ST",
        "0 OAK AVE",
        "12A MAIN ST",
        "MAIN",
        "7 NORTH",
        "3",
        "5 1/2 ELM ST",
        "12 RTE 9",
    ]
    assert got.tolist() == [normalize_address(a, b, c) for a, b, c in zip(n, s, x, strict=True)]


def test_the_town_decides_between_one_address_in_two_towns() -> None:
    # "1 Main St" in town A (104400) and in town B (104600): ambiguous by the
    # address alone; a person of Harlow (A) is placed on A's parcel, one of
    # "Town of Brinton" on B's; a postal city naming no town stays unplaced
    roll = pd.DataFrame(
        {
            "parcel_key": ["104489|1", "104689|1"],
            "municipality_code": ["104400", "104600"],
            "parcel_address_number": ["1", "1"],
            "parcel_address_street": ["Main", "Main"],
            "parcel_address_suff": ["St", "St"],
        }
    )
    towns = town_codes(
        pd.Series(["Harlow", "Town of Brinton", "Valatie", ""]),
        {"104400": "Harlow", "104600": "Brinton"},
    )
    assert towns.tolist() == ["104400", "104600", "", ""]
    # the state and ZIP code written after the town are no part of its name
    written = pd.Series(["Harlow, NY", "HARLOW NY 12106", "Brinton, New York", "NY"])
    assert town_codes(written, {"104400": "Harlow", "104600": "Brinton"}).tolist() == [
        "104400",
        "104400",
        "104600",
        "",
    ]
    got = place_addresses(
        pd.Series(["1 Main Street"] * 4),
        situs=situs_addresses(roll),
        fractions=pd.Series({"104489|1": 1.0, "104689|1": 0.0}),
        towns=towns,
    )
    assert got["parcel_key"].tolist() == ["104489|1", "104689|1", "", ""]
    assert got["inside"].tolist() == [True, False, False, False]
    assert got["reason"].tolist() == ["", "", "ambiguous", "ambiguous"]


def test_unplaced_voters_listed_with_their_reason() -> None:
    from pipeline.config import DEFAULT_VOTER_STATUSES
    from pipeline.evaluate import _unplaced_voters

    # voter 0 at 12 Oak St (placed), 1 at 20 Elm Ave (two parcels: ambiguous),
    # 2 at 99 Nowhere Rd (no parcel): voters 1 and 2 are listed, no birth date.
    # Voter 3 (purged) and 4 (pre-registered, 17) at 99 Nowhere Rd too count
    # nowhere under the default statuses: not listed (personal data kept out)
    voters = pd.DataFrame(
        {
            "SBOEID": ["NY1", "NY2", "NY3", "NY4", "NY5"],
            "LASTNAME": ["LEE", "RAY", "FOX", "OX", "DOE"],
            "FIRSTNAME": ["ANN", "BOB", "CY", "DI", "ED"],
            "STATUS": ["A", "A", "I", "P", "17"],
            "RADDNUMBER": ["12", "20", "99", "99", "99"],
            "RSTREETNAME": ["OAK ST", "ELM AVE", "NOWHERE RD", "NOWHERE RD", "NOWHERE RD"],
            "DOB": ["19600101", "19700101", "19800101", "19900101", "20080101"],
        }
    )
    from pipeline.people.voters import voter_addresses

    place = place_addresses(
        voter_addresses(voters), situs=situs_addresses(_roll()), fractions=_fractions()
    )
    listed = _unplaced_voters(voters, place, statuses=DEFAULT_VOTER_STATUSES)
    assert listed is not None
    assert listed["SBOEID"].tolist() == ["NY2", "NY3"]
    assert listed["reason"].tolist() == ["ambiguous", "no_match"]
    assert listed["residence"].tolist() == ["20 ELM AVE", "99 NOWHERE RD"]
    assert "DOB" not in listed.columns
    # a policy counting purged voters lists them too
    listed = _unplaced_voters(voters, place, statuses=(*DEFAULT_VOTER_STATUSES, "P"))
    assert listed is not None and listed["SBOEID"].tolist() == ["NY2", "NY3", "NY4"]
    # F4, as of the filing date 2023-06-01: BOB (NY2) registered 2023-07-15 was
    # no voter then (not listed); DI (NY4, P) purged 2023-09-01 was (listed)
    dated = voters.assign(
        REGDATE=["", "2023-07-15", "", "", ""], PURGE_DATE=["", "", "", "2023-09-01", ""]
    )
    listed = _unplaced_voters(
        dated, place, statuses=DEFAULT_VOTER_STATUSES, filed_on=dt.date(2023, 6, 1)
    )
    assert listed is not None and listed["SBOEID"].tolist() == ["NY3", "NY4"]
    assert listed["STATUS"].tolist() == ["I", "P"]  # the status as the file writes it
    # and the status counted: DI was active on the filing date (audit G7)
    assert listed["status_at_filing"].tolist() == ["I", "A"]


def test_a_person_at_a_record_without_polygon_cannot_be_placed() -> None:
    # rules § 3: a place that cannot be told is listed for review, not guessed.
    # 4 Main Rd is a roll record with no polygon and no override: whether it
    # lies in the territory is unknown, so its resident is unplaced (not
    # "outside"); 1 Main Rd has a polygon and stays placed.
    from pipeline.people.placement import REASON_NO_POLYGON, unplace_unmapped

    placement = pd.DataFrame(
        {
            "parcel_key": ["104489|1", "104489|4", ""],
            "placed": [True, True, False],
            "fraction": [0.0, 0.0, np.nan],
            "inside": [False, False, False],
            "reason": ["", "", "no_match"],
            "candidates": [1, 1, 0],
            "address_norm": ["1 MAIN RD", "4 MAIN RD", "9 NOWHERE"],
        }
    )
    out = unplace_unmapped(placement, pd.Index(["104489|1"]))
    assert out["placed"].tolist() == [True, False, False]
    assert out["reason"].tolist() == ["", REASON_NO_POLYGON, "no_match"]
    assert out["parcel_key"].tolist() == ["104489|1", "", ""]


def test_half_numbers_points_unit_words_and_no_number_are_never_guessed() -> None:
    # parcels: 7 Main St, 7 1/2 Main St, 75 Main St, 12 Ste Marie Rd and a lot
    # on Schoolhouse Rd with no number. "7½" is 7 1/2 (not 7); "7.5" is neither
    # 75 nor 7 1/2 (no match); "12 Ste Anne Rd" keeps its street ("Ste" first is
    # a name, not a suite): no match; "Schoolhouse Rd" says no house: not placed
    roll = pd.DataFrame(
        {
            "parcel_key": [f"104489|{i}" for i in range(1, 6)],
            "parcel_address_number": ["7", "7 1/2", "75", "12", ""],
            "parcel_address_street": ["Main", "Main", "Main", "Ste Marie", "Schoolhouse"],
            "parcel_address_suff": ["St", "St", "St", "Rd", "Rd"],
        }
    )
    fractions = pd.Series({f"104489|{i}": 1.0 for i in range(1, 6)})
    addresses = pd.Series(
        [
            "7½ Main St",
            "7 ½ MAIN ST",
            "7.5 Main St",
            "12 Ste Anne Rd",
            "12 Ste Marie Road Ste 4",
            "Schoolhouse Rd",
        ]
    )
    p = place_addresses(addresses, situs=situs_addresses(roll), fractions=fractions)
    assert p["parcel_key"].tolist() == ["104489|2", "104489|2", "", "", "104489|4", ""]
    assert p["reason"].tolist() == ["", "", "no_match", "no_match", "", "no_number"]


@pytest.mark.parametrize(
    ("written", "key", "unit"),
    [
        ("6 Main St, Apt 3", "6 MAIN ST", "3"),  # the unit after a comma
        ("6 Main St, Apt. 3, Harlow", "6 MAIN ST", "3"),
        ("5 Main St Lot 1", "5 MAIN ST", "1"),  # a mobile-home park: one parcel
        ("5 Main St Trlr 3", "5 MAIN ST", "3"),
        ("5 Main St Bldg A Apt 1", "5 MAIN ST", "A 1"),
        ("5 Main St Upper", "5 MAIN ST", "UPPR"),  # the two flats of a house
        ("5 Main St Lower", "5 MAIN ST", "LOWR"),
        # before the street's type these words name the street
        ("5 Lot Rd", "5 LOT RD", ""),
        ("5 Old Mill Park Lot Rd", "5 OLD MILL PARK LOT RD", ""),
        ("1 Upper Main St", "1 UPPER MAIN ST", ""),
        ("12 Front St", "12 FRONT ST", ""),
    ],
)
def test_unit_designators(written: str, key: str, unit: str) -> None:
    from pipeline.people.names import address_unit, normalize_address_text

    assert (normalize_address_text(written), address_unit(written)) == (key, unit)


def test_a_fraction_a_hair_under_the_threshold_from_reprojection_is_at_it() -> None:
    # parcel 2 exactly half inside, its territory saved in WGS84 and read back:
    # 0.4999999999871943 (1.3e-11 under 0.5, within the 1e-9 tolerance) -> inside;
    # 0.4999 is a boundary choice, not noise -> outside
    from pipeline.evaluate import at_threshold, relocate

    assert bool(at_threshold(0.4999999999871943, 0.5))
    assert not bool(at_threshold(0.4999, 0.5))
    p = place_addresses(
        pd.Series(["14 Oak Street", "12 Oak St"]),
        situs=situs_addresses(_roll()),
        fractions=_fractions(),
    )
    moved = relocate(p, pd.Series({"104489|1": 0.4999, "104489|2": 0.4999999999871943}), 0.5)
    assert moved["inside"].tolist() == [True, False]


def test_a_city_that_is_no_place_of_the_towns_is_another_home() -> None:
    # F10. The roll: 12 Oak St, owner living there, post office VALATIE (a
    # hamlet's post office of the town); 14 Oak St, owner mailing from 9 Elm St,
    # ALBANY (an owner away: Albany is learned as no local place). The towns of
    # the petition: Harlow (104400). Local = {HARLOW, VALATIE, ""}.
    from pipeline.people.matching import roll_lookups
    from pipeline.people.placement import REASON_OTHER_CITY, hold_to_places

    roll = pd.DataFrame(
        {
            "parcel_key": ["104489|1", "104489|2"],
            "parcel_address_number": ["12", "14"],
            "parcel_address_street": ["Oak", "Oak"],
            "parcel_address_suff": ["St", "St"],
            "mailing_address_number": ["12", "9"],
            "mailing_address_street": ["Oak", "Elm"],
            "mailing_address_suff": ["St", "St"],
            "mailing_address_city": ["Valatie", "Albany"],
        }
    )
    local = roll_lookups(roll, places={"Harlow": "104400"}).local
    assert local == frozenset({"HARLOW", "VALATIE", ""})
    places = pd.Series(
        ["Albany", "", "Harlow", "Town of Harlow", "Valatie, NY 12184", "ALBANY NY 12203", "X"]
    )
    addresses = pd.Series(["12 Oak St"] * 6 + ["99 Nowhere Rd"])
    placed = place_addresses(addresses, situs=situs_addresses(roll), fractions=_fractions())
    held = hold_to_places(placed, places, towns={"104400": "Harlow"}, local=local)
    # Albany (twice written) is unplaced; blank, the town (as written two ways)
    # and its post office stay on 12 Oak St; 99 Nowhere Rd was on no parcel and
    # keeps its reason
    assert held["reason"].tolist() == [
        REASON_OTHER_CITY,
        "",
        "",
        "",
        "",
        REASON_OTHER_CITY,
        "no_match",
    ]
    assert held["placed"].tolist() == [False, True, True, True, True, False, False]
    assert not held.loc[[0, 5], "inside"].any() and held.loc[[0, 5], "parcel_key"].eq("").all()
    # a roll naming no post office of a home (no owner living on a parcel, or
    # no mailing city): a city written cannot be told away; nothing unplaced
    away_only = roll.assign(mailing_address_number=["7", "9"])
    assert roll_lookups(away_only, places={"Harlow": "104400"}).local is None
    assert hold_to_places(placed, places, towns={"104400": "Harlow"}, local=None) is placed


def test_a_house_number_without_a_street_places_no_one() -> None:
    # audit A39 F1: "12, Maple Ave" cut at its comma is "12", and a number alone
    # matched a roll record written with a number and no street: placed (and
    # counted inside) on a parcel not at that address
    from pipeline.people.placement import place_addresses, situs_addresses

    roll = pd.DataFrame(
        {
            "parcel_key": ["104489|1", "104489|2"],
            "parcel_address_number": ["12", "14"],
            "parcel_address_street": ["", "Maple"],
            "parcel_address_suff": ["", "Ave"],
        }
    )
    fractions = pd.Series({"104489|1": 1.0, "104489|2": 1.0})
    out = place_addresses(
        pd.Series(["12, Maple Ave", "12", "14 Maple Ave"]),
        situs=situs_addresses(roll),
        fractions=fractions,
    )
    assert out["placed"].tolist() == [False, False, True]
    assert out["reason"].tolist() == ["no_street", "no_street", ""]


@pytest.mark.parametrize(
    ("written", "key"),
    [
        # audit A39 F8: a house number's letter after a hyphen is the number's,
        # as the roll writes it ("12A")
        ("12-A Main St", "12A MAIN ST"),
        ("12A Main St", "12A MAIN ST"),
        # audit A39 F7: ordinals past the tenth are written as numbers too
        ("40 Eleventh St", "40 11TH ST"),
        ("40 11th St", "40 11TH ST"),
        ("3 Twentieth Ave", "3 20TH AVE"),
    ],
)
def test_number_letters_and_high_ordinals(written: str, key: str) -> None:
    from pipeline.people.names import normalize_address_text

    assert normalize_address_text(written) == key


def test_a_voter_number_with_the_street_only_in_the_non_standard_address() -> None:
    # audit A39 F9: RHOUSENUM "12", RSTREETNAME blank, RADDRNONSTD "Maple Ave":
    # the residence is "12 Maple Ave" (was "12": a number alone, placed no one);
    # a non-standard address that begins with its own number is taken whole
    from pipeline.people.placement import place_addresses, situs_addresses
    from pipeline.people.voters import voter_addresses

    voters = pd.DataFrame(
        {
            "RADDNUMBER": ["12", "7", ""],
            "RSTREETNAME": ["", "", ""],
            "RADDRNONSTD": ["Maple Ave", "7 Oak St", "RR 2 Box 5"],
        }
    )
    assert voter_addresses(voters).tolist() == ["12 Maple Ave", "7 Oak St", "RR 2 Box 5"]
    roll = pd.DataFrame(
        {
            "parcel_key": ["104489|1"],
            "parcel_address_number": ["12"],
            "parcel_address_street": ["Maple"],
            "parcel_address_suff": ["Ave"],
        }
    )
    out = place_addresses(
        voter_addresses(voters), situs=situs_addresses(roll), fractions=pd.Series({"104489|1": 1.0})
    )
    assert out["parcel_key"].tolist()[0] == "104489|1"


@pytest.mark.parametrize(
    ("written", "key", "unit"),
    [
        # audit A39 F2: town, state and ZIP after the street without a comma
        ("12 Main St Harlow NY 12106", "12 MAIN ST", ""),
        ("12 Main St Harlow NY 12106-1234", "12 MAIN ST", ""),
        ("12 Main St Apt 3 Harlow NY", "12 MAIN ST", "3"),
        ("12 Main Street Ext Lake George NY 12845", "12 MAIN ST EXT", ""),
        ("12 Route 9 Harlow NY 12106", "12 RTE 9", ""),
        # no street type: the town cannot be told from the street, no key guessed
        ("12 Broadway Harlow NY 12106", "12 BROADWAY HARLOW", ""),
        # F3: route signs; a ZIP code is no route
        ("12 NY-9", "12 STATE RTE 9", ""),
        ("12 NY 9", "12 STATE RTE 9", ""),
        ("12 US 9W", "12 US RTE 9W", ""),
        # F4: units after a route's number
        ("12 Route 9 Lot 3", "12 RTE 9", "3"),
        ("12 NY 9 Rear", "12 STATE RTE 9", "REAR"),
        ("12 Old Route 9", "12 OLD RTE 9", ""),  # the route's number, not a unit
        # F5: a floor by its ordinal, units without number, a bare unit number
        ("5 Main St 2nd Floor", "5 MAIN ST", "2ND"),
        ("5 Main St Rear", "5 MAIN ST", "REAR"),
        ("5 Main St Front", "5 MAIN ST", "FRNT"),
        ("5 Main St 3", "5 MAIN ST", "3"),
        # F6: an extension of a typed street; Saint before a name alone
        ("12 Main Street Ext", "12 MAIN ST EXT", ""),
        ("12 Saint James", "12 ST JAMES", ""),
        ("12 Mount Road", "12 MOUNT RD", ""),  # the name itself
        ("10 Fort Hill Rd", "10 FT HILL RD", ""),
    ],
)
def test_addresses_as_people_write_them(written: str, key: str, unit: str) -> None:
    from pipeline.people.names import address_unit, normalize_address_text

    assert (normalize_address_text(written), address_unit(written)) == (key, unit)
