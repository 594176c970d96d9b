"""The sample generator behind ``petition sample``: a complete, realistic, invented petition.

``generate_sample(out_dir, parcels=N, towns=K, seed=S)`` writes into ``out_dir``
a ``petition.toml`` and every input it names (rolls, parcel polygons, town
and territory boundaries, street centrelines, equalization rates, signature
pages, voters, inhabitants, an apportionment override), plus ``ground_truth.csv`` (the true
identity of every signature line; not named in the config). Same seed, same
bytes: all randomness of the first year comes from one
``numpy.random.default_rng(seed)``, that of each later year from
``default_rng([seed, year])``.

It also writes what the batch features need: ``alternatives.geojson`` (named
boundary alternatives for ``petition batch``) and, with ``years=2`` (the
default), ``rolls/<swis>/roll-<year>.csv`` (each town's roll of both years),
``parcels-2023.gpkg`` (the next year's parcel layer),
``rolls/changes-2023.txt`` (what changed: the next year's ground truth) and
``petition-next-year.toml``: the same petition filed on 2023-12-01, after the
2023 rolls were completed (so on those rolls) and still before the 2024
amendments that removed the owner test (so both runs have one).

Modules: :mod:`._streets` (road mesh), :mod:`._parcels` (lots, towns, village,
territory), :mod:`._roll` (roll records, owners), :mod:`._people` (residents,
voters, signatures), :mod:`._years` (later roll years), :mod:`._write` (file
writers).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import shapely

from pipeline.sample import _lexicon as lx
from pipeline.sample import _people, _write
from pipeline.sample._parcels import Layout, build_layout
from pipeline.sample._roll import ROLL_FIELDS, ROLL_YEAR, Roll, Town, build_roll, roll_frame
from pipeline.sample._years import Year, next_year

__all__ = ["ALTERNATIVES", "generate_sample", "min_parcels"]

_RATES_B = (38.5, 37.2, 36.0, 35.0, 33.9)  # 2019..2023; 2022 is the one used
_FIRST_RATE_YEAR = 2019
#: Boundary alternatives written to alternatives.geojson, in this order.
ALTERNATIVES = ("as filed", "without the north block", "with the mill lots", "smaller core")


def _towns(k: int, rng: np.random.Generator) -> list[Town]:
    out = []
    for i in range(k):
        code = f"10{44 + 2 * i:02d}00"
        rate = 100.0 if i == 0 else 35.0 if i == 1 else float(np.round(rng.uniform(50, 90), 2))
        out.append(Town(i, code, lx.TOWN_NAMES[i % len(lx.TOWN_NAMES)], f"{12106 + 7 * i}", rate))
    return out


def _rates(towns: list[Town]) -> pd.DataFrame:
    """Equalization rates of every town, 2019 to 2023 (2022 for the first roll, 2023 the next).

    A town at 100 % stays there; the second town follows :data:`_RATES_B`;
    others fall 3 % a year around their 2022 rate.
    """
    rows = []
    for t in towns:
        series = (
            (100.0,) * 5
            if t.rate == 100.0
            else (
                _RATES_B
                if t.index == 1
                else tuple(np.round(t.rate * np.array([1.1, 1.06, 1.03, 1.0, 0.97]), 2))
            )
        )
        for year, r in enumerate(series, start=_FIRST_RATE_YEAR):
            rows.append({"swis_code": t.code, "rate_year": year, "equalization_rate": r})
    return pd.DataFrame(rows)


def _signer_parcels(
    truth: pd.DataFrame, records: pd.DataFrame, rng: np.random.Generator, *, k: int = 3
) -> list[tuple[str, str]]:
    """``k`` parcels in the territory, each the one parcel credited to a plain owner signer.

    A plain signer: an owner signing an owner page, with no noise in the ground truth.
    """
    note = truth["note"].fillna("").astype(str)
    plain = truth.loc[
        (truth["basis"] == "owners")
        & (truth["kind"] == "owner")
        & (note == "")
        & ~truth["parcels"].fillna("").astype(str).str.contains(";")
        & (truth["parcels"].fillna("").astype(str) != "")
    ]
    inside = records.loc[(records["lot"] >= 0) & records["in_territory"]]
    ok = set(
        zip(inside["swis_code"].astype(str), inside["print_key_code"].astype(str), strict=True)
    )
    keys: list[tuple[str, str]] = []
    for label in plain["parcels"].astype(str):
        swis, _, pk = label.partition(":")
        if (swis, pk) in ok and (swis, pk) not in keys:
            keys.append((swis, pk))
    pick = sorted(int(i) for i in rng.choice(len(keys), size=min(k, len(keys)), replace=False))
    return [keys[i] for i in pick]


def _alternatives(layout: Layout) -> list[shapely.Geometry]:
    """The boundary alternatives of :data:`ALTERNATIVES`, built from the territory with boxes.

    ``as filed`` is the territory; ``without the north block`` drops its
    northern quarter; ``with the mill lots`` adds a strip south of its middle
    (inside the towns, outside the existing village); ``smaller core`` keeps the
    middle 60 % of its width and height.
    """
    terr = layout.territory
    minx, miny, maxx, maxy = terr.bounds
    w, h = maxx - minx, maxy - miny
    towns = shapely.union_all(layout.towns)

    def largest(g: shapely.Geometry) -> shapely.Geometry:
        parts = list(getattr(g, "geoms", [g]))
        return max(parts, key=lambda p: p.area)

    north = largest(terr.difference(shapely.box(minx - 1, maxy - 0.25 * h, maxx + 1, maxy + 1)))
    strip = shapely.box(minx + 0.3 * w, miny - 0.15 * h, maxx - 0.3 * w, miny + 0.1 * h)
    mill = largest(terr.union(strip.intersection(towns).difference(layout.village)))
    core = largest(
        terr.intersection(
            shapely.box(minx + 0.2 * w, miny + 0.2 * h, maxx - 0.2 * w, maxy - 0.2 * h)
        )
    )
    return [terr, north, mill, core]


def _nopoly(parcels: int, towns: int) -> int:
    """Special franchise (and as many utility) records per town: see generate_sample."""
    return int(np.clip(round(parcels / towns * 14 / 3350) + 2, 3, 30))


def min_parcels(towns: int) -> int:
    """The fewest roll records :func:`generate_sample` accepts for ``towns`` towns.

    Each town needs 60 lots with polygons besides its ``2 * nopoly`` records
    without one: the least ``N`` with ``N - 2 K nopoly(N) >= 60 K``.
    """
    n = 60 * towns
    while n - 2 * towns * _nopoly(n, towns) < 60 * towns:
        n += 1
    return n


def generate_sample(
    out_dir: Path, *, parcels: int = 3000, towns: int = 2, seed: int = 1, years: int = 2
) -> Path:
    """Write a sample petition into ``out_dir`` and return the path of its ``petition.toml``.

    Parameters
    ----------
    out_dir
        Folder to write into (created if missing; files of the same names are replaced).
    parcels
        Number of roll records in all towns (polygons plus records without polygon).
    towns
        Number of towns, side by side; the territory crosses the first town line when > 1.
    seed
        Seed of the one random generator: same seed, same bytes.
    years
        Roll years written: 1, or 2 (the default) for the yearly rolls, the
        next year's parcel layer and ``petition-next-year.toml`` (see the
        module's docstring). ``petition.toml`` and the files it names do not
        depend on ``years``.

    Returns
    -------
    Path
        The written ``petition.toml``.

    Notes
    -----
    Each town has ``nopoly = clip(round(N / K * 14 / 3350) + 2, 3, 30)`` special
    franchise (section 5) and as many utility (section 6) records without
    polygon (Kinderhook 2025: 4 special franchise and 40 utility records among
    3,350); the remaining ``N - 2 K nopoly`` records are lots with polygons.
    """
    if towns < 1:
        raise ValueError("towns must be >= 1")
    if years not in (1, 2):
        raise ValueError("years must be 1 or 2")
    rng = np.random.default_rng(seed)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    nopoly = _nopoly(parcels, towns)
    n_lots = parcels - 2 * towns * nopoly
    if n_lots < 60 * towns:
        raise ValueError(f"parcels must be at least {min_parcels(towns)}")
    town_list = _towns(towns, rng)
    layout = build_layout(lots=n_lots, towns=towns, rng=rng)
    roll = build_roll(layout, town_list, rng, nopoly_per_town=nopoly)
    residents = _people.build_residents(layout, roll, town_list, rng)
    voters = _people.build_voters(layout, roll, residents, town_list, rng)
    inhabitants = _people.build_inhabitants(residents, roll, town_list, rng)
    pages, signatures, truth, designees = _people.build_signatures(
        roll, residents, voters, town_list, rng
    )

    # Rolls, one file per town.
    table = roll_frame(roll, town_list)
    for t in town_list:
        part = table[table["town"] == t.index]
        _write.write_csv(out_dir / f"roll-{t.code}.csv", part[list(ROLL_FIELDS)])
    # Parcels and boundaries.
    rec = roll.records
    with_poly = rec[rec["lot"] >= 0]
    _write.write_parcels(
        out_dir / "parcels.gpkg",
        with_poly["swis_code"].to_numpy().astype(str),
        with_poly["print_key_code"].to_numpy().astype(str),
        layout.polygons[with_poly["lot"].to_numpy()],
    )
    for t, poly in zip(town_list, layout.towns, strict=True):
        _write.write_geojson(
            out_dir / f"town-{t.code}.geojson", [poly], [{"SWIS": t.code, "NAME": t.name}]
        )
    _write.write_geojson(
        out_dir / "territory.geojson", [layout.territory], [{"NAME": "Proposed territory"}]
    )
    # Street centrelines of the main roads (for the streets description).
    mesh = layout.mesh
    lines = [
        shapely.LineString(np.column_stack([mesh.x[i], mesh.y[i]]))
        for i in range(len(mesh.v_names))
    ]
    lines += [
        shapely.LineString(np.column_stack([mesh.x[:, j], mesh.y[:, j]]))
        for j in range(len(mesh.h_names))
    ]
    _write.write_geojson(
        out_dir / "streets.geojson",
        lines,
        [{"NAME": f"{a} {b}".strip()} for a, b in [*mesh.v_names, *mesh.h_names]],
    )
    v = town_list[layout.village_town]
    _write.write_geojson(
        out_dir / "village.geojson",
        [layout.village],
        [{"SWIS": v.village, "NAME": f"Village of {lx.VILLAGE_NAMES[0]}"}],
    )
    # Equalization rates.
    rates = _rates(town_list)
    _write.write_csv(out_dir / "rates.csv", rates)
    # People.
    _write.write_csv(out_dir / "pages.csv", pages)
    _write.write_csv(out_dir / "signatures.csv", signatures)
    _write.write_csv(out_dir / "ground_truth.csv", truth)
    _write.write_csv(out_dir / "inhabitants.csv", inhabitants)
    _write.write_voters(out_dir / "voters.txt", voters)
    # One assessor's apportionment of a special franchise record.
    sf = rec[(rec["roll_section"] == 5) & (rec["town"] == 0)].iloc[0]
    _write.write_csv(
        out_dir / "apportionment.csv",
        pd.DataFrame(
            [
                {
                    "swis_code": sf["swis_code"],
                    "print_key_code": sf["print_key_code"],
                    "fraction_in_territory": 0.3,
                    "value_in_territory": "",
                    "note": "assessor's apportionment by miles of line in the territory",
                }
            ]
        ),
    )
    config = out_dir / "petition.toml"
    _write.write_config(
        config,
        name=f"Village of {lx.VILLAGE_NAMES[1 + seed % (len(lx.VILLAGE_NAMES) - 1)]}",
        towns=_town_tables(town_list, roll="roll-{code}.csv"),
        designees=designees,
        apportionment=True,
        streets=True,
    )
    _write.write_geojson(
        out_dir / "alternatives.geojson",
        _alternatives(layout),
        [{"name": n} for n in ALTERNATIVES],
    )
    if years >= 2:
        _write_years(
            out_dir,
            years=years,
            seed=seed,
            table=table,
            roll=roll,
            layout=layout,
            town_list=town_list,
            rates=rates,
            truth=truth,
            designees=designees,
        )
    return config


def _write_years(
    out_dir: Path,
    *,
    years: int,
    seed: int,
    table: pd.DataFrame,
    roll: Roll,
    layout: Layout,
    town_list: list[Town],
    rates: pd.DataFrame,
    truth: pd.DataFrame,
    designees: list[dict[str, str]],
) -> None:
    """The later years: yearly rolls, parcel layers, change lists, configs, alternatives."""
    rec = roll.records
    with_poly = rec[rec["lot"] >= 0]
    rate_of = {
        (str(r.swis_code), int(r.rate_year)): float(r.equalization_rate)
        for r in rates.itertuples(index=False)
    }
    this = Year(
        year=ROLL_YEAR,
        roll=table,
        parcels=pd.DataFrame(
            {
                "swis_code": with_poly["swis_code"].to_numpy().astype(str),
                "print_key_code": with_poly["print_key_code"].to_numpy().astype(str),
                "geometry": layout.polygons[with_poly["lot"].to_numpy()],
            }
        ),
    )
    chosen = _signer_parcels(truth, rec, np.random.default_rng([seed, ROLL_YEAR]))
    name = f"Village of {lx.VILLAGE_NAMES[1 + seed % (len(lx.VILLAGE_NAMES) - 1)]}"
    rolls = out_dir / "rolls"
    for k in range(years):
        if k:
            this = next_year(
                this,
                towns=town_list,
                rates=rate_of,
                territory=layout.territory,
                signer_parcels=chosen,
                rng=np.random.default_rng([seed, this.year + 1]),
            )
            _write.write_parcels(
                out_dir / f"parcels-{this.year}.gpkg",
                this.parcels["swis_code"].to_numpy().astype(str),
                this.parcels["print_key_code"].to_numpy().astype(str),
                np.asarray(this.parcels["geometry"].to_numpy(), dtype=object),
            )
            (rolls / f"changes-{this.year}.txt").write_text(
                f"# What changed from roll year {this.year - 1} to {this.year} "
                "(the sample's ground truth; invented data).\n"
                + "".join(line + "\n" for line in this.changes),
                encoding="utf-8",
            )
        for t in town_list:
            folder = rolls / t.code
            folder.mkdir(parents=True, exist_ok=True)
            part = this.roll[this.roll["town"] == t.index]
            _write.write_csv(folder / f"roll-{this.year}.csv", part[list(ROLL_FIELDS)])
        if k:
            _write.write_config(
                out_dir / "petition-next-year.toml",
                name=name,
                towns=_town_tables(town_list, roll="rolls/{code}"),
                designees=designees,
                apportionment=True,
                streets=True,
                filed_on=f"{this.year}-12-01",
                parcels=f"parcels-{this.year}.gpkg",
                comment=(
                    f"The sample petition filed on {this.year}-12-01, after the {this.year} "
                    "rolls (rolls/<swis>/) were completed\n# and before the 2024 amendments "
                    "(which removed the owner test); invented data."
                ),
                out_dir="out-next-year",
            )


def _town_tables(town_list: Sequence[Town], *, roll: str) -> list[dict[str, str]]:
    """The ``[[towns]]`` tables of a sample config; ``roll`` with ``{code}`` for the SWIS."""
    return [
        {
            "swis": t.code,
            "name": t.name,
            "roll": roll.format(code=t.code),
            "boundary": f"town-{t.code}.geojson",
        }
        for t in town_list
    ]
