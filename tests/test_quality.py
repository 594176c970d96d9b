"""Roll vs parcel layer data quality."""

from __future__ import annotations

import json

import geopandas as gpd
import pandas as pd
from shapely.geometry import box

from pipeline.quality import data_quality


def test_data_quality() -> None:
    roll = pd.DataFrame(
        {
            "parcel_key": [
                "104401|1-1-1",
                "104401|1-1-2",
                "104489|9-9-9",
                "104489|5-1-1",
                "104489|6-1-1",
                "104489|6-1-2",
                "104489|1-1-7",
            ],
            "roll_section": [1, 1, 5, 6, 6, 8, 1],
        }
    )
    parcels = gpd.GeoDataFrame(
        {
            "parcel_key": [
                "104401|1-1-1",
                "104401|1-1-2",
                "104401|1-1-2",
                "104489|2-2-2",
                "104489|2-2-3",
                "104489|6-1-1",
            ]
        },
        geometry=[box(i, 0, i + 1, 1) for i in range(6)],
        crs="EPSG:26918",
    )
    q = data_quality(roll, parcels)
    # roll without polygon: 9-9-9 (sect 5), 5-1-1 (6), 6-1-2 (8), 1-1-7 (1) -> 4; expected 5/6: 2
    assert q["roll_records"] == 7 and q["parcel_features"] == 6
    assert q["matched_roll_records"] == 3
    rwp = q["roll_without_polygon"]
    assert rwp["count"] == 4 and rwp["expected_count"] == 2 and rwp["unexpected_count"] == 2
    assert rwp["by_roll_section"] == {"1": 1, "5": 1, "6": 1, "8": 1}
    assert list(rwp["by_roll_section"]) == ["1", "5", "6", "8"]
    assert rwp["keys_by_roll_section"]["1"] == ["104489|1-1-7"]
    assert q["polygons_without_roll"] == {"count": 2, "keys": ["104489|2-2-2", "104489|2-2-3"]}
    assert q["duplicate_parcel_keys"] == {
        "count": 1,
        "keys": ["104401|1-1-2"],
        "occurrences": {"104401|1-1-2": 2},
    }
    # JSON-serialisable and deterministic
    assert json.dumps(q, sort_keys=False) == json.dumps(data_quality(roll, parcels))


def test_everything_matches() -> None:
    roll = pd.DataFrame({"parcel_key": ["a|1", "a|2"], "roll_section": [1, 1]})
    parcels = pd.DataFrame({"parcel_key": ["a|2", "a|1"]})
    q = data_quality(roll, parcels)
    assert q["roll_without_polygon"]["count"] == 0
    assert q["roll_without_polygon"]["by_roll_section"] == {}
    assert q["polygons_without_roll"]["count"] == 0
    assert q["duplicate_parcel_keys"]["count"] == 0
