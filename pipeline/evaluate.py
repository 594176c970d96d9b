"""Every test of the petition, from the loaded inputs to the contract's results.

:func:`evaluate` is the pure core's front door: it takes the frames and
geometries of :class:`pipeline.model.PetitionInputs` and the policy, and returns
:class:`Evaluation` — the ``summary.json`` object, the parcel and signature
schedules and the data-quality report — without opening or writing a file.

It runs in two stages, which :class:`pipeline.scenario.Scenario` reuses:

* :func:`prepare` does everything that does not depend on the territory line
  (merged parcel polygons, owners, signature matching, placement of voters,
  inhabitants and designees on parcels by address, page checks);
* :func:`assess` runs every test for one territory and its parcel fractions
  (apportionment of values, equalization, signers' credits, owner, resident,
  population, designee, area, existing-village and filing checks).
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import geopandas as gpd
import numpy as np
import numpy.typing as npt
import pandas as pd
import shapely
from shapely.geometry.base import BaseGeometry

from pipeline.config import PolicySection
from pipeline.engines import FractionEngine, LocalEngine
from pipeline.errors import (
    InputError,
    files_named,
    roll_label,
)
from pipeline.frames import PARCEL_KEY, SIGNATURE_COLUMNS
from pipeline.geometry.apportion import polygonal
from pipeline.geometry.area import geodesic_area_sq_mi
from pipeline.geometry.territory import NOISE_AREA_SQ_FT, NOISE_WIDTH_FT, real_overlap
from pipeline.keys import print_key_order
from pipeline.law.checks import (
    affidavit_check,
    area_check,
    basis_check,
    designees_check,
    existing_village_check,
    inhabitant_identities,
    inhabitant_schedule,
    line_checks,
    population_check,
    sufficiency,
    unauthenticated_lines,
    witness_count_check,
)
from pipeline.law.deficiency import Deficiency, deficiency_for
from pipeline.law.filing import filing_plan
from pipeline.law.regimes import REGIMES, Regime
from pipeline.model import PetitionInputs
from pipeline.people.matching import owner_matcher, roll_lookups
from pipeline.people.owners import owner_quality, parse_owners
from pipeline.people.placement import (
    REASON_OTHER_TOWN,
    hold_to_places,
    hold_to_towns,
    place_addresses,
    situs_addresses,
    situs_index,
    town_codes,
    unplace_unmapped,
)
from pipeline.people.review import (
    review_queue,
    stale_decisions,
    value_differences,
    with_unlisted_lines,
)
from pipeline.people.voters import (
    VoterTowns,
    current_registrations,
    match_resident_lines,
    resident_decisions_not_applied,
    resident_test,
    status_at_filing,
    unplaced_voters_deficiency,
    unplaced_voters_warning,
    voter_addresses,
)
from pipeline.quality import data_quality
from pipeline.tools.frames import isin
from pipeline.tools.processes import Forked, fork_call, run_here
from pipeline.town_parts import (
    check_part_rates,
    part_areas,
    tie_warning,
    towns_with_parts,
    with_value_parts,
)
from pipeline.valuation import (
    apportion_values,
    credit_signers,
    equalize,
    owner_test,
    taxable_basis_warnings,
)

__all__ = [
    "PARCEL_SCHEDULE_COLUMNS",
    "SIGNATURE_SCHEDULE_COLUMNS",
    "Assessment",
    "Evaluation",
    "Prepared",
    "assess",
    "evaluate",
    "evaluation_of",
    "finish_summary",
    "owner_part",
    "part_areas",
    "prepare",
    "relocate",
    "resident_absent",
    "stale_overrides",
]

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
    "roll_year",
    "regime",
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

#: Rolls with at least this many records have their owners parsed in a
#: forked child during :func:`prepare`; below it a fork costs more than it saves.
_FORK_ROLL_RECORDS = 20_000
#: Petitions with at least this many signature lines, or entries in the list of
#: inhabitants, have their resident lines matched and their inhabitants
#: identified in a forked child during :func:`prepare`.
_FORK_LINES = 2_000

_RESIDENT_LINES = ("page", "line", "status", "matched_to", "match_score")


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
    #: Voters whose residence could not be placed on a parcel
    #: (``voters-unplaced.csv``: listed for review, not guessed, rules § 3);
    #: None without a voter file.
    unplaced_voters: pd.DataFrame | None = None


# --------------------------------------------------------------------------- stage 1


@dataclass(frozen=True, eq=False)
class Prepared:
    """Everything of a petition that does not depend on the territory line.

    Built by :func:`prepare`; read by :func:`assess` and by
    :class:`pipeline.scenario.Scenario`. The placements hold each person's
    parcel (``parcel_key``, ``placed``) with no territory yet: :func:`relocate`
    puts a territory's fractions in.
    """

    inputs: PetitionInputs
    policy: PolicySection
    regime: Regime
    #: One polygon per parcel key (a key drawn as several polygons is their union), 0..n-1.
    parcels: gpd.GeoDataFrame
    keys: pd.Index
    parcel_area: pd.Series
    owners: pd.DataFrame
    matches: pd.DataFrame
    signatures: pd.DataFrame
    pages: pd.DataFrame
    stale_warnings: tuple[str, ...]
    voter_place: pd.DataFrame | None
    inhabitant_place: pd.DataFrame | None
    designee_rows: tuple[dict[str, str], ...]
    designee_place: pd.DataFrame
    page_deficiencies: tuple[Deficiency, ...]
    #: What does not join between roll and parcels, and the owners' notes
    #: (:func:`pipeline.quality.data_quality`, ``"owners"``:
    #: :func:`pipeline.people.owners.owner_quality`); no territory in it.
    data_quality: dict[str, Any]
    #: The resident-page lines matched to the voter file
    #: (:func:`pipeline.people.voters.match_resident_lines`), None without a
    #: voter file; no territory in it.
    resident_matches: pd.DataFrame | None = None
    #: Who each entry of the list of inhabitants is, whatever the territory
    #: (:func:`pipeline.law.checks.inhabitant_identities`); None without a list.
    inhabitant_identities: pd.DataFrame | None = None
    #: Where :meth:`fractions` runs (:mod:`pipeline.engines`); None: in process.
    engine: FractionEngine | None = None
    #: ``parcel_key`` -> ``"swis:print_key"`` as the roll writes it (the labels
    #: of :func:`~pipeline.people.matching.roll_lookups`), for notes.
    parcel_labels: Mapping[str, str] = field(default_factory=dict)

    @functools.cached_property
    def _review_counts(self) -> dict[tuple[str, ...], dict[str, Any]]:
        """:func:`pending_review` by the bases not tested (filled on first use)."""
        return {}

    @functools.cached_property
    def polygons_without_roll(self) -> np.ndarray:
        """Positions (in :attr:`keys`) of the parcel polygons whose key joins no roll record.

        No territory in it (computed once, for the run and every scenario);
        :func:`polygons_without_roll_warning` names those in a territory.
        """
        return np.flatnonzero(~isin(self.keys, self.inputs.roll[PARCEL_KEY].astype("str")))

    @functools.cached_property
    def cross_town_keys(self) -> frozenset[str]:
        """Parcels with more than the sliver tolerance of their area in another town's polygon.

        No territory in it (computed once, for the run and every scenario):
        only these can lie in the part of a town other than their roll's
        (:func:`_parcels_in_another_part`): the parcels of other towns in each
        town polygon given. Empty without town polygons or with one town. A
        parcel's town is that of its key's SWIS code.
        """
        towns = [t for t in self.inputs.towns if t.boundary is not None]
        if not towns or len(self.inputs.towns) < 2:
            return frozenset()
        from pipeline.geometry import apportion_table

        keys = np.asarray(self.keys.astype("str"), dtype=object)
        town_of = np.asarray([k[:4] + "00" for k in keys], dtype=object)
        geoms = np.asarray(self.parcels.geometry.values, dtype=object)
        bounds = shapely.bounds(geoms)
        tolerance = self.policy.sliver_tolerance
        found: set[str] = set()
        for t in towns:
            x0, y0, x1, y1 = shapely.bounds(t.boundary)
            near = (
                (town_of != t.swis)
                & (bounds[:, 0] <= x1)
                & (bounds[:, 2] >= x0)
                & (bounds[:, 1] <= y1)
                & (bounds[:, 3] >= y0)
            )
            if near.any():
                share = apportion_table(gpd.GeoSeries(geoms[near]), t.boundary)["raw_fraction"]
                found.update(keys[near][share.to_numpy() > tolerance].tolist())
        return frozenset(found)

    @property
    def rates(self) -> dict[str, float]:
        """Town SWIS -> equalization rate (percent), towns with a rate only."""
        return {
            t.swis: t.equalization_rate
            for t in self.inputs.towns
            if t.equalization_rate is not None
        }

    @property
    def several_towns(self) -> bool:
        """Whether the petition names more than one town (full values, parts)."""
        return len({t.swis for t in self.inputs.towns}) > 1

    @property
    def owner_test_applies(self) -> bool:
        """Whether the owners basis is alleged and the regime has that route (§ 2-202.1.a(2))."""
        return _owner_route(self.inputs, self.regime)

    def fractions(self, territory: BaseGeometry) -> pd.DataFrame:
        """:func:`pipeline.geometry.apportion_table` of every parcel, indexed by ``parcel_key``."""
        engine = self.engine or LocalEngine()
        out = engine.fractions(
            self.parcels, territory, sliver_tolerance=self.policy.sliver_tolerance
        )
        out.index = self.keys
        return out


def _owner_route(inputs: PetitionInputs, regime: Regime) -> bool:
    """Whether the owners basis is alleged and the regime has that route (§ 2-202.1.a(2))."""
    return "owners" in inputs.bases and regime.owner_basis_allowed


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


def prepare(
    inputs: PetitionInputs, *, policy: PolicySection, engine: FractionEngine | None = None
) -> Prepared:
    """Everything that does not depend on the territory, computed once.

    Parameters
    ----------
    inputs
        The loaded petition (:func:`pipeline.io.load.load_inputs`).
    policy
        The policy section of the config.
    engine
        Where :meth:`Prepared.fractions` runs (:func:`pipeline.engines.open_engine`);
        None runs :func:`pipeline.geometry.apportion_table` in this process.

    Returns
    -------
    Prepared
        Merged parcel polygons and their areas, owners
        (:func:`~pipeline.people.owners.parse_owners`), the owner-page matches
        (:func:`~pipeline.people.matching.owner_matcher`) and stale-decision
        warnings, the placement of voters, inhabitants and designees on
        parcels by address (no territory yet), the resident-page lines
        matched to the voter file
        (:func:`~pipeline.people.voters.match_resident_lines`), the page
        deficiencies (witness counts, line checks) and the data-quality notes.

    Notes
    -----
    On Linux a large petition uses a second process
    (:mod:`pipeline.tools.processes`): the owners are parsed in a forked child
    while this process places addresses; then the resident lines are matched to
    the voter file, and the entries of the list of inhabitants identified
    (:func:`~pipeline.law.checks.inhabitant_identities`), in a child while this
    process builds the owner index, and
    every other owner line is matched in a child. ``PETITION_PROCESSES=1``
    keeps everything in this process; the result is the same.
    """
    parcels = _merge_duplicate_parcels(inputs.parcels).reset_index(drop=True)
    keys = pd.Index(parcels[PARCEL_KEY].astype("str").to_numpy(), name=PARCEL_KEY)
    parcel_area = pd.Series(shapely.area(np.asarray(parcels.geometry.values)), index=keys)

    # the owners are parsed (and the data-quality notes counted) in a forked
    # child while this process places addresses on parcels and reads the roll's
    # addresses for matching; same frames either way, small rolls stay here
    parse = partial(_owners_and_quality, inputs)
    pending = fork_call(parse) if len(inputs.roll) >= _FORK_ROLL_RECORDS else None
    try:
        # the roll's situs addresses, normalised once for matching and placement
        situs_frame = situs_addresses(inputs.roll)
        situs_norm = situs_frame["address_norm"]
        situs = situs_index(situs_frame)
        nowhere = pd.Series([], dtype="float64")
        threshold = policy.straddle_voter_threshold

        town_names = {t.swis: t.name for t in inputs.towns}
        # the roll's addresses for matching, and the places local to the towns
        # (their post offices), which placement holds people to as well
        lookups = roll_lookups(
            inputs.roll, situs_norm=situs_norm, places={t.name: t.swis for t in inputs.towns}
        )

        def column(frame: pd.DataFrame, name: str) -> pd.Series:
            return frame[name] if name in frame else pd.Series("", index=frame.index, dtype="str")

        def place(
            addresses: pd.Series, towns: pd.Series, cities: pd.Series | None = None
        ) -> pd.DataFrame:
            # the person's town (when it names a town of the petition) decides
            # between parcels of one address in several towns; a town or city
            # that is no place of the towns (10 Main St, Albany) is another home
            placed = place_addresses(
                addresses,
                situs=situs,
                fractions=nowhere,
                threshold=threshold,
                towns=town_codes(towns, town_names),
            )
            return hold_to_places(
                placed, towns if cities is None else cities, towns=town_names, local=lookups.local
            )

        voters = inputs.voters
        voter_place = None
        voter_towns = None
        voter_notes: list[str] = []
        if voters is not None:
            # the voter's town: TOWNCITY (the town of residence the board
            # records) when it names a town of the petition, else RCITY (the
            # postal city, which often is the town's name)
            towncity = column(voters, "TOWNCITY")
            board_town = town_codes(towncity, town_names)
            named = board_town != ""
            # the postal city is held to the towns' places only where the
            # board records no town (a TOWNCITY of another town: hold_to_towns)
            rcity = column(voters, "RCITY")
            no_town = towncity.fillna("").astype(str).str.strip() == ""
            voter_place = place(
                voter_addresses(voters),
                towncity.where(named, rcity),
                rcity.where(no_town, ""),
            )
            # each voter's town: the board's (TOWNCITY), else the roll's of the
            # parcel the voter is placed on
            parcel_towns = _parcel_towns(situs_frame)
            voter_towns = board_town.where(
                named,
                voter_place[PARCEL_KEY].astype(str).map(parcel_towns).fillna("").astype(str),
            )
            if named.any():
                voter_notes = _other_town_note(voter_place, towncity, named)
                # TOWNCITY is the board's record of the town of residence (a
                # column of town names, since some name a town of the petition):
                # a voter of another town is not a resident of the territory,
                # and one of a petition town lives on that town's roll
                voter_place = hold_to_towns(
                    voter_place,
                    towns=board_town,
                    elsewhere=~named & (towncity.fillna("").astype(str).str.strip() != ""),
                    parcel_towns=parcel_towns,
                )
        inh = inputs.inhabitants
        inhabitant_place = place(inh["address"], column(inh, "town")) if inh is not None else None
        designee_rows = tuple(
            {"name": d.name, "address": d.address, "town": d.town} for d in inputs.designees
        )
        designee_place = place(
            pd.Series([d["address"] for d in designee_rows], dtype="str"),
            pd.Series([d["town"] for d in designee_rows], dtype="str"),
        )
        # a person at a roll record without a polygon (and no override) cannot be placed
        mapped = pd.Index(inputs.parcels[PARCEL_KEY].astype("str").unique())
        if inputs.apportionment_overrides is not None and len(inputs.apportionment_overrides):
            ov_keys = inputs.apportionment_overrides[PARCEL_KEY].astype("str").unique()
            mapped = mapped.append(pd.Index(ov_keys)).unique()
        if voter_place is not None:
            voter_place = unplace_unmapped(voter_place, mapped)
        if inhabitant_place is not None:
            inhabitant_place = unplace_unmapped(inhabitant_place, mapped)
        designee_place = unplace_unmapped(designee_place, mapped)
    except BaseException:
        if pending is not None:
            pending.result()  # the owners' error, when there is one, comes first
        raise
    owners, quality = pending.result() if pending is not None else parse()

    signatures, pages = inputs.signatures, inputs.pages
    given = signatures is not None and pages is not None
    if signatures is None or pages is None:
        signatures = pd.DataFrame(columns=list(SIGNATURE_COLUMNS))
        pages = pd.DataFrame(columns=["page", "basis", "stated_signature_count"])
    # the resident lines are matched to the voter file, and the entries of the
    # list of inhabitants identified (no territory needed), in a forked child
    # while this process builds the owner index and matches the owner lines; a
    # large petition only, same frames either way
    residents: Forked[tuple[pd.DataFrame | None, pd.DataFrame | None]] | None = None
    if (inputs.voters is not None and voter_place is not None) or inhabitant_place is not None:
        large = len(signatures) >= _FORK_LINES or len(inh if inh is not None else ()) >= _FORK_LINES
        residents = (fork_call if large else run_here)(
            partial(
                _resident_side,
                signatures,
                pages,
                inputs,
                voter_place,
                inhabitant_place,
                statuses=policy.voter_statuses,
                towns=None
                if voter_towns is None
                else VoterTowns(
                    names=town_names,
                    of_voter=voter_towns,
                    addresses=frozenset(
                        (situs_frame["address_norm"] + "|" + situs_frame["town_swis"]).tolist()
                    ),
                ),
            )
        )
    stale: list[str] = list(voter_notes)
    stale += _counts_below_names(owners, inputs.ownership_overrides)
    try:
        matches = owner_matcher(
            signatures,
            pages,
            owners,
            inputs.roll,
            decisions=inputs.match_decisions if given else None,
            lookups=lookups,
            filed_on=inputs.filed_on,
        )
        if given:
            stale += stale_decisions(
                inputs.match_decisions, signatures, pages, inputs.roll, inputs.voters
            )
            stale += _decisions_not_applied(
                inputs.match_decisions, signatures, pages, matches, filed_on=inputs.filed_on
            )
            if inputs.voters is not None:
                stale += resident_decisions_not_applied(
                    inputs.match_decisions, signatures, pages, inputs.voters
                )
    except BaseException:
        if residents is not None:
            residents.cancel()
        raise
    resident_matches, identities = residents.result() if residents is not None else (None, None)

    page_defs: list[Deficiency] = []
    if len(pages):
        _, wdef = witness_count_check(pages, signatures)
        _, adef = affidavit_check(
            pages,
            filed_on=inputs.filed_on,
            sworn_recorded="pages.sworn_on" not in inputs.unrecorded,
        )
        wdef += adef
        _, ldef = line_checks(
            signatures, pages, towns_recorded="signatures.town" not in inputs.unrecorded
        )
        if not _owner_route(inputs, REGIMES[inputs.regime]):
            # the valuation credited to an owner (§ 2-202.1.e(3)) is asked for only
            # where the petition stands on owners: its lines count toward nothing
            ldef = [d for d in ldef if d["code"] != "owner_page_without_value"]
        page_defs = wdef + ldef
    return Prepared(
        inputs=inputs,
        policy=policy,
        regime=REGIMES[inputs.regime],
        parcels=parcels,
        keys=keys,
        parcel_area=parcel_area,
        owners=owners,
        matches=matches,
        signatures=signatures,
        pages=pages,
        stale_warnings=tuple(stale),
        voter_place=voter_place,
        inhabitant_place=inhabitant_place,
        designee_rows=designee_rows,
        designee_place=designee_place,
        page_deficiencies=tuple(page_defs),
        data_quality=quality,
        resident_matches=resident_matches,
        inhabitant_identities=identities,
        engine=engine,
        parcel_labels=lookups.labels,
    )


def _stale_rolls(
    inputs: PetitionInputs, areas: Mapping[str, float], *, owner_test: Mapping[str, Any]
) -> list[Deficiency]:
    """``roll_not_last_completed``: the owner test stands on a roll the law does not name.

    § 2-202.1.a(2) counts value "assessed upon the last completed assessment
    roll"; a town the territory reaches whose roll used is of another year (an
    older single roll file, or a year asked for) makes the owner figures, and
    the certification upon them, not the ones the law asks for. Only where the
    owner test applies.
    """
    if not owner_test.get("applies"):
        return []
    stale = [
        t
        for t in inputs.towns
        if t.swis in areas
        and t.last_completed_roll_year is not None
        and t.roll_year != t.last_completed_roll_year
    ]
    if not stale:
        return []
    told = "; ".join(
        f"{t.name} ({t.swis}): roll of {t.roll_year} used, last completed "
        f"{t.last_completed_roll_year}"
        for t in stale
    )
    return [
        deficiency_for(
            "roll_not_last_completed",
            f"the owner test is computed on a roll that is not the last completed as of "
            f"{inputs.filed_on.isoformat()}: {told}",
            ", ".join(f"town {t.swis}" for t in stale),
        )
    ]


def _other_town_note(placement: pd.DataFrame, towncity: pd.Series, named: pd.Series) -> list[str]:
    """A warning naming the voters of other towns whose address is on the petition's rolls.

    They are listed for review and not counted
    (:func:`~pipeline.people.placement.hold_to_towns`, ``town_differs``); a
    town of the petition that the voter file spells otherwise than the config
    would lose its voters this way, so the ``TOWNCITY`` values are named.
    """
    text = towncity.fillna("").astype(str).str.strip()
    found = placement["placed"].astype(bool) & ~named & (text != "")
    if not found.any():
        return []
    counts = text[found].str.upper().value_counts()
    counts = counts.sort_index(kind="stable").sort_values(ascending=False, kind="stable")
    shown = ", ".join(f"{name} ({n:,})" for name, n in counts.head(5).items())
    more = f" and {len(counts) - 5} more" if len(counts) > 5 else ""
    return [
        f"{int(found.sum()):,} voter(s) whose residence address is on a roll of the petition "
        f"are recorded by the board in towns not of the petition (TOWNCITY: {shown}{more}): "
        "listed for review in voters-unplaced.csv (town_differs), not counted; if one of "
        "these is a town of the petition spelled otherwise, name the town in the config as "
        "the voter file does"
    ]


def _parcel_towns(situs: pd.DataFrame) -> pd.Series:
    """``parcel_key`` -> the SWIS of its roll, from :func:`situs_addresses`."""
    known = situs.loc[situs["town_swis"] != "", [PARCEL_KEY, "town_swis"]]
    known = known.drop_duplicates(subset=[PARCEL_KEY])
    return pd.Series(known["town_swis"].to_numpy(), index=known[PARCEL_KEY].to_numpy())


def _resident_side(
    signatures: pd.DataFrame,
    pages: pd.DataFrame,
    inputs: PetitionInputs,
    voter_place: pd.DataFrame | None,
    inhabitant_place: pd.DataFrame | None,
    *,
    towns: VoterTowns | None = None,
    statuses: Collection[str] = (),
) -> tuple[pd.DataFrame | None, pd.DataFrame | None]:
    """The resident lines matched to the voter file, and who each inhabitant is.

    :func:`~pipeline.people.voters.match_resident_lines` (None without a voter
    file) and :func:`~pipeline.law.checks.inhabitant_identities` (None without
    a list of inhabitants); neither depends on the territory.
    """
    matches = None
    if inputs.voters is not None and voter_place is not None:
        matches = match_resident_lines(
            signatures,
            pages,
            inputs.voters,
            voter_place,
            towns=towns,
            current=current_registrations(
                inputs.voters, statuses=statuses, filed_on=inputs.filed_on
            ),
        )
    identities = None
    if inputs.inhabitants is not None and inhabitant_place is not None:
        identities = inhabitant_identities(inputs.inhabitants, inhabitant_place)
    return matches, identities


def _counts_below_names(owners: pd.DataFrame, overrides: pd.DataFrame | None) -> list[str]:
    """A warning for ownership overrides giving fewer owners than the roll names.

    An override that gives a count without names keeps the roll's owners and
    divides by its count (:func:`~pipeline.people.owners.parse_owners`): with
    fewer owners than names, the parcel is credited ``signers / count`` of its
    value, at most the whole. That may be the assessor's meaning (one named
    owner sold), but the override does not say which names no longer own the
    parcel.
    """
    if overrides is None or not len(overrides):
        return []
    bare = overrides.loc[[len(o) == 0 for o in overrides["owners"]]]
    if bare.empty:
        return []
    sizes = owners.loc[owners["owner_source"] != "override"].groupby(PARCEL_KEY).size()
    named: dict[str, int] = {str(k): int(v) for k, v in sizes.items()}
    labels = (bare["swis_code"].astype("str") + ":" + bare["print_key_code"].astype("str")).tolist()
    counts = bare["owner_count"].to_numpy(dtype=np.int64).tolist()
    keys = bare[PARCEL_KEY].astype("str").tolist()
    found = [
        (label, count, named.get(key, 0))
        for label, count, key in zip(labels, counts, keys, strict=True)
        if named.get(key, 0) > count
    ]
    if not found:
        return []
    shown = ", ".join(f"{k} ({c} given, {n} named)" for k, c, n in found[:5])
    more = f" and {len(found) - 5} more" if len(found) > 5 else ""
    return [
        f"ownership overrides give fewer owners than the roll names for {len(found)} "
        f"parcel(s): {shown}{more}. A parcel is credited (signing owners / owner_count) of "
        "its value, at most the whole, shared among the signers' lines; if some owners the "
        "roll names no longer own the parcel, name the owners in the override's owners column"
    ]


def _owners_and_quality(inputs: PetitionInputs) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The owners of the roll and the data-quality notes of roll, parcels and owners."""
    owners = parse_owners(inputs.roll, overrides=inputs.ownership_overrides)
    quality = {
        **data_quality(inputs.roll, inputs.parcels),
        "owners": owner_quality(owners, inputs.roll),
    }
    return owners, quality


#: A parcel's fraction within this of the straddle threshold is at it: a
#: boundary drawn along a parcel's middle and saved in another CRS gives
#: 0.4999999999871943 for the half of it (reprojection noise, not a boundary
#: choice), and a person there would drop out of the territory.
STRADDLE_TOLERANCE = 1e-9


def at_threshold(fraction: Any, threshold: float) -> Any:
    """Whether a parcel's fraction in the territory puts the people on it inside.

    ``fraction >= threshold - STRADDLE_TOLERANCE`` (elementwise; NaN is not
    inside): the straddle threshold (``policy.straddle_voter_threshold``,
    default 0.5, inclusive) less :data:`STRADDLE_TOLERANCE`.
    """
    return fraction >= threshold - STRADDLE_TOLERANCE


def relocate(placement: pd.DataFrame, inside_fraction: pd.Series, threshold: float) -> pd.DataFrame:
    """A placement of :func:`prepare` with a territory's fractions put in.

    Parameters
    ----------
    placement
        From :func:`pipeline.people.placement.place_addresses`.
    inside_fraction
        ``parcel_key`` -> fraction of the parcel in the territory.
    threshold
        ``policy.straddle_voter_threshold``.

    Returns
    -------
    pandas.DataFrame
        ``placement`` with ``fraction`` and ``inside`` recomputed.

    Notes
    -----
    The rule of :func:`pipeline.people.placement.place_addresses`: a placed
    address on a parcel absent from ``inside_fraction`` has fraction 0;
    ``inside = placed and fraction >= threshold`` (:func:`at_threshold`).
    """
    placed = placement["placed"]
    fraction = placement[PARCEL_KEY].map(inside_fraction).astype("float64")
    fraction = fraction.where(~placed | fraction.notna(), 0.0).where(placed, np.nan)
    return placement.assign(fraction=fraction, inside=(placed & at_threshold(fraction, threshold)))


# --------------------------------------------------------------------------- shared pieces


def _line_defects(
    signatures: pd.DataFrame, pages: pd.DataFrame, *, filed_on: dt.date | None
) -> np.ndarray:
    """Why each line cannot count whatever is decided on it (``""``: it can).

    A line without a name or an address, or one its page's affidavit does not
    authenticate (:func:`~pipeline.law.checks.unauthenticated_lines`).
    """
    why = unauthenticated_lines(signatures, pages, filed_on=filed_on).to_numpy()
    name = signatures["name"].fillna("").astype("str").str.strip().to_numpy()
    address = signatures["address"].fillna("").astype("str").str.strip().to_numpy()
    blank = (name == "") | (address == "")
    out: np.ndarray = np.where(blank, "line without a name or an address", why)
    return out


def _decisions_not_applied(
    decisions: pd.DataFrame | None,
    signatures: pd.DataFrame,
    pages: pd.DataFrame,
    matches: pd.DataFrame,
    *,
    filed_on: dt.date,
) -> list[str]:
    """Warnings for match decisions that had no effect on their line.

    A decision on a line that does not count whatever is decided (a
    ``page_defect``: no name or address, signed too late, a page without its
    witness's affidavit), and an accept that names a parcel none of whose
    owners resembles the line's name (``match decision not applied`` in the
    line's note), are told to the reviewer instead of passing in silence.
    """
    if decisions is None or not len(decisions) or not len(signatures):
        return []
    key = pd.MultiIndex.from_arrays(
        [signatures["page"].astype("int64"), signatures["line"].astype("int64")]
    )
    reason = dict(zip(key, _line_defects(signatures, pages, filed_on=filed_on), strict=True))
    unfit = {
        (int(p), int(q)): str(n)
        for p, q, n in zip(matches["page"], matches["line"], matches["note"], strict=True)
        if str(n).startswith("match decision not applied")
    }
    out: list[str] = []
    seen: set[tuple[int, int]] = set()
    for p, q in zip(
        decisions["page"].astype("int64"), decisions["line"].astype("int64"), strict=True
    ):
        at = (int(p), int(q))
        if at in seen:
            continue
        seen.add(at)
        if reason.get(at):
            out.append(
                f"match decision for line {p}:{q} not applied: the line does not count "
                f"({reason[at]})"
            )
        elif at in unfit:
            out.append(f"line {p}:{q}: {unfit[at]}")
    return out


def _not_alleged(test: str = "") -> dict[str, Any]:
    """A test that does not apply: the contract's keys, figures null."""
    figures: dict[str, Any] = {}
    if test == "owner":
        figures = {
            "value_basis": None,
            "total_value": None,
            "signer_value": None,
            "percent": None,
            "parts": [],
        }
    elif test == "resident":
        figures = {"qualified_voters": None, "qualifying_signers": None, "percent": None}
    return {"applies": False, **figures, "passes": None}


def owner_part(
    prepared: Prepared, schedule: pd.DataFrame, areas: Mapping[str, float]
) -> tuple[dict[str, Any], list[Deficiency]]:
    """The summary's ``owner_test`` (:func:`~pipeline.valuation.owner_test` when alleged).

    ``schedule`` is :func:`~pipeline.valuation.credit_signers`' schedule, or
    any frame with the same per-town sums (the owner test only adds up).
    """
    policy, inputs = prepared.policy, prepared.inputs
    if prepared.owner_test_applies:
        towns_col = schedule["town_swis"].astype("str")
        part_towns = towns_with_parts(inputs, schedule, areas)
        keep = towns_col.isin(part_towns).to_numpy()
        otest = owner_test(
            schedule.loc[keep],
            towns=part_towns,
            parts_area={s: a for s, a in areas.items() if s in part_towns},
            rates=prepared.rates,
            value_basis=policy.value_basis,
        )
        defs: list[Deficiency] = otest.pop("deficiencies")
        otest["value_basis_column"] = policy.value_basis
        otest["towns_not_reached"] = [t.swis for t in inputs.towns if t.swis not in part_towns]
        return otest, defs
    return {**_not_alleged("owner"), "value_basis_column": policy.value_basis}, []


def resident_absent(
    prepared: Prepared, warnings: list[str]
) -> tuple[dict[str, Any], list[Deficiency]]:
    """The summary's ``resident_test`` and its deficiency when no voter file is given.

    Alleged without a voter file, the test fails: no qualified voter can be
    counted (``resident_percent_not_met``, § 2-202.1.a(1)).
    """
    if "residents" not in prepared.inputs.bases:
        return _not_alleged("resident"), []
    warnings.append("the residents basis is alleged but no voter file is given")
    test = {
        "applies": True,
        "qualified_voters": 0,
        "qualifying_signers": 0,
        "percent": 0.0,
        "passes": False,
    }
    return test, [
        deficiency_for(
            "resident_percent_not_met",
            "the residents basis is alleged but no voter file is given: the qualified "
            "voters of the territory cannot be counted",
        )
    ]


def finish_summary(
    prepared: Prepared,
    territory: BaseGeometry,
    *,
    territory_sq_mi: float,
    areas: Mapping[str, float],
    in_territory_swis: pd.Series,
    tests: Mapping[str, Any],
    test_deficiencies: list[Deficiency],
    warnings: list[str],
    resident_lines: pd.DataFrame | None = None,
) -> dict[str, Any]:
    """Assemble the ``summary.json`` object (JSON-ready) from the territory's tests.

    Parameters
    ----------
    prepared
        From :func:`prepare`.
    territory
        The territory.
    territory_sq_mi
        Its geodesic area.
    areas
        Town SWIS -> square miles of the part (:func:`part_areas`).
    in_territory_swis
        ``swis_code`` of the roll records part of whose land lies in the
        territory (the existing-village check; see :func:`_on_land_inside`).
    tests
        ``owner_test``, ``resident_test``, ``population``, ``designees``.
    test_deficiencies
        Their deficiencies, in that order.
    warnings
        The run's warnings (kept by reference).
    resident_lines
        The resident-page lines of :func:`~pipeline.people.voters.resident_test`
        for any territory (which lines await review does not depend on it;
        None without a voter file): the ``review`` counts
        (:func:`pending_review`).

    Returns
    -------
    dict
        Basis, area, existing-village and filing checks are run here; the
        deficiencies are listed basis first, then the tests', area,
        existing village, pages.
    """
    inputs, policy, regime = prepared.inputs, prepared.policy, prepared.regime
    basis_part, deficiencies = basis_check(inputs.bases, regime=regime)
    deficiencies = list(deficiencies) + list(test_deficiencies)

    share = sym_sq_mi = None
    if inputs.district is not None:
        # both areas on the ellipsoid, as the territory's (rules § 1): the share
        # does not depend on the CRS the work is done in
        sym_geom = territory.symmetric_difference(inputs.district)
        sym_sq_mi = geodesic_area_sq_mi(sym_geom, inputs.working_crs) if sym_geom.area else 0.0
        district_sq_mi = (
            geodesic_area_sq_mi(inputs.district, inputs.working_crs)
            if inputs.district.area > 0
            else 0.0
        )
        share = sym_sq_mi / district_sq_mi if district_sq_mi > 0 else math.inf
    area, adef = area_check(
        territory_sq_mi,
        regime=regime,
        coterminous_with=inputs.coterminous_with,
        district_symmetric_difference_share=share,
        tolerance=policy.coterminous_tolerance,
        district_symmetric_difference_sq_mi=sym_sq_mi,
        coterminous_kind=inputs.coterminous_kind,
        warnings=warnings,
        towns=[t.name for t in inputs.towns],
    )
    deficiencies += adef
    village_overlap = None
    if inputs.villages is not None:
        overlap = polygonal(territory.intersection(inputs.villages))
        real = real_overlap(overlap, inputs.working_crs)
        if overlap.is_empty:
            village_overlap = 0.0
        elif real.is_empty:
            # strips along a shared boundary: digitising noise, not a part of the village
            village_overlap = 0.0
            warnings.append(
                f"the territory overlaps a village polygon by "
                f"{geodesic_area_sq_mi(overlap, inputs.working_crs):.6f} square miles in "
                f"strips narrower than {NOISE_WIDTH_FT:g} ft (or pieces under "
                f"{NOISE_AREA_SQ_FT:,.0f} sq ft): taken as digitising noise along the boundary"
            )
        else:
            village_overlap = geodesic_area_sq_mi(real, inputs.working_crs)
    village, vdef = existing_village_check(in_territory_swis, village_overlap_sq_mi=village_overlap)
    deficiencies += vdef
    deficiencies += _stale_rolls(inputs, areas, owner_test=tests["owner_test"])
    deficiencies += prepared.page_deficiencies

    names = {t.swis: t.name for t in inputs.towns}
    tie_warning(areas, warnings)
    if not regime.supervisor_filing:
        warnings.append(
            f"under the {regime.name} law a petition is filed with the Village Incorporation "
            "Commission, not with the town supervisors: the filing plan of § 2-202.1.f "
            "(original, copies and a $6,000 deposit with each supervisor) is shown for "
            "reference only"
        )
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
                for swis, sq in sorted(areas.items())
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
                "last_completed_roll_year": t.last_completed_roll_year,
            }
            for t in inputs.towns
        ],
        "owner_test": tests["owner_test"],
        "resident_test": tests["resident_test"],
        "population": tests["population"],
        "area": area,
        "designees": tests["designees"],
        "filing": filing_plan(areas),
        "bases": basis_part,
        "deficiencies": deficiencies,
        "warnings": warnings,
    }
    summary["review"] = pending_review(prepared, resident_lines, tested=_bases_tested(summary))
    pending = summary["review"]
    if pending["lines_pending"]:
        warnings.append(
            f"{pending['lines_pending']:,} signature line(s) await review "
            f"({pending['owner_lines_pending']:,} on owner pages, "
            f"{pending['resident_lines_pending']:,} on resident pages; review.csv): none is "
            "credited until a match decision settles it, so the signers' value and the "
            "qualifying signers may rise"
        )
    summary["sufficient"] = sufficiency(summary)
    ready: dict[str, Any] = _json_ready(summary)
    return ready


def pending_review(
    prepared: Prepared, resident_lines: pd.DataFrame | None, *, tested: Mapping[str, str]
) -> dict[str, Any]:
    """The signature lines awaiting review (``needs_review``), in all and by page basis.

    Such a line is credited nothing until a match decision settles it: the
    owner test's signers' value and the resident test's qualifying signers
    leave it out, and the summary says so (key ``review``). Counted on the
    lines as ``signatures.csv`` gives them (:func:`_signature_schedule`): an
    owner line's review comes from matching, a resident line's from
    :func:`~pipeline.people.voters.resident_test` (ambiguous, or a voter whose
    residence cannot be placed), neither from the territory, so a boundary
    alternative has the same count: computed once per petition (and bases not
    tested), for the run and every scenario.
    """
    key = tuple(sorted(tested))
    if key not in prepared._review_counts:
        prepared._review_counts[key] = _pending_review(prepared, resident_lines, tested=tested)
    return dict(prepared._review_counts[key])


def _pending_review(
    prepared: Prepared, resident_lines: pd.DataFrame | None, *, tested: Mapping[str, str]
) -> dict[str, Any]:
    """:func:`pending_review`, computed."""
    signatures = prepared.signatures
    owners = residents = 0
    if len(signatures):
        owner_lines = pd.DataFrame(
            {
                "page": signatures["page"].to_numpy(),
                "line": signatures["line"].to_numpy(),
                "status": prepared.matches["status"].to_numpy(),
            }
        )
        lines = _signature_schedule(
            signatures,
            prepared.pages,
            owner_lines,
            resident_lines
            if resident_lines is not None
            else pd.DataFrame(columns=["page", "line", "status"]),
            filed_on=prepared.inputs.filed_on,
            voters_given=prepared.inputs.voters is not None,
            tested=tested,
        )
        pending = lines["status"].astype("str") == "needs_review"
        basis = lines["basis"].astype("str")
        owners = int((pending & (basis == "owners")).sum())
        residents = int((pending & (basis == "residents")).sum())
    return {
        "lines_pending": owners + residents,
        "owner_lines_pending": owners,
        "resident_lines_pending": residents,
        "listed_in": "review.csv",
    }


# --------------------------------------------------------------------------- stage 2


@dataclass
class Assessment:
    """Every test of one territory (:func:`assess`) and the frames behind them."""

    #: The ``summary.json`` object.
    summary: dict[str, Any]
    #: :func:`~pipeline.valuation.credit_signers`' schedule (roll order).
    schedule: pd.DataFrame
    #: Owner-page lines (:func:`~pipeline.valuation.credit_signers`).
    owner_lines: pd.DataFrame
    #: Resident-page lines (:func:`~pipeline.people.voters.resident_test`).
    resident_lines: pd.DataFrame
    voter_place: pd.DataFrame | None
    inhabitant_place: pd.DataFrame | None
    inhabitants: pd.DataFrame | None
    warnings: list[str]


def assess(
    prepared: Prepared,
    territory: BaseGeometry,
    fractions: pd.DataFrame,
    *,
    notes: Sequence[str] = (),
) -> Assessment:
    """Run every test of the petition for one territory.

    Parameters
    ----------
    prepared
        From :func:`prepare`.
    territory
        The territory, (Multi)Polygon in the working CRS.
    fractions
        Apportionment of *every* parcel of ``prepared.parcels`` against
        ``territory`` (:meth:`Prepared.fractions`), indexed by ``parcel_key``.
    notes
        Notes of ``territory`` itself when it is not the config's (an edited
        territory's repair), warned after the readers' notes.

    Returns
    -------
    Assessment
        The summary and the schedules behind it.
    """
    # an input error of the core names the file behind its label
    with files_named(prepared.inputs.sources):
        return _assess(prepared, territory, fractions, notes)


def stale_overrides(labels: Sequence[str]) -> list[str]:
    """A warning naming the overridden parcels whose polygon misses the territory.

    An assessor's apportionment override wins over geometry (rules § 2), so
    it applies even when the parcel's polygon no longer meets the territory,
    as after an edit of the line: it may have been made for another boundary.
    """
    if not len(labels):
        return []
    shown = ", ".join(sorted(labels)[:10]) + (
        f" and {len(labels) - 10} more" if len(labels) > 10 else ""
    )
    return [
        f"the apportionment override of {len(labels)} parcel(s) applies though the parcel's "
        f"polygon lies wholly outside the territory ({shown}): was the override made for "
        "this boundary?"
    ]


def polygons_without_roll_warning(prepared: Prepared, fraction: np.ndarray) -> list[str]:
    """A warning naming the parcel polygons in the territory that join no roll record.

    ``fraction``: the fraction in the territory of each polygon, in the order
    of :attr:`Prepared.keys`. Such a polygon's value is in no total (the totals
    are the roll's records): a print key written differently in the roll and
    in the parcel layer, or a record dropped from the roll, understates the
    territory's valuation. ``data_quality.json`` lists every such polygon of
    the towns (``polygons_without_roll``); this names those that matter here.
    """
    at = prepared.polygons_without_roll
    hit = at[fraction[at] > 0]
    if not len(hit):
        return []
    shown = hit[:5]
    parcels = prepared.parcels
    labels = [str(k).replace("|", ":", 1) for k in prepared.keys[shown]]
    if {"swis", "print_key"} <= set(parcels.columns):
        # as the parcel layer writes them; a key drawn as several polygons was
        # merged into one row without them (_merge_duplicate_parcels): its key
        swis = parcels["swis"].to_numpy()[shown]
        pk = parcels["print_key"].to_numpy()[shown]
        labels = [
            f"{s}:{k}" if isinstance(s, str) and isinstance(k, str) else key
            for s, k, key in zip(swis, pk, labels, strict=True)
        ]
    more = f" and {len(hit) - 5} more" if len(hit) > 5 else ""
    return [
        f"{len(hit)} parcel polygon(s) in the territory join no roll record "
        f"({', '.join(labels)}{more}): their value is in no total; check their print "
        "keys against the roll (data_quality.json: polygons_without_roll)"
    ]


def several_polygons_warning(prepared: Prepared, fraction: np.ndarray) -> list[str]:
    """A warning naming the parcels in the territory drawn as several polygons.

    ``fraction``: as :func:`polygons_without_roll_warning`. A parcel key drawn
    as several polygons is their union (a parcel cut by a road); a polygon of
    another parcel given a mistyped print key would change the parcel's
    fraction. ``data_quality.json`` lists every such key of the towns
    (``duplicate_parcel_keys``); this names those in the territory.
    """
    layer = prepared.inputs.parcels
    counts = layer[PARCEL_KEY].astype("str").value_counts()
    several = counts[counts > 1]
    if not len(several):
        return []
    keys = pd.Index(prepared.keys.astype("str"))
    inside = set(keys[np.asarray(fraction) > 0])
    hit = sorted(k for k in several.index if k in inside)
    if not hit:
        return []
    written = {k: k.replace("|", ":", 1) for k in hit}
    if {"swis", "print_key"} <= set(layer.columns):
        # as the parcel layer writes them
        at = layer[layer[PARCEL_KEY].astype("str").isin(hit[:5])]
        for k, sw, pk in zip(
            at[PARCEL_KEY].astype("str"), at["swis"], at["print_key"], strict=True
        ):
            if isinstance(sw, str) and isinstance(pk, str):
                written[k] = f"{sw}:{pk}"
    shown = ", ".join(f"{written[k]} in {int(several[k])}" for k in hit[:5])
    more = f" and {len(hit) - 5} more" if len(hit) > 5 else ""
    return [
        f"{len(hit)} parcel(s) in the territory are drawn as several polygons in the "
        f"parcel layer ({shown}{more}): each is apportioned as their union; if a "
        "polygon belongs to another parcel (a mistyped print key), that fraction is wrong "
        "(data_quality.json: duplicate_parcel_keys)"
    ]


def _override_outside(inputs: PetitionInputs, fractions: pd.DataFrame) -> list[str]:
    """``SWIS:PRINT_KEY`` of overridden parcels with a polygon and no area in the territory."""
    ov = inputs.apportionment_overrides
    if ov is None or not len(ov):
        return []
    keys = pd.Index(ov[PARCEL_KEY].astype("str").unique())
    geo = fractions.reindex(keys)
    outside = geo["fraction_in_territory"].eq(0.0) & geo["fraction_source"].astype("str").eq(
        "geometry"
    )
    if not outside.any():
        return []
    hit = set(keys[outside.to_numpy()])
    rows = inputs.roll[inputs.roll[PARCEL_KEY].astype("str").isin(hit)]
    return sorted(set(rows["swis_code"].astype("str") + ":" + rows["print_key_code"].astype("str")))


def notes_for(inputs: PetitionInputs, territory: BaseGeometry) -> list[str]:
    """The readers' notes that belong to a run on ``territory``.

    The repairs of the config's territory boundary are notes of that
    territory only: an alternative (a batch row, an edited scenario) has its
    own boundary, and its own repairs are the caller's to add.
    """
    if territory is inputs.territory or not inputs.territory_notes:
        return list(inputs.notes)
    drop = set(inputs.territory_notes)
    return [n for n in inputs.notes if n not in drop]


def _on_land_inside(schedule: pd.DataFrame, geometric: pd.Series) -> npt.NDArray[np.bool_]:
    """The schedule's records part of whose land lies in the territory (§ 2-200).

    The existing-village check asks about land, not value: a record with a
    polygon is in the territory where its polygon's fraction (``geometric``,
    after the sliver rule) is positive, whatever an apportionment override
    makes of its value (an override of 0 moves no land out, a stale override
    of a parcel outside brings none in); a record without polygon is known
    only through the assessor's override: in where it apportions a part of the
    record (a fraction or a value above 0).
    """
    on_map = schedule[PARCEL_KEY].astype("str").map(geometric).astype("float64")
    by_override = (schedule["fraction_in_territory"].astype("float64") > 0) | (
        schedule["apportioned_assessed"].astype("float64") > 0
    )
    return np.where(on_map.notna(), on_map > 0, by_override).astype(bool)


def _assess(
    prepared: Prepared, territory: BaseGeometry, fractions: pd.DataFrame, notes: Sequence[str]
) -> Assessment:
    """:func:`assess`, its input errors naming labels of inputs (not files)."""
    inputs, policy, regime = prepared.inputs, prepared.policy, prepared.regime
    warnings: list[str] = notes_for(inputs, territory) + list(notes)
    warnings += stale_overrides(_override_outside(inputs, fractions))
    inside = fractions["fraction_in_territory"].to_numpy(dtype="float64")
    warnings += polygons_without_roll_warning(prepared, inside)
    warnings += several_polygons_warning(prepared, inside)
    territory_sq_mi = geodesic_area_sq_mi(territory, inputs.working_crs)

    # --- apportionment (§ 2-200; § 2-202.1.a(2)) ---------------------------------------
    try:
        schedule = apportion_values(
            inputs.roll,
            fractions[["fraction_in_territory", "fraction_source"]],
            apportionment_overrides=inputs.apportionment_overrides,
            value_basis=policy.value_basis,
        )
    except InputError as exc:
        # a blank value of a roll that has no such column at all: the column
        # is what is missing, not the first record's value (audit A28 F1)
        lacking = [
            t.swis
            for t in inputs.towns
            if exc.column == policy.value_basis
            and exc.file == roll_label(t.swis)
            and f"roll.{t.swis}.{policy.value_basis}" in inputs.unrecorded
        ]
        if not lacking:
            raise
        raise InputError(
            roll_label(lacking[0]),
            f"the roll has no {policy.value_basis} column, and the value basis "
            f"([policy] value_basis) is {policy.value_basis!r}",
            column=policy.value_basis,
        ) from None
    if policy.value_basis == "town_taxable_value":
        warnings += taxable_basis_warnings(inputs.roll, schedule)
    geometric = fractions["fraction_in_territory"]

    def geometric_rows() -> pd.DataFrame:
        fraction = schedule[PARCEL_KEY].map(geometric).astype("float64").fillna(0.0)
        return schedule.assign(geometric_fraction=fraction.to_numpy())

    areas = part_areas(prepared, territory, territory_sq_mi, geometric_rows, warnings)
    areas = with_value_parts(inputs, schedule, areas, warnings)

    # --- voters (§ 2-202.1.a(1)): the lines were matched in prepare
    # a person's home is where the map puts the parcel: an apportionment
    # override moves value, not land (a parcel wholly inside apportioned at
    # 0.25 is still wholly inside); only a record without polygon is placed by
    # its override
    inside_fraction = (
        schedule.loc[schedule["fraction_source"] != "unmapped"]
        .drop_duplicates(PARCEL_KEY)
        .set_index(PARCEL_KEY)["fraction_in_territory"]
    )
    on_map = inside_fraction.index.to_series().map(geometric).astype("float64")
    inside_fraction = on_map.where(on_map.notna(), inside_fraction)
    threshold = policy.straddle_voter_threshold
    voter_place = None
    voters = inputs.voters

    # --- owners and signers --------------------------------------------------------------
    if prepared.owner_test_applies:
        # the rates serve the owner test only: a residents' petition needs none
        check_part_rates(inputs, towns_with_parts(inputs, schedule, areas))
    schedule = equalize(schedule, prepared.rates, missing="nan")
    warnings += prepared.stale_warnings
    schedule, owner_lines = credit_signers(schedule, prepared.owners, prepared.matches)
    otest, odef = owner_part(prepared, schedule, areas)

    rdef: list[Deficiency] = []
    if voters is not None and prepared.voter_place is not None:
        voter_place = relocate(prepared.voter_place, inside_fraction, threshold)
        rtest, resident_lines, rdef = resident_test(
            prepared.signatures,
            prepared.pages,
            voters,
            voter_place,
            statuses=policy.voter_statuses,
            regime=regime,
            alleged="residents" in inputs.bases,
            decisions=inputs.match_decisions,
            filed_on=inputs.filed_on,
            matches=prepared.resident_matches,
            labels=prepared.parcel_labels,
        )
        warnings += unplaced_voters_warning(rtest)
        rdef += unplaced_voters_deficiency(rtest)
    else:
        rtest, rdef = resident_absent(prepared, warnings)
        resident_lines = pd.DataFrame(columns=list(_RESIDENT_LINES))

    # --- inhabitants and designees (§ 2-200; § 2-202.1.b, c(2)) -------------------------
    inh_place = inh_schedule = None
    if inputs.inhabitants is not None and prepared.inhabitant_place is not None:
        inh_place = relocate(prepared.inhabitant_place, inside_fraction, threshold)
        inh_schedule = inhabitant_schedule(
            inputs.inhabitants, inh_place, identities=prepared.inhabitant_identities
        )
        population, pdef = population_check(
            inputs.inhabitants, inh_place, regime=regime, schedule=inh_schedule
        )
    else:
        population, pdef = population_check(
            pd.DataFrame(columns=["name", "address", "town", "source_row"]),
            relocate(prepared.designee_place.iloc[:0], inside_fraction, threshold),
            regime=regime,
        )
    des_place = relocate(prepared.designee_place, inside_fraction, threshold)
    designees, ddef = designees_check(prepared.designee_rows, des_place)

    summary = finish_summary(
        prepared,
        territory,
        territory_sq_mi=territory_sq_mi,
        areas=areas,
        in_territory_swis=schedule.loc[_on_land_inside(schedule, geometric), "swis_code"],
        tests={
            "owner_test": otest,
            "resident_test": rtest,
            "population": population,
            "designees": designees,
        },
        test_deficiencies=odef + rdef + pdef + ddef,
        warnings=warnings,
        resident_lines=resident_lines if voters is not None else None,
    )
    return Assessment(
        summary=summary,
        schedule=schedule,
        owner_lines=owner_lines,
        resident_lines=resident_lines,
        voter_place=voter_place,
        inhabitant_place=inh_place,
        inhabitants=inh_schedule,
        warnings=warnings,
    )


def evaluate(
    inputs: PetitionInputs, *, policy: PolicySection, engine: FractionEngine | None = None
) -> Evaluation:
    """Run every test of the petition.

    Parameters
    ----------
    inputs
        The loaded petition (:func:`pipeline.io.load.load_inputs`).
    policy
        The policy section of the config (value basis, sliver tolerance, voter
        statuses, straddle threshold, coterminous tolerance).
    engine
        Where the apportionment runs (:mod:`pipeline.engines`); None: in process.

    Returns
    -------
    Evaluation
        ``summary`` is the contract's ``summary.json`` object.

    Notes
    -----
    :func:`prepare`, then :func:`assess` of ``inputs.territory`` with the
    apportionment of every parcel (:func:`pipeline.geometry.apportion_table`).
    """
    prepared = prepare(inputs, policy=policy, engine=engine)
    return evaluation_of(
        prepared, assess(prepared, inputs.territory, prepared.fractions(inputs.territory))
    )


def evaluation_of(prepared: Prepared, assessment: Assessment) -> Evaluation:
    """The writers' :class:`Evaluation` of an :class:`Assessment` (schedules, review)."""
    inputs = prepared.inputs
    tested = _bases_tested(assessment.summary)
    review = review_queue(
        prepared.signatures, prepared.pages, prepared.matches, assessment.resident_lines
    )
    if tested and len(review):
        # a line of a basis the petition does not stand on counts toward
        # nothing: there is nothing to review it for
        review = review.loc[~review["basis"].astype("str").isin(list(tested))]
        review = review.reset_index(drop=True)
    signatures = value_differences(
        _signature_schedule(
            prepared.signatures,
            prepared.pages,
            assessment.owner_lines,
            assessment.resident_lines,
            filed_on=inputs.filed_on,
            voters_given=inputs.voters is not None,
            tested=tested,
        ),
        prepared.signatures,
        owner_matches=prepared.matches,
    ).assign(value_basis=prepared.policy.value_basis, regime=prepared.regime.name)
    # every result names the rules it was computed under (rules § 8), and a
    # parcel row the roll year of its town's roll
    return Evaluation(
        summary=assessment.summary,
        parcels=_parcel_schedule(
            assessment.schedule,
            prepared.policy.value_basis,
            credited=bool((assessment.summary.get("owner_test") or {}).get("applies")),
            roll_years={t.swis: t.roll_year for t in inputs.towns},
            regime=prepared.regime.name,
        ),
        signatures=signatures,
        inhabitants=_with_regime(assessment.inhabitants, prepared.regime.name),
        data_quality={
            "regime": prepared.regime.name,
            **prepared.data_quality,
            "reader_notes": list(inputs.notes),
        },
        warnings=assessment.warnings,
        review=with_unlisted_lines(review, signatures, prepared.signatures).assign(
            regime=prepared.regime.name
        ),
        unplaced_voters=_with_regime(
            _unplaced_voters(
                inputs.voters,
                prepared.voter_place,
                statuses=prepared.policy.voter_statuses,
                filed_on=inputs.filed_on,
            ),
            prepared.regime.name,
        ),
    )


def _with_regime(frame: pd.DataFrame | None, regime: str) -> pd.DataFrame | None:
    """``frame`` with a last column ``regime`` (rules § 8: outputs name the rule set)."""
    return None if frame is None else frame.assign(regime=regime)


#: Columns of ``voters-unplaced.csv`` (no date of birth: only what a review needs).
UNPLACED_VOTER_COLUMNS: tuple[str, ...] = (
    "SBOEID",
    "LASTNAME",
    "FIRSTNAME",
    "STATUS",
    "status_at_filing",
    "residence",
    "reason",
    "candidates",
)


def _unplaced_voters(
    voters: pd.DataFrame | None,
    placement: pd.DataFrame | None,
    *,
    statuses: Collection[str],
    filed_on: dt.date | None = None,
) -> pd.DataFrame | None:
    """The voters whose residence address names no parcel, or several (rules § 3).

    Only voters of a status the policy counts (``statuses``) as of ``filed_on``
    (:func:`~pipeline.people.voters.counted_status`): a purged or
    pre-registered voter, or one registered after the filing, counts nowhere,
    so a review of where they live needs no list of them (personal data kept
    out of the results); nor does a person's stale registration
    (:func:`~pipeline.people.voters.current_registrations`). Voters the board
    records in a town not of the petition are left out too (placement reason
    ``other_town``; counted in the resident test's ``voters_other_towns``).
    """
    if voters is None or placement is None:
        return None
    unplaced = ~placement["placed"].reindex(voters.index).fillna(False).astype(bool)
    if "STATUS" in voters:
        # a person's stale registration (a later one exists) is not where they live
        unplaced &= current_registrations(voters, statuses=statuses, filed_on=filed_on)
    # a voter of another town (TOWNCITY) is no resident of the territory: not listed
    unplaced &= placement["reason"].reindex(voters.index).astype("str") != REASON_OTHER_TOWN
    rows = voters.loc[unplaced]
    place = placement.reindex(rows.index)

    def col(name: str) -> pd.Series:
        return rows[name].astype("str") if name in rows else pd.Series("", index=rows.index)

    out = pd.DataFrame(
        {
            "SBOEID": col("SBOEID"),
            "LASTNAME": col("LASTNAME"),
            "FIRSTNAME": col("FIRSTNAME"),
            "STATUS": col("STATUS"),
            # the status counted (a voter purged after the filing was active then)
            "status_at_filing": status_at_filing(rows, filed_on)
            if "STATUS" in rows
            else col("STATUS"),
            "residence": voter_addresses(rows),
            "reason": place["reason"].astype("str"),
            "candidates": place["candidates"].astype("int64"),
        }
    )
    return out.loc[:, list(UNPLACED_VOTER_COLUMNS)].reset_index(drop=True)


def _parcel_schedule(
    schedule: pd.DataFrame,
    value_basis: str,
    *,
    credited: bool = True,
    roll_years: Mapping[str, int | None] | None = None,
    regime: str = "",
) -> pd.DataFrame:
    """The parcel schedule (``credited`` false: no owner test, so no signer credit).

    ``roll_years``: town SWIS → the year of the roll used (column ``roll_year``,
    blank for a town not given); ``regime``: the rule set (column ``regime``).
    """
    out = schedule.copy()
    if not credited:  # the owner pages count toward nothing (see _bases_tested)
        out["signing_owners"] = ""
        # 0 where there is a figure; a full value unknown (one town without a
        # rate) stays blank, as the apportioned full value beside it
        out["signer_credit_assessed"] = 0.0
        out["signer_credit_full"] = out["apportioned_full"].astype("float64") * 0.0
    out["value_basis"] = value_basis
    out["roll_row"] = out["source_row"]
    years = out["town_swis"].astype("str").map(dict(roll_years or {}))
    out["roll_year"] = pd.array(years.to_numpy(), dtype="Int64")
    out["regime"] = regime
    # by town, then print keys as the roll runs (1.-1-2 before 1.-1-10), so that
    # an assessor can check the schedule against the roll line by line
    out = out.sort_values(["town_swis", "swis_code", PARCEL_KEY], kind="stable")
    towns = out["town_swis"].astype("str").tolist()
    swis = out["swis_code"].astype("str").tolist()
    pks = out["print_key_code"].astype("str").tolist()
    order = sorted(range(len(out)), key=lambda i: (towns[i], swis[i], print_key_order(pks[i])))
    out = out.iloc[order]
    return out.loc[:, list(PARCEL_SCHEDULE_COLUMNS)].reset_index(drop=True)


def _bases_tested(summary: Mapping[str, Any]) -> dict[str, str]:
    """Page bases whose test does not apply, with the reason (for their lines' note).

    An owner page counts only where the owner test applies (alleged, and the
    regime allows it: not from 2024); a resident page only where the resident
    test applies.
    """
    out: dict[str, str] = {}
    regime = str(summary.get("regime", ""))
    codes = {d.get("code") for d in summary.get("deficiencies") or []}
    if not (summary.get("owner_test") or {}).get("applies"):
        out["owners"] = (
            f"an owner page, but regime {regime} has no owner route: the line counts toward nothing"
            if "owner_basis_not_allowed" in codes
            else "an owner page, but the petition does not allege the owners basis "
            "(§ 2-202.1.a(2)): the line counts toward nothing"
        )
    if not (summary.get("resident_test") or {}).get("applies"):
        out["residents"] = (
            "a resident page, but the petition does not allege the residents basis "
            "(§ 2-202.1.a(1)): the line counts toward nothing"
        )
    return out


def _signature_schedule(
    signatures: pd.DataFrame,
    pages: pd.DataFrame,
    owner_lines: pd.DataFrame,
    resident_lines: pd.DataFrame,
    *,
    filed_on: dt.date | None = None,
    voters_given: bool = True,
    tested: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """One row per signature line (``tested``: see :func:`_bases_tested`)."""
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
    # a line of no owner match has credit 0; a counted line keeps a full value
    # that is unknown (one town without an equalization rate) empty, not 0
    matched = key.isin(own.index) if len(own) else np.zeros(len(base), dtype=bool)
    for col in ("credit_assessed", "credit_full"):
        vals = own[col].reindex(key).to_numpy(dtype="float64") if col in own else 0.0
        base[col] = np.where(is_res | ~matched, 0.0, vals)
    note_res = res["note"].reindex(key).to_numpy() if "note" in res else np.full(len(base), "")
    note_own = own["note"].reindex(key).to_numpy() if "note" in own else np.full(len(base), "")
    base["note"] = np.where(is_res, note_res, note_own)
    if not voters_given:
        # no voter file: a resident line cannot be checked, which is no defect
        # of its page; a line without a name or an address, or that its page's
        # affidavit does not authenticate, is one all the same
        defect = _line_defects(signatures, pages, filed_on=filed_on)
        unmatched = is_res & pd.isna(base["status"]).to_numpy()
        base["status"] = np.where(
            unmatched, np.where(defect != "", "page_defect", "needs_review"), base["status"]
        )
        base["note"] = np.where(
            unmatched,
            np.where(
                defect != "",
                defect,
                "not checked: no voter file was given, so the signer's registration "
                "cannot be verified (rules § 3)",
            ),
            base["note"],
        )
    base["status"] = base["status"].fillna("page_defect")
    # a line of a basis the petition does not stand on counts toward nothing:
    # not counted, credit 0 (the contract: "a line that is not counted has
    # credit 0"), and its note says why; nor is one awaiting review (there is
    # nothing to review it for)
    for page_basis, why in (tested or {}).items():
        idle = ((basis == page_basis) & base["status"].isin(["counted", "needs_review"])).to_numpy()
        if idle.any():
            base.loc[idle, "status"] = "page_defect"
            base.loc[idle, ["credit_assessed", "credit_full"]] = 0.0
            base.loc[idle, "note"] = why
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
