"""Faults of input files that must stop the run, or be told (audit A15).

Each case is a file as a person or a program may really leave it: a lone quote,
a key written twice in JSON, a Latin-1 byte in a street layer, a byte-order mark
before a Latin-1 voter file, a blank name, a file that cannot be read.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest
from shapely.geometry import Polygon, box
from test_readers_voters import ANNA, BEN, write_boe
from test_run_handworked import make_petition, petition_run

from pipeline.config import load_config
from pipeline.documents._common import dollars, fraction, percent
from pipeline.errors import InputError
from pipeline.frames import BOE_FIELDS_47
from pipeline.geometry import union_territory
from pipeline.io import (
    read_apportionment_overrides,
    read_inhabitants,
    read_lines,
    read_match_decisions,
    read_parcels,
    read_roll,
    read_signatures,
    read_voters,
)
from pipeline.io._common import read_bytes
from pipeline.io.results import check_results_folder, write_csv


def test_a_quote_never_closed_names_its_row_not_drops_the_rest(tmp_path: Path) -> None:
    # Row 2's town opens a quote that no later character closes: read leniently,
    # rows 3.. would become one cell of row 2 (2 entries of 4 left, no error).
    p = tmp_path / "inhabitants.csv"
    p.write_text(
        "name,address,town\n"
        "Ann Lee,1 Main St,Harlow\n"
        'Bob Lee,1 Main St,"Harlow\n'
        "Cid Lee,2 Main St,Harlow\n"
        "Dee Lee,3 Main St,Harlow\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as err:
        read_inhabitants(p)
    assert (err.value.row, err.value.column) == (2, "town")
    assert "is not closed as a quoted value is" in err.value.message
    # two stray quotes, on rows 1 and 3, pair up: row 2 would be swallowed (A17 F3)
    p.write_text(
        "name,address,town\n"
        'Ann Lee,1 Main St,"Harlow\n'
        "Bob Lee,1 Main St,Harlow\n"
        'Cid Lee,2 Main St,Harlow"\n'
        "Dee Lee,3 Main St,Harlow\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as err:
        read_inhabitants(p)
    assert (err.value.row, err.value.column) == (1, "town")
    # a stray quote in the town of a row whose address is rightly of two lines:
    # the town is named, not the address
    p.write_text(
        "name,address,town\n"
        'Ann Lee,"1 Main St\nrear unit","Harlow\n'
        "Bob Lee,1 Main St,Harlow\n"
        "Cid Lee,2 Main St,Harlow\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as err:
        read_inhabitants(p)
    assert (err.value.row, err.value.column) == (1, "town")
    # a note of two lines is a value, not rows: read as written
    p.write_text(
        'name,address,town\nAnn Lee,1 Main St,"Harlow\n(the hamlet)"\nBob Lee,2 Main St,Harlow\n',
        encoding="utf-8",
    )
    assert read_inhabitants(p)["town"].tolist() == ["Harlow\n(the hamlet)", "Harlow"]
    # a quote inside a value that is not quoted is text, as before: 5" is five inches
    p.write_text('name,address,town\nAnn 5" Lee,1 Main St,Harlow\n', encoding="utf-8")
    assert read_inhabitants(p)["name"].tolist() == ['Ann 5" Lee']


def test_values_of_several_lines_with_commas_are_read(tmp_path: Path) -> None:
    # A line of a note may hold as many commas as the file has columns less one
    # without being a row: it was refused (audit A19 F1). Each file below is
    # read as base read it, the value kept whole.
    note = (
        "Assessor's letter of March 3, 2023:\n"
        "by road frontage, 120 ft of 400 ft, per deed, see map 12"  # 5 commas; 5 columns
    )
    p = tmp_path / "apportionment.csv"
    p.write_text(
        "swis_code,print_key_code,fraction_in_territory,value_in_territory,note\n"
        f'104489,888.500-1-1,0.3,,"{note}"\n'
        "104489,11.-1-2,0.5,,\n"
        "104489,11.-1-3,0.5,,\n"
        "104489,11.-1-4,0.5,,\n"
    )
    assert read_apportionment_overrides(p)["note"].iloc[0] == note
    p = tmp_path / "inhabitants.csv"
    # "Harlow, NY, 12106" is 3 fields, as the file has; but "Harlow" is no name
    # shaped as the others (two words), " NY" no address, "12106" no town
    p.write_text(
        "name,address,town\n"
        'Andrew Cohen,"774 Mill Ave\nHarlow, NY, 12106",Harlow\n'
        "Mary Cohen,774 Mill Ave,Harlow\n"
        "Rick Roe,776 Mill Ave,Harlow\n"
        "Ivy Roe,776 Mill Ave,Harlow\n"
    )
    assert read_inhabitants(p)["address"].iloc[0] == "774 Mill Ave\nHarlow, NY, 12106"
    # a name cell over two lines whose second line has two commas
    p.write_text(
        "name,address,town\n"
        '"Cohen, Andrew G.\nCohen, Mary, Jr",774 Mill Ave,Harlow\n'
        "Minor child 1,774 Mill Ave,Harlow\n"
    )
    assert len(read_inhabitants(p)) == 2
    p = tmp_path / "decisions.csv"
    p.write_text(
        "page,line,decision,SBOEID,note\n"
        '3,4,accept,NY000000000012345678,"voter registered at 12 Elm St\n'
        'signed as Jim, not James, same DOB year, same household, per clerk"\n'
    )
    assert read_match_decisions(p)["note"].iloc[0].endswith("per clerk")


def test_two_stray_quotes_on_consecutive_rows_are_refused(tmp_path: Path) -> None:
    # A19 F2: row 4's town opens a quote and row 5's town opens another, which
    # closes the first; row 5 was read into row 4 (110 lines became 109).
    p = tmp_path / "signatures.csv"
    head = "page,line,name,address,town,signed_on,signing_for,credited_assessed_value\n"
    rows = [
        "1,1,Ann Lee,1 Main St,Harlow,2023-03-01,,",
        "1,2,Bob Lee,2 Main St,Harlow,2023-03-01,,",
        "1,3,Cid Lee,3 Main St,Harlow,2023-03-02,,",
        '1,4,Donald Butler,240 Elm Tpke,"Harlow,2023-03-07,,',
        '1,5,Emma K. Lewis,131 Stuyvesant Tpke,"Harlow,2023-03-15,,',
    ]
    p.write_text(head + "\n".join(rows) + "\n")
    with pytest.raises(InputError) as err:
        read_signatures(p)
    # the second quote ends the value and "Harlow" follows it: no quoted value ends so
    assert (err.value.row, err.value.column) == (4, "town")
    assert "is not closed as a quoted value is" in err.value.message
    # one quote opening row 4's name and one closing row 5's name: a value
    # closed as CSV closes one, but both of its lines are rows of the file
    # (8 fields, shaped as the other rows' fields)
    rows[3] = '1,4,"Donald Butler,240 Elm Tpke,Harlow,2023-03-07,,'
    rows[4] = '1,5,Emma K. Lewis",131 Stuyvesant Tpke,Harlow,2023-03-15,,'
    p.write_text(head + "\n".join(rows) + "\n")
    with pytest.raises(InputError) as err:
        read_signatures(p)
    assert (err.value.row, err.value.column) == (4, "name")
    assert "runs over 1 more line(s) of the file that read as rows of it" in err.value.message


def test_a_stray_pair_beside_a_value_of_two_lines_is_refused(tmp_path: Path) -> None:
    # A21 F1: row 4's address is rightly of two lines, and its town opens a stray
    # quote that row 5's town closes as CSV closes one (a quote, then a comma):
    # row 5 was read into row 4's town. The town's value is judged on its own:
    # its first line "Harlow,2023-05-05,," is row 4's town to the last field (4
    # fields), its last line "1,5,Emma Lewis,131 Elm St,Harlow" row 5's fields
    # up to the town (5): rows run together.
    p = tmp_path / "signatures.csv"
    p.write_text(
        "page,line,name,address,town,signed_on,signing_for,credited_assessed_value\n"
        "1,1,Ann Lee,1 Main St,Harlow,2023-03-01,,100\n"
        "1,2,Bob Lee,2 Main St,Harlow,2023-03-01,,200\n"
        "1,3,Cid Lee,3 Main St,Harlow,2023-03-02,,300\n"
        '1,4,Joan Foster,"872 Green Brook Ln\nApt 2","Harlow,2023-05-05,,\n'
        '1,5,Emma Lewis,131 Elm St,Harlow",2023-05-06,,500\n'
        "1,6,Dee Lee,6 Main St,Harlow,2023-03-02,,600\n"
    )
    with pytest.raises(InputError) as err:
        read_signatures(p)
    assert (err.value.row, err.value.column) == (4, "town")
    assert "read as rows of it" in err.value.message


def test_two_values_of_two_lines_in_one_row_are_read(tmp_path: Path) -> None:
    # A21 F2: the name and the town are each of two lines; the line between,
    # 'Mary Cohen",774 Mill Ave,"Harlow', has the file's 3 fields but lies in
    # no one value: not a row run into a value
    p = tmp_path / "inhabitants.csv"
    p.write_text(
        "name,address,town\n"
        '"Andrew G. Cohen\nMary Cohen",774 Mill Ave,"Harlow\nRed Mills hamlet"\n'
        "Ann Roe,778 Mill Ave,Harlow\n"
        "Bob Roe,778 Mill Ave,Harlow\n"
    )
    got = read_inhabitants(p)
    assert got["name"].tolist() == ["Andrew G. Cohen\nMary Cohen", "Ann Roe", "Bob Roe"]


def test_a_quote_the_header_does_not_close_is_bad_input(tmp_path: Path) -> None:
    # A21 F4: the header's "SBOEID opens a quote: every row was read into the
    # header (0 decisions, no word)
    p = tmp_path / "decisions.csv"
    p.write_text(
        'page,line,decision,swis_code,print_key_code,"SBOEID,note\n'
        "3,4,accept,104489,11.-1-2,,ok\n"
        "5,6,reject,,,,\n"
    )
    with pytest.raises(InputError) as err:
        read_match_decisions(p)
    assert err.value.row is None
    assert "header's field 6 ('\"SBOEID') opens a quote" in err.value.message


def test_a_voter_file_whose_first_record_has_two_lines_is_read(tmp_path: Path) -> None:
    # A21 F5: the layout of a headerless voter file was told from its first
    # line, not its first record: 47 fields read as 10
    p = write_boe(tmp_path, BOE_FIELDS_47, [{**ANNA, "RSTREETNAME": "OAK ST\nREAR"}, BEN])
    assert read_voters(p)["LASTNAME"].tolist() == ["MUÑOZ", "ROE"]


def test_a_quote_never_closed_stops_petition_run(tmp_path: Path) -> None:
    root = tmp_path / "p"
    config = make_petition(root)
    sig = root / "signatures.csv"
    lines = sig.read_text().splitlines()
    lines[1] = lines[1].replace(",1 Main St,", ',"1 Main St,')
    sig.write_text("\n".join(lines) + "\n")
    proc = petition_run(str(config), "--out", str(tmp_path / "out"))
    assert proc.returncode == 2
    assert "signatures.csv, row 1:" in proc.stderr  # the row's fields run together
    assert not (tmp_path / "out").exists()


def test_a_json_row_giving_a_field_twice_is_bad_input(tmp_path: Path) -> None:
    # Python's json keeps the last of two keys silently: 100 read for 1,203,600
    p = tmp_path / "roll.json"
    p.write_text(
        '[{"swis_code": "104489", "print_key_code": "1.-1-1", '
        '"assessment_total": "1203600", "assessment_total": "100"}]'
    )
    with pytest.raises(InputError) as err:
        read_roll(p, town_swis="104400")
    assert (err.value.row, err.value.column) == (1, "assessment_total")
    assert "given twice" in err.value.message


def test_a_street_name_not_in_utf8_names_its_feature(tmp_path: Path) -> None:
    p = tmp_path / "streets.geojson"
    gpd.GeoDataFrame(
        {"NAME": ["Main St", "Franklin RU"]},
        geometry=gpd.GeoSeries.from_wkt(["LINESTRING (0 0, 1 1)", "LINESTRING (1 1, 2 2)"]),
        crs="EPSG:2260",
    ).to_file(p, driver="GeoJSON")
    # a Latin-1 "ü" (0xFC) where the file says nothing of its encoding
    p.write_bytes(p.read_bytes().replace(b"Franklin RU", b"Franklin R\xfc"))
    with pytest.raises(InputError) as err:
        read_lines(p, crs=None, working_crs="EPSG:2260", what="street")
    assert (err.value.feature, err.value.column) == (2, "NAME")
    assert "not valid UTF-8" in err.value.message


def test_a_byte_order_mark_before_a_latin1_voter_file_is_no_part_of_the_name(
    tmp_path: Path,
) -> None:
    p = write_boe(tmp_path, BOE_FIELDS_47, [ANNA, BEN])
    p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes())
    assert read_voters(p)["LASTNAME"].tolist() == ["MUÑOZ", "ROE"]


def test_a_blank_petition_name_is_bad_input(tmp_path: Path) -> None:
    config = make_petition(tmp_path / "p")
    config.write_text(config.read_text().replace('"Village of Handworked"', '"   "'))
    with pytest.raises(InputError) as err:
        load_config(config)
    assert err.value.column == "petition.name"
    assert "must not be blank" in err.value.message


def test_a_file_that_cannot_be_read_is_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = tmp_path / "rates.csv"
    p.write_text("swis_code,rate_year,equalization_rate\n")

    def refused(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", refused)
    with pytest.raises(InputError) as err:
        read_bytes(p)
    assert err.value.message.endswith("cannot be read (Permission denied)")


def test_negative_zero_is_written_as_zero(tmp_path: Path) -> None:
    # -0.0 (a "-0" in an input, a negative figure rounded) reads as a minus sign
    write_csv(tmp_path / "x.csv", pd.DataFrame({"credit": [-0.0, 1.5, -2.0]}))
    assert (tmp_path / "x.csv").read_text() == "credit\n0.0\n1.5\n-2.0\n"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_results_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(InputError) as err:
        check_results_folder(tmp_path / "link")
    assert "is a symbolic link" in err.value.message


def test_a_territory_of_no_land_is_bad_input(tmp_path: Path) -> None:
    # three nearly collinear points: a valid ring of 5 x 1e-4 / 2 = 2.5e-4 sq ft
    root = tmp_path / "p"
    config = make_petition(root)
    x0, y0 = 700_000.0, 1_300_000.0
    sliver = Polygon([(x0, y0), (x0 + 5, y0), (x0 + 2, y0 + 1e-4)])
    gpd.GeoDataFrame(geometry=[sliver], crs="EPSG:2260").to_file(
        root / "territory.geojson", driver="GeoJSON"
    )
    proc = petition_run(str(config), "--out", str(tmp_path / "out"))
    assert proc.returncode == 2
    assert "the territory's area is" in proc.stderr and "no land" in proc.stderr


def test_overlapping_boundary_features_are_told() -> None:
    # features 1 and 2: [0,100]x[0,100] and [50,150]x[0,100] cover 50 x 100 =
    # 5,000 twice, 5,000 / 20,000 = 25 % of the territory; feature 3 only touches
    # feature 2 (an edge: no overlap)
    features = gpd.GeoSeries(
        [box(0, 0, 100, 100), box(50, 0, 150, 100), box(150, 0, 200, 100)], index=[1, 2, 3]
    )
    territory, notes = union_territory(features)
    assert territory.area == pytest.approx(20_000.0)  # 200 x 100
    assert notes == [
        "boundary features overlap (share of the territory's area): 1 and 2 by 25.0000 %. "
        "The territory is their union; check that the boundary file holds the proposed "
        "territory only once"
    ]


def test_the_outputs_of_a_clean_petition_hold_no_overlap_note(tmp_path: Path) -> None:
    config = make_petition(tmp_path / "p")
    proc = petition_run(str(config), "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert not any("overlap" in w for w in summary["warnings"])


def test_a_shared_edge_drawn_with_other_vertices_is_no_overlap() -> None:
    # two halves of a 1,000 x 1,000 square whose shared edge x = 500 is drawn
    # with an extra vertex pushed 0.01 ft east on one side: an overlap of
    # 1,000 x 0.01 / 2 = 5 sq ft, 5e-6 of the territory, under the 1e-5 told
    left = Polygon([(0, 0), (500, 0), (500.01, 500), (500, 1000), (0, 1000)])
    right = box(500, 0, 1000, 1000)
    _, notes = union_territory(gpd.GeoSeries([left, right], index=[1, 2]))
    assert notes == []


def test_a_json_wrapper_giving_its_list_twice_is_bad_input(tmp_path: Path) -> None:
    p = tmp_path / "roll.json"
    p.write_text(
        '{"data": [{"swis_code": "104489", "print_key_code": "1", "assessment_total": "5"}], '
        '"data": [{"swis_code": "104489", "print_key_code": "2", "assessment_total": "7"}]}'
    )
    with pytest.raises(InputError) as err:
        read_roll(p, town_swis="104400")
    assert "the key 'data' is given twice" in err.value.message


def test_a_parcel_key_not_in_utf8_names_its_feature(tmp_path: Path) -> None:
    p = tmp_path / "parcels.geojson"
    gpd.GeoDataFrame(
        {"SWIS": ["104489", "104489"], "PRINT_KEY": ["1.-1-1", "1.-1-U"]},
        geometry=[box(0, 0, 10, 10), box(10, 0, 20, 10)],
        crs="EPSG:2260",
    ).to_file(p, driver="GeoJSON")
    p.write_bytes(p.read_bytes().replace(b"1.-1-U", b"1.-1-\xfc"))
    with pytest.raises(InputError) as err:
        read_parcels(p, crs=None, working_crs="EPSG:2260")
    assert (err.value.feature, err.value.column) == (2, "PRINT_KEY")
    assert "not valid UTF-8" in err.value.message


def test_negative_zero_is_shown_as_zero_in_the_documents() -> None:
    assert (fraction(-0.0), dollars(-0.0), percent(-0.0)) == ("0.000000", "$0.00", "0.0000 %")
