"""Assessment-roll records and their owners.

Property classes follow the class mix of a real town roll (Kinderhook 2025,
see ``_PROFILE``) within three lot-size bands; values are the class's mean
full value times a log-normal spread. Owners are held as rolls hold them:
individuals, couples, up to three additional owners, and entities (LLC, INC,
trusts, estates, "Town of X") in the last-name field only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from pipeline.sample import _lexicon as lx
from pipeline.sample._parcels import ACRE, Layout

#: class -> (Kinderhook parcels, mean assessed value at ratio 0.6, share small/medium/large lot).
_PROFILE: dict[str, tuple[int, float, tuple[float, float, float]]] = {
    "210": (2333, 254497, (0.7, 0.22, 0.08)),
    "240": (123, 521370, (0, 0.15, 0.85)),
    "311": (113, 33466, (0.5, 0.4, 0.1)),
    "314": (102, 33585, (0, 0.6, 0.4)),
    "120": (73, 190083, (0, 0, 1)),
    "312": (72, 97107, (0.2, 0.6, 0.2)),
    "322": (52, 130993, (0, 0, 1)),
    "151": (40, 120785, (0, 0.1, 0.9)),
    "220": (37, 241211, (0.8, 0.2, 0)),
    "280": (35, 817910, (0.3, 0.4, 0.3)),
    "260": (27, 155459, (0.2, 0.5, 0.3)),
    "411": (26, 564008, (0.9, 0.1, 0)),
    "270": (18, 82111, (0.3, 0.6, 0.1)),
    "241": (17, 565824, (0, 0, 1)),
    "483": (17, 246700, (0.9, 0.1, 0)),
    "330": (16, 90113, (0.4, 0.6, 0)),
    "105": (14, 218214, (0, 0, 1)),
    "283": (13, 336623, (0.6, 0.4, 0)),
    "323": (12, 44542, (0, 0, 1)),
    "215": (11, 363545, (0.8, 0.2, 0)),
    "484": (11, 181182, (0.9, 0.1, 0)),
    "449": (7, 328429, (0, 1, 0)),
    "822": (7, 75836, (0.3, 0.7, 0)),
    "416": (6, 867500, (0, 0.5, 0.5)),
    "620": (6, 1368300, (0.8, 0.2, 0)),
    "681": (6, 1131068, (0.7, 0.3, 0)),
    "486": (5, 785000, (1, 0, 0)),
    "380": (4, 68258, (0, 1, 0)),
    "421": (4, 406250, (1, 0, 0)),
    "430": (4, 418750, (1, 0, 0)),
    "433": (4, 280000, (0.5, 0.5, 0)),
    "457": (4, 373750, (1, 0, 0)),
    "464": (4, 678750, (1, 0, 0)),
    "652": (4, 964875, (1, 0, 0)),
    "831": (4, 383160, (0.5, 0.5, 0)),
    "230": (3, 320000, (1, 0, 0)),
    "426": (3, 583333, (1, 0, 0)),
    "465": (3, 253333, (1, 0, 0)),
    "482": (3, 375000, (1, 0, 0)),
    "662": (3, 370000, (0.7, 0.3, 0)),
    "692": (3, 41000, (0, 1, 0)),
    "695": (3, 532333, (0, 0.7, 0.3)),
    "117": (2, 620000, (0, 0, 1)),
    "170": (2, 352500, (0, 0.5, 0.5)),
    "442": (2, 537500, (0, 1, 0)),
    "446": (2, 1310000, (0, 1, 0)),
    "452": (2, 6474000, (0, 1, 0)),
    "456": (2, 1174100, (0.5, 0.5, 0)),
    "591": (2, 251000, (0, 1, 0)),
    "612": (2, 40464640, (0, 0, 1)),
    "651": (2, 929150, (0, 1, 0)),
    "100": (1, 644000, (0, 0, 1)),
    "112": (1, 1150000, (0, 0, 1)),
    "113": (1, 350000, (0, 0, 1)),
    "340": (1, 215000, (0, 1, 0)),
    "418": (1, 825000, (1, 0, 0)),
    "422": (1, 195200, (1, 0, 0)),
    "461": (1, 990000, (1, 0, 0)),
    "470": (1, 900000, (1, 0, 0)),
    "472": (1, 325000, (0, 1, 0)),
    "534": (1, 220000, (1, 0, 0)),
    "552": (1, 1821000, (0, 0, 1)),
    "553": (1, 1863000, (0, 0, 1)),
    "611": (1, 300000, (1, 0, 0)),
    "632": (1, 380000, (1, 0, 0)),
    "680": (1, 600000, (0, 1, 0)),
    "720": (1, 340000, (0, 0, 1)),
    "837": (1, 450000, (0, 1, 0)),
    "872": (1, 671683, (0, 1, 0)),
    "878": (1, 400000, (0, 0, 1)),
}
#: Records without a polygon: special franchise (section 5) and utility mass property (6).
NOPOLY_5 = ("860",)
NOPOLY_6 = ("836", "884", "882", "866", "869", "861")
_NOPOLY_MEAN = {
    "860": 30502,
    "836": 26699,
    "884": 913503,
    "882": 140898,
    "866": 146111,
    "869": 127444,
    "861": 1908065,
}
EXEMPT = ("612", "620", "611", "632", "651", "652", "662", "680", "681", "692", "695", "591")
RESIDENTIAL = ("210", "215", "220", "230", "240", "241", "260", "270", "280", "283", "411", "483")
ROLL_YEAR = 2022

#: The roll's owner name fields: primary owner, then additional owners 1..3.
OWNER_FIELDS: tuple[str, ...] = (
    "primary_owner_first_name",
    "primary_owner_mi",
    "primary_owner_last_name",
    "primary_owner_suffix",
    *(
        f"additional_owner_{k}_{f}"
        for k in (1, 2, 3)
        for f in ("first", "mi", "last_name", "suffix")
    ),
)

ROLL_FIELDS: tuple[str, ...] = (
    "roll_year",
    "county_name",
    "municipality_code",
    "municipality_name",
    "swis_code",
    "roll_section",
    "property_class",
    "print_key_code",
    "parcel_address_number",
    "parcel_address_street",
    "parcel_address_suff",
    *OWNER_FIELDS,
    "mailing_address_number",
    "mailing_address_street",
    "mailing_address_suff",
    "mailing_address_city",
    "mailing_address_state",
    "mailing_address_zip",
    "assessment_land",
    "assessment_total",
    "full_market_value",
    "town_taxable_value",
)


@dataclass(frozen=True)
class Town:
    """A town of the sample: codes, name, post office, zip and 2022 equalization rate."""

    index: int
    code: str  # municipality code "..00"
    name: str
    zip: str
    rate: float

    @property
    def outside(self) -> str:
        """SWIS of the town-outside-village part."""
        return self.code[:4] + "89"

    @property
    def village(self) -> str:
        """SWIS of the existing village (only the first town has one)."""
        return self.code[:4] + "01"


def make_people(n: int, rng: np.random.Generator, *, min_age: int, max_age: int) -> pd.DataFrame:
    """``n`` invented persons: first, mi, last, suffix, gender, dob (YYYYMMDD)."""
    male = rng.random(n) < 0.5
    mf = np.array(lx.MALE_FIRST, dtype=object)
    ff = np.array(lx.FEMALE_FIRST, dtype=object)
    first = np.where(male, mf[rng.integers(0, len(mf), n)], ff[rng.integers(0, len(ff), n)])
    letters = np.array(list("ABCDEFGHJKLMNPRSTW"), dtype=object)
    mi = np.where(rng.random(n) < 0.7, letters[rng.integers(0, len(letters), n)], "")
    last_pool = np.array(lx.LAST, dtype=object)
    last = last_pool[rng.integers(0, len(last_pool), n)]
    sfx = np.array(lx.SUFFIXES, dtype=object)
    suffix = np.where(male & (rng.random(n) < 0.06), sfx[rng.integers(0, len(sfx), n)], "")
    age = rng.integers(min_age, max_age + 1, n)
    year = 2023 - age
    month = rng.integers(1, 13, n)
    day = rng.integers(1, 29, n)
    dob = (year * 10000 + month * 100 + day).astype(str)
    return pd.DataFrame(
        {
            "first": first.astype(str),
            "mi": mi.astype(str),
            "last": last.astype(str),
            "suffix": suffix.astype(str),
            "gender": np.where(male, "M", "F"),
            "dob": dob,
            "age": age,
        }
    )


@dataclass(frozen=True)
class Roll:
    """Roll records (all towns) with helper columns, owners and persons.

    ``records`` columns: the ORPTS fields plus ``lot`` (row in the layout, -1
    without polygon), ``town`` (index), ``group`` (owner group), ``in_territory``.
    ``groups``: ``kind`` (person/couple/multi/entity/trust/estate/public),
    ``entity``, ``p0..p3`` (person ids or -1), ``absentee``, ``home`` (record).
    ``people``: persons who own something.
    """

    records: pd.DataFrame
    groups: pd.DataFrame
    people: pd.DataFrame


def _classes(area: np.ndarray, urban: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    cls = np.array(list(_PROFILE), dtype=object)
    cnt = np.array([v[0] for v in _PROFILE.values()], float)
    band_share = np.array([v[2] for v in _PROFILE.values()], float)
    ac = area / ACRE
    band = np.where(ac < 1.2, 0, np.where(ac < 5.0, 1, 2))
    out = np.empty(len(area), dtype=object)
    for b in range(3):
        sel = np.flatnonzero(band == b)
        w = cnt * band_share[:, b]
        out[sel] = cls[rng.choice(len(cls), size=sel.size, p=w / w.sum())]
    # Commercial lots away from centres become houses.
    com = np.char.startswith(out.astype(str), "4") & (urban < 0.5) & (band == 0)
    out[com] = "210"
    return out


def build_roll(
    layout: Layout, towns: list[Town], rng: np.random.Generator, *, nopoly_per_town: int
) -> Roll:
    """Roll records for every lot plus ``2 * nopoly_per_town`` no-polygon records per town."""
    lots = layout.lots
    n = len(lots)
    in_terr = shapely.intersects(layout.polygons, layout.territory)
    cls = _classes(lots["area"].to_numpy(), lots["urban"].to_numpy(), rng)
    town_idx = lots["town"].to_numpy()
    # One school per town, outside the territory, on a large lot near a centre.
    for t in range(len(towns)):
        cand = np.flatnonzero((town_idx == t) & ~in_terr & (lots["area"].to_numpy() > 5 * ACRE))
        cls[cls == "612"] = "240"
        if cand.size:
            best = cand[np.argsort(-lots["urban"].to_numpy()[cand], kind="stable")[:1]]
            cls[best] = "612"
    # One highway garage per town, outside the village.
    for t in range(len(towns)):
        cand = np.flatnonzero((town_idx == t) & ~lots["village"].to_numpy() & (cls == "312"))
        if cand.size:
            cls[cand[rng.integers(0, cand.size)]] = "651"

    # No-polygon records.
    np_town = np.repeat(np.arange(len(towns)), 2 * nopoly_per_town)
    np_cls = np.array(
        [
            (NOPOLY_5[0] if k < nopoly_per_town else NOPOLY_6[(k - nopoly_per_town) % 6])
            for _ in towns
            for k in range(2 * nopoly_per_town)
        ],
        dtype=object,
    )
    m = len(np_town)
    rec = pd.DataFrame(
        {
            "lot": np.concatenate([np.arange(n), np.full(m, -1)]),
            "town": np.concatenate([town_idx, np_town]),
            "property_class": np.concatenate([cls, np_cls]).astype(str),
            "in_territory": np.concatenate([in_terr, np.zeros(m, bool)]),
        }
    )
    cls_all = rec["property_class"].to_numpy().astype(str)
    tcode = np.array([t.code for t in towns])
    rec["municipality_code"] = tcode[rec["town"].to_numpy()]
    village = np.concatenate([lots["village"].to_numpy(), np.zeros(m, bool)])
    rec["swis_code"] = np.where(
        village,
        np.array([t.village for t in towns])[rec["town"].to_numpy()],
        np.array([t.outside for t in towns])[rec["town"].to_numpy()],
    )
    section = np.where(np.isin(cls_all, EXEMPT), 8, 1)
    section = np.where(np.isin(cls_all, NOPOLY_5) & (rec["lot"].to_numpy() < 0), 5, section)
    section = np.where(np.isin(cls_all, NOPOLY_6) & (rec["lot"].to_numpy() < 0), 6, section)
    rec["roll_section"] = section
    within = np.arange(m) % nopoly_per_town + 1 if m else np.zeros(0, int)
    # subsections 500/600 are never drawn for lots (their subsections are 11-19), so these
    # keys cannot collide with a mapped parcel whatever the number of tax-map sheets
    np_keys = np.where(section[n:] == 5, "888.500-1-", "888.600-1-").astype(object) + within.astype(
        str
    )
    rec["print_key_code"] = np.concatenate([lots["print_key"].to_numpy(dtype=object), np_keys])
    rec["parcel_address_number"] = np.concatenate(
        [lots["number"].to_numpy().astype(str), np.full(m, "")]
    )
    rec["parcel_address_street"] = np.concatenate(
        [lots["street"].to_numpy(dtype=object), np.full(m, "", dtype=object)]
    )
    rec["parcel_address_suff"] = np.concatenate(
        [lots["suff"].to_numpy(dtype=object), np.full(m, "", dtype=object)]
    )

    # Values: class mean full value x log-normal spread x a mild lot-size factor.
    mean_assessed = np.array(
        [_PROFILE[c][1] if c in _PROFILE else _NOPOLY_MEAN[c] for c in cls_all]
    )
    area = np.concatenate([lots["area"].to_numpy(), np.full(m, ACRE)])
    size = np.clip(area / (2 * ACRE), 0.1, 50.0) ** 0.15
    fmv = mean_assessed / 0.6 * rng.lognormal(-0.08, 0.4, len(rec)) * size
    rate = np.array([t.rate for t in towns])[rec["town"].to_numpy()] / 100.0
    total = np.maximum(np.round(fmv * rate, -2), 100.0)
    vacant = np.char.startswith(cls_all, "3") | np.isin(cls_all, ("105", "322", "323"))
    land_share = np.where(vacant, 1.0, rng.uniform(0.12, 0.45, len(rec)))
    land = np.where(section >= 5, 0.0, np.round(total * land_share, -2))
    land = np.where((section == 8) | (section == 1), land, 0.0)
    rec["assessment_land"] = np.minimum(land, total)
    rec["assessment_total"] = total
    rec["full_market_value"] = np.round(total / rate)
    exempt_amt = np.where(
        rng.random(len(rec)) < 0.15, np.round(rng.uniform(5_000, 60_000, len(rec)) * rate, -2), 0
    )
    exempt_amt = np.where(np.char.startswith(cls_all, "1"), np.round(0.4 * total, -2), exempt_amt)
    taxable = np.maximum(total - exempt_amt, 0.0)
    rec["town_taxable_value"] = np.where(section == 8, 0.0, taxable)

    groups, people, group_of = _owners(rec, towns, rng, layout)
    rec["group"] = group_of
    _mailing(rec, groups, towns, rng)
    return Roll(records=rec, groups=groups, people=people)


def _owners(
    rec: pd.DataFrame, towns: list[Town], rng: np.random.Generator, layout: Layout
) -> tuple[pd.DataFrame, pd.DataFrame, np.ndarray]:
    """Owner groups (one per record first, then merge some records into neighbours' groups)."""
    n = len(rec)
    cls = rec["property_class"].to_numpy().astype(str)
    section = rec["roll_section"].to_numpy()
    tidx = rec["town"].to_numpy()
    r = rng.random(n)
    commercial = np.char.startswith(cls, "4") | np.char.startswith(cls, "7")
    kind = np.select(
        [r < 0.36, r < 0.80, r < 0.85, r < 0.89, r < 0.92],
        ["person", "couple", "multi", "trust", "estate"],
        "entity",
    ).astype(object)
    kind[commercial & (rng.random(n) < 0.6)] = "entity"
    kind[np.isin(cls, ("822", "872", "837", "831", "380", "878"))] = "entity"
    kind[section == 8] = "public"
    kind[(section == 5) | (section == 6)] = "utility"
    n_people = np.select(
        [kind == "person", kind == "couple", kind == "multi", kind == "trust", kind == "estate"],
        [1, 2, rng.integers(3, 5, n), 1, 1],
        0,
    )
    people = make_people(int(n_people.sum()), rng, min_age=25, max_age=92)
    start = np.cumsum(n_people) - n_people
    slots = np.full((n, 4), -1, dtype=np.int64)
    for k in range(4):
        has = n_people > k
        slots[has, k] = start[has] + k
    # Spouses: mostly the same last name and the other gender.
    sp = slots[:, 1][slots[:, 1] >= 0]
    pr = slots[:, 0][slots[:, 1] >= 0]
    same = rng.random(sp.size) < 0.75
    last = people["last"].to_numpy(dtype=object)
    last[sp[same]] = last[pr[same]]
    people["last"] = last.astype(str)
    g = people["gender"].to_numpy(dtype=object)
    flip = rng.random(sp.size) < 0.9
    g[sp[flip]] = np.where(g[pr[flip]] == "M", "F", "M")
    people["gender"] = g.astype(str)
    first = people["first"].to_numpy(dtype=object)
    fm = np.array(lx.FEMALE_FIRST, dtype=object)
    mm = np.array(lx.MALE_FIRST, dtype=object)
    fem = sp[g[sp] == "F"]
    first[fem] = fm[rng.integers(0, len(fm), fem.size)]
    mal = sp[g[sp] == "M"]
    first[mal] = mm[rng.integers(0, len(mm), mal.size)]
    people["first"] = first.astype(str)
    people.loc[people["gender"] == "F", "suffix"] = ""

    # Entity names (last-name field only).
    ent = np.full(n, "", dtype=object)
    tn = np.array([t.name for t in towns], dtype=object)[tidx]
    for i in np.flatnonzero(kind == "entity"):
        ent[i] = (
            f"{lx.ENTITY_STEMS[rng.integers(0, len(lx.ENTITY_STEMS))]} "
            f"{lx.ENTITY_KINDS[rng.integers(0, len(lx.ENTITY_KINDS))]}"
        )
    p0 = slots[:, 0]
    for i in np.flatnonzero(kind == "trust"):
        p = p0[i]
        ent[i] = (
            f"{people.at[p, 'last']} Family Trust"
            if rng.random() < 0.5
            else f"{people.at[p, 'first']} {people.at[p, 'last']} Revocable Trust"
        )
    for i in np.flatnonzero(kind == "estate"):
        p = p0[i]
        ent[i] = f"Estate of {people.at[p, 'first']} {people.at[p, 'last']}"
    swis = rec["swis_code"].to_numpy().astype(str)
    public_names = {
        "612": "{t} Central School District",
        "620": "First Reformed Church of {t}",
        "611": "{t} Free Library",
        "632": "{t} Grange No 917",
        "662": "{t} Fire District",
        "680": "{t} Historical Society Inc",
        "681": "{t} Historical Society Inc",
        "695": "{t} Rural Cemetery Assn",
    }
    vname = f"Village of {lx.VILLAGE_NAMES[0]}"
    for i in np.flatnonzero(kind == "public"):
        c = cls[i]
        if c in public_names:
            ent[i] = public_names[c].format(t=tn[i])
        elif swis[i].endswith("01"):
            ent[i] = vname
        else:
            ent[i] = f"Town of {tn[i]}"
    u5, u6 = np.array(lx.UTILITIES_5, dtype=object), np.array(lx.UTILITIES_6, dtype=object)
    for i in np.flatnonzero(kind == "utility"):
        ent[i] = (u5 if section[i] == 5 else u6)[i % 4]

    # People owning several parcels: vacant / farm land bought by a neighbour.
    group_of = np.arange(n)
    lot = rec["lot"].to_numpy()
    cand = np.flatnonzero(
        (lot >= 0)
        & (np.char.startswith(cls, "3") | np.char.startswith(cls, "1") | (cls == "260"))
        & (rng.random(n) < 0.45)
    )
    for i in cand:
        j = i + int(rng.choice((-3, -2, -1, 1, 2, 3)))
        if (
            0 <= j < n
            and lot[j] >= 0
            and tidx[j] == tidx[i]
            and kind[j] in ("person", "couple", "entity", "trust")
            and group_of[j] == j
        ):
            group_of[i] = j
    absentee = (rng.random(n) < 0.18) & np.isin(kind, ("person", "couple", "multi"))
    absentee |= kind == "estate"
    groups = pd.DataFrame(
        {
            "kind": kind.astype(str),
            "entity": ent.astype(str),
            "p0": slots[:, 0],
            "p1": slots[:, 1],
            "p2": slots[:, 2],
            "p3": slots[:, 3],
            "absentee": absentee,
            "home": np.arange(n),
        }
    )
    return groups, people, group_of


def _mailing(
    rec: pd.DataFrame, groups: pd.DataFrame, towns: list[Town], rng: np.random.Generator
) -> None:
    """Mailing address of every owner group (in place): home situs, away, or a PO box."""
    n = len(groups)
    tidx = rec["town"].to_numpy()
    swis = rec["swis_code"].to_numpy().astype(str)
    city = np.where(
        np.char.endswith(swis, "01"),
        lx.VILLAGE_NAMES[0],
        np.array([t.name for t in towns], dtype=object)[tidx].astype(str),
    ).astype(object)
    number = rec["parcel_address_number"].to_numpy().astype(object).copy()
    street = rec["parcel_address_street"].to_numpy().astype(object).copy()
    suff = rec["parcel_address_suff"].to_numpy().astype(object).copy()
    state = np.full(n, "NY", dtype=object)
    zips = np.array([t.zip for t in towns], dtype=object)[tidx]
    kind = groups["kind"].to_numpy().astype(str)
    away = groups["absentee"].to_numpy() | (
        np.isin(kind, ("entity", "trust")) & (rng.random(n) < 0.5)
    )
    place = rng.integers(0, len(lx.AWAY_PLACES), n)
    for i in np.flatnonzero(away):
        c, st, z = lx.AWAY_PLACES[place[i]]
        a = lx.AWAY_STREETS[int(rng.integers(0, len(lx.AWAY_STREETS)))]
        number[i] = str(int(rng.integers(1, 400)))
        street[i], suff[i] = ([*a.rsplit(" ", 1), ""])[:2]
        city[i], state[i], zips[i] = c, st, z
    box = np.isin(kind, ("entity",)) & ~away & (rng.random(n) < 0.5)
    box |= kind == "utility"
    for i in np.flatnonzero(box):
        number[i], street[i], suff[i] = "", f"PO Box {int(rng.integers(10, 9000))}", ""
        if kind[i] == "utility":
            city[i], state[i], zips[i] = "Syracuse", "NY", "13202"
    groups["mail_number"] = number.astype(str)
    groups["mail_street"] = street.astype(str)
    groups["mail_suff"] = suff.astype(str)
    groups["mail_city"] = city.astype(str)
    groups["mail_state"] = state.astype(str)
    groups["mail_zip"] = zips.astype(str)


def roll_frame(roll: Roll, towns: list[Town]) -> pd.DataFrame:
    """The ORPTS rows of all records (snake_case fields, values as text); ``town`` kept."""
    rec = roll.records
    g = roll.groups
    ppl = roll.people
    gid = rec["group"].to_numpy()
    kind = g["kind"].to_numpy().astype(str)[gid]
    entity = g["entity"].to_numpy().astype(str)[gid]
    is_ent = np.isin(kind, ("entity", "trust", "estate", "public", "utility"))
    out = pd.DataFrame(index=rec.index)
    out["roll_year"] = str(ROLL_YEAR)
    out["county_name"] = "Columbia"
    out["municipality_code"] = rec["municipality_code"].astype(str)
    out["municipality_name"] = np.array([t.name for t in towns])[rec["town"].to_numpy()]
    for c in (
        "swis_code",
        "roll_section",
        "property_class",
        "print_key_code",
        "parcel_address_number",
        "parcel_address_street",
        "parcel_address_suff",
    ):
        out[c] = rec[c].astype(str)
    cols = {"first": "first", "mi": "mi", "last": "last", "suffix": "suffix"}
    for k, prefix in enumerate(
        ["primary_owner", "additional_owner_1", "additional_owner_2", "additional_owner_3"]
    ):
        pid = g[f"p{k}"].to_numpy()[gid]
        has = (pid >= 0) & ~is_ent
        for f, src in cols.items():
            vals = np.full(len(rec), "", dtype=object)
            vals[has] = ppl[src].to_numpy(dtype=object)[pid[has]]
            name = f"{prefix}_{'first_name' if (k == 0 and f == 'first') else f}"
            if f == "last":
                name = f"{prefix}_last_name"
                if k == 0:
                    vals[is_ent] = entity[is_ent]
            out[name] = vals.astype(str)
    for f in ("number", "street", "suff", "city", "state", "zip"):
        out[f"mailing_address_{f}"] = g[f"mail_{f}"].to_numpy().astype(str)[gid]
    for c in ("assessment_land", "assessment_total", "full_market_value", "town_taxable_value"):
        out[c] = rec[c].to_numpy().astype(np.int64).astype(str)
    out["town"] = rec["town"].to_numpy()
    return out
