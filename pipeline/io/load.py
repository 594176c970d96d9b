"""Read every input a config names into :class:`pipeline.model.PetitionInputs`.

The one place where the config's paths become frames. Each reader raises
:class:`pipeline.errors.InputError` naming file, row, column and problem; this
module adds the checks that span files (a town whose roll is empty, a missing
equalization rate for a territory in several towns, a territory that overlaps
no parcel). It also chooses a town's roll when its ``roll`` offers several years
(a folder or a list of yearly rolls): :func:`resolve_roll`, used by the run, the
manifest and ``petition verify`` alike.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import geopandas as gpd
import numpy as np
import numpy.typing as npt
import pandas as pd
import shapely
from pyproj import CRS
from pyproj.exceptions import CRSError

from pipeline.config import PetitionConfig
from pipeline.errors import (
    OVERRIDES_LABEL,
    RATES_LABEL,
    TERRITORY_LABEL,
    InputError,
    roll_label,
    town_boundary_label,
)
from pipeline.frames import PARCEL_KEY, SOURCE_ROW
from pipeline.geometry import union_territory
from pipeline.geometry.area import geodesic_area_sq_mi, suits_place, working_crs_for
from pipeline.geometry.territory import (
    check_town_polygons_hold_their_parcels,
    check_unlisted_towns,
    shares_area,
)
from pipeline.io import (
    read_apportionment_overrides,
    read_boundary,
    read_inhabitants,
    read_lines,
    read_match_decisions,
    read_ownership_overrides,
    read_pages,
    read_parcels,
    read_rates,
    read_roll,
    read_signatures,
    read_voters,
)
from pipeline.io._roll import OWNER_NAMES
from pipeline.io._tables import check_signatures_against_pages
from pipeline.io._vector import layer_crs
from pipeline.io.history import _year_of_name, roll_file_years, roll_years
from pipeline.law.regimes import regime_for, regime_notes
from pipeline.model import Designee, PetitionInputs, Town
from pipeline.valuation import roll_year_for, select_rate

Progress = Callable[[str], None]


def _noop(_: str) -> None:
    return None


def choose_working_crs(config: PetitionConfig) -> str:
    """The projected CRS the run works in.

    In order: the policy's ``working_crs``; else the CRS every parcel layer is
    in, when it is projected and suits the place (:func:`suits_place`: NAD83
    / UTM 18N, as New York publishes its tax parcels, or a State Plane zone),
    so that the parcels are used as drawn, unreprojected (a parcel drawn
    exactly half inside stays 0.5, not 0.50000005); else the county's State
    Plane zone (:func:`working_crs_for`).
    """
    if config.policy.working_crs:
        return config.policy.working_crs
    lonlat, _ = read_boundary(
        config.territory.boundary,
        crs=config.territory.crs,
        working_crs="EPSG:4326",
        what="territory",
    )
    x0, y0, x1, y1 = (float(v) for v in lonlat.total_bounds)
    own = _parcels_crs(config)
    if own is not None and suits_place(own, (x0 + x1) / 2.0, (y0 + y1) / 2.0):
        return own
    return working_crs_for((x0, y0, x1, y1))


def _parcels_crs(config: PetitionConfig) -> str | None:
    """The CRS shared by every parcel layer (as ``"EPSG:n"`` when it has a code), or None."""
    found: list[CRS] = []
    for path in dict.fromkeys(t.parcels for t in config.towns):
        c = layer_crs(path, crs=config.territory.crs)
        if c is None:
            return None
        try:
            found.append(CRS.from_user_input(c))
        except CRSError:
            return None
    if not found or any(not f.equals(found[0], ignore_axis_order=True) for f in found[1:]):
        return None
    code = found[0].to_authority()
    return f"{code[0]}:{code[1]}" if code else found[0].to_wkt()


# --------------------------------------------------------------------------- roll choice

#: How a town's roll year was chosen: derived from ``filed_on`` and the town's
#: ``roll_completion``, the town's ``roll_year`` key, or ``--roll-year``.
ChosenBy = Literal["filed_on", "towns.roll_year", "--roll-year"]


@dataclass(frozen=True)
class RollChoice:
    """The roll file(s) a town's run uses when its ``roll`` offers several years.

    Attributes
    ----------
    key
        The config key, ``towns.<swis>.roll`` (the manifest's input key).
    year
        The roll year chosen.
    chosen_by
        How the year was chosen (see :data:`ChosenBy`).
    files
        The file(s) of that year, used by the run (one, except in a folder
        holding several files of the same year), in name order.
    candidates
        Every roll year offered → its file(s).
    """

    key: str
    year: int
    chosen_by: ChosenBy
    files: tuple[Path, ...]
    candidates: Mapping[int, tuple[Path, ...]]

    @property
    def offered(self) -> tuple[Path, ...]:
        """Every file offered but not used, in name order."""
        used = set(self.files)
        every = {f for fs in self.candidates.values() for f in fs}
        return tuple(sorted(every - used))

    def years_of(self, file: Path) -> tuple[int, ...]:
        """The roll years a candidate file holds."""
        return tuple(y for y, fs in sorted(self.candidates.items()) if file in fs)


def town_roll_year(
    config: PetitionConfig, index: int, *, roll_year: int | None = None
) -> tuple[int, ChosenBy]:
    """The roll year of a town and how it was chosen.

    Parameters
    ----------
    config
        The petition config.
    index
        The town's position in ``config.towns``.
    roll_year
        ``--roll-year``: forces the year of every town.

    Returns
    -------
    tuple[int, ChosenBy]
        ``--roll-year`` if given, else the town's ``roll_year`` key, else the
        last completed roll as of ``filed_on``
        (:func:`pipeline.valuation.roll_year_for` with the town's
        ``roll_completion``).
    """
    town = config.towns[index]
    if roll_year is not None:
        return roll_year, "--roll-year"
    if town.roll_year is not None:
        return town.roll_year, "towns.roll_year"
    return last_completed_roll_year(config, index), "filed_on"


def last_completed_roll_year(config: PetitionConfig, index: int) -> int:
    """The year of a town's last completed roll as of ``filed_on`` (its ``roll_completion``)."""
    town = config.towns[index]
    month, day = (int(x) for x in town.roll_completion.split("-"))
    return roll_year_for(config.petition.filed_on, completion=(month, day))


def choose_roll(
    candidates: Mapping[int, Sequence[Path]],
    *,
    year: int,
    chosen_by: ChosenBy = "filed_on",
    key: str = "roll",
    source: Path,
    listed: bool = False,
    filed_on: dt.date | None = None,
) -> RollChoice:
    """The file(s) of ``year`` among the rolls offered (pure: no file is read).

    Parameters
    ----------
    candidates
        Roll year → the file(s) holding it (:func:`roll_candidates`).
    year
        The roll year wanted (:func:`town_roll_year`).
    chosen_by
        How ``year`` was chosen (for the record and the message).
    key
        The config key (``towns.<swis>.roll``).
    source
        What the error names: the roll folder, or the config file for a list.
    listed
        The rolls are a list of files in the config (not a folder).
    filed_on
        The filing date (for the message).

    Raises
    ------
    InputError
        No file of ``year`` is offered; the message lists the years offered.
    """
    if year not in candidates or not candidates[year]:
        why = {
            "filed_on": f"the last completed roll as of {filed_on}" if filed_on else "",
            "towns.roll_year": "the year set by the town's roll_year",
            "--roll-year": "the year forced by --roll-year",
        }[chosen_by]
        what = (
            f"the roll files listed in {key} hold" if listed else f"the roll folder ({key}) holds"
        )
        raise InputError(
            source,
            f"{what} years {sorted(candidates)} but not {year}" + (f", {why}" if why else ""),
            column="roll_year",
        )
    return RollChoice(
        key=key,
        year=year,
        chosen_by=chosen_by,
        files=tuple(sorted(candidates[year])),
        candidates={y: tuple(sorted(fs)) for y, fs in sorted(candidates.items())},
    )


def roll_candidates(config: PetitionConfig, index: int) -> dict[int, tuple[Path, ...]] | None:
    """The rolls a town offers, by year; ``None`` when its ``roll`` is one file.

    A folder is read by :func:`pipeline.io.history.roll_years`; each file of a
    list holds the year of its name (``roll-2023.csv``), else the years of its
    ``roll_year`` column.

    Raises
    ------
    InputError
        A roll whose year cannot be told, or two listed files holding the same
        year (both named).
    """
    town = config.towns[index]
    key = f"towns.{town.swis}.roll"
    if isinstance(town.roll, tuple):
        out: dict[int, tuple[Path, ...]] = {}
        for i, f in enumerate(town.roll):
            years = roll_file_years(f)
            if not years:
                raise InputError(
                    f,
                    f"the roll year of {key}[{i}] can be told neither from the file name "
                    "(roll-<year>.csv) nor from a roll_year column",
                    column="roll_year",
                )
            for y in sorted(years):
                if y in out:
                    raise InputError(
                        config.source or f,
                        f"{out[y][0]} and {f} both hold roll year {y}: list one roll per year",
                        column=key,
                    )
                out[y] = (f,)
        return dict(sorted(out.items()))
    if Path(town.roll).is_dir():
        return {y: tuple(fs) for y, fs in roll_years(town.roll).items()}
    return None


def resolve_roll(
    config: PetitionConfig, index: int, *, roll_year: int | None = None
) -> RollChoice | None:
    """The roll file(s) a town uses, its roll year and every file offered.

    ``None`` when the town's ``roll`` is one file (read whole, whatever its
    year). :func:`load_inputs` reads the files chosen; the manifest records
    them; ``petition verify`` re-resolves to tell a new roll that changes the
    choice from one that does not.

    Raises
    ------
    InputError
        See :func:`roll_candidates` and :func:`choose_roll`.
    """
    candidates = roll_candidates(config, index)
    if candidates is None:
        return None
    town = config.towns[index]
    year, chosen_by = town_roll_year(config, index, roll_year=roll_year)
    listed = isinstance(town.roll, tuple)
    source = (config.source or town.roll[0]) if isinstance(town.roll, tuple) else town.roll
    return choose_roll(
        candidates,
        year=year,
        chosen_by=chosen_by,
        key=f"towns.{town.swis}.roll",
        source=source,
        listed=listed,
        filed_on=config.petition.filed_on,
    )


def resolve_rolls(config: PetitionConfig, *, roll_year: int | None = None) -> dict[str, RollChoice]:
    """:func:`resolve_roll` of every town with a folder or list of rolls, by config key."""
    out: dict[str, RollChoice] = {}
    for i in range(len(config.towns)):
        choice = resolve_roll(config, i, roll_year=roll_year)
        if choice is not None:
            out[choice.key] = choice
    return out


def _roll_for_town(
    config: PetitionConfig,
    index: int,
    roll_year: int,
    notes: list[str],
    choice: RollChoice | None,
    *,
    chosen_by: ChosenBy = "filed_on",
    absent: list[str] | None = None,
) -> tuple[pd.DataFrame, int, Path, npt.NDArray[np.object_]]:
    """The roll records of a town, the roll year they are of, the (first) file read
    and the file of each record.

    ``absent``, when given, receives the value columns a file read lacks
    (:func:`~pipeline.io._roll.read_roll`).

    A roll file of one other year than ``roll_year``: when the year was derived
    from ``filed_on``, an older roll is used (its equalization rate with it)
    with a warning that it is not the last completed roll, and a later one (not
    completed at filing) is an input error; when the year was asked for
    (``roll_year`` key, ``--roll-year``), any other year is an input error.
    """
    town = config.towns[index]
    if choice is not None:  # one roll per year: the year's file(s)
        files = choice.files
        pieces = [read_roll(f, town_swis=town.swis, absent=absent) for f in files]
        roll = pd.concat(pieces, ignore_index=True)
        row_files = np.repeat(np.asarray(files, dtype=object), [len(p) for p in pieces])
        where: Path = files[0]
    else:
        where = town.roll if isinstance(town.roll, Path) else town.roll[0]
        roll = read_roll(where, town_swis=town.swis, absent=absent)
        row_files = np.full(len(roll), where, dtype=object)
    other = roll["municipality_code"] != town.swis
    if other.any():
        first = int(roll.loc[other, "source_row"].iloc[0])
        code = roll.loc[other, "municipality_code"].iloc[0]
        raise InputError(
            where,
            f"municipality_code {code} is not the town {town.swis} ({town.name}) "
            f"whose roll this is ({int(other.sum())} row{'s' if int(other.sum()) != 1 else ''})",
            row=first,
            column="municipality_code",
        )
    years = sorted({int(y) for y in roll["roll_year"].unique() if int(y) != 0})
    named = _year_of_name(where) if choice is None else None
    if named is not None and years and named not in years:
        # one file given: its records say which roll it is, but say so
        notes.append(
            f"{where.name}: the file is named for roll year {named} but its records are of "
            f"{', '.join(str(y) for y in years)}; the records' year is used"
        )
    said = "the records are of roll year"
    # what asked for the year, naming the town's key (several towns may set one)
    asked = f"towns.{town.swis}.roll_year" if chosen_by == "towns.roll_year" else chosen_by
    if choice is None and not years:
        if named is not None:
            # records without a roll year: the file's name is the only word on
            # which roll it is (roll-2022.csv), and it is not set aside: a 2022
            # roll equalized with the 2023 rate would be certified as the 2023 roll
            years, said = [named], "the file is named for roll year"
        else:
            notes.append(
                f"{where.name}: the roll year is stated neither by a roll_year column nor by "
                f"the file's name (roll-<year>.csv): taken as the roll of {roll_year}, the "
                + (
                    f"last completed as of filed_on {config.petition.filed_on}"
                    if chosen_by == "filed_on"
                    else f"year asked for ({asked})"
                )
                + ", with that year's equalization rate; name the file for its year to be sure"
            )
    if len(years) > 1:
        # a file of several years' rolls holds each year whole: a year on a
        # handful of records is a mistyped year, whose parcels would silently
        # leave the roll used (audit A5: a $3,065,000 parcel, and the verdict)
        per_year: dict[int, int] = {}
        for y in roll["roll_year"].astype("int64").tolist():
            if y != 0:
                per_year[y] = per_year.get(y, 0) + 1
        most = max(per_year.values())
        stray = sorted((n, y) for y, n in per_year.items() if n < most / 2)
        if stray:
            n, year = stray[0]
            first = int(roll.loc[roll["roll_year"] == year, SOURCE_ROW].iloc[0])
            whole = min(y for y, k in per_year.items() if k == most)
            raise InputError(
                where,
                f"roll year {year} is on {n:,} record(s) only, while the file holds "
                f"{most:,} of roll year {whole}: a mistyped year? A file of several years "
                "holds each year's roll whole",
                row=first,
                column="roll_year",
            )
        keep = roll["roll_year"].isin([roll_year, 0])
        if not keep.any():
            raise InputError(
                where,
                f"the roll holds years {years} but not {roll_year}, the last completed roll "
                f"as of {config.petition.filed_on}",
                column="roll_year",
            )
        notes.append(
            f"{where.name}: {int((~keep).sum())} records of other roll years set "
            f"aside; roll year {roll_year} used"
        )
        roll = roll.loc[keep].reset_index(drop=True)
        row_files = row_files[keep.to_numpy()]
    elif years and years[0] != roll_year and choice is not None:
        # a file offered as the roll of one year (by its name, in a list or a
        # folder) whose records are of another: which roll it is cannot be told
        raise InputError(
            where,
            f"the file is offered as the {roll_year} roll of town {town.swis} ({choice.key}, "
            f"by its name) but its records are of roll year {years[0]}: rename it, or "
            "correct its roll_year column",
            row=int(roll["source_row"].iloc[0]),
            column="roll_year",
        )
    elif years and years[0] > roll_year and chosen_by == "filed_on":
        # a roll not yet completed when the petition is filed is not the roll
        # the law asks for: its values may still change (grievance day)
        raise InputError(
            where,
            f"{said} {years[0]}, a roll not completed as of "
            f"filed_on {config.petition.filed_on}: the petition uses the last completed roll, "
            f"{roll_year} (§ 2-202.1.a(2)); give that roll, or set the town's roll_year "
            f"(or --roll-year) to {years[0]} to use this one knowingly",
            column="roll_year",
        )
    elif years and years[0] != roll_year:
        if chosen_by != "filed_on":
            raise InputError(
                where,
                f"{said} {years[0]}, but roll year {roll_year} is asked for ({asked})",
                column="roll_year",
            )
        notes.append(
            f"{where.name}: the roll of town {town.swis} is of {years[0]}, but the last "
            f"completed roll as of {config.petition.filed_on} is {roll_year}; the {years[0]} "
            f"roll is used, with its {years[0]} equalization rate (§ 2-202.1.a(2) asks for "
            f"the last completed roll)"
        )
        roll_year = years[0]
    if roll.empty:
        raise InputError(where, f"the roll of town {town.swis} holds no record")
    return roll, roll_year, where, row_files


def _check_rolls_join_parcels(
    config: PetitionConfig,
    rolls: Sequence[pd.DataFrame],
    parcels: gpd.GeoDataFrame,
    roll_files: Sequence[npt.NDArray[np.object_]],
    territory: Any,
) -> None:
    """Each town's roll joins its parcel polygons by SWIS and print key.

    A town with polygons in the territory (their SWIS codes begin with the
    town's four digits) while not one record of its roll joins any polygon
    of the town has its roll keyed otherwise: most often the town's
    municipality code written as every record's ``swis_code``. Every value of
    the town in the territory would then be unmapped and its total $0, which
    is no result to certify (§ 2-202.1.d). A town whose polygons all lie
    away from the territory is no such case: its roll may hold only records
    without polygon (a special franchise), apportioned by the assessor.
    """
    keys = set(parcels[PARCEL_KEY].astype("str").tolist()) if PARCEL_KEY in parcels else set()
    polygon_swis = parcels["swis"].astype("str") if "swis" in parcels else pd.Series([], dtype=str)
    geoms = np.asarray(parcels.geometry.array, dtype=object)
    for t, roll, files in zip(config.towns, rolls, roll_files, strict=True):
        # the first record that joins settles it (most often the first of all)
        if roll.empty or any(k in keys for k in roll[PARCEL_KEY].astype("str").tolist()):
            continue
        mine = (polygon_swis.str.slice(0, 4) == t.swis[:4]).to_numpy()
        if not mine.any() or not shapely.intersects(territory, geoms[mine]).any():
            continue
        own = sorted(set(polygon_swis[mine]))
        roll_swis = sorted(set(roll["swis_code"].astype("str")))
        problem = f"no record of the roll of town {t.swis} ({t.name}) joins a parcel polygon"
        if set(roll_swis) & set(own):
            # the SWIS codes agree: the print keys are written otherwise
            theirs = parcels.loc[polygon_swis.isin(roll_swis), "print_key"].astype("str")
            raise InputError(
                Path(files[0]),
                f"{problem}: the SWIS codes agree but no print key does (roll "
                f"{roll['print_key_code'].astype('str').iloc[0]}, parcels "
                f"{theirs.iloc[0] if len(theirs) else '?'}): check the parcel layer's PRINT_KEY",
                row=int(roll[SOURCE_ROW].iloc[0]),
                column="print_key_code",
            )
        raise InputError(
            Path(files[0]),
            f"{problem} by SWIS: the roll's swis_code is {', '.join(roll_swis[:5])}, the "
            f"parcels' SWIS {', '.join(own[:5])}; a roll's swis_code is the parcel's 6-digit "
            "SWIS (the village or town-outside-village code), not the town's municipality code",
            row=int(roll[SOURCE_ROW].iloc[0]),
            column="swis_code",
        )


def _check_parcel_on_one_roll(roll: pd.DataFrame, row_files: npt.NDArray[np.object_]) -> None:
    """A parcel (SWIS + print key) is on one roll record only, across every roll read.

    Each roll file is checked on its own by its reader; this finds the same
    parcel in two files (two towns' rolls, or two files of one town's roll),
    which would count its value twice (§ 2-202.1.a(2)).
    """
    again = roll[PARCEL_KEY].duplicated(keep="first").to_numpy()
    if not again.any():
        return
    pos = int(np.flatnonzero(again)[0])
    key = roll[PARCEL_KEY].iloc[pos]
    first = int(np.flatnonzero((roll[PARCEL_KEY] == key).to_numpy())[0])
    rec = roll.iloc[pos]
    raise InputError(
        Path(row_files[pos]),
        f"parcel {rec['swis_code']} {rec['print_key_code']} is also on "
        f"{Path(row_files[first]).name} (row {int(roll[SOURCE_ROW].iloc[first])}): a parcel "
        "is on one roll record only, or its value would count twice",
        row=int(rec[SOURCE_ROW]),
        column="print_key_code",
    )


def _ownership_overrides(path: Path, roll: pd.DataFrame) -> pd.DataFrame:
    """:func:`read_ownership_overrides`, each parcel on a roll of the petition."""
    overrides = read_ownership_overrides(path)
    known = set(roll[PARCEL_KEY].astype("str"))
    for key, swis, pk, row in zip(
        overrides[PARCEL_KEY].astype("str"),
        overrides["swis_code"],
        overrides["print_key_code"],
        overrides[SOURCE_ROW],
        strict=True,
    ):
        if key not in known:
            raise InputError(
                path,
                f"parcel {swis}:{pk} is on no roll of the petition",
                row=int(row),
                column="print_key_code",
            )
    return overrides


def _unrecorded_notes(
    absent_pages: list[str], absent_lines: list[str], config: PetitionConfig
) -> list[str]:
    """Warnings for the contract's columns a signer file does not have."""
    pages_name = Path(config.signers.pages or "pages.csv").name
    lines_name = Path(config.signers.signatures or "signatures.csv").name
    out: list[str] = []
    if "town" in absent_lines:
        out.append(
            f"{lines_name} has no 'town' column: the town after each signature "
            "(§ 2-202.1.e(3)) is not checked, and addresses are placed without it"
        )
    if "signed_on" in absent_lines:
        out.append(
            f"{lines_name} has no 'signed_on' column: no line is checked for being "
            "signed after its page's affidavit or after the filing date"
        )
    if "sworn_on" in absent_pages:
        out.append(
            f"{pages_name} has no 'sworn_on' column: no line is checked against "
            "the date of its page's witness affidavit (§ 2-202.1.e(4))"
        )
    return out


def _streets_near(streets: gpd.GeoDataFrame, territory: Any, working_crs: Any) -> bool:
    """Whether the box of some street meets the territory's box widened by 1,000 ft."""
    metres_per_unit = CRS(working_crs).axis_info[0].unit_conversion_factor
    d = 304.8 / metres_per_unit
    x0, y0, x1, y1 = territory.bounds
    b = streets.geometry.bounds.to_numpy()
    near = (b[:, 0] <= x1 + d) & (b[:, 2] >= x0 - d) & (b[:, 1] <= y1 + d) & (b[:, 3] >= y0 - d)
    return bool(near.any())


#: Square feet in a square mile (5,280²).
SQ_FT_PER_SQ_MI = 5280.0**2

#: A territory smaller than this (square feet) is no land: bad input (a ring
#: of nearly collinear points). A territory of a few square feet elsewhere
#: (coordinates in the wrong CRS) is told by the check that it overlaps no parcel.
MIN_TERRITORY_SQ_FT = 1.0


def load_inputs(
    config: PetitionConfig, *, progress: Progress = _noop, roll_year: int | None = None
) -> PetitionInputs:
    """Read and check every input of a petition.

    ``roll_year``, when given, forces the roll year of every town (over the
    towns' ``roll_year`` keys and the year derived from ``filed_on``).

    Raises
    ------
    InputError
        For any bad input, naming the file, the place in it, the column and the
        problem.
    """
    notes: list[str] = []
    progress("Reading the territory")
    working_crs = choose_working_crs(config)
    boundary, repairs = read_boundary(
        config.territory.boundary,
        crs=config.territory.crs,
        working_crs=working_crs,
        what="territory",
    )
    notes.extend(repairs)
    try:
        # features named as the file counts them, from 1
        features = boundary.geometry.set_axis(range(1, len(boundary) + 1))
        territory, union_notes = union_territory(features)
    except ValueError as exc:
        raise InputError(config.territory.boundary, str(exc)) from None
    sq_ft = geodesic_area_sq_mi(territory, working_crs) * SQ_FT_PER_SQ_MI
    if sq_ft < MIN_TERRITORY_SQ_FT:
        # a sliver (a ring of nearly collinear points): no land to incorporate,
        # and every test of the run would be about nothing
        raise InputError(
            config.territory.boundary,
            f"the territory's area is {sq_ft:.3g} square feet: no land (a ring of nearly "
            "collinear points, or coordinates in the wrong units?)",
        )
    notes.extend(union_notes)
    territory_notes = (*repairs, *union_notes)

    def polygons_of(path: Path | None, what: str) -> Any:
        """The union of an optional polygon layer (district, villages), or None."""
        if path is None:
            return None
        layer, repairs = read_boundary(
            path, crs=config.territory.crs, working_crs=working_crs, what=what
        )
        notes.extend(repairs)
        return layer.geometry.union_all()

    district = polygons_of(config.territory.district, "district")
    villages = polygons_of(config.territory.villages, "village")
    streets = None
    if config.territory.streets is not None:
        streets = read_lines(
            config.territory.streets,
            crs=config.territory.crs,
            working_crs=working_crs,
            what="street",
        )
        unnamed = int((streets["name"] == "").sum())
        if unnamed:
            notes.append(
                f"{Path(config.territory.streets).name}: {unnamed} street features without a "
                "name are not used in the streets description"
            )
        if len(streets) and not _streets_near(streets, territory, working_crs):
            notes.append(
                f"{Path(config.territory.streets).name}: no street comes within 1,000 ft of "
                "the territory, so the streets description names no street; check the "
                f"file's CRS (read as {config.territory.crs or 'the file CRS'})"
            )

    rates = read_rates(config.equalization.rates) if config.equalization.rates else None

    towns: list[Town] = []
    rolls: list[pd.DataFrame] = []
    roll_files: list[npt.NDArray[np.object_]] = []
    # the file behind each label the core names an input by (for its messages)
    sources: dict[str, str] = {TERRITORY_LABEL: str(config.territory.boundary)}
    # (no rates file: a missing rate is a matter of the config's towns)
    rates_file = config.equalization.rates or config.source
    if rates_file is not None:
        sources[RATES_LABEL] = str(rates_file)
    if config.overrides.apportionment:
        sources[OVERRIDES_LABEL] = str(config.overrides.apportionment)
    parcel_layers: dict[Path, gpd.GeoDataFrame] = {}
    roll_unrecorded: set[str] = set()
    for i, t in enumerate(config.towns):
        progress(f"Reading the roll of {t.name}")
        year, chosen_by = town_roll_year(config, i, roll_year=roll_year)
        choice = resolve_roll(config, i, roll_year=roll_year)
        absent: list[str] = []
        town_roll, year, roll_file, town_files = _roll_for_town(
            config, i, year, notes, choice, chosen_by=chosen_by, absent=absent
        )
        # a value column the roll lacks (its values blank): named as such
        # where the value basis asks for it (pipeline.evaluate)
        roll_unrecorded |= {f"roll.{t.swis}.{c}" for c in absent}
        if OWNER_NAMES in absent and "owners" in config.petition.bases:
            # every owner line would be not_owner: the owner test would read 0
            # signers' value where the roll has no names to match (audit A35 F5)
            raise InputError(
                roll_file,
                "the roll names no owners (none of primary_owner_first_name, "
                "primary_owner_last_name, additional_owner_N_first/_last_name, owner_text), "
                "and the petition alleges the owner basis: no signer could be matched",
                column="primary_owner_last_name",
            )
        rolls.append(town_roll)
        roll_files.append(town_files)
        sources[roll_label(t.swis)] = str(roll_file)
        if t.boundary is not None:
            sources[town_boundary_label(t.swis)] = str(t.boundary)
        rate: float | None
        if t.equalization_rate is not None:
            rate, source = t.equalization_rate, "config"
            listed = select_rate(rates, swis=t.swis, roll_year=year) if rates is not None else None
            if listed is not None and listed != rate:
                # the config wins (the contract), but the full values certified
                # under § 2-202.1.d(2) follow it: say that the two disagree
                notes.append(
                    f"town {t.swis} ({t.name}): the config's equalization_rate {rate:g} is used; "
                    f"the rates file gives {listed:g} for the roll year {year}"
                )
        elif rates is not None:
            found = select_rate(rates, swis=t.swis, roll_year=year)
            rate, source = found, ("rates file" if found is not None else "none")
        else:
            rate, source = None, "none"
        if rate is not None and rate <= 1:
            # real rates go down to a fraction of a percent (towns that have not
            # reassessed in decades), but a rate written as a fraction of one
            # (0.5 for 50 %) reads the same way: say what is made of it
            notes.append(
                f"town {t.swis} ({t.name}): equalization rate {rate:g} from the {source} is "
                f"read as {rate:g} % (full value = assessed x {100 / rate:g}); rates are "
                "percents: if it is a fraction (0.5 for 50 %), write it as a percent"
            )
        town_boundary = None
        if t.boundary is not None:
            b, repairs = read_boundary(
                t.boundary, crs=config.territory.crs, working_crs=working_crs, what=f"town {t.swis}"
            )
            notes.extend(repairs)
            town_boundary = b.geometry.union_all()
        last = last_completed_roll_year(config, i)
        if chosen_by != "filed_on" and year != last:
            asked = "--roll-year" if chosen_by == "--roll-year" else "the town's roll_year"
            notes.append(
                f"town {t.swis} ({t.name}): the roll of {year} is used, as asked "
                f"({asked}); "
                f"the last completed roll as of {config.petition.filed_on} is that of {last} "
                "(§ 2-202.1.a(2) asks for the last completed roll)"
            )
        towns.append(
            Town(
                swis=t.swis,
                name=t.name,
                roll_year=year,
                equalization_rate=rate,
                rate_source=source,
                county=t.county,
                boundary=town_boundary,
                last_completed_roll_year=last,
            )
        )
        if t.parcels not in parcel_layers:
            progress(f"Reading the parcels of {t.name}")
            layer, repairs = read_parcels(
                t.parcels, crs=config.territory.crs, working_crs=working_crs
            )
            notes.extend(repairs)
            parcel_layers[t.parcels] = layer

    roll = pd.concat(rolls, ignore_index=True)
    _check_parcel_on_one_roll(roll, np.concatenate(roll_files))
    town_codes = {t.swis for t in config.towns}
    layers = []
    unlisted: list[gpd.GeoDataFrame] = []
    for path, layer in parcel_layers.items():
        # town_of_swis, vectorised: the reader has checked every SWIS is 6 digits
        in_towns = (layer["swis"].str.slice(0, 4) + "00").isin(town_codes)
        if (~in_towns).any():
            others = layer.loc[~in_towns, ["swis", "print_key", "source_row", "geometry"]]
            unlisted.append(others.assign(layer=str(path)))
            check_unlisted_towns(unlisted[-1], territory, config.policy.sliver_tolerance)
            notes.append(
                f"{path.name}: {int((~in_towns).sum())} polygons of towns not in the petition "
                "set aside"
            )
        layer = layer.loc[in_towns]
        flat = (layer.geometry.area <= 0).to_numpy()
        if flat.any():
            first = layer.loc[flat].iloc[0]
            raise InputError(
                path,
                f"parcel {first['swis']} {first['print_key']} has zero area "
                f"({int(flat.sum())} such polygons)",
                feature=int(first["source_row"]),
                column="geometry",
            )
        layers.append(layer)
    parcels = gpd.GeoDataFrame(pd.concat(layers, ignore_index=True), crs=working_crs)
    check_town_polygons_hold_their_parcels(
        parcels,
        {t.swis: t.boundary for t in towns if t.boundary is not None},
        {t.swis: t.name for t in towns},
        {t.swis: t.boundary for t in config.towns if t.boundary is not None},
    )
    if not parcels.empty and not shares_area(parcels.geometry.array, territory):
        read_as = layer_crs(config.territory.boundary, crs=config.territory.crs)
        layers_as = sorted(
            {
                f"{path.name} as {layer_crs(path, crs=config.territory.crs) or 'its file CRS'}"
                for path in parcel_layers
            }
        )
        raise InputError(
            config.territory.boundary,
            "the territory overlaps no parcel of the towns listed (most often a wrong CRS, of "
            "the territory or of the parcel layer: the territory was read as "
            f"{read_as or config.territory.crs or 'the file CRS'}, {'; '.join(layers_as)})",
            feature=1,
        )
    _check_rolls_join_parcels(config, rolls, parcels, roll_files, territory)

    progress("Reading signatures, voters and inhabitants")
    pages = signatures = None
    unrecorded: set[str] = set(roll_unrecorded)
    if config.signers.pages and config.signers.signatures:
        absent_pages: list[str] = []
        absent_lines: list[str] = []
        pages = read_pages(config.signers.pages, absent=absent_pages)
        signatures = read_signatures(config.signers.signatures, absent=absent_lines)
        unrecorded |= {f"pages.{c}" for c in absent_pages}
        unrecorded |= {f"signatures.{c}" for c in absent_lines}
        notes.extend(_unrecorded_notes(absent_pages, absent_lines, config))
        check_signatures_against_pages(signatures, pages, file=config.signers.signatures)
    voters = (
        read_voters(config.voters.file, filed_on=config.petition.filed_on)
        if config.voters.file
        else None
    )
    inhabitants = read_inhabitants(config.inhabitants.file) if config.inhabitants.file else None
    o = config.overrides
    try:
        regime = regime_for(config.petition.filed_on, stated=config.petition.regime)
    except InputError as exc:  # the core names no file: the config states the regime
        raise InputError(config.source, exc.problem, column="petition.regime") from None
    notes.extend(regime_notes(config.petition.filed_on, config.petition.regime))
    return PetitionInputs(
        name=config.petition.name,
        filed_on=config.petition.filed_on,
        bases=tuple(config.petition.bases),
        regime=regime.name,
        working_crs=working_crs,
        territory=territory,
        towns=tuple(towns),
        roll=roll,
        parcels=parcels,
        rates=rates,
        pages=pages,
        signatures=signatures,
        voters=voters,
        inhabitants=inhabitants,
        designees=tuple(Designee(d.name, d.address, d.town) for d in config.designees),
        apportionment_overrides=read_apportionment_overrides(o.apportionment)
        if o.apportionment
        else None,
        ownership_overrides=_ownership_overrides(o.ownership, roll) if o.ownership else None,
        match_decisions=read_match_decisions(o.matches) if o.matches else None,
        district=district,
        villages=villages,
        streets=streets,
        coterminous_with=config.territory.coterminous_with,
        coterminous_kind=config.territory.coterminous_kind,
        notes=notes,
        sources=sources,
        unrecorded=frozenset(unrecorded),
        territory_notes=territory_notes,
        unlisted_parcels=(
            gpd.GeoDataFrame(pd.concat(unlisted, ignore_index=True), crs=working_crs)
            if unlisted
            else None
        ),
    )
