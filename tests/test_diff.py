"""Two years of the hand-worked petition's rolls, and `petition diff` between them.

The petition of ``test_run_handworked`` (filed 2023-06-01: last completed roll
2022), with each town's ``roll`` a folder of one roll per year:

* ``rolls-a/roll-2022.csv``: the original roll of town A (104400);
* ``rolls-a/roll-2023.csv``: parcel 1.-1-2 (MARY & PETER JONES, 50,000) is
  split into 1.-1-2.1 and 1.-1-2.2 (25,000 each, same owners), and parcel
  1.-1-1 (100,000) passes from JOHN SMITH to JANE DOE;
* ``rolls-b/roll-2022.csv`` and ``rolls-b/current.csv`` (a file whose year is
  told by its ``roll_year`` column, 2023): town B unchanged.

The parcel layer holds 1.-1-2 and its two halves (x 500-750 and 750-1000),
all inside the territory. Rates 2022: A 100, B 50; 2023: A 80, B 40.

Run 2022 (default) → run 2023 (``roll_year=2023``). By hand:

| parcel   | 2022 full            | 2023 full                 |
|----------|----------------------|---------------------------|
| 1.-1-1   | 100,000 / 1.0 = 100,000 | 100,000 / 0.8 = 125,000 |
| 1.-1-2   |  50,000 / 1.0 =  50,000 | (split)                 |
| 1.-1-2.1 |                      | 25,000 / 0.8 = 31,250     |
| 1.-1-2.2 |                      | 25,000 / 0.8 = 31,250     |
| 2.-1-1   | 20,000 / 0.5 = 40,000 | 20,000 / 0.4 = 50,000    |

Part A total full: 150,000 → 125,000 + 31,250 + 31,250 = 187,500.
Overall total: 190,000 → 187,500 + 50,000 = 237,500.
Signers credited in 2022 for a parcel that changed: John Smith (1.-1-1, owners
changed) and Mary Jones (1.-1-2, split).
"""

from __future__ import annotations

import json
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest
from test_run_handworked import CRS, ROLL_HEADER, _b, make_petition
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.diff import ResultSet, diff_results, owner_set
from pipeline.io.history import read_results, roll_years
from pipeline.run import run_petition

A_2022 = (
    "2022,104400,104489,1,210,1.-1-1,1,Main,St,John,,Smith,,,1,Main,St,Harlow,NY,12106,"
    "20000,100000,100000\n"
    "2022,104400,104489,1,210,1.-1-2,2,Main,St,Mary,,Jones,Peter,Jones,2,Main,St,"
    "Harlow,NY,12106,10000,50000,50000\n"
)
A_2023 = (
    "2023,104400,104489,1,210,1.-1-1,1,Main,St,Jane,,Doe,,,1,Main,St,Harlow,NY,12106,"
    "20000,100000,100000\n"
    "2023,104400,104489,1,210,1.-1-2.1,2,Main,St,Mary,,Jones,Peter,Jones,2,Main,St,"
    "Harlow,NY,12106,5000,25000,25000\n"
    "2023,104400,104489,1,210,1.-1-2.2,2,Main,St,Mary,,Jones,Peter,Jones,2,Main,St,"
    "Harlow,NY,12106,5000,25000,25000\n"
)


def make_two_years(root: Path) -> Path:
    """The hand-worked petition with a roll folder per town (2022 and 2023)."""
    config = make_petition(root)
    (root / "rolls-a").mkdir()
    (root / "rolls-a" / "roll-2022.csv").write_text(ROLL_HEADER + A_2022)
    (root / "rolls-a" / "roll-2023.csv").write_text(ROLL_HEADER + A_2023)
    b = (root / "roll-b.csv").read_text()
    (root / "rolls-b").mkdir()
    (root / "rolls-b" / "roll-2022.csv").write_text(b)
    (root / "rolls-b" / "current.csv").write_text(b.replace("\n2022,", "\n2023,"))
    gpd.GeoDataFrame(
        {
            "SWIS": ["104489"] * 4 + ["104689"] * 2,
            "PRINT_KEY": ["1.-1-1", "1.-1-2", "1.-1-2.1", "1.-1-2.2", "2.-1-1", "2.-1-2"],
        },
        geometry=[
            _b(0, 0, 500, 500),
            _b(500, 0, 1000, 500),
            _b(500, 0, 750, 500),
            _b(750, 0, 1000, 500),
            _b(1000, 0, 2000, 500),
            _b(1000, 500, 2000, 1000),
        ],
        crs=CRS,
    ).to_file(root / "parcels.gpkg", driver="GPKG")
    text = config.read_text()
    text = text.replace('roll = "roll-a.csv"', 'roll = "rolls-a"')
    text = text.replace('roll = "roll-b.csv"', 'roll = "rolls-b"')
    config.write_text(text)
    return config


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    root = tmp_path_factory.mktemp("years")
    config = make_two_years(root / "p")
    r22 = run_petition(config, out=root / "r2022")
    r23 = run_petition(config, out=root / "r2023", roll_year=2023)
    return config, r22, r23


def test_roll_folder_years(two_runs) -> None:
    config, _, _ = two_runs
    years = roll_years(config.parent / "rolls-b")
    # roll-2022.csv by its name; current.csv by its roll_year column
    assert {y: [p.name for p in ps] for y, ps in years.items()} == {
        2022: ["roll-2022.csv"],
        2023: ["current.csv"],
    }


def test_roll_year_picks_the_years_roll(two_runs) -> None:
    _, r22, r23 = two_runs
    p22 = pd.read_csv(r22 / "parcels.csv", dtype={"print_key_code": str})
    p23 = pd.read_csv(r23 / "parcels.csv", dtype={"print_key_code": str})
    # filed 2023-06-01, roll completed 1 July: the 2022 roll by default
    assert sorted(p22["print_key_code"]) == ["1.-1-1", "1.-1-2", "2.-1-1"]
    assert sorted(p23["print_key_code"]) == ["1.-1-1", "1.-1-2.1", "1.-1-2.2", "2.-1-1"]
    manifest = json.loads((r23 / "manifest.json").read_text())
    assert manifest["options"] == {
        "roll_year": 2023,
        "engine": "local",
        "out": r23.resolve().as_posix(),  # the results folder, as the run was told
    }
    assert {t["roll_year"] for t in manifest["config"]["towns"]} == {2023}
    # the manifest says the year each town's records are of, whatever the roll input
    assert {r["swis"]: r["roll_year"] for r in manifest["rolls"]} == {
        "104400": 2023,
        "104600": 2023,
    }
    default = json.loads((r22 / "manifest.json").read_text())
    assert {r["roll_year"] for r in default["rolls"]} == {2022}


def test_diff_lists_exactly_the_split_and_the_owner_change(two_runs) -> None:
    _, r22, r23 = two_runs
    d = diff_results(read_results(r22), read_results(r23))
    c = d.changes
    assert d.count("added") == 0
    assert d.count("removed") == 0
    assert d.count("merged") == 0
    split = c.loc[c["change"] == "split"]
    assert split[["print_key_code", "related"]].values.tolist() == [
        ["1.-1-2", "1.-1-2.1; 1.-1-2.2"]
    ]
    owners = c.loc[c["change"] == "owners_changed"]
    assert owners[["print_key_code", "before", "after"]].values.tolist() == [
        ["1.-1-1", "JOHN SMITH", "JANE DOE"]
    ]
    signers = c.loc[c["change"] == "signer_owner_changed"].sort_values("line")
    assert signers["name"].tolist() == ["John Smith", "Mary Jones"]
    assert signers["print_key_code"].tolist() == ["1.-1-1", "1.-1-2"]
    assert signers["field"].iloc[0].startswith("owners changed; no longer credited")
    # Mary Jones is credited in 2023 for both halves: 2 x 25,000 / 2 owners = 25,000 assessed
    assert signers["field"].iloc[1] == (
        "split into 1.-1-2.1, 1.-1-2.2; still credited for what it became in r2023"
    )
    assert signers["line"].tolist() == [1, 2]
    # values and rates: only the parcels in both runs, 1.-1-1 and 2.-1-1
    values = c.loc[c["change"] == "value_changed"]
    got = {(r.print_key_code, r.field): (r.before, r.after) for r in values.itertuples()}
    assert got[("1.-1-1", "equalization_rate")] == (100.0, 80.0)
    assert got[("1.-1-1", "apportioned_full")] == pytest.approx((100_000, 125_000))  # /0.8
    assert got[("1.-1-1", "signer_credit_full")] == pytest.approx((100_000, 0))  # not an owner
    assert got[("2.-1-1", "equalization_rate")] == (50.0, 40.0)
    assert got[("2.-1-1", "apportioned_full")] == pytest.approx((40_000, 50_000))  # 20,000/0.4
    assert {k[0] for k in got} == {"1.-1-1", "2.-1-1"}
    t = d.tests
    assert t.loc["owner test, part 104400: total full", "before"] == pytest.approx(150_000)
    assert t.loc["owner test, part 104400: total full", "after"] == pytest.approx(187_500)
    assert t.loc["owner test: total value", "after"] == pytest.approx(237_500)
    # signers 2023: Mary Jones only, 25,000 assessed / 0.8 = 31,250 full
    assert t.loc["owner test: signer value", "after"] == pytest.approx(31_250)
    assert t.loc["owner test, part 104400: equalization rate", "after"] == 80.0
    assert t.loc["owner test: percent", "before"] == pytest.approx(100 * 125_000 / 190_000)
    report = d.report()
    assert "Parcels split: 1" in report
    assert "104489:1.-1-2 -> 1.-1-2.1; 1.-1-2.2" in report
    assert "JOHN SMITH -> JANE DOE" in report
    # what the figures stand on: each town's roll went from 2022 to 2023 (the
    # rule set did not change)
    rolls = c.loc[c["change"] == "roll"]
    assert rolls[["swis_code", "before", "after"]].values.tolist() == [
        ["104400", 2022, 2023],
        ["104600", 2022, 2023],
    ]
    assert d.count("regime") == 0
    assert "Rolls used: 2\n  town 104400: 2022 -> 2023" in report


_EMPTY_SUMMARY = {
    "territory": {"square_miles": 1.0, "towns": []},
    "owner_test": {"applies": False},
    "resident_test": {"applies": False},
    "population": {},
    "area": {},
    "designees": {},
    "filing": {},
    "deficiencies": [],
    "sufficient": False,
}


def test_pure_merge_added_removed() -> None:
    def rs(name: str, keys: list[str]) -> ResultSet:
        parcels = pd.DataFrame(
            {
                "swis_code": ["104489"] * len(keys),
                "print_key_code": keys,
                "owners": ["X"] * len(keys),
                "assessed_value": [1.0] * len(keys),
            }
        )
        sigs = pd.DataFrame(columns=["page", "line", "name", "status", "matched_to"])
        return ResultSet(name, _EMPTY_SUMMARY, parcels, sigs)

    # 5-1-1.1 and 5-1-1.2 merged into 5-1-1; 7-1-1 removed; 8-1-1 added
    a = rs("a", ["5.-1-1.1", "5.-1-1.2", "7.-1-1", "9.-1-1"])
    b = rs("b", ["5.-1-1", "8.-1-1", "9.-1-1"])
    d = diff_results(a, b)
    c = d.changes.set_index("change")
    assert c.loc["merged", "print_key_code"] == "5.-1-1"
    assert c.loc["merged", "related"] == "5.-1-1.1; 5.-1-1.2"
    assert c.loc["removed", "print_key_code"] == "7.-1-1"
    assert c.loc["added", "print_key_code"] == "8.-1-1"
    assert len(d.changes) == 3
    assert owner_set("MARY JONES;  peter jones") == owner_set("PETER JONES; MARY JONES")


def test_one_town_credit_and_apportioned_value_changes_are_listed() -> None:
    # One town: no full values, so the assessed columns carry the change.
    # Run b drops Susan's line (credit 5,000 -> 0) and the assessor's override
    # of 1.-1-3 goes from 0.25 to 0.5 (apportioned 60,000 x 0.25 = 15,000 ->
    # 60,000 x 0.5 = 30,000).
    def rs(name: str, credit: float, fraction: float) -> ResultSet:
        parcels = pd.DataFrame(
            {
                "swis_code": ["104489", "104489"],
                "print_key_code": ["1.-1-3", "1.-1-4"],
                "owners": ["ACME LLC", "SUSAN BROWN; ROBERT BROWN"],
                "assessed_value": [60_000.0, 10_000.0],
                "fraction_in_territory": [fraction, 1.0],
                "apportioned_assessed": [60_000.0 * fraction, 10_000.0],
                "apportioned_full": [float("nan")] * 2,
                "signer_credit_assessed": [0.0, credit],
                "signer_credit_full": [float("nan")] * 2,
            }
        )
        sigs = pd.DataFrame(columns=["page", "line", "name", "status", "matched_to"])
        return ResultSet(name, _EMPTY_SUMMARY, parcels, sigs)

    d = diff_results(rs("a", 5_000.0, 0.25), rs("b", 0.0, 0.5))
    values = d.changes.loc[d.changes["change"] == "value_changed"]
    got = {(r.print_key_code, r.field): (r.before, r.after) for r in values.itertuples()}
    assert got == {
        ("1.-1-3", "fraction_in_territory"): (0.25, 0.5),
        ("1.-1-3", "apportioned_assessed"): (15_000.0, 30_000.0),
        ("1.-1-4", "signer_credit_assessed"): (5_000.0, 0.0),
    }


def test_diff_command_prints_and_writes_csv(two_runs, tmp_path: Path) -> None:
    _, r22, r23 = two_runs
    out = tmp_path / "changes.csv"
    runner = CliRunner()
    proc = runner.invoke(app, ["diff", str(r22), str(r23), "--out", str(out)])
    assert proc.exit_code == 0, proc.output
    assert "Owners changed: 1" in proc.stdout
    table = pd.read_csv(out, dtype=str)
    assert set(table["change"]) >= {"split", "owners_changed", "signer_owner_changed", "test"}
    # page and line are whole numbers in the CSV, as the report prints them
    signers = table.loc[table["change"] == "signer_owner_changed"]
    assert sorted(signers["line"]) == ["1", "2"] and set(signers["page"]) == {"1"}
    bad = runner.invoke(app, ["diff", str(r22), str(tmp_path / "nope")])
    assert bad.exit_code == 2
    assert "nope" in bad.stderr


def test_diff_replaces_only_an_earlier_changes_file(two_runs, tmp_path: Path) -> None:
    # the same diff twice writes the same file; an input (here a roll) or a file
    # of a results folder is never replaced: exit 2, the file left as it was
    _, r22, r23 = two_runs
    runner = CliRunner()
    out = tmp_path / "changes.csv"
    for _ in range(2):
        proc = runner.invoke(app, ["diff", str(r22), str(r23), "--out", str(out)])
        assert proc.exit_code == 0, proc.output
    roll = tmp_path / "roll.csv"
    roll.write_text("swis_code,print_key_code,assessment_total\n104401,1.-1-1,100\n")
    before = roll.read_bytes()
    proc = runner.invoke(app, ["diff", str(r22), str(r23), "--out", str(roll)])
    assert proc.exit_code == 2 and "not a changes file" in proc.stderr
    assert roll.read_bytes() == before
    summary = r23 / "summary.json"
    before = summary.read_bytes()
    for target in (summary, r23):  # a result file, or the results folder itself
        proc = runner.invoke(app, ["diff", str(r22), str(r23), "--out", str(target)])
        assert proc.exit_code == 2 and "results folder" in proc.stderr
    assert summary.read_bytes() == before
    assert not [p for p in r23.iterdir() if p.name.startswith("diff-")]


def test_diff_of_two_results_folders_of_one_name(two_runs, tmp_path: Path) -> None:
    # y2022/out and y2023/out, each run's own "out": the default file name is
    # made of both paths without separators, beside the later folder; --out may
    # name a folder (the file goes in it); a missing folder is exit 2
    import shutil

    _, r22, r23 = two_runs
    shutil.copytree(r22, tmp_path / "y2022" / "out")
    shutil.copytree(r23, tmp_path / "y2023" / "out")
    runner = CliRunner()
    a, b = str(tmp_path / "y2022" / "out"), str(tmp_path / "y2023" / "out")
    proc = runner.invoke(app, ["diff", a, b])
    assert proc.exit_code == 0, proc.output
    written = [p.name for p in (tmp_path / "y2023").iterdir() if p.suffix == ".csv"]
    assert len(written) == 1 and "y2022-out" in written[0] and "y2023-out" in written[0]
    (tmp_path / "changes").mkdir()
    proc = runner.invoke(app, ["diff", a, b, "--out", str(tmp_path / "changes")])
    assert proc.exit_code == 0, proc.output
    assert [p.suffix for p in (tmp_path / "changes").iterdir()] == [".csv"]
    proc = runner.invoke(app, ["diff", a, b, "--out", str(tmp_path / "none" / "c.csv")])
    assert proc.exit_code == 2
    assert "does not exist" in proc.stderr


def test_a_summary_edited_into_nonsense_is_bad_input(tmp_path: Path) -> None:
    # `owner_test.parts: null` in a hand-edited summary: exit 2 naming the file
    from pipeline.errors import InputError
    from pipeline.io.history import read_results

    (tmp_path / "summary.json").write_text(
        json.dumps(
            {
                "territory": {"square_miles": 1.0, "towns": []},
                "owner_test": {
                    "applies": True,
                    "value_basis": "assessed",
                    "total_value": 1,
                    "signer_value": 1,
                    "percent": 100,
                    "passes": True,
                    "parts": None,
                },
            }
        )
    )
    with pytest.raises(InputError) as exc:
        read_results(tmp_path)
    assert Path(str(exc.value.file)).name == "summary.json"


def test_diff_tells_an_owner_count_changed_by_an_override(tmp_path: Path) -> None:
    # 1.-1-2 is MARY JONES and PETER JONES (2 owners; Mary is credited 50,000 / 2
    # = 25,000). The assessor's ownership override then counts 3 owners of the
    # same names: the same owners by name, another number, and Mary's credit is
    # 50,000 / 3 = 16,666.67. The diff says the owners changed (the count)
    root = tmp_path / "p"
    config = make_petition(root)
    before = run_petition(config, out=tmp_path / "before")
    (root / "ownership.csv").write_text(
        "swis_code,print_key_code,owner_count,owners,note\n104489,1.-1-2,3,,deed names a third\n"
    )
    config.write_text(config.read_text() + '\n[overrides]\nownership = "ownership.csv"\n')
    after = run_petition(config, out=tmp_path / "after")
    result = diff_results(read_results(before), read_results(after))
    table = result.to_frame()
    counts = table[(table["change"] == "owners_changed") & (table["field"] == "owner_count")]
    assert counts[["print_key_code", "before", "after"]].values.tolist() == [["1.-1-2", "2", "3"]]
    assert "Owners changed: 1" in result.report()


def _owner_summary(basis: str, total: float, signer: float) -> dict[str, object]:
    return {
        **_EMPTY_SUMMARY,
        "owner_test": {
            "applies": True,
            "value_basis": basis,
            "total_value": total,
            "signer_value": signer,
            "percent": 100.0 * signer / total,
            "passes": 2 * signer > total,
            "parts": [],
        },
    }


def _no_parcels(name: str, summary: dict[str, object]) -> ResultSet:
    parcels = pd.DataFrame(columns=["swis_code", "print_key_code", "owners", "assessed_value"])
    sigs = pd.DataFrame(columns=["page", "line", "name", "status", "matched_to"])
    return ResultSet(name, summary, parcels, sigs)


def test_diff_states_a_change_of_value_basis_not_a_difference_of_dollars() -> None:
    # two towns (full value: 2,220,000, signers 1,070,000) against one town
    # (assessed value: 210,000, signers 110,000): dollars of two bases, no
    # difference stated; the percent (48.1982 -> 52.3810) is compared
    a = _no_parcels("two-towns", _owner_summary("full", 2_220_000.0, 1_070_000.0))
    b = _no_parcels("one-town", _owner_summary("assessed", 210_000.0, 110_000.0))
    d = diff_results(a, b)
    t = d.tests
    for label in ("owner test: total value", "owner test: signer value"):
        assert pd.isna(t.loc[label, "change"])
        assert t.loc[label, "note"] == "basis changed: full -> assessed"
    # 100 x 110,000 / 210,000 - 100 x 1,070,000 / 2,220,000 = 52.3810 - 48.1982 = 4.1828
    assert t.loc["owner test: percent", "change"] == pytest.approx(4.18275, abs=1e-5)
    report = d.report()
    assert (
        "owner test: total value: 2,220,000.00 -> 210,000.00 (basis changed: full -> assessed)"
        in report
    )
    assert "-2.01e+06" not in report
    rows = d.changes.loc[d.changes["field"] == "owner test: total value"]
    assert rows["related"].tolist() == ["basis changed: full -> assessed"]
    # the same basis both times: the difference is stated (210,000 - 200,000 = +10,000)
    same = diff_results(
        _no_parcels("x", _owner_summary("assessed", 200_000.0, 110_000.0)),
        _no_parcels("y", _owner_summary("assessed", 210_000.0, 110_000.0)),
    )
    assert same.tests.loc["owner test: total value", "change"] == pytest.approx(10_000.0)
    assert same.tests.loc["owner test: total value", "note"] == ""


def test_diff_states_a_change_of_the_roll_field_read() -> None:
    # one town both times, assessed basis, but the values read from
    # assessment_total (820,000) and then from town_taxable_value (810,000): no
    # dollar difference is stated, and the report says the field changed
    before = _owner_summary("assessed", 820_000.0, 600_000.0)
    after = _owner_summary("assessed", 810_000.0, 600_000.0)
    after["owner_test"] = {**after["owner_test"], "value_basis_column": "town_taxable_value"}  # type: ignore[dict-item]
    d = diff_results(_no_parcels("total", before), _no_parcels("taxable", after))
    note = "value basis changed: assessment_total -> town_taxable_value"
    assert pd.isna(d.tests.loc["owner test: total value", "change"])
    assert d.tests.loc["owner test: total value", "note"] == note
    rows = d.changes.loc[d.changes["change"] == "value_basis"]
    assert rows[["before", "after"]].values.tolist() == [["assessment_total", "town_taxable_value"]]
    assert "  assessment_total -> town_taxable_value" in d.report()


def test_diff_lists_deficiencies_changed_under_an_equal_count_and_the_minimum() -> None:
    # filed before and after 1 January 2024: 2 deficiencies each time, but
    # owner_part_percent_not_met went and owner_basis_not_allowed came, and
    # the population minimum went from 500 to 1,500 (+1,000)
    def summary(codes: list[tuple[str, str]], minimum: int) -> dict[str, object]:
        return {
            **_EMPTY_SUMMARY,
            "population": {"regular_inhabitants": 0, "minimum": minimum, "passes": False},
            "deficiencies": [
                {"code": c, "paragraph": p, "message": f"{c} message", "where": ""}
                for c, p in codes
            ],
        }

    common = ("population_below_minimum", "2-200")
    a = summary([common, ("owner_part_percent_not_met", "2-202.1.a(2)")], 500)
    b = summary([common, ("owner_basis_not_allowed", "2-202.1.a (as amended 2024)")], 1500)
    d = diff_results(_no_parcels("2023", a), _no_parcels("2024", b))
    c = d.changes
    removed = c.loc[c["change"] == "deficiency_removed", ["field", "related", "before"]]
    added = c.loc[c["change"] == "deficiency_added", ["field", "related", "after"]]
    assert removed.values.tolist() == [
        ["owner_part_percent_not_met", "2-202.1.a(2)", "owner_part_percent_not_met message"]
    ]
    assert added.values.tolist() == [
        [
            "owner_basis_not_allowed",
            "2-202.1.a (as amended 2024)",
            "owner_basis_not_allowed message",
        ]
    ]
    assert d.tests.loc["deficiencies", "change"] == 0.0  # 2 -> 2
    assert d.tests.loc["population: minimum", "change"] == 1000.0  # 1,500 - 500
    minimum = c.loc[(c["change"] == "test") & (c["field"] == "population: minimum")]
    assert minimum[["before", "after"]].values.tolist() == [[500, 1500]]
    report = d.report()
    assert "Deficiencies removed: 1\n  owner_part_percent_not_met (2-202.1.a(2))" in report
    assert (
        "Deficiencies added: 1\n  owner_basis_not_allowed (2-202.1.a (as amended 2024))" in report
    )
    assert "population: minimum: 500 -> 1500 (+1000)" in report


def test_a_deficiency_moving_to_another_page_is_a_change() -> None:
    # audit A37 F4: a mismatch cured on page 2 and arising on page 1 read as
    # no change (compared by code and paragraph only)
    from pipeline.diff import _deficiency_changes

    def summary(page: int) -> dict[str, object]:
        return {
            "deficiencies": [
                {
                    "code": "witness_count_mismatch",
                    "paragraph": "2-202.1.e(4)",
                    "message": f"page {page}: the witness affidavit states 3 signature(s) but "
                    "the page holds 2",
                    "where": f"page {page}",
                }
            ]
        }

    rows = _deficiency_changes(summary(2), summary(1))
    assert [(r["change"], r["related"]) for r in rows] == [
        ("deficiency_removed", "2-202.1.e(4), page 2"),
        ("deficiency_added", "2-202.1.e(4), page 1"),
    ]
    assert _deficiency_changes(summary(2), summary(2)) == []
