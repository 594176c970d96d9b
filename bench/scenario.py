"""Benchmark: incremental scenario edits against a full recompute.

Usage: ``python bench/scenario.py [--parcels 200000] [--dir DIR] [--skip-full]``. Generates
the sample petition (``pipeline.sample.generate_sample``) into a temporary
folder unless ``--dir`` names one that already holds ``petition.toml``, then
times local boundary edits (a box added at a boundary vertex, a box cut at
another, one straddling parcel removed, a 50 ft buffer): the incremental edit
(fractions of the parcels meeting the change), the summary of every test
(:meth:`pipeline.Scenario.results`), and a full recompute of the same
territory (apportionment of every parcel + :func:`pipeline.evaluate.evaluate`;
``--skip-full`` leaves it out). ``edit + results ms`` is what a user waits for
after an edit; each edit's summary is checked against
:func:`pipeline.evaluate.assess` of the same fractions.
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from pipeline.geometry import apportion_table
from pipeline.sample import generate_sample
from pipeline.scenario import Scenario


def _ms(fn: Callable[[], Any], repeat: int = 5) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(1000.0 * (time.perf_counter() - t))
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--parcels", type=int, default=200_000)
    ap.add_argument("--dir", type=Path, default=None)
    ap.add_argument("--skip-full", action="store_true", help="no full recompute column")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.dir or Path(tmp)
        if not (folder / "petition.toml").exists():
            t = time.perf_counter()
            generate_sample(folder, parcels=args.parcels)
            print(f"generated {args.parcels} parcels in {time.perf_counter() - t:.1f} s")
        t = time.perf_counter()
        base = Scenario.from_config(folder / "petition.toml")
        print(
            f"load + build scenario: {time.perf_counter() - t:.1f} s "
            f"({len(base.fractions)} parcels, "
            f"{int((base.fractions['fraction_in_territory'] > 0).sum())} in the territory)"
        )
        t = time.perf_counter()
        base.results()
        print(f"first results(): {1000 * (time.perf_counter() - t):.0f} ms")

        ring = np.asarray(
            shapely.get_coordinates(shapely.get_exterior_ring(shapely.get_parts(base.territory)[0]))
        )
        x0, y0 = ring[len(ring) // 3]
        x1, y1 = ring[2 * len(ring) // 3]
        straddlers = base.fractions.index[
            (base.fractions["fraction_in_territory"] > 0)
            & (base.fractions["fraction_in_territory"] < 1)
        ]
        edits: dict[str, Callable[[], Scenario]] = {
            "add 400 ft box at a vertex": lambda: base.add_polygon(
                shapely.box(x0 - 200, y0 - 200, x0 + 200, y0 + 200)
            ),
            "cut 400 ft box at a vertex": lambda: base.cut_polygon(
                shapely.box(x1 - 200, y1 - 200, x1 + 200, y1 + 200)
            ),
            "remove one straddling parcel": lambda: base.remove_parcels([straddlers[0]]),
            "buffer +50 ft (whole boundary)": lambda: base.buffer(50.0),
        }
        print(
            f"{'edit':34s} {'parcels':>8s} {'edit ms':>8s} {'results ms':>11s} "
            f"{'edit+results':>13s} {'full ms':>9s}  same as assess"
        )
        for label, make in edits.items():
            edit_ms, sc = _ms(make)
            res_ms, _ = _ms(lambda sc=sc: sc.renamed("x").results(), repeat=5)
            both_ms, _ = _ms(lambda make=make: make().results(), repeat=5)
            same = sc.results() == sc._assessment().summary

            def full(sc: Scenario = sc) -> Any:
                apportion_table(sc.parcels, sc.territory)
                return sc.evaluate()

            full_ms = math.nan if args.skip_full else _ms(full, repeat=1)[0]
            print(
                f"{label:34s} {sc.recomputed:8d} {edit_ms:8.1f} {res_ms:11.1f} "
                f"{both_ms:13.1f} {full_ms:9.0f}  {same}"
            )


if __name__ == "__main__":
    main()
