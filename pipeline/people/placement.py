"""Placing people (voters, inhabitants, designees) on parcels by their street address.

A person is *placed* when the normalised text of their residence address equals
the normalised situs address (``parcel_address_number`` +
``parcel_address_street`` + ``parcel_address_suff``) of exactly one parcel of the
roll. The parcel's share inside the territory (``fraction_in_territory``, from
the apportionment) then says whether the person lives inside: a residence on a
parcel that straddles the boundary counts inside when at least ``threshold``
(default one half) of the parcel lies in the territory.

This first form matches exact addresses only (§ 3 of ``rules.md``: "A voter
that cannot be placed is listed for review, not guessed"):

* both sides go through :func:`pipeline.people.names.normalize_address_text`
  (upper case, USPS abbreviations, leading zeros of the house number dropped),
  which also drops unit designators (``Apt 3``, ``#2``, ``Unit B``, ``Ste 4``)
  so that every unit of an apartment house lands on the house's parcel;
* an address equal to the situs of several parcels (a duplicated situs, a
  condominium written per unit) is *ambiguous* and left unplaced, unless the
  person's town is known and exactly one of those parcels lies in that town
  (``1 Main St`` in each of two towns of the territory);
* nothing else is tried (no fuzzy street names, no nearest house number).

Reasons for an unplaced address (column ``reason``): ``"no_address"`` (blank),
``"no_number"`` (no house number: which house on the street is not said, even
where one parcel of it has no number either), ``"no_match"`` (no parcel has
that situs), ``"ambiguous"`` (several have); and, from the person's town or
city, ``"other_city"`` (:func:`hold_to_places`) and the reasons of
:func:`hold_to_towns`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pandas as pd

from pipeline.frames import PARCEL_KEY
from pipeline.people.names import normalize_address_columns, normalize_address_texts
from pipeline.tools.frames import isin

__all__ = [
    "PLACEMENT_COLUMNS",
    "REASON_AMBIGUOUS",
    "REASON_NOT_IN_TOWN",
    "REASON_NO_ADDRESS",
    "REASON_NO_MATCH",
    "REASON_NO_POLYGON",
    "REASON_NO_STREET",
    "REASON_OTHER_CITY",
    "REASON_OTHER_TOWN",
    "REASON_TOWN_DIFFERS",
    "SitusIndex",
    "hold_to_places",
    "hold_to_towns",
    "normalize_addresses",
    "place_addresses",
    "situs_addresses",
    "situs_index",
    "town_codes",
    "unplace_unmapped",
]

#: Columns of the frame :func:`place_addresses` returns.
PLACEMENT_COLUMNS: tuple[str, ...] = (
    PARCEL_KEY,  # "" when unplaced
    "placed",  # bool
    "fraction",  # float64: the parcel's fraction_in_territory; 0.0 when absent, NaN if unplaced
    "inside",  # bool: placed and fraction >= threshold
    "reason",  # "" when placed, else no_address | no_number | no_match | ambiguous | no_polygon
    # | other_town | not_in_town | town_differs (hold_to_towns) | other_city (hold_to_places)
    "candidates",  # int64: parcels whose situs equals the address
    "address_norm",  # the normalised address that was matched
)

REASON_NO_ADDRESS = "no_address"
REASON_NO_MATCH = "no_match"
REASON_NO_NUMBER = "no_number"
#: A house number and no street after it: which street is not said.
REASON_NO_STREET = "no_street"
REASON_AMBIGUOUS = "ambiguous"
REASON_NO_POLYGON = "no_polygon"
#: The person's town of record is not a town of the petition (:func:`hold_to_towns`).
REASON_OTHER_TOWN = "other_town"
#: The address names a parcel only in a town other than the person's (:func:`hold_to_towns`).
REASON_NOT_IN_TOWN = "not_in_town"
#: The person's town of record is not of the petition, but the address is on a roll
#: of the petition (:func:`hold_to_towns`): the two disagree, listed for review.
REASON_TOWN_DIFFERS = "town_differs"


#: The person's town or city is neither a town of the petition nor a post office
#: of the towns' homes, while the street address is on a roll of the petition
#: (:func:`hold_to_places`): 10 Main St in Albany is not the territory's 10 Main St.
REASON_OTHER_CITY = "other_city"


def _city_key(text: str) -> str:
    """A town or city as written, as a key of :func:`~pipeline.people.matching.place_key`.

    A ZIP code after it is no part of its name (``"Valatie, NY 12184"``).
    """
    from pipeline.people.matching import place_key

    return place_key(re.sub(r"[\s,]*\d{5}(?:-?\d{4})?\s*$", "", text))


def hold_to_places(
    placement: pd.DataFrame,
    places: pd.Series,
    *,
    towns: Mapping[str, str],
    local: frozenset[str] | None,
) -> pd.DataFrame:
    """Unplace the people whose town or city is no place of the petition's towns.

    Parameters
    ----------
    placement
        From :func:`place_addresses`.
    places
        The town or city each person writes (an inhabitant's or designee's
        ``town``; a voter's ``RCITY`` where the board records no town), on
        the placement's index; ``""`` when none.
    towns
        The petition's towns, SWIS -> name (:func:`town_codes`).
    local
        The places local to the towns, as keys of
        :func:`~pipeline.people.matching.place_key`: the towns' names, the
        roll's municipality names and the post office of every owner living
        on their parcel (``RollLookups.local`` of
        :func:`~pipeline.people.matching.roll_lookups`, the same places the
        owner matcher keeps apart from a city away). None: the roll names no
        post office of a home, and nothing is unplaced.

    Returns
    -------
    pandas.DataFrame
        ``placement`` where a person placed by the street address alone, whose
        place is written and is neither a town of the petition nor local, is
        unplaced (reason ``"other_city"``, listed for review): ``10 Main St,
        Albany`` is not the territory's ``10 Main St`` when no home of the
        towns gets its mail in Albany. A blank place, a town of the petition
        (``Town of Harlow``, ``Harlow, NY 12106``) or a local post office or
        hamlet leaves the person placed.
    """
    if local is None:
        return placement
    text = _text(places.reindex(placement.index)).str.strip()
    placed = placement["placed"].astype(bool)
    ask = placed & (text != "")
    if not ask.any():
        return placement
    petition_town = town_codes(text[ask], towns) != ""
    keys = {u: _city_key(u) for u in text[ask].unique().tolist()}
    away = ~text[ask].map(keys).isin(local) & ~petition_town
    mask = pd.Series(False, index=placement.index)
    mask.loc[away[away].index] = True
    return _unplaced(placement, mask.to_numpy(dtype=bool), REASON_OTHER_CITY)


def hold_to_towns(
    placement: pd.DataFrame,
    *,
    towns: pd.Series,
    elsewhere: pd.Series,
    parcel_towns: pd.Series,
) -> pd.DataFrame:
    """Hold each person to their town of record (a voter's ``TOWNCITY``).

    Parameters
    ----------
    placement
        From :func:`place_addresses`.
    towns
        The SWIS of each person's town of record when it is a town of the
        petition, else ``""``; on the placement's index.
    elsewhere
        True where the town of record is known and is none of the petition's
        towns; on the placement's index.
    parcel_towns
        ``parcel_key`` -> the SWIS of the roll the parcel is on.

    Returns
    -------
    pandas.DataFrame
        ``placement`` where a person of another town is not placed: reason
        ``"other_town"`` when the address is on no roll of the petition either
        (both say they live elsewhere), ``"town_differs"`` when it is (the
        two disagree: listed for review, not guessed; rules § 3). A person
        placed on a parcel of a town of the petition other than theirs is
        unplaced (reason ``"not_in_town"``, listed for review). A parcel of
        unknown town holds anyone.
    """
    out_town = elsewhere.reindex(placement.index).fillna(False).astype(bool).to_numpy()
    town = towns.reindex(placement.index).fillna("").astype(str)
    placed = placement["placed"].astype(bool).to_numpy()
    on = placement[PARCEL_KEY].astype(str).map(parcel_towns).fillna("").astype(str)
    wrong = placed & (town != "").to_numpy() & (on != "").to_numpy() & (on != town).to_numpy()
    if not (out_town.any() or wrong.any()):
        return placement
    on_roll = placement["candidates"].astype("int64").to_numpy() > 0
    out = _unplaced(placement, wrong & ~out_town, REASON_NOT_IN_TOWN)
    out = _unplaced(out, out_town & on_roll, REASON_TOWN_DIFFERS)
    return _unplaced(out, out_town & ~on_roll, REASON_OTHER_TOWN)


def _unplaced(placement: pd.DataFrame, mask: npt.NDArray[np.bool_], reason: str) -> pd.DataFrame:
    """``placement`` (a copy) with the rows of ``mask`` unplaced for ``reason``."""
    if not mask.any():
        return placement
    out = placement.copy()
    out.loc[mask, PARCEL_KEY] = ""
    out.loc[mask, "placed"] = False
    out.loc[mask, "fraction"] = np.nan
    out.loc[mask, "inside"] = False
    out.loc[mask, "reason"] = reason
    return out


def unplace_unmapped(placement: pd.DataFrame, mapped: pd.Index) -> pd.DataFrame:
    """Unplace the addresses placed on a parcel whose place is unknown.

    A roll record without a polygon (and without an apportionment override)
    may lie inside or outside the territory: a person living there cannot be
    placed (rules § 3: "listed for review, not guessed"), rather than counted
    outside.

    Parameters
    ----------
    placement
        From :func:`place_addresses`.
    mapped
        The parcel keys whose fraction is known: a polygon, or an override.

    Returns
    -------
    pandas.DataFrame
        ``placement`` with those rows unplaced (``parcel_key`` ``""``,
        ``fraction`` NaN, ``inside`` False, ``reason`` ``"no_polygon"``).
    """
    keys = placement[PARCEL_KEY].astype("str")
    # arrow's is_in (Series.isin walks a Python set value by value: seconds here)
    lost = placement["placed"].astype(bool).to_numpy() & ~isin(keys, pd.Series(mapped))
    if not lost.any():
        return placement
    return _unplaced(placement, lost, REASON_NO_POLYGON)


def _text(values: pd.Series) -> pd.Series:
    """Text of a column as ``str`` with ``""`` for missing values."""
    return values.astype("object").where(values.notna(), "").astype(str)


def normalize_addresses(addresses: pd.Series) -> pd.Series:
    """Normalise a column of free-text addresses, one parse per distinct spelling.

    Parameters
    ----------
    addresses
        Street number and name as written (``"12 Oak Street Apt 3"``); missing
        values give ``""``.

    Returns
    -------
    pandas.Series
        The keys of :func:`~pipeline.people.names.normalize_address_text`, on
        the same index.
    """
    text = _text(addresses)
    codes, uniques = pd.factorize(text.to_numpy())
    keys = np.asarray([*normalize_address_texts(uniques.tolist()), ""], dtype=object)
    return pd.Series(keys[codes], index=addresses.index, dtype=str)


def town_codes(texts: pd.Series, towns: Mapping[str, str]) -> pd.Series:
    """The town SWIS named by each text (``""`` when it names none of ``towns``).

    ``towns`` maps a town's SWIS to its name; ``"Harlow"``, ``"HARLOW"``,
    ``"Town of Harlow"`` and ``"Harlow, NY 12106"`` all name the town Harlow.
    A postal city that is not the town's name names none (the address alone
    then decides).
    """

    def key(text: str) -> str:
        words = re.sub(r"[^A-Z0-9 ]", " ", text.upper()).split()
        if words[:2] == ["TOWN", "OF"]:
            words = words[2:]
        # "Harlow, NY 12106", "Harlow, New York": the state and ZIP code are no
        # part of the town's name
        if words and re.fullmatch(r"\d{5}(\d{4})?", words[-1]):
            words = words[:-1]
        if len(words) > 1 and words[-1] in ("NY", "NYS"):
            words = words[:-1]
        elif len(words) > 2 and words[-2:] == ["NEW", "YORK"]:
            words = words[:-2]
        return " ".join(words)

    by_name = {key(name): swis for swis, name in towns.items()}
    uniques = _text(texts).unique().tolist()
    found = {u: by_name.get(key(u), "") for u in uniques}
    return _text(texts).map(found).astype(str)


def situs_addresses(roll: pd.DataFrame) -> pd.DataFrame:
    """The normalised situs address of every roll record.

    Parameters
    ----------
    roll
        A roll frame (:data:`pipeline.frames.ROLL_COLUMNS`): uses
        ``parcel_key``, ``parcel_address_number``, ``parcel_address_street``
        and ``parcel_address_suff``.

    Returns
    -------
    pandas.DataFrame
        Columns ``parcel_key``, ``address_norm`` (``""`` for a record without a
        situs address) and ``town_swis`` (the record's ``municipality_code``,
        ``""`` without one), one row per roll record, on the roll's index.

    Notes
    -----
    The three fields are joined and normalised like a free-text address
    (:func:`~pipeline.people.names.normalize_address`), each distinct street
    once (:func:`~pipeline.people.names.normalize_address_columns`): about
    0.2 s for 200,000 records.
    """
    norm = normalize_address_columns(
        _text(roll["parcel_address_number"]),
        _text(roll["parcel_address_street"]),
        _text(roll["parcel_address_suff"]),
    )
    town = (
        _text(roll["municipality_code"])
        if "municipality_code" in roll.columns
        else pd.Series("", index=roll.index, dtype="str")
    )
    return pd.DataFrame(
        {
            PARCEL_KEY: _text(roll[PARCEL_KEY]),
            "address_norm": norm.astype(str),
            "town_swis": town.astype(str),
        },
        index=roll.index,
    )


@dataclass(frozen=True)
class SitusIndex:
    """The situs table reduced for lookups (:func:`situs_index`).

    ``size``: ``address_norm`` -> number of distinct parcels with that situs;
    ``parcel``: ``address_norm`` -> the parcel, for the addresses of exactly one;
    ``in_town``: ``"address_norm|town_swis"`` -> the parcel, for an address of
    several parcels of which exactly one lies in that town.
    """

    size: pd.Series
    parcel: pd.Series
    in_town: pd.Series = field(default_factory=lambda: pd.Series(dtype=object))


def situs_index(situs: pd.DataFrame) -> SitusIndex:
    """Reduce :func:`situs_addresses` once for several :func:`place_addresses`.

    Parameters
    ----------
    situs
        Columns ``parcel_key`` and ``address_norm``.

    Returns
    -------
    SitusIndex
        Blank addresses left out; several roll records of one parcel with one
        situs count once.
    """
    pairs = situs.loc[situs["address_norm"] != "", [PARCEL_KEY, "address_norm"]]
    pairs = pairs.drop_duplicates()
    counts = pairs.groupby("address_norm", sort=False)[PARCEL_KEY].agg(["size", "first"])
    in_town = pd.Series(dtype=object)
    shared = counts.index[counts["size"] > 1]
    if len(shared) and "town_swis" in situs.columns:
        rows = situs.loc[
            situs["address_norm"].isin(shared) & (situs["town_swis"] != ""),
            [PARCEL_KEY, "address_norm", "town_swis"],
        ].drop_duplicates()
        by = rows["address_norm"] + "|" + rows["town_swis"]
        per = rows[PARCEL_KEY].groupby(by.to_numpy(), sort=False).agg(["size", "first"])
        in_town = per.loc[per["size"] == 1, "first"]
    return SitusIndex(counts["size"], counts.loc[counts["size"] == 1, "first"], in_town)


def place_addresses(
    addresses: pd.Series,
    *,
    situs: pd.DataFrame | SitusIndex,
    fractions: pd.Series,
    threshold: float = 0.5,
    towns: pd.Series | None = None,
) -> pd.DataFrame:
    """Place each address on the one parcel whose situs address equals it.

    Parameters
    ----------
    addresses
        Free-text residence addresses (``"12 Oak Street"``, ``"12 Oak St Apt 3"``).
    situs
        Columns ``parcel_key`` and ``address_norm``, from :func:`situs_addresses`
        (several roll records of one parcel with one situs count once), or
        that table reduced once by :func:`situs_index` (same result).
    fractions
        ``parcel_key`` -> ``fraction_in_territory`` (0..1). A parcel missing
        here lies outside the territory (fraction 0).
    threshold
        Smallest fraction of a parcel inside the territory for its residents to
        count as inside. At exactly ``threshold`` they are inside.
    towns
        Optional town SWIS of each address (``""`` when unknown), on the index
        of ``addresses``: an address of several parcels is placed on the one
        in that town, when there is exactly one.

    Returns
    -------
    pandas.DataFrame
        On the index of ``addresses``, the columns of :data:`PLACEMENT_COLUMNS`:
        ``parcel_key`` (``""`` when unplaced), ``placed``, ``fraction`` (NaN when
        unplaced), ``inside``, ``reason``, ``candidates``, ``address_norm``.

    Raises
    ------
    ValueError
        When ``fractions`` lists a parcel twice.

    Notes
    -----
    ``inside = placed and fraction >= threshold``. The situs table is reduced
    once to ``address_norm -> parcel`` for the addresses that name exactly one
    parcel; each distinct address is normalised once; the lookups are hash
    joins, so 150,000 addresses against 200,000 parcels take about a second.
    """
    if fractions.index.has_duplicates:
        dup = fractions.index[fractions.index.duplicated()][0]
        raise ValueError(f"fractions lists parcel {dup!r} more than once")
    norm = normalize_addresses(addresses)

    index = situs if isinstance(situs, SitusIndex) else situs_index(situs)
    n_candidates = norm.map(index.size).fillna(0).astype("int64")
    key = norm.map(index.parcel)
    if towns is not None and len(index.in_town):
        town = towns.reindex(addresses.index).fillna("").astype(str)
        tied = key.isna() & (n_candidates > 1) & (town != "")
        if tied.any():
            key = key.where(~tied, (norm + "|" + town).map(index.in_town))
    # a house number first ("12 …", "7 1/2 …"): without one, which house on the
    # street is not said, and it is not guessed
    numbered = norm.str.match(r"[0-9]").fillna(False).astype(bool)
    # and a street after it: a number alone ("165, Walnut Ave" cut at its
    # comma, a voter's number with no street) names no house; it matched a
    # roll record written with a number and no street (audit A39 F1)
    streeted = norm.str.match(r"[0-9][^ ]*(?: [0-9]+/[0-9]+)? +[^ ]").fillna(False).astype(bool)
    placed = key.notna() & (norm != "") & numbered & streeted
    key_text = key.where(placed, "").astype(str)

    frac_map = fractions.astype("float64")
    fraction = key_text.map(frac_map).astype("float64")
    fraction = fraction.where(~placed | fraction.notna(), 0.0)  # placed, not listed: outside
    fraction = fraction.where(placed, np.nan)
    inside = placed & (fraction >= threshold)

    reason = pd.Series(
        np.select(
            [norm == "", placed, ~numbered, ~streeted, n_candidates > 1],
            [REASON_NO_ADDRESS, "", REASON_NO_NUMBER, REASON_NO_STREET, REASON_AMBIGUOUS],
            default=REASON_NO_MATCH,
        ),
        index=addresses.index,
        dtype=str,
    )
    return pd.DataFrame(
        {
            PARCEL_KEY: key_text,
            "placed": placed.astype(bool),
            "fraction": fraction,
            "inside": inside.astype(bool),
            "reason": reason,
            "candidates": n_candidates,
            "address_norm": norm,
        },
        index=addresses.index,
    )
