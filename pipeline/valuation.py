"""Valuation: apportionment, equalization, signers' credits and the owner test.

§ 2-202.1.a(2): an owner petition must be signed by "the owners of more than
fifty percent in assessed valuation of the real property in such territory
assessed upon the last completed assessment roll". When the territory spans
several towns the valuations are equalized to full value, and the petition
must exceed fifty percent both overall and in each town part separately.

The functions here are pure: frames in, frames (or JSON-ready dicts) out. The
*schedule* is the frame behind the contract's ``parcels.csv``: one row per
roll record in the territory, built by :func:`apportion_values`, extended by
:func:`equalize` and :func:`credit_signers`, and summarised by
:func:`owner_test`.
"""

from __future__ import annotations

import calendar
import math
from collections.abc import Collection, Mapping, Sequence
from datetime import date
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.errors import OVERRIDES_LABEL, RATES_LABEL, InputError, roll_label
from pipeline.frames import PARCEL_KEY, SOURCE_ROW
from pipeline.keys import label_order
from pipeline.law.deficiency import Deficiency, deficiency_for
from pipeline.people.owners import owner_counts
from pipeline.tools import isin
from pipeline.tools.numbers import percent_text

__all__ = [
    "PASS_REL_TOL",
    "SCHEDULE_COLUMNS",
    "apportion_values",
    "credit_signers",
    "equalize",
    "owner_test",
    "roll_year_for",
    "select_rate",
]

ValueBasis = Literal["assessment_total", "town_taxable_value"]

#: Columns of the schedule made by :func:`apportion_values`.
SCHEDULE_COLUMNS: tuple[str, ...] = (
    PARCEL_KEY,
    "swis_code",
    "print_key_code",
    "town_swis",
    "roll_section",
    "assessed_value",
    "fraction_in_territory",
    "fraction_source",
    "apportioned_assessed",
    SOURCE_ROW,
)

#: Relative tolerance of "more than 50 %": a share within this relative
#: distance of exactly one half is treated as exactly one half (fails). It
#: absorbs floating-point noise from sums of divided values (1e-12 of a
#: billion dollars is a thousandth of a cent) and nothing a person would see.
PASS_REL_TOL = 1e-12

#: The label used in :class:`InputError` for an apportionment override.
_OVERRIDES = OVERRIDES_LABEL


# --------------------------------------------------------------------------- apportionment


def apportion_values(
    roll: pd.DataFrame,
    fractions: pd.DataFrame,
    *,
    apportionment_overrides: pd.DataFrame | None = None,
    value_basis: ValueBasis = "assessment_total",
    mapped_keys: Collection[str] | None = None,
) -> pd.DataFrame:
    """Apportion each roll record's value to the territory.

    Parameters
    ----------
    roll
        The roll frame (:data:`pipeline.frames.ROLL_COLUMNS`) of every town
        the territory touches.
    fractions
        Index ``parcel_key``; columns ``fraction_in_territory`` (in [0, 1]) and
        ``fraction_source`` (``"geometry"`` or ``"sliver"``), as
        :func:`pipeline.geometry.apportion_table` gives for the parcel polygons.
        It must hold a row for *every* polygon of the parcel layer (fraction
        0 for those outside), unless ``mapped_keys`` is given: a roll record
        whose key is not mapped has no polygon.
    apportionment_overrides
        The assessor's apportionments
        (:data:`pipeline.frames.APPORTIONMENT_OVERRIDE_COLUMNS`): per parcel
        a ``fraction_in_territory`` or a ``value_in_territory``. Always wins.
    value_basis
        Roll column used as the parcel's value: ``"assessment_total"``
        (default; wholly exempt parcels stay in) or ``"town_taxable_value"``.
    mapped_keys
        Keys of all polygons of the parcel layer (default: the index of
        ``fractions``).

    Returns
    -------
    pandas.DataFrame
        The schedule, columns :data:`SCHEDULE_COLUMNS`, in roll order, one row
        per roll record that is in the territory:

        * its polygon overlaps the territory (``fraction_source`` "geometry",
          fraction > 0) or was snapped as a sliver (``"sliver"``, fraction 0 or
          1: kept so that the snap is listed);
        * it has no polygon (``"unmapped"``, fraction 0, value 0: it cannot be
          placed and is reported by :func:`owner_test`);
        * it has an override (``"override"``), whatever the geometry says.

    Raises
    ------
    InputError
        A missing value in the ``value_basis`` column of an included record;
        an override that names no roll record, names one twice, gives both or
        neither of fraction and value, a fraction outside [0, 1], or a value
        outside [0, the record's ``assessment_total``].
    ValueError
        ``fractions`` has duplicate keys, or ``value_basis`` is unknown.

    Notes
    -----
    For record :math:`i` with value :math:`V_i` (the ``value_basis`` column):

    .. math::

        A_i = \\begin{cases}
            v_i & \\text{override value } v_i \\\\
            V_i f_i & \\text{override fraction } f_i \\\\
            V_i g_i & \\text{geometric or sliver fraction } g_i \\\\
            0 & \\text{no polygon, no override}
        \\end{cases}

    and ``fraction_in_territory`` of a value override is :math:`v_i / V_i`
    (0 when :math:`V_i = v_i = 0`, NaN when only :math:`V_i = 0`).

    The statute gives the assessor "an apportionment of the assessed value"
    (§ 2-202.1.a(2)): an override value :math:`v_i` is always a part of the
    record's ``assessment_total`` :math:`T_i`. Under another basis (town
    taxable value :math:`V_i`) the same share is taken,
    :math:`A_i = V_i \\cdot v_i / T_i`, and ``fraction_in_territory`` is
    :math:`v_i / T_i`.
    """
    if value_basis not in ("assessment_total", "town_taxable_value"):
        raise ValueError(f"unknown value_basis {value_basis!r}")
    if fractions.index.has_duplicates:
        dup = fractions.index[fractions.index.duplicated()].unique()[:5].tolist()
        raise ValueError(f"fractions has duplicate parcel keys: {dup}")

    keys = roll[PARCEL_KEY].astype("str")
    value = roll[value_basis].astype("float64").to_numpy()
    fraction_keys = pd.Index(fractions.index.astype("str"))
    # each roll record's row in ``fractions`` (-1: none): one hash lookup, no reindex
    where = fraction_keys.get_indexer(keys.to_numpy())
    found = where >= 0
    mapped = found if mapped_keys is None else isin(keys, pd.Index(list(mapped_keys)))
    geo_fraction = np.zeros(len(roll), dtype="float64")
    all_fractions = fractions["fraction_in_territory"].astype("float64").to_numpy()
    geo_fraction[found] = np.nan_to_num(all_fractions[where[found]], nan=0.0)
    all_sources = fractions["fraction_source"]
    source_known = all_sources.notna().to_numpy()
    all_source_text = all_sources.astype("str").to_numpy(dtype=object)
    geo_source_arr = np.full(len(roll), "", dtype=object)
    hit = found.copy()
    hit[found] = source_known[where[found]]
    geo_source_arr[hit] = all_source_text[where[hit]]
    geo_source = pd.Series(geo_source_arr, dtype=object)

    has_override = np.zeros(len(roll), dtype=bool)
    ov_fraction = np.full(len(roll), np.nan)
    ov_value = np.full(len(roll), np.nan)
    if apportionment_overrides is not None and len(apportionment_overrides):
        ov = _check_overrides(apportionment_overrides, keys)
        pos = ov.reindex(keys.to_numpy())
        has_override = pos[PARCEL_KEY].notna().to_numpy()
        ov_fraction = pos["fraction_in_territory"].astype("float64").to_numpy()
        ov_value = pos["value_in_territory"].astype("float64").to_numpy()

    is_sliver = (geo_source == "sliver").to_numpy()
    include = (mapped & ((geo_fraction > 0) | is_sliver)) | ~mapped | has_override

    # the assessor apportions "the assessed value" (§ 2-202.1.a(2)): a value
    # override is a part of the roll's assessment_total, whatever the basis;
    # under another basis the same share of that basis's value is taken
    taxable_basis = value_basis != "assessment_total"
    assessed = roll["assessment_total"].astype("float64").to_numpy() if taxable_basis else value
    with np.errstate(divide="ignore", invalid="ignore"):
        value_fraction = np.where(
            assessed == 0, np.where(ov_value == 0, 0.0, np.nan), ov_value / assessed
        )
    use_value = has_override & ~np.isnan(ov_value)
    use_fraction = has_override & ~np.isnan(ov_fraction)
    fraction = np.select(
        [use_value, use_fraction, mapped], [value_fraction, ov_fraction, geo_fraction], 0.0
    )
    source = np.select(
        [has_override, mapped], ["override", geo_source.to_numpy(dtype=object)], "unmapped"
    )
    apportioned = np.where(use_value & ~taxable_basis, ov_value, value * fraction)
    # none of the value counts (an unmapped record without an override, a
    # sliver snapped to 0, an override of fraction 0): 0 whatever the value, so
    # a blank value there is no error ("bad input only where it is used")
    unused = (~use_value | taxable_basis) & (fraction == 0)
    apportioned = np.where(unused, 0.0, apportioned)

    # the value must be known for every included record whose value counts
    missing = include & np.isnan(value) & (~use_value | taxable_basis) & ~unused
    if missing.any():
        i = int(np.flatnonzero(missing)[0])
        raise InputError(
            roll_label(str(roll["municipality_code"].iloc[i])),
            f"no {value_basis} for parcel {roll['print_key_code'].iloc[i]} "
            f"(value basis {value_basis!r})",
            row=int(roll[SOURCE_ROW].iloc[i]),
            column=value_basis,
        )
    # a blank assessment_total: the override is the value on the assessed basis,
    # but no share of it can be taken for another basis
    bad_value = use_value & (
        (ov_value < 0) | (ov_value > assessed) | (taxable_basis & np.isnan(assessed))
    )
    if bad_value.any():
        i = int(np.flatnonzero(bad_value)[0])
        assert apportionment_overrides is not None  # a value override exists
        ov_rows = apportionment_overrides[apportionment_overrides[PARCEL_KEY] == keys.iloc[i]]
        known = not np.isnan(assessed[i])
        raise InputError(
            _OVERRIDES,
            f"value_in_territory {float(ov_value[i])!r} is outside 0..{float(assessed[i])!r}, "
            f"the assessment_total of parcel {roll['print_key_code'].iloc[i]} "
            "(a value override is a part of the assessed value)"
            if known
            else f"value_in_territory {float(ov_value[i])!r} for parcel "
            f"{roll['print_key_code'].iloc[i]}, whose roll record has no assessment_total "
            "(a value override is a part of the assessed value): give fraction_in_territory",
            row=int(ov_rows[SOURCE_ROW].iloc[0]),
            column="value_in_territory",
        )

    rows = np.flatnonzero(include)
    roll_rows = roll.iloc[rows]
    result = pd.DataFrame(
        {
            PARCEL_KEY: keys.to_numpy()[rows],
            "swis_code": roll_rows["swis_code"].astype("str").to_numpy(),
            "print_key_code": roll_rows["print_key_code"].astype("str").to_numpy(),
            "town_swis": roll_rows["municipality_code"].astype("str").to_numpy(),
            "roll_section": roll_rows["roll_section"].to_numpy(),
            "assessed_value": value[rows],
            "fraction_in_territory": fraction[rows].astype("float64"),
            "fraction_source": pd.array(source[rows].astype(str), dtype="str"),
            "apportioned_assessed": apportioned[rows].astype("float64"),
            SOURCE_ROW: roll_rows[SOURCE_ROW].to_numpy(),
        }
    )
    return result


def taxable_basis_warnings(roll: pd.DataFrame, schedule: pd.DataFrame) -> list[str]:
    """What the assessor should know of a schedule on the town taxable value.

    Parameters
    ----------
    roll
        The roll frame the schedule was built from.
    schedule
        :func:`apportion_values`' schedule with ``value_basis="town_taxable_value"``.

    Returns
    -------
    list of str
        A warning naming the records of the schedule whose town taxable value
        exceeds their total assessment (taxable value is the total less
        exemptions: a roll error, summed as the roll writes it), and one for
        each town part that holds no taxable value but some assessed value: it
        cannot pass on this basis (0 of 0), and would be judged on the
        apportioned total assessment :math:`\\sum_i T_i f_i` on the default basis.
    """
    if not len(schedule):
        return []
    pos = pd.MultiIndex.from_arrays(
        [roll[PARCEL_KEY].astype("str"), roll[SOURCE_ROW].astype("int64")]
    ).get_indexer(
        pd.MultiIndex.from_arrays(
            [schedule[PARCEL_KEY].astype("str"), schedule[SOURCE_ROW].astype("int64")]
        )
    )
    known = pos >= 0
    total = np.full(len(schedule), np.nan)
    taxable = np.full(len(schedule), np.nan)
    total[known] = roll["assessment_total"].astype("float64").to_numpy()[pos[known]]
    taxable[known] = roll["town_taxable_value"].astype("float64").to_numpy()[pos[known]]
    out: list[str] = []
    above = np.flatnonzero(taxable > total)  # NaN compares False
    if len(above):
        shown = [
            f"{schedule['print_key_code'].iloc[i]} in town {schedule['town_swis'].iloc[i]} "
            f"({taxable[i]:,.2f} > {total[i]:,.2f})"
            for i in above[:5]
        ]
        more = f" and {len(above) - 5} more" if len(above) > 5 else ""
        out.append(
            f"{len(above)} record(s) of the territory have a town taxable value above their "
            f"total assessment: {'; '.join(shown)}{more}. Taxable value is the total less "
            "exemptions, so the roll is in error there; the owner test sums the taxable "
            "value as the roll writes it: ask the assessor"
        )
    fraction = schedule["fraction_in_territory"].astype("float64").to_numpy()
    on_total = np.nan_to_num(total * fraction, nan=0.0)
    towns = schedule["town_swis"].astype("str")
    by_town = pd.DataFrame(
        {
            "taxable": schedule["apportioned_assessed"].astype("float64").fillna(0.0),
            "total": on_total,
        }
    ).groupby(towns.to_numpy(), sort=True)
    for town, sums in by_town.sum().iterrows():
        if sums["taxable"] == 0 and sums["total"] > 0:
            out.append(
                f"the part in town {town} holds no town taxable value (its records' total "
                f"assessment in the territory is {float(sums['total']):,.2f}, all exempt): "
                "on the value basis town_taxable_value it is 0 of 0 and cannot pass; on "
                "assessment_total it would be judged on its assessed value"
            )
    return out


def _check_overrides(overrides: pd.DataFrame, roll_keys: pd.Series) -> pd.DataFrame:
    """Validate apportionment overrides; return them indexed by parcel key."""
    ov = overrides.reset_index(drop=True)
    frac = ov["fraction_in_territory"].astype("float64")
    val = ov["value_in_territory"].astype("float64")

    def fail(i: int, problem: str, column: str) -> InputError:
        return InputError(_OVERRIDES, problem, row=int(ov[SOURCE_ROW].iloc[i]), column=column)

    both = frac.notna() & val.notna()
    if both.any():
        i = int(np.flatnonzero(both.to_numpy())[0])
        raise fail(
            i, "give fraction_in_territory or value_in_territory, not both", "value_in_territory"
        )
    neither = frac.isna() & val.isna()
    if neither.any():
        i = int(np.flatnonzero(neither.to_numpy())[0])
        raise fail(i, "give fraction_in_territory or value_in_territory", "fraction_in_territory")
    out_of_range = frac.notna() & ((frac < 0) | (frac > 1))
    if out_of_range.any():
        i = int(np.flatnonzero(out_of_range.to_numpy())[0])
        raise fail(i, f"fraction {float(frac.iloc[i])!r} is outside 0..1", "fraction_in_territory")
    dup = ov[PARCEL_KEY].duplicated()
    if dup.any():
        i = int(np.flatnonzero(dup.to_numpy())[0])
        raise fail(i, "a second override for the same parcel", "print_key_code")
    unknown = pd.Series(~isin(ov[PARCEL_KEY], roll_keys), index=ov.index)
    if unknown.any():
        i = int(np.flatnonzero(unknown.to_numpy())[0])
        raise fail(
            i,
            f"parcel {ov['swis_code'].iloc[i]}:{ov['print_key_code'].iloc[i]} is on no roll",
            "print_key_code",
        )
    return ov.set_index(ov[PARCEL_KEY].astype("str"), drop=False)


# --------------------------------------------------------------------------- equalization


def roll_year_for(filed_on: date, *, completion: tuple[int, int] = (7, 1)) -> int:
    """Year of the last completed (final) assessment roll as of a filing date.

    Parameters
    ----------
    filed_on
        The filing date.
    completion
        (month, day) on which a town's final roll of year Y is completed:
        July 1 for most towns; some towns September 15 (``(9, 15)``).

    Returns
    -------
    int
        Y when ``filed_on`` is on or after the completion day of year Y,
        else Y - 1. A completion day of February 29 is, in a year without
        one, the last day of February (February 28).

    Examples
    --------
    >>> roll_year_for(date(2023, 6, 30)), roll_year_for(date(2023, 7, 1))
    (2022, 2023)
    >>> roll_year_for(date(2023, 2, 28), completion=(2, 29))
    2023
    """
    month, day = completion
    year = filed_on.year
    if (month, day) == (2, 29) and not calendar.isleap(year):
        day = 28
    return year if filed_on >= date(year, month, day) else year - 1


def select_rate(rates_frame: pd.DataFrame, *, swis: str, roll_year: int) -> float | None:
    """The equalization rate of one town for one roll year.

    Parameters
    ----------
    rates_frame
        Rates (:data:`pipeline.frames.RATE_COLUMNS`), possibly many years.
    swis
        The town's SWIS code.
    roll_year
        The year of the roll used (:func:`roll_year_for`): only that year's
        rate may be used, never a neighbouring year's.

    Returns
    -------
    float or None
        The rate (percent), or None when the file has no final rate (blank =
        not final) for that town and year.

    Raises
    ------
    InputError
        When the file gives two different rates for the town and year, or a
        rate that is not positive.
    """
    sel = rates_frame[
        (rates_frame["swis_code"].astype("str") == str(swis))
        & (rates_frame["rate_year"].astype("int64") == int(roll_year))
    ]
    rates = sel["equalization_rate"].astype("float64")
    given = sel[rates.notna()]
    values = sorted(set(rates.dropna().tolist()))
    if not values:
        return None
    if len(values) > 1:
        raise InputError(
            RATES_LABEL,
            f"town {swis} has {len(values)} different rates for {roll_year}: {values}",
            row=int(given[SOURCE_ROW].iloc[1]),
            column="equalization_rate",
        )
    if values[0] <= 0:
        raise InputError(
            RATES_LABEL,
            f"equalization rate {values[0]!r} of town {swis} for {roll_year} is not positive",
            row=int(given[SOURCE_ROW].iloc[0]),
            column="equalization_rate",
        )
    return float(values[0])


def equalize(
    schedule: pd.DataFrame,
    rates: Mapping[str, float],
    *,
    missing: Literal["error", "nan"] = "error",
) -> pd.DataFrame:
    """Equalize each record's apportioned value to full value.

    Parameters
    ----------
    schedule
        From :func:`apportion_values`.
    rates
        Town SWIS -> equalization rate (percent) of the roll year.
    missing
        A town of the schedule without a rate: ``"error"`` raises, ``"nan"``
        leaves its full values NaN (enough for a one-town territory, whose
        test is on assessed values).

    Returns
    -------
    pandas.DataFrame
        The schedule with ``equalization_rate`` and ``apportioned_full``.

    Raises
    ------
    InputError
        A town without a rate (``missing="error"``) or a rate that is not
        positive.

    Notes
    -----
    .. math:: F_i = A_i / (r_t / 100)

    for record :math:`i` in town :math:`t` with rate :math:`r_t` percent.
    """
    towns = schedule["town_swis"].astype("str")
    for swis in sorted(towns.unique()):
        rate = rates.get(swis)
        if rate is None or (isinstance(rate, float) and math.isnan(rate)):
            if missing == "error":
                raise InputError(
                    RATES_LABEL,
                    f"no equalization rate for town {swis}",
                    column="equalization_rate",
                )
        elif float(rate) <= 0:
            raise InputError(
                RATES_LABEL,
                f"equalization rate {rate!r} of town {swis} is not positive",
                column="equalization_rate",
            )
    rate_col = towns.map(lambda s: float(rates[s]) if rates.get(s) is not None else np.nan)
    out = schedule.copy()
    out["equalization_rate"] = rate_col.astype("float64").to_numpy()
    out["apportioned_full"] = full_value(
        out["apportioned_assessed"].to_numpy(dtype="float64"),
        out["equalization_rate"].to_numpy(dtype="float64"),
    )
    return out


def full_value(assessed: npt.NDArray[np.float64], rate: npt.NDArray[np.float64]) -> Any:
    """Full value of assessed values at equalization rates (percent).

    Notes
    -----
    :math:`F = A \\cdot 100 / r`, not :math:`A / (r / 100)`: one rounding for
    a whole-dollar :math:`A` (230,000 at 70 % is 328,571.42857142857, not
    ...42864). At a rate of 100 the full value *is* the assessed value, to the
    last digit: :math:`A \\cdot 100` would round a fractional :math:`A` first
    (3,691.594879931362 would come back as ...13614).
    """
    return np.where(rate == 100.0, assessed, assessed * 100.0 / rate)


# --------------------------------------------------------------------------- signers' credits


def credit_signers(
    schedule: pd.DataFrame, owners: pd.DataFrame, matches: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Credit signing owners with their share of each parcel's value.

    Parameters
    ----------
    schedule
        From :func:`apportion_values` (and :func:`equalize`; without it the
        full-value credits are NaN).
    owners
        The owners frame (:func:`pipeline.people.owners.parse_owners`).
    matches
        From an :class:`pipeline.people.OwnerMatcher`; only ``"counted"``
        lines earn credit.

    Returns
    -------
    schedule : pandas.DataFrame
        With ``owners`` (names, ``"; "``-joined, roll order; a name the roll
        writes with ``ETAL`` ends in ``ET AL``), ``owner_count`` (the owners
        named: at least that many where ``ET AL`` shows),
        ``signing_owners`` (names, ``"; "``-joined, sorted),
        ``signer_credit_assessed`` and ``signer_credit_full``.
    signatures : pandas.DataFrame
        Index aligned with ``matches``: ``page``, ``line``, ``status`` (a
        counted line none of whose parcels lies in the territory becomes
        ``"outside_territory"``; a record listed with fraction 0, a sliver
        snapped to 0 or an override of 0, is not in it), ``matched_to``
        (``SWIS:PRINT_KEY`` of the territory's records credited,
        ``";"``-joined, also shown for a duplicate line), ``match_score``,
        ``person_id``, ``credit_assessed``, ``credit_full`` (0 for a line not
        counted), ``note`` (the matcher's note, after why the line earns
        nothing or less: none of its records in the territory, or a record
        without polygon or override, credited nothing until apportioned).

    Notes
    -----
    For a record with apportioned value :math:`A`, :math:`n` owners (roll or
    ownership override) and :math:`k` distinct signing owners (§ 2-202.1.a(2):
    each co-owner is credited :math:`A / n`; an entity is one owner):

    .. math:: C = A \\cdot \\min(k, n) / n

    and each signing owner's line earns :math:`C / k`. The same for full
    values. An owner credited by two counted lines is credited once (first
    line in page/line order).
    """
    sched = schedule.reset_index(drop=True)
    keys = np.asarray(sched[PARCEL_KEY], dtype=object)
    # only the owners of the schedule's parcels are read (the roll may be far larger)
    owners = owners[isin(np.asarray(owners[PARCEL_KEY], dtype=object), keys)]
    counts = owner_counts(owners).reindex(keys).fillna(0).astype("int64").to_numpy()
    has_full = "apportioned_full" in sched.columns
    full = (
        sched["apportioned_full"].astype("float64").to_numpy()
        if has_full
        else np.full(len(sched), np.nan)
    )
    assessed = sched["apportioned_assessed"].astype("float64").to_numpy()
    label = np.asarray(
        sched["swis_code"].astype("str") + ":" + sched["print_key_code"].astype("str"),
        dtype=object,
    )
    # schedule positions of each parcel key (several roll records may share a key)
    # that lies in the territory: a record listed with fraction 0 (a sliver
    # snapped to 0, an override of 0) is not, an unmapped one may be
    placed = np.ones(len(sched), dtype=bool)
    if "fraction_in_territory" in sched.columns and "fraction_source" in sched.columns:
        placed = ~(
            (sched["fraction_in_territory"].astype("float64").to_numpy() == 0)
            & (np.asarray(sched["fraction_source"], dtype=object) != "unmapped")
        )
    pos = pd.DataFrame({PARCEL_KEY: keys[placed], "_pos": np.flatnonzero(placed)})

    # one row per (signature line, owner key) for counted and duplicate lines
    status_in = np.asarray(matches["status"], dtype=object)
    lines = pd.DataFrame(
        {
            "_sig": np.arange(len(matches)),
            "page": matches["page"].to_numpy(),
            "line": matches["line"].to_numpy(),
            "owner_keys": np.asarray(matches["owner_keys"], dtype=object),
        }
    )[np.isin(status_in, ["counted", "duplicate"])]
    pairs = [
        (sig, str(k_), int(i_))
        for sig, okeys in zip(lines["_sig"].tolist(), lines["owner_keys"].tolist(), strict=True)
        for k_, i_ in okeys
    ]
    claimed = pd.DataFrame(pairs, columns=["_sig", PARCEL_KEY, "owner_index"]).astype(
        {"_sig": "int64", PARCEL_KEY: object, "owner_index": "int64"}
    )
    claimed = claimed.merge(lines[["_sig", "page", "line"]], on="_sig", how="left")
    claimed = claimed.merge(pos, on=PARCEL_KEY, how="inner")  # in the territory only

    # credits: counted lines only; an owner credited by two lines counts once (first line)
    cred = claimed[status_in[claimed["_sig"].to_numpy()] == "counted"]
    cred = cred.sort_values(["page", "line", "_sig"], kind="stable")
    cred = cred.drop_duplicates(["_pos", "owner_index"], keep="first")
    k = np.bincount(cred["_pos"].to_numpy(dtype=np.int64), minlength=len(sched))
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(counts > 0, np.minimum(k, counts) / np.maximum(counts, 1), 0.0)
    credit_assessed = assessed * share
    credit_full = full * share

    # names: all owners of each record (roll order) and the signing ones (sorted)
    names = pd.DataFrame(
        {
            PARCEL_KEY: np.asarray(owners[PARCEL_KEY], dtype=object),
            "owner_index": owners["owner_index"].to_numpy(dtype=np.int64),
            "name": np.asarray(owners["name"], dtype=object),
        }
    )
    # the schedule shows that more owners exist where the roll says so (ETAL)
    shown = names
    if "etal" in owners.columns:
        index = owners["owner_index"]
        last = (index == index.groupby(owners[PARCEL_KEY]).transform("max")).to_numpy()
        etal = owners["etal"].fillna(False).to_numpy(dtype=bool) & last  # on the last name
        shown = names.assign(
            name=np.where(etal, (names["name"].astype("str") + " ET AL").str.strip(), names["name"])
        )
    all_names = _joined(shown.sort_values([PARCEL_KEY, "owner_index"], kind="stable"))
    signing = cred[[PARCEL_KEY, "owner_index", "_pos"]].merge(
        names, on=[PARCEL_KEY, "owner_index"], how="left"
    )
    signing_names = _joined(
        signing.assign(name=signing["name"].fillna("")).sort_values(["_pos", "name"]),
        by="_pos",
    )

    out = sched.copy()
    out["owners"] = pd.array(all_names.reindex(keys).fillna("").to_numpy(), dtype="str")
    out["owner_count"] = counts
    out["signing_owners"] = pd.array(
        signing_names.reindex(np.arange(len(sched))).fillna("").to_numpy(), dtype="str"
    )
    out["signer_credit_assessed"] = credit_assessed
    out["signer_credit_full"] = credit_full

    # per signature line: each signing owner earns C / k of the record
    sig_a = np.zeros(len(matches))
    sig_f = np.zeros(len(matches))
    if len(cred):
        at_pos = cred["_pos"].to_numpy(dtype=np.int64)
        at_sig = cred["_sig"].to_numpy(dtype=np.int64)
        np.add.at(sig_a, at_sig, credit_assessed[at_pos] / k[at_pos])
        np.add.at(sig_f, at_sig, credit_full[at_pos] / k[at_pos])  # NaN without equalize

    # matched_to: the territory's records of every key claimed (counted or duplicate)
    lab = pd.DataFrame({"_sig": claimed["_sig"], "label": label[claimed["_pos"].to_numpy()]})
    lab = lab.drop_duplicates().sort_values(["_sig", "label"])
    matched = _joined(lab.rename(columns={"label": "name"}), by="_sig", sep=";")
    matched_to = matched.reindex(np.arange(len(matches))).fillna("").to_numpy(dtype=object)
    status = status_in.copy()
    outside = (status_in == "counted") & (matched_to == "")
    status[outside] = "outside_territory"
    counted_mask = status == "counted"
    # why a line earns nothing (or less): its records outside, or unmapped
    said = (
        np.asarray(matches["note"].astype("str"), dtype=object)
        if "note" in matches.columns
        else np.full(len(matches), "", dtype=object)
    )
    why = np.full(len(matches), "", dtype=object)
    why[outside] = "none of the signer's records lies in the territory (fraction 0)"
    unmapped_pos = np.flatnonzero(
        np.asarray(sched["fraction_source"], dtype=object) == "unmapped"
        if "fraction_source" in sched.columns
        else np.zeros(len(sched), dtype=bool)
    )
    if len(unmapped_pos) and len(claimed):
        pending = claimed[np.isin(claimed["_pos"].to_numpy(), unmapped_pos)]
        pending = pending[counted_mask[pending["_sig"].to_numpy()]]
        for sig, rows in pending.groupby("_sig", sort=True):
            records = sorted(set(label[rows["_pos"].to_numpy()].tolist()))
            which = (
                f"record {records[0]} has"
                if len(records) == 1
                else f"records {', '.join(records)} have"
            )
            why[int(sig)] = (
                f"{which} no polygon and no apportionment override: nothing of it is "
                "credited until the assessor apportions it (unapportioned_records, "
                "§ 2-202.1.a(2))"
            )
    note = [f"{w}; {n}" if w and n else w or n for w, n in zip(why, said, strict=True)]
    sigs = pd.DataFrame(
        {
            "page": matches["page"].to_numpy(),
            "line": matches["line"].to_numpy(),
            "status": pd.array(status, dtype="str"),
            "matched_to": pd.array(matched_to, dtype="str"),
            "match_score": matches["match_score"].astype("float64").to_numpy(),
            "person_id": matches["person_id"].astype("str").to_numpy(),
            "credit_assessed": np.where(counted_mask, sig_a, 0.0),
            "credit_full": np.where(counted_mask, sig_f, 0.0),
            "note": pd.array(note, dtype="str"),
        },
        index=matches.index,
    )
    return out, sigs


def _joined(frame: pd.DataFrame, by: str = PARCEL_KEY, sep: str = "; ") -> pd.Series:
    """``sep``-joined ``name`` per ``by``, in the frame's order (pyarrow, no Python loop)."""
    if not len(frame):
        return pd.Series(dtype=object)
    table = pa.table({"by": frame[by].to_numpy(), "name": frame["name"].astype("str").to_numpy()})
    grouped = table.group_by("by", use_threads=False).aggregate([("name", "list")])
    joined = pc.binary_join(grouped["name_list"], sep)
    return pd.Series(
        joined.to_numpy(zero_copy_only=False), index=grouped["by"].to_numpy(zero_copy_only=False)
    )


# --------------------------------------------------------------------------- the owner test


def _fsum(values: pd.Series) -> float:
    return math.fsum(values.astype("float64").tolist())


def _more_than_half(signer: float, total: float) -> bool:
    """``signer / total > 1/2`` beyond :data:`PASS_REL_TOL` (exactly half fails)."""
    if not (total > 0) or math.isnan(signer):
        return False
    return 2.0 * signer - total > PASS_REL_TOL * total


def _percent(signer: float, total: float) -> float | None:
    """``100 * signer / total``; exactly 50 where :func:`_more_than_half` reads one half.

    A share within :data:`PASS_REL_TOL` of one half (:math:`|2S - T| \\le
    10^{-12} T`) fails the test as exactly half, and is exactly 50 here, so
    that every figure printed of it (the summary, the deficiencies, the
    certifications and the report) says what the verdict says (audit A24 F2:
    a share computed as 50.0000000000501 printed "50.0000" beside a pass, and
    one of 50.0000000000500 "50.0000000001" beside a failure). Outside that
    band the quotient differs from 50 by more than 5e-11, so it cannot print
    as 50 either. A share within the same tolerance of the whole is 100
    exactly: the quotient of two equal sums may come out a unit in the last
    place off it, and print so (audit A27 F1: "100.00000000000001 %").
    """
    if not (total > 0) or math.isnan(signer):
        return None
    if abs(2.0 * signer - total) <= PASS_REL_TOL * total:
        return 50.0
    if abs(signer - total) <= PASS_REL_TOL * total:
        # the signers own it all: 100, not 100.00000000000001 (audit A27 F1)
        return 100.0
    return 100.0 * signer / total


def _num(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def owner_test(
    schedule: pd.DataFrame,
    *,
    towns: Sequence[str],
    parts_area: Mapping[str, float] | None = None,
    rates: Mapping[str, float] | None = None,
    value_basis: ValueBasis = "assessment_total",
) -> dict[str, Any]:
    """The owner test of § 2-202.1.a(2), as the contract's ``owner_test`` object.

    ``value_basis`` names, in the messages, the roll field the values are
    read from (``"assessed value"`` or ``"town taxable value"``).

    Parameters
    ----------
    schedule
        From :func:`credit_signers` (after :func:`equalize` when the
        territory spans several towns).
    towns
        SWIS codes of the towns the territory lies in (one part each).
        Towns met in the schedule are added; no record is dropped.
    parts_area
        Optional town SWIS -> square miles of the part: added to each part as
        ``square_miles``; its towns are parts too.
    rates
        Optional town SWIS -> equalization rate: the rate shown for a part
        without a record of its own (a part of area and no parcel).

    Returns
    -------
    dict
        ``applies`` (True), ``value_basis`` (``"assessed"`` for one town,
        ``"full"`` for several), ``total_value``, ``signer_value``,
        ``percent`` (0-100, unrounded; None when the total is 0), ``passes``,
        ``parts`` (sorted by SWIS: ``swis``, ``equalization_rate``,
        ``total_assessed``, ``signer_assessed``, ``total_full``,
        ``signer_full``, ``percent``, ``passes``), and ``deficiencies``: a
        list of deficiency objects for the summary's top-level list (pop it
        from this object before writing ``owner_test``):
        ``owner_percent_not_met``, ``owner_part_percent_not_met`` (one per
        failing part), ``unapportioned_records`` (one, listing every record
        without polygon and without override).

    Notes
    -----
    One town (assessed values :math:`A_i`, signers' credits :math:`C_i`):

    .. math:: p = 100 \\, \\sum C_i / \\sum A_i, \\quad \\text{passes iff } p > 50

    Several towns (full values :math:`F_i = A_i / (r_t/100)`):

    .. math::

        p = 100 \\, \\sum_i C^F_i / \\sum_i F_i, \\qquad
        p_t = 100 \\, \\sum_{i \\in t} C^F_i / \\sum_{i \\in t} F_i

    passes iff :math:`p > 50` and :math:`p_t > 50` for every part :math:`t`.
    "More than fifty percent" is strict: exactly 50 fails (compared as
    :math:`2C - A > 10^{-12} A`, see :data:`PASS_REL_TOL`). Sums use
    :func:`math.fsum`.
    """
    town_col = schedule["town_swis"].astype("str")
    part_ids = sorted(
        set(map(str, towns)) | set(town_col.unique()) | set(map(str, parts_area or {}))
    )
    several = len(part_ids) > 1
    has_full = "apportioned_full" in schedule.columns

    parts: list[dict[str, Any]] = []
    deficiencies: list[Deficiency] = []
    for swis in part_ids:
        rows = schedule[town_col == swis]
        rate_vals = (
            rows["equalization_rate"].dropna().unique().tolist()
            if "equalization_rate" in rows
            else []
        )
        total_a = _fsum(rows["apportioned_assessed"])
        signer_a = _fsum(rows["signer_credit_assessed"])
        total_f = _fsum(rows["apportioned_full"]) if has_full else math.nan
        signer_f = _fsum(rows["signer_credit_full"]) if has_full else math.nan
        signer, total = (signer_f, total_f) if several else (signer_a, total_a)
        part: dict[str, Any] = {
            "swis": swis,
            "equalization_rate": float(rate_vals[0])
            if rate_vals
            else (float(rates[swis]) if rates is not None and swis in rates else None),
            "total_assessed": total_a,
            "signer_assessed": signer_a,
            "total_full": _num(total_f),
            "signer_full": _num(signer_f),
            "percent": _percent(signer, total),
            "passes": _more_than_half(signer, total),
        }
        if parts_area is not None:
            part["square_miles"] = float(parts_area.get(swis, 0.0))
        parts.append(part)
        if several and not part["passes"]:
            pct = part["percent"]
            message = (
                f"the part in town {swis} holds no real property of any full value (0 of "
                "0), so its owners cannot have signed for more than 50 % of it"
                if pct is None
                else f"signers own {percent_text(pct)} % of the full valuation of the part in "
                f"town {swis}"
            )
            deficiencies.append(
                deficiency_for(
                    "owner_part_percent_not_met",
                    f"{message}; more than 50 % is required in each town part",
                    f"town {swis}",
                )
            )

    if several:
        total_value = math.fsum(
            p["total_full"] if p["total_full"] is not None else math.nan for p in parts
        )
        signer_value = math.fsum(
            p["signer_full"] if p["signer_full"] is not None else math.nan for p in parts
        )
    else:
        total_value = math.fsum(p["total_assessed"] for p in parts)
        signer_value = math.fsum(p["signer_assessed"] for p in parts)
    overall_ok = _more_than_half(signer_value, total_value)
    passes = overall_ok and all(p["passes"] for p in parts)
    percent = _percent(signer_value, total_value)
    if not overall_ok:
        basis = "full" if several else "assessed"
        shown = "none" if percent is None else f"{percent_text(percent)} %"
        deficiencies.insert(
            0,
            deficiency_for(
                "owner_percent_not_met",
                f"signers own {shown} of the {basis} valuation of the territory; "
                "more than 50 % is required",
                "territory",
            ),
        )

    unmapped = schedule[schedule["fraction_source"] == "unmapped"]
    if len(unmapped):
        labels = sorted(
            (
                unmapped["swis_code"].astype("str") + ":" + unmapped["print_key_code"].astype("str")
            ).tolist(),
            key=label_order,
        )
        value_col = "assessed_value"
        value_word = (
            "town taxable value" if value_basis == "town_taxable_value" else "assessed value"
        )

        def told(values: pd.Series) -> str:
            # a blank value (no value under the basis) is told, not summed as nan
            known = pd.to_numeric(values, errors="coerce")
            blank = int(known.isna().sum())
            if blank == len(known):
                return f"unknown ({blank} record(s) without a value)"
            text = f"{_fsum(known.dropna()):.2f}"
            return text + (f" (and {blank} record(s) without a value)" if blank else "")

        if several:
            # assessed values of towns with different rates do not add up
            by_town = unmapped.groupby(unmapped["town_swis"].astype("str"), sort=True)
            value = f"{value_word} " + ", ".join(
                f"{told(g[value_col])} in town {swis}" for swis, g in by_town
            )
        else:
            value = f"{value_word} {told(unmapped[value_col])} in all"
        deficiencies.append(
            deficiency_for(
                "unapportioned_records",
                f"{len(unmapped)} roll record(s) without a parcel polygon and without an "
                f"apportionment override ({value}) "
                "are counted as 0; the town assessor must apportion them",
                ";".join(labels),
            )
        )

    return {
        "applies": True,
        "value_basis": "full" if several else "assessed",
        "total_value": _num(total_value) if several else total_value,
        "signer_value": _num(signer_value) if several else signer_value,
        "percent": percent,
        "passes": passes,
        "parts": parts,
        "deficiencies": deficiencies,
    }
