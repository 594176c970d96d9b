"""Every test of the petition, from the loaded inputs to the contract's results.

:func:`evaluate` is the pure core's front door: it takes the frames and
geometries of :class:`pipeline.model.PetitionInputs` and the policy, and returns
:class:`Evaluation` — the ``summary.json`` object, the parcel and signature
schedules and the data-quality report — without opening or writing a file.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
from shapely.geometry.base import BaseGeometry

from pipeline.config import PolicySection
from pipeline.frames import PARCEL_KEY
from pipeline.geometry import apportion
from pipeline.geometry.area import geodesic_area_sq_mi
from pipeline.geometry.territory import town_parts
from pipeline.law.checks import (
    area_check,
    basis_check,
    designees_check,
    existing_village_check,
    inhabitant_schedule,
    line_checks,
    population_check,
    sufficiency,
    witness_count_check,
)
from pipeline.law.deficiency import Deficiency
from pipeline.law.filing import filing_plan
from pipeline.law.regimes import REGIMES, Regime
from pipeline.model import PetitionInputs
from pipeline.people.matching import owner_matcher
from pipeline.people.owners import parse_owners
from pipeline.people.placement import place_addresses, situs_addresses
from pipeline.people.review import review_queue, stale_decisions, value_differences
from pipeline.people.voters import resident_test, voter_addresses
from pipeline.quality import data_quality
from pipeline.valuation import apportion_values, credit_signers, equalize, owner_test

#: Columns of ``parcels.csv`` (contract order first, then this project's additions).
PARCEL_SCHEDULE_COLUMNS: tuple[str, ...] = (
    "swis_code",
    "print_key_code",
    "town_swis",
    "roll_section",
    "owners",
    "owner_count",
    "assessed_value",
    "fraction_in_territory",
    "fraction_source",
    "apportioned_assessed",
    "equalization_rate",
    "apportioned_full",
    "signing_owners",
    "signer_credit_assessed",
    "signer_credit_full",
    "value_basis",
    "roll_row",
)

#: Columns of ``signatures.csv``.
SIGNATURE_SCHEDULE_COLUMNS: tuple[str, ...] = (
    "page",
    "line",
    "name",
    "basis",
    "status",
    "matched_to",
    "match_score",
    "credit_assessed",
    "credit_full",
    "note",
)


@dataclass
class Evaluation:
    """Everything a run found, ready for the writers."""

    summary: dict[str, Any]
    parcels: pd.DataFrame
    signatures: pd.DataFrame
    inhabitants: pd.DataFrame | None
    data_quality: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    #: Lines to review with their candidates and evidence (``review.csv``).
    review: pd.DataFrame = field(default_factory=pd.DataFrame)


def _merge_duplicate_parcels(parcels: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """One geometry per parcel key: a key drawn as several polygons is their union."""
    dup = parcels[PARCEL_KEY].duplicated(keep=False).to_numpy()
    if not dup.any():
        return parcels
    single = parcels.loc[~dup]
    merged = (
        parcels.loc[dup]
        .groupby(PARCEL_KEY, sort=True)["geometry"]
        .agg(lambda g: shapely.union_all(np.asarray(g)))
    )
    extra = gpd.GeoDataFrame(
        {PARCEL_KEY: merged.index.to_numpy(), "geometry": merged.to_numpy()},
        crs=parcels.crs,
    )
    return gpd.GeoDataFrame(
        pd.concat([single[[PARCEL_KEY, "geometry"]], extra], ignore_index=True),
        crs=parcels.crs,
    )


def _part_areas(
    inputs: PetitionInputs,
    territory_sq_mi: float,
    schedule: pd.DataFrame,
    parcel_area: pd.Series,
    warnings: list[str],
) -> dict[str, float]:
    """Square miles of each town part (geometric when every town has a polygon)."""
    if all(t.boundary is not None for t in inputs.towns):
        split = town_parts(
            inputs.territory, {t.swis: t.boundary for t in inputs.towns if t.boundary}
        )
        if split.uncovered_area > 1e-6 * max(inputs.territory.area, 1.0):
            warnings.append(
                f"{split.uncovered_area / max(inputs.territory.area, 1.0):.4%} of the territory "
                "lies in none of the town polygons"
            )
        return {
            swis: geodesic_area_sq_mi(part, inputs.working_crs)
            for swis, part in sorted(split.parts.items())
        }
    warnings.append(
        "no town polygons: town parts come from each parcel's roll municipality_code and "
        "their areas are approximate (share of parcel area inside the territory)"
    )
    geo = schedule.loc[schedule["fraction_source"].isin(["geometry", "sliver", "override"])]
    inside = geo[PARCEL_KEY].map(parcel_area).fillna(0.0) * geo["fraction_in_territory"]
    by_town = inside.groupby(geo["town_swis"]).sum()
    total = float(by_town.sum())
    out: dict[str, float] = {}
    for t in inputs.towns:
        share = float(by_town.get(t.swis, 0.0)) / total if total > 0 else 0.0
        if share > 0:
            out[t.swis] = territory_sq_mi * share
    return out


def _not_alleged() -> dict[str, Any]:
    return {"applies": False, "passes": None}


def _placement(
    addresses: pd.Series, situs: pd.DataFrame, fractions: pd.Series, threshold: float
) -> pd.DataFrame:
    return place_addresses(addresses, situs=situs, fractions=fractions, threshold=threshold)


def evaluate(inputs: PetitionInputs, *, policy: PolicySection) -> Evaluation:
    """Run every test of the petition.

    Parameters
    ----------
    inputs
        The loaded petition (:func:`pipeline.io.load.load_inputs`).
    policy
        The policy section of the config (value basis, sliver tolerance, voter
        statuses, straddle threshold, coterminous tolerance).

    Returns
    -------
    Evaluation
        ``summary`` is the contract's ``summary.json`` object.
    """
    regime: Regime = REGIMES[inputs.regime]
    warnings: list[str] = list(inputs.notes)
    deficiencies: list[Deficiency] = []

    # --- territory and apportionment (§ 2-200; § 2-202.1.a(2)) --------------------
    territory_sq_mi = geodesic_area_sq_mi(inputs.territory, inputs.working_crs)
    parcels = _merge_duplicate_parcels(inputs.parcels)
    fractions = apportion(parcels, inputs.territory, sliver_tolerance=policy.sliver_tolerance)
    fractions.index = pd.Index(parcels[PARCEL_KEY].to_numpy(), name=PARCEL_KEY)
    parcel_area = pd.Series(parcels.geometry.area.to_numpy(), index=fractions.index)

    schedule = apportion_values(
        inputs.roll,
        fractions,
        apportionment_overrides=inputs.apportionment_overrides,
        value_basis=policy.value_basis,
    )
    part_areas = _part_areas(inputs, territory_sq_mi, schedule, parcel_area, warnings)
    several = len({t.swis for t in inputs.towns}) > 1
    rates = {t.swis: t.equalization_rate for t in inputs.towns if t.equalization_rate is not None}
    schedule = equalize(schedule, rates, missing="error" if several else "nan")

    # --- owners and signers ----------------------------------------------------------
    owners = parse_owners(inputs.roll, overrides=inputs.ownership_overrides)
    signatures, pages = inputs.signatures, inputs.pages
    if signatures is not None and pages is not None:
        matches = owner_matcher(
            signatures, pages, owners, inputs.roll, decisions=inputs.match_decisions
        )
        warnings += stale_decisions(
            inputs.match_decisions, signatures, pages, inputs.roll, inputs.voters
        )
    else:
        signatures = pd.DataFrame(
            columns=[
                "page",
                "line",
                "name",
                "address",
                "town",
                "signed_on",
                "signing_for",
                "credited_assessed_value",
                "source_row",
            ]
        )
        pages = pd.DataFrame(columns=["page", "basis", "stated_signature_count"])
        matches = owner_matcher(signatures, pages, owners, inputs.roll)
    schedule, owner_lines = credit_signers(schedule, owners, matches)

    basis_part, basis_def = basis_check(inputs.bases, regime=regime)
    deficiencies += basis_def
    if "owners" in inputs.bases and regime.owner_basis_allowed:
        otest = owner_test(schedule, towns=[t.swis for t in inputs.towns], parts_area=part_areas)
        deficiencies += otest.pop("deficiencies")
        otest["value_basis_column"] = policy.value_basis
    else:
        otest = {**_not_alleged(), "value_basis_column": policy.value_basis}

    # --- placement of voters, inhabitants, designees (§ 2-202.1.a(1), b, c(2)) -------
    situs = situs_addresses(inputs.roll)
    inside_fraction = (
        schedule.loc[schedule["fraction_source"] != "unmapped"]
        .drop_duplicates(PARCEL_KEY)
        .set_index(PARCEL_KEY)["fraction_in_territory"]
    )
    threshold = policy.straddle_voter_threshold
    resident_alleged = "residents" in inputs.bases
    if inputs.voters is not None:
        voter_place = _placement(voter_addresses(inputs.voters), situs, inside_fraction, threshold)
        rtest, resident_lines, rdef = resident_test(
            signatures,
            pages,
            inputs.voters,
            voter_place,
            statuses=policy.voter_statuses,
            regime=regime,
            alleged=resident_alleged,
            decisions=inputs.match_decisions,
        )
        deficiencies += rdef
    else:
        rtest = _not_alleged()
        resident_lines = pd.DataFrame(
            columns=["page", "line", "status", "matched_to", "match_score"]
        )
        if resident_alleged:
            rtest = {
                "applies": True,
                "qualified_voters": 0,
                "qualifying_signers": 0,
                "percent": 0.0,
                "passes": False,
            }
            warnings.append("the residents basis is alleged but no voter file is given")

    inhabitants_schedule = None
    if inputs.inhabitants is not None:
        inh_place = _placement(inputs.inhabitants["address"], situs, inside_fraction, threshold)
        population, pdef = population_check(inputs.inhabitants, inh_place, regime=regime)
        inhabitants_schedule = inhabitant_schedule(inputs.inhabitants, inh_place)
    else:
        population, pdef = population_check(
            pd.DataFrame(columns=["name", "address", "town", "source_row"]),
            _placement(pd.Series([], dtype="str"), situs, inside_fraction, threshold),
            regime=regime,
        )
    deficiencies += pdef

    designee_rows = [
        {"name": d.name, "address": d.address, "town": d.town} for d in inputs.designees
    ]
    des_place = _placement(
        pd.Series([d["address"] for d in designee_rows], dtype="str"),
        situs,
        inside_fraction,
        threshold,
    )
    designees, ddef = designees_check(designee_rows, des_place)
    deficiencies += ddef

    # --- area, existing village (§ 2-200) ------------------------------------------
    share = None
    if inputs.district is not None:
        district_area = inputs.district.area
        sym = inputs.territory.symmetric_difference(inputs.district).area
        share = sym / district_area if district_area > 0 else math.inf
    area, adef = area_check(
        territory_sq_mi,
        regime=regime,
        coterminous_with=inputs.coterminous_with,
        district_symmetric_difference_share=share,
        tolerance=policy.coterminous_tolerance,
    )
    deficiencies += adef
    in_territory = schedule.loc[schedule["fraction_in_territory"] > 0, "swis_code"]
    village_overlap = None
    if inputs.villages is not None:
        overlap = inputs.territory.intersection(inputs.villages)
        village_overlap = geodesic_area_sq_mi(overlap, inputs.working_crs)
    village, vdef = existing_village_check(in_territory, village_overlap_sq_mi=village_overlap)
    deficiencies += vdef

    # --- signature pages (§ 2-202.1.e) ------------------------------------------------
    if len(pages):
        _, wdef = witness_count_check(pages, signatures)
        _, ldef = line_checks(signatures, pages)
        deficiencies += wdef + ldef

    filing = filing_plan(part_areas)
    names = {t.swis: t.name for t in inputs.towns}
    summary: dict[str, Any] = {
        "regime": regime.name,
        "petition": {
            "name": inputs.name,
            "filed_on": inputs.filed_on.isoformat(),
            "bases": list(inputs.bases),
        },
        "territory": {
            "square_miles": territory_sq_mi,
            "towns": [
                {"swis": swis, "name": names.get(swis, ""), "square_miles": sq}
                for swis, sq in sorted(part_areas.items())
            ],
            "includes_existing_village": village["includes_existing_village"]
            if isinstance(village, Mapping) and "includes_existing_village" in village
            else bool(village),
            "working_crs": inputs.working_crs,
        },
        "rolls": [
            {
                "swis": t.swis,
                "name": t.name,
                "roll_year": t.roll_year,
                "equalization_rate": t.equalization_rate,
                "rate_source": t.rate_source,
            }
            for t in inputs.towns
        ],
        "owner_test": otest,
        "resident_test": rtest,
        "population": population,
        "area": area,
        "designees": designees,
        "filing": filing,
        "bases": basis_part,
        "deficiencies": deficiencies,
        "warnings": warnings,
    }
    summary["sufficient"] = sufficiency(summary)

    return Evaluation(
        summary=_json_ready(summary),
        parcels=_parcel_schedule(schedule, policy.value_basis),
        signatures=value_differences(
            _signature_schedule(signatures, pages, owner_lines, resident_lines),
            signatures,
            owner_matches=matches,
        ),
        inhabitants=inhabitants_schedule,
        data_quality=data_quality(inputs.roll, inputs.parcels),
        warnings=warnings,
        review=review_queue(signatures, pages, matches, resident_lines),
    )


def _parcel_schedule(schedule: pd.DataFrame, value_basis: str) -> pd.DataFrame:
    out = schedule.copy()
    out["value_basis"] = value_basis
    out["roll_row"] = out["source_row"]
    out = out.sort_values(["town_swis", "swis_code", PARCEL_KEY], kind="stable")
    return out.loc[:, list(PARCEL_SCHEDULE_COLUMNS)].reset_index(drop=True)


def _signature_schedule(
    signatures: pd.DataFrame,
    pages: pd.DataFrame,
    owner_lines: pd.DataFrame,
    resident_lines: pd.DataFrame,
) -> pd.DataFrame:
    if signatures.empty:
        return pd.DataFrame(columns=list(SIGNATURE_SCHEDULE_COLUMNS))
    basis = signatures["page"].map(pages.set_index("page")["basis"]).fillna("")
    base = pd.DataFrame(
        {
            "page": signatures["page"],
            "line": signatures["line"],
            "name": signatures["name"],
            "basis": basis,
        }
    )
    cols = ["status", "matched_to", "match_score"]
    res = resident_lines.set_index(["page", "line"])
    own = owner_lines.set_index(["page", "line"])
    key = pd.MultiIndex.from_frame(base[["page", "line"]])
    is_res = (basis == "residents").to_numpy()
    for col in cols:
        from_owner = own[col].reindex(key).to_numpy() if col in own else np.full(len(base), None)
        from_res = res[col].reindex(key).to_numpy() if col in res else np.full(len(base), None)
        base[col] = np.where(is_res, from_res, from_owner)
    for col in ("credit_assessed", "credit_full"):
        vals = own[col].reindex(key).to_numpy(dtype="float64") if col in own else 0.0
        base[col] = np.where(is_res, 0.0, np.nan_to_num(vals, nan=0.0))
    note_res = res["note"].reindex(key).to_numpy() if "note" in res else np.full(len(base), "")
    base["note"] = np.where(is_res, note_res, "")
    base["status"] = base["status"].fillna("page_defect")
    base["matched_to"] = base["matched_to"].fillna("")
    base["match_score"] = pd.to_numeric(base["match_score"], errors="coerce").fillna(0.0)
    base["note"] = base["note"].fillna("")
    base = base.sort_values(["page", "line"], kind="stable").reset_index(drop=True)
    return base.loc[:, list(SIGNATURE_SCHEDULE_COLUMNS)]


def _json_ready(value: Any) -> Any:
    """Plain JSON types: numpy scalars to Python, NaN to ``None``."""
    if isinstance(value, Mapping):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_ready(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, BaseGeometry):
        return value.wkt
    return value
