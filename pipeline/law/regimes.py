"""The rule sets of the law, keyed by regime name (rules.md § 8).

The pipeline implements § 2-202 as in the seed text ("2-202-pre-2024"). The
amendment of Article 2 effective 1 January 2024 removed the owner-valuation
route and raised the population minimum to 1,500 ("2024"). A regime is chosen
by the filing date or stated in the config; outputs always name it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from types import MappingProxyType
from typing import Final

from pipeline.errors import InputError

__all__ = [
    "AMENDMENT_EFFECTIVE",
    "EARLIER_LAW_ENDS",
    "REGIMES",
    "Regime",
    "regime_for",
    "regime_notes",
]


@dataclass(frozen=True)
class Regime:
    """One rule set.

    Parameters
    ----------
    name
        The regime's key in :data:`REGIMES`, printed on every output.
    owner_basis_allowed
        Whether a petition may be signed by owners of more than
        ``owner_percent`` of the assessed valuation (§ 2-202.1.a(2)).
    minimum_population
        Minimum number of regular inhabitants (§ 2-200).
    resident_percent
        Minimum percent of qualified voters for a resident petition
        (§ 2-202.1.a(1)); passes at *at least* this value.
    owner_percent
        Owner petition: passes at *more than* this percent.
    area_limit_sq_mi
        Area limit without the coterminous exception (§ 2-200).
    supervisor_filing
        Whether the petition is filed with the town supervisors, with a
        deposit each (§ 2-202.1.f); under the 2024 law it goes to the state's
        Village Incorporation Commission instead.
    """

    name: str
    owner_basis_allowed: bool
    minimum_population: int
    resident_percent: float = 20.0
    owner_percent: float = 50.0
    area_limit_sq_mi: float = 5.0
    supervisor_filing: bool = True


#: The day the amendment of Article 2 took effect.
AMENDMENT_EFFECTIVE: Final = date(2024, 1, 1)

#: Petitions tied to earlier filings in one large town keep the earlier law
#: "until 2040" (rules § 8): filed before this date.
EARLIER_LAW_ENDS: Final = date(2041, 1, 1)

REGIMES: MappingProxyType[str, Regime] = MappingProxyType(
    {
        "2-202-pre-2024": Regime(
            name="2-202-pre-2024", owner_basis_allowed=True, minimum_population=500
        ),
        "2024": Regime(
            name="2024",
            owner_basis_allowed=False,
            minimum_population=1500,
            supervisor_filing=False,
        ),
    }
)


def regime_for(filed_on: date, stated: str = "auto") -> Regime:
    """The regime that applies to a petition.

    Parameters
    ----------
    filed_on
        The filing date.
    stated
        ``"auto"`` (by date) or a key of :data:`REGIMES` (config
        ``[petition] regime``).

    Returns
    -------
    Regime
        ``"2-202-pre-2024"`` for a filing before 2024-01-01, else ``"2024"``,
        unless a regime is stated.

    Raises
    ------
    InputError
        When ``stated`` names no known regime.
    """
    if stated == "auto":
        return REGIMES["2-202-pre-2024" if filed_on < AMENDMENT_EFFECTIVE else "2024"]
    if stated not in REGIMES:
        known = ", ".join(["auto", *REGIMES])
        raise InputError(None, f"unknown regime {stated!r} (known: {known})", column="regime")
    if stated == "2-202-pre-2024" and filed_on >= EARLIER_LAW_ENDS:
        raise InputError(
            None,
            f"regime {stated!r} is stated for a petition filed on {filed_on.isoformat()}: "
            "petitions tied to earlier filings keep the earlier law only until 2040 "
            f"(filed before {EARLIER_LAW_ENDS.isoformat()}); later, the law as amended in "
            '2024 applies (regime "2024" or "auto")',
            column="regime",
        )
    return REGIMES[stated]


def regime_notes(filed_on: date, stated: str) -> list[str]:
    """Warnings on a stated regime that the filing date would not choose.

    The earlier law after 2023 is only for petitions tied to earlier filings in
    one large town (until 2040); the 2024 law before 2024 is not yet in force.
    """
    chosen = regime_for(filed_on)
    if stated in ("auto", chosen.name):
        return []
    if stated == "2-202-pre-2024":
        return [
            f"regime {stated!r} is stated for a petition filed on {filed_on.isoformat()}, "
            "after the 2024 amendments took effect: the earlier law applies only to "
            "petitions tied to earlier filings in one large town (until 2040); counsel "
            "should confirm that this petition is one"
        ]
    return [
        f"regime {stated!r} is stated for a petition filed on {filed_on.isoformat()}, "
        f"before the 2024 amendments took effect ({AMENDMENT_EFFECTIVE.isoformat()}): "
        "the law in force on that date is the earlier one"
    ]
