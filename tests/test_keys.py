"""Print keys and SWIS codes."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.keys import (
    is_village_swis,
    normalize_print_key,
    normalize_print_keys,
    parcel_key,
    print_key_order,
    town_of_swis,
)

SHAPES = [
    # (as written, normalised)
    ("43.11-1-2", "43.11-1-2"),  # display form
    ("043.011-0001-002.000", "43.11-1-2"),  # punctuated SBL
    ("04301100010020000000", "43.11-1-2"),  # bare SBL: 043|011|0001|002|000|0000
    ("13.-3-1", "13-3-1"),  # empty subsection (Tompkins)
    ("18.-4-17.2", "18-4-17.2"),  # sublot 2
    ("01800000040170020000", "18-4-17.2"),  # 018|000|0004|017|002|0000
    ("01300000030010000000", "13-3-1"),  # Tompkins TAXID of 13.-3-1
    ("14.1-2-3.1A", "14.1-2-3.1A"),  # letter in the sublot
    ("14.1-2-3.1a", "14.1-2-3.1A"),  # lower case
    ("14.01-2-3.01A", "14.1-2-3.1A"),  # padded letter sublot
    ("43.11-1-2/1", "43.11-1-2/1"),  # suffix
    ("043.011-0001-002.000/0001", "43.11-1-2/1"),  # padded suffix
    ("43.11-1-2/0000", "43.11-1-2"),  # zero suffix
    ("0430110001002000000A", "43.11-1-2/A"),  # letter suffix in the bare SBL
    ("43.11-1-2/a", "43.11-1-2/A"),
    ("45.-1-1./1", "45-1-1/1"),  # empty sublot before a suffix
    ("  43.11-1-2  ", "43.11-1-2"),  # surrounding spaces
    (" 43.11 - 1 - 2 ", "43.11-1-2"),  # spaces around separators
    ("43.11 1 2", "43.11-1-2"),  # spaces as separators
    ("14.01-1-1", "14.1-1-1"),  # 01 == 1 (integers)
    ("14.10-1-1", "14.10-1-1"),  # 10 stays 10
    ("43.11-1", "43.11-1"),  # short key
    ("43.11-1-0", "43.11-1"),  # trailing zero group dropped
    ("0-0-0", "0"),  # all zero keeps one group
    ("0.5-1-1", "0.5-1-1"),  # zero section before a subsection is kept
    ("100.-1-1.11", "100-1-1.11"),
    ("107.00-01-001.000", "107-1-1"),
    ("2.0A-1-1", "2.A-1-1"),  # "0A" -> "A": zero padding before letters
    ("A1-2-3", "A1-2-3"),  # alphanumeric section
    ("12", "12"),  # section only
]


@pytest.mark.parametrize(("written", "expected"), SHAPES)
def test_normalize_shapes(written: str, expected: str) -> None:
    assert normalize_print_key(written) == expected


def test_vectorised_agrees_with_scalar_on_all_shapes() -> None:
    written = pd.Series([w for w, _ in SHAPES])
    assert normalize_print_keys(written).tolist() == [e for _, e in SHAPES]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("43.11-1-2", "043.011-0001-002.000"),
        ("043.011-0001-002.000", "04301100010020000000"),
        ("13.-3-1", "013.000-0003-001.000"),
        ("18.-4-17.2", "01800000040170020000"),
        ("14.01-1-1", "14.1-1-1"),
        ("43.11-1-2/0001", "43.11-1-2/1"),
    ],
)
def test_equal_keys(a: str, b: str) -> None:
    assert normalize_print_key(a) == normalize_print_key(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("14.1-1-1", "14.10-1-1"),  # subsection 1 vs 10
        ("43.11-1-2", "43.11-1-2.1"),  # sublot
        ("43.11-1-2", "43.11-1-2/1"),  # suffix
        ("18.-4-17.2", "18.-4-17.20"),
        ("13.-3-1", "13.3-1"),  # block 3 vs subsection 3
        ("1-2-3", "1-3-2"),
    ],
)
def test_different_keys(a: str, b: str) -> None:
    assert normalize_print_key(a) != normalize_print_key(b)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "   ",
        "13..5-1-1",
        "13--1",
        "-1-1",
        ".5-1-1",
        "1/2/3",
        "43:11-1-2",
        "43.11-1-2/1.2",
        "/1",
    ],
)
def test_unparseable_keys_raise(bad: str) -> None:
    with pytest.raises(ValueError):
        normalize_print_key(bad)
    out = normalize_print_keys(pd.Series([bad]), errors="coerce")
    assert out.isna().all()
    with pytest.raises(ValueError):
        normalize_print_keys(pd.Series(["1-1-1", bad]))


_part = st.text(alphabet="0123456789A", min_size=0, max_size=4)
_sep = st.sampled_from([".", "-", "/", " ", "", ".-", "-0"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_part, _sep), min_size=1, max_size=6))
def test_vectorised_matches_scalar_on_random_keys(pieces: list[tuple[str, str]]) -> None:
    key = "".join(p + s for p, s in pieces)
    try:
        expected: str | None = normalize_print_key(key)
    except ValueError:
        expected = None
    got = normalize_print_keys(pd.Series([key]), errors="coerce").iloc[0]
    assert (None if pd.isna(got) else got) == expected, key


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789", min_size=20, max_size=20))
def test_bare_sbl_equals_punctuated(sbl: str) -> None:
    punct = f"{sbl[:3]}.{sbl[3:6]}-{sbl[6:10]}-{sbl[10:13]}.{sbl[13:16]}/{sbl[16:]}"
    assert normalize_print_key(sbl) == normalize_print_key(punct)


def test_normalisation_is_idempotent() -> None:
    for written, expected in SHAPES:
        assert normalize_print_key(expected) == expected, written


def test_parcel_key() -> None:
    assert parcel_key("104401", "043.011-0001-002.000") == "104401|43.11-1-2"
    assert parcel_key(" 503689 ", "13.-3-1") == "503689|13-3-1"
    with pytest.raises(ValueError):
        parcel_key("10440", "1-1-1")
    with pytest.raises(ValueError):
        parcel_key("104401", "")


@pytest.mark.parametrize(
    ("swis", "village", "town"),
    [
        ("104400", False, "104400"),  # Kinderhook, town-wide
        ("104489", False, "104400"),  # Kinderhook outside villages
        ("104401", True, "104400"),  # Village of Kinderhook
        ("192201", True, "192200"),  # Village of Athens
        ("503689", False, "503600"),  # Ulysses outside villages
    ],
)
def test_swis(swis: str, village: bool, town: str) -> None:
    assert is_village_swis(swis) is village
    assert town_of_swis(swis) == town


@pytest.mark.parametrize("bad", ["10440", "1044000", "10440A", ""])
def test_bad_swis(bad: str) -> None:
    with pytest.raises(ValueError):
        town_of_swis(bad)
    with pytest.raises(ValueError):
        is_village_swis(bad)


def test_print_keys_in_the_order_of_the_roll() -> None:
    # section.subsection-block-lot: a blank subsection first, numbers as numbers
    keys = ["20.16-1-1", "1.-1-10", "20.-20-1", "1.-1-2", "20.-5-3", "1.-1-1", "20.16-1-1.1"]
    assert sorted(keys, key=print_key_order) == [
        "1.-1-1",
        "1.-1-2",
        "1.-1-10",
        "20.-5-3",
        "20.-20-1",
        "20.16-1-1",
        "20.16-1-1.1",
    ]


def test_print_keys_with_a_suffix_and_in_the_long_form() -> None:
    # audit G7: 1.-1-2/A right after 1.-1-2 (its suffix), before 1.-1-2.1; the
    # long SBL form 001.000-0001-003.000 is 1.-1-3, after both
    keys = ["1.-1-2.1", "001.000-0001-003.000", "1.-1-2/A", "1.-1-2"]
    assert sorted(keys, key=print_key_order) == [
        "1.-1-2",
        "1.-1-2/A",
        "1.-1-2.1",
        "001.000-0001-003.000",
    ]
