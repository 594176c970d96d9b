"""Plain helper functions shared by the core (no file access, no rule of the law)."""

from pipeline.tools.frames import isin

__all__ = ["isin"]
