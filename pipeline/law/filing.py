"""Filing and deposit (§ 2-202.1.f)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

__all__ = ["DEPOSIT_PER_SUPERVISOR", "TIE", "filing_plan", "tied_greatest"]

#: Town parts whose areas differ by at most this share of the greatest are a tie
#: (equal to the precision of the boundaries and of the ellipsoidal area).
TIE: Final = 1e-6

#: § 2-202.1.f(2): deposited with each supervisor who receives the original or a copy.
DEPOSIT_PER_SUPERVISOR: Final = 6000


def filing_plan(part_areas: Mapping[str, float]) -> dict[str, Any]:
    """Where the petition is filed and what is deposited (§ 2-202.1.f).

    Parameters
    ----------
    part_areas
        Town SWIS -> area of the territory's part in that town (any unit).

    Returns
    -------
    dict
        The contract's ``summary.json`` ``"filing"`` object:
        ``original_with`` (the town with the greatest part), ``copies_with``
        (the other towns, sorted), ``deposit_per_supervisor`` (6000) and
        ``deposit_total``.

    Raises
    ------
    ValueError
        When ``part_areas`` is empty.

    Notes
    -----
    The original goes to the supervisor of the town "in which all or the
    greatest part of such territory is located" (f(1)); a copy to each other
    town. Equal greatest parts (within :data:`TIE` of the greatest,
    :func:`tied_greatest`) are a tie the statute does not resolve: the
    lowest SWIS code is chosen, deterministically, and the tie should be
    reviewed by counsel.

    .. math:: \\text{deposit\\_total} = 6000 \\times n_{\\text{towns}}
    """
    if not part_areas:
        raise ValueError("filing_plan needs at least one town part")
    original = min(tied_greatest(part_areas))
    copies = sorted(s for s in part_areas if s != original)
    return {
        "original_with": original,
        "copies_with": copies,
        "deposit_per_supervisor": DEPOSIT_PER_SUPERVISOR,
        "deposit_total": DEPOSIT_PER_SUPERVISOR * len(part_areas),
    }


def tied_greatest(part_areas: Mapping[str, float]) -> list[str]:
    """The towns whose parts are the greatest, to the precision :data:`TIE`, sorted.

    Notes
    -----
    With :math:`m = \\max_t a_t`: every town with :math:`a_t \\ge m (1 -
    \\text{TIE})`. One town unless two parts are equal to a millionth (two
    halves of a square differ by some 1e-10 on the ellipsoid: a tie).
    """
    greatest = max(float(a) for a in part_areas.values())
    return sorted(s for s, a in part_areas.items() if float(a) >= greatest * (1.0 - TIE))
