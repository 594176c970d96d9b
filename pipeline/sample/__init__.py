"""The sample generator behind ``petition sample``: a complete, realistic, invented petition.

``generate_sample(out_dir, parcels=N, towns=K, seed=S)`` writes into ``out_dir``
a ``petition.toml`` and every input it names (rolls, parcel polygons, town
and territory boundaries, street centrelines, equalization rates, signature
pages, voters, inhabitants, an apportionment override), plus ``ground_truth.csv`` (the true
identity of every signature line; not named in the config). Same seed, same
bytes: all randomness comes from one ``numpy.random.default_rng(seed)``.

Modules: :mod:`._streets` (road mesh), :mod:`._parcels` (lots, towns, village,
territory), :mod:`._roll` (roll records, owners), :mod:`._people` (residents,
voters, signatures), :mod:`._write` (file writers).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import shapely

from pipeline.sample import _lexicon as lx
from pipeline.sample import _people, _write
from pipeline.sample._parcels import build_layout
from pipeline.sample._roll import ROLL_FIELDS, Town, build_roll, roll_frame

__all__ = ["generate_sample"]

_RATES_B = (38.5, 37.2, 36.0, 35.0, 33.9)  # 2019..2023; 2022 is the one used


def _towns(k: int, rng: np.random.Generator) -> list[Town]:
    out = []
    for i in range(k):
        code = f"10{44 + 2 * i:02d}00"
        rate = 100.0 if i == 0 else 35.0 if i == 1 else float(np.round(rng.uniform(50, 90), 2))
        out.append(Town(i, code, lx.TOWN_NAMES[i % len(lx.TOWN_NAMES)], f"{12106 + 7 * i}", rate))
    return out


def generate_sample(out_dir: Path, *, parcels: int = 3000, towns: int = 2, seed: int = 1) -> Path:
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
    rng = np.random.default_rng(seed)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    nopoly = int(np.clip(round(parcels / towns * 14 / 3350) + 2, 3, 30))
    n_lots = parcels - 2 * towns * nopoly
    if n_lots < 60 * towns:
        raise ValueError(f"parcels must be at least {60 * towns + 2 * towns * nopoly}")
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
    rows = []
    for t in town_list:
        series = (
            (100.0,) * 5
            if t.rate == 100.0
            else (
                _RATES_B
                if t.index == 1
                else tuple(np.round(t.rate * np.array([1.1, 1.06, 1.03, 1.0, 0.97]), 2))
            )
        )
        for year, r in zip(range(2019, 2024), series, strict=True):
            rows.append({"swis_code": t.code, "rate_year": year, "equalization_rate": r})
    _write.write_csv(out_dir / "rates.csv", pd.DataFrame(rows))
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
        towns=[
            {
                "swis": t.code,
                "name": t.name,
                "roll": f"roll-{t.code}.csv",
                "boundary": f"town-{t.code}.geojson",
            }
            for t in town_list
        ],
        designees=designees,
        apportionment=True,
        streets=True,
    )
    return config
