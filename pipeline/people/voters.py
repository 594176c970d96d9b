"""The resident test (§ 2-202.1.a(1)): signers on resident pages against the voter file.

Denominator: the *qualified voters* of the territory, i.e. registered voters
whose status *as of the filing date* (:func:`status_at_filing`) is one the
policy counts (default: active and inactive; purged ``P`` and pre-registered
``17`` do not count, nor a voter registered after the filing date, while one
purged after it does) **and** whose residence is placed inside the territory
(:func:`pipeline.people.placement.place_addresses`).

Numerator: the distinct signers of resident pages who match a qualified voter.

Matching in this first form is exact, never guessed:

* the signer's name and the voter's name are normalised with
  :func:`pipeline.people.names.normalize_name` (``"Smith, John A."`` is read
  as ``"John A. Smith"``); the generational suffix is split off;
* the name matches when it equals ``FIRST LAST``, ``FIRST M LAST`` (middle
  initial) or ``FIRST MIDDLE LAST`` of the voter: a middle name or initial may
  be written or not, but when written it must agree with the voter file;
* suffixes agree when equal or when either side has none; when the signer
  wrote a suffix, a candidate with that suffix is preferred over one without
  (``John Smith Jr`` against a father and a son at one address picks the son,
  while ``John Smith`` against the two is ambiguous);
* the signer's address, normalised like the voter's residence address
  (:func:`voter_addresses`), must be equal (units are ignored on both sides);
* a line whose name and address fit several voters is ``needs_review``; a line
  that fits only after dropping a written middle name that the voter file does
  not record is also ``needs_review`` (score 90), never counted automatically;
  so is a line whose exact name is a voter's registered at another address
  (moved within the territory, or a namesake: a person decides).

Line statuses (the contract's ``signatures.csv``): ``counted``,
``duplicate`` (a person already counted on an earlier line; lines are taken in
page/line order), ``not_qualified_voter`` (no match, or the voter's status is
not counted), ``outside_territory`` (the voter's residence is placed outside),
``needs_review`` (ambiguous, loose match, or the voter's residence cannot be
placed), ``page_defect`` (a line without a name or without an address,
§ 2-202.1.e(3)).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pipeline.frames import PARCEL_KEY
from pipeline.law.checks import unauthenticated_lines
from pipeline.law.deficiency import Deficiency, deficiency_for
from pipeline.law.regimes import Regime
from pipeline.people.names import (
    NAME_SUFFIXES,
    address_unit,
    normalize_name,
    person_name_parts,
    reorder_comma,
    split_name_suffix,
    spouse_style_title,
)
from pipeline.people.placement import (
    REASON_OTHER_CITY,
    REASON_OTHER_TOWN,
    REASON_TOWN_DIFFERS,
    normalize_addresses,
    town_codes,
)
from pipeline.tools.numbers import percent_text

__all__ = [
    "LINE_COLUMNS",
    "RESIDENT_MATCH_COLUMNS",
    "VoterTowns",
    "counted_status",
    "current_registrations",
    "match_resident_lines",
    "qualified_voters",
    "resident_decisions_not_applied",
    "resident_test",
    "signer_name_key",
    "status_at_filing",
    "voter_addresses",
]

#: Columns of the per-line frame returned by :func:`resident_test`.
LINE_COLUMNS: tuple[str, ...] = (
    "page",
    "line",
    "name",
    "basis",
    "status",
    "matched_to",  # the voter's SBOEID, "" when none
    "match_score",  # 100 exact, 90 loose (review), 0 no match
    "person_id",  # "voter:<SBOEID>" or "signer:<name>@<address>"
    "note",
)

#: Columns of :func:`match_resident_lines`, the territory-free part of the test.
RESIDENT_MATCH_COLUMNS: tuple[str, ...] = (
    "name_key",  # the signer's name key, suffix split off (signer_name_key)
    "s_suffix",  # the signer's generational suffix, "" when none
    "address_norm",  # the written address, normalised
    "voter_row",  # the voter file's index label of the voter matched, NaN when none
    "score",  # the matcher's score
    "note",  # the matcher's note
    "ambiguous",  # the candidate SBOEIDs of a line to review, ";"-joined
    "candidates",  # the evidence of each candidate (a tuple of dicts), None when none
)

_ADDRESS_PARTS = ("RADDNUMBER", "RHALFCODE", "RPREDIRECTION", "RSTREETNAME", "RPOSTDIRECTION")

SCORE_EXACT = 100.0


def _text(values: pd.Series) -> pd.Series:
    return values.astype("object").where(values.notna(), "").astype(str).str.strip()


def _col(frame: pd.DataFrame, name: str) -> pd.Series:
    if name in frame.columns:
        return _text(frame[name])
    return pd.Series("", index=frame.index, dtype=str)


def registrants(voters: pd.DataFrame) -> pd.Series:
    """The person of each registration: ``REGISTRANT`` (the reader's), else the ``SBOEID``.

    Two registrations of one name and date of birth share the SBOEID of the
    first (:func:`pipeline.io.read_voters`): the resident test counts that
    person once among the qualified voters and once among the signers.
    """
    reg = _col(voters, "REGISTRANT")
    sboeid = _col(voters, "SBOEID")
    return reg.where(reg != "", sboeid)


def voter_addresses(voters: pd.DataFrame) -> pd.Series:
    """The residence address text of each voter (number, half, directions, street).

    Parameters
    ----------
    voters
        Voter frame (:data:`pipeline.frames.VOTER_COLUMNS`).

    Returns
    -------
    pandas.Series
        ``"RADDNUMBER RHALFCODE RPREDIRECTION RSTREETNAME RPOSTDIRECTION"``
        with blanks skipped, e.g. ``"12 1/2 N MAIN ST"``, on the voters' index.
        The apartment (``RAPARTMENTTYPE``/``RAPARTMENT``) is left out: every
        unit of a house is placed on the house's parcel. When number and
        street are both blank the non-standard address ``RADDRNONSTD`` is used;
        with a number and no street, the number and ``RADDRNONSTD``.
    """
    parts = [_col(voters, c) for c in _ADDRESS_PARTS]
    joined = parts[0]
    for p in parts[1:]:
        joined = joined.str.cat(p, sep=" ")
    joined = joined.str.replace(r"\s+", " ", regex=True).str.strip()
    nonstd = _col(voters, "RADDRNONSTD")
    # no street name: the non-standard address is the residence (after the
    # house number, where it does not begin with one: audit A39 F9)
    use_nonstd = (parts[3] == "") & (nonstd != "")
    numbered = nonstd.str.match(r"[0-9]") | (parts[0] == "")
    with_number = (parts[0] + " " + nonstd).str.strip()
    return joined.where(~use_nonstd, nonstd.where(numbered, with_number)).astype(str)


def _map_unique(values: pd.Series, func: Callable[[str], Any]) -> pd.Series:
    """``values.map(func)``, calling ``func`` once per distinct value."""
    uniques = pd.unique(values.to_numpy())
    return values.map({u: func(u) for u in uniques})


def _statuses(statuses: Collection[str]) -> set[str]:
    return {str(s).strip().upper() for s in statuses}


#: The status of a voter not yet registered on the filing date (:func:`status_at_filing`).
NOT_REGISTERED = ""

#: The BOE status of a pre-registered voter (under 18): no qualified voter.
PRE_REGISTERED = "17"


def status_at_filing(voters: pd.DataFrame, filed_on: dt.date | None) -> pd.Series:
    """Each voter's BOE status as of the filing date, upper case.

    Parameters
    ----------
    voters
        Voter frame (:data:`pipeline.frames.VOTER_COLUMNS`): ``STATUS`` and the
        ISO dates ``REGDATE``, ``INACT_DATE``, ``PURGE_DATE`` (``""`` when
        blank, or the column absent: the status as written then stands).
    filed_on
        The filing date; None: the status as written.

    Returns
    -------
    pandas.Series
        On the voters' index: ``""`` (:data:`NOT_REGISTERED`) for a voter
        registered after the filing date (not a qualified voter when the
        petition was filed, § 2-202.1.a(1)); ``17`` (pre-registered) for one
        under 18 that day (``MINOR_ON_FILING``, read from the date of birth),
        whatever a file extracted later shows; for a voter purged (``P``) after
        it, the status they then had: ``I`` when made inactive on or before
        the filing date, else ``A``; for one made inactive (``I``) after it,
        ``A``; else ``STATUS`` as written. A voter file is often extracted
        after the filing: these dates put it back to the day of filing. A
        ``REGDATE`` after the filing does not count where the file shows the
        voter voting on or before it (``VOTED_BY``): a re-registration.
    """
    status = _col(voters, "STATUS").str.upper()
    if filed_on is None:
        return status
    day = filed_on.isoformat()
    reg, inact, purge = (_col(voters, c) for c in ("REGDATE", "INACT_DATE", "PURGE_DATE"))
    # ISO text compares as the dates do; a blank date is no later than any day
    purged_later = (status == "P") & (purge > day)
    inactive_then = (inact != "") & (inact <= day)
    inactive_later = (status == "I") & (inact > day)
    then = pd.Series(np.where(inactive_then, "I", "A"), index=status.index, dtype=str)
    out = status.where(~purged_later, then)
    out = out.where(~inactive_later, "A")
    # a later REGDATE (a re-registration, a DMV update) does not undo votes
    # cast before the filing: such a voter was registered then
    voted = _col(voters, "VOTED_BY")
    registered_later = (reg > day) & ~((voted != "") & (voted <= day))
    # under 18 that day (the date of birth read, MINOR_ON_FILING): pre-registered
    minor = _col(voters, "MINOR_ON_FILING") == "1"
    out = out.where(~minor, PRE_REGISTERED)
    return out.where(~registered_later, NOT_REGISTERED)


def counted_status(
    voters: pd.DataFrame, *, statuses: Collection[str], filed_on: dt.date | None
) -> pd.Series:
    """True where the voter's status as of the filing date is one the policy counts.

    :func:`status_at_filing` in ``statuses`` (``policy.voter_statuses``), on
    the voters' index.
    """
    return status_at_filing(voters, filed_on).isin(_statuses(statuses))


def current_registrations(
    voters: pd.DataFrame, *, statuses: Collection[str], filed_on: dt.date | None
) -> pd.Series:
    """True for each registration that is its person's current one on the filing date.

    Parameters
    ----------
    voters
        Voter frame (:data:`pipeline.frames.VOTER_COLUMNS`; the person of each
        registration is :func:`registrants`).
    statuses
        Voter statuses the policy counts.
    filed_on
        The filing date (:func:`counted_status`).

    Returns
    -------
    pandas.Series
        Boolean, on the voters' index: false for a registration of an uncounted
        status, and for one of a person who has a later registration of a
        counted status (a stale registration at an old address).

    Notes
    -----
    Among a person's registrations of a counted status on the filing date, the
    current ones are those of the latest ``REGDATE`` (ISO text). Where two share
    it, or one has none (or one after the filing date: a re-registration that
    counts on the filing date had another date then), which is current cannot
    be told: all of them are (the person counts once, inside where any of them
    is; their lines go to review where the addresses differ).
    """
    ok = counted_status(voters, statuses=statuses, filed_on=filed_on)
    person = registrants(voters)
    several = person.duplicated(keep=False) & ok
    several &= person.where(several).duplicated(keep=False)
    if not several.any():
        return ok
    reg = _col(voters, "REGDATE")[several]
    if filed_on is not None:
        # a registration dated after the filing that counts then (votes cast
        # before it: a re-registration) had another, unknown, date on that day
        reg = reg.where(reg <= filed_on.isoformat(), "")
    who = person[several]
    undated = (reg == "").groupby(who).transform("any").astype(bool)
    stale = (reg != reg.groupby(who).transform("max")) & ~undated
    return ok & ~stale.reindex(voters.index, fill_value=False)


#: What a BOE status the policy may leave out means, for a line's note.
_STATUS_WORDS = {
    "P": "purged",
    "17": "pre-registered, under 18",
    "I": "inactive",
    "A": "active",
}


def _why_not_counted(
    note: pd.Series,
    status: pd.Series,
    matched: pd.Series,
    v_status: pd.Series,
    rows: pd.Series,
    placement: pd.DataFrame,
    labels: Mapping[str, str],
) -> pd.Series:
    """``note`` with the reason filled in where a line not counted has none.

    A line matched to no voter; a voter of a status the policy does not count
    on the filing date; a voter whose residence lies outside the territory
    (its parcel and the parcel's fraction in it).
    """
    text = note.fillna("").astype(str)
    blank = text == ""
    out = note.copy()
    # a line a decision accepted says so, and why it does not count all the same
    decided = text.str.startswith("accepted by match decision") & (status != "counted")
    blank = blank | decided
    nobody = blank & (status == "not_qualified_voter") & ~matched
    out[nobody] = "no voter of this name is registered at this address (voter file)"
    uncounted = blank & (status == "not_qualified_voter") & matched
    for i in uncounted[uncounted].index:
        code = str(v_status.loc[i])
        words = _STATUS_WORDS.get(code)
        shown = f"{code} ({words})" if words else code
        out.loc[i] = (
            f"the voter's status on the filing date is {shown}, which the policy does not "
            "count ([policy] voter_statuses)"
        )
    outside = blank & (status == "outside_territory") & matched
    if outside.any():
        at = rows.reindex(outside[outside].index)
        key = [
            labels.get(k, k)
            for k in placement[PARCEL_KEY].reindex(at.to_numpy()).astype("str").tolist()
        ]
        fraction = placement["fraction"].reindex(at.to_numpy()).astype("float64").to_numpy()
        out.loc[at.index] = [
            f"the voter's residence is on parcel {k}, {f:.6g} of it in the territory: "
            "outside (under the straddle threshold, [policy] straddle_voter_threshold)"
            if f > 0
            else f"the voter's residence is on parcel {k}, outside the territory"
            for k, f in zip(key, fraction, strict=True)
        ]
    changed = decided & (out.astype(str) != text)
    out[changed] = text[changed] + "; " + out[changed].astype(str)
    return out


def _current_rows(voters: pd.DataFrame, current: pd.Series) -> pd.Series:
    """Person (:func:`registrants`) -> the first current registration's row label."""
    person = registrants(voters)
    now = person[current].drop_duplicates(keep="first")
    return pd.Series(now.index, index=now.to_numpy())


def _judge_by_current(
    voters: pd.DataFrame,
    voter_row: pd.Series,
    note: pd.Series,
    accepted: pd.Series,
    current: pd.Series,
    statuses: Collection[str],
    filed_on: dt.date | None,
) -> None:
    """Point accepted lines at a stale registration to the person's current one (in place)."""
    counted = counted_status(voters, statuses=statuses, filed_on=filed_on)
    person = registrants(voters)
    sboeid = _col(voters, "SBOEID")
    now_row = _current_rows(voters, current)
    for idx in accepted[accepted].index:
        row = voter_row.loc[idx]
        if pd.isna(row) or not counted.loc[row] or current.loc[row]:
            continue
        later = now_row.get(person.loc[row])
        if later is None:
            continue
        voter_row.loc[idx] = later
        note.loc[idx] = (
            f"accepted by match decision: SBOEID {sboeid.loc[row]} is an older registration "
            f"of a voter registered again later; the line is judged by the current one "
            f"(SBOEID {sboeid.loc[later]})"
        )


def _several_current(voters: pd.DataFrame, current: pd.Series) -> set[str]:
    """The people (:func:`registrants`) with several current registrations."""
    person = registrants(voters)[current]
    return set(person[person.duplicated(keep=False)].astype(str))


def _several_notes(voters: pd.DataFrame, rows: pd.Series, current: pd.Series) -> pd.Series:
    """Why a line at a registration outside counts: another current one is inside.

    ``rows``: line -> voter row, for the lines of people of several current
    registrations (:func:`current_registrations`) counted through another.
    """
    person = registrants(voters)
    sboeid = _col(voters, "SBOEID")
    regdate = _col(voters, "REGDATE")
    out = {}
    for line, row in rows.items():
        same = person.index[(person == person.loc[row]) & current]
        places = "; ".join(
            f"SBOEID {sboeid.loc[r]} at {voter_addresses(voters.loc[[r]]).iloc[0]}, registered "
            f"{regdate.loc[r] or 'on no date given'}"
            for r in same
        )
        out[line] = (
            f"the voter is registered at several addresses ({places}) whose dates do not tell "
            "which is current, one in the territory: a resident, as among the qualified voters"
        )
    return pd.Series(out, dtype="object")


def _stale_notes(voters: pd.DataFrame, rows: pd.Series, current: pd.Series) -> pd.Series:
    """The note of each line matched (``rows``: line -> voter row) to a stale registration.

    Names the registration matched and the person's current one
    (:func:`current_registrations`; the first in the file where several are).
    """
    person = registrants(voters)
    sboeid = _col(voters, "SBOEID")
    regdate = _col(voters, "REGDATE")
    now_row = _current_rows(voters, current)
    out = {}
    for line, row in rows.items():
        if current.loc[row]:
            continue
        later = now_row.get(person.loc[row])
        where = (
            f"SBOEID {sboeid.loc[later]}, registered {regdate.loc[later] or 'on no date given'}, "
            f"at {voter_addresses(voters.loc[[later]]).iloc[0]}"
            if later is not None
            else "no registration of a counted status"
        )
        out[line] = (
            f"the line matches SBOEID {sboeid.loc[row]}, registered {regdate.loc[row]}, an "
            f"older registration of a voter registered again later ({where}): the voter "
            "resides at the later registration (§ 2-202.1.a(1)); review (accepting the "
            "later SBOEID judges the line by it)"
        )
    return pd.Series(out, dtype="object")


def qualified_voters(
    voters: pd.DataFrame,
    *,
    statuses: Collection[str],
    placement: pd.DataFrame,
    filed_on: dt.date | None = None,
    current: pd.Series | None = None,
) -> pd.DataFrame:
    """The voters of the territory qualified to vote: counted status, current, placed inside.

    Parameters
    ----------
    voters
        Voter frame.
    statuses
        Voter statuses the policy counts (``policy.voter_statuses``).
    placement
        :func:`~pipeline.people.placement.place_addresses` of
        :func:`voter_addresses`, on the voters' index.
    filed_on
        The filing date: the status counted is the one of that day
        (:func:`status_at_filing`); None: the status as written.
    current
        :func:`current_registrations` of these voters, statuses and date, when
        the caller has it (computed here otherwise).

    Returns
    -------
    pandas.DataFrame
        The qualifying rows of ``voters`` with ``parcel_key`` and ``fraction``
        of their placement added.
    """
    # a person's stale registration (a later one exists) is not where they reside
    ok = (
        current_registrations(voters, statuses=statuses, filed_on=filed_on)
        if current is None
        else current
    )
    keep = ok & placement["inside"].reindex(voters.index).fillna(False).astype(bool)
    out = voters.loc[keep].copy()
    out[PARCEL_KEY] = placement.loc[keep[keep].index, PARCEL_KEY]
    out["fraction"] = placement.loc[keep[keep].index, "fraction"]
    return out


def signer_name_key(name: str) -> tuple[str, str]:
    """Normalised name of a signer, without and with its suffix split off.

    Parameters
    ----------
    name
        The name as written on the line.

    Returns
    -------
    tuple[str, str]
        ``(name without suffix, suffix or "")``, e.g. ``("JOHN A SMITH", "JR")``
        for ``"Smith, John A., Jr."``.
    """
    return split_name_suffix(normalize_name(reorder_comma(name)))


def _surname_and_suffix(voters: pd.DataFrame) -> tuple[list[str], list[str]]:
    """``LASTNAME`` and ``NAMESUFFIX``, with a suffix written into the surname moved out.

    Some county extracts write ``MILLER JR`` in ``LASTNAME`` with a blank
    ``NAMESUFFIX``: that voter is GEORGE MILLER JR, a namesake of GEORGE
    MILLER, not a MILLER JR family.
    """
    last = _col(voters, "LASTNAME").tolist()
    suffix = _col(voters, "NAMESUFFIX").tolist()
    for i, (la, sf) in enumerate(zip(last, suffix, strict=True)):
        if not sf and " " in la.strip():
            name, found = split_name_suffix(normalize_name(la))
            if found:
                last[i], suffix[i] = name, found
    return last, suffix


def _match_fuzzy(
    names: pd.Series,
    addresses: pd.Series,
    voters: pd.DataFrame,
    voter_addr: pd.Series,
    current: pd.Series | None = None,
) -> tuple[pd.Series, pd.Series, pd.Series, pd.Series, pd.Series]:
    """Match each line to voters with :func:`pipeline.people.matching.match_people`.

    Returns, on the lines' index: voter_row (or NaN), score, note, the
    candidate SBOEIDs of a line to review, and the evidence of each candidate.
    ``current`` (:func:`current_registrations`, on the voters' index) decides
    between two registrations of one person at the address written: the
    current one on the filing date, else the latest.
    """
    from pipeline.people.matching import Reference, match_written_name

    sboeid = _col(voters, "SBOEID").tolist()
    addr = voter_addr.reindex(voters.index).fillna("").astype(str).tolist()
    last, suffix = _surname_and_suffix(voters)
    ref = Reference.build(
        _col(voters, "FIRSTNAME").tolist(),
        _col(voters, "MIDDLENAME").tolist(),
        last,
        suffix,
        [((a, "residence"),) if a else () for a in addr],
        sboeid,
        link_identities=False,
    )
    rows = list(voters.index)
    person = registrants(voters).tolist()
    regdate = _col(voters, "REGDATE").tolist()
    now = (
        [True] * len(rows)
        if current is None
        else current.reindex(voters.index).fillna(False).astype(bool).tolist()
    )
    n = len(names)
    voter_row_v: list[object] = [np.nan] * n
    score_v = [0.0] * n
    note_v = [""] * n
    ambiguous_v = [""] * n
    evidence_v: list[object] = [None] * n
    for pos, (name, a) in enumerate(zip(names.tolist(), addresses.tolist(), strict=True)):
        if not name or not a:
            continue
        _, _, res = match_written_name(ref, name, a, review_name_elsewhere=False)
        if res.tier == "none" and res.note.startswith(_NAME_ELSEWHERE):
            # the exact name of a voter registered at another address goes to
            # review, as on owner pages: a voter who moved within the territory
            # is still one of its qualified voters (audit A2), a namesake is not
            res = dataclasses.replace(res, tier="review", score=100.0)
        if res.tier == "review" and res.note.startswith(_SEVERAL):
            # two registrations of one person at the address written (a duplicate
            # record of the board): that person, at the one current on the
            # filing date (not one made after it, or purged), else the latest
            same = [c.ref for c in res.candidates if c.auto and c.address == "same"]
            if same and len({person[r] for r in same}) == 1:
                pick = max(same, key=lambda r: (now[r], regdate[r], -r))
                res = dataclasses.replace(res, tier="accept", identity=pick, note="")
        note_v[pos] = res.note
        if res.tier == "accept":
            voter_row_v[pos] = rows[res.identity]
            score_v[pos] = res.score
        elif res.tier == "review":
            score_v[pos] = res.score
            ambiguous_v[pos] = ";".join(sorted({ref.label[c.ref] for c in res.candidates}))
            evidence_v[pos] = tuple(
                {
                    "candidate": ref.label[c.ref],
                    "candidate_name": ref.name_of(c.ref),
                    "name_score": c.name_score,
                    "name_evidence": c.name_evidence,
                    "address_agreed": f"{c.address} {c.address_kind}".strip()
                    if c.address
                    else "none",
                    "candidate_addresses": "; ".join(f"{k}: {x}" for x, k in ref.addresses[c.ref]),
                }
                for c in res.candidates
            )
    voter_row = pd.Series(voter_row_v, index=names.index, dtype=object)
    score = pd.Series(score_v, index=names.index, dtype="float64")
    note = pd.Series(note_v, index=names.index, dtype=str)
    ambiguous = pd.Series(ambiguous_v, index=names.index, dtype=str)
    evidence = pd.Series(evidence_v, index=names.index, dtype=object)
    return voter_row, score, note, ambiguous, evidence


#: The note of :func:`pipeline.people.matching.match_people` for an exact name
#: found only at other addresses.
_NAME_ELSEWHERE = "name found at another address"


def _empty_lines() -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=str) for c in LINE_COLUMNS}).astype(
        {"page": "int64", "line": "int64", "match_score": "float64"}
    )


def resident_test(
    signatures: pd.DataFrame,
    pages: pd.DataFrame,
    voters: pd.DataFrame,
    placement: pd.DataFrame,
    *,
    statuses: Collection[str],
    regime: Regime,
    alleged: bool = True,
    decisions: pd.DataFrame | None = None,
    matches: pd.DataFrame | None = None,
    filed_on: dt.date | None = None,
    labels: Mapping[str, str] | None = None,
) -> tuple[dict[str, Any], pd.DataFrame, list[Deficiency]]:
    """The resident test of § 2-202.1.a(1): at least 20 % of the qualified voters signed.

    Parameters
    ----------
    signatures
        All signature lines (:data:`pipeline.frames.SIGNATURE_COLUMNS`), owner
        and resident pages; only lines on pages whose ``basis`` is
        ``"residents"`` are examined.
    pages
        Signature pages (:data:`pipeline.frames.PAGE_COLUMNS`).
    voters
        Voter frame (:data:`pipeline.frames.VOTER_COLUMNS`).
    placement
        Placement of :func:`voter_addresses` on the voters' index.
    statuses
        Voter statuses the policy counts.
    regime
        The rule set (uses ``resident_percent``).
    alleged
        Whether the petition alleges the ``"residents"`` basis. When not, the
        test does not apply: ``applies`` false and ``passes`` ``None``.
    decisions
        Optional match decisions (:data:`pipeline.frames.MATCH_DECISION_COLUMNS`):
        ``accept`` with an ``SBOEID`` sets the line's voter, ``reject`` makes
        the line ``not_qualified_voter``. Decisions win over the matcher.
    matches
        Optional :func:`match_resident_lines` of these signatures, pages,
        voters and placement (it does not depend on the territory, so a
        caller testing several territories matches once); computed here when
        not given.
    filed_on
        The filing date: a line signed after it, or after its page's witness
        affidavit, is ``page_defect`` (:func:`pipeline.law.checks.unauthenticated_lines`);
        voters count at their status of that day (:func:`status_at_filing`):
        the line of a voter registered after it is ``not_qualified_voter``.
    labels
        Optional ``parcel_key`` -> ``"swis:print_key"`` as the roll writes it:
        a note naming a voter's parcel names it so (else by its key).

    Returns
    -------
    summary : dict
        ``{"applies", "qualified_voters", "qualifying_signers", "percent",
        "passes", "required_percent", "voters_unplaced",
        "voters_unplaced_counted_status", "voters_other_towns"}``: voters whose
        residence could not be placed (listed for review), those of them of a
        counted status, and voters the board records in a town that is not one
        of the petition's (placement reason ``other_town``: not residents of
        the territory, not listed); ``voters_registered_after_filing`` and
        ``voters_purged_after_filing``: voters of the whole file registered,
        or purged, after ``filed_on`` (:func:`status_at_filing`: the first are
        no qualified voters, the second are, at their status of that day).
    lines : pandas.DataFrame
        One row per resident-page line, :data:`LINE_COLUMNS`, on the
        signatures' index, in page/line order.
    deficiencies : list of dict
        ``resident_percent_not_met`` when the test applies and fails;
        ``no_signatures`` when it applies and no resident page has a line.

    A decision accepting an ``SBOEID`` that is not in the voter file is
    ignored (the line keeps the matcher's status and says so in its note;
    :func:`pipeline.people.review.stale_decisions` reports it).

    Notes
    -----
    ``percent = 100 × qualifying_signers / qualified_voters`` (unrounded; 0
    when there are no qualified voters). Passes when
    ``percent >= regime.resident_percent``: exactly 20 passes.
    """
    required = float(regime.resident_percent)
    # each person's current registration, once for the whole test
    current = current_registrations(voters, statuses=statuses, filed_on=filed_on)
    quals = qualified_voters(
        voters, statuses=statuses, placement=placement, filed_on=filed_on, current=current
    )
    # persons, not registrations: one registered twice in the territory counts once
    n_qualified = int(registrants(quals).nunique())
    unplaced = ~placement["placed"].reindex(voters.index).fillna(False).astype(bool)
    # voters the board records in a town not of the petition live elsewhere
    other_towns = placement["reason"].reindex(voters.index).astype("str") == REASON_OTHER_TOWN
    unplaced &= ~other_towns
    voters_unplaced = int(unplaced.sum())
    # of a counted status, and where the person lives (not a stale registration)
    counted = current.copy()
    # a person already among the qualified voters (another current registration
    # inside) is not one more who might be
    person = registrants(voters)
    counted &= ~person.isin(set(registrants(quals)))
    # persons, as the qualified voters are: one registered twice counts once
    unplaced_counted = int(person[unplaced & counted].nunique())
    # the file read back to the filing date (a file extracted later): how many
    # voters it holds registered, or purged, after that day
    written = _col(voters, "STATUS").str.upper()
    then = status_at_filing(voters, filed_on)
    registered_after = int((then == NOT_REGISTERED).sum())
    purged_after = int(((written == "P") & (then != "P") & (then != NOT_REGISTERED)).sum())

    res = _resident_page_lines(signatures, pages)
    if len(res):
        if matches is None:
            matches = _match_lines(res, voters, placement, current=current)
        late = unauthenticated_lines(res, pages, filed_on=filed_on)
        lines = _examine_lines(
            res,
            voters,
            placement,
            statuses,
            decisions,
            matches,
            late,
            filed_on=filed_on,
            labels=labels,
            current_regs=current,
        )
    else:
        lines = _empty_lines()
    n_signers = int((lines["status"] == "counted").sum())
    percent = 100.0 * n_signers / n_qualified if n_qualified else 0.0
    passes = percent >= required if n_qualified else False

    defs: list[Deficiency] = []
    if alleged:
        if not len(res):
            defs.append(
                deficiency_for(
                    "no_signatures",
                    "the petition alleges the residents basis but no "
                    "resident page holds a signature",
                )
            )
        if not passes:
            defs.append(
                deficiency_for(
                    "resident_percent_not_met",
                    f"{n_signers} qualifying signer(s) of {n_qualified} qualified voter(s) "
                    f"= {percent_text(percent)} %, less than the {required:g} % required",
                )
            )
    summary: dict[str, Any] = {
        "applies": bool(alleged),
        "qualified_voters": int(n_qualified),
        "qualifying_signers": n_signers,
        "percent": float(percent),
        "passes": bool(passes) if alleged else None,
        "required_percent": required,
        "voters_unplaced": voters_unplaced,
        "voters_unplaced_counted_status": unplaced_counted,
        "voters_other_towns": int(other_towns.sum()),
        "voters_registered_after_filing": registered_after,
        "voters_purged_after_filing": purged_after,
    }
    return summary, lines, defs


def unplaced_voters_warning(test: Mapping[str, Any]) -> list[str]:
    """A warning when the voters that could not be placed could change the verdict.

    Rules § 3: a voter that cannot be placed is listed for review, not guessed,
    so the test counts only the voters placed inside. Where the test passes but
    would fail had every unplaced voter of a counted status lived in the
    territory (:math:`100 N / (Q + U) <` the percent required), the verdict
    rests on that review (``voters-unplaced.csv``); the same condition is the
    deficiency of :func:`unplaced_voters_deficiency`.
    """
    shortfall = _unplaced_shortfall(test)
    return [shortfall] if shortfall else []


def unplaced_voters_deficiency(test: Mapping[str, Any]) -> list[Deficiency]:
    """``voters_unplaced`` when the voters that could not be placed could change the verdict.

    The petition is not shown sufficient while its resident test rests on a
    review still to be made (as ``inhabitants_unplaced`` for the population):
    the condition of :func:`unplaced_voters_warning`.
    """
    shortfall = _unplaced_shortfall(test)
    return (
        [deficiency_for("voters_unplaced", shortfall, "voters-unplaced.csv")] if shortfall else []
    )


def _unplaced_shortfall(test: Mapping[str, Any]) -> str:
    """The message when placing the unplaced voters inside would fail the test, else ``""``."""
    if not test.get("applies") or not test.get("passes"):
        return ""
    u = int(test.get("voters_unplaced_counted_status") or 0)
    q, n = int(test.get("qualified_voters") or 0), int(test.get("qualifying_signers") or 0)
    required = float(test.get("required_percent") or 0.0)
    if u == 0 or 100.0 * n / (q + u) >= required:
        return ""
    return (
        f"{u} voter(s) of a counted status could not be placed (voters-unplaced.csv); the "
        f"resident test passes with {n} of {q} qualified voters, but had they all lived in "
        f"the territory it would be {n} of {q + u} = {percent_text(100.0 * n / (q + u))} %, "
        f"under the {required:g} % required: the verdict rests on their review (rules § 3)"
    )


def _resident_page_lines(signatures: pd.DataFrame, pages: pd.DataFrame) -> pd.DataFrame:
    """The lines of resident pages, in page/line order."""
    resident_pages = set(pages.loc[_text(pages["basis"]).str.lower() == "residents", "page"])
    res = signatures.loc[signatures["page"].isin(resident_pages)]
    return res.sort_values(["page", "line"], kind="stable")


@dataclass(frozen=True)
class VoterTowns:
    """What tells a resident line's town from its voter's (:func:`match_resident_lines`)."""

    #: The petition's towns, SWIS -> name.
    names: Mapping[str, str]
    #: Each voter's town (SWIS, ``""`` when unknown), on the voters' index: the
    #: board's ``TOWNCITY`` when it names a town of the petition, else the town
    #: of the roll the voter is placed on.
    of_voter: pd.Series
    #: The rolls' situs addresses as ``"address|SWIS"``.
    addresses: frozenset[str]


def match_resident_lines(
    signatures: pd.DataFrame,
    pages: pd.DataFrame,
    voters: pd.DataFrame,
    placement: pd.DataFrame,
    *,
    towns: VoterTowns | None = None,
    current: pd.Series | None = None,
) -> pd.DataFrame:
    """Match the resident-page lines to the voter file (the territory-free part).

    Parameters
    ----------
    signatures, pages, voters
        As for :func:`resident_test`.
    placement
        Placement of :func:`voter_addresses` on the voters' index, with or
        without a territory (only its ``address_norm`` column is read, when
        there is one).
    towns
        Optional :class:`VoterTowns`. A line whose town names a town of the
        petition other than its voter's, where that town's roll has the
        address written too, goes to review: the house written may be the one
        of that name in the other town. (Where only the voter's town has the
        address, the town written is taken for a postal city.)
    current
        Optional :func:`current_registrations` of the voters (policy statuses,
        filing date): of two registrations of one person at the address
        written, the line is the current one's (else the latest's).

    Returns
    -------
    pandas.DataFrame
        One row per resident-page line, on the signatures' index in page/line
        order, :data:`RESIDENT_MATCH_COLUMNS`: the matcher's answer before the
        match decisions, the voter's status and the territory are applied.
        Pass it to :func:`resident_test` as ``matches``.
    """
    res = _resident_page_lines(signatures, pages)
    if not len(res):
        return pd.DataFrame({c: pd.Series(dtype=object) for c in RESIDENT_MATCH_COLUMNS})
    return _match_lines(res, voters, placement, towns=towns, current=current)


def _match_lines(
    res: pd.DataFrame,
    voters: pd.DataFrame,
    placement: pd.DataFrame,
    *,
    towns: VoterTowns | None = None,
    current: pd.Series | None = None,
) -> pd.DataFrame:
    """:func:`match_resident_lines` of the resident-page lines ``res``."""
    name_raw = _col(res, "name")
    addr_raw = _col(res, "address")
    split = _map_unique(name_raw, signer_name_key)
    address_norm = normalize_addresses(addr_raw)
    if "address_norm" in placement.columns:  # already normalised by place_addresses
        voter_addr = placement["address_norm"].reindex(voters.index).fillna("").astype(str)
    else:
        voter_addr = normalize_addresses(voter_addresses(voters))
    voter_row, score, note, ambiguous, candidates = _match_fuzzy(
        name_raw, address_norm, voters, voter_addr, current
    )
    _units_decide(addr_raw, voters, voter_row, note, ambiguous, candidates)
    if towns is not None and towns.names and "town" in res.columns:
        town_names, voter_towns, town_addresses = towns.names, towns.of_voter, towns.addresses
        # "1 Elm St, Brinton" is not the voter of Harlow's 1 Elm St without a look
        written = _col(res, "town")
        line_town = town_codes(written, town_names)
        matched = voter_row.notna()
        vt = pd.Series("", index=res.index, dtype=str)
        vt.loc[matched] = (
            voter_towns.reindex(voter_row[matched].to_numpy()).fillna("").astype(str).to_numpy()
        )
        there = pd.Series(
            [f"{a}|{t}" in town_addresses for a, t in zip(address_norm, line_town, strict=True)],
            index=res.index,
        )
        other = matched & (line_town != "") & (vt != "") & (line_town != vt) & there
        if other.any():
            sboe = _col(voters, "SBOEID")
            parts = [_col(voters, c) for c in ("FIRSTNAME", "MIDDLENAME", "LASTNAME", "NAMESUFFIX")]
            for idx in res.index[other.to_numpy()]:
                row = voter_row.loc[idx]
                town = town_names.get(vt.loc[idx], vt.loc[idx])
                who = " ".join(p for p in (str(x.loc[row]) for x in parts) if p)
                ambiguous.loc[idx] = str(sboe.loc[row])
                note.loc[idx] = (
                    f"the line's town ({written.loc[idx]}) is not the town of the voter's "
                    f"residence ({town}); review"
                )
                candidates.loc[idx] = (
                    {
                        "candidate": str(sboe.loc[row]),
                        "candidate_name": who,
                        "name_score": float(score.loc[idx]),
                        "name_evidence": "name agrees",
                        "address_agreed": "same residence, another town",
                        "candidate_addresses": f"residence: {voter_addr.loc[row]} ({town})",
                    },
                )
                voter_row.loc[idx] = np.nan
    return pd.DataFrame(
        {
            "name_key": split.str[0].astype(str),
            "s_suffix": split.str[1].astype(str),
            "address_norm": address_norm,
            "voter_row": voter_row,
            "score": score,
            "note": note,
            "ambiguous": ambiguous,
            "candidates": candidates,
        },
        index=res.index,
    )


def _decision_unfit(name: str, voters: pd.DataFrame, row: Any, sboeid: str) -> str:
    """Why an accept naming voter ``row`` does not fit a line written ``name`` ("" if it fits).

    The voter's name must resemble the line's
    (:func:`~pipeline.people.matching.names_resemble`): a decision written for
    another line, or before the lines were renumbered, is not applied.
    """
    from pipeline.people.matching import names_resemble

    tokens, suffix = person_name_parts(name)

    def part(col: str) -> str:
        return normalize_name(str(voters.at[row, col])) if col in voters.columns else ""

    v_suffix = part("NAMESUFFIX")
    v_suffix = NAME_SUFFIXES.get(v_suffix, v_suffix)
    first, middle, last = part("FIRSTNAME"), part("MIDDLENAME"), part("LASTNAME")
    if names_resemble(tokens, suffix, first, middle, last, v_suffix):
        return ""
    if spouse_style_title(name) and tokens and tokens[-1] == "".join(last.split()):
        return ""  # "Mrs. John Smith" accepted as the wife, a voter of that surname
    who = " ".join(p for p in (first, middle, last, v_suffix) if p)
    return (
        f"match decision not applied: it accepts SBOEID {sboeid} ({who}), whose name is "
        "not the line's (a decision for another line, or made before the lines were renumbered?)"
    )


def resident_decisions_not_applied(
    decisions: pd.DataFrame | None,
    signatures: pd.DataFrame,
    pages: pd.DataFrame,
    voters: pd.DataFrame,
) -> list[str]:
    """Warnings for accepts of resident lines naming a voter whose name is not the line's.

    The line keeps the matcher's answer (:func:`resident_test` does not
    apply such an accept); the reviewer is told, as for owner lines.
    """
    if decisions is None or not len(decisions) or "SBOEID" not in decisions.columns:
        return []
    res = _resident_page_lines(signatures, pages)
    if not len(res):
        return []
    sboe_to_row = pd.Series(voters.index, index=_col(voters, "SBOEID").to_numpy())
    sboe_to_row = sboe_to_row[~sboe_to_row.index.duplicated()]
    name_at = {
        (int(p), int(q)): str(n)
        for p, q, n in zip(res["page"], res["line"], _col(res, "name"), strict=True)
    }
    out: list[str] = []
    for p, q, kind, sid in zip(
        decisions["page"].astype("int64"),
        decisions["line"].astype("int64"),
        _text(decisions["decision"]).str.strip().str.lower(),
        _text(decisions["SBOEID"]).str.strip(),
        strict=True,
    ):
        at = (int(p), int(q))
        if kind != "accept" or not sid or at not in name_at or sid not in sboe_to_row.index:
            continue
        unfit = _decision_unfit(name_at[at], voters, sboe_to_row[sid], sid)
        if unfit:
            out.append(f"line {p}:{q}: {unfit}")
    return out


_SEVERAL = "several match: "


def _unit_key(text: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", text.upper())


def _units_decide(
    addr_raw: pd.Series,
    voters: pd.DataFrame,
    voter_row: pd.Series,
    note: pd.Series,
    ambiguous: pd.Series,
    candidates: pd.Series,
) -> None:
    """Lines that match several voters of their name at their address, told apart by the unit.

    "Mary Jones, 1 Main St Apt 2" with MARY JONES in apartments 1 and 2: the
    unit written (:func:`~pipeline.people.names.address_unit`) is the voter
    file's ``RAPARTMENT`` of exactly one of them, who is the line's voter. No
    unit written, or none or several of that unit: the line stays to review.
    Writes into the series given.
    """
    several = note.str.startswith(_SEVERAL)
    if not several.any() or "RAPARTMENT" not in voters.columns:
        return
    written = addr_raw.loc[several].map(address_unit).map(_unit_key)
    sboe_rows = pd.Series(voters.index, index=_col(voters, "SBOEID").to_numpy())
    sboe_rows = sboe_rows[~sboe_rows.index.duplicated()]
    unit_of = _col(voters, "RAPARTMENT").map(_unit_key)
    idx: Any
    for idx, unit in zip(written.index.tolist(), written.tolist(), strict=True):
        if not unit:
            continue
        ids = [i for i in str(note.loc[idx])[len(_SEVERAL) :].split(";") if i in sboe_rows.index]
        rows = [sboe_rows[i] for i in ids if unit_of.loc[sboe_rows[i]] == unit]
        if len(rows) == 1:
            voter_row.loc[idx] = rows[0]
            ambiguous.loc[idx] = ""
            candidates.loc[idx] = None
            note.loc[idx] = f"{note.loc[idx]}; told apart by the unit written ({unit})"


def _examine_lines(
    res: pd.DataFrame,
    voters: pd.DataFrame,
    placement: pd.DataFrame,
    statuses: Collection[str],
    decisions: pd.DataFrame | None,
    matches: pd.DataFrame,
    late: pd.Series | None = None,
    *,
    filed_on: dt.date | None = None,
    labels: Mapping[str, str] | None = None,
    current_regs: pd.Series | None = None,
) -> pd.DataFrame:
    name_raw = _col(res, "name")
    if late is None:
        late = pd.Series("", index=res.index, dtype="str")
    if not matches.index.equals(res.index):
        raise ValueError("matches are not the resident-page lines of these signatures")
    line_keys = matches[["name_key", "s_suffix", "address_norm"]]
    # copies: the decisions below write into them, the caller's frame stays as it is
    voter_row = matches["voter_row"].copy()
    score = matches["score"].copy()
    note = matches["note"].copy()
    ambiguous = matches["ambiguous"].copy()
    candidates = matches["candidates"].copy()

    accepted = pd.Series(False, index=res.index)
    rejected = pd.Series(False, index=res.index)
    if decisions is not None and len(decisions):
        sboe_to_row = pd.Series(voters.index, index=_col(voters, "SBOEID").to_numpy())
        sboe_to_row = sboe_to_row[~sboe_to_row.index.duplicated()]
        dec = decisions.assign(
            _p=decisions["page"].astype("int64"), _l=decisions["line"].astype("int64")
        )
        where = pd.MultiIndex.from_arrays(
            [res["page"].astype("int64"), res["line"].astype("int64")]
        )
        # per line: a reject naming no voter rejects the line (whatever else
        # is decided on it); a reject naming a voter rejects that candidate
        # only; an accept sets the line's voter (unless that voter is rejected)
        whole: set[Any] = set()
        out_ids: dict[Any, set[str]] = {}
        chosen: dict[Any, str] = {}
        sboe_all = _col(voters, "SBOEID")
        for _, d in dec.iterrows():
            hit = where == (d["_p"], d["_l"])
            if not hit.any():
                continue
            kind = str(d["decision"]).strip().lower()
            sid = str(d.get("SBOEID", "") or "").strip()
            if sid.lower() == "nan":
                sid = ""
            for idx in res.index[hit]:
                if kind == "reject" and not sid:
                    whole.add(idx)
                elif kind == "reject":
                    out_ids.setdefault(idx, set()).add(sid)
                elif kind == "accept" and sid:
                    chosen[idx] = sid
        for idx in whole:
            rejected.loc[idx] = True
            voter_row.loc[idx] = np.nan
            note.loc[idx] = "rejected by match decision"
        for idx, sid in chosen.items():
            if idx in whole or sid in out_ids.get(idx, set()):
                continue
            if sid not in sboe_to_row.index:
                # stale: reported by pipeline.people.review.stale_decisions
                note.loc[idx] = f"match decision names SBOEID {sid} not in the voter file"
                continue
            unfit = _decision_unfit(str(name_raw.loc[idx]), voters, sboe_to_row[sid], sid)
            if unfit:
                note.loc[idx] = unfit  # reported by resident_decisions_not_applied
                continue
            voter_row.loc[idx] = sboe_to_row[sid]
            accepted.loc[idx] = True
            score.loc[idx] = SCORE_EXACT
            note.loc[idx] = "accepted by match decision"
        for idx, ids in out_ids.items():
            if idx in whole or accepted.loc[idx]:
                continue
            current = voter_row.loc[idx]
            if pd.notna(current) and str(sboe_all.loc[current]) in ids:
                rejected.loc[idx] = True
                voter_row.loc[idx] = np.nan
                note.loc[idx] = "rejected by match decision: " + ", ".join(sorted(ids))
        ambiguous = ambiguous.where(~(accepted | rejected), "")

    # a person's current registration (the latest; a stale one at an old address)
    current_of = (
        current_registrations(voters, statuses=statuses, filed_on=filed_on)
        if current_regs is None
        else current_regs
    )
    if accepted.any():
        # a decision accepting a stale registration is judged by the current one
        # (the person is counted among the voters where that one is)
        _judge_by_current(voters, voter_row, note, accepted, current_of, statuses, filed_on)

    matched = voter_row.notna()
    rows = voter_row[matched]
    status_of = status_at_filing(voters, filed_on)
    written_of = _col(voters, "STATUS").str.upper()
    v_status = pd.Series("", index=res.index, dtype=str)
    v_written = pd.Series("", index=res.index, dtype=str)
    v_written.loc[rows.index] = written_of.loc[rows.to_numpy()].to_numpy()
    v_status.loc[rows.index] = status_of.loc[rows.to_numpy()].to_numpy()
    v_placed = pd.Series(False, index=res.index)
    v_inside = pd.Series(False, index=res.index)
    placed_of = placement["placed"].reindex(voters.index).fillna(False).astype(bool)
    inside_of = placement["inside"].reindex(voters.index).fillna(False).astype(bool)
    v_placed.loc[rows.index] = placed_of.loc[rows.to_numpy()].to_numpy()
    v_inside.loc[rows.index] = inside_of.loc[rows.to_numpy()].to_numpy()
    # the board records the voter in a town not of the petition: not a resident
    reason_of = placement["reason"].reindex(voters.index).astype("str")
    v_other = pd.Series(False, index=res.index)
    v_other.loc[rows.index] = (reason_of.loc[rows.to_numpy()] == REASON_OTHER_TOWN).to_numpy()
    v_differs = pd.Series(False, index=res.index)
    v_differs.loc[rows.index] = (reason_of.loc[rows.to_numpy()] == REASON_TOWN_DIFFERS).to_numpy()
    v_city = pd.Series(False, index=res.index)
    v_city.loc[rows.index] = (reason_of.loc[rows.to_numpy()] == REASON_OTHER_CITY).to_numpy()
    sboeid = pd.Series("", index=res.index, dtype=str)
    sboeid.loc[rows.index] = _col(voters, "SBOEID").loc[rows.to_numpy()].to_numpy()
    # the person behind the registration (two registrations of one person: one signer)
    registrant = pd.Series("", index=res.index, dtype=str)
    registrant.loc[rows.index] = registrants(voters).loc[rows.to_numpy()].to_numpy()

    ok_status = v_status.isin(_statuses(statuses))
    # a line matched to a person's stale registration (the voter registered
    # again later, elsewhere or not): review, unless a decision chose it
    v_current = pd.Series(True, index=res.index)
    v_current.loc[rows.index] = current_of.loc[rows.to_numpy()].to_numpy()
    stale = matched & ok_status & ~v_current & ~accepted
    # a person of several current registrations (their dates cannot tell which
    # is): a resident where any of them is inside, as among the qualified
    # voters, whichever of them the line names
    several = _several_current(voters, current_of)
    if several:
        by_person = (inside_of & current_of).groupby(registrants(voters)).any()
        multi = matched & v_current & registrant.isin(several)
        person_in = registrant[multi].map(by_person).fillna(False).astype(bool)
        lent = multi.copy()
        lent[multi] = person_in.to_numpy() & ~v_inside[multi].to_numpy()
        v_inside = v_inside | lent
        v_placed = v_placed | lent
        v_other = v_other & ~lent
    else:
        lent = pd.Series(False, index=res.index)
    missing = (name_raw == "") | (line_keys["address_norm"] == "")
    defect = missing | (late != "")
    status = np.select(
        [
            defect,
            rejected,
            ambiguous != "",
            ~matched,
            ~ok_status,
            stale,
            v_other,
            ~v_placed,
            ~v_inside,
        ],
        [
            "page_defect",
            "not_qualified_voter",
            "needs_review",
            "not_qualified_voter",
            "not_qualified_voter",
            "needs_review",
            "outside_territory",
            "needs_review",
            "outside_territory",
        ],
        default="counted",
    )
    status_s = pd.Series(status, index=res.index, dtype=str)
    if (stale & (status_s == "needs_review")).any():
        note = note.where(
            ~(stale & (status_s == "needs_review")),
            _stale_notes(voters, rows, current_of).reindex(res.index),
        )
    if (lent & (status_s == "counted")).any():
        said = _several_notes(voters, rows[lent[rows.index].to_numpy()], current_of)
        fill = lent & (status_s == "counted")
        note = note.where(
            ~fill,
            (note.astype(str) + "; ").where(note.astype(str) != "", "")
            + said.reindex(res.index).fillna(""),
        )
    note = note.where(
        ~(matched & ~v_placed & (status_s == "needs_review")),
        "voter's residence could not be placed",
    )
    note = note.where(
        ~(v_other & (status_s == "outside_territory")),
        "the voter file records the voter in a town that is not one of the petition's (TOWNCITY)",
    )
    note = note.where(
        ~(v_city & (status_s == "needs_review")),
        "the voter's residence city (RCITY) is neither a town of the petition nor a post "
        "office of its homes: the same street address may be in another city; review",
    )
    note = note.where(
        ~(v_differs & (status_s == "needs_review")),
        "the voter file records the voter in a town that is not one of the petition's "
        "(TOWNCITY), but the residence is on a roll of the petition: review",
    )
    unregistered = matched & (v_status == NOT_REGISTERED)
    note = note.where(
        ~(unregistered & (status_s == "not_qualified_voter")),
        "the voter registered after the filing date: not a qualified voter when the "
        "petition was filed (REGDATE)",
    )
    then_qualified = matched & (v_written == "P") & (v_status != "P") & ~unregistered
    note = note.where(
        ~(then_qualified & (status_s == "counted")),
        "purged after the filing date: a qualified voter when the petition was filed (PURGE_DATE)",
    )
    note = note.where(~(defect & ~missing), late)
    note = note.where(~missing, "line without " + np.where(name_raw == "", "a name", "an address"))
    note = _why_not_counted(note, status_s, matched, v_status, rows, placement, labels or {})

    person = np.where(
        matched,
        "voter:" + registrant,
        "signer:" + line_keys["name_key"] + "@" + line_keys["address_norm"],
    )
    person_s = pd.Series(person, index=res.index, dtype=str)
    counted = status_s == "counted"
    dup = counted & person_s.where(counted).duplicated(keep="first") & counted
    status_s = status_s.where(~dup, "duplicate")
    note = note.where(~dup, "same person counted on an earlier line")
    # a line of a stale registration whose person another line signs at a current
    # one (counted or not, whatever the territory): nothing to review
    signed_now = matched & ok_status & v_current & ~rejected & ~defect
    signed_now &= ambiguous == ""
    moot = stale & (status_s == "needs_review") & person_s.isin(person_s[signed_now])
    status_s = status_s.where(~moot, "duplicate")
    note = note.where(~moot, "same person signs on another line (at the current registration)")

    matched_to = sboeid.where(matched, "")
    candidates = candidates.where(status_s == "needs_review", None)
    return pd.DataFrame(
        {
            "page": res["page"].astype("int64"),
            "line": res["line"].astype("int64"),
            "name": name_raw,
            "basis": "residents",
            "status": status_s,
            "matched_to": matched_to.astype(str),
            "match_score": score.astype("float64"),
            "person_id": person_s,
            "note": note.astype(str),
            "candidates": candidates,
        },
        index=res.index,
    )
