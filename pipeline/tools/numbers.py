"""How figures are printed: cents rounded half up, percentages that never read as a tie."""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

__all__ = ["cents", "percent_text", "total"]

_CENT = Decimal("0.01")

#: A share within this relative distance of a whole number is that number (the
#: noise of binary arithmetic; the pass rule's tolerance, ``PASS_REL_TOL``).
_WHOLE_REL_TOL = 1e-12


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


def percent_text(value: float, *, digits: int = 4, most: int = 10) -> str:
    """A percentage with ``digits`` decimals, more when that would read as whole.

    Parameters
    ----------
    value
        A finite percentage (0-100).
    digits
        Decimals shown normally.
    most
        The most decimals ever shown.

    Returns
    -------
    str
        ``"33.0869"`` for 33.086878. A value that is not a whole number but
        rounds to one (``50.0000``) gets more decimals until it no longer does
        (``50.00003``, ``49.99996``): the statute's thresholds (more than 50,
        at least 20) are whole numbers, and a failing or passing share must
        not print as the threshold itself. A share within 1e-12 of a whole
        number (relative) is that number, as the pass rule reads it:
        ``50.00000000000001`` → ``"50.0000"``.
    """
    shown = f"{value:.{digits}f}"
    if value == math.floor(value):
        return shown
    if abs(value - round(value)) <= _WHOLE_REL_TOL * abs(value):
        # a whole share that binary arithmetic left a few ulps off (14,000 of
        # 28,000 equalized at 33.9 % gives 50.00000000000001): whole, as the
        # pass rule reads it (``PASS_REL_TOL`` of pipeline.valuation)
        return f"{float(round(value)):.{digits}f}"
    d = digits
    while d < most and float(shown) == round(value):
        d += 1
        shown = f"{value:.{d}f}"
    return shown
