"""The local engine against the dask engine: apportionment of every parcel of a sample.

For each sample: ``apportion_table`` in process (best of ``--repeat``), then on a
local dask cluster of ``--workers`` processes the cluster start, the first
call (partitioning + shipping the parcels + computing) and the next calls
(parcels already persisted on the workers), for the petition's territory and
for a small territory (a box of 1 % of the parcels' extent at its south-west
corner, where most partitions are pruned). Every dask result is checked
identical to the local one.

Usage::

    .venv/bin/python bench/engines.py --toml /tmp/s200k2/petition.toml --toml /tmp/s1m/petition.toml
    .venv/bin/python bench/engines.py --parcels 200000 [--workers 2] [--partition-size 50000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import shapely

from pipeline.config import load_config
from pipeline.engines.distributed import DEFAULT_PARTITION_SIZE, dask_engine
from pipeline.evaluate import prepare
from pipeline.geometry import apportion_table
from pipeline.io.load import load_inputs
from pipeline.sample import generate_sample


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    runs = [_timed(fn) for _ in range(repeat)]
    return min(t for t, _ in runs), runs[-1][1]


def bench(config_path: Path, *, workers: int, partition_size: int, repeat: int) -> None:
    config = load_config(config_path)
    inputs = load_inputs(config)
    parcels = prepare(inputs, policy=config.policy).parcels
    tol = config.policy.sliver_tolerance
    # the small box: a tenth of the extent a side (1 % of its area) in its south-west
    # corner, where few partitions' boxes reach, so the pruning shows
    xmin, ymin, xmax, ymax = parcels.total_bounds
    dx, dy = (xmax - xmin) / 10, (ymax - ymin) / 10
    small = shapely.box(xmin, ymin, xmin + dx, ymin + dy)
    territories = {"petition territory": inputs.territory, "small box (1 % SW corner)": small}

    print(
        f"\n{config_path}: {len(parcels):,} parcels, {workers} workers, "
        f"partitions of at most {partition_size:,}"
    )
    local: dict[str, pd.DataFrame] = {}
    local_time: dict[str, float] = {}
    for label, territory in territories.items():
        local_time[label], local[label] = _best(
            lambda t=territory: apportion_table(parcels, t, sliver_tolerance=tol), repeat
        )
        print(f"  local  {label:<26} {local_time[label]:8.2f} s")

    t0 = time.perf_counter()
    with dask_engine(workers=workers, partition_size=partition_size) as engine:
        t_start = time.perf_counter() - t0
        print(f"  dask   cluster start              {t_start:8.2f} s")
        for label, territory in territories.items():
            first = engine.shipments == 0
            t1, got = _timed(lambda t=territory: engine.fractions(parcels, t, sliver_tolerance=tol))
            pd.testing.assert_frame_equal(got, local[label], check_exact=True)
            t2, got = _best(
                lambda t=territory: engine.fractions(parcels, t, sliver_tolerance=tol), repeat
            )
            pd.testing.assert_frame_equal(got, local[label], check_exact=True)
            base = local_time[label]
            what = "first call (partition + ship)" if first else "first call"
            print(
                f"  dask   {label:<26} {what}: {t1:.2f} s ({t1 / base:.2f}x local); "
                f"cached: {t2:.2f} s ({t2 / base:.2f}x local); "
                f"partitions sent {engine.last_partitions_sent} of {engine.partitions}; identical"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--toml", type=Path, action="append", default=[], help="sample config(s)")
    parser.add_argument("--parcels", type=int, default=200_000, help="without --toml: generate")
    parser.add_argument("--towns", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--partition-size", type=int, default=DEFAULT_PARTITION_SIZE)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "vp-bench")
    args = parser.parse_args()

    tomls: list[Path] = args.toml
    if not tomls:
        folder = args.cache / f"sample-{args.parcels}-{args.towns}-{args.seed}"
        if not (folder / "petition.toml").exists():
            t, _ = _timed(
                lambda: generate_sample(
                    folder, parcels=args.parcels, towns=args.towns, seed=args.seed
                )
            )
            print(f"generated {args.parcels:,} parcels in {t:.1f} s")
        tomls = [folder / "petition.toml"]
    for path in tomls:
        bench(path, workers=args.workers, partition_size=args.partition_size, repeat=args.repeat)


if __name__ == "__main__":
    main()
