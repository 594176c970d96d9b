"""Where `pipeline.apportion`'s time goes, step by step (private steps timed alone).

Not a test. Run from the repository root::

    .venv/bin/python bench/apportion_steps.py [--parcels 200000] [--rounds 60]

On the sample generator's layout (as ``bench/apportion.py --layout sample``),
times each step of :func:`pipeline.apportion` alone, in interleaved rounds, and
prints the best and the median of each: the bounding boxes, the cell grid, the
settling of the parcels near the territory, the crossing parcels' areas by the
routes chosen and by GEOS's overlay alone, the ``fraction_source`` column (built
by :func:`pipeline.geometry.apportion_table` only), and the whole of both calls.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from apportion import sample_parcels  # bench/apportion.py


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parcels", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()

    m = importlib.import_module("pipeline.geometry.apportion")
    parcels, territory, _ = sample_parcels(args.parcels, "sample")
    geoms = np.asarray(parcels.geometry.values, dtype=object)
    near, boxes, _ = m._bounds_near(geoms, territory)
    touched, _ = m._settle_near(
        geoms, boxes, near, territory, np.zeros(len(geoms)), np.full(len(geoms), np.nan)
    )
    crossing = geoms[touched]
    steps: dict[str, Callable[[], Any]] = {
        "bounding boxes, near the territory's box": lambda: m._bounds_near(geoms, territory),
        "cell grid built": lambda: m._CellGrid(territory, len(near)),
        "near parcels settled (grid included)": lambda: m._settle_near(
            geoms, boxes, near, territory, np.zeros(len(geoms)), np.full(len(geoms), np.nan)
        ),
        "crossing parcels' areas (routes chosen)": lambda: m._intersection_areas(
            crossing, territory
        ),
        "crossing parcels' areas by GEOS's overlay": lambda: m._overlay_areas(crossing, territory),
        "fraction_source column": lambda: m._source_column(np.zeros(len(geoms), dtype=bool)),
        "apportion, whole (the fractions)": lambda: m.apportion(parcels, territory),
        "apportion_table, whole (with the sources)": lambda: m.apportion_table(parcels, territory),
    }
    times: dict[str, list[float]] = {k: [] for k in steps}
    for _ in range(args.rounds):
        for name, fn in steps.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    print(f"{len(geoms):,} parcels, {len(near):,} near, {len(touched):,} crossing")
    for name, seconds in times.items():
        print(
            f"  {name:<44} best {min(seconds) * 1e3:7.2f} ms"
            f"  median {float(np.median(seconds)) * 1e3:7.2f} ms"
        )


if __name__ == "__main__":
    main()
