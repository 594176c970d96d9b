"""What a claim of coterminous boundaries names (§ 2-200's area exception).

A territory over 5 square miles may still be incorporated when its boundaries
are "coterminous with the entire boundaries of a school, fire, fire
protection, fire alarm, town special or town improvement district or
districts, or with an entire town" (§ 2-200). The config states the claim as
text (``[territory] coterminous_with``); :func:`read_claim` reads what it
names, and says whether each body is of a listed kind, clearly of another
kind or extent, or cannot be read (then ``[territory] coterminous_kind``
states the kind, and the claim is taken as stated, with a warning).

The reading is by what the text names, never by a word anywhere in it: every
part of the claim must be a district of a listed kind (the words before
"district") or an entire town, and nothing may take land out or add it
("part of", "except", "north of Route 9", "plus 40 acres").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

__all__ = ["CLAIM_KINDS", "ClaimReading", "read_claim"]

#: The kinds § 2-200 lists, as ``[territory] coterminous_kind`` states them.
CLAIM_KINDS: Final = (
    "school",
    "fire",
    "fire_protection",
    "fire_alarm",
    "town_special",
    "town_improvement",
    "town",
)

Verdict = Literal["allowed", "not_allowed", "unknown"]


@dataclass(frozen=True)
class ClaimReading:
    """How a claim reads: ``verdict``, the kinds of the bodies read, and why."""

    #: ``allowed`` (every body of a listed kind, entire), ``not_allowed`` (a
    #: body of another kind, or less or more than an entire body), ``unknown``.
    verdict: Verdict
    #: The kinds read, in order (:data:`CLAIM_KINDS`).
    kinds: tuple[str, ...] = ()
    #: Why the claim is not allowed, or what could not be read ("" when allowed).
    reason: str = ""
    #: The claim says less or more than entire bodies ("part of", "except"):
    #: no statement of the kind can make it one § 2-200 allows.
    partial: bool = False


_W = r"[a-z0-9][\w.'’-]*"  # a word of a name
_NAME = rf"{_W}(?:\s+{_W}){{0,3}}"  # a place name: one to four words

#: Purposes of town special and improvement districts (Town Law art. 12, 12-A,
#: § 190 and § 198), as the words before "district".
_TOWN_PURPOSES = (
    r"special(?:\s+improvement)?|improvement|water(?:\s+(?:supply|storage|quality"
    r"(?:\s+treatment)?))?|sewer|sewage|sanitary|sanitation|wastewater|storm\s*water|drainage|"
    r"(?:street\s+)?light(?:ing)?|park|parking|public\s+parking|(?:refuse\s+and\s+)?garbage|"
    r"refuse|ambulance|snow\s+removal|sidewalk|(?:public\s+)?dock|hydrant|"
    r"park\s+and\s+recreation|recreation|"
    r"beach\s+erosion\s+control|erosion\s+control|aquatic\s+plant\s+growth\s+control|"
    r"fallout\s+shelter|harbor\s+improvement|consolidated\s+health|watershed(?:\s+protection)?"
)
_DISTRICT = r"(?:district|dist\.?)s?"
_SCHOOL = re.compile(
    rf"^(?P<name>.*?)\bschool\s+{_DISTRICT}(?P<rest>.*)$"
    r"|^(?P<name2>.*?)\b(?:u\.?\s?f\.?\s?s\.?\s?d|c\.?\s?s\.?\s?d|central\s+school)\.?(?P<rest2>.*)$",
    re.IGNORECASE,
)
_FIRE = re.compile(
    rf"^(?P<name>.*?)\bfire(?:[\s-]+(?P<sub>protection|alarm))?\s+{_DISTRICT}(?P<rest>.*)$",
    re.IGNORECASE,
)
_TOWN_DISTRICT = re.compile(
    rf"^(?P<name>.*?)\b(?P<purpose>{_TOWN_PURPOSES})\s+{_DISTRICT}(?P<rest>.*)$", re.IGNORECASE
)
_ANY_DISTRICT = re.compile(rf"\b{_DISTRICT}(?:\W|$)", re.IGNORECASE)
#: What may follow "district": its number, or the town it is of.
_DISTRICT_REST = re.compile(
    rf"^(?:\s*(?:nos?\.?|numbers?|#)?\s*\d+[a-z]?)?(?:\s*(?:of|in)\s+(?:the\s+)?town\s+of\s+{_NAME})?$",
    re.IGNORECASE,
)
_TOWN = re.compile(
    rf"^town\s+of\s+(?P<name>{_NAME})$|^(?P<name2>{_NAME})\s+\(town\)$", re.IGNORECASE
)
#: Words that make "Town of X ..." a place in a town, not the town.
_NOT_A_TOWN_NAME = re.compile(
    r"\b(?:golf|course|landfill|beach|company|co|tower|police|department|dept|hall|center|"
    r"centre|court|garage|pool|building|office|airport|dump|station|cemetery|museum|"
    r"industrial|commercial|business|plaza|mall|pond|forest|preserve|reservation|facility|"
    r"district|school|fire|water|sewer|authority|board|commission|highway|road|route|"
    r"street|avenue|recreation|town|memorial|state|zone)\b",
    re.IGNORECASE,
)

#: Markers of less (or more) than an entire body, anywhere in the claim. They
#: are phrases, not single words, so that names keep theirs ("Half Hollow
#: Hills", "Pine Acres", "West Side").
_EXTENT = re.compile(
    r"\b(?:part|parts|portion|portions|half|section|sections|segment|piece)\s+of\b"
    r"|[(\[]\s*(?:part|portion)\s*[)\]]"
    r"|\b(?:except|excepting|excluding|minus|plus|outside|less)\b"
    r"|\b(?:exclusive\s+of|together\s+with|other\s+than|but\s+not)\b"
    r"|\b(?:north|south|east|west)(?:ern|erly)?\s+(?:of|from)\b",
    re.IGNORECASE,
)
#: Bodies of kinds § 2-200 does not list, anywhere in the claim.
_OTHER_KINDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\belection\s+dist|\be\.\s?d\.\s*\d", re.IGNORECASE), "an election district"),
    (
        re.compile(r"\bzip\b|\bpostal\b|(?<![\w.#-])\d{5}(?:-\d{4})?(?![\w.-])", re.IGNORECASE),
        "a ZIP code",
    ),
    (re.compile(r"\bcensus\b|\bblock\s+group\b", re.IGNORECASE), "a census area"),
    (
        re.compile(r"\b(?:wards?|precincts?)\s+(?:no\.?\s*|#\s*)?(?:\d+|[ivx]+)\b", re.IGNORECASE),
        "a ward or precinct",
    ),
    (
        re.compile(
            r"\b(?:assembly|senate|senatorial|congressional|legislative|council(?:manic)?)\s+"
            r"dist",
            re.IGNORECASE,
        ),
        "a legislative district",
    ),
    (re.compile(r"\bhamlets?\b", re.IGNORECASE), "a hamlet"),
    (
        re.compile(r"\bbusiness\s+improvement\b|\bb\.?i\.?d\b", re.IGNORECASE),
        "a business improvement district (General Municipal Law art. 19-A), not a town's",
    ),
    (re.compile(r"\blibrary\b", re.IGNORECASE), "a library or library district"),
    (re.compile(r"\bstate\s+(?:park|forest)\b", re.IGNORECASE), "a state park or forest"),
)
#: Owners a town special district cannot have: written as "Village of X", or
#: a county's name ("Columbia County Sewer District").
_OTHER_OWNERS = re.compile(
    r"\b(?:county|counties|state|village|city)\s+of\b|\bcount(?:y|ies)\s*$", re.IGNORECASE
)
#: A name ending in "Village" or "City" before the purpose may be a village's
#: or a city's district, or a hamlet's name ("Continental Village"): unknown.
_MAYBE_OWNER = re.compile(r"\b(?:village|city|state)\s*$", re.IGNORECASE)
#: A village, city or county alone (no district): never a town.
_PLACE_NOT_TOWN = re.compile(r"\b(?:village|city|county)\b", re.IGNORECASE)

#: Where the body lies, written after it: ", Columbia County", "(County of
#: Columbia)", "in the County of Columbia", ", State of New York", ", N.Y.".
_LOCATION = re.compile(
    rf"(?:\s*,\s*(?:in\s+(?:the\s+)?)?|\s+in\s+(?:the\s+)?|\s*\(\s*)"
    rf"(?:(?:the\s+)?count(?:y|ies)\s+of\s+{_NAME}(?:\s+and\s+{_NAME})?"
    rf"|{_NAME}(?:\s+and\s+{_NAME})?\s+(?:count(?:y|ies)|co\.?)"
    rf"|(?:the\s+)?state\s+of\s+n\.?\s?y\.?|n\.?\s?y\.?\s+state|nys|u\.?\s?s\.?\s?a\.?"
    rf"|united\s+states(?:\s+of\s+america)?"
    rf"|{_NAME}\s*,\s*(?:new\s+york|n\.?\s?y\.?)(?:\s+\d{{5}}(?:-\d{{4}})?)?"
    rf"|(?:new\s+york|n\.?\s?y\.?)\s+\d{{5}}(?:-\d{{4}})?"
    r"|(?:the\s+)?state\s+of\s+new\s+york|new\s+york(?:\s+state)?|n\.?\s?y\.?)\s*\)?\s*\.?$",
    re.IGNORECASE,
)
#: A district's town, written after it: ", Town of Hempstead", "(Town of Harlow)".
_TOWN_LOCATION = re.compile(
    rf"(?:\s*,\s*|\s+in\s+(?:the\s+)?|\s*\(\s*)town\s+of\s+{_NAME}\s*\)?\s*\.?$", re.IGNORECASE
)
#: Words saying the whole body: "the entire", "all of the", "(the entire district)".
_ENTIRE = re.compile(
    r"^(?:all\s+of\s+)?(?:the\s+)?(?:entire\s+|whole\s+)?(?:of\s+(?:the\s+)?)?"
    r"(?:boundaries\s+of\s+(?:the\s+)?)?",
    re.IGNORECASE,
)
_ENTIRE_AFTER = re.compile(
    r"\s*\(\s*(?:the\s+)?(?:entire|whole)(?:\s+(?:district|town))?\s*\)\s*$"
    r"|\s*,?\s+in\s+its\s+entirety\s*$",
    re.IGNORECASE,
)
_SEPARATOR = re.compile(r"\s*(?:,|;|&|\band\b|\bor\b|\band/or\b)\s*", re.IGNORECASE)
_SEPARATOR_KEPT = re.compile(r"(\s*(?:,|;|&|\band\b|\bor\b|\band/or\b)\s*)", re.IGNORECASE)


#: The towns a district lies in, written after it to the end of the claim:
#: "Central School District No. 1 of the Towns of Chatham, Ghent and Stuyvesant".
_DISTRICT_TOWNS = re.compile(
    rf"(?<=\S)(?P<district>\s+{_DISTRICT}(?:\s*(?:nos?\.?|numbers?|#)?\s*\d+[a-z]?)?)"
    r"(?:\s+(?:of|in)\s+(?:the\s+)?|\s*,\s*(?:in\s+)?(?:the\s+)?)towns?\s+of\s+"
    r"(?P<towns>[^;]*)$",
    re.IGNORECASE,
)
#: One of the places a joint district is "of": "the Town of Harlow", "the Village
#: of Valatie".
_JOINT_MEMBER = re.compile(rf"^(?:the\s+)?(?:(?:town|village)\s+of\s+)?{_NAME}$", re.IGNORECASE)


def _district_towns(match: re.Match[str]) -> str:
    """The district alone when what follows only names the towns it lies in.

    Each place after "of the Town(s) of" must be a plain name (no facility,
    no county, village or city), but for a joint district ("Joint Fire
    District of the Town of Harlow and the Village of Valatie"), whose members
    may be villages too; otherwise the text is left as it is, and the places
    are read as bodies of the claim.
    """
    joint = re.search(r"\bjoint\b", match.string[: match.start()], re.IGNORECASE) is not None
    places = [p for p in _SEPARATOR.split(match.group("towns")) if p.strip()]
    for place in places:
        plain = re.sub(r"^(?:the\s+)?town\s+of\s+", "", place.strip(), flags=re.IGNORECASE)
        if joint and _JOINT_MEMBER.match(place.strip()):
            continue
        if (
            not re.fullmatch(_NAME, plain, re.IGNORECASE)
            or _NOT_A_TOWN_NAME.search(plain)
            or _PLACE_NOT_TOWN.search(plain)
            or re.search(r"\d", plain)
        ):
            return match.group(0)
    return match.group("district")


def _strip(text: str) -> str:
    """The claim without what only says where it lies or that it is entire."""
    t = " ".join(text.split()).strip(" .")
    while True:
        before = t
        t = _ENTIRE_AFTER.sub("", t)
        cut = _LOCATION.sub("", t)
        if cut.strip():
            t = cut
        t = _DISTRICT_TOWNS.sub(_district_towns, t)
        t = t.strip(" .,")
        if t == before:
            return t


def _town_key(name: str) -> str:
    """A town's name as a key: ``"the Town of Harlow"`` -> ``"HARLOW"``."""
    t = re.sub(r"[.'’,]", "", name).upper()
    t = re.sub(r"^(?:THE\s+)?TOWN\s+OF\s+|\s*\(TOWN\)$", "", " ".join(t.split()))
    for short, full in (("MT", "MOUNT"), ("ST", "SAINT"), ("FT", "FORT"), ("PT", "POINT")):
        t = re.sub(rf"\b{short}\b", full, t)
    return t.strip()


def _owner(name: str) -> str:
    """The county, village or city a district's name says owns it ("" for none)."""
    hit = _OTHER_OWNERS.search(name)
    return "" if hit is None else re.sub(r"\s+of$", "", hit.group(0).lower()).replace("ies", "y")


def _component(
    part: str, following: str | None, towns: frozenset[str], *, joined_by_and: bool = False
) -> tuple[str, str, str]:
    """One body of the claim: ``(verdict, kind, reason)``.

    ``following`` is the next part (``"Valatie Water"`` before ``"Sewer
    District"``: "Water and Sewer District" names two districts); ``towns``
    are the petition's towns as keys (:func:`_town_key`), or empty.
    """
    p = _ENTIRE.sub("", part).strip()
    if _ANY_DISTRICT.search(p) or re.search(r"\b(?:ufsd|csd|central\s+school)\b", p, re.I):
        p = _TOWN_LOCATION.sub("", p).strip() or p
    m = _SCHOOL.match(p)
    if m:
        rest = (m.group("rest") if m.group("rest") is not None else m.group("rest2")) or ""
        if _DISTRICT_REST.match(rest.strip()):
            return "allowed", "school", ""
    m = _FIRE.match(p)
    if m and _DISTRICT_REST.match(m.group("rest").strip()):
        owner = _owner(m.group("name"))
        if owner:
            return "not_allowed", "", f"{part!r} is a {owner}'s district, not a fire district"
        sub = (m.group("sub") or "").lower()
        return "allowed", f"fire_{sub}" if sub else "fire", ""
    m = _TOWN_DISTRICT.match(p)
    if m and _DISTRICT_REST.match(m.group("rest").strip()):
        owner = _owner(m.group("name"))
        if owner:
            return (
                "not_allowed",
                "",
                f"{part!r} is a {owner}'s district, not a town special or improvement district",
            )
        if _MAYBE_OWNER.search(m.group("name")):
            return (
                "unknown",
                "",
                f"{part!r} may be a village's or a city's district, or a town's named for a place",
            )
        purpose = m.group("purpose").lower()
        return "allowed", "town_improvement" if "improvement" in purpose else "town_special", ""
    m = _TOWN.match(p)
    if m:
        name = m.group("name") or m.group("name2") or ""
        if towns:
            if _town_key(name) in towns:
                return "allowed", "town", ""
            return "unknown", "", f"the Town of {name} is not a town of the petition"
        if not (
            _NOT_A_TOWN_NAME.search(name) or _PLACE_NOT_TOWN.search(name) or re.search(r"\d", name)
        ):
            return "allowed", "town", ""
    if (
        following is not None
        and joined_by_and
        and not _ANY_DISTRICT.search(p)
        and re.fullmatch(_NAME, p, re.IGNORECASE)
        and len(p.split()) <= 3
        and not (_NOT_A_TOWN_NAME.search(p) or _PLACE_NOT_TOWN.search(p) or re.search(r"\d", p))
        and re.search(r"(?i)^(?:the\s+)?town\s+of\b", p) is None
    ):
        after = following.strip()
        whole_body = re.match(r"(?i)(?:the|all|entire|whole)\b", after) is not None
        if not whole_body and (
            _FIRE.match(after) or _SCHOOL.match(after) or _TOWN_DISTRICT.match(after)
        ):
            # "Franklin Square and Munson Fire District": one district's name
            return "joined", "", ""
    if following is not None and not _ANY_DISTRICT.search(p):
        # "Valatie Water and Sewer District": the purpose word, the district's later
        m = re.search(rf"\b(?:{_TOWN_PURPOSES})$", p, re.IGNORECASE)
        nxt = _TOWN_DISTRICT.match(_ENTIRE.sub("", following).strip())
        if m and nxt and not _owner(p) and not _MAYBE_OWNER.search(p[: m.start()]):
            return "allowed", "town_special", ""
    if _ANY_DISTRICT.search(p):
        return "unknown", "", f"{part!r} is a district of a kind that could not be read"
    place = _PLACE_NOT_TOWN.search(p)
    if place:
        return "not_allowed", "", f"{part!r} names a {place.group(0).lower()}, not a town"
    return "unknown", "", f"{part!r} could not be read as a district or an entire town"


def read_claim(text: str, *, towns: Iterable[str] = ()) -> ClaimReading:
    """Read a coterminous claim (§ 2-200): the bodies it names and their kinds.

    Parameters
    ----------
    text
        The claim as the config states it (``[territory] coterminous_with``).
    towns
        The names of the petition's towns: an entire town claimed must be one
        of them (the territory lies in it); without them, a town's name is
        read by its words.

    Returns
    -------
    ClaimReading
        ``allowed`` when every body named is a district of a kind § 2-200 lists
        or an entire town; ``not_allowed`` when a body is of another kind
        (an election district, a ZIP code, a county's, a village's or a city's
        district, a business improvement district...) or the claim says less or
        more than entire bodies ("part of", "except", "north of", "plus");
        ``unknown`` otherwise.

    Notes
    -----
    A body is read from the words before "district" (``Harlow Fire District
    No. 1``, ``Kinderhook Central School District``, ``Ichabod Crane CSD``,
    ``Valatie Water and Sewer District``, ``Town of Harlow Lighting District``)
    or as an entire town (``Town of Harlow``, ``Harlow (town)``); where a body
    lies may follow it (``, Columbia County``, ``(Town of Hempstead)``, ``, State
    of New York``). A school or fire district may bear any name (``Three Village
    Central School District``); a town special or improvement district may not
    be a county's, the state's, a village's or a city's.
    """
    whole = " ".join(text.split())
    t = _strip(text)
    if not t:
        return ClaimReading("unknown", (), "the claim is empty")
    extent = _EXTENT.search(whole)
    if extent:
        return ClaimReading(
            "not_allowed",
            (),
            f"the claim says {extent.group(0).lower()!r}: § 2-200 asks for entire "
            "districts or an entire town, nothing less and nothing more",
            partial=True,
        )
    for pattern, what in _OTHER_KINDS:
        if pattern.search(t):  # where the body lies read out ("NY 12184")
            return ClaimReading("not_allowed", (), f"the claim names {what}")
    keys = frozenset(_town_key(n) for n in towns)
    pieces = _SEPARATOR_KEPT.split(t)
    parts = [(p, pieces[i - 1] if i else "") for i, p in enumerate(pieces) if i % 2 == 0]
    parts = [(p, sep) for p, sep in parts if p.strip()]
    kinds: list[str] = []
    unknown = ""
    for i, (part, sep) in enumerate(parts):
        if kinds and re.fullmatch(r"(?:nos?\.?\s*|#)?\d+[a-z]?", part.strip(), re.IGNORECASE):
            kinds.append(kinds[-1])  # "Fire Districts Nos. 1 and 2": another of the same
            continue
        following = parts[i + 1][0] if i + 1 < len(parts) else None
        and_next = i + 1 < len(parts) and parts[i + 1][1].strip().lower() == "and"
        verdict, kind, reason = _component(part, following, keys, joined_by_and=and_next)
        if verdict == "joined":
            continue  # the next part is the district this name begins
        if (
            kind == "town"
            and sep.strip() == ","
            and kinds
            and kinds[-1] != "town"
            and re.match(r"(?i)(?:the\s+)?town\s+of\b", part.strip())
        ):
            continue  # "Sanitary District No. 2, Town of Hempstead": where it lies
        if verdict == "not_allowed":
            return ClaimReading("not_allowed", (), reason)
        if verdict == "unknown":
            unknown = unknown or reason
            continue
        kinds.append(kind)
    if unknown:
        return ClaimReading("unknown", tuple(kinds), unknown)
    return ClaimReading("allowed", tuple(kinds), "")
