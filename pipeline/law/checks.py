"""The sufficiency checks of §§ 2-200 and 2-202 as pure functions.

Each check takes frames or figures computed elsewhere and returns the part of
``summary.json`` it owns together with the deficiencies it finds::

    part, deficiencies = area_check(4.2, regime=regime, ...)

Nothing here reads a file or prints. Every deficiency names its paragraph
(:data:`pipeline.law.deficiency.PARAGRAPHS`). :func:`sufficiency` gives the
verdict from the assembled summary.

Conventions (hand-checked in ``tests/test_checks.py``):

* area: passes when ``square_miles <= limit`` (exactly 5.0 passes), or when a
  coterminous exception is claimed and, if a district polygon was given, the
  symmetric difference is within the tolerance;
* population: distinct persons placed inside ``>= minimum`` (500 before 2024,
  1,500 from 2024);
* designees: one to three, each with a first and a last name and an address,
  and more than half of them residing in the territory;
* witness count: the lines of each page equal the number the witness swore to;
* dates (:func:`late_lines`): a line signed after its page's witness affidavit,
  or after the filing date, does not count (``page_defect``);
* affidavits (:func:`affidavit_check`): a page without a witness, or whose
  affidavit was sworn after the filing date, authenticates none of its lines
  (:func:`unauthenticated_lines`); one without the witness's residence or
  its date is incomplete.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from pipeline.frames import PARCEL_KEY
from pipeline.keys import is_village_swis
from pipeline.law.coterminous import CLAIM_KINDS, read_claim
from pipeline.law.deficiency import Deficiency, deficiency_for
from pipeline.law.regimes import Regime
from pipeline.people.names import (
    NAME_SUFFIXES,
    address_unit,
    first_name_keys,
    given_names_alike,
    normalize_address_text,
    normalize_name,
    person_name_parts,
)
from pipeline.tools.numbers import percent_text

__all__ = [
    "affidavit_check",
    "area_check",
    "basis_check",
    "designees_check",
    "existing_village_check",
    "inhabitant_identities",
    "inhabitant_schedule",
    "label_of",
    "late_lines",
    "line_checks",
    "population_check",
    "sufficiency",
    "unauthenticated_lines",
    "unplaced_inhabitants_deficiency",
    "witness_count_check",
]

#: How many places a deficiency's ``where`` lists before "and k more".
WHERE_LIMIT = 25

#: The words a label standing for an unnamed minor begins with.
_LABEL_WORDS = frozenset({"MINOR", "CHILD", "INFANT", "NEWBORN", "BABY", "TWIN"})
#: Words a label may hold after its first ("Baby Girl A", "Infant Son of ..."); a
#: boy and a girl, a son and a daughter, are two children.
_LABEL_SEX = frozenset({"GIRL", "BOY", "SON", "DAUGHTER"})
_LABEL_MORE = _LABEL_WORDS | {"NO"}
_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9}

#: A named minor's mark: ``"Emma Smith (minor)"``, ``"[minor child]"``.
_MINOR_MARK = re.compile(
    r"[(\[]\s*(?:a\s+)?(?:minor|child|infant)(?:\s+child)?\s*[)\]]", re.IGNORECASE
)
#: An age written beside a name or a label: ``"(age 4)"``, ``"aged 4"``, ``"4 yrs"``.
_AGE_UNIT = r"(?P<unit>months?|mos?|weeks?|wks?|days?|years?|yrs?|y\.?\s?o\.?|y/o)(?![a-z])"
_AGE_NUMBER = r"\d{1,3}(?:\s+\d/\d|\.\d|½)?"
_AGE_MARK = re.compile(
    rf"[(\[]?\s*\b(?:age|aged)\b:?\s*(?P<n1>{_AGE_NUMBER}|[a-z]+(?:-[a-z]+)?)"
    rf"(?:\s*{_AGE_UNIT})?(?:\s+old)?\s*[)\]]?"
    rf"|[(\[]?\s*\b(?P<n2>{_AGE_NUMBER})\s*{_AGE_UNIT.replace('unit', 'unit2')}(?:\s+old)?"
    r"\s*[)\]]?"
    rf"|\(\s*(?P<n3>{_AGE_NUMBER})\s*\)"
    rf"|,\s*(?P<n4>{_AGE_NUMBER})\s*$",
    re.IGNORECASE,
)


def _age_key(mark: re.Match[str]) -> str:
    """An age as a key: ``"age 4"`` -> ``"4"``, ``"4 months"`` -> ``"4m"``, ``"age four"``
    -> ``"four"``."""
    number = next(g for g in (mark.group(k) for k in ("n1", "n2", "n3", "n4")) if g)
    unit = (mark.group("unit") or mark.group("unit2") or "").lower()
    return number.lower() + ("" if unit[:1] in ("", "y") else unit[:1])


#: What after a comma is an address or a unit, not a given name: "45 Elm St",
#: "Apt 2", "#3", "Unit B".
_ADDRESS_TAIL = re.compile(
    r"^\s*(?:\d+[a-z]?(?:\s+\d/\d)?\s+[a-z][\w.'-]*(?:\s+[\w.'-]+)*"
    r"|(?:apt|apartment|unit|ste|suite|fl|floor|rm|room)\b\.?\s*#?\s*(?:\d+[a-z]?|[a-z])"
    r"|#\s*(?:\d+[a-z]?|[a-z]))\s*$",
    re.IGNORECASE,
)

#: Where a label or a mark is written after a family or a name: "Smith, Minor
#: Child 1", "Emma Smith - minor".
_AFTER_NAME = re.compile(r"\s*,\s*|\s+-\s+")


def label_of(norm: str) -> str | None:
    """The label's number (or letter) of a normalised name that is a label, else None.

    A label stands for a person without naming them (a minor on the list of
    inhabitants): ``"Minor"``, ``"Minor child 1"``, ``"(minor)"``, ``"Child of
    J. Smith"``, ``"Infant"``, ``"Minor #2"``; a name with such a word among
    others is a name (``"John Minor"``: Minor is a surname). The reading of an
    entry (:func:`_reading`) also finds labels after a family name (``"Smith,
    Minor Child 1"``) and beside an age (``"Minor child 1 (age 4)"``), and
    named minors (``"Emma Smith (minor)"``, ``"Emma Smith, minor"``).

    ``"MINOR CHILD 1"`` -> ``"1"``, ``"MINOR 01"``, ``"MINOR1"`` and ``"MINOR
    CHILD I"`` -> ``"1"``, ``"MINOR CHILD A"`` -> ``"A"``, ``"CHILD OF J SMITH"``
    and ``"NEWBORN"`` -> ``""``; ``"JOHN MINOR"``, ``"MINOR JOHN"``, ``"BABY
    SMITH"`` -> None (names).
    """
    parts = _label_parts(norm)
    return None if parts is None else parts[0]


def _label_parts(norm: str) -> tuple[str, str] | None:
    """``(number, family)`` of a label (:func:`label_of`), else None.

    A label begins with a word of :data:`_LABEL_WORDS` and holds only label
    words, numbers, roman numerals and single letters, up to an ``OF`` (whose
    child); after a number or letter, a family name may end it (``"BABY GIRL A
    SMITH"`` -> ``("A", "SMITH")``).
    """
    words = [w for t in norm.split() for w in re.findall(r"[A-Z]+|\d+", t)]
    if "OF" in words:
        words = words[: words.index("OF")]
    if not words or words[0] not in _LABEL_WORDS:
        return None
    ids: list[str] = []
    sex = ""
    for i, w in enumerate(words[1:], start=1):
        if w in _LABEL_SEX:
            sex = w
            continue
        if w in _LABEL_MORE:
            continue
        if w.isdigit():
            ids.append(str(int(w)))
        elif w in _ROMAN:
            ids.append(str(_ROMAN[w]))
        elif len(w) == 1:
            ids.append(w)
        elif ids:
            return " ".join([sex, *ids]).strip(), " ".join(words[i:])
        else:
            return None
    return " ".join([sex, *ids]).strip(), ""


def _where(items: Sequence[str], limit: int = WHERE_LIMIT) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _text(values: pd.Series) -> pd.Series:
    return values.astype("object").where(values.notna(), "").astype(str).str.strip()


# --------------------------------------------------------------------------- basis


def basis_check(
    bases: Collection[str], *, regime: Regime
) -> tuple[dict[str, Any], list[Deficiency]]:
    """Whether the bases alleged are allowed by the regime (§ 2-202.1.a, b(1)).

    Parameters
    ----------
    bases
        The bases the petition alleges (``"owners"``, ``"residents"``).
    regime
        The rule set; ``owner_basis_allowed`` is false from 2024.

    Returns
    -------
    part : dict
        ``{"bases": [...], "allowed": bool}``.
    deficiencies : list of dict
        ``owner_basis_not_allowed`` when ``"owners"`` is alleged under a regime
        that removed the owner route.
    """
    alleged = sorted({b.strip().lower() for b in bases})
    defs: list[Deficiency] = []
    if "owners" in alleged and not regime.owner_basis_allowed:
        defs.append(
            deficiency_for(
                "owner_basis_not_allowed",
                f"the petition alleges the owners basis, which regime {regime.name!r} "
                "does not allow (the owner-valuation route was removed with effect "
                "from 1 January 2024)",
            )
        )
    return {"bases": alleged, "allowed": not defs}, defs


# --------------------------------------------------------------------------- area


def exception_kind_allowed(coterminous_with: str) -> bool:
    """Whether a claimed body is of a kind § 2-200 allows for the area exception.

    ``"Kinderhook Central School District"``, ``"Harlow Fire District"``,
    ``"Valatie Water District and Valatie Sewer District"``, ``"the entire Town
    of Harlow"``: yes. ``"ZIP code 12106"``, ``"Election District 3 of the Town
    of Harlow"``, ``"Columbia County Sewer District No. 1"``, ``"part of the
    Town of Harlow"``, ``"Harlow State Park"``, ``"Columbia County"``: no; nor a
    claim that cannot be read (:func:`pipeline.law.coterminous.read_claim`).
    """
    return read_claim(coterminous_with).verdict == "allowed"


def area_check(
    square_miles: float,
    *,
    regime: Regime,
    coterminous_with: str | None,
    district_symmetric_difference_share: float | None,
    tolerance: float,
    district_symmetric_difference_sq_mi: float | None = None,
    coterminous_kind: str | None = None,
    warnings: list[str] | None = None,
    towns: Sequence[str] = (),
) -> tuple[dict[str, Any], list[Deficiency]]:
    """The area requirement of § 2-200: at most 5 square miles, or coterminous.

    Parameters
    ----------
    square_miles
        Area of the territory on the ellipsoid.
    regime
        The rule set (``area_limit_sq_mi``, 5.0).
    coterminous_with
        The district (or town) the petition says the boundaries are coterminous
        with, or ``None`` when no exception is claimed.
    district_symmetric_difference_share
        Area of the symmetric difference between the territory and the given
        district polygon, as a share of the district's area; ``None`` when no
        district polygon was given.
    tolerance
        Largest share that still supports the claim (digitising noise).
    district_symmetric_difference_sq_mi
        The same area in square miles (on the ellipsoid), reported as it is.
    coterminous_kind
        The kind of body the claim is, as the petition states it
        (``[territory] coterminous_kind``, one of
        :data:`pipeline.law.coterminous.CLAIM_KINDS`), or ``None``.
    warnings
        Appended to: a claim that cannot be read while the area is within the
        limit, a stated kind the text reads otherwise.
    towns
        The names of the petition's towns: an entire town claimed must be one.

    Returns
    -------
    part : dict
        ``{"square_miles", "limit", "exception", "passes"}``; ``exception`` is
        ``None`` or ``{"coterminous_with", "symmetric_difference_share",
        "symmetric_difference_sq_mi", "supported"}``.
    deficiencies : list of dict
        ``area_exceeds_limit`` when the test fails;
        ``coterminous_claim_not_supported`` when a district polygon contradicts
        the claim (even if the area is within the limit: the petition would
        state a wrong "manner in which the area requirements are satisfied",
        § 2-202.1.b(4)).

    Notes
    -----
    The claim is read by :func:`pipeline.law.coterminous.read_claim`. Its kind
    is allowed when the text reads as bodies § 2-200 lists, or when the text
    cannot be read and the petition states the kind (``coterminous_kind``,
    with a warning; a claim read as another kind, or as less or more than
    entire bodies, stays unsupported whatever is stated). A claim of another kind is the deficiency
    ``coterminous_claim_not_supported``; one that cannot be read is too where
    the area is over the limit, and only a warning where it is within it.
    ``supported`` when the kind is allowed and ``share <= tolerance`` (any
    share when no polygon was given: the claim cannot be checked and is taken
    as stated).
    ``passes = square_miles <= limit or (claimed and supported)``.
    """
    limit = float(regime.area_limit_sq_mi)
    within = square_miles <= limit
    exception: dict[str, Any] | None = None
    supported = False
    defs: list[Deficiency] = []
    if coterminous_with:
        share = district_symmetric_difference_share
        reading = read_claim(coterminous_with, towns=towns)
        stated = coterminous_kind if coterminous_kind in CLAIM_KINDS else None
        # a stated kind settles a claim that cannot be read, never one read as another
        listed = reading.verdict == "allowed" or (
            stated is not None and reading.verdict == "unknown"
        )
        if stated is not None and warnings is not None:
            if reading.verdict == "unknown":
                warnings.append(
                    f"the territory is said to be coterminous with {coterminous_with!r}, taken "
                    f"as stated to be of kind {stated!r}: the text could not be read "
                    f"({reading.reason}); counsel should confirm the kind (§ 2-200)"
                )
            elif reading.verdict == "allowed" and stated not in reading.kinds:
                read = ", ".join(reading.kinds)
                warnings.append(
                    f"the territory is said to be coterminous with {coterminous_with!r}, stated "
                    f"as of kind {stated!r} but read as {read}: counsel should confirm the kind "
                    "(§ 2-200)"
                )
        unread = reading.verdict == "unknown" and stated is None
        if unread and within:
            # the area passes anyway: the claim is not needed, and may be misread
            listed = True
            if warnings is not None:
                warnings.append(
                    f"the territory is said to be coterminous with {coterminous_with!r}, which "
                    f"could not be read as a body § 2-200 lists ({reading.reason}); the area is "
                    "within the limit, so the exception is not needed; state [territory] "
                    "coterminous_kind if the claim stands"
                )
        supported = listed and (share is None or share <= tolerance)
        exception = {
            "coterminous_with": coterminous_with,
            "kinds_read": list(reading.kinds),
            "kind_stated": stated,
            "symmetric_difference_share": None if share is None else float(share),
            "symmetric_difference_sq_mi": None
            if district_symmetric_difference_sq_mi is None
            else float(district_symmetric_difference_sq_mi),
            "kind_allowed": bool(listed),
            "supported": bool(supported),
        }
        if not listed:
            why = (
                f"which could not be read as one ({reading.reason}; if it is one, state "
                "[territory] coterminous_kind)"
                if unread
                else f"which is none of them ({reading.reason})"
            )
            defs.append(
                deficiency_for(
                    "coterminous_claim_not_supported",
                    f"the territory is said to be coterminous with {coterminous_with!r}; "
                    "§ 2-200 allows an entire school, fire, fire protection, fire alarm, town "
                    "special or town improvement district (or districts), or an entire town, "
                    f"{why}",
                )
            )
        elif not supported:
            defs.append(
                deficiency_for(
                    "coterminous_claim_not_supported",
                    f"the territory is said to be coterminous with {coterminous_with}, but "
                    f"the symmetric difference with the district polygon is "
                    f"{100 * float(share or 0):.3f} % of the district's area "
                    f"(tolerance {100 * tolerance:.3f} %)",
                    # within the limit the exception is not needed: what is wrong
                    # is the petition's statement of how the area requirement is
                    # met (audit A36 F2)
                    paragraph="2-202.1.b(4)" if within else None,
                )
            )
    passes = within or (exception is not None and supported)
    if not passes:
        defs.append(
            deficiency_for(
                "area_exceeds_limit",
                f"the territory covers {percent_text(square_miles)} square miles, more than the "
                f"{limit:g} allowed without a (supported) coterminous-district exception",
            )
        )
    part = {
        "square_miles": float(square_miles),
        "limit": limit,
        "exception": exception,
        "passes": bool(passes),
    }
    return part, defs


# --------------------------------------------------------------------------- villages


def existing_village_check(
    schedule_swis: pd.Series,
    *,
    village_overlap_sq_mi: float | None,
) -> tuple[dict[str, Any], list[Deficiency]]:
    """The territory may not include part of an existing village (§ 2-200).

    Parameters
    ----------
    schedule_swis
        ``swis_code`` of the roll records part of whose land lies in the
        territory: a positive fraction of the record's polygon, or, for a
        record without one, an apportionment override bringing a part of it.
    village_overlap_sq_mi
        Area of the overlap with given village polygons, or ``None`` when none
        were given.

    Returns
    -------
    part : dict
        ``{"includes_existing_village": bool, "village_swis": [codes],
        "village_overlap_sq_mi": x or None}``.
    deficiencies : list of dict
        ``includes_existing_village`` listing the village SWIS codes and the
        overlap.

    Raises
    ------
    ValueError
        When a SWIS code is not 6 digits (the readers validate them first).
    """
    codes = sorted({str(s).strip() for s in schedule_swis.dropna()})
    villages = [c for c in codes if c and is_village_swis(c)]
    overlap = None if village_overlap_sq_mi is None else float(village_overlap_sq_mi)
    includes = bool(villages) or (overlap is not None and overlap > 0)
    defs: list[Deficiency] = []
    if includes:
        bits = []
        if villages:
            n = int(schedule_swis.astype(str).str.strip().isin(villages).sum())
            bits.append(f"{n} roll record(s) with village SWIS code(s) {', '.join(villages)}")
        if overlap is not None and overlap > 0:
            bits.append(f"an overlap of {overlap:.6f} square miles with a village polygon")
        defs.append(
            deficiency_for(
                "includes_existing_village",
                "the territory includes part of an existing village: " + "; ".join(bits),
                where=", ".join(villages),
            )
        )
    part = {
        "includes_existing_village": includes,
        "village_swis": villages,
        "village_overlap_sq_mi": overlap,
    }
    return part, defs


# --------------------------------------------------------------------------- population


def _initial(word: str) -> bool:
    """A lone letter (``"A"``), not a lone digit (``"Person 5"``)."""
    return len(word) == 1 and word.isalpha()


@lru_cache(maxsize=200_000)
def _name_order(name: str) -> tuple[tuple[str, ...], str]:
    """A written name's words in first-last order, and its generational suffix.

    :func:`pipeline.people.names.person_name_parts`, and a name of three words
    or more that ends in a lone initial is read surname first, the roll's
    order: ``"Abbott Aaron A"`` is Aaron A. Abbott, as ``WALSH DAVID R`` on a
    roll is David R. Walsh.
    """
    tokens, suffix = person_name_parts(name)
    if len(tokens) >= 3 and _initial(tokens[-1]) and not _initial(tokens[0]):
        tokens = (*tokens[1:], tokens[0])
    return tokens, suffix


#: Words that begin a surname of several words (``VAN BUREN``, ``DE LA CRUZ``),
#: as :mod:`pipeline.people.owners` reads them, single letters left out.
_SURNAME_PARTICLES = frozenset(
    {
        "MC", "MAC", "VAN", "VON", "DE", "DEL", "DELA", "DELLA", "DI", "DA", "DU", "DOS",
        "DAS", "LA", "LE", "ST", "VANDER", "VANDEN", "DER", "DEN", "TEN", "TER",
    }
)  # fmt: skip

#: How a written name identifies a person (:func:`_reading`).
_Reading = tuple[str, str, str, str, str, str, str]


@lru_cache(maxsize=200_000)
def _reading(name: str) -> _Reading:
    """``(kind, family, given, middle, family_swapped, given_swapped, age)`` of a written name.

    ``kind`` is ``"none"`` (no name), ``"label"`` (an anonymised entry:
    ``given`` holds its numbers, ``"Minor child 2"`` -> ``"2"``, and ``family``
    the family name written with it, ``"Smith, Minor Child 1"`` -> ``"SMITH"``),
    ``"incomplete"`` (one word, or one word and an initial: ``"Aaron"``,
    ``"Mr. Smith"``, ``"Jane Q."``: no surname and given name to tell who it
    is) or ``"name"``: ``family`` is the surname and suffix, ``given`` the
    first word (perhaps an initial), ``middle`` the first middle word (or
    ``""``). A name of two words may be written surname first without a comma
    (``"Abbott Aaron"``): its other reading is in the ``_swapped`` fields
    (``""`` for other names). ``age`` is an age written with it (``"(age
    4)"``, ``", 4"``, ``"4 months"``: :func:`_age_key`), or ``""``.
    """
    mark = _AGE_MARK.search(name)
    if mark:
        aged = _AGE_MARK.sub(" ", name).strip(" ,-")
        if normalize_name(aged):
            return (*_reading(aged)[:6], _age_key(mark))
    norm = normalize_name(name)
    if not norm:
        return ("none", "", "", "", "", "", "")
    label = _label_parts(norm)
    if label is not None:
        return ("label", label[1], label[0], "", "", "", "")
    if _MINOR_MARK.search(name):
        return _reading(_MINOR_MARK.sub(" ", name))
    head, tail = _split_after_name(name)
    if tail and _ADDRESS_TAIL.match(tail) and normalize_name(tail) not in NAME_SUFFIXES:
        # "Mary Smith, 45 Elm St", "John Jones, Apt 2": the address copied in
        return _reading(head)
    if tail:
        tail_label = _label_parts(normalize_name(tail))
        if tail_label is not None:
            # "Emma Smith, minor": a named minor; "Smith, Minor Child 1" and "Van
            # Alstyne, Minor Child 1": a label (its number tells the family's children)
            if not tail_label[0] and len(normalize_name(head).split()) >= 2:
                return _reading(head)
            family = tail_label[1] or normalize_name(head)
            return ("label", family, tail_label[0], "", "", "", "")
    trailing = re.fullmatch(r"(?P<name>.*[^\W\d_].*?)\s+(?P<age>\d{1,3})", name.strip())
    if trailing and len(normalize_name(trailing.group("name")).split()) >= 2:
        # "Mary Clark 45", "John Smith Jr 12": a name, then an age
        return (*_reading(trailing.group("name"))[:6], trailing.group("age"))
    tokens, suffix = _name_order(name)
    if len(tokens) < 2 or _initial(tokens[-1]):
        return ("incomplete", "", "", "", "", "", "")
    # a surname of particles (Van Buren, De La Cruz, Mc Donald) is one word,
    # as it is written joined (VanBuren, DelaCruz, McDonald): one family name
    # either way (a single letter, O, may be a middle initial: left alone)
    cut = len(tokens) - 1
    while cut > 1 and tokens[cut - 1] in _SURNAME_PARTICLES:
        cut -= 1
    if cut < len(tokens) - 1:
        tokens = (*tokens[:cut], "".join(tokens[cut:]))
    middle = tokens[1] if len(tokens) > 2 else ""
    swapped = len(tokens) == 2 and not _initial(tokens[0])
    return (
        "name",
        f"{tokens[-1]}|{suffix}",
        tokens[0],
        middle,
        f"{tokens[0]}|{suffix}" if swapped else "",
        tokens[1] if swapped else "",
        "",
    )


def _split_after_name(name: str) -> tuple[str, str]:
    """``name`` cut at its last comma or spaced dash: (before, after); after is "" if none."""
    cuts = list(_AFTER_NAME.finditer(name))
    if not cuts:
        return name, ""
    last = cuts[-1]
    return name[: last.start()], name[last.end() :]


def _given_alike(a: str, b: str) -> bool:
    """Whether two given names may be one person's: equal, an initial and a
    name it begins, or one a nickname of the other on the matcher's list
    (:func:`pipeline.people.names.first_name_keys`: RON and AARON, BILL and
    WILLIAM). Two names that are only nicknames of a third (WILLIAM and
    ROBERT, both BILL) are two people, and so is a close spelling (PAUL and
    PAULA, MARIO and MARIA)."""
    if a == b:
        return True
    if len(a) == 1 or len(b) == 1:
        return a[:1] == b[:1]
    return a in first_name_keys(b) or b in first_name_keys(a)


def _middle_alike(a: str, b: str) -> bool:
    """Whether two middle names may be one person's: either missing, an
    initial and a name it begins, or one name (ANN and ANNE, a nickname)."""
    if not a or not b or a == b:
        return True
    if len(a) == 1 or len(b) == 1:
        return a[0] == b[0]
    return given_names_alike(a, b)


def _specific(word: str) -> int:
    """2 for a word, 1 for an initial, 0 for nothing."""
    return min(len(word), 2)


def _cluster(entries: list[tuple[str, str, str, str]], *, label: bool) -> list[int]:
    """Which person of one surname in one home each entry is.

    ``entries`` are ``(given, middle, unit, age)``; two ages written tell two
    people apart as two units do (an entry without one may be either). The
    entries are taken the most telling first (a given name before an initial,
    a middle name before an initial before none, a unit before none, then in
    the order of their words); each joins the first person it may be
    (:func:`_given_alike`,
    :func:`_middle_alike`, the same unit or one of the two without one),
    who takes on what it tells (a full name over an initial, a unit), else
    is a person of its own. For anonymised labels (``label``) the given name
    is the label's number: two numbers are two children, a label without one
    is one of the others.
    """
    order = sorted(
        range(len(entries)),
        key=lambda i: (
            -_specific(entries[i][0]),
            -_specific(entries[i][1]),
            entries[i][2] == "",
            entries[i],
            i,
        ),
    )
    # each person: every given name it was written with (an entry joins only
    # if alike with each: BILL joined by ROBERT is no WILLIAM), middle, unit
    persons: list[tuple[list[str], list[str]]] = []
    out = [0] * len(entries)
    for i in order:
        given, middle, unit, age = entries[i]
        for k, (givens, (m, u, a)) in enumerate(persons):
            if label:
                same = not given or all(not g or given == g for g in givens)
            else:
                same = all(_given_alike(given, g) for g in givens) and _middle_alike(middle, m)
            if same and (not unit or not u or unit == u) and (not age or not a or age == a):
                givens.append(given)
                persons[k] = (
                    givens,
                    [middle if _specific(middle) > _specific(m) else m, u or unit, a or age],
                )
                out[i] = k
                break
        else:
            out[i] = len(persons)
            persons.append(([given], [middle, unit, age]))
    return out


def one_person_keys(names: pd.Series, homes: pd.Series, units: pd.Series) -> pd.Series:
    """Which entries of a list are one person in one home: a key per entry.

    The one rule of identity for the list of regular inhabitants and for the
    designees: where the written entries cannot tell two people apart, they
    are one (the count leans low).

    Parameters
    ----------
    names
        The names as written.
    homes
        Each entry's home: the parcel it is placed on, or unplaced the
        normalised address and the town written.
    units
        Each entry's unit (:func:`pipeline.people.names.address_unit`,
        ``""`` for none).

    Returns
    -------
    pandas.Series
        On the names' index: the person's key, equal for the entries of one
        person; ``""`` for an entry that names no one (blank, or an
        ``"incomplete"`` name of :func:`_reading`).

    Notes
    -----
    Within one home, entries of one surname (and suffix) are one person when
    their given names are alike (:func:`_given_alike`: equal, an initial,
    a nickname pair), their middle names are (:func:`_middle_alike`: ALLEN and
    ALBERT are two, A is the first of them, no middle name is one of the
    others) and their units are (``Apt 1`` and ``Apt 2`` are two homes, an
    entry without a unit is one of them); see :func:`_cluster`. A name of two
    words alone of its surname in the home, whose words the other way round
    give a surname found there, is read surname first (``"Abbott Aaron"``
    beside ``"Aaron A. Abbott"``). Anonymised labels of one home are one
    child unless their numbers differ (``"Minor child 1"`` and ``"Minor child
    2"`` are two; ``"Minor"`` and ``"Child of J. Smith"`` are one of them).
    """
    index = names.index
    codes, uniques = pd.factorize(names.astype(str).to_numpy())
    table = np.asarray([_reading(str(n)) for n in uniques], dtype=object).reshape(-1, 7)
    kind, family, given, middle, family2, given2, age = (table[codes, j] for j in range(7))
    home = homes.astype(str).to_numpy(dtype=object)
    unit = units.astype(str).to_numpy(dtype=object)
    named = kind == "name"
    label = kind == "label"
    counted = named | label
    # labels apart from names, by the family written with them (no surname holds a '#')
    family = np.where(label, "#" + family.astype(str), family)
    group = home + "\x1f" + family
    # a two-word name alone of its surname in the home, the other way round
    # of a surname there: surname first (of two such, the later surname moves)
    sizes = pd.Series(group[counted]).value_counts()
    size = sizes.reindex(group).fillna(0).to_numpy()
    other = home + "\x1f" + family2
    can = named & (family2 != "") & (size == 1) & (sizes.reindex(other).fillna(0).to_numpy() > 0)
    if can.any():
        goes_to = pd.Series(other[can], index=group[can])
        mutual = goes_to.reindex(other).to_numpy(dtype=object) == group
        move = can & (~mutual | (family > family2))
        family = np.where(move, family2, family)
        given = np.where(move, given2, given)
        middle = np.where(move, "", middle)
        group = home + "\x1f" + family
    keys = np.where(counted, group + "\x1f0", "")
    several = counted & pd.Series(group).duplicated(keep=False).to_numpy()
    if several.any():
        rows = np.flatnonzero(several)
        gcodes = pd.factorize(group[rows])[0]
        order = np.argsort(gcodes, kind="stable")
        bounds = np.flatnonzero(np.diff(gcodes[order])) + 1
        giv, mid, uni, grp, ag = (v[rows].tolist() for v in (given, middle, unit, group, age))
        for positions in np.split(order, bounds):
            at = positions.tolist()
            who = _cluster(
                [(giv[p], mid[p], uni[p], ag[p]) for p in at],
                label=str(family[rows[at[0]]]).startswith("#"),
            )
            for p, k in zip(at, who, strict=True):
                keys[rows[p]] = f"{grp[p]}\x1f{k}"
    return pd.Series(keys, index=index, dtype=str)


def inhabitant_identities(inhabitants: pd.DataFrame, placement: pd.DataFrame) -> pd.DataFrame:
    """Who each entry of the list of inhabitants is, whatever the territory.

    The part of :func:`inhabitant_schedule` that a territory does not change,
    computed once per petition (:func:`pipeline.evaluate.prepare`) and reused
    for every territory tried.

    Parameters
    ----------
    inhabitants
        Columns ``name``, ``address``, ``town`` (and ``source_row``).
    placement
        :func:`pipeline.people.placement.place_addresses` of the entries'
        addresses, on the same index (its ``fraction`` and ``inside`` are not
        read).

    Returns
    -------
    pandas.DataFrame
        On the inhabitants' index: ``name``, ``address``, ``name_norm``,
        ``address_norm``, ``anonymised`` (bool), ``parcel_key``, ``reason``,
        ``town`` and ``status``: ``no_name``, ``incomplete_name`` (one word,
        or one word and an initial: no one is named), ``duplicate``,
        ``unplaced`` or ``""`` (placed: inside or outside, as the territory
        decides).

    Notes
    -----
    A person is identified by name (read by
    :func:`pipeline.people.names.person_name_parts`: ``"Smith, Mary B"`` and
    ``"Mary B. Smith"`` are one name) + dwelling: the parcel they are placed on
    (unplaced: the normalised address and the town written) and the unit
    (:func:`pipeline.people.names.address_unit`: ``Apt 1`` and ``Apt 2`` are two
    homes), by :func:`one_person_keys`; the second and later entries of one
    person are ``duplicate``.
    """
    name_norm = _text(inhabitants["name"]).map(normalize_name).astype(str)
    addr_norm = placement["address_norm"].reindex(inhabitants.index).fillna("").astype(str)
    placed = placement["placed"].reindex(inhabitants.index).fillna(False).astype(bool)
    no_name = name_norm == ""
    written = _text(inhabitants["name"])
    # the same person at the same dwelling: the parcel they are placed on (an
    # address such as "1 Main St" may be in two towns) or, unplaced, the
    # address and the town written; and the unit ("Apt 1", "Apt 2": two homes)
    parcel = placement[PARCEL_KEY].reindex(inhabitants.index).fillna("").astype(str)
    town = (
        _text(inhabitants["town"]).str.upper().str.strip()
        if "town" in inhabitants.columns
        else pd.Series("", index=inhabitants.index, dtype=str)
    )
    where = parcel.where(placed, addr_norm + "|" + town)
    unit = _text(inhabitants["address"]).map(address_unit).astype(str)
    # one person however the name is written, where the list cannot tell two
    # apart: the count leans low (one_person_keys); a name that names no one
    # ("Aaron", "Mr. Smith") is set aside
    person = one_person_keys(written, where, unit)
    incomplete = ~no_name & (person == "")
    dup = (person != "") & person.duplicated(keep="first")
    status = np.select(
        [no_name, incomplete, dup, ~placed],
        ["no_name", "incomplete_name", "duplicate", "unplaced"],
        default="",
    )
    return pd.DataFrame(
        {
            "name": written,
            "address": _text(inhabitants["address"]),
            "name_norm": name_norm,
            "address_norm": addr_norm,
            "anonymised": np.asarray(
                [_reading(str(n))[0] == "label" for n in written.tolist()], dtype=bool
            ),
            PARCEL_KEY: parcel,
            "reason": placement["reason"].reindex(inhabitants.index).fillna("").astype(str),
            # the town written on the list (an address such as "1 Main St"
            # may be in two towns of the territory)
            "town": _text(inhabitants["town"])
            if "town" in inhabitants.columns
            else pd.Series("", index=inhabitants.index, dtype=str),
            "status": pd.Series(status, index=inhabitants.index, dtype=str),
        },
        index=inhabitants.index,
    )


def inhabitant_schedule(
    inhabitants: pd.DataFrame,
    placement: pd.DataFrame,
    *,
    identities: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The list of regular inhabitants (§ 2-202.1.c(2)), each entry classified.

    Parameters
    ----------
    inhabitants
        Columns ``name``, ``address``, ``town`` (and ``source_row``).
    placement
        :func:`pipeline.people.placement.place_addresses` of the entries'
        addresses, on the same index, with the territory's ``fraction`` and
        ``inside``.
    identities
        :func:`inhabitant_identities` of ``inhabitants`` when the caller has it
        already (it does not depend on the territory); computed when None or
        not on the inhabitants' index.

    Returns
    -------
    pandas.DataFrame
        On the inhabitants' index: ``name``, ``address``, ``name_norm``,
        ``address_norm``, ``anonymised`` (bool), ``parcel_key``, ``fraction``,
        ``status`` (``inside``, ``outside``, ``duplicate``, ``unplaced``,
        ``no_name``, ``incomplete_name``) and ``reason`` (why unplaced).

    Notes
    -----
    A person is identified by name and dwelling (:func:`inhabitant_identities`);
    the second and later entries of one person are ``duplicate``.
    Anonymised minors (``"Minor"``, ``"Minor child 1"``, ``"(minor)"``,
    ``"Child of J. Smith"``) are persons like any other entry, told apart in
    one home only by the numbers of their labels: ``"Minor child 1"`` and
    ``"Minor child 2"`` at one address are two children, while ``"Minor"``,
    ``"Child of J. Smith"`` and ``"Child of K. Smith"`` there may be one child
    (of J. and K. Smith) and are counted as one, with the first numbered
    label if there is one (number the labels to list several children). A
    placed entry is ``inside`` when its placement is (``inside``), else
    ``outside``.
    """
    ids = identities
    if ids is None or not ids.index.equals(inhabitants.index):
        ids = inhabitant_identities(inhabitants, placement)
    inside = placement["inside"].reindex(inhabitants.index).fillna(False).astype(bool)
    known = ids["status"].to_numpy(dtype=object)
    placed_as = np.where(inside.to_numpy(dtype=bool), "inside", "outside")
    status = np.where(known != "", known, placed_as)
    return pd.DataFrame(
        {
            "name": ids["name"],
            "address": ids["address"],
            "name_norm": ids["name_norm"],
            "address_norm": ids["address_norm"],
            "anonymised": ids["anonymised"],
            PARCEL_KEY: ids[PARCEL_KEY],
            "fraction": placement["fraction"].reindex(inhabitants.index).astype("float64"),
            "status": pd.Series(status, index=inhabitants.index, dtype=str),
            "reason": ids["reason"],
            "town": ids["town"],
        },
        index=inhabitants.index,
    )


def unplaced_inhabitants_deficiency(
    inhabitants: pd.DataFrame, schedule: pd.DataFrame
) -> Deficiency | None:
    """``inhabitants_unplaced`` naming the list's rows that cannot be placed (None: none).

    Whether it is a deficiency of the petition depends on the count
    (:func:`population_check`: only where placing them could change the
    verdict).
    """
    unplaced = schedule.loc[schedule["status"] == "unplaced"]
    if not len(unplaced):
        return None
    rows = (
        inhabitants.loc[unplaced.index, "source_row"].astype(str).tolist()
        if "source_row" in inhabitants.columns
        else [str(i) for i in unplaced.index]
    )
    return deficiency_for(
        "inhabitants_unplaced",
        f"{len(unplaced)} entr(y/ies) of the list of inhabitants could not be "
        "placed on a parcel by address (no or several parcels with that address)",
        where="inhabitants rows " + _where(rows),
    )


def population_check(
    inhabitants: pd.DataFrame,
    placement: pd.DataFrame,
    *,
    regime: Regime,
    schedule: pd.DataFrame | None = None,
) -> tuple[dict[str, Any], list[Deficiency]]:
    """At least the regime's minimum of regular inhabitants (§ 2-200, § 2-202.1.b(3)).

    Parameters
    ----------
    inhabitants
        The list of regular inhabitants: ``name``, ``address``, ``town``.
    placement
        Placement of their addresses, on the same index.
    regime
        The rule set (``minimum_population``: 500 before 2024, 1,500 from 2024).
    schedule
        :func:`inhabitant_schedule` of ``inhabitants`` and ``placement`` when the
        caller has it already (it is not built twice).

    Returns
    -------
    part : dict
        ``{"regular_inhabitants", "minimum", "passes", "outside", "duplicates",
        "unplaced", "without_name", "incomplete_names", "anonymised"}``
        (``incomplete_names``: entries set aside because their words name no
        one, such as ``"Aaron"`` or ``"Mr. Smith"``).
    deficiencies : list of dict
        ``population_below_minimum``; ``inhabitants_list_missing`` (c(2)) when
        the list has no entry (none was given); with a shortfall, ``inhabitants_unplaced`` when
        entries cannot be placed (they are listed for review, not guessed)
        and are as many as the shortfall or more (placed, they could make it
        up). With enough persons placed, the
        unplaced entries are only reported (``unplaced``).

    Notes
    -----
    ``regular_inhabitants`` = number of distinct persons (normalised name +
    address, see :func:`inhabitant_schedule`) placed inside the territory;
    ``passes = regular_inhabitants >= minimum``.
    """
    sched = inhabitant_schedule(inhabitants, placement) if schedule is None else schedule
    counts = sched["status"].value_counts()

    def n(s: str) -> int:
        return int(counts.get(s, 0))

    inside = n("inside")
    minimum = int(regime.minimum_population)
    passes = inside >= minimum
    defs: list[Deficiency] = []
    if not passes:
        defs.append(
            deficiency_for(
                "population_below_minimum",
                f"{inside} regular inhabitant(s) placed in the territory, fewer than "
                f"the {minimum} required",
                paragraph=population_paragraph(regime),
            )
        )
    if not len(inhabitants):
        # the petition must annex the list (c(2)); without it no inhabitant is counted
        defs.append(
            deficiency_for(
                "inhabitants_list_missing",
                "no list of the names and addresses of the regular inhabitants is annexed "
                "(config [inhabitants] file)",
            )
        )
    # entries that cannot be placed are reported (the part's ``unplaced``, the
    # schedule's status); they are a deficiency only where the count falls
    # short by no more than they are, since placing them could change the
    # verdict (audit A22 O2: 489 inside and 7 unplaced stay short of 500)
    unplaced = unplaced_inhabitants_deficiency(inhabitants, sched)
    if unplaced is not None and not passes and inside + n("unplaced") >= minimum:
        defs.append(unplaced)
    part = {
        "regular_inhabitants": inside,
        "minimum": minimum,
        "passes": bool(passes),
        "outside": n("outside"),
        "duplicates": n("duplicate"),
        "unplaced": n("unplaced"),
        "without_name": n("no_name"),
        "incomplete_names": n("incomplete_name"),
        "anonymised": int((sched["anonymised"] & (sched["status"] == "inside")).sum()),
    }
    return part, defs


# --------------------------------------------------------------------------- designees


def _full_name(name: str) -> bool:
    """A given name and a surname, each more than an initial (see :func:`designees_check`).

    The words are read as :func:`_name_order` reads them (``"Abbott Aaron A"``
    is Aaron A. Abbott, a full name).
    """
    tokens, _ = _name_order(name)
    return len(tokens) >= 2 and len(tokens[-1]) > 1 and any(len(t) > 1 for t in tokens[:-1])


def designees_check(
    designees: Sequence[Mapping[str, Any]],
    placement: pd.DataFrame,
) -> tuple[dict[str, Any], list[Deficiency]]:
    """One to three designees with full names and addresses, a majority inside (§ 2-202.1.b(5)).

    Parameters
    ----------
    designees
        Each with ``name``, ``address``, ``town``.
    placement
        Placement of the designees' addresses, indexed ``0..n-1`` in the order
        of ``designees``.

    Returns
    -------
    part : dict
        ``{"count", "residing_in_territory", "passes", "problems"}``.
    deficiencies : list of dict
        One ``designees_invalid`` listing every problem.

    Notes
    -----
    A full name has a given name and a surname, each of more than an
    initial (titles and a generational suffix set aside: "Mr. Smith", "Jane
    Q." and "J. Smith" are not full names; "J. Robert Smith" is). Majority:
    ``2 × residing > count``, so 2 of 3 and 1 of 1 pass, 1 of 2 fails. A
    designee whose address cannot be placed does not count as residing. A
    person listed twice is one designee, counted once and named in
    ``listed_twice``: the same home (the parcel placed on, or unplaced the
    address and town written) and entries that cannot be told apart, by the
    rule of the list of inhabitants (:func:`one_person_keys`): "Aaron A.
    Abbott", "Aaron Abbott", "Aaron Alfred Abbott", "Abbott, Aaron A." and
    "Aaron A. Abbott, Apt 1" at one address are one; "Pat Lee" of 1 Elm St in
    two towns, or of Apt 1 and Apt 2, are two.
    """
    # the law designates persons: one listed twice (however the name is
    # written, in the same home) is one designee, by the rule of identity of
    # the list of inhabitants (one_person_keys): where the list cannot tell
    # two apart, they are one, so that the designees are never overstated
    names = [str(d.get("name") or "").strip() for d in designees]
    addresses = [str(d.get("address") or "") for d in designees]
    homes = []
    for i, d in enumerate(designees):
        placed = i in placement.index and bool(placement.at[i, "placed"])
        homes.append(
            str(placement.at[i, PARCEL_KEY])
            if placed
            else normalize_address_text(addresses[i])
            + "|"
            + str(d.get("town") or "").strip().upper()
        )
    keys = one_person_keys(
        pd.Series(names, dtype=str),
        pd.Series(homes, dtype=str),
        pd.Series([address_unit(a) for a in addresses], dtype=str),
    ).tolist()
    seen: set[str] = set()
    persons: list[int] = []
    repeated: list[str] = []
    for i, key in enumerate(keys):
        if key and key in seen:
            repeated.append(names[i])
            continue
        seen.add(key)
        persons.append(i)
    count = len(persons)
    problems: list[str] = []
    if count < 1:
        problems.append("no designee (at least one is required)")
    if count > 3:
        problems.append(f"{count} designees (no more than three allowed)")
    residing = 0
    for i in persons:
        d = designees[i]
        name = str(d.get("name") or "").strip()
        address = str(d.get("address") or "").strip()
        label = name or f"designee {i + 1}"
        if not _full_name(name):
            problems.append(f"{label}: a full name (first and last) is required")
        if not address:
            problems.append(f"{label}: no address")
        if i in placement.index and bool(placement.at[i, "inside"]):
            residing += 1
    if count and not 2 * residing > count:
        problems.append(
            f"{residing} of {count} designee(s) reside in the territory; a majority is required"
        )
    passes = not problems
    defs = (
        []
        if passes
        else [deficiency_for("designees_invalid", "; ".join(problems), where="designees")]
    )
    part = {
        "count": count,
        "residing_in_territory": residing,
        "passes": passes,
        "problems": problems,
        "listed_twice": repeated,
    }
    return part, defs


# --------------------------------------------------------------------------- pages and lines


def witness_count_check(
    pages: pd.DataFrame, signatures: pd.DataFrame
) -> tuple[dict[str, Any], list[Deficiency]]:
    """Each page's lines against the number its witness swore to (§ 2-202.1.e(4)).

    Parameters
    ----------
    pages
        ``page``, ``stated_signature_count``.
    signatures
        ``page``, ``line``.

    Returns
    -------
    part : dict
        ``{"pages": [{"page", "stated", "lines", "matches"}], "mismatched_pages": [...]}``.
    deficiencies : list of dict
        One ``witness_count_mismatch`` per page whose line count differs from
        the stated count, and per page of signatures that has no page record
        (no witness affidavit), with ``where = "page N"``.

    Notes
    -----
    The witness swears to the signatures on the page on the day of the
    affidavit (``sworn_on``, when the pages give it): a line dated after it
    was not there, so the count sworn to is of the lines signed on or before
    that day (a page stating 25 whose 25th line is dated after the oath held
    24 when sworn: a mismatch; one stating 24 matches, and the late line
    counts for nothing, :func:`late_lines`).
    """
    sworn_of = dict(
        zip(
            pages["page"].astype("int64"),
            _text(pages.get("sworn_on", pd.Series("", index=pages.index))),
            strict=True,
        )
    )
    signed = _text(signatures.get("signed_on", pd.Series("", index=signatures.index)))
    sworn = signatures["page"].astype("int64").map(sworn_of).fillna("").astype("str")
    at_oath = ~((signed != "") & (sworn != "") & (signed > sworn))
    lines = signatures.loc[at_oath.to_numpy(dtype=bool), "page"].astype("int64").value_counts()
    later = signatures.loc[~at_oath.to_numpy(dtype=bool), "page"].astype("int64").value_counts()
    rows: list[dict[str, Any]] = []
    defs: list[Deficiency] = []
    known: set[int] = set()
    for page, stated in zip(
        pages["page"].astype("int64"), pages["stated_signature_count"], strict=True
    ):
        p = int(page)
        known.add(p)
        n = int(lines.get(p, 0))
        late = int(later.get(p, 0))
        st = None if pd.isna(stated) else int(stated)
        ok = st == n
        rows.append({"page": p, "stated": st, "lines": n, "matches": ok})
        if not ok:
            said = "states no number" if st is None else f"states {st} signature(s)"
            held = (
                f"the page held {n} when it was sworn ({late} more line(s) are dated after "
                f"the affidavit, {sworn_of.get(p, '')})"
                if late
                else f"the page holds {n}"
            )
            defs.append(
                deficiency_for(
                    "witness_count_mismatch",
                    f"page {p}: the witness affidavit {said} but {held}",
                    where=f"page {p}",
                )
            )
    for p in sorted(int(x) for x in lines.index if int(x) not in known):
        n = int(lines[p])
        rows.append({"page": p, "stated": None, "lines": n, "matches": False})
        defs.append(
            deficiency_for(
                "witness_count_mismatch",
                f"page {p}: {n} signature line(s) but no page record (no witness affidavit)",
                where=f"page {p}",
            )
        )
    rows.sort(key=lambda r: r["page"])
    part = {
        "pages": rows,
        "mismatched_pages": [r["page"] for r in rows if not r["matches"]],
    }
    return part, defs


def late_lines(
    signatures: pd.DataFrame, pages: pd.DataFrame, *, filed_on: dt.date | None = None
) -> pd.Series:
    """Why each line was signed too late to count (``""``: in time).

    The witness swears that each person on the page signed in their presence
    (§ 2-202.1.e(4)): a line dated after the page's affidavit (``sworn_on``)
    is not authenticated by it, and a line dated after ``filed_on`` cannot be
    on the petition filed. Blank dates are not judged.

    Parameters
    ----------
    signatures
        ``page``, ``signed_on`` (ISO date text or ``""``).
    pages
        ``page``, ``sworn_on`` (ISO date text or ``""``).
    filed_on
        The filing date (a :class:`datetime.date`, or None).

    Returns
    -------
    pandas.Series
        On the signatures' index: the reason, or ``""``.
    """
    signed = _text(signatures.get("signed_on", pd.Series("", index=signatures.index)))
    sworn_of = dict(
        zip(
            pages["page"].astype("int64"),
            _text(pages.get("sworn_on", pd.Series("", index=pages.index))),
            strict=True,
        )
    )
    sworn = signatures["page"].astype("int64").map(sworn_of).fillna("").astype("str")
    filed = filed_on.isoformat() if filed_on is not None else ""
    # ISO dates compare as text
    after_oath = (signed != "") & (sworn != "") & (signed > sworn)
    after_filing = (signed != "") & (filed != "") & (signed > filed)
    note = pd.Series("", index=signatures.index, dtype="str")
    note = note.where(
        ~after_oath, "signed on " + signed + ", after the witness's affidavit sworn on " + sworn
    )
    # after the filing too: that first (it cannot be on the petition filed)
    note = note.where(
        ~after_filing, "signed on " + signed + ", after the petition was filed on " + filed
    )
    return note


def _page_text(pages: pd.DataFrame, col: str) -> pd.Series:
    """A page column as stripped text; None-like when the frame lacks it."""
    if col not in pages.columns:
        return pd.Series("?", index=pages.index, dtype="str")  # not recorded: not judged
    return _text(pages[col])


def affidavit_check(
    pages: pd.DataFrame, *, filed_on: dt.date | None = None, sworn_recorded: bool = True
) -> tuple[dict[str, Any], list[Deficiency]]:
    """Each page's authenticating affidavit of a witness (§ 2-202.1.e(4)).

    The statute's form names the witness, states where the witness resides and
    ends "Sworn to before me this ... day of ...". A page without a witness
    has no affidavit at all; a witness without a residence or an affidavit
    without its date is incomplete; an affidavit sworn after the filing date
    was not on the petition filed.

    Parameters
    ----------
    pages
        ``page``, ``witness_name``, ``witness_address``, ``sworn_on`` (ISO
        date text or ``""``). A column the frame lacks is not judged.
    filed_on
        The filing date, or None.
    sworn_recorded
        False when the pages file has no ``sworn_on`` column at all: blank
        dates are then not judged (the caller warns instead).

    Returns
    -------
    part : dict
        ``{"without_affidavit": [pages], "incomplete": [pages],
        "sworn_after_filing": [pages]}``.
    deficiencies : list of dict
        ``page_without_affidavit``, ``affidavit_incomplete`` (naming what is
        missing on each page) and ``affidavit_sworn_after_filing``.

    Notes
    -----
    The lines of a page without an affidavit, or with one sworn after the
    filing date, do not count (:func:`unauthenticated_lines`); an incomplete
    affidavit is a deficiency to cure but leaves its lines counted.
    """
    page = pages["page"].astype("int64")
    witness = _page_text(pages, "witness_name")
    residence = _page_text(pages, "witness_address")
    sworn = _page_text(pages, "sworn_on") if sworn_recorded else pd.Series("?", index=pages.index)
    missing = witness == ""
    filed = filed_on.isoformat() if filed_on is not None else ""
    late = ~missing & (sworn != "") & (sworn != "?") & (filed != "") & (sworn > filed)
    gaps: dict[int, list[str]] = {}
    for p, unnamed, home, day in zip(page, missing, residence, sworn, strict=True):
        what = [w for w, gap in (("witness residence", home == ""), ("date", day == "")) if gap]
        if what and not unnamed:
            gaps[int(p)] = what

    def pages_deficiency(code: str, mask: pd.Series, what: str) -> Deficiency:
        where = sorted(int(p) for p in page[mask])
        return deficiency_for(
            code, f"{len(where)} {what}", where="pages " + _where([str(p) for p in where])
        )

    defs: list[Deficiency] = []
    if missing.any():
        defs.append(
            pages_deficiency(
                "page_without_affidavit",
                missing,
                "signature page(s) without a witness's authenticating affidavit (no witness "
                "named): their lines do not count",
            )
        )
    if gaps:
        lacking = sorted({w for ws in gaps.values() for w in ws})
        defs.append(
            deficiency_for(
                "affidavit_incomplete",
                f"{len(gaps)} page(s) whose witness affidavit lacks its "
                + " or its ".join(lacking),
                where=_where(
                    [f"page {p}: no {' and no '.join(ws)}" for p, ws in sorted(gaps.items())]
                ),
            )
        )
    if late.any():
        defs.append(
            pages_deficiency(
                "affidavit_sworn_after_filing",
                late,
                f"page(s) whose witness affidavit was sworn after the petition was filed on "
                f"{filed}: their lines do not count",
            )
        )
    part = {
        "without_affidavit": sorted(int(p) for p in page[missing]),
        "incomplete": sorted(gaps),
        "sworn_after_filing": sorted(int(p) for p in page[late]),
    }
    return part, defs


def unauthenticated_lines(
    signatures: pd.DataFrame, pages: pd.DataFrame, *, filed_on: dt.date | None = None
) -> pd.Series:
    """Why each line is not authenticated by its page's affidavit (``""``: it is).

    In order: the page has no affidavit (no witness named); the page's
    affidavit was sworn after ``filed_on``; the line itself is late
    (:func:`late_lines`). Such lines are ``page_defect`` and earn nothing.

    Parameters
    ----------
    signatures
        ``page``, ``signed_on``.
    pages
        ``page``, ``witness_name``, ``sworn_on`` (a column the frame lacks is
        not judged).
    filed_on
        The filing date, or None.

    Returns
    -------
    pandas.Series
        On the signatures' index: the reason, or ``""``.
    """
    note = late_lines(signatures, pages, filed_on=filed_on)
    page = pages["page"].astype("int64")
    witness = _page_text(pages, "witness_name")
    sworn = _page_text(pages, "sworn_on")
    filed = filed_on.isoformat() if filed_on is not None else ""
    reason: dict[int, str] = {}
    for p, who, day in zip(page, witness, sworn, strict=True):
        if who == "":
            reason[int(p)] = f"page {int(p)} has no witness affidavit (no witness named)"
        elif day not in ("", "?") and filed and day > filed:
            reason[int(p)] = (
                f"the witness affidavit of page {int(p)} was sworn on {day}, after the "
                f"petition was filed on {filed}"
            )
    if not reason:
        return note
    of_page = signatures["page"].astype("int64").map(reason).fillna("").astype("str")
    return of_page.where(of_page != "", note)


def line_checks(
    signatures: pd.DataFrame, pages: pd.DataFrame, *, towns_recorded: bool = True
) -> tuple[dict[str, Any], list[Deficiency]]:
    """What must follow each signature (§ 2-202.1.e(3)).

    The statute asks, after each signature, for "the signer's address
    consisting of street name and number, if any, and town" and, on owner
    pages, the assessed valuation credited to the signer.

    Parameters
    ----------
    signatures
        ``page``, ``line``, ``address``, ``credited_assessed_value`` and,
        when present, ``town``.
    pages
        ``page``, ``basis``.
    towns_recorded
        False when the signatures file has no ``town`` column at all: the
        towns were not transcribed, so their absence says nothing of the
        petition and is not checked (the caller warns instead).

    Returns
    -------
    part : dict
        ``{"lines", "without_address", "without_town",
        "owner_lines_without_value"}`` (``without_town`` is None when the
        towns are not checked).
    deficiencies : list of dict
        ``line_without_address`` (every line without its signer's address),
        ``line_without_town`` (every line with an address but no town) and
        ``owner_page_without_value`` (owner-page lines without the credited
        assessed valuation), each listing ``page:line``.
    """
    # the lines in page and line order, whatever the file's
    signatures = signatures.iloc[
        np.lexsort(
            (
                signatures["line"].astype("int64").to_numpy(),
                signatures["page"].astype("int64").to_numpy(),
            )
        )
    ]
    where = (
        signatures["page"].astype("int64").astype(str)
        + ":"
        + signatures["line"].astype("int64").astype(str)
    )
    no_addr = _text(signatures["address"]) == ""
    check_towns = towns_recorded and "town" in signatures.columns
    no_town = (
        ~no_addr & (_text(signatures["town"]) == "")
        if check_towns
        else pd.Series(False, index=signatures.index)
    )
    owner_pages = set(pages.loc[_text(pages["basis"]).str.lower() == "owners", "page"])
    on_owner = signatures["page"].isin(owner_pages)
    value = pd.to_numeric(signatures["credited_assessed_value"], errors="coerce")
    no_value = on_owner & value.isna()
    defs = [
        deficiency_for(
            code, f"{int(mask.sum())} {what}", where="lines " + _where(where[mask].tolist())
        )
        for code, mask, what in (
            ("line_without_address", no_addr, "signature line(s) without the signer's address"),
            (
                "line_without_town",
                no_town,
                "signature line(s) whose address lacks the signer's town",
            ),
            (
                "owner_page_without_value",
                no_value,
                "owner-page line(s) without the assessed valuation credited to the signer",
            ),
        )
        if mask.any()
    ]
    part = {
        "lines": len(signatures),
        "without_address": int(no_addr.sum()),
        "without_town": int(no_town.sum()) if check_towns else None,
        "owner_lines_without_value": int(no_value.sum()),
    }
    return part, defs


# --------------------------------------------------------------------------- verdict


def sufficiency(summary: Mapping[str, Any]) -> bool:
    """The verdict: every alleged basis passes and no deficiency remains.

    Parameters
    ----------
    summary
        The assembled ``summary.json`` object.

    Returns
    -------
    bool
        ``True`` only when at least one basis test applies, every test that
        applies has ``passes`` true, the ``population``, ``area`` and
        ``designees`` parts present have ``passes`` true, the territory does
        not include an existing village, and ``deficiencies`` is empty.
    """
    if summary.get("deficiencies"):
        return False
    applied = 0
    for key in ("owner_test", "resident_test"):
        part = summary.get(key)
        if isinstance(part, Mapping) and part.get("applies"):
            applied += 1
            if part.get("passes") is not True:
                return False
    if applied == 0:
        return False
    for key in ("population", "area", "designees"):
        part = summary.get(key)
        if isinstance(part, Mapping) and part.get("passes") is not True:
            return False
    territory = summary.get("territory")
    return not (isinstance(territory, Mapping) and territory.get("includes_existing_village"))


def population_paragraph(regime: Regime) -> str | None:
    """The paragraph of ``population_below_minimum`` under ``regime``.

    § 2-200 as the seed text has it (500); the 2024 amendment's minimum
    (1,500) is § 2-200 as amended (audit A36 F2), as the owner route's
    removal is cited ``2-202.1.a (as amended 2024)``.
    """
    return "2-200 (as amended 2024)" if regime.name == "2024" else None
