"""Normalisation of names and addresses for matching signers to owners and voters.

The keys built here are deliberately simple and deterministic: two spellings
that any clerk would call "the same" give the same key, nothing more. The
fuzzy matcher (a later issue) builds on these keys; it does not replace them.

* Names: upper case, punctuation dropped (``"L.L.C."`` -> ``"LLC"``,
  ``"O'Brien"`` -> ``"OBRIEN"``), ``&`` read as ``AND``, a leading ``THE``
  dropped, common entity designators spelled one way (``INCORPORATED`` ->
  ``INC``), generational suffixes spelled one way (``JR.`` -> ``JR``,
  ``2ND`` -> ``II``), spaces collapsed.
* Addresses: upper case, punctuation dropped, USPS Publication 28 abbreviations
  for the street type (``STREET`` -> ``ST``) and for directions
  (``NORTH`` -> ``N``), ordinal street names as numbers (``FIRST`` -> ``1ST``),
  unit designators (``APT 3``, ``# 3``) dropped.

All functions are pure and cached (the same spellings repeat many times in a
roll).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import pandas as pd

__all__ = [
    "DIRECTIONS",
    "NAME_SUFFIXES",
    "STREET_TYPES",
    "first_name_keys",
    "fold_accents",
    "given_names_alike",
    "nickname_equivalent",
    "normalize_address",
    "normalize_address_columns",
    "normalize_address_text",
    "normalize_address_texts",
    "normalize_name",
    "normalize_names",
    "person_name_parts",
    "reorder_comma",
    "split_name_suffix",
    "spouse_style_title",
]

#: Generational suffixes and their one spelling.
NAME_SUFFIXES: dict[str, str] = {
    "JR": "JR",
    "JUNIOR": "JR",
    "SR": "SR",
    "SENIOR": "SR",
    "II": "II",
    "2ND": "II",
    "III": "III",
    "3RD": "III",
    "IV": "IV",
    "4TH": "IV",
    "V": "V",
}

#: Entity designators spelled one way.
_ENTITY_WORDS: dict[str, str] = {
    "INCORPORATED": "INC",
    "CORPORATION": "CORP",
    "COMPANY": "CO",
    "LIMITED": "LTD",
    "ASSOCIATION": "ASSN",
    "ASSOCIATES": "ASSOC",
    "BROTHERS": "BROS",
}

#: USPS Publication 28, C1: street suffixes (common forms) -> standard abbreviation.
STREET_TYPES: dict[str, str] = {
    "ALLEY": "ALY",
    "ALY": "ALY",
    "AVENUE": "AVE",
    "AVE": "AVE",
    "AV": "AVE",
    "AVEN": "AVE",
    "AVNUE": "AVE",
    "BOULEVARD": "BLVD",
    "BLVD": "BLVD",
    "BOUL": "BLVD",
    "CIRCLE": "CIR",
    "CIR": "CIR",
    "CIRC": "CIR",
    "COURT": "CT",
    "CT": "CT",
    "CRT": "CT",
    "COVE": "CV",
    "CV": "CV",
    "CRESCENT": "CRES",
    "CRES": "CRES",
    "DRIVE": "DR",
    "DR": "DR",
    "DRV": "DR",
    "EXTENSION": "EXT",
    "EXT": "EXT",
    "EXPRESSWAY": "EXPY",
    "EXPY": "EXPY",
    "HEIGHTS": "HTS",
    "HTS": "HTS",
    "HIGHWAY": "HWY",
    "HWY": "HWY",
    "HILL": "HL",
    "HL": "HL",
    "HOLLOW": "HOLW",
    "HOLW": "HOLW",
    "LANE": "LN",
    "LN": "LN",
    "LOOP": "LOOP",
    "PARKWAY": "PKWY",
    "PKWY": "PKWY",
    "PKY": "PKWY",
    "PLACE": "PL",
    "PL": "PL",
    "PLAZA": "PLZ",
    "PLZ": "PLZ",
    "POINT": "PT",
    "PT": "PT",
    "RIDGE": "RDG",
    "RDG": "RDG",
    "ROAD": "RD",
    "RD": "RD",
    "ROUTE": "RTE",
    "RTE": "RTE",
    "RT": "RTE",
    "SQUARE": "SQ",
    "SQ": "SQ",
    "STREET": "ST",
    "STR": "ST",
    "ST": "ST",
    "TERRACE": "TER",
    "TER": "TER",
    "TERR": "TER",
    "TRAIL": "TRL",
    "TRL": "TRL",
    "TURNPIKE": "TPKE",
    "TPKE": "TPKE",
    "TPK": "TPKE",
    "WAY": "WAY",
    "WY": "WAY",
}

#: USPS directionals.
DIRECTIONS: dict[str, str] = {
    "NORTH": "N",
    "N": "N",
    "SOUTH": "S",
    "S": "S",
    "EAST": "E",
    "E": "E",
    "WEST": "W",
    "W": "W",
    "NORTHEAST": "NE",
    "NE": "NE",
    "NORTHWEST": "NW",
    "NW": "NW",
    "SOUTHEAST": "SE",
    "SE": "SE",
    "SOUTHWEST": "SW",
    "SW": "SW",
}

#: Spelled-out ordinals used as street names.
_ORDINALS: dict[str, str] = {
    "FIRST": "1ST",
    "SECOND": "2ND",
    "THIRD": "3RD",
    "FOURTH": "4TH",
    "FIFTH": "5TH",
    "SIXTH": "6TH",
    "SEVENTH": "7TH",
    "EIGHTH": "8TH",
    "NINTH": "9TH",
    "TENTH": "10TH",
    "ELEVENTH": "11TH",
    "TWELFTH": "12TH",
    "THIRTEENTH": "13TH",
    "FOURTEENTH": "14TH",
    "FIFTEENTH": "15TH",
    "SIXTEENTH": "16TH",
    "SEVENTEENTH": "17TH",
    "EIGHTEENTH": "18TH",
    "NINETEENTH": "19TH",
    "TWENTIETH": "20TH",
}

#: Road types written before a number ("Route 9", "County Road 9").
_NUMBERED_ROADS = frozenset({"ROUTE", "RTE", "RT", "HIGHWAY", "HWY", "ROAD", "RD"})

#: Who keeps a numbered road, before its type: "County Route 9" = "Co Rte 9",
#: "State Route 66" = "St Rte 66" = "NYS Rte 66".
_ROAD_KEEPERS = {
    "COUNTY": "CO",
    "CNTY": "CO",
    "CTY": "CO",
    "CO": "CO",
    "STATE": "STATE",
    "ST": "STATE",
    "NYS": "STATE",
    "NY": "STATE",
}

#: Shorthand for a numbered road: "CR 9" = "County Route 9", "SR 66" = "State Route 66".
_ROAD_SHORTHAND = {"CR": ("CO", "RTE"), "SR": ("STATE", "RTE")}

#: Route signs written as an address: "NY 9" and "NY-9" = "State Route 9", "US 9"
#: = "US Route 9"; read so only before a route's number (one to three digits and
#: a letter: "9W"), never before a ZIP code (audit A39 F3).
_ROUTE_SIGNS = {"NY": ("STATE", "RTE"), "NYS": ("STATE", "RTE"), "US": ("US", "RTE")}
_ROUTE_NUMBER = re.compile(r"[0-9]{1,3}[A-Z]?")

#: Words before a route's number: after them the number is the road's, not a unit.
_ROUTE_WORDS = _NUMBERED_ROADS | frozenset(_ROAD_SHORTHAND) | frozenset(_ROUTE_SIGNS)

#: Words abbreviated when a name follows them (USPS): "Mount Vernon" = "Mt Vernon".
_NAME_PREFIXES = {"MOUNT": "MT", "SAINT": "ST", "FORT": "FT"}

#: Words that start a unit designator; it and everything after it are dropped.
_UNIT_WORDS = frozenset({"APT", "APARTMENT", "UNIT", "STE", "SUITE", "FL", "FLOOR", "RM", "ROOM"})

#: Unit designators (USPS Publication 28, C2) read as such only after the street's
#: type and before the unit's number or letter: "5 Main St Lot 3", "5 Park Ave Trlr
#: 4", "5 Main St Bldg A Apt 1". Elsewhere they are words of a street's name
#: ("5 Lot Rd", "5 Old Mill Park Lot Rd").
_UNIT_AFTER_TYPE = frozenset({"LOT", "TRLR", "TRAILER", "BLDG", "BUILDING", "SPC", "SPACE"})

#: Designators that are the unit by themselves, after the street's type and last:
#: "5 Main St Upper" and "5 Main St Lower" are the two flats of a house.
_UNIT_ALONE = {
    "UPPER": "UPPR",
    "UPPR": "UPPR",
    "LOWER": "LOWR",
    "LOWR": "LOWR",
    # USPS Publication 28, C2: designators that need no number (audit A39 F5)
    "REAR": "REAR",
    "FRONT": "FRNT",
    "FRNT": "FRNT",
    "BASEMENT": "BSMT",
    "BSMT": "BSMT",
    "SIDE": "SIDE",
}

#: A floor by its ordinal: "2nd Floor" is a unit, its ordinal the unit's start.
_FLOOR_WORDS = frozenset({"FL", "FLOOR", "FLR"})
_ORDINAL_NUMBER = re.compile(r"[0-9]+(ST|ND|RD|TH)")

#: State and ZIP code written after the town without a comma: "... Harlow NY 12106".
_ZIP = re.compile(r"[0-9]{5}")
_STATE_WORDS = (("NY",), ("NEW", "YORK"))

_SPACES = re.compile(r"\s+")
_DROP = re.compile(r"[.'`’]")  # vanish without a space: L.L.C. -> LLC, O'Brien -> OBRIEN
_SEPARATORS = re.compile(r"[^0-9A-Z/#\s]")  # every other mark becomes a space


#: Vulgar fractions as house numbers write them ("7½ Main St" = "7 1/2 Main St").
_FRACTIONS = {"½": " 1/2", "¼": " 1/4", "¾": " 3/4", "⅓": " 1/3", "⅔": " 2/3", "\u2044": "/"}
_FRACTION_CHARS = re.compile("[" + "".join(_FRACTIONS) + "]")
#: A point between digits ("7.5") is no abbreviation: it separates, it does not join.
_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")
_NUMBER_LETTER = re.compile(r"^(\s*[0-9]+)-([A-Z])(?=\s|$)")


def _clean(s: object) -> str:
    if s is None or not isinstance(s, str):
        return "" if s is None or s != s else str(s).strip().upper()  # NaN != NaN
    text = s.upper().replace("&", " AND ")
    if _FRACTION_CHARS.search(text):
        text = _FRACTION_CHARS.sub(lambda m: _FRACTIONS[m.group(0)], text)
    text = _DECIMAL_POINT.sub(" ", text)
    # a house number's letter written with a hyphen is the number's: 12-A is
    # 12A, as the roll writes it (audit A39 F8)
    if "-" in text:
        text = _NUMBER_LETTER.sub(r"\1\2", text)
    text = _DROP.sub("", text)
    text = _SEPARATORS.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


_LETTERS = "0-9A-ZÀ-ſ"  # literal Latin-1/Latin Extended-A letters: same in Python re and RE2

#: The rules of :func:`normalize_name`, applied in order to the upper-cased name.
#: Written in the common subset of Python ``re`` and RE2 (pyarrow), so that the
#: scalar and the vectorised forms give the same keys.
_NAME_RULES: tuple[tuple[str, str], ...] = (
    ("&", " AND "),
    ("[.'`’]", ""),
    (f"[^{_LETTERS}]+", " "),
    ("^ +| +$", ""),
    (" L L C$", " LLC"),
    (" P L L C$", " PLLC"),
    (" L L P$", " LLP"),
    (" L P$", " LP"),
    (" P C$", " PC"),
    ("^THE ", ""),
    # words after the first, whole words only (no "\\b": RE2 reads it as ASCII-only)
    *((f" {word}( |$)", f" {short}\\1") for word, short in NAME_SUFFIXES.items() if word != short),
    *((f" {word}( |$)", f" {short}\\1") for word, short in _ENTITY_WORDS.items()),
)
_N_GENERAL_RULES = 4  # the rules every name needs; the others are rare
_RARE_TRIGGER = "|".join(
    "(?:" + p.replace("( |$)", "(?: |$)") + ")" for p, _ in _NAME_RULES[_N_GENERAL_RULES:]
)
_NAME_RULES_RE = tuple((re.compile(p), r) for p, r in _NAME_RULES)
_RARE_TRIGGER_RE = re.compile(_RARE_TRIGGER)


@lru_cache(maxsize=1_000_000)
def _normalize_name_cached(s: str) -> str:
    text = s.upper()
    for pattern, repl in _NAME_RULES_RE[:_N_GENERAL_RULES]:
        text = pattern.sub(repl, text)
    # the rarer rules only where one of them can apply (else each is a no-op)
    if _RARE_TRIGGER_RE.search(text):
        for pattern, repl in _NAME_RULES_RE[_N_GENERAL_RULES:]:
            text = pattern.sub(repl, text)
    return text


def normalize_name(s: str | None) -> str:
    """Normalise a person's or an entity's name into a matching key.

    Parameters
    ----------
    s
        The name as written (``None`` or NaN give ``""``).

    Returns
    -------
    str
        Upper case, punctuation dropped, spaces collapsed; a leading ``THE``
        dropped; ``&`` -> ``AND``; a trailing ``L.L.C.``/``L L C`` ->
        ``LLC``; entity designators and generational suffixes spelled one
        way (after the first word). The suffix is kept in the key (a father
        and a son are different owners); use :func:`split_name_suffix` to
        separate it.

    Examples
    --------
    >>> normalize_name("The Example Holdings, L.L.C.")
    'EXAMPLE HOLDINGS LLC'
    >>> normalize_name("John A. Smith, Jr.")
    'JOHN A SMITH JR'
    """
    if not isinstance(s, str):
        return "" if s is None or s != s else _normalize_name_cached(str(s))
    return _normalize_name_cached(s)


def normalize_names(names: pd.Series) -> pd.Series:
    """Vectorised :func:`normalize_name` (pyarrow regular expressions).

    Parameters
    ----------
    names
        Names as written; missing values give ``""``.

    Returns
    -------
    pandas.Series
        The keys, dtype ``str``, same index; equal element by element to
        :func:`normalize_name`.
    """
    raw = names.astype("str").where(names.notna(), "")
    codes, distinct = pd.factorize(raw.to_numpy())
    uniq = pd.Series(distinct, dtype="str")
    text = uniq.str.upper()
    for pattern, repl in _NAME_RULES[:_N_GENERAL_RULES]:
        text = text.str.replace(pattern, repl, regex=True)
    # the rarer rules only where one of them can apply
    rare = text.str.contains(_RARE_TRIGGER, regex=True)
    if rare.any():
        sub = text[rare]
        for pattern, repl in _NAME_RULES[_N_GENERAL_RULES:]:
            sub = sub.str.replace(pattern, repl, regex=True)
        text = text.where(~rare, sub)
    keys = np.asarray(text.to_numpy(dtype=object), dtype=object)
    return pd.Series(keys[codes] if len(codes) else [], index=names.index, dtype="str")


def split_name_suffix(norm: str) -> tuple[str, str]:
    """Split a trailing generational suffix off a normalised name.

    Parameters
    ----------
    norm
        A key from :func:`normalize_name`.

    Returns
    -------
    tuple[str, str]
        ``(name without the suffix, suffix or "")``.
    """
    tokens = norm.split()
    if len(tokens) > 1 and tokens[-1] in NAME_SUFFIXES.values():
        return " ".join(tokens[:-1]), tokens[-1]
    return norm, ""


def _normalize_address_tokens(tokens: list[str]) -> str:
    # the house number: the leading token(s) holding digits ("12", "12A", "12-14", "12 1/2")
    number: list[str] = []
    rest = tokens
    if (
        rest
        and any(c.isdigit() for c in rest[0])
        and not rest[0].endswith(("ST", "ND", "RD", "TH"))
    ):
        number = [rest[0].lstrip("0") or "0"]
        rest = rest[1:]
        if rest and re.fullmatch(r"\d+/\d+", rest[0]):
            number.append(rest[0])
            rest = rest[1:]
    # units: "APT 3", "# 3", "#3" and all after; a unit word first is part of
    # the street's name ("12 Ste Marie Rd"), not a unit
    at = _unit_at(rest)
    if at is not None:
        rest = rest[:at]
    rest = [_ORDINALS.get(t, t) for t in rest]
    # numbered roads: "ROUTE 9", "STATE HIGHWAY 66" -> "RTE 9", "STATE HWY 66";
    # "CR 9" -> "CO RD 9"; who keeps it: "COUNTY RTE 9" -> "CO RTE 9"
    numbered = len(rest) >= 2 and rest[-1][:1].isdigit()
    if numbered and rest[-2] in _ROAD_SHORTHAND:
        rest = [*rest[:-2], *_ROAD_SHORTHAND[rest[-2]], rest[-1]]
    elif numbered and rest[-2] in _ROUTE_SIGNS and _ROUTE_NUMBER.fullmatch(rest[-1]):
        rest = [*rest[:-2], *_ROUTE_SIGNS[rest[-2]], rest[-1]]
    rest = [
        STREET_TYPES[t]
        if t in _NUMBERED_ROADS and i + 1 < len(rest) and rest[i + 1][:1].isdigit()
        else t
        for i, t in enumerate(rest)
    ]
    keeper = numbered and len(rest) >= 3 and rest[-2] in ("RTE", "HWY", "RD")
    if keeper and rest[-3] in _ROAD_KEEPERS:
        rest[-3] = _ROAD_KEEPERS[rest[-3]]
        if rest[-3] == "CO" and rest[-2] == "RD":  # a county's numbered road: one name
            rest[-2] = "RTE"
    # "MOUNT VERNON RD" -> "MT VERNON RD" (a name follows the word)
    # "SAINT JAMES" -> "ST JAMES" too: a name, not a street type, follows (audit A39 F6)
    rest = [
        _NAME_PREFIXES[t]
        if t in _NAME_PREFIXES
        and (i + 1 < len(rest) - 1 or (i + 1 < len(rest) and rest[i + 1] not in STREET_TYPES))
        else t
        for i, t in enumerate(rest)
    ]
    if len(rest) >= 2:
        # post-direction after a street type: "MAIN STREET NORTH" -> "MAIN ST N"
        last = len(rest) - 1
        if rest[last] in DIRECTIONS and rest[last - 1] in STREET_TYPES and last - 1 >= 1:
            rest[last] = DIRECTIONS[rest[last]]
            last -= 1
        # the street type: the last token, when a name precedes it
        if rest[last] in STREET_TYPES and last >= 1:
            rest[last] = STREET_TYPES[rest[last]]
            # "MAIN STREET EXT" -> "MAIN ST EXT": an extension of a typed street
            if rest[last] == "EXT" and last >= 2 and rest[last - 1] in STREET_TYPES:
                rest[last - 1] = STREET_TYPES[rest[last - 1]]
        # pre-direction, when a name follows it: "NORTH MAIN ST" -> "N MAIN ST"
        if rest[0] in DIRECTIONS and len(rest) >= 2 and rest[1] not in STREET_TYPES:
            rest[0] = DIRECTIONS[rest[0]]
    return " ".join(number + rest)


def _without_place(tokens: list[str]) -> list[str]:
    """The tokens of an address without the town, state and ZIP written after it.

    A ZIP code or a state (``NY``, ``NEW YORK``) at the end, written without
    a comma ("12 Main St Harlow NY 12106"), says a place follows the street:
    they are dropped, and so are the town's words, which are whatever follows
    the street's first type (with its extension, a post-direction and a unit)
    or a route's number. Without such a type or number the town cannot be told
    from the street and stays: no key is guessed (audit A39 F2).
    """
    toks = list(tokens)
    placed = False
    if len(toks) > 3 and re.fullmatch(r"[0-9]{4}", toks[-1]) and _ZIP.fullmatch(toks[-2]):
        toks = toks[:-2]  # ZIP+4, its hyphen a space by now
        placed = True
    elif len(toks) > 2 and _ZIP.fullmatch(toks[-1]):
        toks = toks[:-1]
        placed = True
    for state in _STATE_WORDS:
        if len(toks) > len(state) + 1 and tuple(toks[-len(state) :]) == state:
            toks = toks[: -len(state)]
            placed = True
            break
    if not placed:
        return list(tokens)
    end = None
    for j in range(2, len(toks)):
        t, prev = toks[j], toks[j - 1]
        if t in STREET_TYPES or (t[:1].isdigit() and prev in _ROUTE_WORDS):
            end = j + 1
            break
    if end is None:
        return toks
    if end < len(toks) and STREET_TYPES.get(toks[end]) == "EXT":
        end += 1
    if end < len(toks) and toks[end] in DIRECTIONS:
        end += 1
    if end < len(toks):
        t = toks[end]
        nxt = toks[end + 1] if end + 1 < len(toks) else ""
        if t in _UNIT_WORDS or t in _UNIT_AFTER_TYPE:
            end += 2 if nxt else 1
        elif _ORDINAL_NUMBER.fullmatch(t) and nxt in _FLOOR_WORDS:
            end += 2
        elif t.startswith("#") or t in _UNIT_ALONE or t[:1].isdigit():
            end += 1
    return toks[:end]


@lru_cache(maxsize=1_000_000)
def normalize_address_text(s: str) -> str:
    """Normalise a free-text street address ("12 Oak Street") into a matching key.

    Parameters
    ----------
    s
        Street number and name as written; anything after the first comma
        (town, state) is ignored, as is a unit (``Apt 3``, ``#3``, ``Unit B``).

    Returns
    -------
    str
        ``"<number> <street>"``, upper case, USPS abbreviations; ``""`` for an
        empty address.

    Notes
    -----
    Only the last word of the street name is read as a street type, and a
    direction only when another word of the name remains, so that
    ``"Court Street"`` -> ``"COURT ST"`` and ``"North Street"`` ->
    ``"NORTH ST"`` (USPS keeps a direction that is the street's name).

    Examples
    --------
    >>> normalize_address_text("12 Oak Street") == normalize_address_text("12 OAK ST")
    True
    """
    if not isinstance(s, str):
        return ""
    head = s.split(",", 1)[0]
    head = re.sub(r"#\s*", " #", head.upper())
    return _normalize_address_tokens(_without_place(_clean(head).split()))


@lru_cache(maxsize=200_000)
def address_unit(s: str) -> str:
    """The unit of a free-text address: ``"12 Main St Apt 3"`` -> ``"3"`` (``""`` for none).

    The part :func:`normalize_address_text` drops (``Apt 3``, ``#3``, ``Unit B``,
    ``Ste 200``), without its designator word: two dwellings of one building
    have one address key and two units.
    """
    if not isinstance(s, str):
        return ""
    parts = s.upper().split(",")
    head = re.sub(r"#\s*", " #", parts[0])
    tokens = _without_place(_clean(head).split())
    start = 1 if tokens and any(c.isdigit() for c in tokens[0]) else 0
    if start < len(tokens) and re.fullmatch(r"\d+/\d+", tokens[start]):
        start += 1
    at = _unit_at(tokens[start:])
    if at is None:
        # "6 Main St, Apt 3": the unit in a part of its own after a comma
        for part in parts[1:]:
            more = _clean(re.sub(r"#\s*", " #", part)).split()
            if more and (more[0] in _UNIT_WORDS or more[0].startswith("#")):
                return _unit_words(more)
        return ""
    return _unit_words(tokens[start + at :])


def _unit_words(tokens: Sequence[str]) -> str:
    """The unit from its designator on: ``APT 3`` -> ``3``, ``UPPER`` -> ``UPPR``."""
    designators = _UNIT_WORDS | _UNIT_AFTER_TYPE
    words = (_UNIT_ALONE.get(u, u).lstrip("#") for u in tokens if u not in designators)
    return " ".join(w for w in words if w)


def _unit_at(rest: Sequence[str]) -> int | None:
    """Where the unit begins among the tokens after the house number (None: no unit).

    ``APT``, ``#3`` and the like anywhere but first; :data:`_UNIT_AFTER_TYPE`
    words after the street's type and before a number or letter;
    :data:`_UNIT_ALONE` words after the street's type, last.
    """
    typed = False
    for i, t in enumerate(rest):
        if (t in _UNIT_WORDS and i > 0) or t.startswith("#"):
            # "2ND FLOOR": the floor's ordinal is the unit's (audit A39 F5)
            if t in _FLOOR_WORDS and i > 1 and _ORDINAL_NUMBER.fullmatch(rest[i - 1]):
                return i - 1
            return i
        prev = rest[i - 1] if i > 0 else ""
        if typed:
            nxt = rest[i + 1] if i + 1 < len(rest) else ""
            if t in _UNIT_AFTER_TYPE and nxt and (any(c.isdigit() for c in nxt) or len(nxt) == 1):
                return i
            if t in _UNIT_ALONE and (not nxt or nxt in _UNIT_WORDS or nxt.startswith("#")):
                return i
            # "5 MAIN ST 3": a number last after the street's type is a unit,
            # not after a route's word ("OLD ROUTE 9") (audit A39 F5)
            if not nxt and t[:1].isdigit() and prev not in _ROUTE_WORDS:
                return i
        if i > 0 and t in STREET_TYPES:
            typed = True
        # "ROUTE 9": the route's number ends the street's name as a type does
        # ("12 Route 9 Lot 3", "12 NY 9 Rear": audit A39 F4)
        if i > 0 and t[:1].isdigit() and prev in _ROUTE_WORDS:
            typed = True
    return None


#: A free-text address that starts with a plain house number: the number, the rest.
_PLAIN_NUMBER = re.compile(r"\s*([0-9]+)\s+(\S.*)", re.DOTALL)


def normalize_address_texts(values: Sequence[str]) -> list[str]:
    """:func:`normalize_address_text` of many distinct addresses, the street parts once.

    Parameters
    ----------
    values
        Addresses as written (each a ``str``).

    Returns
    -------
    list of str
        ``normalize_address_text(v)`` for each ``v``, in order.

    Notes
    -----
    In an address that starts with a plain house number (ASCII digits, then
    white space: ``"0012 Oak Street"``), the number is its own token and no
    rule reads it, so the key is ``number.lstrip("0") or "0"`` followed by the
    key of ``"1 " + rest`` without its leading ``"1"``. The rest (``"Oak
    Street"``) is shared by every house of a street, so each street is
    normalised once and each address costs one regular-expression match. Any
    other address goes the long way.
    """
    out: list[str] = []
    for v in values:
        m = _PLAIN_NUMBER.fullmatch(v.split(",", 1)[0])
        if m is not None:
            street = normalize_address_text("1 " + m.group(2))
            if street == "1" or street.startswith("1 "):
                out.append((m.group(1).lstrip("0") or "0") + street[1:])
                continue
        out.append(normalize_address_text(v))
    return out


def normalize_address(number: object, street: object, suffix: object = "") -> str:
    """Normalise an address given in the roll's three fields.

    Parameters
    ----------
    number
        House number (``parcel_address_number`` / ``mailing_address_number``).
    street
        Street name (``parcel_address_street``), possibly with directions.
    suffix
        Street type (``parcel_address_suff``): ``"Ave"``, ``"Street"``...

    Returns
    -------
    str
        The same key as :func:`normalize_address_text` gives for
        ``"<number> <street> <suffix>"``.
    """
    parts = [_clean(p) for p in (number, street, suffix)]
    return normalize_address_text(" ".join(p for p in parts if p))


def normalize_address_columns(number: pd.Series, street: pd.Series, suffix: pd.Series) -> pd.Series:
    """Vectorised :func:`normalize_address` over three aligned text columns.

    Parameters
    ----------
    number, street, suffix
        The roll's three fields as text (``""`` for a blank), on one index.

    Returns
    -------
    pandas.Series
        The keys, dtype ``str``, on the index of ``number``; equal element by
        element to ``normalize_address(number, street, suffix)``.

    Notes
    -----
    The street part of the key depends on the street and the street type
    only, so each distinct ``(street, suffix)`` pair is normalised once as the
    address of house ``"1"``; for a plain house number (ASCII digits) the key
    is then ``number.lstrip("0") or "0"``, a space, and that street part (the
    number is its own token and nothing else reads it). Any other number (a
    letter, a fraction, blank) and a street whose key does not follow
    ``"1 "`` go the long way, once per distinct combination.
    """
    index = number.index
    n, s, x = (v.reset_index(drop=True).astype("str") for v in (number, street, suffix))
    pairs = pd.DataFrame({"s": s, "x": x})
    codes = pairs.groupby(["s", "x"], sort=False).ngroup().to_numpy()
    distinct = pairs.drop_duplicates()
    tails = []
    for st, sf in zip(distinct["s"].tolist(), distinct["x"].tolist(), strict=True):
        key = normalize_address("1", st, sf)
        tails.append(key[2:] if key.startswith("1 ") else None)
    tail = pd.Series(np.asarray(tails, dtype=object)[codes], dtype="str")
    num = n.str.strip()
    fast = num.str.fullmatch("[0-9]+").fillna(False).astype(bool) & tail.notna()
    stripped = num.str.lstrip("0")
    stripped = stripped.where(stripped != "", "0")
    out = (stripped + " " + tail).where(fast, "")
    slow = ~fast.to_numpy()
    if slow.any():
        rest = pd.DataFrame({"n": n[slow], "s": s[slow], "x": x[slow]})
        keyed = rest.drop_duplicates()
        keys = [
            normalize_address(a, b, c)
            for a, b, c in zip(
                keyed["n"].tolist(), keyed["s"].tolist(), keyed["x"].tolist(), strict=True
            )
        ]
        table = pd.Series(keys, index=pd.MultiIndex.from_frame(keyed), dtype="str")
        values = out.to_numpy(dtype=object)
        values[slow] = table.reindex(pd.MultiIndex.from_frame(rest)).to_numpy(dtype=object)
        return pd.Series(values, index=index, dtype="str")
    return pd.Series(out.to_numpy(), index=index, dtype="str")


# ------------------------------------------------------------------ matching keys for persons

#: Courtesy titles dropped from the front of a person's name.
_TITLES = frozenset({"MR", "MRS", "MS", "MISS", "DR", "REV", "HON"})
_COMBINING = re.compile("[\u0300-\u036f]")


@lru_cache(maxsize=200_000)
def fold_accents(s: str) -> str:
    """Drop diacritics: ``"José Núñez"`` -> ``"Jose Nunez"`` (NFKD, combining marks removed).

    Parameters
    ----------
    s
        Any text.

    Returns
    -------
    str
        The text without combining marks (``"ø"``, which has no decomposition,
        is kept).
    """
    if s.isascii():
        return s  # ASCII is its own NFKD form and has no combining marks
    return _COMBINING.sub("", unicodedata.normalize("NFKD", s))


def reorder_comma(name: str) -> str:
    """Read ``"Last, First M."`` as ``"First M. Last"``.

    Parameters
    ----------
    name
        A name as written.

    Returns
    -------
    str
        ``"Smith, Mary B"`` -> ``"Mary B Smith"``; ``"Smith, John A., Jr."`` and
        ``"Smith, John A. Jr."`` -> ``"John A. Smith Jr."``; ``"John Smith,
        Jr."`` is unchanged (the part after the comma is a suffix).
    """
    if "," not in name:
        return name
    parts = [p.strip() for p in name.split(",") if p.strip()]
    if len(parts) < 2:
        return " ".join(parts)

    def is_suffix(p: str) -> bool:
        return normalize_name(p) in NAME_SUFFIXES

    if len(parts) == 2 and is_suffix(parts[1]):
        return f"{parts[0]} {parts[1]}"
    if len(parts) == 3 and is_suffix(parts[2]):
        return f"{parts[1]} {parts[0]} {parts[2]}"
    if len(parts) == 2:
        # "Smith, John Jr": the suffix after the given names is the name's
        # (a lone letter, as V, is read as a middle initial there)
        words = parts[1].split()
        last = normalize_name(words[-1]) if words else ""
        if len(words) >= 2 and len(last) >= 2 and last in NAME_SUFFIXES:
            return f"{' '.join(words[:-1])} {parts[0]} {words[-1]}"
    return " ".join([*parts[1:], parts[0]])


@lru_cache(maxsize=500_000)
def person_name_parts(name: str) -> tuple[tuple[str, ...], str]:
    """The tokens and the generational suffix of a person's name as written.

    Parameters
    ----------
    name
        ``"John A. Smith Jr."``, ``"Smith, Mary B"``, ``"Dr. Seán O'Brien"``,
        ``"Mary Smith-Jones"``.

    Returns
    -------
    tuple
        ``(tokens, suffix)``: upper-case, accent-free tokens in reading order
        (first name first; a comma-inverted name is put back in order; a
        leading title ``MR``/``MRS``/``DR``... is dropped; a hyphenated
        surname gives two tokens) and the suffix (``"JR"``, ``"SR"``, ``"II"``...)
        or ``""``.

    Examples
    --------
    >>> person_name_parts("Smith, Mary B")
    (('MARY', 'B', 'SMITH'), '')
    >>> person_name_parts("John O'Brien Jr.")
    (('JOHN', 'OBRIEN'), 'JR')
    """
    if not isinstance(name, str):
        return (), ""
    norm = normalize_name(fold_accents(reorder_comma(name)))
    tokens = norm.split()
    while len(tokens) > 1 and tokens[0] in _TITLES:
        tokens = tokens[1:]
    suffix = ""
    if len(tokens) > 1 and tokens[-1] in NAME_SUFFIXES.values():
        suffix = tokens.pop()
    return tuple(tokens), suffix


#: Titles of a woman, who may write her husband's name after them.
_SPOUSE_TITLES = frozenset({"MRS", "MS", "MISS"})


@lru_cache(maxsize=100_000)
def spouse_style_title(name: str) -> bool:
    """Whether a written name starts with ``Mrs.``, ``Ms.`` or ``Miss``.

    ``"Mrs. John Smith"`` is, by an old custom, John Smith's wife, not John
    Smith: :func:`person_name_parts` drops the title, so a matcher must not
    credit such a line to the name that follows without a review. The same
    title before a woman's own name (``"Mrs. Mary Smith"``) is sent to review
    too: the words alone cannot tell the two apart.

    Examples
    --------
    >>> spouse_style_title("Mrs. John Smith"), spouse_style_title("Smith, Mrs. John")
    (True, True)
    >>> spouse_style_title("Dr. John Smith"), spouse_style_title("Misty Smith")
    (False, False)
    """
    if not isinstance(name, str):
        return False
    tokens = normalize_name(fold_accents(reorder_comma(name))).split()
    return len(tokens) > 1 and tokens[0] in _SPOUSE_TITLES


@lru_cache(maxsize=1)
def _nicknamer() -> object:
    from nicknames import NickNamer

    return NickNamer()


@lru_cache(maxsize=100_000)
def first_name_keys(first: str) -> frozenset[str]:
    """The name and its canonical forms (``"BILL"`` -> ``{"BILL", "WILLIAM", "ROBERT", ...}``).

    Parameters
    ----------
    first
        An upper-case first name.

    Returns
    -------
    frozenset[str]
        ``first`` plus every canonical name it is a nickname of, per the
        maintained list of the ``nicknames`` package (upper case). Two first
        names whose keys intersect may be the same person's.
    """
    if not first:
        return frozenset()
    namer = _nicknamer()
    canon = namer.canonicals_of(first.lower())  # type: ignore[attr-defined]
    keys = {first, *(c.upper() for c in canon)}
    full = FIRST_NAME_ABBREVIATIONS.get(first)
    if full is not None:  # "WM" on the roll is William
        keys |= first_name_keys(full)
    return frozenset(keys)


#: Abbreviated first names of old deeds and rolls (``WM A BROWN``), with the name
#: each stands for; a short form that begins its name (``GEO``, ``ELIZ``) needs
#: no entry (:func:`nickname_equivalent`).
FIRST_NAME_ABBREVIATIONS: dict[str, str] = {
    "WM": "WILLIAM",
    "WMS": "WILLIAM",
    "CHAS": "CHARLES",
    "THOS": "THOMAS",
    "JAS": "JAMES",
    "JOS": "JOSEPH",
    "JNO": "JOHN",
    "ROBT": "ROBERT",
    "RICHD": "RICHARD",
    "EDW": "EDWARD",
    "EDWD": "EDWARD",
    "BENJ": "BENJAMIN",
    "SAML": "SAMUEL",
    "DANL": "DANIEL",
    "MARGT": "MARGARET",
    "NATHL": "NATHANIEL",
    "JONA": "JONATHAN",
}


#: Jaro-Winkler similarity from which two given names are a close spelling.
CLOSE_NAME_JW = 0.9


def given_names_alike(a: str, b: str) -> bool:
    """Whether two upper-case given (or middle) names may be one: equal, a
    nickname (:func:`nickname_equivalent`), or a close spelling (Jaro-Winkler at
    least :data:`CLOSE_NAME_JW`: ``ANN``/``ANNE``)."""
    from rapidfuzz.distance import JaroWinkler

    return a == b or nickname_equivalent(a, b) or JaroWinkler.similarity(a, b) >= CLOSE_NAME_JW


@lru_cache(maxsize=200_000)
def nickname_equivalent(a: str, b: str) -> bool:
    """Whether two different first names may be one person's (nickname list or a short form).

    Parameters
    ----------
    a, b
        Upper-case first names.

    Returns
    -------
    bool
        True when one is a nickname of the other, both are nicknames of one
        name (``nicknames`` package), or the shorter (3 letters or more) begins
        the longer (``BARB``/``BARBARA``, ``CHRIS``/``CHRISTOPHER``).
    """
    if not a or not b or a == b:
        return False
    if first_name_keys(a) & first_name_keys(b):
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 3 and long_.startswith(short)
