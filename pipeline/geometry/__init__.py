"""Geometry core: the territory, its town parts, geodesic area and apportionment.

Pure functions: nothing here opens a file or prints.
"""

from __future__ import annotations

from pipeline.geometry.apportion import FRACTION_SOURCES, apportion, apportion_table
from pipeline.geometry.area import SQ_M_PER_SQ_MI, geodesic_area_sq_mi, working_crs_for
from pipeline.geometry.territory import TownParts, town_parts, union_territory

__all__ = [
    "FRACTION_SOURCES",
    "SQ_M_PER_SQ_MI",
    "TownParts",
    "apportion",
    "apportion_table",
    "geodesic_area_sq_mi",
    "town_parts",
    "union_territory",
    "working_crs_for",
]
