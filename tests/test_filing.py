"""Filing plan (§ 2-202.1.f) and the regimes (rules.md § 8)."""

from __future__ import annotations

from datetime import date

import pytest

from pipeline.errors import InputError
from pipeline.law import REGIMES, filing_plan, regime_for


def test_one_town() -> None:
    assert filing_plan({"104400": 1.2}) == {
        "original_with": "104400",
        "copies_with": [],
        "deposit_per_supervisor": 6000,
        "deposit_total": 6000,  # 6,000 x 1 town
    }


def test_three_towns_greatest_part_gets_the_original() -> None:
    plan = filing_plan({"104400": 0.4, "104600": 1.1, "104200": 0.2})
    assert plan["original_with"] == "104600"  # 1.1 sq mi, the greatest part
    assert plan["copies_with"] == ["104200", "104400"]  # the others, sorted
    assert plan["deposit_total"] == 18_000  # 6,000 x 3 supervisors


def test_tie_goes_to_the_lowest_swis() -> None:
    plan = filing_plan({"104600": 0.5, "104400": 0.5})
    assert plan["original_with"] == "104400"
    assert plan["copies_with"] == ["104600"]


def test_a_tie_to_a_millionth_goes_to_the_lowest_swis() -> None:
    # two halves of a square measured on the ellipsoid differ by some 1e-10 sq
    # mi (audit E3): a tie to the precision of the boundaries, not a greater
    # part. 0.0717476109547 - 0.0717476109498 = 4.9e-12, far under 1e-6 x
    # 0.0717 = 7.2e-8: the lower SWIS code, whichever is the larger by a hair
    plan = filing_plan({"104400": 0.0717476109498, "104600": 0.0717476109547})
    assert plan["original_with"] == "104400"
    # 0.0717 vs 0.0718 (0.14 % apart) is no tie: the greater part
    assert filing_plan({"104400": 0.0717, "104600": 0.0718})["original_with"] == "104600"


def test_no_town_is_an_error() -> None:
    with pytest.raises(ValueError):
        filing_plan({})


@pytest.mark.parametrize(
    ("filed", "name"),
    [
        (date(2023, 6, 1), "2-202-pre-2024"),
        (date(2023, 12, 31), "2-202-pre-2024"),
        (date(2024, 1, 1), "2024"),
        (date(2025, 3, 1), "2024"),
    ],
)
def test_regime_by_date(filed: date, name: str) -> None:
    assert regime_for(filed).name == name


def test_regimes() -> None:
    old, new = REGIMES["2-202-pre-2024"], REGIMES["2024"]
    assert old.owner_basis_allowed and old.minimum_population == 500
    assert not new.owner_basis_allowed and new.minimum_population == 1500
    assert (old.resident_percent, old.owner_percent, old.area_limit_sq_mi) == (20, 50, 5.0)
    # a stated regime wins over the date
    assert regime_for(date(2025, 1, 1), "2-202-pre-2024") is old
    with pytest.raises(InputError):
        regime_for(date(2025, 1, 1), "1972")


def test_the_earlier_law_stated_only_until_2040() -> None:
    # rules § 8: petitions tied to earlier filings keep the earlier law until
    # 2040: stated for a filing in 2040 it applies (with a note for counsel);
    # for one filed in 2041 it is bad input. The 2024 law stated for a 2023
    # filing is noted too (not yet in force then)
    from pipeline.law.regimes import regime_notes

    old = REGIMES["2-202-pre-2024"]
    assert regime_for(date(2040, 12, 31), "2-202-pre-2024") is old
    with pytest.raises(InputError, match="until 2040"):
        regime_for(date(2041, 1, 1), "2-202-pre-2024")
    assert regime_notes(date(2023, 6, 1), "auto") == []
    assert regime_notes(date(2023, 6, 1), "2-202-pre-2024") == []
    assert "counsel should confirm" in regime_notes(date(2030, 6, 1), "2-202-pre-2024")[0]
    assert "before the 2024 amendments" in regime_notes(date(2023, 6, 1), "2024")[0]


def test_parts_nearly_equal_are_told_not_tied() -> None:
    # audit A22 O3: parts equal on the map differ on the ellipsoid by some 1e-6;
    # a tenth of a foot along a mile of town line moves a square-mile part by
    # 528 / 27,878,400 = 1.9e-5. Parts within 1e-4 of the greater are told.
    from pipeline.town_parts import tie_warning

    warnings: list[str] = []
    # 1.00000 against 0.99999: 1e-5 of the greater, over the tie (1e-6): the
    # original goes to 104600, the greater, and the closeness is told
    tie_warning({"104400": 0.99999, "104600": 1.0}, warnings)
    assert len(warnings) == 1
    assert "104600 (1.000000 sq mi) and 104400 (0.999990 sq mi)" in warnings[0]
    assert "differ by 0.00100 % of the greater" in warnings[0]
    assert "the original goes to 104600" in warnings[0]
    # 1e-3 apart: clearly the greater, nothing to tell
    warnings.clear()
    tie_warning({"104400": 0.999, "104600": 1.0}, warnings)
    assert warnings == []
    # 5e-7 apart: a tie, told once as a tie
    warnings.clear()
    tie_warning({"104400": 0.9999995, "104600": 1.0}, warnings)
    assert len(warnings) == 1 and "equal to the precision of the boundaries" in warnings[0]
