"""Plain helper functions shared by the core (no file access, no rule of the law)."""

from pipeline.tools.frames import isin
from pipeline.tools.numbers import cents, percent_text

__all__ = ["cents", "isin", "percent_text"]
