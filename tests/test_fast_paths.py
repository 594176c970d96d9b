"""The vectorised paths give what the row-by-row rules give (issue 3: speed, same bytes)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pipeline.io.results import inert_text, write_csv
from pipeline.keys import parcel_key, schedule_keys
from pipeline.people.matching import MatchResult, Reference
from pipeline.people.names import normalize_name, normalize_names
from pipeline.people.placement import place_addresses, situs_addresses, situs_index
from pipeline.quality import data_quality
from pipeline.valuation import credit_signers


def test_write_csv_text_columns_made_inert(tmp_path: Path) -> None:
    frame = pd.DataFrame(
        {
            "text": pd.Series(["=SUM(A1)", "plain", None, "-3", "@x", "\tq"], dtype="str"),
            "n": [1, 2, 3, 4, 5, 6],
            "mixed": pd.Series(["+1", None, 3, "x", "-", "y"], dtype=object),
        }
    )
    write_csv(tmp_path / "t.csv", frame)
    # every text cell starting with = + - @ tab gets a leading '; numbers and blanks stay
    assert (tmp_path / "t.csv").read_text(encoding="utf-8") == (
        "text,n,mixed\n'=SUM(A1),1,'+1\nplain,2,\n,3,3\n'-3,4,x\n'@x,5,'-\n'\tq,6,y\n"
    )
    # the same cells as inert_text one by one
    assert [inert_text(v) for v in ["=SUM(A1)", "plain", "-3"]] == ["'=SUM(A1)", "plain", "'-3"]


def test_write_csv_makes_headers_inert_too(tmp_path: Path) -> None:
    # a batch's columns are the alternatives' names, which a user writes
    frame = pd.DataFrame({"metric": ["percent"], '=HYPERLINK("x")': [1.0], "@alt": [2.0]})
    write_csv(tmp_path / "b.csv", frame)
    header = (tmp_path / "b.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == 'metric,"\'=HYPERLINK(""x"")",\'@alt'
    assert list(frame.columns) == ["metric", '=HYPERLINK("x")', "@alt"]  # the frame unchanged


def test_write_csv_leaves_the_frame_alone(tmp_path: Path) -> None:
    frame = pd.DataFrame({"a": pd.Series(["=1"], dtype="str")})
    write_csv(tmp_path / "t.csv", frame)
    assert frame["a"].tolist() == ["=1"]


def _roll() -> pd.DataFrame:
    # 12 Oak St on parcel 1; 20 Elm Ave on parcels 3 and 4 (ambiguous); parcel 5 no situs;
    # parcel 1 twice (two records, one situs: counts once)
    return pd.DataFrame(
        {
            "parcel_key": ["104489|1", "104489|1", "104489|3", "104489|4", "104489|5"],
            "parcel_address_number": ["12", "12", "20", "20", ""],
            "parcel_address_street": ["Oak", "Oak", "Elm", "Elm", ""],
            "parcel_address_suff": ["Street", "St", "Ave", "Avenue", ""],
        }
    )


def test_situs_index_reduces_the_table_once() -> None:
    index = situs_index(situs_addresses(_roll()))
    assert index.size.to_dict() == {"12 OAK ST": 1, "20 ELM AVE": 2}
    assert index.parcel.to_dict() == {"12 OAK ST": "104489|1"}


def test_place_with_situs_index_equals_place_with_table() -> None:
    situs = situs_addresses(_roll())
    addresses = pd.Series(["12 Oak St Apt 2", "20 Elm Avenue", "", None, "9 Pine Rd", "12 OAK ST"])
    fractions = pd.Series({"104489|1": 0.5, "104489|3": 1.0})
    a = place_addresses(addresses, situs=situs, fractions=fractions, threshold=0.5)
    b = place_addresses(addresses, situs=situs_index(situs), fractions=fractions, threshold=0.5)
    pd.testing.assert_frame_equal(a, b)
    assert b["reason"].tolist() == ["", "ambiguous", "no_address", "no_address", "no_match", ""]
    # parcel 1 is exactly half inside: at the threshold counts inside
    assert b["inside"].tolist() == [True, False, False, False, False, True]


def test_normalize_names_equals_normalize_name() -> None:
    values = ["The Example Holdings, L.L.C.", None, "John A. Smith, Jr.", "", np.nan]
    names = pd.Series([*values, "John A. Smith, Jr."], dtype=object, index=[9, 8, 7, 6, 5, 4])
    got = normalize_names(names)
    assert got.index.tolist() == [9, 8, 7, 6, 5, 4]
    assert got.tolist() == [normalize_name(v) for v in names]
    assert got.tolist()[:3] == ["EXAMPLE HOLDINGS LLC", "", "JOHN A SMITH JR"]
    assert len(normalize_names(pd.Series([], dtype="str"))) == 0


def test_schedule_keys_as_parcel_key_row_by_row() -> None:
    swis = pd.Series(["104401", " 104401", "10440", "104401", None, "104401"], dtype="str")
    pks = pd.Series(["043.011-0001-002.000", "1.-1-1", "1-1-1", "", "1-1-1", None], dtype="str")
    expected = []
    for s, p in zip(swis.astype("str"), pks.astype("str"), strict=True):
        try:
            expected.append(parcel_key(s, p))
        except ValueError:
            expected.append(f"{s}|{p}")
    got = schedule_keys(swis, pks)
    assert got == expected
    assert got[0] == "104401|43.11-1-2"  # leading zeros of each part dropped
    assert got[2] == "10440|1-1-1"  # a 5-digit SWIS is no key: written as given


def test_data_quality_orphans_sorted_once() -> None:
    roll = pd.DataFrame({"parcel_key": ["A|1", "A|2"], "roll_section": [1, 1]})
    parcels = pd.DataFrame({"parcel_key": ["A|3", "A|1", "A|3", "A|0"]})
    q = data_quality(roll, parcels)
    # A|3 (twice) and A|0 have no roll record: two distinct keys, sorted
    assert q["polygons_without_roll"] == {"count": 2, "keys": ["A|0", "A|3"]}
    assert q["roll_without_polygon"]["keys_by_roll_section"] == {"1": ["A|2"]}


def test_credit_signers_reads_only_the_schedule_owners() -> None:
    schedule = pd.DataFrame(
        {
            "parcel_key": ["104401|1"],
            "swis_code": ["104401"],
            "print_key_code": ["1"],
            "apportioned_assessed": [90_000.0],
        }
    )
    owners = pd.DataFrame(
        {
            "parcel_key": ["104401|9", "104401|1", "104401|1", "104401|9"],
            "owner_index": [0, 0, 1, 1],
            "name": ["ZED RAY", "ANN LEE", "BOB LEE", "ZOE RAY"],
            "owner_count": [2, 2, 2, 2],
        }
    )
    matches = pd.DataFrame(
        {
            "page": [1, 1],
            "line": [1, 2],
            "status": ["counted", "counted"],
            "owner_keys": [(("104401|1", 0),), (("104401|9", 0),)],
            "match_score": [100.0, 100.0],
            "person_id": ["person:ANN LEE@104401|1", "person:ZED RAY@104401|9"],
        }
    )
    sched, lines = credit_signers(schedule, owners, matches)
    # parcel 1: Ann signs, 1 of 2 owners: 90,000 / 2 = 45,000
    assert sched["owners"].tolist() == ["ANN LEE; BOB LEE"]
    assert sched["owner_count"].tolist() == [2]
    assert sched["signing_owners"].tolist() == ["ANN LEE"]
    assert sched["signer_credit_assessed"].tolist() == pytest.approx([45_000.0])
    # parcel 9 is not in the territory's schedule: the line is outside it
    assert lines["status"].tolist() == ["counted", "outside_territory"]
    assert lines["credit_assessed"].tolist() == pytest.approx([45_000.0, 0.0])


def test_a_parcel_listed_with_fraction_0_is_not_in_the_territory_for_its_signer() -> None:
    # parcel 1 wholly inside (90,000); parcel 2 a sliver snapped to 0; parcel 3
    # a record without polygon or override (unmapped: placed nowhere, may be in)
    schedule = pd.DataFrame(
        {
            "parcel_key": ["104401|1", "104401|2", "104401|3"],
            "swis_code": ["104401"] * 3,
            "print_key_code": ["1", "2", "3"],
            "fraction_in_territory": [1.0, 0.0, 0.0],
            "fraction_source": ["geometry", "sliver", "unmapped"],
            "apportioned_assessed": [90_000.0, 0.0, 0.0],
        }
    )
    owners = pd.DataFrame(
        {
            "parcel_key": ["104401|1", "104401|2", "104401|3"],
            "owner_index": [0, 0, 0],
            "name": ["ANN LEE", "TOM LEE", "GAS CO"],
            "owner_count": [1, 1, 1],
        }
    )
    matches = pd.DataFrame(
        {
            "page": [1, 1, 1],
            "line": [1, 2, 3],
            "status": ["counted"] * 3,
            "owner_keys": [
                (("104401|1", 0), ("104401|2", 0)),
                (("104401|2", 0),),
                (("104401|3", 0),),
            ],
            "match_score": [100.0] * 3,
            "person_id": ["person:a", "person:b", "entity:c"],
        }
    )
    _, lines = credit_signers(schedule, owners, matches)
    # line 1: parcel 1 only is in the territory (90,000); line 2: its only parcel
    # is not; line 3: the unmapped record stays a counted line with 0 credit
    assert lines["status"].tolist() == ["counted", "outside_territory", "counted"]
    assert lines["matched_to"].tolist() == ["104401:1", "", "104401:3"]
    assert lines["credit_assessed"].tolist() == pytest.approx([90_000.0, 0.0, 0.0])


# ------------------------------------------- owner index (pipeline.people.matching), issue 3


def test_reference_identities_linked_transitively_by_shared_addresses() -> None:
    from pipeline.people.matching import Reference

    # three "John Smith" on parcels: 0 and 2 share A, 2 and 1 share B -> one
    # identity numbered 0 (its smallest reference); 3 at C alone -> 3; 4 is a
    # Jr at A (another suffix) -> 4; 5 "Jon Smith" at A (another first) -> 5
    a, b, c = ("1 A ST", "situs"), ("2 B ST", "mailing"), ("3 C ST", "situs")
    ref = Reference.build(
        ["John", "JOHN", "john", "John", "John", "Jon"],
        ["", "", "", "", "", ""],
        ["Smith", "SMITH", "Smith", "Smith", "Smith", "Smith"],
        ["", "", "", "", "Jr.", ""],
        [(a,), (b,), (a, b), (c,), (a,), (a,)],
        ["p0", "p1", "p2", "p3", "p4", "p5"],
        link_identities=True,
    )
    assert ref.identity == [0, 0, 0, 3, 4, 5]
    assert ref.members(0) == [0, 1, 2]
    assert ref.suffix[4] == "JR"


def test_reference_blocks_equal_the_rule_row_by_row() -> None:
    from pipeline.people.matching import Reference

    # a double surname is blocked under its compacted form and each part;
    # "JUNIOR" and "Jr." are one suffix key; middle names differing past the
    # initial share a name id
    ref = Reference.build(
        ["Ann", "Ann", "Bob", "Bob", None],  # type: ignore[list-item]
        ["Marie", "M.", "", "", ""],
        ["Van Alstyne", "VANALSTYNE", "Smith", "Smith", "Smith"],
        ["", "", "JUNIOR", "Jr.", ""],
        [(("1 A ST", "situs"),), (), (("1 A ST", "situs"),), (), ()],
        ["a", "b", "c", "d", "e"],
        link_identities=False,
    )
    assert sorted(ref.by_last_first) == [
        ("ALSTYNE", "ANN"),
        ("SMITH", "BOB"),
        ("VAN", "ANN"),
        ("VANALSTYNE", "ANN"),
    ]
    assert ref.by_last_first.get(("VANALSTYNE", "ANN")) == [0, 1]
    assert ref.by_last_first.get(("VAN", "ANN")) == [0]
    assert ref.by_fullname.get(("ANN", "VANALSTYNE")) == [0, 1]
    assert ref.by_address.get("1 A ST") == [0, 2]  # row 4 has no first name: unblocked
    ids = ref.name_ids()
    assert ids[2] == ids[3] and len(set(ids)) == 4  # (ANN, M, VAN ALSTYNE) != (ANN, M, VANALSTYNE)
    assert ref.identity == [0, 1, 2, 3, 4]


def test_owner_labels_first_record_wins() -> None:
    from pipeline.people.matching import _labels

    roll = pd.DataFrame(
        {
            "parcel_key": pd.Series(["k1", "k2", "k1", "k3"], dtype="str"),
            "swis_code": pd.Series(["104400", "", "999999", None], dtype="str"),
            "print_key_code": pd.Series(["1.-1-1", "", "9", "2"], dtype="str"),
        }
    )
    # k1: its first record; k2: both blank -> the key itself; k3: ":2"
    assert _labels(roll) == {"k1": "104400:1.-1-1", "k2": "k2", "k3": ":2"}


def test_owner_text_per_distinct_equals_the_row_rule() -> None:
    from pipeline.people.owners import _blank_distinct, _contains_distinct, _text, _text_distinct

    s = pd.Series(["  smith\tjr ", "SMITH  JR", None, "  smith\tjr ", "", " \n "], dtype="str")
    # upper case, runs of blanks -> one space, stripped; a missing value -> ""
    expected = ["SMITH JR", "SMITH JR", "", "SMITH JR", "", ""]
    assert _text_distinct(s).tolist() == expected == _text(s).tolist()
    assert str(_text_distinct(s).dtype) == str(_text(s).dtype)
    t = pd.Series([" a", "", "  ", "b ", "", "  "], dtype="str")
    assert _blank_distinct(t).tolist() == [False, True, True, False, True, True]
    u = pd.Series(["JONES ETAL", "JONES", "JONES ETAL", "ROE ET AL"], dtype="str")
    pattern = r"(?:^|[ ,])+(?:ET ?AL)(?:[ ,]+|$)"
    assert _contains_distinct(u, pattern).tolist() == [True, False, True, True]


def test_owner_name_kind_norm_per_tuple_equals_the_row_rule() -> None:
    from pipeline.people.owners import _join, _kind, _name_kind_norm

    idx = pd.Index([10, 11, 12, 13])
    first = pd.Series(["JOHN", "", "JOHN", "MARY"], dtype="str", index=idx)
    middle = pd.Series(["A", "", "A", ""], dtype="str", index=idx)
    last = pd.Series(["SMITH", "EXAMPLE HOLDINGS LLC", "SMITH", "ROE"], dtype="str", index=idx)
    suffix = pd.Series(["JR", "", "JR", ""], dtype="str", index=idx)
    name, kind, norm = _name_kind_norm(first, middle, last, suffix)
    # rows 10 and 12 are one tuple; an empty first name is an entity; the
    # empty middle of row 13 leaves one space: "MARY ROE"
    assert name.tolist() == [
        "JOHN A SMITH JR",
        "EXAMPLE HOLDINGS LLC",
        "JOHN A SMITH JR",
        "MARY ROE",
    ]
    assert kind.tolist() == ["person", "entity", "person", "person"]
    assert norm.tolist() == [
        "JOHN A SMITH JR",
        "EXAMPLE HOLDINGS LLC",
        "JOHN A SMITH JR",
        "MARY ROE",
    ]
    plain = _join(first, middle, last, suffix)
    assert name.equals(plain) and kind.equals(_kind(first, plain))
    assert list(name.index) == [10, 11, 12, 13]


def test_owner_rows_ordered_by_row_and_slot_as_sort_values() -> None:
    from pipeline.people.owners import _by_row_slot

    long = pd.DataFrame(
        {"_row": [2, 0, 2, 0, 1], "_slot": [0, 1, 1, 0, 0], "v": ["c0", "a1", "c1", "a0", "b0"]},
        index=[5, 6, 7, 8, 9],
    )
    got = _by_row_slot(long)
    # (0,0) a0, (0,1) a1, (1,0) b0, (2,0) c0, (2,1) c1
    assert got["v"].tolist() == ["a0", "a1", "b0", "c0", "c1"]
    assert list(got.index) == [8, 6, 9, 5, 7]
    assert got.equals(long.sort_values(["_row", "_slot"], kind="stable"))


def test_first_names_by_block_key_equal_the_pair_test() -> None:
    from pipeline.people.matching import Reference

    ref = Reference.build(
        ["William", "Bill", "Wanda", "Robert", "W", "Ann"],
        ["", "", "", "", "", ""],
        ["Smith"] * 6,
        [""] * 6,
        [()] * 6,
        ["a", "b", "c", "d", "e", "f"],
        link_identities=False,
    )
    # block keys: the name, its canonical forms and its initial. WANDA {WANDA, W}
    # shares W with W {W} and with WILLIAM {WILLIAM, BILL, ..., W}; ANN only ANN;
    # ZED none; the map lists every first name sharing a key, whether or not
    # it then passes the first-name test (WANDA/WILLIAM does not)
    for q in ("BILL", "W", "WANDA", "ANN", "ZED"):
        plain = sorted(fn for fn in ref.firsts_by_last["SMITH"] if _shares_key(q, fn))
        assert sorted(ref.firsts_sharing_key("SMITH", q)) == plain
    assert "WILLIAM" in ref.firsts_sharing_key("SMITH", "BILL")
    assert sorted(ref.firsts_sharing_key("SMITH", "WANDA")) == ["W", "WANDA", "WILLIAM"]
    assert ref.firsts_sharing_key("SMITH", "ANN") == ["ANN"]
    assert ref.firsts_sharing_key("SMITH", "ZED") == []
    assert ref.firsts_sharing_key("JONES", "ANN") == []


def _shares_key(q: str, fn: str) -> bool:
    from pipeline.people.names import first_name_keys

    return bool((first_name_keys(q) | {q[:1]}) & (first_name_keys(fn) | {fn[:1]}))


def _john_smith(ref: Reference, address: str, *, candidates_on_accept: bool = True) -> MatchResult:
    """``match_people`` of the written name JOHN SMITH (no suffix) at ``address``."""
    from pipeline.people.matching import match_people

    return match_people(
        ref,
        ("JOHN", "SMITH"),
        "",
        address,
        review_name_elsewhere=True,
        candidates_on_accept=candidates_on_accept,
    )


def test_match_people_without_candidates_on_accept_same_tier() -> None:
    from pipeline.people.matching import Reference

    ref = Reference.build(
        ["John", "John", "Mary"],
        ["", "", ""],
        ["Smith", "Smith", "Roe"],
        ["", "", ""],
        [(("12 OAK ST", "situs"),), (("9 ELM ST", "situs"),), (("12 OAK ST", "situs"),)],
        ["p1", "p2", "p3"],
        link_identities=False,
    )
    # JOHN SMITH at 12 OAK ST: reference 0 (name agrees, address same) -> accept;
    # without candidates on accept the tier, identity, score and note are the same
    full = _john_smith(ref, "12 OAK ST")
    lean = _john_smith(ref, "12 OAK ST", candidates_on_accept=False)
    assert (full.tier, full.identity, full.score) == ("accept", 0, 100.0)
    assert (lean.tier, lean.identity, lean.score, lean.note) == (
        full.tier,
        full.identity,
        full.score,
        full.note,
    )
    assert [c.ref for c in full.candidates] == [0, 1] and lean.candidates == ()
    # JOHN SMITH at 5 PINE ST: name found elsewhere -> review, candidates kept either way
    full = _john_smith(ref, "5 PINE ST")
    lean = _john_smith(ref, "5 PINE ST", candidates_on_accept=False)
    assert full == lean and full.tier == "review" and [c.ref for c in lean.candidates] == [0, 1]


def test_roll_addresses_reuse_the_placement_situs() -> None:
    from pipeline.people.matching import _roll_addresses, owner_references

    # parcel 1: situs "012 Oak Street" -> "12 OAK ST" (leading zero dropped,
    # Street -> ST), mailing "5 Elm Road" -> "5 ELM RD"; parcel 2: no situs,
    # mailing "7 Main Avenue" -> "7 MAIN AVE" only
    roll = pd.DataFrame(
        {
            "parcel_key": ["1", "2"],
            "parcel_address_number": ["012", ""],
            "parcel_address_street": ["Oak", ""],
            "parcel_address_suff": ["Street", ""],
            "mailing_address_number": ["5", "7"],
            "mailing_address_street": ["Elm", "Main"],
            "mailing_address_suff": ["Road", "Avenue"],
        }
    )
    situs = situs_addresses(roll)["address_norm"]
    assert situs.tolist() == ["12 OAK ST", ""]
    expected = {
        "1": (("12 OAK ST", "situs"), ("5 ELM RD", "mailing")),
        "2": (("7 MAIN AVE", "mailing"),),
    }
    assert _roll_addresses(roll) == expected
    assert _roll_addresses(roll, situs_norm=situs) == expected
    assert _roll_addresses(roll, situs_norm=["12 OAK ST", ""]) == expected
    owners = pd.DataFrame(
        {
            "parcel_key": ["1"],
            "owner_index": [0],
            "kind": ["person"],
            "name": ["SMITH JOHN"],
            "first": ["JOHN"],
            "middle": [""],
            "last": ["SMITH"],
            "suffix": [""],
        }
    )
    assert owner_references(owners, roll, situs_norm=situs).addresses == expected
    with pytest.raises(ValueError):
        _roll_addresses(roll, situs_norm=["12 OAK ST"])  # one address for two records


def test_match_people_close_address_tested_only_when_read() -> None:
    from pipeline.people.matching import Reference

    # written "12 OAK ST" (street "OAK ST"); ratio = 2 * common letters in order
    # / total length. Reference 0 John Smith at 12 OAK ST: same. Reference 1 at
    # 12 OAK AVE: house 12, "OAK ST"/"OAK AVE" share "OAK " -> 2*4/13 = 61.5 < 85,
    # not close. Reference 2 at 12 OAKS ST (mailing): "OAK ST"/"OAKS ST" share
    # "OAK ST" -> 2*6/13 = 92.3 >= 85, close
    ref = Reference.build(
        ["John", "John", "John"],
        ["", "", ""],
        ["Smith", "Smith", "Smith"],
        ["", "", ""],
        [(("12 OAK ST", "situs"),), (("12 OAK AVE", "situs"),), (("12 OAKS ST", "mailing"),)],
        ["p0", "p1", "p2"],
        link_identities=False,
    )
    # accept of reference 0 (same); with candidates the others show their agreement
    full = _john_smith(ref, "12 OAK ST")
    assert (full.tier, full.identity) == ("accept", 0)
    assert [(c.ref, c.address, c.address_kind) for c in full.candidates] == [
        (0, "same", "situs"),
        (1, "", ""),
        (2, "close", "mailing"),
    ]
    lean = _john_smith(ref, "12 OAK ST", candidates_on_accept=False)
    assert (lean.tier, lean.identity, lean.candidates) == ("accept", 0, ())
    # "12 OAKE ST" written: no one same; reference 0 ("OAK ST" vs "OAKE ST":
    # 2*6/13 = 92.3) and reference 2 ("OAKS ST" vs "OAKE ST": 2*6/14 = 85.7)
    # close -> review naming the first (p0)
    rev = _john_smith(ref, "12 OAKE ST", candidates_on_accept=False)
    assert rev.tier == "review" and rev.note.endswith("address close (p0)")
    assert [(c.ref, c.address) for c in rev.candidates] == [(0, "close"), (1, ""), (2, "close")]


def test_results_folder_gets_the_usual_permissions(tmp_path: Path) -> None:
    # mkdtemp would make it 0700; the results folder follows the umask like
    # any folder the user makes
    import os

    from pipeline.io.results import atomic_output_dir

    probe = tmp_path / "probe"
    probe.mkdir()
    with atomic_output_dir(tmp_path / "out") as tmp:
        (tmp / "a.txt").write_text("x")
    assert (tmp_path / "out").stat().st_mode & 0o777 == probe.stat().st_mode & 0o777
    assert os.listdir(tmp_path / "out") == ["a.txt"]


def test_what_a_killed_run_left_is_cleared_by_the_next(tmp_path: Path) -> None:
    # a run killed while writing leaves .out.partial-PID-* (results never
    # finished); one killed between its two renames leaves the earlier results
    # as .out.old-PID-* and no out. The next run clears the first and puts the
    # second back (then replaces it with its own); a running process's are kept
    import os
    import subprocess
    import sys

    from pipeline.io.results import _sweep_stale, atomic_output_dir

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    pid = int(dead.stdout)
    partial = tmp_path / f".out.partial-{pid}-aaaa"
    old = tmp_path / f".out.old-{pid}-bbbb"
    mine = tmp_path / f".out.partial-{os.getpid()}-cccc"  # this process: running
    for d in (partial, old, mine):
        d.mkdir()
    (old / "manifest.json").write_text("{}")
    _sweep_stale(tmp_path / "out", marker="manifest.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == [mine.name, "out"]
    assert (tmp_path / "out" / "manifest.json").read_text() == "{}"
    partial.mkdir()
    with atomic_output_dir(tmp_path / "out") as tmp:
        (tmp / "manifest.json").write_text('{"new": 1}')
    assert sorted(p.name for p in tmp_path.iterdir()) == [mine.name, "out"]
    assert (tmp_path / "out" / "manifest.json").read_text() == '{"new": 1}'


@pytest.mark.parametrize("stopped_at", [1, 2])
def test_a_run_stopped_between_its_two_renames_keeps_a_results_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stopped_at: int
) -> None:
    # audit A29 F1: SIGTERM (SystemExit) or Ctrl-C just after the earlier
    # results were moved aside (rename 1) left no results folder until the
    # next run; now they go back. Stopped just after the new ones are in
    # place (rename 2), the new ones stay. Nothing else is left beside it.
    from pipeline.io.results import atomic_output_dir

    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.json").write_text('{"old": 1}')
    real = Path.rename
    calls: list[int] = []

    def rename(self: Path, target: Path) -> Path:
        done = real(self, target)
        calls.append(1)
        if len(calls) == stopped_at:
            raise KeyboardInterrupt
        return done

    monkeypatch.setattr(Path, "rename", rename)
    with pytest.raises(KeyboardInterrupt), atomic_output_dir(out) as tmp:
        (tmp / "manifest.json").write_text('{"new": 1}')
    monkeypatch.setattr(Path, "rename", real)
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    kept = '{"old": 1}' if stopped_at == 1 else '{"new": 1}'
    assert (out / "manifest.json").read_text() == kept


def test_a_failed_run_leaves_no_folder_it_made(tmp_path: Path) -> None:
    # --out runs/new/c of a run that fails: runs/new (made for it) is removed
    # again; runs (there before) stays
    import pytest

    from pipeline.io.results import atomic_output_dir

    (tmp_path / "runs").mkdir()
    with pytest.raises(RuntimeError), atomic_output_dir(tmp_path / "runs" / "new" / "c"):
        raise RuntimeError("bad input found late")
    assert [p.name for p in tmp_path.iterdir()] == ["runs"]
    assert list((tmp_path / "runs").iterdir()) == []
