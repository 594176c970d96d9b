"""The dask engine gives the same apportionment as the local engine, to the bit.

One local cluster (2 worker processes) serves the whole module. The tiny
geometries (territory T = the square [0, 10] x [0, 10], metres):

    parcel  box                      town    worked by hand
    A (30)  [5, 15]  x [0, 10]       104400  area 100, 50 inside      -> 0.5
    B (10)  [1, 3]   x [1, 3]        104400  wholly inside            -> 1
    E (20)  [9.99, 19.99] x [5, 6]   104400  10 x 1 = 10, 0.01 inside -> raw 0.001,
                                             below the 0.01 tolerance -> 0, "sliver"
    C (40)  [100, 101] x [100, 101]  104600  far                      -> 0
    D (50)  [200, 201] x [0, 1]      104600  far                      -> 0

With partitions of at most 2 parcels town 104400 (3 parcels) is cut into 2
partitions and town 104600 (2 parcels) into 1, whose box [100, 201] x [0, 101]
misses T's box [0, 10] x [0, 10]: 2 partitions sent, 1 pruned.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
from dask_geopandas import GeoDataFrame as DaskGeoDataFrame
from distributed import Client, futures_of
from shapely.geometry import Point, Polygon, box
from typer.testing import CliRunner

from pipeline.config import load_config
from pipeline.engines import LocalEngine, open_engine
from pipeline.engines.distributed import DaskEngine, dask_engine, partition_parcels
from pipeline.evaluate import evaluate, prepare
from pipeline.geometry import apportion_table
from pipeline.io.load import load_inputs

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "raw" / "sample"
CRS = "EPSG:32618"
TERRITORY = box(0, 0, 10, 10)


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    """One local cluster of 2 worker processes for the module (through dask_engine)."""
    with dask_engine(workers=2) as engine:
        yield engine.client


def _tiny() -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(
        {
            "parcel_key": [
                "104400-1.-1-1",
                "104400-1.-1-2",
                "104400-1.-1-3",
                "104600-2.-1-1",
                "104600-2.-1-2",
            ],
            "geometry": [
                box(5, 0, 15, 10),  # A
                box(1, 1, 3, 3),  # B
                box(9.99, 5, 19.99, 6),  # E
                box(100, 100, 101, 101),  # C
                box(200, 0, 201, 1),  # D
            ],
        },
        index=pd.Index([30, 10, 20, 40, 50]),
        crs=CRS,
    )


def test_tiny_hand_worked_and_pruned(client: Client) -> None:
    parcels = _tiny()
    engine = DaskEngine(client, partition_size=2)
    got = engine.fractions(parcels, TERRITORY, sliver_tolerance=0.01)

    assert engine.partitions == 3
    assert engine.last_partitions_sent == 2
    assert engine.last_partitions_pruned == 1
    assert got.index.tolist() == [30, 10, 20, 40, 50]
    assert got["fraction_in_territory"].tolist() == [0.5, 1.0, 0.0, 0.0, 0.0]
    sources = ["geometry", "geometry", "sliver", "geometry", "geometry"]
    assert got["fraction_source"].tolist() == sources
    assert got.loc[20, "raw_fraction"] == pytest.approx(0.001)  # 0.01 / 10
    assert not got["geometry_repaired"].any()

    expected = apportion_table(parcels, TERRITORY, sliver_tolerance=0.01)
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    pd.testing.assert_frame_equal(
        got, LocalEngine().fractions(parcels, TERRITORY, sliver_tolerance=0.01), check_exact=True
    )


def test_everything_pruned_still_identical(client: Client) -> None:
    parcels = _tiny()
    engine = DaskEngine(client, partition_size=2)
    far = box(1000, 1000, 1010, 1010)
    got = engine.fractions(parcels, far, sliver_tolerance=0.0)
    assert engine.last_partitions_sent == 0
    assert engine.last_partitions_pruned == 3
    pd.testing.assert_frame_equal(
        got, apportion_table(parcels, far, sliver_tolerance=0.0), check_exact=True
    )


def test_many_vertex_territory_identical(client: Client) -> None:
    # a 1,201-vertex circle: apportion cuts it into pieces of at most 256 vertices and sums
    # each parcel's intersection areas over the pieces; the sums must not depend on which
    # parcels share a partition
    grid = [box(x, y, x + 1, y + 1) for x in range(20) for y in range(20)]
    parcels = gpd.GeoDataFrame(
        {"parcel_key": [f"10440{i % 2}-{i}" for i in range(400)], "geometry": grid}, crs=CRS
    )
    circle = Point(10, 10).buffer(7, quad_segs=300)
    engine = DaskEngine(client, partition_size=37)
    got = engine.fractions(parcels, circle, sliver_tolerance=0.0)
    assert engine.partitions == 12  # 2 towns of 200: ceil(200 / 37) = 6 each
    expected = apportion_table(parcels, circle, sliver_tolerance=0.0)
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    assert 0 < (got["fraction_in_territory"] == 1).sum() < 400


def test_partitions_shipped_once_per_parcels_object(client: Client) -> None:
    parcels = _tiny()
    engine = DaskEngine(client, partition_size=2)
    engine.fractions(parcels, TERRITORY, sliver_tolerance=0.0)
    # a second territory (the right half of T) against the same parcels: no new shipment
    # A = [5, 15] x [0, 10] has [5, 10] x [0, 10] inside: 50 of 100 -> 0.5
    second = box(5, 0, 10, 10)
    got = engine.fractions(parcels, second, sliver_tolerance=0.0)
    assert engine.shipments == 1
    assert got.loc[30, "fraction_in_territory"] == 0.5
    pd.testing.assert_frame_equal(
        got, apportion_table(parcels, second, sliver_tolerance=0.0), check_exact=True
    )
    # another parcels object (even equal) is partitioned and shipped again
    engine.fractions(parcels.copy(), TERRITORY, sliver_tolerance=0.0)
    assert engine.shipments == 2


def test_parcels_persisted_as_dask_geopandas_frame(client: Client) -> None:
    parcels = _tiny()
    engine = DaskEngine(client, partition_size=2)
    assert engine.frame is None and engine.spatial_partitions is None
    engine.fractions(parcels, TERRITORY, sliver_tolerance=0.0)
    frame = engine.frame
    assert isinstance(frame, DaskGeoDataFrame)
    assert frame.npartitions == 3
    assert len(futures_of(frame)) >= 3  # persisted: held on the workers
    # spatial_partitions: the boxes of partition_parcels, e.g. town 104600's
    # C [100, 101] x [100, 101] and D [200, 201] x [0, 1] -> [100, 201] x [0, 101]
    positions, bounds = partition_parcels(parcels, partition_size=2)
    boxes = engine.spatial_partitions
    assert boxes is not None and boxes is frame.spatial_partitions
    assert boxes.crs == parcels.crs
    np.testing.assert_array_equal(boxes.bounds.to_numpy(), bounds)
    assert [100.0, 0.0, 201.0, 101.0] in bounds.tolist()
    # partition k holds the parcels at positions[k], indexed by position
    parts = client.gather(client.compute(frame.to_delayed()))
    for part, pos in zip(parts, positions, strict=True):
        assert part.index.tolist() == pos.tolist()
        expected = parcels.geometry.iloc[pos].set_axis(pos)
        assert part.geometry.geom_equals_exact(expected, tolerance=0).all()
    engine.release()
    assert engine.frame is None


def test_no_parcels(client: Client) -> None:
    parcels = _tiny().iloc[:0]
    engine = DaskEngine(client, partition_size=2)
    got = engine.fractions(parcels, TERRITORY, sliver_tolerance=0.0)
    assert engine.partitions == 0 and engine.frame is None
    assert engine.last_partitions_sent == 0
    pd.testing.assert_frame_equal(
        got, apportion_table(parcels, TERRITORY, sliver_tolerance=0.0), check_exact=True
    )


def test_partition_parcels_by_town_and_size() -> None:
    parcels = _tiny()
    positions, bounds = partition_parcels(parcels, partition_size=2)
    # town 104400: 3 parcels -> ceil(3 / 2) = 2 partitions; town 104600: 1 partition
    assert sorted(len(p) for p in positions) == [1, 2, 2]
    assert sorted(np.concatenate(positions).tolist()) == [0, 1, 2, 3, 4]
    towns = parcels["parcel_key"].str[:6].to_numpy()
    assert all(len(set(towns[p])) == 1 for p in positions)
    far = [k for k, p in enumerate(positions) if towns[p[0]] == "104600"]
    assert bounds[far[0]].tolist() == [100.0, 0.0, 201.0, 101.0]
    with pytest.raises(ValueError, match="partition_size"):
        partition_parcels(parcels, partition_size=0)


def _message(fn: object) -> str:
    with pytest.raises(ValueError) as info:
        fn()  # type: ignore[operator]
    return str(info.value)


def test_errors_are_those_of_apportion(client: Client) -> None:
    engine = DaskEngine(client, partition_size=2)
    parcels = _tiny()

    # a parcel without geometry: checked here, same message
    missing = parcels.copy()
    missing.loc[20, "geometry"] = None
    local = _message(lambda: apportion_table(missing, TERRITORY, sliver_tolerance=0.0))
    assert local.startswith("parcel(s) without geometry")
    assert _message(lambda: engine.fractions(missing, TERRITORY, sliver_tolerance=0.0)) == local

    # zero-area parcels near T in two partitions (two towns): raised on the workers,
    # reported with both labels as apportion reports them
    flat = Polygon([(1, 1), (2, 1), (3, 1)])
    zero = parcels.copy()
    zero.loc[10, "geometry"] = flat
    zero.loc[40, "geometry"] = flat
    local = _message(lambda: apportion_table(zero, TERRITORY, sliver_tolerance=0.0))
    assert local == "parcel(s) with zero area: 10, 40"
    assert _message(lambda: engine.fractions(zero, TERRITORY, sliver_tolerance=0.0)) == local

    # argument checks
    for tol in (-0.1, 0.5):
        local = _message(lambda tol=tol: apportion_table(parcels, TERRITORY, sliver_tolerance=tol))
        got = _message(lambda tol=tol: engine.fractions(parcels, TERRITORY, sliver_tolerance=tol))
        assert got == local
    bowtie = Polygon([(0, 0), (10, 10), (10, 0), (0, 10)])
    local = _message(lambda: apportion_table(parcels, bowtie, sliver_tolerance=0.0))
    assert _message(lambda: engine.fractions(parcels, bowtie, sliver_tolerance=0.0)) == local


def test_sample_evaluation_identical(client: Client) -> None:
    config = load_config(SAMPLE / "petition.toml")
    inputs = load_inputs(config)
    local = evaluate(inputs, policy=config.policy, engine=None)
    engine = DaskEngine(client, partition_size=500)  # several partitions per town
    dask = evaluate(inputs, policy=config.policy, engine=engine)
    assert engine.partitions > 2
    assert dask.summary == local.summary
    pd.testing.assert_frame_equal(dask.parcels, local.parcels, check_exact=True)
    pd.testing.assert_frame_equal(dask.signatures, local.signatures, check_exact=True)


# the scheduler's HTTP server falls back to another port while the module's cluster runs
@pytest.mark.filterwarnings("ignore:Port 8787 is already in use")
def test_cli_run_dask_same_bytes(tmp_path: Path) -> None:
    from pipeline.cli import app

    runner = CliRunner()
    outs = {}
    for engine in ("local", "dask"):
        out = tmp_path / engine
        args = ["run", str(SAMPLE / "petition.toml"), "--out", str(out), "--engine", engine]
        if engine == "dask":
            args += ["--workers", "2"]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        outs[engine] = out
    for name in ("summary.json", "parcels.csv", "signatures.csv"):
        assert (outs["dask"] / name).read_bytes() == (outs["local"] / name).read_bytes(), name


def test_million_parcel_layout_identical(client: Client) -> None:
    """The 1,000,000 lots of ``petition sample --parcels 1000000``'s layout, in every CI run.

    The generator's geometry (two towns, lots along jittered streets, the
    territory on the town line) without its roll and people, which the engine
    does not see: local and dask fractions must be the same bits, for the
    sample's territory and for a territory crossing thousands of lots (the
    interior of the first town shrunk by 2,000 ft).
    """
    from pipeline.sample._parcels import build_layout

    lay = build_layout(lots=1_000_000, towns=2, rng=np.random.default_rng(7))
    swis = np.asarray(["104400", "104600"])[lay.lots["town"].to_numpy() % 2]
    parcels = gpd.GeoDataFrame(
        {"parcel_key": [f"{s}:{k}" for s, k in zip(swis, lay.lots["print_key"], strict=True)]},
        geometry=lay.polygons,
        crs="EPSG:2260",
    )
    assert len(parcels) == 1_000_000
    engine = DaskEngine(client)
    for territory in (lay.territory, lay.towns[0].buffer(-2000)):
        got = engine.fractions(parcels, territory, sliver_tolerance=0.0)
        expected = apportion_table(parcels, territory, sliver_tolerance=0.0)
        pd.testing.assert_frame_equal(got, expected, check_exact=True)
        assert engine.last_partitions_sent + engine.last_partitions_pruned == engine.partitions
    assert engine.shipments == 1  # the million parcels went to the workers once
    crossing = (expected["raw_fraction"] > 0) & (expected["raw_fraction"] < 1)
    assert crossing.sum() > 1000


@pytest.mark.slow
def test_scale_sample_identical() -> None:
    """The 1,000,000-parcel sample (``petition sample --parcels 1000000``), when given."""
    folder = os.environ.get("PETITION_SCALE_SAMPLE")
    if not folder or not (Path(folder) / "petition.toml").is_file():
        pytest.skip("set PETITION_SCALE_SAMPLE to a folder holding a generated large sample")
    config = load_config(Path(folder) / "petition.toml")
    inputs = load_inputs(config)
    prepared = prepare(inputs, policy=config.policy)
    tol = config.policy.sliver_tolerance
    t0 = time.perf_counter()
    local = apportion_table(prepared.parcels, inputs.territory, sliver_tolerance=tol)
    t_local = time.perf_counter() - t0
    with open_engine("dask", workers=2) as engine:
        assert isinstance(engine, DaskEngine)
        t0 = time.perf_counter()
        got = engine.fractions(prepared.parcels, inputs.territory, sliver_tolerance=tol)
        t_dask = time.perf_counter() - t0
        pd.testing.assert_frame_equal(got, local, check_exact=True)
        dask_eval = evaluate(inputs, policy=config.policy, engine=engine)
    local_eval = evaluate(inputs, policy=config.policy, engine=None)
    assert dask_eval.summary == local_eval.summary
    pd.testing.assert_frame_equal(dask_eval.parcels, local_eval.parcels, check_exact=True)
    print(f"\n{len(local):,} parcels: local {t_local:.2f} s, dask (first call) {t_dask:.2f} s")


def test_open_engine_rejects_unknown_name() -> None:
    with pytest.raises(ValueError, match=re.escape("unknown engine 'spark'")), open_engine("spark"):
        pass


def test_unknown_engine_is_bad_input(tmp_path: Path) -> None:
    """``--engine spark`` is bad input: one line naming the engines, exit 2, nothing written."""
    from pipeline.cli import app

    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["run", str(SAMPLE / "petition.toml"), "--out", str(out), "--engine", "spark"]
    )
    assert result.exit_code == 2
    assert "unknown engine 'spark'; expected one of local, dask" in result.output
    assert not out.exists()
    with pytest.raises(ValueError, match="unknown engine"), open_engine("spark"):
        pass
