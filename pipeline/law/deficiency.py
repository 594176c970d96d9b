"""Deficiencies: what is wrong with a petition, each tied to its paragraph of the law.

A deficiency is the contract's object in ``summary.json``::

    {"code": "witness_count_mismatch", "paragraph": "2-202.1.e(4)",
     "message": "...", "where": "page 3"}

``code`` is stable (tools may key on it); ``paragraph`` names the provision of
the Village Law the rule comes from, so that an assessor or a court can follow
each finding back to the statute; ``message`` is for people; ``where`` points
at the place (pages, lines, parcels, designees) when there is one.

:data:`PARAGRAPHS` maps every code the pipeline emits to its paragraph, and
:func:`deficiency_for` builds a deficiency from a code with that paragraph.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["PARAGRAPHS", "Deficiency", "deficiency", "deficiency_for"]

#: A deficiency object: ``{"code", "paragraph", "message", "where"}``, all text.
Deficiency = dict[str, str]

#: Every deficiency code and the paragraph of the Village Law it comes from.
PARAGRAPHS: Mapping[str, str] = MappingProxyType(
    {
        # § 2-202.1.a: who may petition
        "owner_percent_not_met": "2-202.1.a(2)",
        "owner_part_percent_not_met": "2-202.1.a(2)",
        "unapportioned_records": "2-202.1.a(2)",
        "roll_not_last_completed": "2-202.1.a(2)",
        "resident_percent_not_met": "2-202.1.a(1)",
        "voters_unplaced": "2-202.1.a(1)",
        # the owner route was removed by the amendment effective 2024-01-01
        "owner_basis_not_allowed": "2-202.1.a (as amended 2024)",
        "no_signatures": "2-202.1.a",
        # § 2-200 (territory; the population minimum, alleged under § 2-202.1.b(3))
        # and § 2-202.1.b (contents)
        "population_below_minimum": "2-200",
        "area_exceeds_limit": "2-200",
        "coterminous_claim_not_supported": "2-200",
        "includes_existing_village": "2-200",
        "designees_invalid": "2-202.1.b(5)",
        # § 2-202.1.c: exhibits
        "inhabitants_unplaced": "2-202.1.c(2)",
        "inhabitants_list_missing": "2-202.1.c(2)",
        # § 2-202.1.e: execution of the petition
        "line_without_address": "2-202.1.e(3)",
        "line_without_town": "2-202.1.e(3)",
        "owner_page_without_value": "2-202.1.e(3)",
        "witness_count_mismatch": "2-202.1.e(4)",
        "page_without_affidavit": "2-202.1.e(4)",
        "affidavit_incomplete": "2-202.1.e(4)",
        "affidavit_sworn_after_filing": "2-202.1.e(4)",
    }
)


def deficiency(code: str, paragraph: str, message: str, where: str = "") -> Deficiency:
    """Build one deficiency object.

    Parameters
    ----------
    code
        Stable machine-readable code, e.g. ``"witness_count_mismatch"``.
    paragraph
        The paragraph of the Village Law, e.g. ``"2-202.1.e(4)"``.
    message
        What is wrong, in plain words.
    where
        The place concerned (``"page 3"``, ``"lines 2:4, 2:7"``), or ``""``.

    Returns
    -------
    dict[str, str]
        ``{"code", "paragraph", "message", "where"}``.
    """
    return {"code": code, "paragraph": paragraph, "message": message, "where": where}


def deficiency_for(
    code: str, message: str, where: str = "", *, paragraph: str | None = None
) -> Deficiency:
    """Build a deficiency whose paragraph is looked up in :data:`PARAGRAPHS`.

    Parameters
    ----------
    code
        A code listed in :data:`PARAGRAPHS`.
    message
        What is wrong, in plain words.
    where
        The place concerned; when ``""``, the petition-wide place of the code
        (``"territory"`` for the tests of the whole territory), if it has one.
    paragraph
        The paragraph, where the rule a code enforces stands elsewhere in this
        case (a coterminous claim contradicted while the area is within the
        limit: § 2-202.1.b(4), the manner in which the area requirements are
        met); default the code's own.

    Returns
    -------
    dict[str, str]
        The deficiency object.

    Raises
    ------
    KeyError
        When ``code`` is not in :data:`PARAGRAPHS` (a programming error: every
        code must name its paragraph).
    """
    return deficiency(code, paragraph or PARAGRAPHS[code], message, where or _WHERE.get(code, ""))


#: The place of a deficiency that concerns the petition as a whole, when the
#: caller names none (every deficiency then says where it is).
_WHERE: dict[str, str] = {
    "owner_percent_not_met": "territory",
    "resident_percent_not_met": "territory",
    "population_below_minimum": "territory",
    "area_exceeds_limit": "territory",
    "coterminous_claim_not_supported": "territory",
    "includes_existing_village": "territory",
    "no_signatures": "resident pages",
    "owner_basis_not_allowed": "petition",
    "inhabitants_list_missing": "petition",
}
