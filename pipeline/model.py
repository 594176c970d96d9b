"""The loaded petition: every input as a canonical frame, in one working CRS.

:class:`PetitionInputs` is what the readers hand to the core
(:func:`pipeline.evaluate.evaluate`); it holds no file handle and no path the
core would open.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import geopandas as gpd
import pandas as pd
from shapely.geometry.base import BaseGeometry


@dataclass(frozen=True)
class Town:
    """One town the territory touches, with its roll and equalization rate."""

    swis: str
    name: str
    roll_year: int
    #: The rate (percent) for the roll year used; ``None`` when none was given.
    equalization_rate: float | None
    #: Where the rate came from: ``"config"``, ``"rates file"`` or ``"none"``.
    rate_source: str
    county: str | None = None
    boundary: BaseGeometry | None = None
    #: The year of the town's last completed roll as of ``filed_on`` (its
    #: ``roll_completion``); ``None`` when unknown. It differs from
    #: ``roll_year`` when an older single roll file was given, or a year was
    #: asked for (the town's ``roll_year``, ``--roll-year``).
    last_completed_roll_year: int | None = None


@dataclass(frozen=True)
class Designee:
    name: str
    address: str
    town: str


@dataclass
class PetitionInputs:
    """Every input of one petition, read and checked (see :mod:`pipeline.frames`)."""

    name: str
    filed_on: dt.date
    bases: tuple[str, ...]
    regime: str
    working_crs: str
    territory: BaseGeometry
    towns: tuple[Town, ...]
    roll: pd.DataFrame
    parcels: gpd.GeoDataFrame
    rates: pd.DataFrame | None = None
    pages: pd.DataFrame | None = None
    signatures: pd.DataFrame | None = None
    voters: pd.DataFrame | None = None
    inhabitants: pd.DataFrame | None = None
    designees: tuple[Designee, ...] = ()
    apportionment_overrides: pd.DataFrame | None = None
    ownership_overrides: pd.DataFrame | None = None
    match_decisions: pd.DataFrame | None = None
    district: BaseGeometry | None = None
    coterminous_with: str | None = None
    #: The kind of body the claim is, as stated (``[territory] coterminous_kind``).
    coterminous_kind: str | None = None
    villages: BaseGeometry | None = None
    #: Street centrelines (``name``, ``source_row``, lines), for the streets description.
    streets: gpd.GeoDataFrame | None = None
    #: Messages of the readers: repaired geometries, reprojections, warnings.
    notes: list[str] = field(default_factory=list)
    #: The file behind each label the core names an input by in an
    #: :class:`~pipeline.errors.InputError` (``"roll of town 104400"`` ->
    #: ``".../roll-104400.csv"``); for messages only, never opened.
    sources: dict[str, str] = field(default_factory=dict)
    #: The contract's columns an input file does not have, read as blank
    #: (``"signatures.town"``, ``"signatures.signed_on"``, ``"pages.sworn_on"``):
    #: the checks on them do not run, and a warning says so.
    unrecorded: frozenset[str] = frozenset()
    #: The notes (of :attr:`notes`) about the config's territory boundary (its
    #: repairs): an alternative boundary has its own, not these.
    territory_notes: tuple[str, ...] = ()
    #: Polygons of towns the config does not list (``swis``, ``print_key``,
    #: ``source_row``, ``layer`` (the file), geometry): set aside, but no
    #: territory may take in one of them (:func:`pipeline.io.load.check_unlisted_towns`).
    unlisted_parcels: gpd.GeoDataFrame | None = None
