"""The config: validated, paths relative to the file, unknown keys named with a suggestion."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.config import DEFAULT_VOTER_STATUSES, load_config
from pipeline.errors import InputError

MINIMAL = """
[petition]
name = "Village of Example"
filed_on = 2023-06-01
bases = ["owners"]

[territory]
boundary = "territory.geojson"
crs = "EPSG:2260"

[[towns]]
swis = "104400"
name = "Kinderhook"
roll = "roll.csv"
parcels = "parcels.gpkg"
"""


def _write(tmp_path: Path, text: str, files: tuple[str, ...] = ()) -> Path:
    for name in ("territory.geojson", "roll.csv", "parcels.gpkg", *files):
        (tmp_path / name).write_text("x")
    path = tmp_path / "petition.toml"
    path.write_text(text)
    return path


def test_minimal_config_resolves_paths_and_defaults(tmp_path: Path) -> None:
    config = load_config(_write(tmp_path, MINIMAL))
    assert config.territory.boundary == (tmp_path / "territory.geojson").resolve()
    assert config.towns[0].roll == (tmp_path / "roll.csv").resolve()
    assert config.policy.value_basis == "assessment_total"
    assert config.policy.sliver_tolerance == 0.005
    assert config.policy.voter_statuses == DEFAULT_VOTER_STATUSES
    assert config.petition.regime == "auto"
    resolved = config.resolved()
    # paths in the manifest are relative to the config's folder
    assert resolved["territory"]["boundary"] == "territory.geojson"
    assert resolved["petition"]["filed_on"] == "2023-06-01"
    assert resolved["policy"]["voter_statuses"] == list(DEFAULT_VOTER_STATUSES)


def test_paths_relative_to_the_config_not_the_cwd(tmp_path: Path, monkeypatch) -> None:
    sub = tmp_path / "petition"
    sub.mkdir()
    path = _write(sub, MINIMAL)
    monkeypatch.chdir(tmp_path)
    config = load_config(Path("petition") / path.name)
    assert config.towns[0].parcels == (sub / "parcels.gpkg").resolve()


@pytest.mark.parametrize(
    ("bad", "expected"),
    [
        ('bondary = "x"', "unknown key 'bondary' in [territory]; did you mean 'boundary'?"),
        ("crss = 1", "did you mean 'crs'?"),
    ],
)
def test_unknown_key_is_named_with_nearest(tmp_path: Path, bad: str, expected: str) -> None:
    text = MINIMAL.replace('crs = "EPSG:2260"', f'crs = "EPSG:2260"\n{bad}')
    with pytest.raises(InputError) as err:
        load_config(_write(tmp_path, text))
    assert expected in str(err.value)
    assert "petition.toml" in str(err.value)


def test_unknown_key_in_a_town_table(tmp_path: Path) -> None:
    text = MINIMAL + "equalisation_rate = 60.0\n"
    with pytest.raises(InputError) as err:
        load_config(_write(tmp_path, text))
    assert "unknown key 'equalisation_rate' in [[towns]] #1" in str(err.value)
    assert "did you mean 'equalization_rate'?" in str(err.value)


def test_unknown_section(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"unknown section \[polcy\]; did you mean 'policy'\?"):
        load_config(_write(tmp_path, MINIMAL + "[polcy]\nvalue_basis = 'x'\n"))


def test_wrong_type_names_the_key(tmp_path: Path) -> None:
    text = MINIMAL.replace("2023-06-01", '"first of June"')
    with pytest.raises(InputError) as err:
        load_config(_write(tmp_path, text))
    assert "column 'petition.filed_on'" in str(err.value)


def test_bad_basis_and_bad_swis(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"petition\.bases"):
        load_config(_write(tmp_path, MINIMAL.replace('["owners"]', '["landlords"]')))
    # a list's table numbered from 1, and words a clerk can act on (audit A5:
    # a regex and a 0-based index before)
    with pytest.raises(InputError) as err:
        load_config(_write(tmp_path, MINIMAL.replace('"104400"', '"1044"')))
    assert err.value.column == "towns #1.swis"
    assert "'1044' is no SWIS code: write the town's 6 digits in quotes" in err.value.message


@pytest.mark.parametrize(
    ("old", "new", "column", "words"),
    [
        (
            'swis = "104400"',
            "swis = 104400",
            "towns #1.swis",
            'write the value in quotes, as text ("104400")',
        ),
        ('["owners"]', "[]", "petition.bases", "give at least one value"),
        (
            '["owners"]',
            '"owners"',
            "petition.bases",
            'should be a list in brackets, e.g. ["owners"]',
        ),
        ("2023-06-01", '"06/01/2023"', "petition.filed_on", "write it as YYYY-MM-DD"),
    ],
)
def test_config_messages_in_plain_words(
    tmp_path: Path, old: str, new: str, column: str, words: str
) -> None:
    with pytest.raises(InputError) as err:
        load_config(_write(tmp_path, MINIMAL.replace(old, new)))
    assert err.value.column == column
    assert words in err.value.message


def test_missing_input_file_names_the_key(tmp_path: Path) -> None:
    path = _write(tmp_path, MINIMAL)
    (tmp_path / "roll.csv").unlink()
    with pytest.raises(InputError) as err:
        load_config(path)
    assert "column 'towns.104400.roll'" in str(err.value)
    assert "roll.csv does not exist" in str(err.value)


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('roll = "roll.csv"', 'roll = ""', "towns.104400.roll"),
        ('roll = "roll.csv"', 'roll = ["roll.csv", " "]', "towns.104400.roll"),
        ('boundary = "territory.geojson"', 'boundary = ""', "territory.boundary"),
        ('parcels = "parcels.gpkg"', 'parcels = ""', "towns.104400.parcels"),
    ],
)
def test_an_empty_path_names_its_key(tmp_path: Path, old: str, new: str, key: str) -> None:
    # an empty path would be the config's own folder (audit A5: read as a roll
    # folder, or named by GDAL); the key is named instead
    path = _write(tmp_path, MINIMAL.replace(old, new))
    with pytest.raises(InputError) as err:
        load_config(path)
    assert err.value.column == key
    assert "an empty path" in err.value.message


def test_missing_config_and_bad_toml(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="config file not found"):
        load_config(tmp_path / "nope.toml")
    with pytest.raises(InputError, match="not valid TOML"):
        load_config(_write(tmp_path, MINIMAL + "[petition\n"))


def test_contract_example_config_is_accepted(tmp_path: Path) -> None:
    """Every key of the contract's config example is valid."""
    text = """
[petition]
name = "Village of Example"
filed_on = 2023-06-01
bases = ["owners", "residents"]
regime = "auto"

[territory]
boundary = "territory.geojson"
crs = "EPSG:2260"
coterminous_with = "fire district"
district = "district.geojson"

[[towns]]
swis = "104400"
name = "Kinderhook"
roll = "roll.csv"
parcels = "parcels.gpkg"
boundary = "town.geojson"
equalization_rate = 60.0

[equalization]
rates = "rates.csv"

[signers]
pages = "pages.csv"
signatures = "signatures.csv"

[voters]
file = "voters.csv"

[inhabitants]
file = "inhabitants.csv"

[[designees]]
name = "Jane Q. Public"
address = "12 Oak St"
town = "Kinderhook"

[overrides]
apportionment = "apportionment.csv"
ownership = "ownership.csv"
matches = "matches.csv"

[policy]
value_basis = "assessment_total"
sliver_tolerance = 0.005
voter_statuses = ["A", "AM", "AF", "AP", "AU", "I"]

[output]
dir = "out"
"""
    files = (
        "district.geojson",
        "town.geojson",
        "rates.csv",
        "pages.csv",
        "signatures.csv",
        "voters.csv",
        "inhabitants.csv",
        "apportionment.csv",
        "ownership.csv",
        "matches.csv",
    )
    config = load_config(_write(tmp_path, text, files))
    assert config.towns[0].equalization_rate == 60.0
    assert config.designees[0].name == "Jane Q. Public"
    # territory boundary + district (2) + roll, parcels, town boundary (3)
    # + rates, pages, signatures, voters, inhabitants, 3 overrides (8) = 13 files
    assert len(config.input_files()) == 13


def test_a_config_saved_with_a_bom_is_read(tmp_path: Path) -> None:
    # Windows Notepad's "UTF-8 with BOM": the mark is not part of the TOML
    from test_run_handworked import make_petition

    from pipeline.config import load_config

    config = make_petition(tmp_path / "p")
    config.write_bytes(b"\xef\xbb\xbf" + config.read_bytes())
    assert load_config(config).petition.name == "Village of Handworked"


@pytest.mark.parametrize(
    ("line", "column", "words"),
    [
        # a TOML boolean is not a rate (it would read as 1 %)
        ("equalization_rate = true", "towns.104400.equalization_rate", "valid number"),
        ("equalization_rate = inf", "towns.104400.equalization_rate", "finite"),
        ("equalization_rate = 1e20", "towns.104400.equalization_rate", "1000"),
        ('roll_completion = "13-45"', "towns.104400.roll_completion", "not a month and day"),
        ('roll_completion = "02-30"', "towns.104400.roll_completion", "not a month and day"),
        ('roll_completion = "7-1"', "towns.104400.roll_completion", "not a month and day"),
        ("roll = 3", "towns.104400.roll", "path"),
        ("roll_year = -5", "towns.104400.roll_year", "1800"),
    ],
)
def test_bad_town_values_are_refused(tmp_path: Path, line: str, column: str, words: str) -> None:
    text = MINIMAL.replace('parcels = "parcels.gpkg"', f'parcels = "parcels.gpkg"\n{line}')
    if line.startswith("roll ="):
        text = text.replace('roll = "roll.csv"\n', "")
    with pytest.raises(InputError) as err:
        load_config(_write(tmp_path, text))
    # the key as written in the config (a town by its SWIS), never pydantic's
    # names of its own checks
    assert err.value.column == column
    assert words in err.value.problem


def test_a_leap_day_completion_is_a_day(tmp_path: Path) -> None:
    text = MINIMAL.replace(
        'parcels = "parcels.gpkg"', 'parcels = "parcels.gpkg"\nroll_completion = "02-29"'
    )
    assert load_config(_write(tmp_path, text)).towns[0].roll_completion == "02-29"


@pytest.mark.parametrize(
    ("value", "words"),
    [("EPSG:4326", "never in degrees"), ("EPSG:999999", "not a coordinate reference system")],
)
def test_working_crs_must_be_projected(tmp_path: Path, value: str, words: str) -> None:
    # rules § 1: areas in a projected CRS, never in degrees
    with pytest.raises(InputError) as err:
        load_config(_write(tmp_path, MINIMAL + f'\n[policy]\nworking_crs = "{value}"\n'))
    assert err.value.column == "policy.working_crs"
    assert words in err.value.problem
    assert not err.value.problem.startswith("Value error")


@pytest.mark.parametrize(
    ("value", "words"),
    [("[]", "no voter status listed"), ('["A", "ZZ"]', "'ZZ' is no voter status")],
)
def test_voter_statuses_must_be_codes_of_the_boe_file(
    tmp_path: Path, value: str, words: str
) -> None:
    with pytest.raises(InputError) as err:
        load_config(_write(tmp_path, MINIMAL + f"\n[policy]\nvoter_statuses = {value}\n"))
    assert err.value.column == "policy.voter_statuses"
    assert words in err.value.problem


@pytest.mark.parametrize("value", ["2023", "2023-06-01T10:00:00"])
def test_filed_on_must_be_a_date(tmp_path: Path, value: str) -> None:
    text = MINIMAL.replace("filed_on = 2023-06-01", f"filed_on = {value}")
    with pytest.raises(InputError) as err:
        load_config(_write(tmp_path, text))
    assert err.value.column == "petition.filed_on"
    assert "should be a date, written 2023-06-01" in err.value.problem


def test_a_town_listed_twice_names_the_towns_key(tmp_path: Path) -> None:
    town = MINIMAL[MINIMAL.index("[[towns]]") :]
    with pytest.raises(InputError) as err:
        load_config(_write(tmp_path, MINIMAL + "\n" + town))
    assert err.value.column == "towns"
    assert "town 104400 is listed twice" in err.value.problem


@pytest.mark.parametrize(
    ("old", "new", "column"),
    [
        # U+000B is the line break a word processor puts in pasted text: no
        # document (XML) can hold it, so the run would fail while writing
        ('name = "Village of Example"', 'name = "Village of\\u000bExample"', "petition.name"),
        ('name = "Kinderhook"', 'name = "Kinder\\u0007hook"', "towns.104400.name"),
    ],
)
def test_a_control_character_in_a_text_is_bad_input(
    tmp_path: Path, old: str, new: str, column: str
) -> None:
    with pytest.raises(InputError, match="control character") as exc:
        load_config(_write(tmp_path, MINIMAL.replace(old, new)))
    assert exc.value.column == column


def test_a_coterminous_kind_is_one_of_the_kinds_the_law_lists(tmp_path: Path) -> None:
    # [territory] coterminous_kind states what a claim the tool cannot read is
    with_kind = MINIMAL.replace(
        'crs = "EPSG:2260"', 'crs = "EPSG:2260"\ncoterminous_with = "X"\ncoterminous_kind = "fire"'
    )
    assert load_config(_write(tmp_path, with_kind)).territory.coterminous_kind == "fire"
    with pytest.raises(InputError) as err:
        load_config(_write(tmp_path, with_kind.replace('"fire"', '"zip_code"')))
    assert "territory.coterminous_kind" in str(err.value)


def test_a_territory_crs_that_is_none_is_told_against_the_config(tmp_path: Path) -> None:
    # audit A29 F2: it was told against territory.geojson, the first layer read
    text = MINIMAL.replace('crs = "EPSG:2260"', 'crs = "NAD83 state plane east"')
    with pytest.raises(InputError) as err:
        load_config(_write(tmp_path, text))
    assert err.value.column == "territory.crs"
    assert err.value.problem == "'NAD83 state plane east' is not a coordinate reference system"
