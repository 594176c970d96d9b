"""Later roll years of the sample: splits, merges, sales and a reassessment, one year on.

:func:`next_year` turns one year's roll (the text table of
:func:`pipeline.sample._roll.roll_frame`) and parcel layer into the next
year's, with the changes an assessor makes in a year:

* **splits**: a lot cut in two across its longer side, 30 to 60 % of the way
  along (``11.-1-2`` becomes ``11.-1-2.1`` and ``11.-1-2.2``), land, total,
  full and taxable values divided by area; the second half becomes vacant
  land (class 311) without a house number;
* **merges**: a lot whose key is a subdivision (``11.-7-7.1``) joined with a
  vacant neighbour (class 3xx) sharing an edge; the merged parcel takes the
  parent key (``11.-7-7``) and the lot's address, the neighbour's key is
  retired;
* **sales**: the parcels of a few signers of the petition and a few other
  parcels get new owners (invented persons) who mail at the parcel;
* **values**: the first town (at 100 %) reassesses by :data:`REASSESSMENT`;
  every other town keeps its assessments and its full market value follows
  the next year's equalization rate.

Everything is drawn from the generator passed in: same seed, same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from pipeline.sample import _lexicon as lx
from pipeline.sample._roll import OWNER_FIELDS, RESIDENTIAL, Town, make_people

#: Class of the second half of a split lot (residential vacant land).
VACANT = "311"
#: Reassessment of the first town (at 100 %) from one year to the next.
REASSESSMENT = 1.04
#: Lots split, lots merged (pairs), other sales, per year.
SPLITS = 3
MERGES = 2
SALES = 12

_VALUES = ("assessment_land", "assessment_total", "full_market_value", "town_taxable_value")


@dataclass(frozen=True)
class Year:
    """One roll year: the roll (text, ``town`` kept) and the parcel layer.

    ``parcels`` columns: ``swis_code``, ``print_key_code``, ``geometry`` (shapely).
    ``changes`` lists what was done to reach this year, one line each (empty
    for the first year).
    """

    year: int
    roll: pd.DataFrame
    parcels: pd.DataFrame
    changes: tuple[str, ...] = ()


def _halves(poly: shapely.Geometry, at: float) -> tuple[shapely.Geometry, shapely.Geometry] | None:
    """``poly`` cut in two across its longer side, ``at`` (0..1) along its bounding box.

    ``None`` when the cut does not give two polygons.
    """
    minx, miny, maxx, maxy = poly.bounds
    if maxx - minx >= maxy - miny:
        x = minx + at * (maxx - minx)
        a = shapely.box(minx - 1, miny - 1, x, maxy + 1)
        b = shapely.box(x, miny - 1, maxx + 1, maxy + 1)
    else:
        y = miny + at * (maxy - miny)
        a = shapely.box(minx - 1, miny - 1, maxx + 1, y)
        b = shapely.box(minx - 1, y, maxx + 1, maxy + 1)
    ha, hb = poly.intersection(a), poly.intersection(b)
    if ha.geom_type != "Polygon" or hb.geom_type != "Polygon":
        return None
    return ha, hb


def _int(s: pd.Series) -> np.ndarray:
    return s.astype("int64").to_numpy()


def _divide(row: pd.Series, share: float) -> tuple[dict[str, str], dict[str, str]]:
    """The values of ``row`` divided: ``share`` (rounded to 100) and the remainder."""
    a: dict[str, str] = {}
    b: dict[str, str] = {}
    for c in _VALUES:
        v = int(row[c])
        part = int(round(v * share, -2))
        a[c], b[c] = str(part), str(v - part)
    return a, b


def _new_owners(
    roll: pd.DataFrame, idx: Sequence[int], towns: Sequence[Town], rng: np.random.Generator
) -> None:
    """Give the rows ``idx`` of ``roll`` new owners who live at the parcel (in place)."""
    people = make_people(2 * len(idx), rng, min_age=25, max_age=80)
    couple = rng.random(len(idx)) < 0.5
    for k, i in enumerate(idx):
        for f in OWNER_FIELDS:
            roll.at[i, f] = ""
        p, q = people.iloc[2 * k], people.iloc[2 * k + 1]
        roll.at[i, "primary_owner_first_name"] = p["first"]
        roll.at[i, "primary_owner_mi"] = p["mi"]
        roll.at[i, "primary_owner_last_name"] = p["last"]
        roll.at[i, "primary_owner_suffix"] = p["suffix"]
        if couple[k] and q["first"] != p["first"]:
            roll.at[i, "additional_owner_1_first"] = q["first"]
            roll.at[i, "additional_owner_1_mi"] = q["mi"]
            roll.at[i, "additional_owner_1_last_name"] = p["last"]
        t = towns[int(roll.at[i, "town"])]
        village = str(roll.at[i, "swis_code"]).endswith("01")
        roll.at[i, "mailing_address_number"] = roll.at[i, "parcel_address_number"]
        roll.at[i, "mailing_address_street"] = roll.at[i, "parcel_address_street"]
        roll.at[i, "mailing_address_suff"] = roll.at[i, "parcel_address_suff"]
        roll.at[i, "mailing_address_city"] = lx.VILLAGE_NAMES[0] if village else t.name
        roll.at[i, "mailing_address_state"] = "NY"
        roll.at[i, "mailing_address_zip"] = t.zip


def _owner_text(row: pd.Series) -> str:
    first = " ".join(
        str(row[f]) for f in ("primary_owner_first_name", "primary_owner_last_name") if row[f]
    )
    return first or "(no owner)"


def next_year(
    this: Year,
    *,
    towns: Sequence[Town],
    rates: Mapping[tuple[str, int], float],
    territory: shapely.Geometry,
    signer_parcels: Sequence[tuple[str, str]],
    rng: np.random.Generator,
) -> Year:
    """The roll and parcel layer of the year after ``this``.

    Parameters
    ----------
    this
        The year before.
    towns
        The towns of the sample (``roll["town"]`` indexes them).
    rates
        Equalization rate by ``(municipality code, rate year)``; the next year's
        must be present.
    territory
        The proposed territory: the splits and merges are chosen inside it
        (two of each kind when possible) so that a run shows them.
    signer_parcels
        ``(swis, print key)`` of parcels credited to signers: they are sold
        (none of them is split or merged).
    rng
        The generator every choice is drawn from.

    Returns
    -------
    Year
        The next year, with ``changes`` describing each change.

    Notes
    -----
    Split: with :math:`a_1, a_2` the halves' areas, the first child takes
    :math:`\\operatorname{round}_{100}(v\\,a_1/(a_1+a_2))` of each value
    :math:`v` and the second the rest, so the sum is kept. Merge: values
    summed. Reassessment of the first town: :math:`t' = \\max(100,
    \\operatorname{round}_{100}(1.04\\,t))`, land likewise (at most
    :math:`t'`), full value :math:`= t'`, exemptions kept
    (:math:`x' = \\max(0, t' - (t - x))`, 0 when the record was wholly
    exempt). Other towns: full value :math:`= \\operatorname{round}(t / (r/100))`
    with the next year's rate :math:`r`.
    """
    year = this.year + 1
    roll = this.roll.copy().reset_index(drop=True)
    roll["roll_year"] = str(year)
    changes: list[str] = []
    layer = this.parcels.reset_index(drop=True)
    geom = {
        (str(s), str(k)): g
        for s, k, g in zip(
            layer["swis_code"], layer["print_key_code"], layer["geometry"], strict=True
        )
    }
    keys = list(zip(roll["swis_code"].astype(str), roll["print_key_code"].astype(str), strict=True))
    taken = set(keys)
    inside = np.array([k in geom and bool(shapely.within(geom[k], territory)) for k in keys])
    section1 = (roll["roll_section"] == "1").to_numpy()
    residential = roll["property_class"].isin(RESIDENTIAL).to_numpy()
    signers = set(signer_parcels)
    locked = np.array([k in signers for k in keys])

    # Sales: the signers' parcels, then a few others.
    sold = [i for i, k in enumerate(keys) if k in signers]
    pool = section1 & residential & ~locked
    half = SALES // 2
    others = sorted(
        int(i)
        for sel in (pool & inside, pool & ~inside)
        for i in rng.permutation(np.flatnonzero(sel))[:half]
    )
    for i in [*sold, *others]:
        before = _owner_text(roll.iloc[i])
        _new_owners(roll, [i], towns, rng)
        changes.append(
            f"sold: {keys[i][0]}:{keys[i][1]} {before} -> {_owner_text(roll.iloc[i])}"
            + (" (a signer's parcel)" if i in sold else "")
        )
    locked[others] = True

    # Splits: lots of a plain key (no '.' in the lot number), residential, large enough.
    area = np.array([shapely.area(geom[k]) if k in geom else 0.0 for k in keys])
    plain = np.array(["." not in k[1].rsplit("-", 1)[-1] for k in keys])
    ok = section1 & residential & plain & ~locked & (area > 2 * 43_560)
    want = [
        *rng.permutation(np.flatnonzero(ok & inside))[:2],
        *rng.permutation(np.flatnonzero(ok & ~inside)),
    ]
    split: dict[int, tuple[pd.Series, pd.Series, shapely.Geometry, shapely.Geometry]] = {}
    for i in want:
        if len(split) == SPLITS:
            break
        k = keys[int(i)]
        cut = _halves(geom[k], float(np.round(rng.uniform(0.3, 0.6), 2)))
        kids = [(k[0], f"{k[1]}.1"), (k[0], f"{k[1]}.2")]
        if cut is None or any(c in taken for c in kids):
            continue
        share = shapely.area(cut[0]) / (shapely.area(cut[0]) + shapely.area(cut[1]))
        va, vb = _divide(roll.iloc[int(i)], share)
        a, b = roll.iloc[int(i)].copy(), roll.iloc[int(i)].copy()
        a["print_key_code"], b["print_key_code"] = kids[0][1], kids[1][1]
        for c in _VALUES:
            a[c], b[c] = va[c], vb[c]
        # The new lot is vacant land on the same street, without a house number yet.
        b["property_class"], b["parcel_address_number"] = VACANT, ""
        b["assessment_land"] = b["assessment_total"]
        split[int(i)] = (a, b, cut[0], cut[1])
        taken.update(kids)
        locked[int(i)] = True
        changes.append(
            f"split: {k[0]}:{k[1]} -> {kids[0][1]}, {kids[1][1]} ({share:.0%} / {1 - share:.0%})"
        )

    # Merges: a subdivided lot (key '…-7.1') and a neighbour sharing an edge -> parent key.
    sub = np.array([k[1].endswith(".1") for k in keys])
    cand = np.flatnonzero(section1 & sub & ~locked & np.array([k in geom for k in keys]))
    cand = np.concatenate([cand[inside[cand]], cand[~inside[cand]]])
    vacant = roll["property_class"].astype(str).str.startswith("3").to_numpy()
    tree_keys = [k for k in keys if k in geom]
    tree = shapely.STRtree([geom[k] for k in tree_keys])
    row_of = {k: i for i, k in enumerate(keys)}
    merged: dict[int, tuple[int, str, shapely.Geometry]] = {}
    for i in cand:
        if len(merged) == MERGES:
            break
        k = keys[int(i)]
        parent = k[1][: -len(".1")]
        if (k[0], parent) in taken or locked[int(i)]:
            continue
        near = tree.query(geom[k].buffer(1.0))
        best: tuple[float, int] | None = None
        for t in sorted(int(x) for x in near):
            j = row_of[tree_keys[t]]
            if j == i or locked[j] or keys[j][0] != k[0] or not section1[j] or not vacant[j]:
                continue
            edge = shapely.length(shapely.intersection(geom[k].boundary, geom[keys[j]].boundary))
            if edge > 20.0 and (best is None or edge > best[0]):
                best = (float(edge), j)
        if best is None:
            continue
        j = best[1]
        union = shapely.union(geom[k], geom[keys[j]])
        if union.geom_type != "Polygon":
            continue
        merged[int(i)] = (j, parent, union)
        locked[[int(i), j]] = True
        taken.add((k[0], parent))
        changes.append(f"merged: {k[0]}:{k[1]} + {keys[j][1]} -> {parent}")

    # Rebuild the roll and the layer in roll order: unchanged rows are taken whole
    # (no row-by-row copy), changed ones put back at their place (row i, then part).
    drop = {j for j, _, _ in merged.values()}
    keep: list[int] = []
    changed: list[pd.Series] = []
    at: list[tuple[int, int]] = []
    polys: list[tuple[str, str, shapely.Geometry]] = []
    for i in range(len(roll)):
        if i in drop:
            continue
        k = keys[i]
        if i in split:
            a, b, ga, gb = split[i]
            changed += [a, b]
            at += [(i, 0), (i, 1)]
            polys += [(k[0], str(a["print_key_code"]), ga), (k[0], str(b["print_key_code"]), gb)]
            continue
        if i in merged:
            j, parent, union = merged[i]
            r = roll.iloc[i].copy()
            r["print_key_code"] = parent
            for c in _VALUES:
                r[c] = str(int(r[c]) + int(roll.at[j, c]))
            changed.append(r)
            at.append((i, 0))
            polys.append((k[0], parent, union))
            continue
        keep.append(i)
        if k in geom:
            polys.append((k[0], k[1], geom[k]))
    kept = roll.iloc[keep].astype(object)
    order = [(i, 0) for i in keep]
    if changed:
        kept = pd.concat([kept, pd.DataFrame(changed).astype(object)])
        order += at
    rank = sorted(range(len(order)), key=order.__getitem__)
    out = kept.iloc[rank].reset_index(drop=True)

    # Values: reassessment of the first town, full value at the next rate elsewhere.
    tix = _int(out["town"])
    total = _int(out["assessment_total"])
    land = _int(out["assessment_land"])
    taxable = _int(out["town_taxable_value"])
    first = tix == 0
    new_total = np.where(first, np.maximum(np.round(total * REASSESSMENT, -2), 100), total)
    new_land = np.where(first, np.minimum(np.round(land * REASSESSMENT, -2), new_total), land)
    new_taxable = np.where(
        first & (taxable > 0), np.maximum(new_total - (total - taxable), 0), taxable
    )
    rate = np.array([rates[(t.code, year)] for t in towns])[tix] / 100.0
    out["assessment_total"] = new_total.astype(np.int64).astype(str)
    out["assessment_land"] = new_land.astype(np.int64).astype(str)
    out["town_taxable_value"] = new_taxable.astype(np.int64).astype(str)
    out["full_market_value"] = np.round(new_total / rate).astype(np.int64).astype(str)
    changes.append(
        f"reassessment: town {towns[0].code} ({towns[0].name}) values x {REASSESSMENT:g}"
    )
    for t in towns:
        before, after = rates[(t.code, this.year)], rates[(t.code, year)]
        if before != after:
            changes.append(f"equalization rate: town {t.code} ({t.name}) {before:g} -> {after:g}")
    parcels = pd.DataFrame(polys, columns=["swis_code", "print_key_code", "geometry"])
    return Year(year=year, roll=out, parcels=parcels, changes=tuple(changes))
