"""The law: rule sets by regime, the checks and their deficiencies, the filing plan."""

from __future__ import annotations

from pipeline.law.filing import DEPOSIT_PER_SUPERVISOR, filing_plan
from pipeline.law.regimes import REGIMES, Regime, regime_for

__all__ = ["DEPOSIT_PER_SUPERVISOR", "REGIMES", "Regime", "filing_plan", "regime_for"]
