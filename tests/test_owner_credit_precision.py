"""No automatic owner credit that a careful assessor would not give.

The worst error in a sworn certification (§ 2-202.1.d) is value credited to
someone who does not own it. Each case here is a small roll worked by hand; a
line that the words alone cannot settle goes to review (``needs_review``,
credit 0) rather than being credited.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from test_matcher_rules import frames, person
from test_owners import make_roll

from pipeline.people.matching import owner_matcher, roll_lookups
from pipeline.people.owners import owner_counts, owner_quality, parse_owners


def _match(recs: list[dict[str, Any]], lines: list[dict[str, Any]], **kw: Any) -> pd.DataFrame:
    roll = make_roll(recs)
    sig, pages = frames(
        [{"page": 1, "line": i, **ln} for i, ln in enumerate(lines, 1)], [(1, "owners")]
    )
    return owner_matcher(sig, pages, parse_owners(roll), roll, **kw)


def test_father_and_son_sharing_an_address_are_two_people() -> None:
    # JOHN A SMITH lives at 12 Oak St (parcel 1, 100,000); his son JOHN B SMITH
    # owns a lot at 50 Elm St (parcel 2, 40,000) whose tax bill goes to 12 Oak St.
    # Different middle initials: two people, though they share an address.
    recs = [
        person("104401|1", "John", "A", "Smith", "12 Oak St", "12 Oak St"),
        person("104401|2", "John", "B", "Smith", "50 Elm St", "12 Oak St"),
    ]
    m = _match(recs, [{"name": "John A. Smith", "address": "12 Oak St"}])
    # the father is credited for his own parcel only (100,000, not 140,000)
    assert m["status"].tolist() == ["counted"]
    assert m["owner_keys"].tolist() == [(("104401|1", 0),)]
    # the son alone: his lot only
    m = _match(recs, [{"name": "John B. Smith", "address": "12 Oak St"}])
    assert m["owner_keys"].tolist() == [(("104401|2", 0),)]
    # "John Smith" at 12 Oak St could be either: review, no credit
    m = _match(recs, [{"name": "John Smith", "address": "12 Oak St"}])
    assert m["status"].tolist() == ["needs_review"]
    assert m["owner_keys"].tolist() == [()]


def test_a_name_without_middle_initial_joins_the_one_initial_at_its_address() -> None:
    # JOHN SMITH (parcel 1, no initial) and JOHN A SMITH (parcel 2) both at 12 Oak
    # St: one person written two ways, credited for both parcels.
    recs = [
        person("104401|1", "John", "", "Smith", "12 Oak St", "12 Oak St"),
        person("104401|2", "John", "A", "Smith", "40 Elm St", "12 Oak St"),
    ]
    m = _match(recs, [{"name": "John A. Smith", "address": "12 Oak St"}])
    assert m["status"].tolist() == ["counted"]
    assert m["owner_keys"].tolist() == [(("104401|1", 0), ("104401|2", 0))]


def test_a_name_without_initial_between_two_initials_joins_neither() -> None:
    # JOHN SMITH (parcel 3) shares 12 Oak St with JOHN A SMITH (parcel 1) and
    # 50 Elm St with JOHN B SMITH (parcel 2): linking him to both would make the
    # father and the son one person through him. He stays apart.
    recs = [
        person("104401|1", "John", "A", "Smith", "12 Oak St", "12 Oak St"),
        person("104401|2", "John", "B", "Smith", "50 Elm St", "50 Elm St"),
        person("104401|3", "John", "", "Smith", "12 Oak St", "50 Elm St"),
    ]
    m = _match(recs, [{"name": "John A. Smith", "address": "12 Oak St"}])
    # parcel 2 (the son's) is never credited to the father
    assert ("104401|2", 0) not in m["owner_keys"].iloc[0]


def test_co_owners_with_different_middle_initials_are_two_owners() -> None:
    # one parcel (100,000) owned by JOHN A SMITH and JOHN B SMITH: John A signs.
    # Two owners: he is credited 100,000 / 2 = 50,000 as one of them, not as both.
    rec = person("104401|1", "John", "A", "Smith", "12 Oak St", "12 Oak St")
    rec.update(additional_owner_1_first="John", additional_owner_1_mi="B")
    rec.update(additional_owner_1_last_name="Smith")
    m = _match([rec], [{"name": "John A. Smith", "address": "12 Oak St"}])
    assert m["owner_keys"].tolist() == [(("104401|1", 0),)]
    assert owner_counts(parse_owners(make_roll([rec]))).to_dict() == {"104401|1": 2}


def test_mrs_before_a_name_is_not_that_person() -> None:
    # "Mrs. John Smith" is, by custom, John Smith's wife: review, not his credit
    recs = [person("104401|1", "John", "", "Smith", "12 Oak St", "12 Oak St")]
    m = _match(recs, [{"name": "Mrs. John Smith", "address": "12 Oak St"}])
    assert m["status"].tolist() == ["needs_review"]
    assert m["owner_keys"].tolist() == [()]
    assert "Mrs." in m["note"].iloc[0]
    # a man's title changes nothing
    m = _match(recs, [{"name": "Mr. John Smith", "address": "12 Oak St"}])
    assert m["status"].tolist() == ["counted"]


def test_surnames_that_are_entity_words_are_people() -> None:
    # JOHN POWER and MARY CHURCH are people (a first name beside the surname):
    # they sign for themselves; nobody can sign "for" them as for an entity
    recs = [
        person("104401|1", "John", "", "Power", "14 Oak St", "14 Oak St"),
        person("104401|2", "Mary", "", "Church", "16 Oak St", "16 Oak St"),
        person("104401|3", "", "", "First Church Of Christ", "18 Oak St", "18 Oak St"),
    ]
    owners = parse_owners(make_roll(recs))
    assert owners["kind"].tolist() == ["person", "person", "entity"]
    m = _match(
        recs,
        [
            {"name": "John Power", "address": "14 Oak St"},
            {"name": "Susan Power", "address": "14 Oak St", "signing_for": "John Power"},
            {"name": "Mary Church", "address": "16 Oak St"},
        ],
    )
    assert m["status"].tolist() == ["counted", "not_owner", "counted"]


def test_a_care_of_name_in_an_owner_field_is_not_an_owner() -> None:
    # JOHN SMITH, with "C/O JANE DOE" in the first additional owner's last-name
    # field: one owner (he is credited the whole 100,000), Jane Doe is care-of
    rec = person("104401|1", "John", "", "Smith", "12 Oak St", "12 Oak St")
    rec.update(additional_owner_1_last_name="C/O JANE DOE")
    owners = parse_owners(make_roll([rec]))
    assert owners["name"].tolist() == ["JOHN SMITH"]
    assert owners["owner_count"].tolist() == [1]
    assert owners["care_of"].tolist() == ["JANE DOE"]
    # a record whose only owner field is care-of has no owner
    alone = person("104401|2", "", "", "C/O Jane Doe", "14 Oak St", "14 Oak St")
    assert parse_owners(make_roll([alone])).empty


def test_an_accept_written_for_another_line_is_not_applied() -> None:
    # the reviewer accepted parcel 1 (JANE SMITH) for page 1 line 1; the lines were
    # renumbered and line 1 is now John Smith, who owns nothing: JOHN is not JANE
    recs = [person("104401|1", "Jane", "", "Smith", "12 Oak St", "12 Oak St")]
    decisions = pd.DataFrame(
        [{"page": 1, "line": 1, "decision": "accept", "parcel_key": "104401|1"}]
    )
    m = _match(recs, [{"name": "John Smith", "address": "12 Oak St"}], decisions=decisions)
    assert m["status"].tolist() == ["needs_review"]
    assert m["owner_keys"].tolist() == [()]
    # a married name: the first name agrees, the reviewer's accept stands
    m = _match(recs, [{"name": "Jane Jones", "address": "12 Oak St"}], decisions=decisions)
    assert m["status"].tolist() == ["counted"]
    assert m["owner_keys"].tolist() == [(("104401|1", 0),)]


def _with_city(rec: dict[str, Any], city: str) -> dict[str, Any]:
    return {**rec, "mailing_address_city": city}


def test_a_street_address_in_another_city_is_another_home() -> None:
    # JOHN SMITH lives on his parcel 1 at 12 Main St, Harlow (100,000). Another
    # JOHN SMITH owns parcel 2 (50,000, no situs address), billed to 12 Main St,
    # Albany. A roll record whose mailing address is its situs (parcel 1, 3) shows
    # that Harlow's post office serves the town; Albany is away.
    recs = [
        _with_city(person("104401|1", "John", "", "Smith", "12 Main St", "12 Main St"), "Harlow"),
        _with_city(person("104401|2", "John", "", "Smith", "0 x x", "12 Main St"), "Albany"),
        _with_city(person("104401|3", "Mary", "", "Jones", "14 Main St", "14 Main St"), "Harlow"),
    ]
    recs[1].update(parcel_address_number="", parcel_address_street="", parcel_address_suff="")
    # the Harlow John Smith: his parcel only (100,000 of 250,000 = 40 %, not 60 %)
    m = _match(recs, [{"name": "John Smith", "address": "12 Main St", "town": "Harlow"}])
    assert m["status"].tolist() == ["counted"]
    assert m["owner_keys"].tolist() == [(("104401|1", 0),)]
    # the Albany John Smith, writing his Albany address: his parcel only
    m = _match(recs, [{"name": "John Smith", "address": "12 Main St", "town": "Albany, NY"}])
    assert m["owner_keys"].tolist() == [(("104401|2", 0),)]
    # both parcels now billed to 12 Main St, Albany (parcel 1 lies at 5 Elm St): a
    # John Smith living at 12 Main St in Harlow (a tenant, say) owns neither
    recs[0] = _with_city(
        person("104401|1", "John", "", "Smith", "5 Elm St", "12 Main St"), "Albany"
    )
    m = _match(recs, [{"name": "John Smith", "address": "12 Main St", "town": "Harlow"}])
    assert m["status"].tolist() == ["needs_review"]
    assert m["owner_keys"].tolist() == [()]


def test_a_name_written_for_an_entity_goes_to_review() -> None:
    # "John Smith for ABC Holdings LLC, member" with no signing_for: the line is
    # for the LLC, but its name column holds two names; not "not_owner" silently
    recs = [
        person("104401|1", "", "", "ABC Holdings LLC", "12 Oak St", "12 Oak St"),
        person("104401|2", "John", "", "Smith", "14 Oak St", "14 Oak St"),
    ]
    m = _match(recs, [{"name": "John Smith for ABC Holdings LLC, member", "address": "14 Oak St"}])
    assert m["status"].tolist() == ["needs_review"]
    assert m["owner_keys"].tolist() == [()]
    assert "signing_for" in m["note"].iloc[0]


def _co_owned(first: tuple[str, str], second: tuple[str, str]) -> dict[str, Any]:
    # one parcel at 10 Oak St owned by two people named first and second (first, mi)
    rec = person("104401|1", first[0], first[1], "Walton", "10 Oak St", "10 Oak St")
    rec.update(additional_owner_1_first=second[0], additional_owner_1_mi=second[1])
    rec.update(additional_owner_1_last_name="Walton")
    return rec


def test_co_owners_of_one_name_with_and_without_initial_are_two_owners() -> None:
    # LARS WALTON and LARS A WALTON own one parcel (100,000): the roll counts two
    # owners, so Lars A is credited 100,000 / 2 = 50,000: his own row only
    rec = _co_owned(("Lars", ""), ("Lars", "A"))
    m = _match([rec], [{"name": "Lars A Walton", "address": "10 Oak St"}])
    assert m["status"].tolist() == ["counted"]
    assert m["owner_keys"].tolist() == [(("104401|1", 1),)]
    # and no note calls his co-owner the same name "under another address"
    assert m["note"].tolist() == [""]


def test_co_owners_with_different_initials_both_sign() -> None:
    # GRETA J and GRETA B WALTON own one parcel; both sign: two owners, two lines
    # counted, each credited her own row (100,000 / 2 = 50,000 each), no duplicate
    rec = _co_owned(("Greta", "J"), ("Greta", "B"))
    m = _match(
        [rec],
        [
            {"name": "Greta J Walton", "address": "10 Oak St"},
            {"name": "Greta B Walton", "address": "10 Oak St"},
        ],
    )
    assert m["status"].tolist() == ["counted", "counted"]
    assert m["owner_keys"].tolist() == [(("104401|1", 0),), (("104401|1", 1),)]
    assert m["person_id"].nunique() == 2


def test_co_owners_of_exactly_one_name_are_two_owners() -> None:
    # JOHN WALTON twice on one parcel (father and son without Jr/Sr): two owners.
    # "John Walton" could be either: review; neither line is a duplicate of the other
    rec = _co_owned(("John", ""), ("John", ""))
    m = _match([rec], [{"name": "John Walton", "address": "10 Oak St"}])
    assert m["status"].tolist() == ["needs_review"]


def _accept(*lines: int, key: str = "104401|1") -> pd.DataFrame:
    return pd.DataFrame(
        [{"page": 1, "line": q, "decision": "accept", "parcel_key": key} for q in lines]
    )


def test_accepts_for_two_co_owners_of_one_name_credit_each_one_owner() -> None:
    # CAROL J and CAROL D WALTON own one parcel (100,000). Two lines "Carol
    # Walton", each accepted for it: two owners, 50,000 each, neither a duplicate
    rec = _co_owned(("Carol", "J"), ("Carol", "D"))
    lines = [{"name": "Carol Walton", "address": "10 Oak St"}] * 2
    m = _match([rec], lines, decisions=_accept(1, 2))
    assert m["status"].tolist() == ["counted", "counted"]
    assert m["owner_keys"].tolist() == [(("104401|1", 0),), (("104401|1", 1),)]
    # Carol D signs in full (matched by herself) and "Carol Walton" is accepted:
    # the accepted line is the other owner, Carol J (row 0)
    lines = [
        {"name": "Carol Walton", "address": "10 Oak St"},
        {"name": "Carol D Walton", "address": "10 Oak St"},
    ]
    m = _match([rec], lines, decisions=_accept(1))
    assert m["status"].tolist() == ["counted", "counted"]
    assert m["owner_keys"].tolist() == [(("104401|1", 0),), (("104401|1", 1),)]


def test_an_accepted_mrs_line_is_credited_as_the_wife() -> None:
    # JOHN E WALTON and MARY WALTON own one parcel; "Mrs. John Walton" is accepted
    # for it: she is Mary (row 1), and John's own line still counts (row 0)
    rec = _co_owned(("John", "E"), ("Mary", ""))
    lines = [
        {"name": "Mrs. John Walton", "address": "10 Oak St"},
        {"name": "John E Walton", "address": "10 Oak St"},
    ]
    m = _match([rec], lines, decisions=_accept(1))
    assert m["status"].tolist() == ["counted", "counted"]
    assert m["owner_keys"].tolist() == [(("104401|1", 1),), (("104401|1", 0),)]


def test_accepts_for_entities_written_close_or_after_for() -> None:
    # the review offers HUDSON VALLEY HOLDINGS LLC for "Hudson Vly Holdings LLC"
    # (close, not equal): accepting it applies. "Tom Reed for Oak Holdings LLC"
    # with no signing_for, accepted for the LLC's parcel, is credited to the LLC
    recs = [
        person("104401|1", "", "", "Hudson Valley Holdings LLC", "1 Oak St", "1 Oak St"),
        person("104401|2", "", "", "Oak Holdings LLC", "2 Oak St", "2 Oak St"),
    ]
    lines = [
        {"name": "Ann Officer", "address": "9 Elm St", "signing_for": "Hudson Vly Holdings LLC"},
        {"name": "Tom Reed for Oak Holdings LLC", "address": "9 Elm St"},
    ]
    m = _match(recs, lines)
    assert m["status"].tolist() == ["needs_review", "needs_review"]
    decisions = pd.concat([_accept(1), _accept(2, key="104401|2")], ignore_index=True)
    m = _match(recs, lines, decisions=decisions)
    assert m["status"].tolist() == ["counted", "counted"]
    assert m["owner_keys"].tolist() == [(("104401|1", 0),), (("104401|2", 0),)]


def test_a_rejected_candidate_leaves_the_review() -> None:
    # "John Smith" at 12 Oak St: JOHN A (parcel 1) and JOHN B SMITH (parcel 2) both
    # fit, so the line is reviewed; the reviewer rejects parcel 2: the line stays
    # in review with parcel 1 only, and its note says what was rejected
    recs = [
        person("104401|1", "John", "A", "Smith", "12 Oak St", "12 Oak St"),
        person("104401|2", "John", "B", "Smith", "50 Elm St", "12 Oak St"),
    ]
    reject = pd.DataFrame([{"page": 1, "line": 1, "decision": "reject", "parcel_key": "104401|2"}])
    m = _match(recs, [{"name": "John Smith", "address": "12 Oak St"}], decisions=reject)
    assert m["status"].tolist() == ["needs_review"]
    assert m["note"].iloc[0].startswith("rejected by match decision: 104401:2")
    assert [c["candidate"] for c in m["candidates"].iloc[0]] == ["104401:1"]


def test_given_names_that_are_entity_words_are_people() -> None:
    # an ownership override naming "Ida B Mercer; Dot Smith": two women, not an
    # industrial development agency and a department of transportation
    from pipeline.people.owners import parse_owner_text

    for text, order in (
        ("Ida B Mercer", "first_last"),
        ("MERCER IDA B", "last_first"),
        ("Dot Smith", "first_last"),
    ):
        assert [p.kind for p in parse_owner_text(text, order=order)] == ["person"]  # type: ignore[arg-type]
    assert [p.kind for p in parse_owner_text("Columbia County IDA", order="first_last")] == [
        "entity"
    ]


def test_wm_on_the_roll_is_william() -> None:
    # the roll writes WM A BROWN; "William Brown" at his address is sent to review
    # (an abbreviation, as a nickname), and a reviewer's accept applies
    recs = [person("104401|1", "Wm", "A", "Brown", "16 Oak St", "16 Oak St")]
    lines = [{"name": "William Brown", "address": "16 Oak St"}]
    m = _match(recs, lines)
    assert m["status"].tolist() == ["needs_review"]
    m = _match(recs, lines, decisions=_accept(1))
    assert m["status"].tolist() == ["counted"]


def test_a_town_written_that_is_a_city_away_but_not_at_that_address() -> None:
    # Valatie is no city of the towns the roll shows (only a lot is billed there,
    # at 50 Elm St): a line "12 Oak St, Valatie" is then read as a local address,
    # John Smith's home at 12 Oak St, not as one in a city away
    recs = [
        _with_city(person("104401|1", "John", "", "Smith", "12 Oak St", "12 Oak St"), "Harlow"),
        _with_city(person("104401|2", "Ann", "", "Lee", "50 Elm St", "9 Elm St"), "Valatie"),
    ]
    m = _match(recs, [{"name": "John Smith", "address": "12 Oak St", "town": "Valatie"}])
    assert m["status"].tolist() == ["counted"]
    assert m["owner_keys"].tolist() == [(("104401|1", 0),)]


def test_an_entitys_holding_is_told_by_its_address_in_a_city_away() -> None:
    # ACME LLC holds parcel 1 (billed to 100 Main St, Albany) and parcel 2
    # (billed to 5 Pine Rd, Boston): two holdings with no address in common. Its
    # officer writes 100 Main St, Albany: the holding billed there is credited
    acme = person("104401|1", "", "", "Acme LLC", "1 Oak St", "100 Main St")
    acme2 = person("104401|2", "", "", "Acme LLC", "2 Oak St", "5 Pine Rd")
    home = person("104401|3", "Mary", "", "Jones", "3 Oak St", "3 Oak St")
    recs = [_with_city(acme, "Albany"), _with_city(acme2, "Boston"), _with_city(home, "Harlow")]
    line = {"name": "Ann Officer", "address": "100 Main St", "town": "Albany"}
    m = _match(recs, [{**line, "signing_for": "Acme LLC"}])
    assert m["status"].tolist() == ["counted"]
    assert m["owner_keys"].tolist() == [(("104401|1", 0),)]


def test_an_entity_written_without_its_form_goes_to_review() -> None:
    # "Maple Holdings" signed for; the roll has MAPLE HOLDINGS LLC: not silently
    # not_owner, but a review offering the LLC (and an accept applies)
    recs = [person("104401|1", "", "", "Maple Holdings LLC", "1 Oak St", "1 Oak St")]
    line = {"name": "Ann Officer", "address": "9 Elm St", "signing_for": "Maple Holdings"}
    m = _match(recs, [line])
    assert m["status"].tolist() == ["needs_review"]
    assert [c["candidate_name"] for c in m["candidates"].iloc[0]] == ["MAPLE HOLDINGS LLC"]
    m = _match(recs, [line], decisions=_accept(1))
    assert m["status"].tolist() == ["counted"]


def test_a_middle_name_written_in_full_must_be_the_owners() -> None:
    # JOHN ALLEN SMITH owns 12 Oak St; "John Albert Smith" shares his initial,
    # not his middle name: review, no credit. "John Allen Smith" is he.
    recs = [person("104401|1", "John", "Allen", "Smith", "12 Oak St", "12 Oak St")]
    m = _match(recs, [{"name": "John Albert Smith", "address": "12 Oak St"}])
    assert m["status"].tolist() == ["needs_review"]
    assert m["owner_keys"].tolist() == [()]
    m = _match(recs, [{"name": "John Allen Smith", "address": "12 Oak St"}])
    assert m["owner_keys"].tolist() == [(("104401|1", 0),)]


def test_a_line_for_two_owners_is_reviewed() -> None:
    # JOHN A SMITH and MARY SMITH own 12 Oak St; "John and Mary Smith" on one
    # line is not John A. ("and" is no initial): review, no credit
    rec = person("104401|1", "John", "A", "Smith", "12 Oak St", "12 Oak St")
    rec.update(additional_owner_1_first="Mary", additional_owner_1_last_name="Smith")
    m = _match([rec], [{"name": "John and Mary Smith", "address": "12 Oak St"}])
    assert m["status"].tolist() == ["needs_review"]
    assert m["owner_keys"].tolist() == [()]


def test_a_middle_initial_written_into_the_first_name_field_is_the_initial() -> None:
    # the roll writes first name "JOHN A", middle initial blank: he is JOHN A
    # SMITH, so "John Allen Smith" (initial A) is credited, "John B. Smith" is not
    rec = person("104401|1", "John A", "", "Smith", "12 Oak St", "12 Oak St")
    m = _match([rec], [{"name": "John Allen Smith", "address": "12 Oak St"}])
    assert m["owner_keys"].tolist() == [(("104401|1", 0),)]
    m = _match([rec], [{"name": "John B. Smith", "address": "12 Oak St"}])
    assert m["owner_keys"].tolist() == [()]


def test_a_mailing_address_in_a_town_of_the_petition_is_local() -> None:
    # PETER QUINN owns parcel 1 at 4 Alpha St, billed to 1 Beta Rd, Birch, and
    # parcel 2 at 1 Beta Rd (no mailing address: he lives there). No record's
    # mailing address is its own situs, so the roll alone shows no local post
    # office; Birch is local because it is a town of the petition. One person
    # at one address: "Peter Quinn, 1 Beta Rd, Birch" owns both parcels.
    recs = [
        _with_city(person("104401|1", "Peter", "", "Quinn", "4 Alpha St", "1 Beta Rd"), "Birch"),
        person("104401|2", "Peter", "", "Quinn", "1 Beta Rd", "0 x x"),
    ]
    recs[1].update(mailing_address_number="", mailing_address_street="", mailing_address_suff="")
    roll = make_roll(recs)
    sig, pages = frames(
        [{"page": 1, "line": 1, "name": "Peter Quinn", "address": "1 Beta Rd", "town": "Birch"}],
        [(1, "owners")],
    )
    owners = parse_owners(roll)
    lookups = roll_lookups(roll, places=["Ashford", "Birch"])
    m = owner_matcher(sig, pages, owners, roll, lookups=lookups)
    assert m["status"].tolist() == ["counted"]
    assert m["owner_keys"].tolist() == [(("104401|1", 0), ("104401|2", 0))]
    # without the towns' names, 1 Beta Rd in Birch would be a city away, unlike
    # the situs 1 Beta Rd: two addresses, the line's (town Birch) that of parcel
    # 1, and parcel 2 only named in the note
    m = owner_matcher(sig, pages, owners, roll)
    assert m["owner_keys"].tolist() == [(("104401|1", 0),)]
    assert "104401:2" in m["note"].iloc[0]


def test_a_persons_name_in_the_last_name_field_goes_to_review() -> None:
    # ORPTS writes entities in the last-name field with no first name, so WALSH
    # DAVID R there is read as an entity (one owner, credited only through
    # signing_for). If it is David R. Walsh, a silent not_owner would lose his
    # parcel: his line goes to review, no credit, with the parcel as candidate.
    # "SMITH JOHN & MARY" the same: Mary Smith's line goes to review.
    recs = [
        person("104401|1", "", "", "WALSH DAVID R", "6 Oak St", "6 Oak St"),
        person("104401|2", "", "", "SMITH JOHN & MARY", "8 Oak St", "8 Oak St"),
        person("104401|3", "", "", "MAPLE HOLDINGS LLC", "9 Oak St", "9 Oak St"),
    ]
    lines = [
        {"name": "David R. Walsh", "address": "6 Oak St"},
        {"name": "Walsh David R", "address": "6 Oak St"},  # as the roll writes it
        {"name": "Mary Smith", "address": "8 Oak St"},
        {"name": "Peter Walsh", "address": "6 Oak St"},  # another Walsh
        {"name": "Maple Holdings", "address": "9 Oak St"},  # an entity's words
    ]
    m = _match(recs, lines)
    assert m["status"].tolist() == [
        "needs_review",
        "needs_review",
        "needs_review",
        "not_owner",
        "not_owner",
    ]
    assert m["owner_keys"].tolist() == [()] * 5
    assert "last-name field" in m["note"].iloc[0] and "ownership override" in m["note"].iloc[0]
    assert [c["candidate"] for c in m["candidates"].iloc[0]] == ["104401:1"]
    assert [c["candidate"] for c in m["candidates"].iloc[2]] == ["104401:2"]
    # the data-quality notes list both parcels (MAPLE HOLDINGS LLC has its word)
    quality = owner_quality(parse_owners(make_roll(recs)))
    assert quality["person_names_in_last_name_field"]["keys"] == ["104401|1", "104401|2"]


def test_a_review_note_does_not_depend_on_the_rolls_order() -> None:
    # MARY SMITH lives at 8 Oak St (parcel 1) and owns a lot at 40 Elm St billed
    # there (parcel 2). "Mary Smtih, 8 Oak St" is a typo for review; its note
    # names the parcel AT the address (her home, the situs), however the roll
    # is ordered
    recs = [
        person("104401|2", "Mary", "", "Smith", "40 Elm St", "8 Oak St"),
        person("104401|1", "Mary", "", "Smith", "8 Oak St", "8 Oak St"),
    ]
    line = [{"name": "Mary Smtih", "address": "8 Oak St"}]
    notes = [_match(order, line)["note"].iloc[0] for order in (recs, recs[::-1])]
    assert notes[0] == notes[1]
    assert "(104401:1)" in notes[0]


def test_a_life_tenant_is_a_person_not_an_estate() -> None:
    # "LIFE ESTATE" marks the life tenant, a person: not the estate of a
    # decedent (an entity credited only through signing_for). Written after the
    # surname, in the suffix field, or with the whole name in the last-name
    # field (read LAST FIRST), Alice White is the owner and is credited
    recs = [
        person("104401|1", "Alice", "", "White Life Estate", "6 Oak St", "6 Oak St"),
        person("104401|2", "Bea", "", "Stone", "7 Oak St", "7 Oak St"),
        person("104401|3", "", "", "GRAY CORA LIFE ESTATE", "8 Oak St", "8 Oak St"),
    ]
    recs[1]["primary_owner_suffix"] = "LIFE ESTATE"
    owners = parse_owners(make_roll(recs))
    assert owners[["kind", "first", "last", "role"]].values.tolist() == [
        ["person", "ALICE", "WHITE", "life tenant"],
        ["person", "BEA", "STONE", "life tenant"],
        ["person", "CORA", "GRAY", "life tenant"],
    ]
    lines = [
        {"name": "Alice White", "address": "6 Oak St"},
        {"name": "Bea Stone", "address": "7 Oak St"},
        {"name": "Cora Gray", "address": "8 Oak St"},
    ]
    m = _match(recs, lines)
    assert m["status"].tolist() == ["counted"] * 3


def test_an_estate_or_trust_by_its_named_agent() -> None:
    # GREEN PETER EST is the estate of Peter Green: "Estate of Peter Green" in
    # signing_for names it (credited, as any entity signed for by its name).
    # GREEN PAUL EXECUTOR and DOE JANE TRUSTEE name the executor and the trustee,
    # not the estate or the trust: Paul Green or Jane Doe signing (for a name the
    # roll does not write, or for no one) goes to review, never not_owner
    recs = [
        person("104401|1", "", "", "GREEN PETER EST", "6 Oak St", "6 Oak St"),
        person("104401|2", "", "", "GREEN PAUL EXECUTOR", "7 Oak St", "7 Oak St"),
        person("104401|3", "", "", "DOE JANE TRUSTEE", "8 Oak St", "8 Oak St"),
    ]
    lines = [
        {"name": "Paul Green", "address": "1 Elm St", "signing_for": "Estate of Peter Green"},
        {"name": "Paul Green", "address": "7 Oak St", "signing_for": "Estate of Paul Green Sr"},
        {"name": "Jane Doe", "address": "8 Oak St"},
        {"name": "Jane Doe", "address": "8 Oak St", "signing_for": "Doe Family Trust"},
        {"name": "John Roe", "address": "8 Oak St", "signing_for": "Roe Family Trust"},
    ]
    m = _match(recs, lines)
    assert m["status"].tolist() == [
        "counted",
        "needs_review",
        "needs_review",
        "needs_review",
        "not_owner",
    ]
    assert m["owner_keys"].tolist()[0] == (("104401|1", 0),)
    assert "executor of 'GREEN PAUL EXECUTOR'" in m["note"].iloc[1]
    assert "trustee of 'DOE JANE TRUSTEE'" in m["note"].iloc[2]
    assert [c["candidate"] for c in m["candidates"].iloc[3]] == ["104401:3"]


def test_an_override_naming_the_people_behind_a_roll_name() -> None:
    # the roll writes WALSH DAVID R in the last-name field (read as an entity);
    # the assessor's ownership override names the owner, as the roll writes
    # names (WALSH DAVID R, surname first: the roll's owner is WALSH...) or as
    # people do (David R Walsh): the same person, credited. A line still
    # written for the old name (signing_for "Walsh David R") is the signer's
    # own: review, not not_owner
    from pipeline.frames import OWNERSHIP_OVERRIDE_COLUMNS

    recs = [person("104401|1", "", "", "WALSH DAVID R", "6 Oak St", "6 Oak St")]
    roll = make_roll(recs)
    for written in ("WALSH DAVID R", "David R Walsh", "WALSH, DAVID R"):
        overrides = pd.DataFrame(
            [{"parcel_key": "104401|1", "owner_count": 1, "owners": written}]
        ).reindex(columns=list(OWNERSHIP_OVERRIDE_COLUMNS))
        owners = parse_owners(roll, overrides=overrides)
        assert owners[["kind", "first", "middle", "last"]].values.tolist() == [
            ["person", "DAVID", "R", "WALSH"]
        ]
    sig, pages = frames(
        [
            {"page": 1, "line": 1, "name": "David R. Walsh", "address": "6 Oak St"},
            {
                "page": 1,
                "line": 2,
                "name": "David R. Walsh",
                "address": "6 Oak St",
                "signing_for": "Walsh David R",
            },
        ],
        [(1, "owners")],
    )
    m = owner_matcher(sig, pages, owners, roll)
    assert m["status"].tolist() == ["counted", "needs_review"]
    assert "leave signing_for blank" in m["note"].iloc[1]


def test_one_street_address_in_two_towns_is_two_homes() -> None:
    # JOHN SMITH owns 3.-1-1 at 1 Pine St in Harlow (104400) and a JOHN SMITH
    # owns 4.-1-1 at 1 Pine St in Brinton (104600), billed to 9 Oak St. Two
    # streets of one name in two towns are two homes: "John Smith, 1 Pine St,
    # Harlow" owns the Harlow parcel only, "..., Brinton" the Brinton one only
    # (100,000 or 60,000, never 160,000); with no town written, neither is
    # known: review
    harlow = _with_city(
        person("104401|3.-1-1", "John", "", "Smith", "1 Pine St", "1 Pine St"), "Harlow"
    )
    brinton = _with_city(
        person("104601|4.-1-1", "John", "", "Smith", "1 Pine St", "9 Oak St"), "Brinton"
    )
    brinton.update(swis_code="104601", municipality_code="104600")
    recs = [harlow, brinton]
    roll = make_roll(recs)
    owners = parse_owners(roll)
    lookups = roll_lookups(roll, places={"Harlow": "104400", "Brinton": "104600"})
    got = []
    for town in ("Harlow", "Town of Brinton", ""):
        sig, pages = frames(
            [{"page": 1, "line": 1, "name": "John Smith", "address": "1 Pine St", "town": town}],
            [(1, "owners")],
        )
        m = owner_matcher(sig, pages, owners, roll, lookups=lookups)
        got.append((m["status"].iloc[0], m["owner_keys"].iloc[0]))
    assert got == [
        ("counted", (("104401|3.-1-1", 0),)),
        ("counted", (("104601|4.-1-1", 0),)),
        ("needs_review", ()),
    ]


def test_an_override_is_read_first_name_first_but_for_a_lone_initial() -> None:
    # the assessor's override names the new owners after a sale. "Grant Kelly"
    # bought KELLY GRANT's parcel, "James Smith" ROBERT JAMES's: first name
    # first, whatever the seller's surname. "SMITH JOHN R" ends in a lone
    # initial (no surname is one letter): the roll's order, John R. Smith.
    # "SMITH MARY" could be either: read first name first, and Mary Smith's
    # line at that address goes to review, not silently not_owner
    from pipeline.frames import OWNERSHIP_OVERRIDE_COLUMNS

    recs = [
        person("104401|1", "Kelly", "", "Grant", "1 Oak St", "1 Oak St"),
        person("104401|2", "Robert", "", "James", "2 Oak St", "2 Oak St"),
        person("104401|3", "Ann", "", "Smith", "3 Oak St", "3 Oak St"),
    ]
    roll = make_roll(recs)
    overrides = pd.DataFrame(
        [
            {"parcel_key": "104401|1", "owner_count": 1, "owners": "Grant Kelly"},
            {"parcel_key": "104401|2", "owner_count": 1, "owners": "James Smith"},
            {"parcel_key": "104401|3", "owner_count": 2, "owners": "SMITH JOHN R; SMITH MARY"},
        ]
    ).reindex(columns=list(OWNERSHIP_OVERRIDE_COLUMNS))
    owners = parse_owners(roll, overrides=overrides)
    assert owners[["first", "middle", "last"]].values.tolist() == [
        ["GRANT", "", "KELLY"],
        ["JAMES", "", "SMITH"],
        ["JOHN", "R", "SMITH"],
        ["SMITH", "", "MARY"],
    ]
    # the initial of the first person of a joint name, before a suffix: the same
    joint = overrides.assign(owners=["WALSH DAVID R JR", "WALSH DAVID R & MARY", "x"])[:2]
    assert parse_owners(roll, overrides=joint)[["first", "last", "suffix"]].values.tolist() == [
        ["DAVID", "WALSH", "JR"],
        ["DAVID", "WALSH", ""],
        ["MARY", "WALSH", ""],
        ["ANN", "SMITH", ""],  # parcel 3, not overridden here
    ]
    lines = [
        ("Grant Kelly", "1 Oak St"),
        ("Kelly Grant", "1 Oak St"),  # the seller
        ("James Smith", "2 Oak St"),
        ("John R. Smith", "3 Oak St"),
        ("Mary Smith", "3 Oak St"),
    ]
    sig, pages = frames(
        [{"page": 1, "line": i, "name": n, "address": a} for i, (n, a) in enumerate(lines, 1)],
        [(1, "owners")],
    )
    m = owner_matcher(sig, pages, owners, roll)
    assert m["status"].tolist() == [
        "counted",
        "needs_review",  # the words of the owner's name, in another order: no credit
        "counted",
        "counted",
        "needs_review",
    ]
    assert m["owner_keys"].tolist()[1] == ()
    assert "another order" in m["note"].iloc[4]


def test_a_trustee_beside_the_trust_is_no_second_owner() -> None:
    # DOE FAMILY TRUST with JANE DOE, suffix TRUSTEE, in the next slot: the trust
    # is the one owner (an entity is one owner), so "Doe Family Trust" signed
    # for is credited the whole parcel, not half; Jane Doe signing with no
    # signing_for goes to review
    rec = person("104401|1", "", "", "DOE FAMILY TRUST", "4 Oak St", "4 Oak St")
    rec.update(
        additional_owner_1_first="Jane",
        additional_owner_1_last_name="Doe",
        additional_owner_1_suffix="TRUSTEE",
    )
    owners = parse_owners(make_roll([rec]))
    assert owners[["name", "owner_count", "agent"]].values.tolist() == [
        ["DOE FAMILY TRUST", 1, "JANE DOE"]
    ]
    for written in ("Doe Co Trustee", "Doe Tr", "Doe Ttee"):  # the same, abbreviated
        other = {**rec, "additional_owner_1_last_name": written, "additional_owner_1_suffix": ""}
        got = parse_owners(make_roll([other]))[["owner_count", "agent"]].values.tolist()
        assert got == [[1, "JANE DOE"]]
    m = _match(
        [rec],
        [
            {"name": "Jane Doe", "address": "4 Oak St", "signing_for": "Doe Family Trust"},
            {"name": "Jane Doe", "address": "4 Oak St"},
        ],
    )
    assert m["status"].tolist() == ["counted", "needs_review"]


def test_a_life_estate_marker_in_a_slot_of_its_own_is_no_owner() -> None:
    # ALICE WHITE, then a slot holding only LIFE ESTATE, then BOB WHITE: two
    # owners (Alice the life tenant), not three with a blank one
    rec = person("104401|1", "Alice", "", "White", "1 Oak St", "1 Oak St")
    rec.update(additional_owner_1_last_name="LIFE ESTATE")
    rec.update(additional_owner_2_first="Bob", additional_owner_2_last_name="White")
    owners = parse_owners(make_roll([rec]))
    assert owners[["name", "owner_count", "role"]].values.tolist() == [
        ["ALICE WHITE", 2, "life tenant"],
        ["BOB WHITE", 2, ""],
    ]


def test_a_postal_city_does_not_join_two_towns_homes() -> None:
    # 1 Pine St in Harlow (JOHN SMITH, billed there, post office Valatie) and 1
    # Pine St in Brinton (JOHN SMITH, billed there, post office Chatham): each
    # billed to his own home. Neither city is a town of the petition, yet each
    # mailing address is the record's own situs: two homes, two people
    harlow = _with_city(
        person("104401|1", "John", "", "Smith", "1 Pine St", "1 Pine St"), "Valatie"
    )
    brinton = _with_city(
        person("104601|1", "John", "", "Smith", "1 Pine St", "1 Pine St"), "Chatham"
    )
    brinton.update(swis_code="104601", municipality_code="104600")
    roll = make_roll([harlow, brinton])
    sig, pages = frames(
        [{"page": 1, "line": 1, "name": "John Smith", "address": "1 Pine St", "town": "Harlow"}],
        [(1, "owners")],
    )
    lookups = roll_lookups(roll, places={"Harlow": "104400", "Brinton": "104600"})
    m = owner_matcher(sig, pages, parse_owners(roll), roll, lookups=lookups)
    assert m["owner_keys"].tolist() == [(("104401|1", 0),)]
