"""Data quality of a roll against its parcel layer (pure).

Joins on the canonical parcel key (``"<swis>|<normalised print key>"``) and
reports what does not join: roll records without a polygon (split by roll
section: special franchise (5) and utility (6) records are expected to have
none), polygons without a roll record, and keys that appear more than once in
the parcel layer.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from pipeline.frames import PARCEL_KEY
from pipeline.tools import isin

__all__ = ["EXPECTED_WITHOUT_POLYGON", "data_quality"]

#: Roll sections whose records usually have no parcel polygon.
EXPECTED_WITHOUT_POLYGON: tuple[int, ...] = (5, 6)


def data_quality(roll: pd.DataFrame, parcels: pd.DataFrame) -> dict[str, Any]:
    """Counts and key lists of what does not join between a roll and parcels.

    Parameters
    ----------
    roll
        Canonical roll frame (needs ``parcel_key`` and ``roll_section``).
    parcels
        Canonical parcel frame (needs ``parcel_key``); a GeoDataFrame or any
        frame with that column.

    Returns
    -------
    dict
        JSON-serialisable, keys and lists in sorted order::

            {
              "roll_records": int, "parcel_features": int,
              "matched_roll_records": int,
              "roll_without_polygon": {
                  "count": int,
                  "expected_count": int,      # sections 5 and 6
                  "unexpected_count": int,    # every other section
                  "by_roll_section": {"1": int, ...},
                  "keys_by_roll_section": {"1": [key, ...], ...},
              },
              "polygons_without_roll": {"count": int, "keys": [key, ...]},
              "duplicate_parcel_keys": {"count": int, "keys": [key, ...],
                                        "occurrences": {key: int}},
            }

    Notes
    -----
    ``count`` of duplicate keys is the number of distinct keys that appear
    more than once; ``occurrences`` gives how many features carry each.
    """
    roll_keys = roll[PARCEL_KEY].astype("str")
    parcel_keys = parcels[PARCEL_KEY].astype("str")
    in_parcels = pd.Series(isin(roll_keys, parcel_keys), index=roll_keys.index)
    missing = roll.loc[~in_parcels.to_numpy(), [PARCEL_KEY, "roll_section"]]

    by_section: dict[str, int] = {}
    keys_by_section: dict[str, list[str]] = {}
    sections = missing["roll_section"].astype("int64").to_numpy()
    missing_keys = missing[PARCEL_KEY].astype("str").tolist()
    for section in sorted({int(x) for x in sections}):
        name = str(section)
        keys_by_section[name] = sorted(
            k for k, s in zip(missing_keys, sections, strict=True) if int(s) == section
        )
        by_section[name] = len(keys_by_section[name])
    expected = sum(n for s, n in by_section.items() if int(s) in EXPECTED_WITHOUT_POLYGON)

    orphan = ~isin(parcel_keys, roll_keys)
    orphans = sorted({str(k) for k in parcel_keys[orphan].tolist()})

    counts = parcel_keys.value_counts()
    dups = counts[counts > 1]
    dup_keys = sorted(str(k) for k in dups.index)
    return {
        "roll_records": len(roll),
        "parcel_features": len(parcels),
        "matched_roll_records": int(in_parcels.sum()),
        "roll_without_polygon": {
            "count": len(missing),
            "expected_count": int(expected),
            "unexpected_count": len(missing) - int(expected),
            "by_roll_section": by_section,
            "keys_by_roll_section": keys_by_section,
        },
        "polygons_without_roll": {"count": len(orphans), "keys": orphans},
        "duplicate_parcel_keys": {
            "count": len(dup_keys),
            "keys": dup_keys,
            "occurrences": {k: int(dups[k]) for k in dup_keys},
        },
    }
