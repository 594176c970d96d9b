"""A hand-worked petition through `petition run`: every figure worked out here by hand.

The petition (EPSG:2260, US survey feet; offsets X0, Y0 place it in Columbia County):

    y=1000 +-----------+-----------+-----------------------+
           |           |           |  B2 (outside)         |
    y=500  +-----------+-----------+-----------+-----------+
           | A1        | A2        | B1 (half) :           |
    y=0    +-----------+-----------+-----------+-----------+
           x=0        500        1000        1500        2000
           |<---------- town A 104400 ------>|<-- town B 104600 -->|

The territory is x in [0, 1500], y in [0, 500]: A1 and A2 wholly inside, B1 half
inside (fraction 0.5), B2 outside.

Roll year: filed 2023-06-01, roll completed 1 July -> last completed roll 2022.
Rates (rates.csv holds 2021, 2022, 2023): 2022 -> town A 100 %, town B 50 %.

| parcel | town | assessed | fraction | apportioned | rate | full    | owners              |
|--------|------|----------|----------|-------------|------|---------|---------------------|
| A1     | A    | 100,000  | 1        | 100,000     | 100  | 100,000 | JOHN SMITH          |
| A2     | A    |  50,000  | 1        |  50,000     | 100  |  50,000 | MARY & PETER JONES  |
| B1     | B    |  40,000  | 0.5      |  20,000     | 50   |  40,000 | ACME LLC            |
| B2     | B    |  30,000  | 0        | (not listed)| 50   |         | SUE BROWN           |

Signers: John Smith (A1, sole owner: 100,000) and Mary Jones (A2, one of two
owners: 50,000 / 2 = 25,000).
Part A: signers 125,000 of 150,000 full = 83.333... % -> passes.
Part B: signers 0 of 40,000 full = 0 % -> fails.
Overall: 125,000 / 190,000 = 65.789... % > 50, but part B fails -> the test fails.
With an officer signing for ACME LLC: part B 40,000 / 40,000 = 100 %;
overall 165,000 / 190,000 = 86.842... % -> passes.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest
import shapely
from shapely.geometry import box

X0, Y0 = 700_000.0, 1_300_000.0
CRS = "EPSG:2260"
ROLL_HEADER = (
    "roll_year,municipality_code,swis_code,roll_section,property_class,print_key_code,"
    "parcel_address_number,parcel_address_street,parcel_address_suff,"
    "primary_owner_first_name,primary_owner_mi,primary_owner_last_name,"
    "additional_owner_1_first,additional_owner_1_last_name,"
    "mailing_address_number,mailing_address_street,mailing_address_suff,"
    "mailing_address_city,mailing_address_state,mailing_address_zip,"
    "assessment_land,assessment_total,full_market_value\n"
)


def _b(x1: float, y1: float, x2: float, y2: float):  # type: ignore[no-untyped-def]
    return box(X0 + x1, Y0 + y1, X0 + x2, Y0 + y2)


def make_petition(root: Path, *, acme_signs: bool = False) -> Path:
    """Write the hand-worked petition into ``root``; return its config."""
    root.mkdir(parents=True, exist_ok=True)
    gpd.GeoDataFrame(geometry=[_b(0, 0, 1500, 500)], crs=CRS).to_file(
        root / "territory.geojson", driver="GeoJSON"
    )
    gpd.GeoDataFrame(geometry=[_b(0, 0, 1000, 1000)], crs=CRS).to_file(
        root / "town-a.geojson", driver="GeoJSON"
    )
    gpd.GeoDataFrame(geometry=[_b(1000, 0, 2000, 1000)], crs=CRS).to_file(
        root / "town-b.geojson", driver="GeoJSON"
    )
    gpd.GeoDataFrame(
        {
            "SWIS": ["104489", "104489", "104689", "104689"],
            "PRINT_KEY": ["1.-1-1", "1.-1-2", "2.-1-1", "2.-1-2"],
        },
        geometry=[
            _b(0, 0, 500, 500),
            _b(500, 0, 1000, 500),
            _b(1000, 0, 2000, 500),
            _b(1000, 500, 2000, 1000),
        ],
        crs=CRS,
    ).to_file(root / "parcels.gpkg", driver="GPKG")
    (root / "roll-a.csv").write_text(
        ROLL_HEADER
        + "2022,104400,104489,1,210,1.-1-1,1,Main,St,John,,Smith,,,1,Main,St,Harlow,NY,12106,"
        "20000,100000,100000\n"
        + "2022,104400,104489,1,210,1.-1-2,2,Main,St,Mary,,Jones,Peter,Jones,2,Main,St,"
        "Harlow,NY,12106,10000,50000,50000\n"
    )
    (root / "roll-b.csv").write_text(
        ROLL_HEADER
        + "2022,104600,104689,1,449,2.-1-1,3,Main,St,,,Acme LLC,,,9,Elm,St,Albany,NY,12207,"
        "10000,40000,80000\n"
        + "2022,104600,104689,1,210,2.-1-2,4,Main,St,Sue,,Brown,,,4,Main,St,Brinton,NY,12106,"
        "10000,30000,60000\n"
    )
    (root / "rates.csv").write_text(
        "swis_code,rate_year,equalization_rate\n"
        "104400,2021,90\n104600,2021,45\n"
        "104400,2022,100\n104600,2022,50\n"
        "104400,2023,80\n104600,2023,40\n"
    )
    lines = [
        "1,1,John Smith,1 Main St,Harlow,2023-05-01,,100000",
        "1,2,Mary Jones,2 Main St,Harlow,2023-05-01,,25000",
    ]
    if acme_signs:
        lines.append("1,3,Wile E. Coyote,9 Elm St,Albany,2023-05-02,Acme LLC,20000")
    (root / "pages.csv").write_text(
        "page,basis,witness_name,witness_address,stated_signature_count,sworn_on\n"
        f"1,owners,Ann Witness,5 Main St,{len(lines)},2023-05-03\n"
    )
    (root / "signatures.csv").write_text(
        "page,line,name,address,town,signed_on,signing_for,credited_assessed_value\n"
        + "\n".join(lines)
        + "\n"
    )
    config = root / "petition.toml"
    config.write_text(
        """
[petition]
name = "Village of Handworked"
filed_on = 2023-06-01
bases = ["owners"]

[territory]
boundary = "territory.geojson"

[[towns]]
swis = "104400"
name = "Harlow"
roll = "roll-a.csv"
parcels = "parcels.gpkg"
boundary = "town-a.geojson"

[[towns]]
swis = "104600"
name = "Brinton"
roll = "roll-b.csv"
parcels = "parcels.gpkg"
boundary = "town-b.geojson"

[equalization]
rates = "rates.csv"

[signers]
pages = "pages.csv"
signatures = "signatures.csv"

[[designees]]
name = "John Smith"
address = "1 Main St"
town = "Harlow"
"""
    )
    return config


def _add_column(path: Path, name: str, values: list[str]) -> None:
    """Append a column to a CSV file (one value per data row)."""
    header, *rows = path.read_text().splitlines()
    lines = [f"{header},{name}", *(f"{r},{v}" for r, v in zip(rows, values, strict=True))]
    path.write_text("\n".join(lines) + "\n")


def run_ok(config: Path, out: Path) -> Path:
    """``petition run config --out out``, which must finish (exit 0); returns ``out``."""
    proc = petition_run(str(config), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    return out


def run_filed_on(tmp_path: Path, day: str) -> Path:
    """The hand-worked petition filed on ``day`` (ISO date), run; its results folder."""
    config = make_petition(tmp_path / "p")
    config.write_text(config.read_text().replace("filed_on = 2023-06-01", f"filed_on = {day}"))
    return run_ok(config, tmp_path / "results")


def petition_run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "run", *args],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def handworked(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, pd.DataFrame, Path]:
    root = tmp_path_factory.mktemp("handworked")
    config = make_petition(root)
    out = root / "results"
    proc = petition_run(str(config), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    parcels = pd.read_csv(out / "parcels.csv", dtype={"swis_code": str, "town_swis": str})
    return summary, parcels, out


def test_parcel_schedule_is_hand_worked(handworked) -> None:
    _, parcels, _ = handworked
    rows = parcels.set_index("print_key_code")
    # B2 lies outside (fraction 0): not listed
    assert set(rows.index) == {"1.-1-1", "1.-1-2", "2.-1-1"}
    assert rows.loc["2.-1-1", "fraction_in_territory"] == pytest.approx(0.5, abs=1e-12)
    assert rows.loc["2.-1-1", "fraction_source"] == "geometry"
    assert rows.loc["2.-1-1", "apportioned_assessed"] == pytest.approx(20_000)  # 40,000 x 0.5
    assert rows.loc["2.-1-1", "equalization_rate"] == 50.0  # the 2022 rate, not 2021/2023
    assert rows.loc["2.-1-1", "apportioned_full"] == pytest.approx(40_000)  # 20,000 / 0.5
    assert rows.loc["1.-1-2", "owner_count"] == 2
    assert rows.loc["1.-1-2", "signer_credit_assessed"] == pytest.approx(25_000)  # 50,000 / 2
    assert rows.loc["1.-1-1", "signer_credit_full"] == pytest.approx(100_000)


def test_every_schedule_names_the_regime_and_the_roll_year(handworked) -> None:
    # rules § 8: outputs always name the regime used; a parcel row names the year
    # of its town's roll (filed 2023-06-01: the 2022 rolls of both towns)
    _, parcels, out = handworked
    assert set(parcels["regime"]) == {"2-202-pre-2024"}
    assert set(parcels["roll_year"]) == {2022}
    for name in ("signatures.csv", "review.csv"):
        frame = pd.read_csv(out / name)
        assert "regime" in frame.columns and set(frame["regime"].dropna()) <= {"2-202-pre-2024"}
    quality = json.loads((out / "data_quality.json").read_text())
    assert quality["regime"] == "2-202-pre-2024"


def test_parcels_drawn_in_utm_are_apportioned_as_drawn(tmp_path: Path) -> None:
    # The same petition drawn in NAD83 / UTM 18N (metres), as New York
    # publishes its tax parcels. Worked in that CRS, unreprojected: 2.-1-1 is
    # exactly half inside (0.5, not 0.50000005 after a trip to State Plane)
    # and 1.-1-1, whose edge is the territory's, exactly whole (source
    # geometry, not a sliver). Total full value 100,000 + 50,000 + 40,000.
    root = tmp_path / "p"
    config = make_petition(root)
    for name in ("territory.geojson", "town-a.geojson", "town-b.geojson", "parcels.gpkg"):
        layer = gpd.read_file(root / name)
        moved = layer.geometry.translate(600_000.0 - X0, 4_690_000.0 - Y0)
        layer = layer.set_geometry(moved).set_crs("EPSG:26918", allow_override=True)
        layer.to_file(root / name, driver="GPKG" if name.endswith(".gpkg") else "GeoJSON")
    out = run_ok(config, tmp_path / "results")
    rows = pd.read_csv(out / "parcels.csv").set_index("print_key_code")
    assert rows.loc["2.-1-1", "fraction_in_territory"] == 0.5
    assert rows.loc["1.-1-1", "fraction_in_territory"] == 1.0
    assert set(rows["fraction_source"]) == {"geometry"}
    owner = json.loads((out / "summary.json").read_text())["owner_test"]
    assert owner["total_value"] == 190_000.0
    assert owner["signer_value"] == 125_000.0


def test_an_ownership_override_naming_a_couple_in_one_name_divides_by_two(
    tmp_path: Path,
) -> None:
    # audit A30 F2: the override names A1's owners "John & Ann Smith", count
    # blank: two owners, so John Smith is credited 100,000 / 2 = 50,000 (the
    # one entry was counted as one owner: 100,000). Part A: signers 50,000 +
    # 25,000 = 75,000 of 150,000 = exactly 50 % -> fails ("more than fifty per
    # cent"); overall 75,000 / 190,000 = 39.47... %.
    root = tmp_path / "p"
    config = make_petition(root)
    (root / "ownership.csv").write_text(
        "swis_code,print_key_code,owner_count,owners,note\n104489,1.-1-1,,John & Ann Smith,deed\n"
    )
    config.write_text(config.read_text() + '\n[overrides]\nownership = "ownership.csv"\n')
    out = run_ok(config, tmp_path / "results")
    rows = pd.read_csv(out / "parcels.csv").set_index("print_key_code")
    assert rows.loc["1.-1-1", "owner_count"] == 2
    assert rows.loc["1.-1-1", "owners"] == "JOHN SMITH; ANN SMITH"
    assert rows.loc["1.-1-1", "signer_credit_assessed"] == 50_000.0
    owner = json.loads((out / "summary.json").read_text())["owner_test"]
    assert owner["signer_value"] == 75_000.0  # 50,000 + 25,000
    parts = {p["swis"]: p for p in owner["parts"]}
    assert parts["104400"]["percent"] == 50.0  # 75,000 / 150,000
    assert parts["104400"]["passes"] is False
    assert owner["percent"] == pytest.approx(100 * 75_000 / 190_000)  # 39.47...


def test_a_rate_of_one_percent_or_less_is_used_and_told(tmp_path: Path) -> None:
    # audit A28 J6: Brinton's 2022 rate written 0.5 (50 % as a fraction?) is a
    # percent, as real rates under 1 % exist: B1's 20,000 apportioned is
    # 20,000 / (0.5 / 100) = 4,000,000 full, and the run says so
    root = tmp_path / "p"
    config = make_petition(root)
    rates = root / "rates.csv"
    rates.write_text(rates.read_text().replace("104600,2022,50", "104600,2022,0.5"))
    summary = json.loads((run_ok(config, tmp_path / "results") / "summary.json").read_text())
    parts = {p["swis"]: p for p in summary["owner_test"]["parts"]}
    assert parts["104600"]["total_full"] == pytest.approx(4_000_000.0)
    told = [w for w in summary["warnings"] if "equalization rate 0.5" in w]
    assert told == [
        "town 104600 (Brinton): equalization rate 0.5 from the rates file is read as 0.5 % "
        "(full value = assessed x 200); rates are percents: if it is a fraction (0.5 for "
        "50 %), write it as a percent"
    ]


def test_town_polygons_overlapping_by_a_strip_make_no_town_part_of_it(tmp_path: Path) -> None:
    # audit A33 F2: the territory is x 0..1000 (A1 and A2, all in Harlow);
    # Brinton's polygon starts at x 998 instead of 1000: a 2 x 500 ft overlap,
    # 0.2 % of the territory. It was a part of Brinton holding $0, which failed
    # the owner test and asked for a copy and $6,000 more. Now: Harlow's part
    # alone; 125,000 of 150,000 = 83.33 %, passes; the original with Harlow,
    # $6,000.
    root = tmp_path / "p"
    config = make_petition(root)
    _redraw(root, "territory.geojson", _b(0, 0, 1000, 500))
    _redraw(root, "town-b.geojson", _b(998, 0, 2000, 1000))
    summary = json.loads((run_ok(config, tmp_path / "results") / "summary.json").read_text())
    owner = summary["owner_test"]
    assert [p["swis"] for p in owner["parts"]] == ["104400"]
    assert owner["passes"] is True
    assert owner["percent"] == pytest.approx(100 * 125_000 / 150_000)
    assert summary["filing"]["copies_with"] == []
    assert summary["filing"]["deposit_total"] == 6000
    assert any("no town part of it" in w for w in summary["warnings"])


def test_owner_test_part_b_fails(handworked) -> None:
    summary, _, _ = handworked
    owner = summary["owner_test"]
    assert owner["value_basis"] == "full"
    assert owner["total_value"] == pytest.approx(190_000)  # 100,000 + 50,000 + 40,000
    assert owner["signer_value"] == pytest.approx(125_000)  # 100,000 + 25,000
    assert owner["percent"] == pytest.approx(100 * 125_000 / 190_000)  # 65.789...
    parts = {p["swis"]: p for p in owner["parts"]}
    assert parts["104400"]["percent"] == pytest.approx(100 * 125_000 / 150_000)  # 83.33
    assert parts["104400"]["passes"] is True
    assert parts["104600"]["percent"] == pytest.approx(0.0)
    assert parts["104600"]["passes"] is False
    assert owner["passes"] is False  # overall > 50 but one part fails
    codes = [d["code"] for d in summary["deficiencies"]]
    assert "owner_part_percent_not_met" in codes
    assert "owner_percent_not_met" not in codes
    assert summary["sufficient"] is False


def test_territory_filing_and_regime(handworked) -> None:
    summary, _, out = handworked
    assert summary["regime"] == "2-202-pre-2024"
    # 1500 ft x 500 ft = 750,000 sq ft; 1 sq mi = 5280^2 = 27,878,400 sq ft -> 0.026903 sq mi
    # (US survey feet and the ellipsoid differ from this by far less than 0.1 %)
    assert summary["territory"]["square_miles"] == pytest.approx(750_000 / 27_878_400, rel=1e-3)
    towns = {t["swis"]: t["square_miles"] for t in summary["territory"]["towns"]}
    assert towns["104400"] == pytest.approx(500_000 / 27_878_400, rel=1e-3)  # 1000 x 500
    assert towns["104600"] == pytest.approx(250_000 / 27_878_400, rel=1e-3)  # 500 x 500
    # the original goes to the town with the greater part; $6,000 with each supervisor
    assert summary["filing"] == {
        "original_with": "104400",
        "copies_with": ["104600"],
        "deposit_per_supervisor": 6000,
        "deposit_total": 12000,
    }
    assert summary["resident_test"]["applies"] is False
    assert summary["resident_test"]["passes"] is None
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["regime"] == "2-202-pre-2024"
    assert "towns.104400.roll" in manifest["inputs"]
    assert len(manifest["inputs"]["towns.104400.roll"]["sha256"]) == 64
    assert manifest["config"]["policy"]["sliver_tolerance"] == 0.005


def test_entity_signature_makes_every_part_pass(tmp_path: Path) -> None:
    config = make_petition(tmp_path / "p", acme_signs=True)
    out = run_ok(config, tmp_path / "results")
    owner = json.loads((out / "summary.json").read_text())["owner_test"]
    parts = {p["swis"]: p for p in owner["parts"]}
    assert parts["104600"]["signer_full"] == pytest.approx(40_000)  # ACME LLC: one owner
    assert parts["104600"]["percent"] == pytest.approx(100.0)
    assert owner["percent"] == pytest.approx(100 * 165_000 / 190_000)  # 86.842...
    assert owner["passes"] is True
    sigs = pd.read_csv(out / "signatures.csv")
    acme = sigs.loc[sigs["line"] == 3].iloc[0]
    assert acme["status"] == "counted"
    assert acme["matched_to"] == "104689:2.-1-1"
    assert acme["credit_assessed"] == pytest.approx(20_000)


def test_rerun_gives_identical_bytes(handworked, tmp_path: Path) -> None:
    _, _, out = handworked
    config = out.parent / "petition.toml"
    again = tmp_path / "again"
    assert petition_run(str(config), "--out", str(again)).returncode == 0
    names = sorted(p.name for p in out.iterdir() if p.name != "manifest.json")
    assert names == sorted(p.name for p in again.iterdir() if p.name != "manifest.json")
    for name in names:
        assert (out / name).read_bytes() == (again / name).read_bytes(), name


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        # a bad number in the roll: file, data row 2, column, problem
        (
            lambda r: (r / "roll-a.csv").write_text(
                (r / "roll-a.csv").read_text().replace(",50000,50000", ",5OOOO,50000")
            ),
            ["roll-a.csv", "row 2", "assessment_total"],
        ),
        # a missing column
        (
            lambda r: (r / "roll-b.csv").write_text(
                (r / "roll-b.csv").read_text().replace("print_key_code", "printkey_cod")
            ),
            ["roll-b.csv", "print_key_code"],
        ),
        # no rate for the roll year in a territory of two towns
        (
            lambda r: (r / "rates.csv").write_text(
                "swis_code,rate_year,equalization_rate\n104400,2022,100\n104600,2021,45\n"
            ),
            ["rates.csv", "104600", "2022"],
        ),
        # the roll year's rate left blank (not final): its row is named
        (
            lambda r: (r / "rates.csv").write_text(
                "swis_code,rate_year,equalization_rate\n104400,2022,100\n104600,2022,\n"
            ),
            ["rates.csv", "row 2", "equalization_rate", "104600", "blank (not final)"],
        ),
        # an unknown config key, with the nearest suggestion
        (
            lambda r: (r / "petition.toml").write_text(
                (r / "petition.toml")
                .read_text()
                .replace("[equalization]\nrates", "[equalization]\nratez")
            ),
            ["petition.toml", "ratez", "did you mean 'rates'"],
        ),
        # a territory in the wrong place (e.g. a wrong CRS): it overlaps no parcel
        (
            lambda r: gpd.GeoDataFrame(geometry=[box(0, 0, 10, 10)], crs=CRS).to_file(
                r / "territory.geojson", driver="GeoJSON"
            ),
            ["territory.geojson", "overlaps no parcel"],
        ),
        # an empty roll
        (
            lambda r: (r / "roll-b.csv").write_text(ROLL_HEADER),
            ["roll-b.csv"],
        ),
        # a blank value of a parcel in the territory, found by the core: the roll
        # file is named, not the core's label for it
        (
            lambda r: (
                _add_column(r / "roll-a.csv", "town_taxable_value", ["100000", ""]),
                _add_column(r / "roll-b.csv", "town_taxable_value", ["40000", "30000"]),
                (r / "petition.toml").write_text(
                    (r / "petition.toml").read_text()
                    + '\n[policy]\nvalue_basis = "town_taxable_value"\n'
                ),
            ),
            ["roll-a.csv", "row 2", "town_taxable_value", "no town_taxable_value"],
        ),
        # a roll of 2023, not completed (1 July) as of filed_on 2023-06-01: not
        # the roll the law asks for (the last completed, 2022)
        (
            lambda r: (r / "roll-a.csv").write_text(
                (r / "roll-a.csv").read_text().replace("\n2022,", "\n2023,")
            ),
            ["roll-a.csv", "roll_year", "not completed", "2022"],
        ),
        # a blank assessment_total of a parcel in the territory (1.-1-1): the
        # roll's row is named (a blank outside the territory is no error)
        (
            lambda r: (r / "roll-a.csv").write_text(
                (r / "roll-a.csv").read_text().replace(",20000,100000,100000", ",20000,,100000")
            ),
            ["roll-a.csv", "row 1", "assessment_total", "no assessment_total"],
        ),
        # an override above the parcel's value: the overrides file, plain numbers
        (
            lambda r: (
                (r / "apportionment.csv").write_text(
                    "swis_code,print_key_code,fraction_in_territory,value_in_territory,note\n"
                    "104489,1.-1-2,,70000,assessor\n"
                ),
                (r / "petition.toml").write_text(
                    (r / "petition.toml").read_text()
                    + '\n[overrides]\napportionment = "apportionment.csv"\n'
                ),
            ),
            ["apportionment.csv", "row 1", "value_in_territory 70000.0 is outside 0..50000.0"],
        ),
        # town B's polygon far from the territory (a wrong file or CRS) while its
        # parcel B1 lies half in it: the filing plan would leave town B out
        (
            lambda r: gpd.GeoDataFrame(geometry=[_b(9000, 9000, 9500, 9500)], crs=CRS).to_file(
                r / "town-b.geojson", driver="GeoJSON"
            ),
            ["town-b.geojson", "does not meet the territory", "2.-1-1"],
        ),
        # town B's roll lists Harlow's parcel 104489 1.-1-1 too (its value would
        # count twice): named on roll-b.csv, row 3, with the first roll's row
        (
            lambda r: (r / "roll-b.csv").write_text(
                (r / "roll-b.csv").read_text()
                + "2022,104600,104489,1,210,1.-1-1,1,Main,St,John,,Smith,,,1,Main,St,Harlow,"
                "NY,12106,20000,100000,100000\n"
            ),
            ["roll-b.csv", "row 3", "104489 1.-1-1 is also on roll-a.csv (row 1)"],
        ),
        # a negative value on the roll
        (
            lambda r: (r / "roll-a.csv").write_text(
                (r / "roll-a.csv").read_text().replace(",50000,50000", ",-50000,50000")
            ),
            ["roll-a.csv", "row 2", "assessment_total", "must be at least 0"],
        ),
        # an ownership override of a parcel on no roll (like an apportionment one)
        (
            lambda r: (
                (r / "ownership.csv").write_text(
                    "swis_code,print_key_code,owner_count,owners,note\n104489,9.-9-9,2,,x\n"
                ),
                (r / "petition.toml").write_text(
                    (r / "petition.toml").read_text()
                    + '\n[overrides]\nownership = "ownership.csv"\n'
                ),
            ),
            ["ownership.csv", "row 1", "print_key_code", "on no roll"],
        ),
        # a roll year asked for that the roll's records are not of
        (
            lambda r: (r / "petition.toml").write_text(
                (r / "petition.toml")
                .read_text()
                .replace('roll = "roll-a.csv"', 'roll = "roll-a.csv"\nroll_year = 2023')
            ),
            ["roll-a.csv", "roll year 2022", "2023 is asked for (towns.104400.roll_year)"],
        ),
        # the taxable basis asked for, and the rolls have no town_taxable_value
        # column at all: the column is named, not a blank in the first record
        # (audit A28 F1)
        (
            lambda r: (r / "petition.toml").write_text(
                (r / "petition.toml").read_text()
                + '\n[policy]\nvalue_basis = "town_taxable_value"\n'
            ),
            [
                "roll-a.csv",
                "column 'town_taxable_value'",
                "the roll has no town_taxable_value column",
            ],
        ),
        # rates keyed by the roll's SWIS codes (104489, 104689), not the towns'
        # (104400, 104600): the message says which rows the file has (A28 J3)
        (
            lambda r: (r / "rates.csv").write_text(
                "swis_code,rate_year,equalization_rate\n104489,2022,100\n104689,2022,50\n"
            ),
            ["rates.csv", "no equalization rate for town 104400", "the file has rows for 104489"],
        ),
        # a piece of the territory (100 x 29 ft, 0.385 % of it) 1,000 ft beyond
        # both town polygons: land in a town not listed, not noise along a town
        # line (audit A33 F3: it was taken for noise, under the sliver tolerance)
        (
            lambda r: gpd.GeoDataFrame(
                geometry=[_b(0, 0, 1500, 500).union(_b(3000, 2000, 3100, 2029))], crs=CRS
            ).to_file(r / "territory.geojson", driver="GeoJSON"),
            ["territory.geojson", "lies in none of the town polygons", "apart from them"],
        ),
        # a roll with no column naming owners, and the owner basis alleged:
        # every owner line would be not_owner, the town's signers' value 0
        # (audit A35 F5: read without a word)
        (
            lambda r: (
                pd.read_csv(r / "roll-a.csv", dtype=str)
                .filter(regex="^(?!.*owner_)")
                .to_csv(r / "roll-a.csv", index=False)
            ),
            ["roll-a.csv", "primary_owner_last_name", "the roll names no owners"],
        ),
        # a hole ring outside its shell (audit A33 F1): refused, not made land
        (
            lambda r: gpd.GeoDataFrame(
                geometry=[
                    shapely.Polygon(
                        [(X0, Y0), (X0 + 1500, Y0), (X0 + 1500, Y0 + 500), (X0, Y0 + 500)],
                        [
                            [
                                (X0 + 1600, Y0 + 600),
                                (X0 + 2000, Y0 + 600),
                                (X0 + 2000, Y0 + 1000),
                                (X0 + 1600, Y0 + 1000),
                            ]
                        ],
                    )
                ],
                crs=CRS,
            ).to_file(r / "territory.geojson", driver="GeoJSON"),
            ["territory.geojson", "feature 1", "hole ring lies outside"],
        ),
    ],
)
def test_bad_input_exits_2_and_leaves_results_alone(tmp_path: Path, mutate, expected) -> None:
    root = tmp_path / "p"
    config = make_petition(root)
    out = tmp_path / "results"
    out.mkdir()
    (out / "earlier.txt").write_text("an earlier run")
    (out / "manifest.json").write_text("{}")  # the earlier run's (results may replace them)
    mutate(root)
    proc = petition_run(str(config), "--out", str(out))
    assert proc.returncode == 2, proc.stderr
    message = proc.stderr.strip()
    assert "Traceback" not in message
    for part in expected:
        assert part in message, message
    # the results folder is left as it was, and no partial folder remains
    assert sorted(p.name for p in out.iterdir()) == ["earlier.txt", "manifest.json"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_results_folder_under_a_file_is_refused_before_the_work(tmp_path: Path) -> None:
    # --out afile/results cannot be made: exit 2 at once, not a traceback after
    # the whole run
    config = make_petition(tmp_path / "p")
    (tmp_path / "afile").write_text("keep me")
    proc = petition_run(str(config), "--out", str(tmp_path / "afile" / "results"))
    assert proc.returncode == 2, proc.stderr
    assert "cannot be made" in proc.stderr and "Traceback" not in proc.stderr
    assert (tmp_path / "afile").read_text() == "keep me"


def test_a_roll_older_than_the_last_completed_is_equalized_with_its_own_years_rate(
    tmp_path: Path,
) -> None:
    # filed 2023-08-01: the last completed roll is 2023, but the rolls given
    # are of 2022. Their values are equalized with the 2022 rates (A 100, B 50),
    # never 2023's (A 80, B 40): part B = 20,000 / 0.5 = 40,000 full (with the
    # 2023 rate it would be 20,000 / 0.4 = 50,000), and a warning says so
    out = run_filed_on(tmp_path, "2023-08-01")
    summary = json.loads((out / "summary.json").read_text())
    parts = {p["swis"]: p for p in summary["owner_test"]["parts"]}
    assert parts["104400"]["equalization_rate"] == 100.0
    assert parts["104600"]["equalization_rate"] == 50.0
    assert parts["104600"]["total_full"] == 40_000.0
    assert any("roll-b.csv" in w and "is of 2022" in w for w in summary["warnings"])
    assert not any("the file is named for" in w for w in summary["warnings"])
    # the owner test stands on rolls the law does not name (§ 2-202.1.a(2)):
    # a deficiency, and the certification says which roll it is upon
    assert [r["last_completed_roll_year"] for r in summary["rolls"]] == [2023, 2023]
    stale = [d for d in summary["deficiencies"] if d["code"] == "roll_not_last_completed"]
    assert len(stale) == 1 and stale[0]["paragraph"] == "2-202.1.a(2)"
    assert "Harlow (104400): roll of 2022 used, last completed 2023" in stale[0]["message"]
    assert summary["sufficient"] is False
    import docx

    text = " ".join(p.text for p in docx.Document(out / "certification-104600.docx").paragraphs)
    assert "upon the final assessment roll of 2022 of the Town of Brinton, which is not its " in (
        text
    )
    assert "upon the last completed assessment roll" not in text


def test_a_roll_year_asked_for_that_is_not_the_last_completed_is_told(tmp_path: Path) -> None:
    # filed 2023-06-01 the last completed rolls are 2022's, and 2022 is what the
    # petition's rolls hold; --roll-year 2022 asks for it: nothing to tell. The
    # town's roll_year = 2022 filed 2023-08-01 (last completed: 2023) is told,
    # and the owner test carries the deficiency
    root = tmp_path / "p"
    config = make_petition(root)
    out = run_ok(config, tmp_path / "r1")
    summary = json.loads((out / "summary.json").read_text())
    assert not [d for d in summary["deficiencies"] if d["code"] == "roll_not_last_completed"]
    text = config.read_text().replace("filed_on = 2023-06-01", "filed_on = 2023-08-01")
    text = text.replace('name = "Harlow"\n', 'name = "Harlow"\nroll_year = 2022\n')
    config.write_text(text)
    out = run_ok(config, tmp_path / "r2")
    summary = json.loads((out / "summary.json").read_text())
    assert any(
        "town 104400 (Harlow): the roll of 2022 is used, as asked (the town's roll_year); the "
        "last completed roll as of 2023-08-01 is that of 2023" in w
        for w in summary["warnings"]
    )
    stale = [d for d in summary["deficiencies"] if d["code"] == "roll_not_last_completed"]
    assert len(stale) == 1 and "Harlow (104400)" in stale[0]["message"]


@pytest.mark.parametrize("where", ["petition", "file", "other"])
def test_a_results_folder_that_is_not_one_is_refused(tmp_path: Path, where: str) -> None:
    # the results replace their folder as a whole: the petition's own folder, a
    # file or a folder of other files would be destroyed; exit 2, all left as is
    root = tmp_path / "p"
    config = make_petition(root)
    out = {"petition": root, "file": tmp_path / "afile", "other": tmp_path / "notes"}[where]
    if where == "file":
        out.write_text("keep me")
    if where == "other":
        out.mkdir()
        (out / "keep.txt").write_text("keep me")
    before = sorted(p.name for p in out.iterdir()) if out.is_dir() else out.read_text()
    proc = petition_run(str(config), "--out", str(out))
    assert proc.returncode == 2, proc.stderr
    assert str(out) in proc.stderr and "results folder" in proc.stderr
    after = sorted(p.name for p in out.iterdir()) if out.is_dir() else out.read_text()
    assert after == before


def test_sample_command_writes_a_petition(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "sample", str(tmp_path / "s"), "--parcels", "300"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "s" / "petition.toml").is_file()


def test_listed_town_the_territory_does_not_reach_is_no_part(tmp_path: Path) -> None:
    """The territory shrinks to x in [0, 900]: wholly in town A, though B is still listed.

    A1 inside: 100,000. A2 (x 500..1000) is 400/500 = 0.8 inside: 0.8 x 50,000 = 40,000.
    One town, so the test is on assessed value: total 140,000; signers John Smith
    100,000 + Mary Jones 40,000 / 2 = 20,000 -> 120,000 / 140,000 = 85.714... % > 50.
    Town B is no part: no part of its own, no copy to file, one deposit, and
    no equalization rate needed (the rates file here has none for B).
    """
    root = tmp_path / "p"
    config = make_petition(root)
    gpd.GeoDataFrame(geometry=[_b(0, 0, 900, 500)], crs=CRS).to_file(
        root / "territory.geojson", driver="GeoJSON"
    )
    (root / "rates.csv").write_text("swis_code,rate_year,equalization_rate\n104400,2022,100\n")
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    owner = summary["owner_test"]
    assert owner["value_basis"] == "assessed"
    assert [p["swis"] for p in owner["parts"]] == ["104400"]
    assert owner["towns_not_reached"] == ["104600"]
    assert owner["total_value"] == pytest.approx(140_000)
    assert owner["signer_value"] == pytest.approx(120_000)
    assert owner["percent"] == pytest.approx(100 * 120_000 / 140_000)
    assert owner["passes"] is True
    assert summary["filing"]["copies_with"] == []
    assert summary["filing"]["deposit_total"] == 6000


def _town_a_alone(root: Path) -> Path:
    """The hand-worked petition cut to town A: territory x in [0, 900], no town B."""
    config = make_petition(root)
    gpd.GeoDataFrame(geometry=[_b(0, 0, 900, 500)], crs=CRS).to_file(
        root / "territory.geojson", driver="GeoJSON"
    )
    text = config.read_text()
    text = text[: text.index('[[towns]]\nswis = "104600"')] + text[text.index("[signers]") :]
    config.write_text(text)
    return config


def test_one_town_without_a_rate_leaves_full_credits_empty(tmp_path: Path) -> None:
    """Town A alone (x in [0, 900]), no rates file: the test is on assessed values.

    John Smith is credited A1's 100,000 assessed; its full value is unknown
    without a rate, so his line's credit_full is empty, never 0.
    """
    config = _town_a_alone(tmp_path / "p")
    out = run_ok(config, tmp_path / "results")
    lines = pd.read_csv(out / "signatures.csv").set_index("line")
    assert lines.loc[1, "status"] == "counted"
    assert lines.loc[1, "credit_assessed"] == 100_000
    assert math.isnan(lines.loc[1, "credit_full"])


def test_one_town_without_its_polygon_is_not_approximate(tmp_path: Path) -> None:
    """Town A alone, without its boundary polygon: its part is the whole territory.

    Nothing is taken from the rolls' towns, so there is no "approximate areas"
    warning (audit A6), and the part's area is the territory's own.
    """
    config = _town_a_alone(tmp_path / "p")
    config.write_text(config.read_text().replace('boundary = "town-a.geojson"\n', ""))
    summary = json.loads((run_ok(config, tmp_path / "results") / "summary.json").read_text())
    assert not any(w.startswith("no town polygons") for w in summary["warnings"])
    towns = _towns_sq_mi(summary)
    assert list(towns) == ["104400"]
    assert towns["104400"] == pytest.approx(summary["territory"]["square_miles"], rel=1e-12)


def _mary_signs_after_the_affidavit(root: Path) -> None:
    """Date Mary Jones's line 2023-05-04, after her page's affidavit (2023-05-03)."""
    sig = root / "signatures.csv"
    sig.write_text(
        sig.read_text().replace(
            "Mary Jones,2 Main St,Harlow,2023-05-01", "Mary Jones,2 Main St,Harlow,2023-05-04"
        )
    )


def test_an_owner_line_signed_after_the_affidavit_earns_nothing(tmp_path: Path) -> None:
    """Mary Jones dated her line 2023-05-04, after the witness swore on 2023-05-03.

    The witness cannot have seen it signed: page_defect, no credit. Part A:
    John Smith's 100,000 of 150,000 full = 66.666... %; overall 100,000 /
    190,000 = 52.63... % (before: 125,000 / 190,000).
    """
    root = tmp_path / "p"
    config = make_petition(root)
    _mary_signs_after_the_affidavit(root)
    out = run_ok(config, tmp_path / "results")
    lines = pd.read_csv(out / "signatures.csv").set_index("line")
    assert lines.loc[2, "status"] == "page_defect"
    assert "after the witness's affidavit sworn on 2023-05-03" in lines.loc[2, "note"]
    assert lines.loc[2, "credit_assessed"] == 0
    owner = json.loads((out / "summary.json").read_text())["owner_test"]
    assert owner["signer_value"] == pytest.approx(100_000)
    assert owner["percent"] == pytest.approx(100 * 100_000 / 190_000)


def test_a_signature_without_its_town_is_a_deficiency(tmp_path: Path) -> None:
    # § 2-202.1.e(3): after each signature, "street name and number, if any,
    # and town". Mary Jones's line (1:2) lost its town: line_without_town; the
    # line still counts (the figures do not change) but the petition is not
    # sufficient as it stands.
    root = tmp_path / "p"
    config = make_petition(root)
    sig = root / "signatures.csv"
    sig.write_text(
        sig.read_text().replace("Mary Jones,2 Main St,Harlow,", "Mary Jones,2 Main St,,")
    )
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    found = [d for d in summary["deficiencies"] if d["code"] == "line_without_town"]
    assert [(d["where"], d["paragraph"]) for d in found] == [("lines 1:2", "2-202.1.e(3)")]
    assert summary["sufficient"] is False


def test_signer_files_without_the_date_and_town_columns_are_warned_about(
    tmp_path: Path,
) -> None:
    # no town, signed_on or sworn_on column: those checks cannot run; each is
    # named in a warning, and no line is judged for a town it was never given
    root = tmp_path / "p"
    config = make_petition(root)
    sig = root / "signatures.csv"
    frame = pd.read_csv(sig, dtype=str, keep_default_na=False)
    frame.drop(columns=["town", "signed_on"]).to_csv(sig, index=False)
    pages = root / "pages.csv"
    frame = pd.read_csv(pages, dtype=str, keep_default_na=False)
    frame.drop(columns=["sworn_on"]).to_csv(pages, index=False)
    out = tmp_path / "results"
    proc = petition_run(str(config), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "signatures.csv has no 'town' column" in proc.stderr
    assert "signatures.csv has no 'signed_on' column" in proc.stderr
    assert "pages.csv has no 'sworn_on' column" in proc.stderr
    codes = [d["code"] for d in json.loads((out / "summary.json").read_text())["deficiencies"]]
    assert "line_without_town" not in codes


def test_a_blank_value_outside_the_territory_is_no_error(tmp_path: Path) -> None:
    # 2.-1-2 (30,000) lies wholly outside: its blank assessment_total is never
    # used, and the figures are those of the hand-worked petition
    root = tmp_path / "p"
    config = make_petition(root)
    roll = root / "roll-b.csv"
    roll.write_text(roll.read_text().replace(",10000,30000,60000", ",10000,,60000"))
    out = run_ok(config, tmp_path / "results")
    owner = json.loads((out / "summary.json").read_text())["owner_test"]
    assert owner["total_value"] == pytest.approx(190_000)


def test_a_page_without_a_witness_counts_none_of_its_lines(tmp_path: Path) -> None:
    # § 2-202.1.e(4): an authenticating affidavit of a witness at the bottom of
    # each page. Page 1 names no witness: both lines are page_defect, credit 0;
    # the owner test falls to 0 of 190,000.
    root = tmp_path / "p"
    config = make_petition(root)
    pages = root / "pages.csv"
    pages.write_text(pages.read_text().replace("1,owners,Ann Witness,5 Main St,", "1,owners,,,"))
    out = run_ok(config, tmp_path / "results")
    lines = pd.read_csv(out / "signatures.csv")
    assert set(lines["status"]) == {"page_defect"}
    assert set(lines["note"]) == {"page 1 has no witness affidavit (no witness named)"}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["owner_test"]["signer_value"] == 0
    found = [d for d in summary["deficiencies"] if d["code"] == "page_without_affidavit"]
    assert [(d["where"], d["paragraph"]) for d in found] == [("pages 1", "2-202.1.e(4)")]


def test_an_affidavit_sworn_after_filing_or_undated(tmp_path: Path) -> None:
    # sworn 2023-06-05, after filed_on 2023-06-01: the affidavit was not on the
    # petition filed, its lines earn nothing; an undated one is incomplete (a
    # deficiency) but its lines still count: 125,000 of 190,000.
    root = tmp_path / "p"
    config = make_petition(root)
    pages = root / "pages.csv"
    text = pages.read_text()
    pages.write_text(text.replace(",2023-05-03", ",2023-06-05"))
    out = tmp_path / "late"
    proc = petition_run(str(config), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert set(pd.read_csv(out / "signatures.csv")["status"]) == {"page_defect"}
    codes = [d["code"] for d in json.loads((out / "summary.json").read_text())["deficiencies"]]
    assert "affidavit_sworn_after_filing" in codes

    pages.write_text(text.replace(",2023-05-03", ","))
    out = run_ok(config, tmp_path / "undated")
    assert set(pd.read_csv(out / "signatures.csv")["status"]) == {"counted"}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["owner_test"]["signer_value"] == pytest.approx(125_000)
    found = [d for d in summary["deficiencies"] if d["code"] == "affidavit_incomplete"]
    assert [d["where"] for d in found] == ["page 1: no date"]


def _peter_on_a_resident_page(tmp_path: Path, bases: str) -> pd.DataFrame:
    """The hand-worked petition alleging ``bases``, Peter Jones on a resident page 2.

    No voter file. Returns the signature schedule indexed by (page, line); the
    results are in ``tmp_path / "results"``.
    """
    root = tmp_path / "p"
    config = make_petition(root)
    config.write_text(config.read_text().replace('bases = ["owners"]', f"bases = {bases}"))
    pages = root / "pages.csv"
    pages.write_text(pages.read_text() + "2,residents,Ann Witness,5 Main St,1,2023-05-03\n")
    sig = root / "signatures.csv"
    sig.write_text(sig.read_text() + "2,1,Peter Jones,2 Main St,Harlow,2023-05-01,,\n")
    out = run_ok(config, tmp_path / "results")
    return pd.read_csv(out / "signatures.csv").set_index(["page", "line"])


def test_resident_lines_without_a_voter_file_await_review(tmp_path: Path) -> None:
    # no voter file: the registration of a resident-page signer cannot be
    # checked; that is no defect of the page (needs_review, not page_defect)
    lines = _peter_on_a_resident_page(tmp_path, '["owners", "residents"]')
    assert lines.loc[(2, 1), "status"] == "needs_review"
    assert "no voter file" in lines.loc[(2, 1), "note"]
    # and review.csv lists it, with no candidate, the note as its reason (audit
    # V6): every line awaiting review is there
    review = pd.read_csv(tmp_path / "results" / "review.csv", dtype=str).fillna("")
    row = review.loc[review["page"] == "2"]
    assert row[["line", "name", "candidate"]].values.tolist() == [["1", "Peter Jones", ""]]
    assert "no voter file" in row["reason"].iloc[0]


def test_a_resident_page_of_an_owners_petition_counts_toward_nothing(tmp_path: Path) -> None:
    # the petition alleges the owners basis only; a resident page's line counts
    # toward nothing, voter file or not (audit C3): page_defect with the reason,
    # not a line awaiting review for a test that does not apply
    lines = _peter_on_a_resident_page(tmp_path, '["owners"]')
    assert lines.loc[(2, 1), "status"] == "page_defect"
    assert "does not allege the residents basis" in lines.loc[(2, 1), "note"]
    # nor is it sent to review (audit V5): there is nothing to decide on it
    review = pd.read_csv(tmp_path / "results" / "review.csv")
    assert not (review["page"] == 2).any()


def test_an_owner_written_etal_awaits_the_assessors_count(tmp_path: Path) -> None:
    # The roll writes "Smith Etal" for 1.-1-1 (100,000): more owners than the one
    # name read. Crediting John Smith 100,000 / 1 would overstate his share, so
    # his line awaits review (credit 0). Once an ownership override gives the
    # count (2), he is credited 100,000 / 2 = 50,000.
    root = tmp_path / "p"
    config = make_petition(root)
    roll = root / "roll-a.csv"
    roll.write_text(roll.read_text().replace(",John,,Smith,", ",John,,Smith Etal,"))
    out = tmp_path / "etal"
    proc = petition_run(str(config), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    lines = pd.read_csv(out / "signatures.csv").set_index("line")
    assert lines.loc[1, "status"] == "needs_review"
    assert "ETAL for 104489:1.-1-1" in lines.loc[1, "note"]
    assert lines.loc[1, "credit_assessed"] == 0
    # the summary says one owner line awaits review and that the figures leave it out
    summary = json.loads((out / "summary.json").read_text())
    assert summary["review"]["owner_lines_pending"] == 1
    assert summary["review"]["lines_pending"] == 1
    assert any("1 signature line(s) await review" in w for w in summary["warnings"])
    assert list(summary)[-1] == "sufficient"
    # the schedule shows that more owners exist (audit C3): 1 named, at least
    parcels = pd.read_csv(out / "parcels.csv").set_index("print_key_code")
    assert parcels.loc["1.-1-1", "owners"] == "JOHN SMITH ET AL"
    assert parcels.loc["1.-1-1", "owner_count"] == 1

    (root / "ownership.csv").write_text(
        "swis_code,print_key_code,owner_count,owners,note\n"
        "104489,1.-1-1,2,,deed: John Smith and Jane Smith\n"
    )
    config.write_text(config.read_text() + '\n[overrides]\nownership = "ownership.csv"\n')
    out = run_ok(config, tmp_path / "counted")
    lines = pd.read_csv(out / "signatures.csv").set_index("line")
    assert lines.loc[1, "status"] == "counted"
    assert lines.loc[1, "credit_assessed"] == pytest.approx(50_000)


def test_a_decision_on_a_line_that_cannot_count_is_told(tmp_path: Path) -> None:
    # Mary Jones's line is dated after the affidavit (page_defect): accepting
    # her parcel changes nothing, and the reviewer is told so
    root = tmp_path / "p"
    config = make_petition(root)
    _mary_signs_after_the_affidavit(root)
    (root / "matches.csv").write_text(
        "page,line,decision,swis_code,print_key_code,SBOEID,note\n1,2,accept,104489,1.-1-2,,\n"
    )
    config.write_text(config.read_text() + '\n[overrides]\nmatches = "matches.csv"\n')
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    told = [w for w in summary["warnings"] if w.startswith("match decision for line 1:2")]
    assert told and "after the witness's affidavit" in told[0]
    assert pd.read_csv(out / "signatures.csv")["status"].iloc[1] == "page_defect"


def test_a_test_that_does_not_apply_keeps_the_contracts_keys(handworked) -> None:
    # the residents basis is not alleged (no voter file): the resident test
    # has every key of the contract's example, null, and passes null; every
    # deficiency says where it is
    summary, _, _ = handworked
    rt = summary["resident_test"]
    assert rt == {
        "applies": False,
        "qualified_voters": None,
        "qualifying_signers": None,
        "percent": None,
        "passes": None,
    }
    assert all(d["where"] for d in summary["deficiencies"])


def test_residents_alleged_without_a_voter_file_is_a_deficiency(tmp_path: Path) -> None:
    # no voter file: no qualified voter can be counted, the test fails with its
    # deficiency (not only a warning)
    root = tmp_path / "p"
    config = make_petition(root)
    config.write_text(
        config.read_text().replace('bases = ["owners"]', 'bases = ["owners", "residents"]')
    )
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["resident_test"]["passes"] is False
    assert "resident_percent_not_met" in [d["code"] for d in summary["deficiencies"]]
    assert summary["sufficient"] is False


def test_a_coterminous_claim_reports_the_symmetric_difference(tmp_path: Path) -> None:
    """District x in [0, 1500], y in [0, 520] against the territory's y in [0, 500].

    Symmetric difference: a strip 1,500 x 20 = 30,000 sq ft, of the district's
    1,500 x 520 = 780,000: 0.03846...; in square miles 30,000 x 0.3048006^2 /
    1609.347^2 = 0.0010761 (US survey feet; the ellipsoid differs from the plane
    by the zone's scale, < 1e-3 here). More than the tolerance: not supported.
    """
    root = tmp_path / "p"
    config = make_petition(root)
    gpd.GeoDataFrame(geometry=[_b(0, 0, 1500, 520)], crs=CRS).to_file(
        root / "district.geojson", driver="GeoJSON"
    )
    config.write_text(
        config.read_text().replace(
            'boundary = "territory.geojson"\n',
            'boundary = "territory.geojson"\ncoterminous_with = "fire district"\n'
            'district = "district.geojson"\n',
            1,
        )
    )
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    exception = summary["area"]["exception"]
    assert exception["symmetric_difference_share"] == pytest.approx(30_000 / 780_000)
    assert exception["symmetric_difference_sq_mi"] == pytest.approx(0.0010761, rel=1e-3)
    assert exception["supported"] is False
    assert "coterminous_claim_not_supported" in [d["code"] for d in summary["deficiencies"]]


@pytest.mark.parametrize(
    ("x0", "y1", "includes"),
    [
        # a village over x in [1200, 1800]: 300 x 500 = 150,000 sq ft of the
        # territory's 750,000 (20 %): the territory includes part of it
        (1200.0, 500.0, True),
        # a village from x = 1499.5: a strip 0.5 x 500 = 250 sq ft, mean width
        # 2 x 250 / 1001 = 0.5 ft (under 10 ft): digitising noise along a
        # shared boundary
        (1499.5, 500.0, False),
        # a corner 60 x 60 = 3,600 sq ft: only 0.48 % of the territory, but
        # 2 x 3,600 / 240 = 30 ft wide: a real part of the village
        (1440.0, 60.0, True),
    ],
)
def test_a_village_polygon_overlapping_the_territory(
    tmp_path: Path, x0: float, y1: float, includes: bool
) -> None:
    root = tmp_path / "p"
    config = make_petition(root)
    gpd.GeoDataFrame(geometry=[_b(x0, 0, 1800, y1)], crs=CRS).to_file(
        root / "villages.geojson", driver="GeoJSON"
    )
    config.write_text(
        config.read_text().replace(
            'boundary = "territory.geojson"\n',
            'boundary = "territory.geojson"\nvillages = "villages.geojson"\n',
            1,
        )
    )
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["territory"]["includes_existing_village"] is includes
    codes = [d["code"] for d in summary["deficiencies"]]
    assert ("includes_existing_village" in codes) is includes
    if not includes:
        assert any("digitising noise" in w for w in summary["warnings"])


def _village_record(root: Path, print_key: str) -> None:
    """Recode Brinton's record ``print_key`` (roll and polygon) as the village 104601's."""
    roll = root / "roll-b.csv"
    roll.write_text(
        roll.read_text()
        .replace(f"104689,1,449,{print_key},", f"104601,1,449,{print_key},")
        .replace(f"104689,1,210,{print_key},", f"104601,1,210,{print_key},")
    )
    layer = gpd.read_file(root / "parcels.gpkg")
    layer.loc[layer["PRINT_KEY"] == print_key, "SWIS"] = "104601"
    layer.to_file(root / "parcels.gpkg", driver="GPKG")


@pytest.mark.parametrize(
    ("case", "includes"),
    [
        # 2.-1-1 (x 1000..2000, y 0..500) is half inside the territory (x 0..1500)
        # by its polygon: the assessor's override of 0 moves its value out, not
        # its land (§ 2-200 asks about land): the territory includes part of
        # the village
        ("inside, apportioned 0", True),
        # 2.-1-2 (y 500..1000) touches the territory along an edge only: an
        # override of 0.5 brings value, not land; no part of the village inside
        ("outside, apportioned 0.5", False),
        # a village record without polygon is known only by the override: a
        # value of 5,000 apportioned (its total left blank: fraction unknown)
        ("no polygon, value 5000", True),
    ],
)
def test_the_existing_village_check_reads_land_not_the_apportioned_value(
    tmp_path: Path, case: str, includes: bool
) -> None:
    from pipeline.scenario import Scenario

    root = tmp_path / "p"
    config = make_petition(root)
    if case == "inside, apportioned 0":
        _village_record(root, "2.-1-1")
        override = "104601,2.-1-1,0,,no value inside"
    elif case == "outside, apportioned 0.5":
        _village_record(root, "2.-1-2")
        override = "104601,2.-1-2,0.5,,stale"
    else:
        roll = root / "roll-b.csv"
        roll.write_text(
            roll.read_text()
            + "2022,104600,104601,6,872,2.-9-9,,,,,,Gas Co,,,1,Gas,Way,Albany,NY,12207,,,\n"
        )
        override = "104601,2.-9-9,,5000,mains"
    (root / "apportionment.csv").write_text(
        "swis_code,print_key_code,fraction_in_territory,value_in_territory,note\n" + override + "\n"
    )
    config.write_text(config.read_text() + '\n[overrides]\napportionment = "apportionment.csv"\n')
    summary = json.loads((run_ok(config, tmp_path / "results") / "summary.json").read_text())
    assert summary["territory"]["includes_existing_village"] is includes
    village = [d for d in summary["deficiencies"] if d["code"] == "includes_existing_village"]
    assert [d["message"] for d in village] == (
        [
            "the territory includes part of an existing village: "
            "1 roll record(s) with village SWIS code(s) 104601"
        ]
        if includes
        else []
    )
    # the analyst's Scenario decides alike
    scenario = Scenario.from_config(config).results()
    assert scenario["territory"]["includes_existing_village"] is includes
    assert scenario["deficiencies"] == summary["deficiencies"]


def test_a_village_overlap_with_spikes_along_a_shared_line_is_real() -> None:
    # a 90 x 100 ft block (9,000 sq ft) with a hair-thin spike along the shared
    # line, as GEOS returns an overlap where the territory follows the village's
    # line: from (1500, 200) down to (1500, -4000) and back up to (1500.002, 200),
    # 0.5 x 0.002 x 4,200 = 4.2 sq ft. Mean width 2A/P = 2 x 9,004.2 /
    # (90 + 100 + 90 + 100 + 4,200 + 4,200) = 2.05 ft, under 10 ft; but the block
    # is 90 ft wide: eroded by 5 ft a core of 80 x 90 is left, so it is a real part
    # of the village, kept whole. A 6 x 600 ft strip leaves no core: noise
    from shapely.geometry import Polygon

    from pipeline.geometry.territory import real_overlap

    spiked = Polygon(
        [(1500, 300), (1500, 200), (1500, -4000), (1500.002, 200), (1590, 200), (1590, 300)]
    )
    assert spiked.is_valid
    assert 2 * spiked.area / spiked.length < 10
    assert real_overlap(spiked, CRS).area == pytest.approx(9_004.2, abs=1e-6)
    assert real_overlap(_b(1500, 0, 1506, 600), CRS).is_empty
    # exactly 10 ft wide is not "narrower than 10 ft": 10 x 600 = 6,000 sq ft kept
    assert real_overlap(_b(1500, 0, 1510, 600), CRS).area == pytest.approx(6_000)
    # 30 x 30 = 900 sq ft: wide, but under 1,000 sq ft
    assert real_overlap(_b(1500, 0, 1530, 30), CRS).is_empty


@pytest.mark.real
def test_real_athens_town_outside_the_village_with_a_block_pushed_in(real_data: Path) -> None:
    # the Town of Athens less the Village of Athens (EPSG:26918, metres), drawn from
    # the real layers so that the two share the village's line, plus a block
    # pushed into the village at its west edge. Overlaps of the territory with the
    # village: none for the town less the village (the difference is exact); a
    # block 100 x 100 ft reaching 1 m west of the line keeps 7,592 sq ft inside
    # the village (the line is not straight there), which GEOS returns with spikes
    # along the shared line (mean width 3.4 ft); it is a real overlap. A strip
    # 8 ft wide and 600 ft long is noise (narrower than 10 ft everywhere)
    from shapely.geometry import box as rect

    from pipeline.geometry.territory import real_overlap

    town = gpd.read_file(real_data / "athens/athens-town.shp").geometry.iloc[0]
    village = gpd.read_file(real_data / "athens/athens-village.shp").geometry.iloc[0]
    rest = town.difference(village)
    cy = village.centroid.y
    across = rect(village.bounds[0] - 10, cy - 0.001, village.bounds[2] + 10, cy + 0.001)
    xw = village.intersection(across).bounds[0]  # the village's west edge at cy
    ft = 0.3048006096  # US survey foot in metres
    assert rest.intersection(village).area == 0.0
    block = rest.union(rect(xw - 1, cy, xw + 100 * ft, cy + 100 * ft)).intersection(village)
    assert 2 * block.area / block.length / ft < 10  # what fooled the mean width
    assert real_overlap(block, "EPSG:26918").area / ft**2 == pytest.approx(7_592, abs=1)
    strip = rest.union(rect(xw - 1, cy, xw + 600 * ft, cy + 8 * ft)).intersection(village)
    assert strip.area / ft**2 > 1_000
    assert real_overlap(strip, "EPSG:26918").is_empty


def _redraw(root: Path, name: str, geom) -> None:  # type: ignore[no-untyped-def]
    gpd.GeoDataFrame(geometry=[geom], crs=CRS).to_file(root / name, driver="GeoJSON")


def _with_territory(tmp_path: Path, geom) -> tuple[Path, Path]:  # type: ignore[no-untyped-def]
    """The hand-worked petition in ``tmp_path / "p"`` with another territory: (root, config)."""
    root = tmp_path / "p"
    config = make_petition(root)
    _redraw(root, "territory.geojson", geom)
    return root, config


@pytest.mark.parametrize(
    ("name", "geom", "words", "named"),
    [
        # town A drawn to x = 1100: A and B both claim 100 x 500 = 50,000 sq ft
        # of the territory's 750,000 (6.7 %, over the 0.5 % tolerance); the
        # error is in a town file: the first of the two that overlap is named
        (
            "town-a.geojson",
            _b(0, 0, 1100, 1000),
            "overlap inside the territory over 6.67%",
            "town-a.geojson",
        ),
        # town B drawn from x = 1100: 100 x 500 = 50,000 sq ft in no town (6.7 %)
        ("town-b.geojson", _b(1100, 0, 2000, 1000), "6.67% of the territory", "territory.geojson"),
    ],
)
def test_town_polygons_that_overlap_or_leave_a_gap_are_bad_input(
    tmp_path: Path, name: str, geom, words: str, named: str
) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "p"
    config = make_petition(root)
    _redraw(root, name, geom)
    proc = petition_run(str(config), "--out", str(tmp_path / "results"))
    assert proc.returncode == 2, proc.stderr
    assert f"{named}:" in proc.stderr
    assert words in proc.stderr
    assert not (tmp_path / "results").exists()


def test_equal_town_parts_are_a_tie_to_review(tmp_path: Path) -> None:
    # territory x 500..1500: 500 x 500 in A and 500 x 500 in B. The statute
    # files the original with "the greatest part": a tie it does not settle
    _, config = _with_territory(tmp_path, _b(500, 0, 1500, 500))
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["filing"]["original_with"] == "104400"  # the lower SWIS code
    assert any("counsel should review" in w for w in summary["warnings"])
    # the town line running east-west instead, Brinton to the north: on the
    # ellipsoid the northern half is the larger by some 6e-13 sq mi (audit E3),
    # still a tie: the original with the lower SWIS code, not with Brinton
    root, config = _with_territory(tmp_path / "ns", _b(0, 0, 1000, 1000))
    _redraw(root, "town-a.geojson", _b(0, 0, 2000, 500))
    _redraw(root, "town-b.geojson", _b(0, 500, 2000, 1000))
    summary = json.loads((run_ok(config, tmp_path / "ns-results") / "summary.json").read_text())
    assert summary["filing"]["original_with"] == "104400"
    assert any("104400" in w and "counsel should review" in w for w in summary["warnings"])


def test_a_territory_that_only_touches_parcels_overlaps_none(tmp_path: Path) -> None:
    # x 2000..2500 meets B1 and B2 along their east edge only: no shared area
    root, config = _with_territory(tmp_path, _b(2000, 0, 2500, 500))
    _redraw(root, "town-b.geojson", _b(1000, 0, 2500, 1000))
    proc = petition_run(str(config), "--out", str(tmp_path / "results"))
    assert proc.returncode == 2, proc.stderr
    assert "overlaps no parcel" in proc.stderr


def test_a_territory_holding_only_a_sliver_still_runs(tmp_path: Path) -> None:
    # x 1998..2000 in town B: 2 x 500 = 1,000 sq ft of B1's 500,000 (0.2 %,
    # under the 0.5 % tolerance) snaps to 0. Nothing is in the territory: the
    # run finishes (map included) and lists the sliver.
    _, config = _with_territory(tmp_path, _b(1998, 0, 2000, 500))
    out = run_ok(config, tmp_path / "results")
    rows = pd.read_csv(out / "parcels.csv").set_index("print_key_code")
    assert rows.loc["2.-1-1", "fraction_source"] == "sliver"
    assert rows.loc["2.-1-1", "fraction_in_territory"] == 0
    assert (out / "map.pdf").exists()


def _rekey_parcels(root: Path) -> None:
    """The parcel layer's print keys made to join no roll record ('9' prefixed)."""
    layer = gpd.read_file(root / "parcels.gpkg")
    layer["PRINT_KEY"] = "9" + layer["PRINT_KEY"].astype(str)
    layer.to_file(root / "parcels.gpkg", driver="GPKG")


def test_print_keys_that_join_no_roll_record(tmp_path: Path) -> None:
    # No record of either roll joins a polygon of its town: every value would be
    # unmapped and the territory's total $0. With town polygons or without, that
    # is bad input naming the roll (before, with town polygons the run ended with
    # every record listed as unapportioned and a $0 certification)
    root = tmp_path / "p"
    config = make_petition(root)
    _rekey_parcels(root)
    proc = petition_run(str(config), "--out", str(tmp_path / "results"))
    assert proc.returncode == 2, proc.stderr
    assert "roll-a.csv, row 1, column 'print_key_code': no record of the roll of town 104400" in (
        proc.stderr
    )
    assert "the SWIS codes agree but no print key does (roll 1.-1-1, parcels 91.-1-1)" in (
        proc.stderr
    )

    config.write_text(
        "\n".join(
            line
            for line in config.read_text().splitlines()
            if not line.startswith('boundary = "town')
        )
    )
    proc = petition_run(str(config), "--out", str(tmp_path / "again"))
    assert proc.returncode == 2, proc.stderr
    assert "no record of the roll of town 104400 (Harlow) joins a parcel polygon" in proc.stderr


def test_the_description_names_only_the_towns_the_territory_reaches(tmp_path: Path) -> None:
    # x 0..900 lies wholly in Harlow; Brinton is listed but not reached: the
    # description (§ 2-202.1.c(1)) places the territory in Harlow alone
    _, config = _with_territory(tmp_path, _b(0, 0, 900, 500))
    out = run_ok(config, tmp_path / "results")
    text = (out / "exhibit-description.txt").read_text()
    assert "situate in the Town of Harlow" in text
    assert "Brinton" not in text


def test_an_override_of_a_parcel_outside_the_line_is_warned_about(tmp_path: Path) -> None:
    # B2 (2.-1-2) lies wholly outside the territory, yet the assessor's
    # override says 0.3 of it is in: the override wins (rules § 2: 0.3 x
    # 30,000 = 9,000 more in part B, 40,000 + 18,000 full), with a warning
    # that it may belong to another boundary. The scenario says the same.
    from pipeline.scenario import Scenario

    root = tmp_path / "p"
    config = make_petition(root)
    (root / "apportionment.csv").write_text(
        "swis_code,print_key_code,fraction_in_territory,value_in_territory,note\n"
        "104689,2.-1-2,0.3,,old line\n"
    )
    config.write_text(config.read_text() + '\n[overrides]\napportionment = "apportionment.csv"\n')
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    part_b = summary["owner_test"]["parts"][1]
    assert part_b["total_full"] == pytest.approx(40_000 + 18_000)  # 9,000 / 0.5
    stale = [w for w in summary["warnings"] if "override of 1 parcel(s)" in w]
    assert stale and "104689:2.-1-2" in stale[0]
    sc = Scenario.from_config(config)
    assert sc.results()["warnings"] == summary["warnings"]


def _without_town_polygons(root: Path, override: str) -> Path:
    """The hand-worked petition without town polygons, with one apportionment override.

    ``override``: the CSV row (swis_code, print_key_code, fraction, value, note).
    """
    config = make_petition(root)
    text = config.read_text()
    for town in ("a", "b"):
        text = text.replace(f'boundary = "town-{town}.geojson"\n', "")
    (root / "apportionment.csv").write_text(
        "swis_code,print_key_code,fraction_in_territory,value_in_territory,note\n" + override + "\n"
    )
    config.write_text(text + '\n[overrides]\napportionment = "apportionment.csv"\n')
    return config


def test_a_town_reached_only_through_an_override_is_filed_with(tmp_path: Path) -> None:
    # no town polygons; town B's polygons are left out of the parcel layer (its
    # records are then unmapped), and the assessor puts 10,000 of B2's 30,000 in
    # the territory by value. Town B holds no area on the maps, but value: it is a
    # part of the territory (owner test part B: 10,000 / 0.5 = 20,000 full, no
    # signer, 0 %), so the filing plan gives Brinton a copy and a deposit too:
    # 2 x 6,000 = 12,000, and territory.towns lists it at 0 sq mi
    root = tmp_path / "p"
    config = _without_town_polygons(root, "104689,2.-1-2,,10000,utility lines")
    layer = gpd.read_file(root / "parcels.gpkg")
    layer.loc[layer["SWIS"] == "104489"].to_file(root / "parcels.gpkg", driver="GPKG")
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    parts = {p["swis"]: p for p in summary["owner_test"]["parts"]}
    assert parts["104600"]["total_full"] == 20_000.0
    assert summary["filing"]["original_with"] == "104400"
    assert summary["filing"]["copies_with"] == ["104600"]
    assert summary["filing"]["deposit_total"] == 12_000
    towns = {t["swis"]: t["square_miles"] for t in summary["territory"]["towns"]}
    assert towns["104600"] == 0.0 and towns["104400"] > 0
    assert any("town 104600 has no area of the territory" in w for w in summary["warnings"])
    # only one town holds land on the maps: no choice of the original to doubt
    assert not any("is chosen on these approximate areas" in w for w in summary["warnings"])


def test_the_original_chosen_on_approximate_areas_is_told(tmp_path: Path) -> None:
    # no town polygons, both towns' parcels in the territory: the town of the
    # original (§ 2-202.1.f(1)) is chosen on areas from the roll's towns
    root = tmp_path / "p"
    config = _without_town_polygons(root, "104689,2.-1-2,0.5,,assessor")
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    assert any(
        w.startswith("no town polygons") and "is chosen on these approximate areas" in w
        for w in summary["warnings"]
    ), summary["warnings"]


def test_a_parcel_in_another_towns_part_is_warned_about(tmp_path: Path) -> None:
    # town A's polygon drawn to x = 900 and B's from x = 900: Harlow's parcel A2
    # (x 500..1000, 250,000 sq ft) has 100 x 500 = 50,000 sq ft, 20 % of it, in
    # the part of town B. It still counts in Harlow's part with Harlow's rate (its
    # value is on Harlow's roll), with a warning naming it and the share
    root = tmp_path / "p"
    config = make_petition(root)
    _redraw(root, "town-a.geojson", _b(0, 0, 900, 1000))
    _redraw(root, "town-b.geojson", _b(900, 0, 2000, 1000))
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    parts = {p["swis"]: p for p in summary["owner_test"]["parts"]}
    assert parts["104400"]["total_assessed"] == 150_000.0  # A1 100,000 + A2 50,000
    warned = [w for w in summary["warnings"] if "other towns' rolls" in w]
    assert len(warned) == 1
    assert "town 104600" in warned[0] and "104489:1.-1-2 of town 104400 (20.0%)" in warned[0]


def test_a_tiny_town_part_without_parcels_is_warned_about(tmp_path: Path) -> None:
    """The territory x in [0, 1000.5]: a strip 0.5 ft wide in town B.

    Part B: 0.5 x 500 = 250 sq ft of 500,250 (0.05 %, under the sliver
    tolerance 0.5 %); B1's overlap 250 / 500,000 = 0.05 % of B1 snaps to 0, so
    the part holds no parcel. It stays a part (the law files by area), with a
    warning that it looks like digitising noise.
    """
    root = tmp_path / "p"
    config = make_petition(root)
    gpd.GeoDataFrame(geometry=[_b(0, 0, 1000.5, 500)], crs=CRS).to_file(
        root / "territory.geojson", driver="GeoJSON"
    )
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    parts = summary["owner_test"]["parts"]
    assert [p["swis"] for p in parts] == ["104400", "104600"]
    # the part without a record still shows its town's 2022 rate
    assert parts[1]["equalization_rate"] == 50.0
    assert any(
        "town 104600 is 0.0500% of it and holds no parcel" in w for w in summary["warnings"]
    ), summary["warnings"]


def test_territory_in_a_town_without_a_towns_table_is_bad_input(tmp_path: Path) -> None:
    """Only town A is listed, but the territory takes half of B1 (town 104600).

    B1's 20,000 of apportioned value would silently be missing from the owner test:
    exit 2, naming the parcel layer, the feature (B1 is feature 3), SWIS and the town.
    """
    root = tmp_path / "p"
    config = make_petition(root)
    text = config.read_text()
    start = text.index('[[towns]]\nswis = "104600"')
    text = text[:start] + text[text.index("[equalization]") :]
    config.write_text(text)
    out = tmp_path / "results"
    proc = petition_run(str(config), "--out", str(out))
    assert proc.returncode == 2, proc.stderr
    for part in ("parcels.gpkg", "feature 3", "SWIS", "town 104600", "50.0%"):
        assert part in proc.stderr, proc.stderr
    assert not out.exists()


def test_owner_pages_count_toward_nothing_where_the_owner_test_does_not_apply(
    tmp_path: Path,
) -> None:
    # filed 2024-02-01: the 2024 law has no owner route, so the owner test does
    # not apply. John Smith and Mary Jones signed owner pages: their lines count
    # toward nothing (page_defect, credit 0, a note why), and the parcel
    # schedule credits no signer (0 everywhere)
    out = run_filed_on(tmp_path, "2024-02-01")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["regime"] == "2024" and summary["owner_test"]["applies"] is False
    sigs = pd.read_csv(out / "signatures.csv")
    assert sigs["status"].tolist() == ["page_defect", "page_defect"]
    assert sigs["credit_assessed"].tolist() == [0.0, 0.0]
    assert all("no owner route" in n for n in sigs["note"])
    parcels = pd.read_csv(out / "parcels.csv")
    assert (parcels["signer_credit_assessed"] == 0).all()
    # no credited value is asked of lines that count toward nothing (§ 2-202.1.e(3))
    root = out.parent / "p"
    signatures = root / "signatures.csv"
    lines = signatures.read_text().splitlines()
    signatures.write_text(
        "\n".join([lines[0], *(ln.rsplit(",", 1)[0] + "," for ln in lines[1:])]) + "\n"
    )
    again = run_ok(root / "petition.toml", tmp_path / "again")
    codes = [d["code"] for d in json.loads((again / "summary.json").read_text())["deficiencies"]]
    assert "owner_basis_not_allowed" in codes and "owner_page_without_value" not in codes
    # the petition goes to the Village Incorporation Commission: the plan of
    # § 2-202.1.f (supervisors, deposits) is kept, for reference, and told so
    assert summary["filing"]["deposit_total"] == 12_000
    assert any("Village Incorporation Commission" in w for w in summary["warnings"])


def test_a_voters_town_is_the_boards_towncity_before_the_postal_city(tmp_path: Path) -> None:
    # "1 Main St" is Harlow's A1 (inside) and, here, Brinton's B2 too (wholly
    # outside). The voter lives in Harlow (TOWNCITY) with a Brinton postal city
    # (RCITY): placed on A1, inside: 1 qualified voter (not 0, as by RCITY)
    root = tmp_path / "p"
    config = make_petition(root)
    roll_b = root / "roll-b.csv"
    roll_b.write_text(roll_b.read_text().replace("2.-1-2,4,Main,St", "2.-1-2,1,Main,St"))
    (root / "voters.csv").write_text(
        "LASTNAME,FIRSTNAME,RADDNUMBER,RSTREETNAME,RCITY,TOWNCITY,STATUS,SBOEID\n"
        "ROE,ANN,1,MAIN ST,BRINTON,HARLOW,A,NY000000000000000001\n"
    )
    text = config.read_text().replace('bases = ["owners"]', 'bases = ["owners", "residents"]')
    config.write_text(text + '\n[voters]\nfile = "voters.csv"\n')
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["resident_test"]["qualified_voters"] == 1
    assert summary["resident_test"]["voters_unplaced"] == 0


def _resident_page(root: Path, lines: list[str], voters: str) -> Path:
    """The hand-worked petition with a resident page 2 of ``lines`` and a voter file."""
    config = make_petition(root)
    pages = (root / "pages.csv").read_text()
    (root / "pages.csv").write_text(
        pages + f"2,residents,Ann Witness,5 Main St,{len(lines)},2023-05-03\n"
    )
    sigs = (root / "signatures.csv").read_text()
    (root / "signatures.csv").write_text(
        sigs + "".join(f"2,{i},{ln}\n" for i, ln in enumerate(lines, 1))
    )
    (root / "voters.csv").write_text(
        "LASTNAME,FIRSTNAME,RADDNUMBER,RSTREETNAME,RCITY,TOWNCITY,STATUS,SBOEID\n" + voters
    )
    text = config.read_text().replace('bases = ["owners"]', 'bases = ["owners", "residents"]')
    config.write_text(text + '\n[voters]\nfile = "voters.csv"\n')
    return config


def test_a_voter_of_another_town_is_no_resident_or_is_reviewed(tmp_path: Path) -> None:
    # 1 and 2 Main St are Harlow's A1 and A2, both inside; Brinton's roll has no
    # 2 Main St. ANN ROE (TOWNCITY Harlow) at 1 Main St is a qualified voter.
    # GIL GHENT at 77 Far Rd, recorded in Ghent (no town of the petition), is on
    # no roll of the petition either: no resident, not listed. GARY GHENT at 2
    # Main St is recorded in Ghent, yet his address is Harlow's: the two
    # disagree, so he is listed for review (town_differs), not counted. BEA
    # BRINT at 2 Main St is recorded in Brinton, whose roll has no such house:
    # listed for review (not_in_town). Qualified: Ann = 1; signers: Ann = 1;
    # 100 × 1 / 1 = 100 %. (Before, Gary and Bea were qualified and counted.)
    config = _resident_page(
        tmp_path / "p",
        [
            "Ann Roe,1 Main St,Harlow,2023-05-01,,",
            "Gary Ghent,2 Main St,Harlow,2023-05-01,,",
            "Bea Brint,2 Main St,Brinton,2023-05-01,,",
            "Gil Ghent,77 Far Rd,Ghent,2023-05-01,,",
        ],
        "ROE,ANN,1,MAIN ST,HARLOW,HARLOW,A,NY000000000000000001\n"
        "GHENT,GARY,2,MAIN ST,HARLOW,GHENT,A,NY000000000000000002\n"
        "BRINT,BEA,2,MAIN ST,HARLOW,BRINTON,A,NY000000000000000003\n"
        "GHENT,GIL,77,FAR RD,GHENT,GHENT,A,NY000000000000000004\n",
    )
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    test = summary["resident_test"]
    assert (test["qualified_voters"], test["qualifying_signers"]) == (1, 1)
    assert (test["voters_other_towns"], test["voters_unplaced"]) == (1, 2)
    unplaced = pd.read_csv(out / "voters-unplaced.csv", dtype=str)
    assert unplaced[["SBOEID", "reason"]].values.tolist() == [
        ["NY000000000000000002", "town_differs"],
        ["NY000000000000000003", "not_in_town"],
    ]
    sigs = pd.read_csv(out / "signatures.csv", dtype=str).fillna("")
    res = sigs.loc[sigs["page"] == "2"]
    assert res["status"].tolist() == [
        "counted",
        "needs_review",
        "needs_review",
        "outside_territory",
    ]
    assert "but the residence is on a roll of the petition" in res["note"].iloc[1]
    assert (pd.read_csv(out / "review.csv")["page"] == 2).sum() == 2  # Gary, Bea
    # the owners basis alone: the resident page counts toward nothing, its lines
    # are page_defect, and none is sent to review (audit V5)
    config.write_text(config.read_text().replace('["owners", "residents"]', '["owners"]'))
    out = run_ok(config, tmp_path / "owners-only")
    sigs = pd.read_csv(out / "signatures.csv", dtype=str).fillna("")
    res = sigs.loc[sigs["page"] == "2"]
    assert res["status"].tolist() == ["page_defect"] * 3 + ["outside_territory"]
    assert not (pd.read_csv(out / "review.csv")["page"] == 2).any()
    assert "town that is not one of the petition's" in res["note"].iloc[3]
    # a town of the petition spelled otherwise in the voter file would lose its
    # voters this way: the TOWNCITY values of those on the rolls are named
    told = [w for w in summary["warnings"] if "towns not of the petition" in w]
    assert len(told) == 1 and told[0].startswith("1 voter(s) whose residence address")
    assert "(TOWNCITY: GHENT (1))" in told[0]


def test_a_resident_line_of_another_town_of_the_petition_is_reviewed(tmp_path: Path) -> None:
    # "1 Main St" is Harlow's A1 (inside) and, here, Brinton's B2 (outside).
    # ANN ROE is registered at Harlow's. "Ann Roe, 1 Main St, Brinton" names
    # the outside house: review, not counted; the same line with Harlow counts.
    # BO RAY of Harlow's 2 Main St (no such house in Brinton) writes his postal
    # city, Brinton: counted. 2 of 2 qualified = 100 %
    root = tmp_path / "p"
    config = _resident_page(
        root,
        [
            "Ann Roe,1 Main St,Brinton,2023-05-01,,",
            "Ann Roe,1 Main St,Harlow,2023-05-02,,",
            "Bo Ray,2 Main St,Brinton,2023-05-02,,",
        ],
        "ROE,ANN,1,MAIN ST,HARLOW,HARLOW,A,NY000000000000000001\n"
        "RAY,BO,2,MAIN ST,BRINTON,HARLOW,A,NY000000000000000002\n",
    )
    roll_b = root / "roll-b.csv"
    roll_b.write_text(roll_b.read_text().replace("2.-1-2,4,Main,St", "2.-1-2,1,Main,St"))
    out = run_ok(config, tmp_path / "results")
    sigs = pd.read_csv(out / "signatures.csv", dtype=str).fillna("")
    res = sigs.loc[sigs["page"] == "2"]
    assert res["status"].tolist() == ["needs_review", "counted", "counted"]
    assert (
        "the line's town (Brinton) is not the town of the voter's residence (Harlow)"
        in (res["note"].iloc[0])
    )
    review = pd.read_csv(out / "review.csv", dtype=str).fillna("")
    assert review.loc[review["page"] == "2", "candidate"].tolist() == ["NY000000000000000001"]
    test = json.loads((out / "summary.json").read_text())["resident_test"]
    assert (test["qualified_voters"], test["qualifying_signers"]) == (2, 2)


def test_a_polygon_in_the_territory_without_a_roll_record_is_warned_about(
    tmp_path: Path,
) -> None:
    # parcel A2 (x 500..1000, wholly inside) drawn with print key 1.-1-9, which
    # no roll record has: its 50,000 is in no total. The run says so by name (the
    # roll record 1.-1-2 is then unmapped, a deficiency of its own)
    root = tmp_path / "p"
    config = make_petition(root)
    layer = gpd.read_file(root / "parcels.gpkg")
    layer.loc[layer["PRINT_KEY"] == "1.-1-2", "PRINT_KEY"] = "1.-1-9"
    layer.to_file(root / "parcels.gpkg", driver="GPKG")
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    warned = [w for w in summary["warnings"] if "join no roll record" in w]
    assert len(warned) == 1
    assert warned[0].startswith("1 parcel polygon(s) in the territory")
    assert "104489:1.-1-9" in warned[0]
    # the same warning from a scenario of the same territory
    from pipeline import Scenario

    assert warned[0] in Scenario.from_config(config).results()["warnings"]


def test_swapped_town_boundary_files_are_bad_input(tmp_path: Path) -> None:
    # town A's file drawn where town B is and B's where A is. The town parts would
    # follow the polygons (A's part would hold B's parcels) and the filing plan
    # would follow them too; parcel counts show it: A's polygon (x 1000..2000)
    # holds B1 and B2 only, 2 of 2 on B's roll... under the five-parcel floor, so
    # the petition is given three more parcels of B there
    root = tmp_path / "p"
    config = make_petition(root)
    _redraw(root, "town-a.geojson", _b(1000, 0, 2000, 1000))
    _redraw(root, "town-b.geojson", _b(0, 0, 1000, 1000))
    layer = gpd.read_file(root / "parcels.gpkg")
    extra = gpd.GeoDataFrame(
        {"SWIS": ["104689"] * 3, "PRINT_KEY": ["3.-1-1", "3.-1-2", "3.-1-3"]},
        geometry=[_b(1900, 900, 1910, 910), _b(1920, 900, 1930, 910), _b(1940, 900, 1950, 910)],
        crs=CRS,
    )
    pd.concat([layer, extra], ignore_index=True).to_file(root / "parcels.gpkg", driver="GPKG")
    proc = petition_run(str(config), "--out", str(tmp_path / "results"))
    assert proc.returncode == 2, proc.stderr
    # the polygon in town-a.geojson holds the 5 parcels of B: 5 of 5 (100 %)
    assert "town-a.geojson:" in proc.stderr
    assert "holds 5 parcels, 5 (100%) of them on other towns' rolls" in proc.stderr
    assert not (tmp_path / "results").exists()


def test_a_streets_file_far_from_the_territory_is_warned_about(tmp_path: Path) -> None:
    # the streets drawn 10,000 ft east of the territory (x 0..1500): in a wrong
    # CRS, say. The streets description would name no street: the run says why
    from shapely.geometry import LineString

    from pipeline.config import load_config
    from pipeline.io.load import load_inputs

    root = tmp_path / "p"
    config = make_petition(root)
    far = LineString([(X0 + 11_500, Y0), (X0 + 11_500, Y0 + 500)])
    near = LineString([(X0 + 1_600, Y0), (X0 + 1_600, Y0 + 500)])  # 100 ft east: near
    text = config.read_text().replace("[territory]\n", '[territory]\nstreets = "streets.geojson"\n')
    config.write_text(text)
    for line, warned in ((far, True), (near, False)):
        gpd.GeoDataFrame({"name": ["Main St"]}, geometry=[line], crs=CRS).to_file(
            root / "streets.geojson", driver="GeoJSON"
        )
        notes = load_inputs(load_config(config)).notes
        assert any("no street comes within 1,000 ft" in n for n in notes) is warned


def test_a_merged_polygon_without_a_roll_record_is_named_by_its_key() -> None:
    # a key drawn as two polygons is merged into one row that has no swis or
    # print_key of its own: the warning names it by its key, never "nan:nan"
    from types import SimpleNamespace

    import numpy as np

    from pipeline.evaluate import polygons_without_roll_warning

    prepared = SimpleNamespace(
        polygons_without_roll=np.array([0, 1]),
        keys=pd.Index(["104489|1-1-9", "104489|1-1-8"]),
        parcels=pd.DataFrame({"swis": ["104489", np.nan], "print_key": ["1.-1-9", np.nan]}),
    )
    (warned,) = polygons_without_roll_warning(prepared, np.array([0.5, 1.0]))  # type: ignore[arg-type]
    assert "(104489:1.-1-9, 104489:1-1-8)" in warned


def test_a_single_roll_file_named_for_another_year_is_told(tmp_path: Path) -> None:
    # roll-2021.csv given as Harlow's one roll file holds the 2022 records (the
    # roll the filing date asks for): its records say which roll it is, and the
    # run says the name disagrees
    root = tmp_path / "p"
    config = make_petition(root)
    (root / "roll-a.csv").rename(root / "roll-2021.csv")
    config.write_text(config.read_text().replace('"roll-a.csv"', '"roll-2021.csv"'))
    summary = json.loads((run_ok(config, tmp_path / "r") / "summary.json").read_text())
    assert summary["rolls"][0]["roll_year"] == 2022
    assert (
        "roll-2021.csv: the file is named for roll year 2021 but its records are of 2022; "
        "the records' year is used"
    ) in summary["warnings"]


def _without_year_column(path: Path) -> None:
    """Drop the roll file's first column, ``roll_year``."""
    lines = path.read_text().splitlines(keepends=True)
    assert lines[0].startswith("roll_year,")
    path.write_text("".join(line.split(",", 1)[1] for line in lines))


def test_a_roll_file_without_a_year_column_is_of_the_year_of_its_name(tmp_path: Path) -> None:
    # Harlow's one roll file holds the 2022 records without a roll_year column and is
    # named roll-2022.csv. Filed 2023-08-01 the last completed roll is 2023's (rate
    # A 80), but this file is the 2022 roll: its values are equalized with the 2022
    # rate (100), with the warning and the deficiency of an older roll, as when the
    # column says 2022 (before: silently taken as the 2023 roll, at the rate of 80)
    root = tmp_path / "p"
    config = make_petition(root)
    _without_year_column(root / "roll-a.csv")
    (root / "roll-a.csv").rename(root / "roll-2022.csv")
    text = config.read_text().replace('"roll-a.csv"', '"roll-2022.csv"')
    config.write_text(text.replace("filed_on = 2023-06-01", "filed_on = 2023-08-01"))
    summary = json.loads((run_ok(config, tmp_path / "r") / "summary.json").read_text())
    assert summary["rolls"][0]["roll_year"] == 2022
    parts = {p["swis"]: p for p in summary["owner_test"]["parts"]}
    assert parts["104400"]["equalization_rate"] == 100.0
    assert any("roll-2022.csv" in w and "is of 2022" in w for w in summary["warnings"])
    assert any(d["code"] == "roll_not_last_completed" for d in summary["deficiencies"])

    # named for 2023 and filed 2023-06-01: a roll not completed at filing, exit 2
    (root / "roll-2022.csv").rename(root / "roll-2023.csv")
    text = config.read_text().replace('"roll-2022.csv"', '"roll-2023.csv"')
    config.write_text(text.replace("filed_on = 2023-08-01", "filed_on = 2023-06-01"))
    proc = petition_run(str(config), "--out", str(tmp_path / "r2"))
    assert proc.returncode == 2, proc.stderr
    assert "the file is named for roll year 2023, a roll not completed as of filed_on" in (
        proc.stderr
    )

    # a name without a year: taken as the last completed roll, and said
    (root / "roll-2023.csv").rename(root / "harlow.csv")
    config.write_text(config.read_text().replace('"roll-2023.csv"', '"harlow.csv"'))
    summary = json.loads((run_ok(config, tmp_path / "r3") / "summary.json").read_text())
    assert summary["rolls"][0]["roll_year"] == 2022
    assert any(
        w.startswith("harlow.csv: the roll year is stated neither by a roll_year column nor by")
        and "taken as the roll of 2022, the last completed as of filed_on 2023-06-01" in w
        for w in summary["warnings"]
    ), summary["warnings"]


def test_a_configured_rate_other_than_the_rates_files_is_told(tmp_path: Path) -> None:
    # Brinton's rate set to 40 in the config while the rates file gives 50 for
    # 2022: the config wins (contract), so part B = 20,000 / 0.4 = 50,000 full,
    # and a warning names both rates (audit A4)
    root = tmp_path / "p"
    config = make_petition(root)
    config.write_text(
        config.read_text().replace(
            'name = "Brinton"\n', 'name = "Brinton"\nequalization_rate = 40.0\n'
        )
    )
    summary = json.loads((run_ok(config, tmp_path / "r") / "summary.json").read_text())
    parts = {p["swis"]: p for p in summary["owner_test"]["parts"]}
    assert parts["104600"]["total_full"] == pytest.approx(50_000.0)
    assert (
        "town 104600 (Brinton): the config's equalization_rate 40 is used; the rates file "
        "gives 50 for the roll year 2022"
    ) in summary["warnings"]


def test_a_roll_keyed_by_the_town_code_joins_no_parcel_and_is_bad_input(tmp_path: Path) -> None:
    # Harlow's roll writes its municipality code 104400 as every record's swis_code;
    # its polygons are 104489: not one record joins, and every value would be
    # unmapped (a territory of $0 certified). Exit 2 naming the roll, row 1, swis_code
    root = tmp_path / "p"
    config = make_petition(root)
    roll = root / "roll-a.csv"
    roll.write_text(roll.read_text().replace(",104400,104489,", ",104400,104400,"))
    proc = petition_run(str(config), "--out", str(tmp_path / "r"))
    assert proc.returncode == 2, proc.stderr
    assert f"{roll}, row 1, column 'swis_code': no record of the roll of town 104400" in (
        proc.stderr
    )
    assert not (tmp_path / "r").exists()


def test_a_roll_file_of_several_years_and_a_mistyped_year(tmp_path: Path) -> None:
    # Harlow's one file holds its 2022 roll and its 2021 roll (the same two records,
    # A1 at 90,000 in 2021): filed 2023-06-01 the 2022 records are used (A1 100,000)
    # and the 2021 ones set aside with a note
    root = tmp_path / "p"
    config = make_petition(root)
    roll = root / "roll-a.csv"
    lines = roll.read_text().splitlines(keepends=True)
    older = [
        ln.replace("2022,", "2021,", 1).replace(",100000,100000", ",90000,90000")
        for ln in lines[1:]
    ]
    roll.write_text("".join(lines + older))
    summary = json.loads((run_ok(config, tmp_path / "r") / "summary.json").read_text())
    parts = {p["swis"]: p for p in summary["owner_test"]["parts"]}
    assert parts["104400"]["total_assessed"] == 150_000.0  # 100,000 + 50,000: the 2022 roll
    assert any("2 records of other roll years set aside" in w for w in summary["warnings"])
    # a roll of four 2022 records (A1, A2 and two more lots) where A2's year is
    # mistyped 2021: 1 record against 4, fewer than half, is no roll of 2021 but
    # a typo whose parcel would leave the roll used: exit 2 naming its row (2)
    more = [lines[2].replace("1.-1-2,", f"1.-1-{k},") for k in (3, 4)]
    typo = lines[2].replace("2022,", "2021,", 1)
    roll.write_text("".join([lines[0], lines[1], typo, *more]))
    proc = petition_run(str(config), "--out", str(tmp_path / "r2"))
    assert proc.returncode == 2, proc.stderr
    assert "row 2, column 'roll_year': roll year 2021 is on 1 record(s) only" in proc.stderr


def test_a_town_whose_polygons_lie_away_may_hold_only_unmapped_records(tmp_path: Path) -> None:
    # audit V10: Brinton's polygons lie far from the territory (moved 100,000 ft
    # east) under keys its roll does not hold; its roll's records have no
    # polygon. No value of the territory is lost by the keys (the territory
    # meets no Brinton polygon), so the run ends (exit 0) on Harlow's part
    # alone, instead of the bad input of a roll joining none
    root = tmp_path / "p"
    config = make_petition(root)
    layer = gpd.read_file(root / "parcels.gpkg")
    brinton = layer["SWIS"] == "104689"
    layer.loc[brinton, "geometry"] = layer.loc[brinton, "geometry"].translate(xoff=100_000)
    layer.loc[brinton, "PRINT_KEY"] = "9" + layer.loc[brinton, "PRINT_KEY"].astype(str)
    layer.to_file(root / "parcels.gpkg", driver="GPKG")
    config.write_text(config.read_text().replace('boundary = "town-b.geojson"\n', ""))
    config.write_text(config.read_text().replace('boundary = "town-a.geojson"\n', ""))
    out = run_ok(config, tmp_path / "r")
    summary = json.loads((out / "summary.json").read_text())
    assert [p["swis"] for p in summary["owner_test"]["parts"]] == ["104400"]


def _towns_sq_mi(summary: dict) -> dict[str, float]:
    return {t["swis"]: t["square_miles"] for t in summary["territory"]["towns"]}


def _harlow_polygon_only(tmp_path: Path, east: float) -> dict:
    """The hand-worked petition run with Harlow's polygon x 0..``east`` and none for Brinton."""
    root = tmp_path / "p"
    config = make_petition(root)
    _redraw(root, "town-a.geojson", _b(0, 0, east, 1000))
    config.write_text(config.read_text().replace('boundary = "town-b.geojson"\n', ""))
    return dict(json.loads((run_ok(config, tmp_path / "results") / "summary.json").read_text()))


def test_a_polygon_given_for_one_town_only_splits_by_it(tmp_path: Path) -> None:
    """Harlow's polygon given, Brinton's not (audit G3).

    The territory x in [-500, 1500] (a lake without parcels at x -500..0, in
    Harlow) and Harlow's polygon x in [-500, 1000]. Harlow's part is its
    polygon's: 1,500 x 500 = 750,000 sq ft; the rest, x 1000..1500, 500 x 500 =
    250,000 sq ft, is Brinton's, the one town listed without a polygon: ratio
    3. (Shared out by the parcels of each roll instead, as before, the lake
    was lost: 500,000 to 250,000, ratio 2.) Brinton's parcel B1 lies in the
    rest (no warning); the parts add up to the territory.
    """
    root = tmp_path / "p"
    config = make_petition(root)
    _redraw(root, "territory.geojson", _b(-500, 0, 1500, 500))
    _redraw(root, "town-a.geojson", _b(-500, 0, 1000, 1000))
    config.write_text(config.read_text().replace('boundary = "town-b.geojson"\n', ""))
    summary = json.loads((run_ok(config, tmp_path / "results") / "summary.json").read_text())
    towns = _towns_sq_mi(summary)
    assert towns["104400"] / towns["104600"] == pytest.approx(3.0, rel=1e-6)
    assert sum(towns.values()) == pytest.approx(summary["territory"]["square_miles"], rel=1e-9)
    assert summary["filing"]["original_with"] == "104400"
    assert not any(w.startswith("no town polygons") for w in summary["warnings"])
    told = [w for w in summary["warnings"] if "town polygons are given for Harlow" in w]
    assert len(told) == 1 and "the part of Brinton (104600)" in told[0], summary["warnings"]
    assert not any("other towns' rolls" in w for w in summary["warnings"])


def test_a_parcel_of_a_town_without_polygon_in_anothers_polygon_is_warned_about(
    tmp_path: Path,
) -> None:
    # Harlow's polygon drawn to x = 1200, Brinton's not given: Brinton's B1 (x
    # 1000..2000, 500,000 sq ft) has 200 x 500 = 100,000 sq ft, 20 % of it, in
    # Harlow's polygon. Harlow's part 1,200 x 500 = 600,000 sq ft, Brinton's
    # the rest 300 x 500 = 150,000: ratio 4
    summary = _harlow_polygon_only(tmp_path, 1200)
    towns = _towns_sq_mi(summary)
    assert towns["104400"] / towns["104600"] == pytest.approx(4.0, rel=1e-6)
    warned = [w for w in summary["warnings"] if "other towns' rolls" in w]
    assert len(warned) == 1 and "104689:2.-1-1 of town 104600 (20.0%)" in warned[0]


def test_without_town_polygons_an_override_moves_value_not_land(tmp_path: Path) -> None:
    """No town polygons; the assessor puts 0.1 of A1 in the territory (audit G3).

    Land by each roll's parcels, geometric: Harlow A1 250,000 + A2 250,000 =
    500,000 sq ft; Brinton B1 0.5 x 500,000 = 250,000: ratio 2. The override
    apportions A1's value (0.1 x 100,000 = 10,000 in the owner test), not its
    land (read as land, Harlow had 25,000 + 250,000 = 275,000: ratio 1.1).
    """
    config = _without_town_polygons(tmp_path / "p", "104489,1.-1-1,0.1,,wetland easement")
    summary = json.loads((run_ok(config, tmp_path / "results") / "summary.json").read_text())
    towns = _towns_sq_mi(summary)
    assert towns["104400"] / towns["104600"] == pytest.approx(2.0, rel=1e-9)
    part_a = next(p for p in summary["owner_test"]["parts"] if p["swis"] == "104400")
    assert part_a["total_assessed"] == 60_000.0  # A1 10,000 + A2 50,000
    assert any("overrides apportion value, not land" in w for w in summary["warnings"])


def _third_town(root: Path, config: Path, *, lot: bool = True) -> None:
    """Town Cole (105000, no polygon) below the petition's lots; Brinton's polygon dropped.

    Its lot C1 x 0..1000, y -500..0 (SWIS 105089, 20,000 assessed, rate 100 in
    2022) when ``lot``; the territory x 0..1500, y -500..500. Harlow keeps its
    polygon x 0..1000, y 0..1000.
    """
    _redraw(root, "territory.geojson", _b(0, -500, 1500, 500))
    if lot:
        layer = gpd.read_file(root / "parcels.gpkg")
        extra = gpd.GeoDataFrame(
            {"SWIS": ["105089"], "PRINT_KEY": ["3.-1-1"]}, geometry=[_b(0, -500, 1000, 0)], crs=CRS
        )
        pd.concat([layer, extra], ignore_index=True).to_file(root / "parcels.gpkg", driver="GPKG")
    (root / "roll-c.csv").write_text(
        ROLL_HEADER
        + "2022,105000,105089,1,210,3.-1-1,1,Lake,Rd,Ann,,Cole,,,1,Lake,Rd,Cole,NY,12106,"
        "5000,20000,20000\n"
    )
    with (root / "rates.csv").open("a") as f:
        f.write("105000,2022,100\n")
    text = config.read_text().replace('boundary = "town-b.geojson"\n', "")
    extra_town = (
        '\n[[towns]]\nswis = "105000"\nname = "Cole"\nroll = "roll-c.csv"\n'
        'parcels = "parcels.gpkg"\n'
    )
    config.write_text(text.replace("\n[equalization]", extra_town + "\n[equalization]"))


def test_the_rest_is_shared_among_several_towns_without_polygons(tmp_path: Path) -> None:
    """Harlow's polygon only; Brinton and Cole without (audit G3).

    Harlow's part x 0..1000, y 0..500: 500,000 sq ft. The rest, 1,000,000 sq
    ft (x 1000..1500, y 0..500 and x 0..1500, y -500..0, with a road at x
    1000..1500 below), is shared by each roll's land in the territory: Brinton
    B1 0.5 x 500,000 = 250,000, Cole C1 500,000, so Brinton 1/3 x 1,000,000 =
    333,333.3 and Cole 666,666.7 sq ft. Harlow : Brinton : Cole = 1.5 : 1 : 2,
    and the original goes to Cole, the greatest part.
    """
    root = tmp_path / "p"
    config = make_petition(root)
    _third_town(root, config)
    summary = json.loads((run_ok(config, tmp_path / "results") / "summary.json").read_text())
    towns = _towns_sq_mi(summary)
    assert towns["104400"] / towns["104600"] == pytest.approx(1.5, rel=1e-6)
    assert towns["105000"] / towns["104600"] == pytest.approx(2.0, rel=1e-9)
    assert sum(towns.values()) == pytest.approx(summary["territory"]["square_miles"], rel=1e-9)
    assert summary["filing"]["original_with"] == "105000"
    assert any("is shared among Brinton (104600), Cole (105000)" in w for w in summary["warnings"])


def test_a_rest_no_town_without_polygon_reaches_is_bad_input(tmp_path: Path) -> None:
    # Cole's lot not on the map (its record is unmapped) and the territory x
    # 0..1000, y -500..500: the rest, x 0..1000, y -500..0 (500,000 of
    # 1,000,000 sq ft, 50 %), holds no parcel of Brinton or Cole, so it can be
    # given to neither: exit 2, naming the territory
    root = tmp_path / "p"
    config = make_petition(root)
    _third_town(root, config, lot=False)
    _redraw(root, "territory.geojson", _b(0, -500, 1000, 500))
    proc = petition_run(str(config), "--out", str(tmp_path / "results"))
    assert proc.returncode == 2, proc.stderr
    assert "territory.geojson" in proc.stderr
    assert "50.00% of the territory" in proc.stderr
    assert "no parcel of the towns without one (Brinton (104600), Cole (105000))" in proc.stderr


def test_a_residents_petition_across_towns_needs_no_rates(tmp_path: Path) -> None:
    # the equalization rates serve the owner test alone (rules § 2): a petition
    # of residents only, in two towns, without a rates file runs (audit E3);
    # its parcel schedule has no full values (no rate), and no owner test
    root = tmp_path / "p"
    config = make_petition(root)
    text = config.read_text().replace('bases = ["owners"]', 'bases = ["residents"]')
    config.write_text(text.replace('[equalization]\nrates = "rates.csv"\n', ""))
    summary = json.loads((run_ok(config, tmp_path / "results") / "summary.json").read_text())
    assert summary["owner_test"]["applies"] is False
    assert [t["swis"] for t in summary["territory"]["towns"]] == ["104400", "104600"]
    # with the owners alleged as well, the missing rates are bad input
    config.write_text(config.read_text().replace('bases = ["residents"]', 'bases = ["owners"]'))
    proc = petition_run(str(config), "--out", str(tmp_path / "owners"))
    assert proc.returncode == 2 and "a territory in several towns needs one" in proc.stderr


def test_an_owner_count_below_the_names_on_the_roll_is_told(tmp_path: Path) -> None:
    # A2 is MARY & PETER JONES on the roll; the assessor's override says 1 owner
    # without naming who (audit E3). The count divides: Mary, signing, is
    # credited 50,000 / 1 = 50,000 (not 25,000), and the run says that the
    # override gives fewer owners than the roll names
    root = tmp_path / "p"
    config = make_petition(root)
    (root / "ownership.csv").write_text(
        "swis_code,print_key_code,owner_count,owners,note\n104489,1.-1-2,1,,deed\n"
    )
    config.write_text(config.read_text() + '\n[overrides]\nownership = "ownership.csv"\n')
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    lines = pd.read_csv(out / "signatures.csv").set_index("line")
    assert lines.loc[2, "credit_assessed"] == pytest.approx(50_000)
    told = [w for w in summary["warnings"] if "fewer owners than the roll names" in w]
    assert len(told) == 1 and "104489:1.-1-2 (1 given, 2 named)" in told[0]


def test_the_rest_is_shared_by_the_land_each_town_has_in_it(tmp_path: Path) -> None:
    """As above with Harlow's polygon drawn to x = 1200 (audit G4).

    The rest: x 1200..1500, y 0..500 (150,000 sq ft) and y -500..0 (750,000):
    900,000 sq ft. Land in the rest, not in the whole territory: Brinton's B1
    x 1200..1500, 300 x 500 = 150,000 (its strip x 1000..1200 lies in
    Harlow's polygon: 100,000 of 500,000 = 20 %, warned about); Cole's C1
    500,000. Brinton 900,000 x 150 / 650 = 207,692.3 sq ft, Cole 692,307.7,
    Harlow 1,200 x 500 = 600,000: Cole / Brinton = 10 / 3, Harlow / Brinton
    = 600 x 650 / (900 x 150) = 2.888...
    """
    root = tmp_path / "p"
    config = make_petition(root)
    _third_town(root, config)
    _redraw(root, "town-a.geojson", _b(0, 0, 1200, 1000))
    summary = json.loads((run_ok(config, tmp_path / "results") / "summary.json").read_text())
    towns = _towns_sq_mi(summary)
    assert towns["105000"] / towns["104600"] == pytest.approx(10 / 3, rel=1e-6)
    assert towns["104400"] / towns["104600"] == pytest.approx(600 * 650 / (900 * 150), rel=1e-6)
    warned = [w for w in summary["warnings"] if "other towns' rolls" in w]
    assert len(warned) == 1 and "104689:2.-1-1 of town 104600 (20.0%)" in warned[0]


def test_a_parcel_outside_its_towns_polygon_in_the_rest_is_warned_about(tmp_path: Path) -> None:
    # Harlow's polygon drawn to x = 800 only, Brinton's not given (audit G4):
    # Harlow's A2 (x 500..1000, 250,000 sq ft) has 200 x 500 = 100,000, 40 %,
    # in the rest, taken as Brinton's part. Harlow 800 x 500 = 400,000 sq ft,
    # Brinton 700 x 500 = 350,000
    summary = _harlow_polygon_only(tmp_path, 800)
    towns = _towns_sq_mi(summary)
    assert towns["104400"] / towns["104600"] == pytest.approx(400 / 350, rel=1e-6)
    warned = [w for w in summary["warnings"] if "lie outside it, in the rest" in w]
    assert len(warned) == 1 and "104489:1.-1-2 of town 104400 (40.0%)" in warned[0]
    assert "the part of Brinton (104600)" in warned[0]


def test_a_person_is_placed_by_the_map_not_by_an_override(tmp_path: Path) -> None:
    # John Smith lives at 1 Main St, parcel 1.-1-1, wholly inside the territory
    # (0..500 x 0..500 in 0..1500 x 0..500). The assessor apportions only 0.25
    # of its value to the territory: value, not land, so his home is still
    # inside. Sue Brown at 4 Main St, parcel 2.-1-2 (1000..2000 x 500..1000),
    # lies wholly outside though an override puts 0.75 of its value in: her home
    # is outside. The list of inhabitants and the designees say so alike.
    from pipeline.scenario import Scenario

    root = tmp_path / "p"
    config = make_petition(root)
    (root / "apportionment.csv").write_text(
        "swis_code,print_key_code,fraction_in_territory,value_in_territory,note\n"
        "104489,1.-1-1,0.25,,\n104689,2.-1-2,0.75,,\n"
    )
    (root / "inhabitants.csv").write_text(
        "name,address,town\nJohn Smith,1 Main St,Harlow\nSue Brown,4 Main St,Brinton\n"
    )
    config.write_text(
        config.read_text()
        + '\n[inhabitants]\nfile = "inhabitants.csv"\n'
        + '\n[overrides]\napportionment = "apportionment.csv"\n'
    )
    out = run_ok(config, tmp_path / "results")
    listed = pd.read_csv(out / "inhabitants.csv", dtype=str, keep_default_na=False)
    assert listed[["name", "status", "fraction"]].values.tolist() == [
        ["John Smith", "inside", "1.0"],
        ["Sue Brown", "outside", "0.0"],
    ]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["designees"]["residing_in_territory"] == 1  # John Smith, 1 of 1
    sc = Scenario.from_config(config).results()
    assert sc["designees"] == summary["designees"]
    assert sc["population"] == summary["population"]


def test_unapportioned_value_is_told_per_town_alike_by_run_and_scenario(
    tmp_path: Path,
) -> None:
    # a special franchise record of Brinton (2.-1-9, 30,000) has no polygon and
    # no override: counted as 0 and reported. The territory is in two towns, so
    # the report tells Brinton's sum ("30000.00 in town 104600"), not a sum "in
    # all" of values at different rates; Scenario (and batch) say the same
    from pipeline.scenario import Scenario

    root = tmp_path / "p"
    config = make_petition(root)
    with (root / "roll-b.csv").open("a") as fh:
        fields = ["2022", "104600", "104689", "5", "861", "2.-1-9", *[""] * 5, "Gas Co"]
        fh.write(",".join([*fields, *[""] * 8, "0", "30000", "30000"]) + "\n")
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    (msg,) = [d["message"] for d in summary["deficiencies"] if d["code"] == "unapportioned_records"]
    assert "(assessed value 30000.00 in town 104600)" in msg
    sc = Scenario.from_config(config).results()
    assert [d["message"] for d in sc["deficiencies"] if d["code"] == "unapportioned_records"] == [
        msg
    ]


def test_an_address_in_a_city_away_is_not_the_territorys(tmp_path: Path) -> None:
    # F10. The roll's homes get their mail in Harlow and Brinton (John Smith,
    # Mary Jones and Sue Brown live on their parcels); Albany is only the
    # mailing city of Acme LLC, away. 1 and 2 Main St are Harlow's A1, A2,
    # inside. "2 Main St, Albany" is another house than the territory's:
    # - designees: John Smith (1 Main St, Harlow) resides, Ed Away (2 Main St,
    #   Albany) does not: 1 of 2, no majority (2 x 1 > 2 is false);
    # - inhabitants: Mary Jones (2 Main St, Harlow) and Sam Post (1 Main St,
    #   no town) inside; Ed Away unplaced (other_city): 2 regular inhabitants;
    # - voters: ANN ROE (TOWNCITY Harlow) and BO RAY (no TOWNCITY, RCITY
    #   HARLOW, a post office of the towns) are placed inside; YUSUF YARDLEY
    #   (no TOWNCITY, RCITY ALBANY) is unplaced (other_city, listed for
    #   review). Ann and Yusuf sign: Ann counts, Yusuf's line goes to review.
    #   Qualified 2, signers 1: 100 x 1 / 2 = 50 %. (Before: 2 of 3.)
    from pipeline.scenario import Scenario

    root = tmp_path / "p"
    config = _resident_page(
        root,
        ["Ann Roe,1 Main St,Harlow,2023-05-01,,", "Yusuf Yardley,2 Main St,Albany,2023-05-01,,"],
        "ROE,ANN,1,MAIN ST,HARLOW,HARLOW,A,NY000000000000000001\n"
        "RAY,BO,2,MAIN ST,HARLOW,,A,NY000000000000000002\n"
        "YARDLEY,YUSUF,2,MAIN ST,ALBANY,,A,NY000000000000000003\n",
    )
    (root / "inhabitants.csv").write_text(
        "name,address,town\nMary Jones,2 Main St,Harlow\nSam Post,1 Main St,\n"
        "Ed Away,2 Main St,Albany\n"
    )
    config.write_text(
        config.read_text()
        + '\n[inhabitants]\nfile = "inhabitants.csv"\n'
        + '\n[[designees]]\nname = "Ed Away"\naddress = "2 Main St"\ntown = "Albany"\n'
    )
    out = run_ok(config, tmp_path / "results")
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["designees"]["count"], summary["designees"]["residing_in_territory"]) == (2, 1)
    assert summary["designees"]["passes"] is False
    assert summary["population"]["regular_inhabitants"] == 2
    listed = pd.read_csv(out / "inhabitants.csv", dtype=str, keep_default_na=False)
    assert listed[["name", "status", "reason"]].values.tolist() == [
        ["Mary Jones", "inside", ""],
        ["Sam Post", "inside", ""],
        ["Ed Away", "unplaced", "other_city"],
    ]
    test = summary["resident_test"]
    assert (test["qualified_voters"], test["qualifying_signers"]) == (2, 1)
    unplaced = pd.read_csv(out / "voters-unplaced.csv", dtype=str)
    assert unplaced[["SBOEID", "reason"]].values.tolist() == [
        ["NY000000000000000003", "other_city"]
    ]
    sigs = pd.read_csv(out / "signatures.csv", dtype=str).fillna("")
    res = sigs.loc[sigs["page"] == "2"]
    assert res["status"].tolist() == ["counted", "needs_review"]
    assert "(RCITY) is neither a town of the petition" in res["note"].iloc[1]
    sc = Scenario.from_config(config).results()
    assert sc["designees"] == summary["designees"]
    assert sc["population"] == summary["population"]
    assert sc["resident_test"] == test


def test_a_co_owner_written_with_a_first_name_only_shares_the_surname(tmp_path: Path) -> None:
    # Audit A14 F2. The roll writes 1.-1-2 (50,000) as PETER JONES with MARY, no
    # last name, in the additional owner slot. She is MARY JONES, one of two
    # owners, as "JONES PETER & MARY" reads: Mary Jones is credited
    # 50,000 / 2 = 25,000, as in the petition as first written. Without the
    # surname she counted in the divisor (2) but no signature could match her.
    # Part A: 100,000 + 25,000 = 125,000 of 150,000 = 83.33 % (passes), as before.
    root = tmp_path / "p"
    config = make_petition(root)
    roll = root / "roll-a.csv"
    roll.write_text(roll.read_text().replace(",Mary,,Jones,Peter,Jones,", ",Peter,,Jones,Mary,,"))
    out = run_ok(config, tmp_path / "out")
    lines = pd.read_csv(out / "signatures.csv").set_index("line")
    assert lines.loc[2, "status"] == "counted"
    assert lines.loc[2, "credit_assessed"] == pytest.approx(25_000)
    summary = json.loads((out / "summary.json").read_text())
    part_a = next(p for p in summary["owner_test"]["parts"] if p["swis"] == "104400")
    assert part_a["signer_assessed"] == pytest.approx(125_000)
    assert part_a["passes"] is True
    # the reading is listed for the assessor
    quality = json.loads((out / "data_quality.json").read_text())
    assert quality["owners"]["surname_from_co_owner"]["keys"] == ["104489|1-1-2"]


def test_a_trustee_written_in_the_name_fields_goes_to_review(tmp_path: Path) -> None:
    # Audit A14 F1. The roll writes 1.-1-1 as first name JOHN, last name SMITH
    # TRUSTEE: the trust is the owner and John Smith its trustee. His line, signed
    # for no one, goes to review (credit 0), as "SMITH JOHN TRUSTEE" in the
    # last-name field does; it was not_owner ("no owner matches"), read as the
    # trustee "SMITH JOHN". Part A: only Mary Jones, 25,000 of 150,000 = 16.67 %.
    root = tmp_path / "p"
    config = make_petition(root)
    roll = root / "roll-a.csv"
    roll.write_text(roll.read_text().replace(",John,,Smith,", ",John,,Smith Trustee,"))
    out = run_ok(config, tmp_path / "out")
    lines = pd.read_csv(out / "signatures.csv").set_index("line")
    assert lines.loc[1, "status"] == "needs_review"
    assert "as trustee of 'JOHN SMITH TRUSTEE'" in lines.loc[1, "note"]
    assert lines.loc[1, "credit_assessed"] == 0
    summary = json.loads((out / "summary.json").read_text())
    part_a = next(p for p in summary["owner_test"]["parts"] if p["swis"] == "104400")
    assert part_a["signer_assessed"] == pytest.approx(25_000)
    assert summary["review"]["owner_lines_pending"] == 1


def test_an_entity_signing_in_its_own_name_goes_to_review(tmp_path: Path) -> None:
    # Audit A14 O2. A line of name "Acme LLC" with no signing_for names the
    # owner of 2.-1-1 but no person: an entity signs through a person. It is
    # not credited (part B stays 0 of 40,000) and goes to review with a note
    # saying how to write it, not "no owner of the roll matches this name".
    root = tmp_path / "p"
    config = make_petition(root)
    sig = root / "signatures.csv"
    sig.write_text(sig.read_text() + "1,3,Acme LLC,9 Elm St,Albany,2023-05-02,,20000\n")
    pages = root / "pages.csv"
    pages.write_text(pages.read_text().replace(",2,2023-05-03", ",3,2023-05-03"))
    out = run_ok(config, tmp_path / "out")
    lines = pd.read_csv(out / "signatures.csv").set_index("line")
    assert lines.loc[3, "status"] == "needs_review"
    assert lines.loc[3, "credit_assessed"] == 0
    assert "names the owner 'ACME LLC' itself (104689:2.-1-1)" in lines.loc[3, "note"]
    assert "signing_for 'ACME LLC'" in lines.loc[3, "note"]
    summary = json.loads((out / "summary.json").read_text())
    part_b = next(p for p in summary["owner_test"]["parts"] if p["swis"] == "104600")
    assert part_b["signer_assessed"] == 0


def test_an_entity_credited_through_a_signer_adds_nothing_in_its_own_name(
    tmp_path: Path,
) -> None:
    # Audit A16 F4. Wile E. Coyote signs for Acme LLC (line 3: part B 40,000 of
    # 40,000); line 4 is "Acme LLC" itself. It cannot raise the figures, so it
    # is a duplicate of line 3, not a review that says they may rise.
    root = tmp_path / "p"
    config = make_petition(root, acme_signs=True)
    sig = root / "signatures.csv"
    sig.write_text(sig.read_text() + "1,4,Acme LLC,9 Elm St,Albany,2023-05-02,,20000\n")
    pages = root / "pages.csv"
    pages.write_text(pages.read_text().replace(",3,2023-05-03", ",4,2023-05-03"))
    out = run_ok(config, tmp_path / "out")
    lines = pd.read_csv(out / "signatures.csv").set_index("line")
    assert lines.loc[3, "status"] == "counted"
    assert lines.loc[4, "status"] == "duplicate"
    assert "credited on page 1 line 3" in lines.loc[4, "note"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["review"]["owner_lines_pending"] == 0
    part_b = next(p for p in summary["owner_test"]["parts"] if p["swis"] == "104600")
    assert part_b["signer_full"] == pytest.approx(40_000)  # 20,000 / (50 / 100)


def test_a_parcel_drawn_as_two_polygons_is_their_union_and_is_told(tmp_path: Path) -> None:
    # B1 (2.-1-1, x 1000..2000) drawn as two polygons, x 1000..1500 and 1500..2000:
    # their union is B1, half inside as before (20,000 of 40,000 apportioned), and
    # the warning names it (audit A15 F12): a polygon of another parcel under a
    # mistyped key would change the fraction unseen.
    root = tmp_path / "p"
    config = make_petition(root)
    layer = gpd.read_file(root / "parcels.gpkg")
    b1 = layer["PRINT_KEY"] == "2.-1-1"
    halves = gpd.GeoDataFrame(
        {"SWIS": ["104689", "104689"], "PRINT_KEY": ["2.-1-1", "2.-1-1"]},
        geometry=[_b(1000, 0, 1500, 500), _b(1500, 0, 2000, 500)],
        crs=CRS,
    )
    pd.concat([layer[~b1], halves], ignore_index=True).to_file(root / "parcels.gpkg", driver="GPKG")
    out = run_ok(config, tmp_path / "out")
    parcels = pd.read_csv(out / "parcels.csv").set_index("print_key_code")
    assert parcels.loc["2.-1-1", "fraction_in_territory"] == pytest.approx(0.5)
    assert parcels.loc["2.-1-1", "apportioned_assessed"] == pytest.approx(20_000)
    summary = json.loads((out / "summary.json").read_text())
    told = [w for w in summary["warnings"] if "drawn as several polygons" in w]
    assert told and "(104689:2.-1-1 in 2)" in told[0]


def test_an_estate_in_the_name_fields_is_found_as_a_signer_writes_it(tmp_path: Path) -> None:
    # Audit A16: the roll writes 2.-1-1 as first name PETER, last name GREEN EST
    # (the estate of Peter Green); its executor signs for "Estate of Peter Green".
    # Read first name first, the estate is found under that name: credited
    # 20,000 (half of 40,000 in the territory), part B 20,000 / 0.5 = 40,000 full
    # of 40,000 = 100 % (it went to review: "not on the roll as written").
    root = tmp_path / "p"
    config = make_petition(root, acme_signs=True)
    roll = root / "roll-b.csv"
    roll.write_text(roll.read_text().replace("St,,,Acme LLC,", "St,Peter,,Green Est,"))
    sig = root / "signatures.csv"
    sig.write_text(sig.read_text().replace(",Acme LLC,", ",Estate of Peter Green,"))
    out = run_ok(config, tmp_path / "out")
    lines = pd.read_csv(out / "signatures.csv").set_index("line")
    assert lines.loc[3, "status"] == "counted", lines.loc[3, "note"]
    assert lines.loc[3, "credit_assessed"] == pytest.approx(20_000)
    summary = json.loads((out / "summary.json").read_text())
    part_b = next(p for p in summary["owner_test"]["parts"] if p["swis"] == "104600")
    assert part_b["percent"] == pytest.approx(100.0)


def test_an_entity_line_beside_its_co_owners_own_line_awaits_review(tmp_path: Path) -> None:
    # Audit A17 F1. 1.-1-2 (50,000) is owned by MARY JONES and ACME LLC (the roll's
    # second slot). Mary signs for herself (25,000); a line "Acme LLC" with no
    # person is not a duplicate of hers (she signed for no entity): it awaits
    # review, and the figures may rise by the LLC's 25,000.
    root = tmp_path / "p"
    config = make_petition(root)
    roll = root / "roll-a.csv"
    roll.write_text(
        roll.read_text().replace(",Mary,,Jones,Peter,Jones,", ",Mary,,Jones,,Acme LLC,")
    )
    sig = root / "signatures.csv"
    sig.write_text(sig.read_text() + "1,3,Acme LLC,2 Main St,Harlow,2023-05-02,,25000\n")
    pages = root / "pages.csv"
    pages.write_text(pages.read_text().replace(",2,2023-05-03", ",3,2023-05-03"))
    out = run_ok(config, tmp_path / "out")
    lines = pd.read_csv(out / "signatures.csv").set_index("line")
    assert lines.loc[2, "status"] == "counted"
    assert lines.loc[2, "credit_assessed"] == pytest.approx(25_000)
    assert lines.loc[3, "status"] == "needs_review"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["review"]["owner_lines_pending"] == 1


def test_progress_is_shown_on_stderr_in_a_log_too(tmp_path: Path) -> None:
    # contract: "Progress is shown on stderr"; with stderr a pipe (a log, CI) each
    # step is a line of its own (audit A18 C2: nothing was shown off a terminal)
    config = make_petition(tmp_path / "p")
    proc = petition_run(str(config), "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    steps = proc.stderr.splitlines()
    assert steps[0] == "Reading the inputs…"
    assert "Apportioning parcels and computing the tests…" in steps
    assert "Writing the results…" in steps
