"""Rolls of several years per town: a folder or a list, the choice, the manifest, verify.

Tiny rolls are written to ``tmp_path``; only their ``roll_year`` (by file name
or column) matters to the choice. Filed 2023-06-01 with the default roll
completion of 1 July: the 2023 roll is not yet complete on 1 June 2023, so the
last completed roll is 2022 (:func:`pipeline.valuation.roll_year_for`); with
``roll_completion = "05-01"`` the 2023 roll (completed 1 May 2023) is the last.

The manifest of a run is built here as ``petition run`` builds it
(``load_config`` → ``resolve_rolls`` → ``build_manifest``) without running the
pipeline, so that ``petition verify --no-rerun`` is tested in milliseconds;
one end-to-end test runs the hand-worked petition of ``test_run_handworked``
with lists of rolls.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import load_config
from pipeline.errors import InputError
from pipeline.io.load import choose_roll, resolve_roll, resolve_rolls, town_roll_year
from pipeline.io.results import build_manifest, sha256_of, write_json
from pipeline.verify import verify_results

CONFIG = """
[petition]
name = "Village of Years"
filed_on = 2023-06-01
bases = ["owners"]

[territory]
boundary = "territory.geojson"

[[towns]]
swis = "104400"
name = "Harlow"
roll = {roll}
parcels = "parcels.gpkg"
{extra}
"""


def _roll(year: int, owner: str = "SMITH") -> str:
    """A one-record roll of ``year`` (only the year column matters to the choice)."""
    return f"roll_year,municipality_code,print_key_code,owner\n{year},104400,1.-1-1,{owner}\n"


def _petition(root: Path, roll: str, *, extra: str = "", files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name in ("territory.geojson", "parcels.gpkg"):
        (root / name).write_text("x")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    config = root / "petition.toml"
    config.write_text(CONFIG.format(roll=roll, extra=extra))
    return config


def _names(paths: tuple[Path, ...]) -> list[str]:
    return [p.name for p in paths]


# --------------------------------------------------------------------------- the choice


def test_choose_roll_is_pure_and_picks_the_year() -> None:
    # files that do not exist: choose_roll reads nothing
    a, b, c = Path("/nowhere/r-2021.csv"), Path("/nowhere/r-2022.csv"), Path("/nowhere/r-2023.csv")
    candidates = {2023: [c], 2021: [a], 2022: [b]}
    choice = choose_roll(candidates, year=2022, source=Path("/nowhere"), key="towns.104400.roll")
    assert choice.files == (b,)
    assert choice.year == 2022
    assert choice.offered == (a, c)
    assert list(choice.candidates) == [2021, 2022, 2023]
    assert choice.years_of(c) == (2023,)
    with pytest.raises(InputError, match=r"holds years \[2021, 2022, 2023\] but not 2024"):
        choose_roll(candidates, year=2024, chosen_by="--roll-year", source=Path("/nowhere"))


def test_a_list_of_rolls_relative_to_the_config(tmp_path: Path) -> None:
    config_file = _petition(
        tmp_path,
        '["rolls/roll-2022.csv", "rolls/roll-2023.csv", "rolls/older.csv"]',
        # older.csv: no year in the name, its roll_year column says 2021
        files={
            "rolls/roll-2022.csv": _roll(2022),
            "rolls/roll-2023.csv": _roll(2023),
            "rolls/older.csv": _roll(2021),
        },
    )
    config = load_config(config_file)
    rolls = tmp_path / "rolls"
    assert config.towns[0].roll == (
        (rolls / "roll-2022.csv").resolve(),
        (rolls / "roll-2023.csv").resolve(),
        (rolls / "older.csv").resolve(),
    )
    # each listed file is an input of its own (so a missing one is named)
    assert "towns.104400.roll[2]" in config.input_files()
    assert config.resolved()["towns"][0]["roll"] == [
        "rolls/roll-2022.csv",
        "rolls/roll-2023.csv",
        "rolls/older.csv",
    ]
    # filed 2023-06-01, completion 1 July: 2022
    choice = resolve_roll(config, 0)
    assert choice is not None
    assert (choice.year, choice.chosen_by, _names(choice.files)) == (
        2022,
        "filed_on",
        ["roll-2022.csv"],
    )
    assert _names(choice.offered) == ["older.csv", "roll-2023.csv"]
    # --roll-year forces the year over everything
    forced = resolve_roll(config, 0, roll_year=2021)
    assert forced is not None
    assert (forced.chosen_by, _names(forced.files)) == ("--roll-year", ["older.csv"])
    with pytest.raises(InputError) as err:
        resolve_roll(config, 0, roll_year=2020)
    assert (
        "the roll files listed in towns.104400.roll hold years [2021, 2022, 2023] but not 2020"
        in str(err.value)
    )
    assert "forced by --roll-year" in str(err.value)


def test_the_towns_roll_completion_and_roll_year_pick_the_year(tmp_path: Path) -> None:
    files = {"roll-2022.csv": _roll(2022), "roll-2023.csv": _roll(2023)}
    roll = '["roll-2022.csv", "roll-2023.csv"]'
    # completion 1 May: the 2023 roll is complete on 1 June 2023
    may = load_config(
        _petition(tmp_path / "may", roll, extra='roll_completion = "05-01"', files=files)
    )
    assert town_roll_year(may, 0) == (2023, "filed_on")
    choice = resolve_roll(may, 0)
    assert choice is not None and _names(choice.files) == ["roll-2023.csv"]
    # the town's roll_year key
    keyed = load_config(_petition(tmp_path / "key", roll, extra="roll_year = 2023", files=files))
    choice = resolve_roll(keyed, 0)
    assert choice is not None
    assert (choice.chosen_by, _names(choice.files)) == ("towns.roll_year", ["roll-2023.csv"])
    # the same choice in a folder
    folder = load_config(
        _petition(tmp_path / "dir", '"rolls"', files={f"rolls/{k}": v for k, v in files.items()})
    )
    choice = resolve_roll(folder, 0)
    assert choice is not None and _names(choice.files) == ["roll-2022.csv"]
    # one file: no choice (read whole, as before)
    one = load_config(_petition(tmp_path / "one", '"roll-2022.csv"', files=files))
    assert resolve_roll(one, 0) is None
    assert resolve_rolls(one) == {}


def test_list_errors(tmp_path: Path) -> None:
    files = {"roll-2022.csv": _roll(2022), "roll-2023.csv": _roll(2023)}
    # a listed file missing: the config key with the file's index
    missing = _petition(tmp_path / "m", '["roll-2022.csv", "roll-2024.csv"]', files=files)
    with pytest.raises(InputError) as err:
        load_config(missing)
    assert "column 'towns.104400.roll[1]'" in str(err.value)
    assert "roll-2024.csv does not exist" in str(err.value)
    # two files of the same year: both named
    same = _petition(
        tmp_path / "s",
        '["roll-2022.csv", "current.csv"]',
        files={**files, "current.csv": _roll(2022)},  # current.csv: year 2022 by its column
    )
    with pytest.raises(InputError) as err:
        resolve_roll(load_config(same), 0)
    text = str(err.value)
    assert "roll-2022.csv" in text and "current.csv" in text
    assert "both hold roll year 2022" in text
    assert "towns.104400.roll" in text
    # an empty list
    with pytest.raises(InputError, match="empty list of roll files"):
        load_config(_petition(tmp_path / "e", "[]", files=files))
    # a folder in a list
    (tmp_path / "f" / "sub").mkdir(parents=True)
    with pytest.raises(InputError, match=r"is a folder"):
        load_config(_petition(tmp_path / "f", '["sub"]', files=files))
    # a listed file whose year cannot be told
    nameless = _petition(
        tmp_path / "n", '["roll-2022.csv", "notes.csv"]', files={**files, "notes.csv": "a\n1\n"}
    )
    with pytest.raises(InputError, match=r"towns\.104400\.roll\[1\] can be told neither"):
        resolve_roll(load_config(nameless), 0)


# --------------------------------------------------------------------------- manifest and verify


def _manifest(
    config_file: Path, results: Path, *, roll_year: int | None = None, rolls: bool = True
) -> dict:
    """The manifest ``petition run`` writes (inputs part), without running the pipeline."""
    config = load_config(config_file)
    manifest = build_manifest(
        inputs=config.input_files() | {"config": config_file},
        base=config_file.parent,
        config=config.resolved(),
        regime="2-202-pre-2024",
        started="t0",
        finished="t1",
        outputs={},
        rolls=resolve_rolls(config, roll_year=roll_year) if rolls else None,
    )
    manifest["options"] = {"roll_year": roll_year}
    manifest["config_file"] = config_file.resolve().as_posix()
    results.mkdir(parents=True, exist_ok=True)
    write_json(results / "manifest.json", manifest)
    return manifest


@pytest.fixture
def folder_run(tmp_path: Path) -> tuple[Path, Path]:
    config = _petition(
        tmp_path / "p",
        '"rolls"',
        files={"rolls/roll-2022.csv": _roll(2022), "rolls/roll-2023.csv": _roll(2023)},
    )
    results = tmp_path / "results"
    _manifest(config, results)
    return config, results


def test_manifest_records_the_roll_used_and_the_others(folder_run) -> None:
    config, results = folder_run
    entry = json.loads((results / "manifest.json").read_text())["inputs"]["towns.104400.roll"]
    used = config.parent / "rolls" / "roll-2022.csv"
    other = config.parent / "rolls" / "roll-2023.csv"
    # the keys of every input stay (path, sha256, bytes): now those of the file used
    assert entry["path"] == "rolls/roll-2022.csv"
    assert entry["sha256"] == sha256_of(used)
    assert entry["bytes"] == len(_roll(2022).encode())
    assert entry["roll_year"] == 2022
    assert entry["chosen_by"] == "filed_on"
    assert entry["used"] == [
        {"path": "rolls/roll-2022.csv", "sha256": sha256_of(used), "bytes": entry["bytes"]}
    ]
    assert entry["offered"] == [
        {
            "path": "rolls/roll-2023.csv",
            "sha256": sha256_of(other),
            "bytes": len(_roll(2023).encode()),
            "roll_years": [2023],
        }
    ]


def test_a_new_year_not_chosen_is_a_note_not_drift(folder_run) -> None:
    config, results = folder_run
    (config.parent / "rolls" / "roll-2024.csv").write_text(_roll(2024))
    # the offered 2023 roll is corrected: not used, a note too
    (config.parent / "rolls" / "roll-2023.csv").write_text(_roll(2023, owner="DOE"))
    report = verify_results(results, rerun=False)
    assert report.drift == ()
    assert report.clean
    assert len(report.notes) == 2
    assert any("new roll file rolls/roll-2024.csv (roll year 2024)" in n for n in report.notes)
    assert any("rolls/roll-2023.csv (offered, not used) changed" in n for n in report.notes)
    assert "not drift" in report.report()
    out = CliRunner().invoke(app, ["verify", str(results), "--no-rerun"])
    assert out.exit_code == 0, out.output
    assert "roll-2024.csv" in out.stdout


def test_the_roll_used_changed_is_drift(folder_run) -> None:
    config, results = folder_run
    (config.parent / "rolls" / "roll-2022.csv").write_text(_roll(2022, owner="DOE"))
    report = verify_results(results, rerun=False)
    assert [(d.kind, d.name) for d in report.drift] == [("input_changed", "towns.104400.roll")]
    out = CliRunner().invoke(app, ["verify", str(results), "--no-rerun"])
    assert out.exit_code == 3


def test_another_file_chosen_now_is_roll_choice_changed(folder_run) -> None:
    config, results = folder_run
    # a second file of 2022 in the folder: the year's roll is now two files
    (config.parent / "rolls" / "roll-2022-supplement.csv").write_text(_roll(2022))
    report = verify_results(results, rerun=False)
    assert [(d.kind, d.name) for d in report.drift] == [
        ("roll_choice_changed", "towns.104400.roll")
    ]
    assert (
        "rolls/roll-2022-supplement.csv, rolls/roll-2022.csv (roll year 2022)"
        in report.drift[0].detail
    )
    out = CliRunner().invoke(app, ["verify", str(results), "--no-rerun"])
    assert out.exit_code == 3
    assert "roll_choice_changed: towns.104400.roll" in out.stdout


def test_the_used_roll_removed_is_missing_and_the_choice_fails(folder_run) -> None:
    config, results = folder_run
    (config.parent / "rolls" / "roll-2022.csv").unlink()
    report = verify_results(results, rerun=False)
    kinds = [(d.kind, d.name) for d in report.drift]
    assert kinds == [
        ("input_missing", "towns.104400.roll"),
        ("roll_choice_changed", "towns.104400.roll"),
    ]
    assert "holds years [2023] but not 2022" in report.drift[1].detail


def test_a_config_that_now_chooses_another_year(tmp_path: Path) -> None:
    files = {"roll-2022.csv": _roll(2022), "roll-2023.csv": _roll(2023)}
    config = _petition(tmp_path / "p", '["roll-2022.csv", "roll-2023.csv"]', files=files)
    results = tmp_path / "results"
    _manifest(config, results)
    # the list: the same manifest shape as a folder
    entry = json.loads((results / "manifest.json").read_text())["inputs"]["towns.104400.roll"]
    assert entry["path"] == "roll-2022.csv"
    assert [o["path"] for o in entry["offered"]] == ["roll-2023.csv"]
    assert not any(
        k.startswith("towns.104400.roll[")
        for k in json.loads((results / "manifest.json").read_text())["inputs"]
    )
    assert verify_results(results, rerun=False).clean
    # the town's roll now completes 1 May: 2023 would be chosen
    config.write_text(
        config.read_text().replace(
            'parcels = "parcels.gpkg"', 'parcels = "parcels.gpkg"\nroll_completion = "05-01"'
        )
    )
    report = verify_results(results, rerun=False)
    kinds = {(d.kind, d.name) for d in report.drift}
    assert kinds == {("input_changed", "config"), ("roll_choice_changed", "towns.104400.roll")}
    detail = next(d.detail for d in report.drift if d.kind == "roll_choice_changed")
    assert detail == (
        "the run used roll-2022.csv (roll year 2022); "
        "chosen again now: roll-2023.csv (roll year 2023)"
    )


def test_the_runs_roll_year_is_used_again(tmp_path: Path) -> None:
    files = {"roll-2022.csv": _roll(2022), "roll-2023.csv": _roll(2023)}
    config = _petition(tmp_path / "p", '["roll-2022.csv", "roll-2023.csv"]', files=files)
    results = tmp_path / "results"
    manifest = _manifest(config, results, roll_year=2023)
    entry = manifest["inputs"]["towns.104400.roll"]
    assert (entry["path"], entry["roll_year"], entry["chosen_by"]) == (
        "roll-2023.csv",
        2023,
        "--roll-year",
    )
    # re-resolved with --roll-year 2023 from the manifest's options: the same file
    assert verify_results(results, rerun=False).clean


def test_an_old_manifest_hashing_the_folder_still_verifies(tmp_path: Path) -> None:
    config = _petition(tmp_path / "p", '"rolls"', files={"rolls/roll-2022.csv": _roll(2022)})
    results = tmp_path / "results"
    manifest = _manifest(config, results, rolls=False)  # as before: the folder as one input
    assert manifest["inputs"]["towns.104400.roll"]["path"] == "rolls"
    assert verify_results(results, rerun=False).clean
    (config.parent / "rolls" / "roll-2023.csv").write_text(_roll(2023))
    report = verify_results(results, rerun=False)
    assert [(d.kind, d.name) for d in report.drift] == [("input_changed", "towns.104400.roll")]


# --------------------------------------------------------------------------- end to end


@pytest.fixture(scope="module")
def two_years(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from test_diff import make_two_years

    return make_two_years(tmp_path_factory.mktemp("years") / "p")


def test_run_with_lists_of_rolls(two_years: Path, tmp_path: Path) -> None:
    """The two-year petition of ``test_diff`` with each town's rolls as a list.

    Filed 2023-06-01: the 2022 rolls are used, so the parcels are those of
    2022 (1.-1-1, 1.-1-2, 2.-1-1), as in ``test_diff``'s default run.
    """
    from pipeline.run import run_petition

    config = two_years.parent / "petition-lists.toml"  # beside the folder config
    text = two_years.read_text()
    for town in ("a", "b"):
        other = "roll-2023.csv" if town == "a" else "current.csv"
        text = text.replace(
            f'roll = "rolls-{town}"',
            f'roll = ["rolls-{town}/roll-2022.csv", "rolls-{town}/{other}"]',
        )
    config.write_text(text)
    results = run_petition(config, out=tmp_path / "results")
    parcels = pd.read_csv(results / "parcels.csv", dtype={"print_key_code": str})
    assert sorted(parcels["print_key_code"]) == ["1.-1-1", "1.-1-2", "2.-1-1"]
    inputs = json.loads((results / "manifest.json").read_text())["inputs"]
    assert inputs["towns.104400.roll"]["path"] == "rolls-a/roll-2022.csv"
    assert inputs["towns.104600.roll"]["offered"][0]["path"] == "rolls-b/current.csv"
    assert inputs["towns.104600.roll"]["offered"][0]["roll_years"] == [2023]


def test_folder_run_verifies_after_next_years_roll_arrives(two_years: Path, tmp_path: Path) -> None:
    """A 2024 roll added to the folder: the run (2022) is unchanged, verify re-runs clean."""
    from test_run_handworked import ROLL_HEADER

    from pipeline.run import run_petition

    results = run_petition(two_years, out=tmp_path / "results")
    new = two_years.parent / "rolls-a" / "roll-2024.csv"
    new.write_text(
        (two_years.parent / "rolls-a" / "roll-2023.csv").read_text().replace("\n2023,", "\n2024,")
    )
    try:
        assert new.read_text().startswith(ROLL_HEADER)
        report = verify_results(results)
    finally:
        new.unlink()
    assert report.rerun
    assert report.drift == ()
    assert report.notes == (
        "towns.104400.roll: new roll file rolls-a/roll-2024.csv (roll year 2024) offered; "
        "the choice is unchanged (roll year 2022)",
    )


def test_a_file_named_for_one_year_holding_another_is_bad_input(
    two_years: Path, tmp_path: Path
) -> None:
    """``roll-2022.csv`` copied over with records of 2021: offered as 2022, it is not.

    Filed 2023-06-01 the 2022 roll is wanted; using the file's 2021 values at
    the 2021 rate (the warning path of a single stale file) would certify a
    roll nobody offered. Exit 2, naming the file and the years. The same when
    the file is not the one chosen (roll-2023.csv holding 2022 records too):
    one file, one year.
    """
    import shutil

    from pipeline.io.load import load_inputs

    root = tmp_path / "p"
    shutil.copytree(two_years.parent, root)
    stale = root / "rolls-a" / "roll-2022.csv"
    good = stale.read_text()
    stale.write_text(good.replace("\n2022,", "\n2021,"))
    with pytest.raises(InputError) as err:
        load_inputs(load_config(root / two_years.name))
    assert str(err.value) == (
        f"{stale}, column 'roll_year': the file is named for roll year 2022 but its records "
        "are of roll year(s) 2021: rename it, or correct its roll_year column (one file, one year)"
    )
    stale.write_text(good)
    later = root / "rolls-a" / "roll-2023.csv"
    later.write_text(later.read_text() + "".join(good.splitlines(keepends=True)[1:]))
    with pytest.raises(InputError) as err:
        load_inputs(load_config(root / two_years.name))
    assert str(err.value).startswith(f"{later}, column 'roll_year': the file is named for roll ")
    assert "year 2023 but also holds records of roll year(s) 2022" in str(err.value)


@pytest.mark.parametrize(
    ("name", "year"),
    [
        ("roll-2023.csv", 2023),
        ("roll-2023-final.csv", 2023),
        ("2022roll.csv", 2022),
        ("roll-104400.csv", None),  # a SWIS code holds no year
        ("roll-2022-2023.csv", None),  # two years name no one year (audit G7: 2022)
        ("roll 2022 to 2023.csv", None),
    ],
)
def test_the_year_of_a_roll_files_name(name: str, year: int | None) -> None:
    from pipeline.io.history import _year_of_name

    assert _year_of_name(Path(name)) == year
