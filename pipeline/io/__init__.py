"""Every file read or written, and nothing else.

Readers turn each input layout into the canonical frames of
:mod:`pipeline.frames` and raise :class:`pipeline.errors.InputError` (file, row
or feature, column, problem) for anything wrong with a file.
"""

from __future__ import annotations

from pipeline.io._roll import read_roll
from pipeline.io._tables import (
    check_signatures_against_pages,
    read_apportionment_overrides,
    read_inhabitants,
    read_match_decisions,
    read_ownership_overrides,
    read_pages,
    read_rates,
    read_signatures,
)
from pipeline.io._vector import read_boundary, read_lines, read_parcels
from pipeline.io._voters import read_voters

__all__ = [
    "check_signatures_against_pages",
    "read_apportionment_overrides",
    "read_boundary",
    "read_inhabitants",
    "read_lines",
    "read_match_decisions",
    "read_ownership_overrides",
    "read_pages",
    "read_parcels",
    "read_rates",
    "read_roll",
    "read_signatures",
    "read_voters",
]
