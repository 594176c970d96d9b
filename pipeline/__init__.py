"""village-petition: prepare and check a petition to incorporate a village in
New York State (Village Law § 2-202)."""

from __future__ import annotations

__version__ = "0.1.0"

from pipeline.errors import InputError
from pipeline.geometry import apportion
from pipeline.scenario import Scenario

__all__ = ["InputError", "Scenario", "__version__", "apportion"]
