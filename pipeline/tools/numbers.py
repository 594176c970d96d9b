"""How figures are printed: cents rounded half up, percentages that never read as a tie."""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

__all__ = ["cents", "percent_text", "total"]

_CENT = Decimal("0.01")


def cents(value: float) -> Decimal:
    """A dollar amount rounded to the cent, half up (as a spreadsheet shows it).

    Parameters
    ----------
    value
        A finite amount in dollars.

    Returns
    -------
    decimal.Decimal
        The amount read to the 15 significant digits a double carries
        (``DBL_DIG``, as a spreadsheet reads a cell), then rounded to 0.01 half
        away from zero: ``12500.125`` → ``12500.13`` and ``2.675`` → ``2.68``, as
        a spreadsheet shows them (Python's ``format`` rounds the binary value
        half to even: ``12500.12``, ``2.67``). The 15 digits drop the noise of
        binary arithmetic below them: 91,526.477 + 100,669.068 is stored as
        192,195.54499999998 (each addend is the double nearest to it), which
        reads as 192,195.545 and prints ``192195.55``, as the hand sum does.
    """
    return Decimal(f"{float(value):.15g}").quantize(_CENT, rounding=ROUND_HALF_UP)


def total(values: Iterable[float]) -> float:
    """The exact sum of the figures in ``values`` (NaN, a missing figure, skipped).

    Parameters
    ----------
    values
        Amounts, e.g. a column of a schedule.

    Returns
    -------
    float
        ``math.fsum`` of the finite values: the correctly rounded sum, the same
        whatever the order. A schedule's total row must be the figure certified
        (:mod:`pipeline.valuation` sums with ``math.fsum`` too): a plain
        left-to-right sum can land on the other side of a half cent
        (91,526.477 + 100,669.068 + 42,446.11 is 234,641.65499999997 summed so,
        234,641.655 exactly rounded: $234,641.65 against $234,641.66).
    """
    return math.fsum(v for v in values if not math.isnan(v))


def percent_text(value: float, *, digits: int = 4, most: int = 15) -> str:
    """A percentage with ``digits`` decimals, more when that would read as whole.

    Parameters
    ----------
    value
        A finite percentage (0-100), or another figure held to a whole-number
        limit (square miles).
    digits
        Decimals shown normally.
    most
        The most decimals ever shown: 15 tell any double below 100 from the
        whole number next to it (a unit in the last place of 50 is 7e-15).

    Returns
    -------
    str
        ``"33.0869"`` for 33.086878. A value that is not a whole number but
        rounds to one (``50.0000``) gets more decimals until it no longer does
        (``50.00003``, ``49.99996``, ``50.00000000005``): the statute's
        thresholds (more than 50, at least 20, at most 5 square miles) are
        whole numbers, and a failing or passing figure must not print as the
        threshold itself. Only a value that is whole prints as whole: the
        owner test's share is exactly 50 wherever its verdict reads one half
        (:func:`pipeline.valuation.owner_test`), so that a share printed
        ``50.0000`` fails, and any other prints as more or less than 50.
    """
    shown = f"{value:.{digits}f}"
    if value == math.floor(value):
        return shown
    d = digits
    while d < most and float(shown) == round(value):
        d += 1
        shown = f"{value:.{d}f}"
    return shown
