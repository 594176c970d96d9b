"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

#: ../shared/data/real from the repository root (not part of the project).
REAL_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "real"


@pytest.fixture
def real_data() -> Path:
    """The folder of real New York data; skips the test when it is absent."""
    if not REAL_DATA.is_dir():
        pytest.skip(f"real data folder {REAL_DATA} is absent (only CI and dev machines have it)")
    return REAL_DATA
