"""Inhabitants, voters, designees and the signature lines with their true identity.

Households live on residential parcels (apartments share a parcel); owners
who are not absentee live on their home parcel. People are generated for the
parcels that touch the territory and for a sample of parcels outside it (so
that the voter file holds some voters outside the territory). Signature lines
copy a true person and then apply the noise of transcribed handwriting; the
noise applied is recorded in the ground truth.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from pipeline.sample import _lexicon as lx
from pipeline.sample._parcels import X0, Y0, Layout
from pipeline.sample._roll import RESIDENTIAL, Roll, Town, make_people

LINES_PER_PAGE = 25
_UNITS = {"215": 2, "220": 2, "230": 3, "280": 2, "260": 0}


@dataclass(frozen=True)
class People:
    """Residents (one row per person), voters, inhabitants list, designees, signatures."""

    residents: pd.DataFrame
    voters: pd.DataFrame
    inhabitants: pd.DataFrame
    designees: list[dict[str, str]]
    pages: pd.DataFrame
    signatures: pd.DataFrame
    truth: pd.DataFrame


def _addr(num: str, street: str, suff: str, apt: str = "") -> str:
    s = f"{num} {street} {suff}".strip().replace("  ", " ")
    return f"{s} Apt {apt}" if apt else s


def _full(first: str, mi: str, last: str, suffix: str) -> str:
    parts = [first, f"{mi}." if mi else "", last, suffix]
    return " ".join(p for p in parts if p)


def build_residents(
    layout: Layout, roll: Roll, towns: list[Town], rng: np.random.Generator
) -> pd.DataFrame:
    """One row per resident: person fields, ``rec`` (roll record), ``apt``, ``owner``."""
    rec = roll.records
    cls = rec["property_class"].to_numpy().astype(str)
    lot = rec["lot"].to_numpy()
    in_t = rec["in_territory"].to_numpy()
    res = (
        (lot >= 0)
        & (np.isin(cls, RESIDENTIAL) | (cls == "411"))
        & (rec["roll_section"].to_numpy() == 1)
    )
    inside = np.flatnonzero(res & in_t)
    outside = np.flatnonzero(res & ~in_t)
    k_out = min(outside.size, max(40, inside.size // 6))
    outside = np.sort(rng.choice(outside, size=k_out, replace=False)) if k_out else outside
    chosen = np.concatenate([inside, outside])
    units = np.array([_UNITS.get(c, 1) for c in cls[chosen]])
    units[cls[chosen] == "411"] = rng.integers(4, 13, int((cls[chosen] == "411").sum()))
    hh_rec = np.repeat(chosen, units)
    hh_unit = np.arange(hh_rec.size) - np.repeat(np.cumsum(units) - units, units)
    multi = np.repeat(units > 1, units)
    apt = np.where(multi, (hh_unit + 1).astype(str), "")

    g = roll.groups
    group_of = rec["group"].to_numpy()
    kind = g["kind"].to_numpy().astype(str)
    absentee = g["absentee"].to_numpy()
    slots = g[["p0", "p1", "p2", "p3"]].to_numpy()
    owners_live = (
        (hh_unit == 0)
        & np.isin(kind[group_of[hh_rec]], ("person", "couple", "multi"))
        & ~absentee[group_of[hh_rec]]
    )
    # Households: owner-occupants or 1-2 renting adults, plus children.
    n_hh = hh_rec.size
    n_rent = np.where(owners_live, 0, rng.choice([1, 2, 2], n_hh))
    n_kids = rng.choice([0, 0, 0, 0, 1, 1, 2, 3], n_hh)
    n_adult_child = (rng.random(n_hh) < 0.1).astype(int)
    renters = make_people(int(n_rent.sum() + n_adult_child.sum()), rng, min_age=18, max_age=88)
    kids = make_people(int(n_kids.sum()), rng, min_age=0, max_age=17)
    people = roll.people
    rows: list[pd.DataFrame] = []
    # Owner-occupants.
    own_hh = np.flatnonzero(owners_live)
    own_slots = slots[group_of[hh_rec[own_hh]]]
    for k in range(4):
        have = own_slots[:, k] >= 0
        p = own_slots[have, k]
        part = people.iloc[p].reset_index(drop=True)
        part["pid"] = p
        part["hh"] = own_hh[have]
        part["owner"] = True
        rows.append(part)
    off = 0
    base = len(people)
    rent_hh = np.repeat(np.arange(n_hh), n_rent + n_adult_child)
    part = renters.copy()
    part["pid"] = base + np.arange(len(renters))
    part["hh"] = rent_hh
    part["owner"] = False
    # Adult children share the household's last name when there is an owner.
    rows.append(part)
    off = base + len(renters)
    part = kids.copy()
    part["pid"] = off + np.arange(len(kids))
    part["hh"] = np.repeat(np.arange(n_hh), n_kids)
    part["owner"] = False
    rows.append(part)
    out = pd.concat(rows, ignore_index=True).sort_values(["hh", "age"], ascending=[True, False])
    out = out.reset_index(drop=True)
    # Children take the household head's last name.
    head_last = out.groupby("hh")["last"].transform("first")
    young = out["age"].to_numpy() < 25
    out.loc[young, "last"] = head_last[young]
    out["rec"] = hh_rec[out["hh"].to_numpy()]
    out["apt"] = apt[out["hh"].to_numpy()]
    out["in_territory"] = in_t[out["rec"].to_numpy()]
    return out


def _ed(layout: Layout, rec: pd.DataFrame, rows: np.ndarray) -> np.ndarray:
    lots = rec["lot"].to_numpy()[rows]
    c = shapely.get_coordinates(shapely.centroid(layout.polygons[lots]))
    size = 8000.0
    return (
        1 + (np.floor((c[:, 0] - X0) / size) * 7 + np.floor((c[:, 1] - Y0) / size)) % 40
    ).astype(int)


def build_voters(
    layout: Layout,
    roll: Roll,
    residents: pd.DataFrame,
    towns: list[Town],
    rng: np.random.Generator,
) -> pd.DataFrame:
    """Registered voters among the residents, in BOE field names (plus ``pid``, ``rec``)."""
    age = residents["age"].to_numpy()
    r = rng.random(len(residents))
    adult = age >= 18
    reg = (adult & (r < 0.82)) | ((age >= 16) & (age < 18) & (r < 0.4))
    v = residents[reg].reset_index(drop=True)
    n = len(v)
    s = rng.random(n)
    status = np.select([s < 0.87, s < 0.93, s < 0.945], ["A", "I", "AM"], "P").astype(object)
    status[v["age"].to_numpy() < 18] = "17"
    ids = 10_000_000 + np.cumsum(rng.integers(1, 40, n))
    ids = ids[rng.permutation(n)]
    rec = roll.records
    rr = v["rec"].to_numpy()
    tidx = rec["town"].to_numpy()[rr]
    village = rec["swis_code"].to_numpy().astype(str)[rr]
    tn = np.array([t.name for t in towns], dtype=object)[tidx]
    city = np.where(np.char.endswith(village.astype(str), "01"), lx.VILLAGE_NAMES[0], tn)
    street = (
        rec["parcel_address_street"].to_numpy().astype(str)[rr].astype(object)
        + " "
        + rec["parcel_address_suff"].to_numpy().astype(str)[rr]
    )
    street = np.char.strip(street.astype(str))
    regyear = np.maximum(2023 - v["age"].to_numpy() + 18, 1972)
    regdate = (
        np.minimum(regyear + rng.integers(0, 10, n), 2023) * 10000
        + rng.integers(1, 13, n) * 100
        + rng.integers(1, 29, n)
    )
    voted = rng.random(n) < 0.7
    last_vote = np.where(voted & (status != "17"), "20221108", "")
    inact = np.where(status == "I", "20210315", "")
    purge = np.where(status == "P", "20220601", "")
    reason = np.select([status == "I", status == "P"], ["MAIL-CHECK", "MOVED"], "")
    up = np.vectorize(str.upper, otypes=[object])
    out = pd.DataFrame(
        {
            "LASTNAME": up(v["last"].to_numpy(dtype=object)),
            "FIRSTNAME": up(v["first"].to_numpy(dtype=object)),
            "MIDDLENAME": up(v["mi"].to_numpy(dtype=object)),
            "NAMESUFFIX": up(v["suffix"].to_numpy(dtype=object)),
            "RADDNUMBER": rec["parcel_address_number"].to_numpy().astype(str)[rr],
            "RHALFCODE": "",
            "RPREDIRECTION": "",
            "RSTREETNAME": up(street.astype(object)),
            "RPOSTDIRECTION": "",
            "RAPARTMENTTYPE": np.where(v["apt"].to_numpy() != "", "APT", ""),
            "RAPARTMENT": v["apt"].to_numpy(),
            "RADDRNONSTD": "",
            "RCITY": up(city),
            "RZIP5": np.array([t.zip for t in towns])[tidx],
            "RZIP4": "",
            "MAILADD1": "",
            "MAILADD2": "",
            "MAILADD3": "",
            "MAILADD4": "",
            "DOB": v["dob"].to_numpy(),
            "GENDER": v["gender"].to_numpy(),
            "ENROLLMENT": np.array(["DEM", "REP", "BLK", "CON", "WOR", "OTH"])[
                rng.choice(6, n, p=[0.36, 0.3, 0.26, 0.03, 0.02, 0.03])
            ],
            "OTHERPARTY": "",
            "COUNTYCODE": "11",
            "ED": np.char.zfill(_ed(layout, rec, rr).astype(str), 3),
            "LD": "",
            "TOWNCITY": up(tn),
            "WARD": "",
            "CD": "19",
            "SD": "43",
            "AD": "107",
            "LASTVOTERDATE": last_vote,
            "PREVYEARVOTED": np.where(voted, "2021", ""),
            "PREVCOUNTY": "",
            "PREVADDRESS": "",
            "PREVNAME": "",
            "COUNTYVRNUMBER": (ids % 1_000_000 + 1_000_000).astype(str),
            "REGDATE": regdate.astype(str),
            "VRSOURCE": np.array(["DMV", "MAIL", "AGCY", "CBOE"])[rng.integers(0, 4, n)],
            "IDREQUIRED": "N",
            "IDMET": "Y",
            "STATUS": status.astype(str),
            "REASONCODE": reason,
            "INACT_DATE": inact,
            "PURGE_DATE": purge,
            "SBOEID": np.char.add("NY", np.char.zfill(ids.astype(str), 18)),
            "VOTERHISTORY": np.where(voted, "20221108 GE;20211102 GE;20201103 GE", ""),
        }
    )
    out["pid"] = v["pid"].to_numpy()
    out["rec"] = rr
    out["in_territory"] = v["in_territory"].to_numpy()
    return out


def _name_noise(
    first: str, mi: str, last: str, suffix: str, rng: np.random.Generator
) -> tuple[str, list[str]]:
    notes: list[str] = []
    if first in lx.NICKNAMES and rng.random() < 0.15:
        opts = lx.NICKNAMES[first]
        first = opts[int(rng.integers(0, len(opts)))]
        notes.append("nickname")
    if mi and rng.random() < 0.3:
        mi = ""
        notes.append("dropped_mi")
    if suffix and rng.random() < 0.5:
        suffix = ""
        notes.append("dropped_suffix")
    elif not suffix and rng.random() < 0.01:
        suffix = "Jr"
        notes.append("extra_suffix")
    plain = last.translate(str.maketrans("áéíóúñüöëøÁÉÍÓÚ", "aeiounuoeoAEIOU"))
    f_plain = first.translate(str.maketrans("éëíáñ", "eeian"))
    if (plain != last or f_plain != first) and rng.random() < 0.5:
        last, first = plain, f_plain
        notes.append("accent_dropped")
    if len(last) > 4 and rng.random() < 0.05:
        k = int(rng.integers(1, len(last) - 2))
        last = last[:k] + last[k + 1] + last[k] + last[k + 2 :]
        notes.append("typo")
    name = " ".join(
        p for p in (first, f"{mi}." if mi and rng.random() < 0.5 else mi, last, suffix) if p
    )
    return name, notes


def _addr_noise(
    num: str, street: str, suff: str, rng: np.random.Generator
) -> tuple[str, list[str]]:
    notes: list[str] = []
    if suff and rng.random() < 0.3:
        suff = lx.SUFFIX_LONG.get(suff, suff)
        notes.append("suffix_spelled_out")
    if num and rng.random() < 0.02:
        num = ""
        notes.append("no_number")
    if len(street) > 5 and rng.random() < 0.03:
        street = street[:-1] if rng.random() < 0.5 else street + street[-1]
        notes.append("street_typo")
    return _addr(num, street, suff), notes


def build_inhabitants(
    residents: pd.DataFrame, roll: Roll, towns: list[Town], rng: np.random.Generator
) -> pd.DataFrame:
    """The inhabitants list: everyone in the territory, minors anonymised, a few duplicates
    and a few entries outside the territory."""
    rec = roll.records
    r = residents
    tn = np.array([t.name for t in towns], dtype=object)
    inside = r[r["in_territory"]].copy()
    out = r[~r["in_territory"]]
    extra = (
        out.iloc[rng.choice(len(out), size=min(len(out), 5), replace=False)] if len(out) else out
    )
    both = pd.concat([inside, extra])
    rr = both["rec"].to_numpy()
    num = rec["parcel_address_number"].to_numpy().astype(str)[rr]
    st = rec["parcel_address_street"].to_numpy().astype(str)[rr]
    sf = rec["parcel_address_suff"].to_numpy().astype(str)[rr]
    apt = both["apt"].to_numpy().astype(str)
    addr = [_addr(a, b, c, d) for a, b, c, d in zip(num, st, sf, apt, strict=True)]
    minor = both["age"].to_numpy() < 18
    k = (
        pd.Series(minor.astype(int), index=both.index).groupby(both["hh"].to_numpy()).cumsum()
    ).to_numpy()
    names = [
        f"Minor child {kk}" if m else _full(f, mi, la, su)
        for m, kk, f, mi, la, su in zip(
            minor, k, both["first"], both["mi"], both["last"], both["suffix"], strict=True
        )
    ]
    inh = pd.DataFrame({"name": names, "address": addr, "town": tn[rec["town"].to_numpy()[rr]]})
    adults = np.flatnonzero(~minor[: len(inside)])
    dup = rng.choice(adults, size=min(adults.size, max(3, adults.size // 200)), replace=False)
    dups = inh.iloc[np.sort(dup)].copy()
    dups["address"] = dups["address"].str.replace(" Rd", " Road").str.replace(" St", " Street")
    return pd.concat([inh, dups], ignore_index=True)


def build_signatures(
    roll: Roll,
    residents: pd.DataFrame,
    voters: pd.DataFrame,
    towns: list[Town],
    rng: np.random.Generator,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, list[dict[str, str]]]:
    """Pages, signature lines, ground truth and designees."""
    rec = roll.records
    grp = roll.groups
    people = roll.people
    tn = [t.name for t in towns]
    sec = rec["roll_section"].to_numpy()
    in_t = rec["in_territory"].to_numpy()
    group_of = rec["group"].to_numpy()
    kind = grp["kind"].to_numpy().astype(str)
    full = rec["full_market_value"].to_numpy()
    key = (rec["swis_code"].astype(str) + ":" + rec["print_key_code"].astype(str)).to_numpy()
    tidx = rec["town"].to_numpy()
    terr_recs = np.flatnonzero(in_t & (sec != 5) & (sec != 6))
    by_group: dict[int, list[int]] = {}
    for i in terr_recs:
        by_group.setdefault(int(group_of[i]), []).append(int(i))
    eligible = [g for g in by_group if kind[g] not in ("public", "utility")]
    eligible = [eligible[k] for k in rng.permutation(len(eligible))]
    total = np.zeros(len(towns))
    np.add.at(total, tidx[terr_recs], full[terr_recs])
    target = rng.uniform(0.52, 0.6) * total
    got = np.zeros(len(towns))
    chosen: list[int] = []
    for gid in eligible:
        recs = by_group[gid]
        tt = tidx[recs[0]]
        if got[tt] < target[tt]:
            chosen.append(gid)
            np.add.at(got, tidx[recs], full[recs])
    if not any(kind[g] == "entity" for g in chosen):
        ent = [g for g in eligible if kind[g] == "entity"]
        if ent:
            chosen.append(ent[0])

    voter_of = dict(zip(voters["pid"].to_numpy(), voters["SBOEID"].to_numpy(), strict=True))
    # Plain arrays and dicts: per-line pandas indexing is far too slow for big samples.
    fields = ("first", "mi", "last", "suffix")
    pcols = {f: people[f].to_numpy().astype(str) for f in fields}

    def person(p: int) -> dict[str, str]:
        return {f: str(pcols[f][p]) for f in fields}

    rdedup = residents.drop_duplicates("pid")
    res_by_pid: dict[int, dict[str, object]] = {
        int(r["pid"]): r for r in rdedup[["pid", "rec", "apt", *fields]].to_dict("records")
    }
    r_num = rec["parcel_address_number"].to_numpy().astype(str)
    r_st = rec["parcel_address_street"].to_numpy().astype(str)
    r_sf = rec["parcel_address_suff"].to_numpy().astype(str)
    slots = grp[["p0", "p1", "p2", "p3"]].to_numpy()
    ent_name = grp["entity"].to_numpy().astype(str)
    mail = {
        f: grp[f"mail_{f}"].to_numpy().astype(str) for f in ("number", "street", "suff", "city")
    }
    v_pid = voters["pid"].to_numpy()
    v_id = voters["SBOEID"].to_numpy().astype(str)
    lines: list[dict[str, object]] = []

    def line(
        basis: str,
        person: dict[str, object],
        addr: str,
        town: str,
        kind_: str,
        parcels: str,
        sboeid: str,
        notes: list[str],
        signing_for: str = "",
        credit: str = "",
    ) -> None:
        f, mi, la, su = (str(person[k]) for k in fields)
        name, n2 = _name_noise(f, mi, la, su, rng)
        lines.append(
            {
                "basis": basis,
                "name": name,
                "address": addr,
                "town": town,
                "signing_for": signing_for,
                "credited_assessed_value": credit,
                "kind": kind_,
                "parcels": parcels,
                "sboeid": sboeid,
                "true_name": _full(f, mi, la, su),
                "note": ";".join(notes + n2),
            }
        )

    def mail_addr(g: int) -> tuple[str, str]:
        return _addr(mail["number"][g], mail["street"][g], mail["suff"][g]), mail["city"][g]

    def home_address(pid: int, g: int) -> tuple[str, str, list[str]]:
        r = res_by_pid.get(pid)
        if r is not None:
            i = int(r["rec"])  # type: ignore[call-overload]
            a, n_ = _addr_noise(r_num[i], r_st[i], r_sf[i], rng)
            if r["apt"]:
                a += f" Apt {r['apt']}"
            return a, tn[int(tidx[i])], n_
        a, city = mail_addr(g)
        return a, city, []

    for gid in chosen:
        recs = by_group[gid]
        parcels = ";".join(key[recs])
        value = float(rec["assessment_total"].to_numpy()[recs].sum())
        k = kind[gid]
        if k in ("person", "couple", "multi"):
            pids = [int(p) for p in slots[gid] if p >= 0]
            signers = [p for p in pids if rng.random() < 0.9] or pids[:1]
            share = value / len(pids)
            for p in signers:
                a, town, n_ = home_address(p, gid)
                credit, cn = _credit(share, rng)
                line(
                    "owners",
                    person(p),
                    a,
                    town,
                    "owner",
                    parcels,
                    str(voter_of.get(p, "")),
                    n_ + cn,
                    credit=credit,
                )
        else:
            if k == "trust":
                officer: dict[str, object] = dict(person(int(slots[gid, 0])))
                role = "trustee"
            else:
                officer = make_people(1, rng, min_age=30, max_age=80).iloc[0].to_dict()
                role = "executor" if k == "estate" else "officer"
            a, town = mail_addr(gid)
            credit, cn = _credit(value, rng)
            line(
                "owners",
                officer,
                a,
                town,
                "owner",
                parcels,
                "",
                [f"{role}_signing_for_entity", *cn],
                signing_for=str(ent_name[gid]),
                credit=credit,
            )
    # Non-owners on owner pages: renters in the territory.
    renters = residents[
        (~residents["owner"]) & residents["in_territory"] & (residents["age"] >= 18)
    ]
    for _, r in renters.iloc[
        rng.choice(len(renters), size=min(3, len(renters)), replace=False)
    ].iterrows():
        a, town, n_ = home_address(int(r["pid"]), -1)
        line(
            "owners",
            r.to_dict(),
            a,
            town,
            "none",
            "",
            str(voter_of.get(int(r["pid"]), "")),
            ["not_an_owner", *n_],
            credit=str(int(rng.integers(50, 300)) * 1000),
        )

    # Resident pages.
    st = voters["STATUS"].to_numpy().astype(str)
    vin = voters["in_territory"].to_numpy()
    qual = np.flatnonzero(vin & np.isin(st, ("A", "I", "AM")))
    pick = rng.choice(qual, size=round(rng.uniform(0.22, 0.3) * qual.size), replace=False)
    extra = [
        (np.flatnonzero(~vin & np.isin(st, ("A",))), 3, "outside_territory"),
        (np.flatnonzero(vin & (st == "P")), 2, "purged_voter"),
        (np.flatnonzero(vin & (st == "17")), 1, "pre_registered"),
    ]
    res_lines: list[tuple[int, str]] = [(int(v), "") for v in np.sort(pick)]
    for pool, n_, note in extra:
        for v in rng.choice(pool, size=min(n_, pool.size), replace=False):
            res_lines.append((int(v), note))
    for v, note in res_lines:
        pid = int(v_pid[v])
        rp = res_by_pid[pid]
        a, town, n_ = home_address(pid, -1)
        line(
            "residents",
            rp,
            a,
            town,
            "voter",
            "",
            v_id[v],
            [note, *n_] if note else n_,
        )
    regd = set(voters["pid"].to_numpy().tolist())
    nonreg = residents[
        residents["in_territory"] & (residents["age"] >= 18) & ~residents["pid"].isin(regd)
    ]
    for _, r in nonreg.iloc[
        rng.choice(len(nonreg), size=min(3, len(nonreg)), replace=False)
    ].iterrows():
        a, town, n_ = home_address(int(r["pid"]), -1)
        line("residents", r.to_dict(), a, town, "none", "", "", ["not_registered", *n_])

    frame = pd.DataFrame(lines)
    frame["note"] = frame["note"].astype(str)
    own = frame[frame["basis"] == "owners"]
    res = frame[frame["basis"] == "residents"]
    own = own.iloc[rng.permutation(len(own))]
    res = res.iloc[rng.permutation(len(res))]
    if len(res):
        res.iloc[0, res.columns.get_loc("address")] = ""
        res.iloc[0, res.columns.get_loc("note")] = (res.iloc[0]["note"] + ";no_address").strip(";")
    pages: list[pd.DataFrame] = []
    page_no = 1
    for part in (own, res):
        for s in range(0, len(part), LINES_PER_PAGE):
            chunk = part.iloc[s : s + LINES_PER_PAGE].copy()
            chunk["page"] = page_no
            pages.append(chunk)
            page_no += 1
    # A person signing twice, on different pages of each basis.
    for basis in ("owners", "residents"):
        idx = [k for k, p in enumerate(pages) if p["basis"].iloc[0] == basis]
        if len(idx) >= 2:
            src = pages[idx[0]].iloc[[0]].copy()
            src["note"] = f"signed_twice (first on page {int(src['page'].iloc[0])})"
            src["page"] = int(pages[idx[-1]]["page"].iloc[0])
            pages[idx[-1]] = pd.concat([pages[idx[-1]], src])
    sig = pd.concat(pages, ignore_index=True)
    sig["line"] = sig.groupby("page").cumcount() + 1
    days = pd.Timestamp("2023-03-01") + pd.to_timedelta(rng.integers(0, 80, len(sig)), unit="D")
    sig["signed_on"] = days.strftime("%Y-%m-%d")
    # Pages.
    witnesses = residents[residents["in_territory"] & (residents["age"] >= 21)]
    prow = []
    for p, grp_p in sig.groupby("page", sort=True):
        w = witnesses.iloc[int(rng.integers(0, len(witnesses)))]
        wi = int(w["rec"])
        prow.append(
            {
                "page": int(p),
                "basis": grp_p["basis"].iloc[0],
                "witness_name": _full(
                    str(w["first"]), str(w["mi"]), str(w["last"]), str(w["suffix"])
                ),
                "witness_address": _addr(
                    str(rec.at[wi, "parcel_address_number"]),
                    str(rec.at[wi, "parcel_address_street"]),
                    str(rec.at[wi, "parcel_address_suff"]),
                    str(w["apt"]),
                ),
                "stated_signature_count": len(grp_p),
                "sworn_on": (pd.Timestamp(max(grp_p["signed_on"])) + pd.Timedelta(days=1)).strftime(
                    "%Y-%m-%d"
                ),
            }
        )
    pages_df = pd.DataFrame(prow)
    if len(pages_df) > 1:
        bad = int(rng.integers(0, len(pages_df)))
        pages_df.loc[bad, "stated_signature_count"] += 1
    signatures = sig[
        [
            "page",
            "line",
            "name",
            "address",
            "town",
            "signed_on",
            "signing_for",
            "credited_assessed_value",
        ]
    ]
    truth = sig[["page", "line", "basis", "kind", "true_name", "parcels", "sboeid", "note"]]
    # Designees: a majority inside the territory.
    n_d = int(rng.integers(1, 4))
    ins = residents[residents["in_territory"] & residents["owner"]]
    if len(ins) < 2:
        ins = residents[residents["in_territory"] & (residents["age"] >= 18)]
    outs = residents[~residents["in_territory"] & (residents["age"] >= 18)]
    des = [ins.iloc[int(k)] for k in rng.choice(len(ins), size=min(len(ins), 2), replace=False)]
    des = des[: 1 if n_d == 1 else 2]
    if n_d == 3 and len(outs):
        des.append(outs.iloc[int(rng.integers(0, len(outs)))])
    designees = [
        {
            "name": _full(str(d["first"]), str(d["mi"]), str(d["last"]), str(d["suffix"])),
            "address": _addr(
                str(rec.at[int(d["rec"]), "parcel_address_number"]),
                str(rec.at[int(d["rec"]), "parcel_address_street"]),
                str(rec.at[int(d["rec"]), "parcel_address_suff"]),
                str(d["apt"]),
            ),
            "town": tn[int(tidx[int(d["rec"])])],
        }
        for d in des
    ]
    return pages_df, signatures.reset_index(drop=True), truth.reset_index(drop=True), designees


def _credit(value: float, rng: np.random.Generator) -> tuple[str, list[str]]:
    r = rng.random()
    if r < 0.1:
        return "", ["credit_blank"]
    if r < 0.15:
        return str(round(value * float(rng.choice([0.9, 1.1, 10.0])))), ["credit_miswritten"]
    return str(round(value)), []
