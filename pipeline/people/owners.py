"""Owners parsed from the assessment roll (§ 2-202.1.a(2): co-owners and entities).

The ORPTS roll carries up to four owners per record: the primary owner and
``additional_owner_1..3``, each as first name, middle initial, last name and
suffix. An entity (LLC, corporation, trust, estate, municipality, church...)
is written in the last-name field only. An ownership override (the assessor's
word, :data:`pipeline.frames.OWNERSHIP_OVERRIDE_COLUMNS`) replaces the roll's
owners of its parcel.

The result is the *owners frame*, one row per (parcel, owner):

=============  ==============================================================
parcel_key     canonical parcel key
owner_index    0, 1, ... in the roll's order (primary first)
name           display name, e.g. ``"JOHN A SMITH"``, ``"EXAMPLE HOLDINGS LLC"``
kind           ``"person"`` or ``"entity"``
first, middle, last, suffix   the parts (upper case; entity: ``last`` only)
norm_name      :func:`pipeline.people.names.normalize_name` of ``name``
owner_count    number of owners of the parcel (the divisor of § 2-202.1.a(2))
owner_source   ``"roll"``, ``"text"`` or ``"override"``
subkind        ``"person"``, ``"business"``, ``"trust"``, ``"estate"``,
               ``"government"``, ``"organization"`` or ``"other"``
role           ``""``, ``"trustee"``, ``"executor"``, ``"life tenant"``,
               ``"remainder"`` (see :func:`parse_owner_text`)
agent          for a trust or an estate, the trustees / executors named
etal           the parcel's owners were written ``ETAL`` and no ownership
               override gives their number: the count is "at least"
               ``owner_count`` (see :func:`owner_quality`); a signer matched
               to such a parcel awaits review
care_of        care-of names of the parcel (``C/O ...``), ``"; "``-joined
=============  ==============================================================

Free text (county parcel layers write ``SMITH JOHN A & MARY``, ``JONES
ROBERT ETAL``, ``SMITH FAMILY REV TRUST``...) is read by
:func:`parse_owner_text`: for the optional roll column ``owner_text`` (used
only for a record whose structured owner fields are all empty, so an ORPTS
roll reads as before) and for the names of an ownership override.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import numpy as np
import pandas as pd

from pipeline.frames import PARCEL_KEY
from pipeline.people.names import NAME_SUFFIXES, normalize_names
from pipeline.tools import isin

__all__ = [
    "ENTITY_PATTERN",
    "ENTITY_REGEX",
    "OWNER_COLUMNS",
    "OWNER_TEXT_COLUMN",
    "ROLES",
    "SUBKINDS",
    "ParsedOwner",
    "is_entity_name",
    "override_owner_names",
    "owner_counts",
    "owner_quality",
    "parse_owner_text",
    "parse_owners",
]

#: Optional roll column with the owners as free text (a county layer's owner
#: field). Not in :data:`pipeline.frames.ROLL_COLUMNS`: read when present.
OWNER_TEXT_COLUMN = "owner_text"

OWNER_COLUMNS: tuple[str, ...] = (
    PARCEL_KEY,
    "owner_index",
    "name",
    "kind",
    "first",
    "middle",
    "last",
    "suffix",
    "norm_name",
    "owner_count",
    "owner_source",
    # added after the original columns (readers of the frame by name are unaffected)
    "subkind",
    "role",
    "agent",
    "etal",
    "care_of",
)

_ENTITY_WORDS = (
    # business forms
    r"L\.? ?L\.? ?C\.?|INC|INCORPORATED|CORP|CORPORATION|CO|COMPANY|LTD|LIMITED|LP|LLP|PLLC|PC"
    r"|HOLDINGS?|PROPERTIES|PROPERTY|REALTY|ENTERPRISES?|PARTNERS|PARTNERSHIP|ASSOCIATES"
    r"|DEVELOPMENT|DEVELOPERS|INVESTMENTS?|VENTURES?|GROUP|FUND|MANAGEMENT|MGMT"
    # trusts and estates
    r"|TRUST|TRUSTS|TRUSTEES?|TRST|ESTATE|EST|REVOCABLE|IRREVOCABLE|LIVING TRUST"
    # public bodies
    r"|TOWN OF|VILLAGE OF|CITY OF|COUNTY OF|STATE OF|PEOPLE OF|UNITED STATES|USA|NYS"
    r"|DISTRICT|DIST|AUTHORITY|COMMISSION|DEPT|DEPARTMENT|BOARD OF"
    # institutions
    r"|CHURCH|PARISH|DIOCESE|SYNAGOGUE|CONGREGATION|TEMPLE|MINISTRIES|CEMETERY"
    r"|SCHOOL|ACADEMY|COLLEGE|UNIVERSITY|HOSPITAL|LIBRARY|MUSEUM|FOUNDATION|SOCIETY"
    r"|ASSOC|ASSOCIATION|ASSN|CLUB|LODGE|LEAGUE|LEGION|FIRE|RESCUE|HOA|CONDOMINIUM|CONDO"
    r"|BANK|SAVINGS|CREDIT UNION|FEDERAL|MORTGAGE"
    # utilities and carriers
    r"|RAILROAD|RAILWAY|RR|POWER|ELECTRIC|GAS|TELEPHONE|TEL|COMMUNICATIONS|CABLE|WATER WORKS"
    r"|NATIONAL GRID|VERIZON|CENTRAL HUDSON|NIAGARA MOHAWK|FARMS|ORCHARDS|BROS|BROTHERS"
    r"|& ?SONS?|AND SONS?"
)

#: A name matching this (upper case) is an entity, whatever fields it sits in. (The
#: pattern is valid both for Python ``re`` and for RE2, which pyarrow uses.)
ENTITY_REGEX = rf"(?:^|[^A-Z0-9])(?:{_ENTITY_WORDS})(?:[^A-Z0-9]|$)"
ENTITY_PATTERN: re.Pattern[str] = re.compile(ENTITY_REGEX)

_SLOTS: tuple[tuple[str, str, str, str], ...] = (
    (
        "primary_owner_first_name",
        "primary_owner_mi",
        "primary_owner_last_name",
        "primary_owner_suffix",
    ),
    *(
        (
            f"additional_owner_{i}_first",
            f"additional_owner_{i}_mi",
            f"additional_owner_{i}_last_name",
            f"additional_owner_{i}_suffix",
        )
        for i in (1, 2, 3)
    ),
)

_SPACES = re.compile(r"\s+")
_SPACES_RE2 = "[ \t\r\n\f\v]+"  # RE2-safe (pandas runs "\\s" in Python)


def is_entity_name(name: str) -> bool:
    """Whether a name reads as an entity (LLC, trust, town, church...).

    Parameters
    ----------
    name
        A name as written, any case.

    Returns
    -------
    bool
        True when :data:`ENTITY_PATTERN` finds an entity word in it.
    """
    return bool(ENTITY_PATTERN.search(name.upper()))


# ------------------------------------------------------------------ free-text owners

OwnerKind = Literal["person", "entity"]

#: ``subkind`` values: a person, or the sort of entity.
SUBKINDS: tuple[str, ...] = (
    "person",
    "business",
    "trust",
    "estate",
    "government",
    "organization",
    "other",
)

#: ``role`` values: ``""`` (plain owner), ``"trustee"`` (the trust is the owner,
#: the named persons sign for it), ``"executor"`` (likewise for an estate),
#: ``"life tenant"``, ``"remainder"`` and ``"c/o"`` (care-of: not an owner).
ROLES: tuple[str, ...] = ("", "trustee", "executor", "life tenant", "remainder", "c/o")


@dataclass(frozen=True, slots=True)
class ParsedOwner:
    """One owner (or one care-of name) read from free text.

    Attributes
    ----------
    name
        Display name, upper case: a person in reading order
        (``"JOHN A SMITH JR"``), an entity as written (``"SMITH FAMILY REV
        TRUST"``), an estate as ``"ESTATE OF JOHN SMITH"``.
    kind
        ``"person"`` or ``"entity"`` (the divisor of § 2-202.1.a(2) counts
        each once).
    subkind
        One of :data:`SUBKINDS`.
    first, middle, last, suffix
        A person's parts (upper case, as written); for an estate the
        decedent's, for a trust held by named trustees the first trustee's;
        ``""`` for other entities (their whole name is ``name``).
    role
        One of :data:`ROLES`.
    agent
        For a trust or an estate: the trustees or executors named, in reading
        order, joined by ``"; "`` (who signs for it); else ``""``.
    etal
        The text says ``ETAL`` (or ``ET UX``, ``ET VIR``): more owners exist
        than are named, so the owner count is "at least" the names read.
    """

    name: str
    kind: OwnerKind
    subkind: str
    first: str = ""
    middle: str = ""
    last: str = ""
    suffix: str = ""
    role: str = ""
    agent: str = ""
    etal: bool = False

    @property
    def is_owner(self) -> bool:
        """False for a care-of name (``role == "c/o"``), True otherwise."""
        return self.role != "c/o"


_GOV_START = re.compile(
    r"^(?:THE )?(?:TOWN|VILLAGE|CITY|COUNTY|STATE|PEOPLE|COMMISSIONER|COMMISSIONERS) OF "
    r"|^(?:THE )?UNITED STATES"
)
_WORDS_GOV = (
    r"TOWN OF|VILLAGE OF|CITY OF|COUNTY OF|STATE OF|PEOPLE OF|UNITED STATES|USA|US|NYS|NYC"
    r"|NEW YORK STATE|COUNTY|TOWN|VILLAGE|DISTRICT|DIST|AUTHORITY|COMMISSION|DEPT|DEPARTMENT"
    r"|BOARD OF|AGENCY|IDA|DOT|DEC"
)
_WORDS_BUSINESS = (
    r"LLC|L L C|INC|INCORPORATED|CORP|CORPORATION|CO|COMPANY|LTD|LIMITED|LP|LLP|PLLC|PC|NA"
    r"|HOLDINGS?|PROPERTIES|PROPERTY|REALTY|REAL ESTATE|ENTERPRISES?|PARTNERS|PARTNERSHIP"
    r"|ASSOCIATES|DEVELOPMENT|DEVELOPERS|INVESTMENTS?|VENTURES?|GROUP|FUND|MANAGEMENT|MGMT"
    r"|BANK|SAVINGS|CREDIT UNION|FEDERAL|MORTGAGE|RAILROAD|RAILWAY|RR|POWER|ELECTRIC|GAS"
    r"|TELEPHONE|TEL|COMMUNICATIONS|CABLE|WATER WORKS|NATIONAL GRID|VERIZON|CENTRAL HUDSON"
    r"|NIAGARA MOHAWK|FARMS?|ORCHARDS?|BROS|BROTHERS|(?:&|AND) SONS?|DBA|D/B/A|MOTORS|SERVICES"
)
_WORDS_ORG = (
    r"CHURCH|PARISH|DIOCESE|SYNAGOGUE|CONGREGATION|TEMPLE|MINISTRIES|CEMETERY|SCHOOL|ACADEMY"
    r"|COLLEGE|UNIVERSITY|HOSPITAL|LIBRARY|MUSEUM|FOUNDATION|SOCIETY|ASSOC|ASSOCIATION|ASSN"
    r"|CLUB|LODGE|LEAGUE|LEGION|FIRE|RESCUE|HOA|CONDOMINIUM|CONDO|HOMEOWNERS|CONSERVANCY"
    r"|COUNCIL|INSTITUTE|CENTER|CENTRE|ORGANIZATION"
)
_WORDS_TRUST = (
    r"TRUST|TRUSTS|TRST|REVOCABLE|IRREVOCABLE|(?:REV|LIV|LIVING|IRREV|FAMILY|FAM|RES) TR|QPRT"
)


def _words(alternatives: str) -> re.Pattern[str]:
    return re.compile(rf"(?:^| )(?:{alternatives})(?: |$)")


_GOV = _words(_WORDS_GOV)
_BUSINESS = _words(_WORDS_BUSINESS)
_ORG = _words(_WORDS_ORG)
_TRUST = _words(_WORDS_TRUST)
#: Entity words that are also common surnames: not read as an entity marker in
#: the surname place of a short ``LAST FIRST`` name (``"POWER MARY"``).
_SURNAME_WORDS = frozenset(
    {"POWER", "CHURCH", "TEMPLE", "LODGE", "PARISH", "BANK", "FARM", "FARMS", "FIRE", "TOWN"}
)

#: Entity words that are also given names: not read as an entity marker in the
#: given-name place of a short name (``"IDA B MERCER"``, ``"DOT SMITH"``).
_GIVEN_NAME_WORDS = frozenset({"IDA", "DOT"})

_CARE_OF = re.compile(r"(?:^|\s)(?:C/O|C/0|ATTN:?|ATTENTION:?|(?:IN )?CARE OF|%)(?=\s|$)\s*")
_LINES = re.compile(r"[\n\r;]+")
_ETAL = re.compile(r"(?:^|\s)(?:ET\s*AL|ET\s*UX|ET\s*VIR|ETALS?|ETUX|ETVIR)\.?S?(?=\s|,|$)")
_AMP = re.compile(r"\s*&\s*")
_PARTICLES = frozenset(
    {
        "MC", "MAC", "VAN", "VON", "DE", "DEL", "DELA", "DELLA", "DI", "DA", "DU", "DOS",
        "DAS", "LA", "LE", "ST", "O", "VANDER", "VANDEN", "DER", "DEN", "TEN", "TER",
    }
)  # fmt: skip
_SUFFIX_KEYS = frozenset(NAME_SUFFIXES) - {"V"}
_ESTATE_END = (("ESTATE",), ("EST",), ("ESTATE", "OF"), ("DECEASED",), ("DEC'D",), ("DECD",))
_ESTATE_START = (("ESTATE", "OF"), ("EST", "OF"), ("THE", "ESTATE", "OF"))
_TRUSTEE_END = (
    ("TRUSTEE",), ("TRUSTEES",), ("TTEE",), ("TTEES",), ("TR",), ("TRS",), ("TSTEE",),
    ("CO-TRUSTEE",), ("CO-TRUSTEES",), ("CO", "TRUSTEE"), ("CO", "TRUSTEES"),
    ("AS", "TRUSTEE"), ("AS", "TRUSTEES"),
)  # fmt: skip
_EXECUTOR_END = (
    ("EXEC",), ("EXECUTOR",), ("EXECUTRIX",), ("EXECS",), ("EXECUTORS",), ("EXR",), ("EXRX",),
    ("ADMR",), ("ADMX",), ("ADMIN",), ("ADMINISTRATOR",), ("ADMINISTRATRIX",),
    ("AS", "EXECUTOR"), ("AS", "EXECUTRIX"), ("AS", "ADMINISTRATOR"),
)  # fmt: skip
_LIFE_END = (
    ("LIFE", "ESTATE"), ("LIFE", "EST"), ("LU",), ("L/U",), ("LIFE", "USE"), ("LIFE", "TENANT"),
    ("LE",), ("L/E",), ("LIFE", "ESTATE", "HOLDER"),
)  # fmt: skip
_REMAINDER_END = (("REM",), ("REMAINDER",), ("REMAINDERMAN",), ("REMAINDERMEN",), ("REMAIN",))


_KEY_DROP = str.maketrans("", "", ".,()[]")


def _key(token: str) -> str:
    """A token for marker tests: periods, commas and parentheses dropped."""
    return token.translate(_KEY_DROP)


_END_MARKERS: dict[str, list[tuple[tuple[str, ...], str]]] = {}
for _marker, _phrases in (
    ("life tenant", _LIFE_END),
    ("remainder", _REMAINDER_END),
    ("trustee", _TRUSTEE_END),
    ("executor", _EXECUTOR_END),
    ("estate", _ESTATE_END),
):
    for _phrase in _phrases:
        _END_MARKERS.setdefault(_phrase[-1], []).append((_phrase, _marker))
for _options in _END_MARKERS.values():
    _options.sort(key=lambda o: -len(o[0]))  # longest phrase first ("LIFE ESTATE" before "ESTATE")


def _strip_end(raw: list[str], keys: list[str]) -> tuple[list[str], str]:
    """Drop a trailing role marker phrase; returns the tokens left and the marker."""
    if not keys:
        return raw, ""
    for phrase, marker in _END_MARKERS.get(keys[-1], ()):
        n = len(phrase)
        if len(keys) > n and tuple(keys[-n:]) == phrase:
            # a bare "LU"/"LE" is a name unless written "(LU)"
            if phrase in (("LU",), ("LE",)) and not raw[-1].startswith(("(", "[")):
                continue
            return raw[:-n], marker
    return raw, ""


def _strip_start(
    raw: list[str], keys: list[str], phrases: tuple[tuple[str, ...], ...]
) -> tuple[list[str], list[str], bool]:
    for phrase in phrases:
        n = len(phrase)
        if len(keys) > n and tuple(keys[:n]) == phrase:
            return raw[n:], keys[n:], True
    return raw, keys, False


@dataclass(slots=True)
class _Person:
    first: str
    middle: str
    last: str
    suffix: str

    @property
    def display(self) -> str:
        return " ".join(p for p in (self.first, self.middle, self.last, self.suffix) if p)


def _person(raw: list[str], *, last_first: bool) -> _Person | None:
    """Read one person's tokens (commas mean ``LAST, FIRST``). None if no first name."""
    joined = " ".join(raw)
    if "," in joined:
        pieces = [p.strip() for p in joined.split(",") if p.strip()]
        suffix = ""
        if len(pieces) >= 2 and _key(pieces[-1]) in NAME_SUFFIXES:
            suffix = pieces.pop()
        if len(pieces) >= 2:
            last = pieces[0]
            rest = " ".join(pieces[1:]).split()
            if rest and _key(rest[-1]) in _SUFFIX_KEYS and len(rest) > 1 and not suffix:
                suffix = rest.pop()
            if not rest:
                return None
            return _Person(rest[0], " ".join(rest[1:]), last, suffix)
        raw = " ".join(pieces + ([suffix] if suffix else [])).split()
    toks = [t.strip(",") for t in raw if t.strip(",")]
    keys = [_key(t) for t in toks]
    suffix = ""
    if len(toks) > 2 and keys[-1] in _SUFFIX_KEYS | ({"V"} if not last_first else set()):
        suffix = toks.pop()
        keys.pop()
    if last_first:
        # "SMITH JR JOHN": the suffix right after the surname
        if not suffix and len(toks) > 2 and keys[1] in _SUFFIX_KEYS:
            suffix = toks.pop(1)
            keys.pop(1)
        i = 0
        while i < len(toks) - 2 and keys[i] in _PARTICLES:
            i += 1
        if i + 1 >= len(toks):
            return None
        last = " ".join(toks[: i + 1])
        rest = toks[i + 1 :]
        return _Person(rest[0], " ".join(rest[1:]), last, suffix)
    if len(toks) < 2:
        return None
    j = len(toks) - 1
    while j > 1 and keys[j - 1] in _PARTICLES:
        j -= 1
    return _Person(toks[0], " ".join(toks[1:j]), " ".join(toks[j:]), suffix)


def _entity_subkind(key: str, *, last_first: bool) -> str | None:
    """``"government"``, ``"business"``, ``"organization"``, ``"trust"`` or None."""
    if _GOV_START.search(key):
        return "government"
    probe = key
    first, _, rest = key.partition(" ")
    if first in _SURNAME_WORDS and last_first and rest and len(rest.split()) <= 3:
        probe = rest
    elif not last_first and rest:
        head, _, tail = key.rpartition(" ")
        if tail in _SURNAME_WORDS and len(head.split()) <= 2:
            probe = head
    words = probe.split()
    at = 1 if last_first else 0  # where the given name stands
    if 2 <= len(words) <= 3 and words[at] in _GIVEN_NAME_WORDS:
        # "IDA B MERCER", "MERCER IDA B": a woman named Ida, not an agency
        probe = " ".join(w for i, w in enumerate(words) if i != at)
    if _BUSINESS.search(probe):
        return "business"
    if _GOV.search(probe):
        return "government"
    if _ORG.search(probe):
        return "organization"
    if _TRUST.search(probe):
        return "trust"
    return None


def _parse_segment(text: str, *, last_first: bool) -> list[ParsedOwner]:
    """Parse one owner line (no care-of, no line break)."""
    etal = bool(_ETAL.search(text))
    if etal:
        text = _ETAL.sub(" ", text)
    text = _SPACES.sub(" ", _AMP.sub(" & ", text)).strip(" ,&")
    if not text:
        return []
    raw = text.split()
    keys = [_key(t) for t in raw]
    key = " ".join(k for k in keys if k)
    # "ESTATE OF ..." (before the entity words: "ESTATE" is one of them)
    r2, _, estate_of = _strip_start(raw, keys, _ESTATE_START)
    if estate_of:
        p = _person(r2, last_first=False) if "," not in text else _person(r2, last_first=True)
        return [_estate(p, " ".join(r2), etal=etal)]
    sub = _entity_subkind(key, last_first=last_first)
    if sub is not None:
        return [ParsedOwner(text, "entity", sub, etal=etal)]
    # co-owners: split on "&" / "AND"
    parts: list[tuple[list[str], list[str]]] = [([], [])]
    for t, k in zip(raw, keys, strict=True):
        if t in ("&", "AND"):
            parts.append(([], []))
        else:
            parts[-1][0].append(t)
            parts[-1][1].append(k)
    parsed: list[tuple[_Person | None, str, list[str]]] = []  # (person, marker, tokens)
    written: list[str] = []  # each part as written, its marker kept
    for part, part_keys in parts:
        if part:
            written.append(" ".join(part))
            part, marker = _strip_end(part, part_keys)
            parsed.append((None, marker, part))
    if not parsed:
        # only joining words ("&", "AND", a key-entry leftover): no owner named
        return []
    # surname shared: "SMITH JOHN & MARY" / "JOHN & MARY SMITH"
    donor_i = 0 if last_first else len(parsed) - 1
    donor = _person(parsed[donor_i][2], last_first=last_first)
    if donor is None:
        # no readable person ("SMITH & JONES"): one owner as written
        return [ParsedOwner(text, "entity", "other", etal=etal)]
    people: list[tuple[_Person | None, str, list[str]]] = []
    for i, (_, marker, toks) in enumerate(parsed):
        if i == donor_i:
            people.append((donor, marker, toks))
            continue
        tk = [_key(t) for t in toks]
        shares = len(toks) == 1 or (len(toks) == 2 and len(tk[1]) == 1 and "," not in toks[0])
        if shares:
            person: _Person | None = _Person(toks[0], " ".join(toks[1:]), donor.last, "")
        else:
            person = _person(toks, last_first=last_first)
        people.append((person, marker, toks))
    markers = {m for _, m, _ in people}
    out: list[ParsedOwner] = []
    if "trustee" in markers or "executor" in markers:
        role = "trustee" if "trustee" in markers else "executor"
        # the marker holds for the names up to the last that bears it ("DOE
        # JOHN & MARY TTEES": both trustees); a name after it is an owner in
        # its own right ("DOE JOHN TTEE & ROE MARY": the trust, and Mary Roe)
        last = max(i for i, (_, m, _) in enumerate(people) if m in ("trustee", "executor"))
        held, people = people[: last + 1], people[last + 1 :]
        named = [p for p, _, _ in held if p is not None]
        lead = named[0] if named else donor
        out.append(
            ParsedOwner(
                text if not people else " & ".join(written[: last + 1]),
                "entity",
                "trust" if role == "trustee" else "estate",
                lead.first,
                lead.middle,
                lead.last,
                lead.suffix,
                role=role,
                agent="; ".join(p.display for p in named),
                etal=etal,
            )
        )
    for person, marker, toks in people:
        if person is None:
            out.append(ParsedOwner(" ".join(toks), "entity", "other", etal=etal))
        elif marker == "estate":
            out.append(_estate(person, " ".join(toks), etal=etal))
        else:
            role = marker if marker in ("life tenant", "remainder") else ""
            out.append(
                ParsedOwner(
                    person.display,
                    "person",
                    "person",
                    person.first,
                    person.middle,
                    person.last,
                    person.suffix,
                    role=role,
                    etal=etal,
                )
            )
    return out


def _estate(person: _Person | None, written: str, *, etal: bool) -> ParsedOwner:
    if person is None:
        return ParsedOwner(f"ESTATE OF {written}".strip(), "entity", "estate", etal=etal)
    return ParsedOwner(
        f"ESTATE OF {person.display}",
        "entity",
        "estate",
        person.first,
        person.middle,
        person.last,
        person.suffix,
        etal=etal,
    )


_PLAIN_CHARS = re.compile(r"^[A-Z' -]+$")
#: Tokens that send a name down the full parser (markers, particles, suffixes).
_SPECIAL_TOKENS = frozenset(
    {"AND", "ET", "AL", "ETAL", "ETALS", "ETUX", "ETVIR", "UX", "VIR", "ATTN", "ATTENTION"}
    | {"CARE", "ESTATE", "EST", "THE"}
    | set(_END_MARKERS)
    | _PARTICLES
    | set(NAME_SUFFIXES)
)


def _plain_person(text: str, last_first: bool) -> ParsedOwner | None:
    """The common case ``SMITH JOHN A`` without any mark, marker or entity word."""
    if not _PLAIN_CHARS.match(text):
        return None
    toks = text.split()
    if len(toks) < 2 or len(toks) > 4 or not _SPECIAL_TOKENS.isdisjoint(toks):
        return None
    if _entity_subkind(" ".join(toks), last_first=last_first) is not None:
        return None
    if last_first:
        last, first, middle = toks[0], toks[1], " ".join(toks[2:])
    else:
        first, middle, last = toks[0], " ".join(toks[1:-1]), toks[-1]
    name = " ".join(p for p in (first, middle, last) if p)
    return ParsedOwner(name, "person", "person", first, middle, last)


def _plain_couple(text: str, last_first: bool) -> tuple[ParsedOwner, ParsedOwner] | None:
    """The common ``SMITH JOHN A & MARY [B]``: two persons sharing the surname."""
    if not last_first or text.count("&") != 1:
        return None
    left, _, right = text.partition("&")
    a = _plain_person(left.strip(), True)
    rt = right.split()
    if a is None or not rt or len(rt) > 2 or not _PLAIN_CHARS.match(right.strip()):
        return None
    if (len(rt) == 2 and len(rt[1]) != 1) or not _SPECIAL_TOKENS.isdisjoint(rt):
        return None
    first, middle = rt[0], " ".join(rt[1:])
    name = " ".join(p for p in (first, middle, a.last) if p)
    return a, ParsedOwner(name, "person", "person", first, middle, a.last)


@lru_cache(maxsize=1_000_000)
def _parse_owner_text_cached(text: str, last_first: bool) -> tuple[ParsedOwner, ...]:
    up = text.upper().strip()
    plain = _plain_person(up, last_first)
    if plain is not None:
        return (plain,)
    couple = _plain_couple(up, last_first)
    if couple is not None:
        return couple
    out: list[ParsedOwner] = []
    for line in _LINES.split(up):
        line = _SPACES.sub(" ", line).strip()
        if not line:
            continue
        pieces = _CARE_OF.split(line)
        owner_part, care = pieces[0], [p.strip() for p in pieces[1:] if p.strip()]
        out.extend(_parse_segment(owner_part, last_first=last_first))
        for c in care:
            out.append(ParsedOwner(c, "person", "person", role="c/o"))
    return tuple(out)


def parse_owner_text(
    text: str, *, order: Literal["last_first", "first_last"] = "last_first"
) -> list[ParsedOwner]:
    """Parse the owner names of a free-text owner field (county parcel layers).

    Parameters
    ----------
    text
        The owner text as written, any case; several lines (``\\n`` or ``;``)
        are several owner lines, e.g. ``"SMITH JOHN A & MARY\\nC/O JANE DOE"``.
    order
        How a person's name without a comma is written: ``"last_first"``
        (``SMITH JOHN A``, county layers and rolls) or ``"first_last"``
        (``John A Smith``, names typed in an ownership override). A comma
        always means ``LAST, FIRST``.

    Returns
    -------
    list[ParsedOwner]
        The owners in the order written, care-of names (``role == "c/o"``,
        :attr:`ParsedOwner.is_owner` False) included after the owners of
        their line. Empty for empty text.

    Notes
    -----
    Rules, in the order applied to each line:

    * ``C/O``, ``ATTN``, ``CARE OF``, ``%`` start a care-of name: not an owner.
    * ``ETAL``, ``ET AL``, ``ET UX``, ``ET VIR`` are removed and flag
      ``etal=True``: more owners exist than are named. The count used is the
      names read ("at least n"); :func:`owner_quality` lists such parcels so
      that an ownership override can give the assessor's count.
    * ``ESTATE OF X`` / ``X ESTATE`` / ``X EST``: one entity of subkind
      ``estate``, displayed ``ESTATE OF X``.
    * An entity word of government (``TOWN OF``, ``COUNTY OF``, ``STATE OF``,
      ``PEOPLE OF``, ``NYS``, ``DISTRICT``...), business (``LLC``, ``L.L.C.``,
      ``INC``, ``CORP``, ``CO``...), organisation (``CHURCH``, ``SCHOOL``...) or
      trust (``TRUST``, ``REV TR``...) anywhere makes the whole line ONE entity
      (``"SMITH & SONS INC"`` is not split). Words that are also surnames
      (``POWER``, ``CHURCH``...) are ignored in the surname place of a short
      person's name.
    * Otherwise ``&`` / ``AND`` separate co-owners. A co-owner written with a
      first name only (or first name and initial) shares the surname of the
      full name: ``SMITH JOHN & MARY`` -> JOHN SMITH, MARY SMITH (in
      ``first_last`` order ``John & Mary Smith``). A co-owner of two words or
      more is a full name (``SMITH JOHN & JONES MARY``); so ``SMITH JOHN &
      MARY ANN`` reads MARY ANN as a surname and a first name (ambiguous text:
      use an ownership override).
    * ``TRUSTEE``/``TTEE``/``TR`` after a name: the trust is the owner, one
      entity of subkind ``trust``, role ``trustee``, the named persons in
      ``agent`` (they sign for it). ``EXEC``/``EXECUTOR``/``ADMR``: likewise an
      estate with role ``executor``.
    * Life estates (``LIFE ESTATE``, ``LIFE USE``, ``L/U``, ``(LU)``,
      ``(LE)``): the roll lists the life tenant, who holds the present estate
      and pays the tax; the life tenant is a person owner with role
      ``life tenant`` and counts as one owner like any other. Remaindermen
      named on the roll (``(REM)``, ``REMAINDERMAN``) are persons with role
      ``remainder`` and count too: every name the roll lists is an owner,
      and an ownership override settles a different reading.
    * A person: an optional trailing generational suffix (``JR``, ``SR``,
      ``II``...; in ``last_first`` order also right after the surname), surname
      particles kept with the surname (``MC DONALD``, ``VAN BUREN``, ``DE LA
      CRUZ``, ``O BRIEN``), then first name and middle names. Tokens keep
      their spelling (``O'BRIEN``, ``Q.``). A name without a first name
      (``SMITH``, ``SMITH & JONES``) is one entity of subkind ``other``.

    Results are cached by (text, order).

    Examples
    --------
    >>> [o.name for o in parse_owner_text("SMITH JOHN & MARY")]
    ['JOHN SMITH', 'MARY SMITH']
    >>> parse_owner_text("JONES ROBERT ETAL")[0].etal
    True
    """
    if not isinstance(text, str):
        return []
    return list(_parse_owner_text_cached(text, order == "last_first"))


# ------------------------------------------------------------------ the owners frame


def _text(s: pd.Series) -> pd.Series:
    """Upper-case, space-collapsed text; missing values as ``""``."""
    return (
        s.astype("str")
        .where(s.notna(), "")
        .str.upper()
        .str.replace(_SPACES_RE2, " ", regex=True)
        .str.strip()
    )


def _join(*parts: pd.Series) -> pd.Series:
    out = parts[0]
    for p in parts[1:]:
        out = out + " " + p
    return out.str.replace(_SPACES_RE2, " ", regex=True).str.strip()


def _take(values: pd.Series, codes: np.ndarray, index: pd.Index) -> pd.Series:
    """``values.iloc[codes]`` on ``index``, the dtype kept."""
    return pd.Series(values.array.take(codes), index=index)


def _text_distinct(s: pd.Series) -> pd.Series:
    """:func:`_text` computed once per distinct value of ``s`` (the same result)."""
    codes, uniques = pd.factorize(s, use_na_sentinel=False)
    return _take(_text(pd.Series(uniques, dtype=s.dtype)), codes, s.index)


def _blank_distinct(s: pd.Series) -> np.ndarray:
    """``(s.str.strip() == "").to_numpy(bool)``, tested once per distinct value."""
    codes, uniques = pd.factorize(s, use_na_sentinel=False)
    blank = (pd.Series(uniques, dtype=s.dtype).str.strip() == "").to_numpy(dtype=bool)
    return blank[codes]


def _contains_distinct(s: pd.Series, pattern: str) -> np.ndarray:
    """``s.str.contains(pattern, regex=True).to_numpy(bool)``, once per distinct value."""
    codes, uniques = pd.factorize(s, use_na_sentinel=False)
    hit = pd.Series(uniques, dtype=s.dtype).str.contains(pattern, regex=True)
    return hit.to_numpy(dtype=bool)[codes]


def _tuple_codes(parts: Sequence[pd.Series]) -> tuple[np.ndarray, np.ndarray]:
    """Group numbers of the rows by the tuple of ``parts``, and each group's first row.

    Rows with equal values in every part have equal numbers ``0..g-1``
    (first seen, first); ``first[g]`` is the first row of group ``g``.
    """
    codes = np.asarray(pd.factorize(parts[0], use_na_sentinel=False)[0], dtype=np.int64)
    for p in parts[1:]:
        c, u = pd.factorize(p, use_na_sentinel=False)
        codes = np.asarray(pd.factorize(codes * max(len(u), 1) + c)[0], dtype=np.int64)
    if not len(codes):
        return codes, codes
    _, first = np.unique(codes, return_index=True)
    return codes, first


def _name_kind_norm(
    first: pd.Series, middle: pd.Series, last: pd.Series, suffix: pd.Series
) -> tuple[pd.Series, pd.Series, pd.Series]:
    """The name, kind and key of each row, once per distinct tuple of parts.

    ``name = _join(first, middle, last, suffix)``, ``_kind(first, name)`` and
    ``normalize_names(name)``: equal parts give equal results, so each
    distinct ``(first, middle, last, suffix)`` is computed once and the
    results are taken back to the rows (the values of the row-by-row forms).
    """
    parts = [first, middle, last, suffix]
    codes, rows = _tuple_codes(parts)
    u = [p.iloc[rows].reset_index(drop=True) for p in parts]
    name_u = _join(*u)
    kind_u = _kind(u[0], name_u, last=u[2], rest=_join(u[0], u[1], u[3]))
    norm_u = normalize_names(name_u)
    index = first.index
    return _take(name_u, codes, index), _take(kind_u, codes, index), _take(norm_u, codes, index)


#: A name ending in a trustee's or executor's marker (``JOHN DOE TTEE``,
#: ``MARY ROE EXEC``): the trust or estate they hold it for, an entity, as
#: ``TRUSTEE`` (an entity word) is; the free-text reading knows the same marks
#: (``_TRUSTEE_END``, ``_EXECUTOR_END``). (Valid for Python ``re`` and RE2.)
_FIDUCIARY_END = (
    r"(?:^|[^A-Z0-9])(?:TTEES?|TRS?|TSTEE|CO-?TRUSTEES?|EXECS?|EXECUTORS?|EXECUTRIX|EXR|EXRX"
    r"|ADMR|ADMX|ADMIN|ADMINISTRATOR|ADMINISTRATRIX)\.?$"
)


def _kind(
    first: pd.Series,
    full: pd.Series,
    *,
    last: pd.Series | None = None,
    rest: pd.Series | None = None,
) -> pd.Series:
    """``"entity"`` or ``"person"`` for each owner slot of the roll.

    An entity: no first name, or an entity word (:data:`ENTITY_REGEX`) in the
    name. A last name that is one of the entity words that are also surnames
    (``POWER``, ``CHURCH``, ``PARISH``...) with a first name beside it is a
    person's surname (``JOHN POWER``); then only the other fields (``rest``:
    first, middle, suffix) are looked at.
    """
    is_entity = (
        full.str.contains(ENTITY_REGEX, regex=True).astype(bool)
        | full.str.contains(_FIDUCIARY_END, regex=True).astype(bool)
        | (first == "")
    )
    if last is not None and rest is not None:
        surname = (last.isin(_SURNAME_WORDS) & (first != "")).to_numpy(dtype=bool)
        if surname.any():
            own = rest[surname].str.contains(ENTITY_REGEX, regex=True).astype(bool) | rest[
                surname
            ].str.contains(_FIDUCIARY_END, regex=True).astype(bool)
            is_entity = is_entity.copy()
            is_entity[surname] = own.to_numpy(dtype=bool)
    return pd.Series(
        np.where(is_entity.to_numpy(), "entity", "person"), index=full.index, dtype="str"
    )


_LONG_EXTRA: dict[str, Any] = {
    "_kind": "",
    "subkind": "",
    "role": "",
    "agent": "",
    "etal": False,
    "care_of": "",
}
_ETAL_RE2 = r"(?:^|[ ,])+(?:ET ?AL|ET ?UX|ET ?VIR|ETALS?)\.?S?(?:[ ,]+|$)"


def _by_row_slot(long: pd.DataFrame) -> pd.DataFrame:
    """``long.sort_values(["_row", "_slot"], kind="stable")`` by one integer key.

    Notes
    -----
    With ``0 <= _slot < w`` the key ``_row * w + _slot`` orders the rows as
    the pair does; a stable argsort of it keeps the order of equal pairs.
    """
    row = long["_row"].to_numpy(dtype=np.int64)
    slot = long["_slot"].to_numpy(dtype=np.int64)
    if not len(row) or slot.min() < 0 or row.min() < 0:
        return long.sort_values(["_row", "_slot"], kind="stable")
    order = np.argsort(row * (int(slot.max()) + 1) + slot, kind="stable")
    return long.iloc[order]


#: A character that can be part of a name: a letter or a digit of any script.
_NAME_CHARACTER = r"[^\W_]"


def _roll_owners(roll: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray]:
    """ORPTS owner slots in long form, and which roll rows have any slot used."""
    empty = pd.Series("", index=roll.index, dtype="str")
    pieces: list[pd.DataFrame] = []
    marked: list[np.ndarray] = []  # roll rows with an ETAL slot of no name
    any_used = np.zeros(len(roll), dtype=bool)
    for slot, cols in enumerate(_SLOTS):
        raw = {
            out: (roll[col].astype("str").where(roll[col].notna(), "") if col in roll else empty)
            for out, col in zip(("first", "middle", "last", "suffix"), cols, strict=True)
        }
        piece = pd.DataFrame({PARCEL_KEY: roll[PARCEL_KEY].astype("str"), **raw})
        piece["_slot"] = slot
        piece["_row"] = np.arange(len(roll))
        # an owner slot is used when its first or last name holds a letter or a
        # digit: "&" or "-" alone (a key-entry leftover of "SMITH JOHN &" split
        # across slots) names no owner, and must not count as one of the co-owners
        used = _contains_distinct(piece["first"], _NAME_CHARACTER) | _contains_distinct(
            piece["last"], _NAME_CHARACTER
        )
        # one that holds only the ETAL marker, in its initial or suffix field,
        # names no owner but says that more exist: its record is flagged
        for col in ("middle", "suffix"):
            idle = ~used & ~_blank_distinct(piece[col])
            if idle.any():
                text = _text_distinct(piece.loc[idle, col])
                marked.append(
                    piece.loc[idle, "_row"].to_numpy()[_contains_distinct(text, _ETAL_RE2)]
                )
        any_used |= used
        pieces.append(piece[used])
    long = pd.concat(pieces, ignore_index=True)
    for col in ("first", "middle", "last", "suffix"):
        long[col] = _text_distinct(long[col])
    # "JOHN A" in the first-name field with the middle-initial field blank:
    # the letter is his middle initial, as "John A. Smith" writes it
    trailing = long["first"].str.extract(r"^([^\s&]{2,})\s+([A-Za-z])\.?$")
    lone = trailing[0].notna().to_numpy(dtype=bool) & (long["middle"].str.strip() == "").to_numpy(
        dtype=bool
    )
    if lone.any():
        long.loc[lone, "first"] = trailing.loc[lone, 0].astype("str").to_numpy()
        long.loc[lone, "middle"] = trailing.loc[lone, 1].astype("str").to_numpy()
    # "JONES ETAL" (or "ROBERT ETAL" in the first-name field, or ETAL in the
    # middle-initial field of a used slot): the marker is no part of the name
    etal = np.zeros(len(long), dtype=bool)
    for col in ("first", "middle", "last", "suffix"):
        hit = _contains_distinct(long[col], _ETAL_RE2)
        if hit.any():
            etal |= hit
            long.loc[hit, col] = (
                long.loc[hit, col].str.replace(_ETAL_RE2, " ", regex=True).str.strip()
            )
    # a slot that held the marker alone ("ETAL" as an additional owner's last
    # name) names no owner: dropped, its record's other slots carry the flag
    alone = etal & _blank_distinct(long["first"]) & _blank_distinct(long["last"])
    rows = long["_row"].to_numpy(dtype=np.int64)
    if alone.any():
        etal = etal | np.isin(rows, rows[etal])
        drop = alone & np.isin(rows, rows[~alone])  # a record of "ETAL" alone keeps it
        long, etal, rows = long[~drop], etal[~drop], rows[~drop]
    if marked:
        etal = etal | np.isin(rows, np.concatenate(marked))
    long = long.assign(**{k: v for k, v in _LONG_EXTRA.items() if k != "etal"}, etal=etal)
    long = _life_tenants(long)
    long = _agents_of_trusts(long)
    long, any_used = _care_of_slots(long, any_used)
    long = _shared_surnames(long)
    return _by_row_slot(_split_joint_first_names(long)), any_used


#: A life-estate marker at the end of a last-name or suffix field (``WHITE
#: LIFE ESTATE``, ``L/U``): the owner is a person, the life tenant.
_LIFE_MARK = (
    r"(?i)(?:^|\s+)(?:LIFE\s+ESTATE(?:\s+HOLDER)?|LIFE\s+EST|LIFE\s+USE|LIFE\s+TENANT"
    r"|L/U|L/E|\(LU\)|\(LE\))\.?\s*$"
)


def _life_tenants(long: pd.DataFrame) -> pd.DataFrame:
    """Owner slots marked as a life estate: the life tenant, a person.

    ``ALICE | WHITE LIFE ESTATE`` (or ``LIFE ESTATE`` in the suffix field) is
    ALICE WHITE, role ``life tenant``: the word ESTATE there is no estate of a
    decedent (an entity). ``WHITE ALICE LIFE ESTATE`` in the last-name field
    alone is read in ``LAST FIRST`` order (:func:`parse_owner_text`), the
    marker telling that it names a person.
    """
    life = np.zeros(len(long), dtype=bool)
    for col in ("last", "suffix"):
        hit = _contains_distinct(long[col], _LIFE_MARK)
        if hit.any():
            life |= hit
            long.loc[hit, col] = (
                long.loc[hit, col].str.replace(_LIFE_MARK, "", regex=True).str.strip()
            )
    if not life.any():
        return long
    # a slot that held the marker alone names no owner: it marks the owner of
    # the slot before it on its record, and is dropped
    alone_mark = life & _blank_distinct(long["first"]) & _blank_distinct(long["last"])
    if alone_mark.any():
        marked = set(
            zip(
                long.loc[alone_mark, "_row"].astype("int64"),
                long.loc[alone_mark, "_slot"].astype("int64") - 1,
                strict=True,
            )
        )
        before = [
            (r, sl) in marked
            for r, sl in zip(
                long["_row"].astype("int64"), long["_slot"].astype("int64"), strict=True
            )
        ]
        life = (life & ~alone_mark) | np.asarray(before, dtype=bool)
        long, life = long[~alone_mark], life[~alone_mark]
    long.loc[life, "role"] = "life tenant"
    alone = long.index[life & _blank_distinct(long["first"])]
    for at in alone:
        text = str(long.at[at, "last"])
        persons = [p for p in parse_owner_text(text) if p.is_owner and p.kind == "person"]
        if len(persons) == 1 and persons[0].first and persons[0].last:
            p = persons[0]
            long.loc[at, ["first", "middle", "last"]] = [p.first, p.middle, p.last]
            if p.suffix:
                long.at[at, "suffix"] = p.suffix
    return long


#: A trustee's or executor's marker at the end of a last-name or suffix field.
_AGENT_MARK = (
    r"(?i)(?:^|\s+)(?:(?:AS\s+|CO[-\s]?)?(?:TRUSTEES?|TTEES?|TSTEE|TRS?)|EXECUTOR|EXECUTRIX"
    r"|EXECS?|EXRX?|ADMR|ADMX|ADMINISTRATOR|ADMINISTRATRIX)\.?\s*$"
)
#: Words of a trust's or an estate's name in another slot of the record.
_TRUST_WORDS = r"(?i)(?:^|\s)(?:TRUST|TRUSTS|ESTATE|EST)(?:\s|$)"
#: ``TR`` closing a trust's name (``DOE IRREVOCABLE TR``, ``SMITH REV TR``): TRUST.
_TRUST_TR = r"(?i)(?:^|\s)(?:REV|REVOC|REVOCABLE|IRREV|IRREVOCABLE|LIVING|FAMILY)\s+TRS?\.?\s*$"


def _agents_of_trusts(long: pd.DataFrame) -> pd.DataFrame:
    """A trustee or executor named in a slot beside the trust or estate is no owner.

    ``DOE FAMILY TRUST`` with ``JANE DOE TRUSTEE`` in the next slot: the trust
    is the one owner (§ 2-202.1.a(2): an entity is one owner), Jane Doe signs
    for it. Her slot is dropped and her name becomes the trust's ``agent``
    (so that her line is reviewed, :func:`pipeline.people.matching.owner_matcher`).
    """
    # "DOE IRREVOCABLE TR" is the trust (TR abbreviates TRUST there), not a trustee
    trust_tr = _contains_distinct(long["last"], _TRUST_TR)
    marked = (_contains_distinct(long["last"], _AGENT_MARK) & ~trust_tr) | _contains_distinct(
        long["suffix"], _AGENT_MARK
    )
    if not marked.any():
        return long
    trust_words = _contains_distinct(long["last"], _TRUST_WORDS) | trust_tr
    trusts = trust_words & ~marked
    rows = long["_row"].to_numpy(dtype=np.int64)
    agents_at = marked & np.isin(rows, rows[trusts])
    if not agents_at.any():
        return long
    names: dict[int, list[str]] = {}
    for at in long.index[agents_at]:
        last = re.sub(_AGENT_MARK, "", str(long.at[at, "last"])).strip()
        first = " ".join(str(long.at[at, c]) for c in ("first", "middle") if str(long.at[at, c]))
        if first:
            name = f"{first} {last}".strip()
        else:
            people = [p for p in parse_owner_text(last) if p.is_owner and p.kind == "person"]
            name = people[0].name if people else last
        names.setdefault(int(str(long.at[at, "_row"])), []).append(name.upper())
    long = long[~agents_at].copy()
    on = (np.isin(rows, list(names)) & trust_words)[~agents_at]
    long.loc[on, "agent"] = [
        "; ".join(names[int(r)]) for r in long.loc[on, "_row"].to_numpy(dtype=np.int64)
    ]
    return long


#: A care-of marker at the start of an owner slot (``C/O JANE DOE``).
_CARE_OF_START = r"^(?:C/O|C/0|ATTN:?|ATTENTION:?|(?:IN )?CARE OF|%)(?=\s|$)"


def _care_of_slots(long: pd.DataFrame, any_used: np.ndarray) -> tuple[pd.DataFrame, np.ndarray]:
    """Owner slots that hold a care-of name (``C/O JANE DOE``) are not owners.

    Such a slot is dropped; its name (without the marker) becomes the
    ``care_of`` of the record's other slots, as for a care-of line of free
    text. A record whose every slot is a care-of name has no owner: it is no
    longer marked as using its slots.
    """
    # the marker starts the first name, or the last name when the first is blank
    first = long["first"]
    care = _contains_distinct(first, _CARE_OF_START) | (
        _blank_distinct(first) & _contains_distinct(long["last"], _CARE_OF_START)
    )
    if not care.any():
        return long, any_used
    hit = long[care]
    written = _join(hit["first"], hit["middle"], hit["last"], hit["suffix"])
    names = written.str.replace(_CARE_OF_START, "", regex=True).str.strip()
    rows = long["_row"].to_numpy(dtype=np.int64)
    by_row: dict[int, list[str]] = {}
    for r, n in zip(rows[care].tolist(), names.tolist(), strict=True):
        by_row.setdefault(r, []).append(n)
    kept = long[~care].copy()
    kept["care_of"] = pd.array(
        ["; ".join(by_row.get(r, ())) for r in kept["_row"].tolist()], dtype="str"
    )
    any_used = any_used.copy()
    owned = np.zeros(len(any_used), dtype=bool)
    owned[kept["_row"].to_numpy(dtype=np.int64)] = True
    any_used[np.unique(rows[care])] &= owned[np.unique(rows[care])]
    return kept, any_used


#: One given name (two letters or more, any script), with a middle initial at most.
_GIVEN = r"[^\W\d_][^\W\d_'\-]+(?:\s+[^\W\d_]\.?)?"

#: A first-name field of given names only: ``MARY``, ``MARY J.``, ``JOHN & MARY``
#: (not ``MARY JONES``, which may be a whole name, nor ``MARY ANN``).
_GIVEN_NAMES_ONLY = re.compile(rf"{_GIVEN}(?:\s*(?:&|\bAND\b)\s*{_GIVEN})*")

#: A last-name field that is a surname alone: words of letters, apostrophes and
#: hyphens (``SMITH``, ``VAN DYKE``, ``O'BRIEN``, ``SMITH-JONES``).
_SURNAME_ONLY = re.compile(r"[^\W\d_][^\W\d_'\-]*(?:\s+[^\W\d_][^\W\d_'\-]*)*")

#: Words that are no given name or surname of their own: titles, generational
#: suffixes, and the markers of heirs, trustees, executors, life estates.
_NOT_A_NAME = frozenset(
    {
        "MR", "MRS", "MS", "MISS", "DR", "REV", "JR", "SR", "II", "III", "IV",
        "HEIR", "HEIRS", "ETAL", "ETUX", "ETVIR", "EST", "ESTATE", "TRUST", "TRUSTEE",
        "TRUSTEES", "TTEE", "TTEES", "TR", "TRS", "EXEC", "EXECUTOR", "EXECUTRIX",
        "ADMR", "LIFE", "LU", "LE", "REM", "DEC", "DECEASED", "AND", "OR", "OF",
        "UNKNOWN", "OWNER", "OWNERS", "NONE", "NA", "TBD", "VACANT",
        # surname particles: "VAN" alone is a surname cut short, not a given name
        "VAN", "VON", "DE", "DI", "DA", "DEL", "DELLA", "LA", "MC", "MAC", "ST", "O",
    }
)  # fmt: skip


#: Generational suffixes: a person's own name (JOHN SMITH JR is a person).
_GENERATIONS = frozenset({"JR", "SR", "II", "III", "IV", "V", "2ND", "3RD", "4TH"})

#: Words of a trust or an estate held for a family (JOHN SMITH TRUST, DOE
#: IRREVOCABLE TR, GREEN PETER EST): the persons beside it may be of that name.
_FAMILY_HOLDING = re.compile(
    r"\b(?:TRUST|TRUSTS|TR|TRS|TRST|ESTATE|EST|REVOCABLE|IRREVOCABLE|LIVING|FAMILY)\b"
)


def _words_of(text: str) -> list[str]:
    return re.findall(r"[^\W_][^\W_'\-.]*", text.upper())


def _shared_surnames(long: pd.DataFrame) -> pd.DataFrame:
    """A co-owner written with a first name only shares the surname of the record.

    Rolls write a spouse in an additional owner slot as first name ``MARY``
    and no last name beside ``JOHN SMITH``, as free text writes ``SMITH JOHN
    & MARY``: she is MARY SMITH, one of two owners (without a surname she
    could be counted in the divisor but never matched).

    Only where the reading is sure: the slot's first-name field holds given
    names alone (``MARY``, ``MARY J``, ``JOHN & MARY``; not ``MARY JONES``,
    a title such as ``MR & MRS``, ``JR`` or ``HEIRS``), and every other person
    of the record (first and last name) writes one and the same plain surname
    (no suffix, marker or ``&`` in the field; ``POWER`` or ``CHURCH`` is a
    surname there). A name that would repeat another owner's of the record is
    left as written, as is every slot of a record of several surnames, or of
    a name in the last-name field alone that reads as persons (``SMITH JOHN
    & MARY``: whose are the first names cannot be told), and a slot with a
    suffix of its own (``MARY`` ``TRUSTEE``).
    :func:`owner_quality` lists the records with a slot of a first name only
    (``surname_from_co_owner``).
    """
    blank_last = _blank_distinct(long["last"])
    if not blank_last.any():
        return long
    first = long["first"].to_numpy(dtype=object)
    last = long["last"].to_numpy(dtype=object)
    suffix = long["suffix"].to_numpy(dtype=object)
    role = long["role"].astype("str").to_numpy(dtype=object)
    rows = long["_row"].to_numpy(dtype=np.int64)
    candidates = [
        i
        for i in np.flatnonzero(blank_last).tolist()
        if not str(suffix[i]).strip()  # "MARY" with JR or TRUSTEE: as written
        and _GIVEN_NAMES_ONLY.fullmatch(str(first[i]).strip().upper())
        and not set(_words_of(str(first[i]))) & _NOT_A_NAME
        and not re.search(ENTITY_REGEX, str(first[i]).upper())
    ]
    if not candidates:
        return long
    # a few records only: plain Python over their slots
    by_row: dict[int, list[int]] = {}
    wanted = set(rows[candidates].tolist())
    for i in np.flatnonzero(np.isin(rows, list(wanted))).tolist():
        by_row.setdefault(int(rows[i]), []).append(i)
    fill = last.copy()
    for i in candidates:
        surnames: dict[str, str] = {}  # upper case -> as the roll writes it
        named: set[tuple[str, str]] = set()
        plain = True
        for j in by_row[int(rows[i])]:
            f, s = str(first[j]).strip().upper(), str(last[j]).strip().upper()
            if not f and s and (person_like_names(s) or _FAMILY_HOLDING.search(s)):
                # "SMITH JOHN & MARY", "JOHN SMITH TRUST" in the last-name field:
                # whose family the first names are of cannot be told
                plain = False
            if j != i and (role[j] or set(_words_of(str(suffix[j]))) - _GENERATIONS):
                plain = False  # a trustee, executor or life tenant (TRUSTEE, L/U)
            if not f or not s:
                continue
            for g in re.split(r"\s*(?:&|\bAND\b)\s*", f):
                if g:
                    named.add((g.split()[0], s))  # JOHN & MARY SMITH: both named
            words = set(_words_of(s))
            if s in _SURNAME_WORDS or not re.search(ENTITY_REGEX, f"{f} {s}"):
                if _SURNAME_ONLY.fullmatch(s) and not words & _NOT_A_NAME:
                    surnames[s] = str(last[j]).strip()
                else:
                    plain = False  # "SMITH JR", "SMITH TTEE", "SMITH & JONES"
            else:
                plain = False  # JOHN "SMITH REVOCABLE TRUST": a family's name too
        if not plain or len(surnames) != 1:
            continue
        ((surname, written),) = surnames.items()
        given = re.split(r"\s*(?:&|\bAND\b)\s*", str(first[i]).strip().upper())
        if any((g.split()[0], surname) in named for g in given if g):
            continue  # JOHN beside JOHN SMITH: a second JOHN SMITH cannot be told
        fill[i] = written
    return long.assign(last=pd.Series(fill, index=long.index, dtype=long["last"].dtype))


#: "JOHN & MARY" or "JOHN AND MARY" in a first-name field.
_JOINT_FIRST = r"(?:^|\s)(?:&|AND)(?:\s|$)"


def _split_joint_first_names(long: pd.DataFrame) -> pd.DataFrame:
    """One owner per person when a first-name field joins several.

    Rolls write a married couple as first name ``JOHN & MARY``, last name
    ``DOE``: two owners, JOHN DOE and MARY DOE (§ 2-202.1.a(2) divides by the
    number of owners). The first person keeps the slot's middle initial;
    the last name and suffix are each person's. Slots are renumbered
    ``8 * slot + k`` so that the roll's order is kept.
    """
    joint = _contains_distinct(long["first"], _JOINT_FIRST) & ~_blank_distinct(long["last"])
    if not joint.any():
        return long
    long = long.assign(_slot=long["_slot"].to_numpy(dtype=np.int64) * 8)
    rows: list[pd.DataFrame] = [long[~joint]]
    hit = long[joint]
    # a few rows only: plain Python per row
    split = [
        [p.strip() for p in re.split(r"\s*(?:&|\bAND\b)\s*", str(v)) if p.strip()]
        or [str(v).strip()]  # "&" alone: the owner is kept as written
        for v in hit["first"]
    ]
    for k in range(max(len(s) for s in split)):
        keep = np.array([len(s) > k for s in split], dtype=bool)
        tokens = [s[k].split(" ", 1) if len(s) > k else [""] for s in split]
        own_middle = [t[1] if len(t) > 1 else "" for t in tokens]
        middle = (
            own_middle
            if k
            else [m or str(slot_mi) for m, slot_mi in zip(own_middle, hit["middle"], strict=True)]
        )
        person = hit.assign(
            first=pd.array([t[0] for t in tokens], dtype="str"),
            middle=pd.array(middle, dtype="str"),
            _slot=hit["_slot"].to_numpy(dtype=np.int64) + min(k, 7),
        )
        rows.append(person[keep])
    return pd.concat(rows, ignore_index=True)


def _parsed_rows(key: str, row: int, parsed: list[ParsedOwner], rows: list[dict[str, Any]]) -> int:
    """Append the owner rows of one parsed text; returns the number of owners."""
    care = "; ".join(p.name for p in parsed if not p.is_owner)
    owners = [p for p in parsed if p.is_owner]
    etal = any(p.etal for p in parsed)
    for slot, p in enumerate(owners):
        person = p.kind == "person"
        rows.append(
            {
                PARCEL_KEY: key,
                "first": p.first if person else "",
                "middle": p.middle if person else "",
                "last": p.last if person else p.name,
                "suffix": p.suffix if person else "",
                "_slot": slot,
                "_row": row,
                "_kind": p.kind,
                "subkind": p.subkind,
                "role": p.role,
                "agent": p.agent,
                "etal": etal,
                "care_of": care,
            }
        )
    return len(owners)


def _long_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    cols = [PARCEL_KEY, "first", "middle", "last", "suffix", "_slot", "_row", *_LONG_EXTRA]
    return _long_frame_typed(pd.DataFrame(rows, columns=cols))


def _owner_record(p: ParsedOwner, etal: bool, care: str) -> tuple[Any, ...]:
    person = p.kind == "person"
    return (
        p.first if person else "",
        p.middle if person else "",
        p.last if person else p.name,
        p.suffix if person else "",
        p.kind,
        p.subkind,
        p.role,
        p.agent,
        etal,
        care,
    )


_RECORD_COLUMNS = ("first", "middle", "last", "suffix", "_kind", "subkind", "role", "agent")


def _text_owners(roll: pd.DataFrame, any_used: np.ndarray) -> tuple[pd.DataFrame, list[str]]:
    """Owners from ``owner_text`` of the records without structured owners.

    Each distinct text is parsed once; its owners are then repeated for every
    record that carries it. Returns the long frame and the keys of records
    whose text gave no owner (only a care-of name, say).
    """
    if OWNER_TEXT_COLUMN not in roll.columns:
        return _long_frame([]), []
    text = roll[OWNER_TEXT_COLUMN].astype("str").where(roll[OWNER_TEXT_COLUMN].notna(), "")
    todo = np.flatnonzero(~any_used & (text.str.strip() != "").to_numpy(dtype=bool))
    if not len(todo):
        return _long_frame([]), []
    codes, uniques = pd.factorize(text.to_numpy()[todo])
    records: list[tuple[Any, ...]] = []
    n_owners = np.zeros(len(uniques), dtype="int64")
    for u, t in enumerate(uniques):
        parsed = parse_owner_text(str(t))
        care = "; ".join(p.name for p in parsed if not p.is_owner)
        etal = any(p.etal for p in parsed)
        owners = [_owner_record(p, etal, care) for p in parsed if p.is_owner]
        n_owners[u] = len(owners)
        records.extend(owners)
    offsets = np.concatenate([[0], np.cumsum(n_owners)[:-1]])
    per_row = n_owners[codes]
    rows = np.repeat(todo, per_row)
    start = np.repeat(offsets[codes], per_row)
    slot = np.arange(len(rows)) - np.repeat(np.cumsum(per_row) - per_row, per_row)
    table = pd.DataFrame(records, columns=[*_RECORD_COLUMNS, "etal", "care_of"])
    long = table.iloc[start + slot].reset_index(drop=True)
    long.insert(0, PARCEL_KEY, roll[PARCEL_KEY].astype("str").to_numpy()[rows])
    long["_slot"] = slot.astype("int64")
    long["_row"] = rows.astype("int64")
    keys = roll[PARCEL_KEY].astype("str").to_numpy()
    none = [str(k) for k in keys[todo[per_row == 0]]]
    cols = [PARCEL_KEY, "first", "middle", "last", "suffix", "_slot", "_row", *_LONG_EXTRA]
    return _long_frame_typed(long.loc[:, cols]), none


def _long_frame_typed(df: pd.DataFrame) -> pd.DataFrame:
    text_cols = [c for c in df.columns if c not in ("_slot", "_row", "etal")]
    return df.astype(
        {**dict.fromkeys(text_cols, "str"), "_slot": "int64", "_row": "int64", "etal": "bool"}
    )


def _names_of(owners: Any) -> list[str]:
    """The names of an override's ``owners`` (a tuple, or text separated by ``;``)."""
    if owners is None or (isinstance(owners, float) and owners != owners):
        return []
    names = list(owners) if isinstance(owners, (tuple, list)) else str(owners).split(";")
    return [raw for raw in (str(x).strip() for x in names) if raw and raw.lower() != "nan"]


def _override_owners(overrides: pd.DataFrame) -> pd.DataFrame:
    """The owners the ownership overrides name (:func:`override_owner_names`), as rows."""
    rows: list[dict[str, Any]] = []
    for key, owners in zip(overrides[PARCEL_KEY], overrides["owners"], strict=True):
        _parsed_rows(str(key), -1, override_owner_names(owners), rows)
    return _long_frame(rows)


def override_owner_names(owners: Any) -> list[ParsedOwner]:
    """The names an ownership override's ``owners`` field gives, read as :func:`parse_owners` does.

    Parameters
    ----------
    owners
        The field: a tuple of names, or text of names separated by ``;``.

    Returns
    -------
    list of ParsedOwner
        Every name read, care-of names included (``is_owner`` false): one
        entry may name several owners (``John & Mary Lee`` is JOHN LEE and
        MARY LEE), which count as several in the divisor of § 2-202.1.a(2).

    Notes
    -----
    A name whose first person ends in a lone initial, with no comma (``WALSH
    DAVID R``, ``WALSH DAVID R JR``, ``WALSH DAVID R & MARY``), is written as
    the roll writes names, surname first: no surname is one letter. It is
    read in the roll's ``LAST FIRST`` order. Any other name is read ``First
    Last`` (``Grant Kelly``); a comma always means ``LAST, FIRST``.
    """
    parsed: list[ParsedOwner] = []
    for raw in _names_of(owners):
        # the first person of the name (before "&" or "AND"), suffixes left off
        first_person = re.split(r"&|\bAND\b", raw.replace(".", " ").upper())[0]
        words = first_person.split()
        while len(words) > 3 and words[-1] in _SUFFIX_KEYS:
            words.pop()
        roll_order = (
            "," not in raw
            and len(words) >= 3
            and len(words[-1]) == 1
            and words[-1].isalpha()
            and words[-1] not in _SUFFIX_KEYS
        )
        parsed.extend(parse_owner_text(raw, order="last_first" if roll_order else "first_last"))
    return parsed


@lru_cache(maxsize=200_000)
def _entity_details(name: str, first_last: bool = False) -> tuple[str, str, str]:
    """(subkind, role, agent) of an entity named in a structured field.

    ``name`` is the slot's fields joined (first, middle, last, suffix): with a
    first name it is written ``First Last`` (``ANN LEE TRUSTEE`` of first
    ``ANN``, last ``LEE TRUSTEE``), else as the last-name field writes it
    (``DOE JANE TRUSTEE``, surname first).
    """
    order: Literal["last_first", "first_last"] = "first_last" if first_last else "last_first"
    parsed = [p for p in parse_owner_text(name, order=order) if p.is_owner]
    if len(parsed) == 1 and parsed[0].kind == "entity":
        return parsed[0].subkind, parsed[0].role, parsed[0].agent
    return "other", "", ""


def parse_owners(roll: pd.DataFrame, *, overrides: pd.DataFrame | None = None) -> pd.DataFrame:
    """Parse the owners of every roll record.

    Parameters
    ----------
    roll
        The roll frame (:data:`pipeline.frames.ROLL_COLUMNS`), optionally with
        the free-text column :data:`OWNER_TEXT_COLUMN` (``owner_text``).
    overrides
        Ownership overrides (:data:`pipeline.frames.OWNERSHIP_OVERRIDE_COLUMNS`):
        for a parcel listed there, its ``owners`` (names), when given, replace
        the roll's owners, and its ``owner_count`` is the divisor (with the
        roll's owners when it names none).

    Returns
    -------
    pandas.DataFrame
        The owners frame, columns :data:`OWNER_COLUMNS`, one row per
        (parcel, owner), ordered as the roll and then by ``owner_index``.
        A record without any owner name has no row (its owner count is 0,
        see :func:`owner_counts`; :func:`owner_quality` lists it).

    Notes
    -----
    Sources, per record: the structured ORPTS owner fields when any of them
    holds a name (``owner_source == "roll"``); otherwise ``owner_text`` read by
    :func:`parse_owner_text` in ``LAST FIRST`` order (``"text"``). A text in
    the last-name field of an ORPTS record is never split into a person: ORPTS
    writes entities there with an empty first name, and ``EXAMPLE HOLDINGS``
    cannot be told from a person by its words. An ownership override's names
    are read by :func:`parse_owner_text` in ``First Last`` order
    (``"override"``); care-of names are never owners.

    A structured owner is an *entity* when its first-name field is empty or
    its name contains an entity word (:data:`ENTITY_PATTERN`: LLC, INC, CORP,
    TRUST, ESTATE, TOWN OF, COUNTY OF, CHURCH, SCHOOL, DISTRICT, ASSOC, BANK,
    "& SONS", ...); its ``subkind`` / ``role`` / ``agent`` come from
    :func:`parse_owner_text` of its name. An entity is one owner
    (§ 2-202.1.a(2)). ``ETAL`` in a structured last-name or suffix field is
    dropped from the name and flags ``etal``.

    ``owner_count`` of a parcel is the number of owner rows, or the
    override's ``owner_count`` when the parcel is overridden (a positive
    count there wins even when it differs from the number of names, since
    the statute divides by the number of owners; a count of 0 or missing
    falls back to the number of names). With ``etal`` and no override, the
    count is the names read: a lower bound, so each such co-owner may be
    credited too much; :func:`owner_quality` recommends an override.

    When several roll records share a parcel key, their owners are listed
    under that key in roll order (owner_index continues).
    """
    long, any_used = _roll_owners(roll)
    text_long, _ = _text_owners(roll, any_used)
    if len(text_long):
        long = pd.concat([long, text_long.assign(owner_source="text")], ignore_index=True)
    long["owner_source"] = long["owner_source"].fillna("roll") if "owner_source" in long else "roll"
    count_override: dict[str, int] = {}
    if overrides is not None and len(overrides):
        # an override naming owners replaces the roll's; one giving only a
        # count keeps the roll's owners and divides by its count
        named = overrides[[len(_names_of(v)) > 0 for v in overrides["owners"]]]
        ov_keys = set(named[PARCEL_KEY].astype("str"))
        long = long[~long[PARCEL_KEY].isin(ov_keys)]
        ov = _override_owners(named)
        # an overridden parcel keeps the place of its roll record
        first_row = dict(
            zip(roll[PARCEL_KEY].astype("str")[::-1], range(len(roll) - 1, -1, -1), strict=True)
        )
        ov["_row"] = np.array([first_row.get(k, len(roll)) for k in ov[PARCEL_KEY]], dtype="int64")
        long = pd.concat([long, ov.assign(owner_source="override")], ignore_index=True)
        for key, n in zip(overrides[PARCEL_KEY], overrides["owner_count"], strict=True):
            if pd.notna(n) and int(n) > 0:
                count_override[str(key)] = int(n)
    long = _by_row_slot(long).reset_index(drop=True)
    name, kind_of_name, norm = _name_kind_norm(
        long["first"], long["middle"], long["last"], long["suffix"]
    )
    given = long["_kind"].astype("str")
    kind = given.where(given != "", kind_of_name)
    # parcel codes once: owner_index, counts and the per-parcel flags from them
    codes = pd.factorize(long[PARCEL_KEY].to_numpy())[0]
    owner_index = pd.Series(codes).groupby(codes, sort=False).cumcount().to_numpy("int64")
    out = pd.DataFrame(
        {
            PARCEL_KEY: long[PARCEL_KEY].astype("str"),
            "owner_index": owner_index,
            "name": name,
            "kind": kind.astype("str"),
            "first": long["first"],
            "middle": long["middle"],
            "last": long["last"],
            "suffix": long["suffix"],
            "norm_name": norm,
        }
    )
    counts = pd.Series(np.bincount(codes)[codes] if len(codes) else [], dtype="int64")
    if count_override:
        counts = out[PARCEL_KEY].map(count_override).fillna(counts).astype("int64")
    out["owner_count"] = counts
    out["owner_source"] = long["owner_source"].astype("str")
    # entity parts: the whole name sits in "last"
    ent = (out["kind"] == "entity").to_numpy(dtype=bool)
    out.loc[ent, "last"] = out.loc[ent, "name"]
    out.loc[ent, ["first", "middle", "suffix"]] = ""
    # subkind, role, agent: given for text rows; for structured rows from the name
    subkind = long["subkind"].astype("str").to_numpy(dtype=object)
    role = long["role"].astype("str").to_numpy(dtype=object)
    agent = long["agent"].astype("str").to_numpy(dtype=object)
    structured = (given == "").to_numpy(dtype=bool)
    subkind[structured & ~ent] = "person"
    todo = np.flatnonzero(structured & ent)
    if len(todo):
        names = out["name"].to_numpy(dtype=object)
        # the slot's own first-name field says in which order its name is joined
        with_first = (~_blank_distinct(long["first"])).astype(bool)
        details = [_entity_details(str(names[i]), bool(with_first[i])) for i in todo]
        subkind[todo] = [d[0] for d in details]
        role[todo] = [d[1] for d in details]
        # a trustee named in a slot of its own (:func:`_agents_of_trusts`) stays
        agent[todo] = [d[2] or agent[i] for i, d in zip(todo, details, strict=True)]
    out["subkind"] = pd.Series(subkind, dtype="str")
    out["role"] = pd.Series(role, dtype="str")
    out["agent"] = pd.Series(agent, dtype="str")
    etal = long["etal"].to_numpy(dtype=bool)
    if etal.any():
        etal = np.bincount(codes, weights=etal)[codes] > 0
    if count_override and etal.any():
        # the assessor's count settles how many owners ETAL stood for
        etal = etal & ~out[PARCEL_KEY].isin(count_override.keys()).to_numpy()
    out["etal"] = pd.Series(etal, dtype="bool")
    care = long["care_of"].astype("str")
    has_care = (care != "").to_numpy(dtype=bool)
    if has_care.any():
        care_of_code = dict(zip(codes[has_care], care[has_care], strict=True))
        care = pd.Series([care_of_code.get(c, "") for c in codes], dtype="str")
    out["care_of"] = care.reset_index(drop=True)
    return out.loc[:, list(OWNER_COLUMNS)].reset_index(drop=True)


def owner_counts(owners: pd.DataFrame) -> pd.Series:
    """Number of owners per parcel.

    Parameters
    ----------
    owners
        The owners frame from :func:`parse_owners`.

    Returns
    -------
    pandas.Series
        ``parcel_key`` -> owner count (int64), override counts included.
        Parcels without any owner are absent (count 0). A parcel with
        ``etal`` has at least this many owners.
    """
    if "owner_count" in owners.columns:
        s = owners.groupby(PARCEL_KEY, sort=False)["owner_count"].first()
    else:
        s = owners.groupby(PARCEL_KEY, sort=False).size()
    return s.astype("int64").rename("owner_count")


def owner_quality(owners: pd.DataFrame, roll: pd.DataFrame | None = None) -> dict[str, Any]:
    """Data-quality notes on the owners: counts that need the assessor's word.

    Parameters
    ----------
    owners
        The owners frame from :func:`parse_owners`.
    roll
        The roll it was parsed from (optional): to list records without owners.

    Returns
    -------
    dict
        JSON-serialisable, keys sorted::

            {
              "etal": {"count": int, "keys": [...], "note": str},
              "care_of": {"count": int, "keys": [...]},
              "person_names_in_last_name_field": {"count": int, "keys": [...], "note": str},
              "without_owner": {"count": int, "keys": [...]},   # with roll only
            }

        ``etal``: parcels (not overridden) whose owners were written
        ``ETAL``: their count is the names read, a lower bound; an ownership
        override with the assessor's ``owner_count`` is recommended.
    """
    cols = [PARCEL_KEY, "etal", "owner_source", "care_of"]
    first = owners[cols].groupby(PARCEL_KEY, sort=False).first()
    keys = np.asarray(first.index, dtype=object)
    etal = first["etal"].astype(bool).to_numpy() & (first["owner_source"] != "override").to_numpy()
    etal_keys = sorted(str(k) for k in keys[etal])
    care_keys = sorted(str(k) for k in keys[(first["care_of"].astype("str") != "").to_numpy()])
    out: dict[str, Any] = {
        "care_of": {"count": len(care_keys), "keys": care_keys},
        "etal": {
            "count": len(etal_keys),
            "keys": etal_keys,
            "note": (
                "owners written ETAL: more owners than named; the count used is the "
                "names read (a lower bound). Add an ownership override with the "
                "assessor's owner_count."
            ),
        },
    }
    like = _person_like_keys(owners)
    out["person_names_in_last_name_field"] = {
        "count": len(like),
        "keys": like,
        "note": (
            "owners written in the last-name field alone, with no entity word, whose words "
            "read as a person's name (WALSH DAVID R, SMITH JOHN & MARY): read as one entity "
            "each. If they are people, an ownership override naming them gives the right "
            "number of owners and lets their signatures be credited."
        ),
    }
    if roll is not None:
        roll_keys = np.asarray(roll[PARCEL_KEY], dtype=object)
        missing = sorted({str(k) for k in roll_keys[~isin(roll_keys, keys)]})
        out["without_owner"] = {"count": len(missing), "keys": missing}
        shared = _first_name_only_keys(roll)
        out["surname_from_co_owner"] = {
            "count": len(shared),
            "keys": shared,
            "note": (
                "an owner written with a first name only (MARY beside JOHN SMITH): read "
                "with the surname of the record's other persons (MARY SMITH), as SMITH "
                "JOHN & MARY reads, where they write one plain surname and no trust, "
                "estate or trustee stands beside them; else as written (no signature "
                "matches it). An ownership override naming the owners settles either."
            ),
        }
    return out


def _first_name_only_keys(roll: pd.DataFrame) -> list[str]:
    """Keys of the records with an owner slot of a first name and no last name."""
    hit = np.zeros(len(roll), dtype=bool)
    for first_col, _, last_col, _ in _SLOTS:
        if first_col not in roll or last_col not in roll:
            continue
        first = roll[first_col].astype("str").where(roll[first_col].notna(), "")
        last = roll[last_col].astype("str").where(roll[last_col].notna(), "")
        hit |= ~_blank_distinct(first) & _blank_distinct(last)
    if not hit.any():
        return []
    return sorted({str(k) for k in np.asarray(roll[PARCEL_KEY], dtype=object)[hit]})


def person_like_names(name: str) -> list[ParsedOwner]:
    """The persons an entity's name reads as (``LAST FIRST``), or none.

    For a name written in the roll's last-name field alone: no entity word
    (:data:`ENTITY_PATTERN`) and no digit (``HARLOW GRANGE NO 917``), and
    each person read with a first name and a surname.
    """
    if ENTITY_PATTERN.search(name) or any(c.isdigit() for c in name):
        return []
    return [
        p
        for p in parse_owner_text(name)
        if p.is_owner and p.kind == "person" and p.first and p.last
    ]


def _person_like_keys(owners: pd.DataFrame) -> list[str]:
    """Parcels (not overridden) with an entity owner whose name reads as a person's."""
    if "subkind" not in owners.columns or not len(owners):
        return []
    rows = owners[
        (owners["kind"] == "entity")
        & (owners["subkind"] == "other")
        & (owners["owner_source"] == "roll")
    ]
    if not len(rows):
        return []
    names = rows["name"].astype("str")
    reads = {n: bool(person_like_names(n)) for n in set(names)}
    hit = names.map(reads).astype(bool).to_numpy()
    return sorted({str(k) for k in rows.loc[hit, PARCEL_KEY]})
