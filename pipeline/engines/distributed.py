"""The dask engine: the apportionment of a state-wide batch on a dask.distributed cluster.

The parcels are cut once into partitions, by town (the SWIS prefix of
``parcel_key``) and, within a town, along a Hilbert curve so that a partition
covers a compact area. The partitions form a ``dask_geopandas.GeoDataFrame``
(one geopandas frame per partition, its ``spatial_partitions`` the partition
boxes), persisted on the workers once and kept there while the engine lives.
For each territory only the partitions whose box meets the territory's
bounding box are selected (``ddf.partitions[...]``) and given work
(``map_partitions`` of :func:`pipeline.geometry.apportion_table`); every other parcel
is far and its fraction is 0, as :func:`~pipeline.geometry.apportion` itself
would give. The result is identical, to the bit, to
``apportion_table(parcels, territory, sliver_tolerance=...)``.

Open it with :func:`pipeline.engines.open_engine` (``"dask"``) or
:func:`dask_engine`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import geopandas as gpd
import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import shapely
from dask import dataframe as dd
from dask_geopandas import GeoDataFrame as DaskGeoDataFrame
from distributed import Client, LocalCluster
from shapely.geometry.base import BaseGeometry

from pipeline.geometry import apportion_table
from pipeline.geometry.apportion import FRACTION_SOURCES, territory_geometry

__all__ = ["DEFAULT_PARTITION_SIZE", "DaskEngine", "dask_engine", "partition_parcels"]

#: At most this many parcels in one partition (one task on a worker).
DEFAULT_PARTITION_SIZE = 50_000

#: Level of the Hilbert curve (2**16 cells a side over the parcels' total bounds).
_HILBERT_LEVEL = 16

#: The column whose first 6 characters are the town SWIS code.
_KEY = "parcel_key"
_SWIS_LENGTH = 6

IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]

#: The columns of a partition's result on a worker (indexed by parcel position):
#: the fraction columns of apportion, ``fraction_source`` as its code in
#: FRACTION_SOURCES (-1 for every row of a partition where apportion raised a
#: ValueError, whose message is then in the frame's ``attrs["error"]``).
_PART_META = pd.DataFrame(
    {
        "fraction_in_territory": pd.Series(dtype=np.float64),
        "raw_fraction": pd.Series(dtype=np.float64),
        "geometry_repaired": pd.Series(dtype=bool),
        "source_code": pd.Series(dtype=np.int8),
    },
    index=pd.Index([], dtype=np.int64),
)


def partition_parcels(
    parcels: gpd.GeoDataFrame | gpd.GeoSeries, *, partition_size: int = DEFAULT_PARTITION_SIZE
) -> tuple[list[IntArray], FloatArray]:
    """Cut parcels into partitions by town and, within a town, along a Hilbert curve.

    Parameters
    ----------
    parcels
        Parcel polygons, none missing or empty. A GeoDataFrame with a
        ``parcel_key`` column is split by town (the first 6 characters of the
        key, the SWIS code); without one all parcels are one town.
    partition_size
        At most this many parcels in a partition (a positive integer).

    Returns
    -------
    positions : list of numpy.ndarray
        For each partition the positions (0-based, ascending) of its parcels in
        ``parcels``. Every parcel is in exactly one partition.
    bounds : numpy.ndarray
        One row ``(xmin, ymin, xmax, ymax)`` per partition: the bounding box of
        its parcels (the partition's spatial extent).

    Raises
    ------
    ValueError
        A parcel without geometry, or a partition size below 1.

    Notes
    -----
    The Hilbert distance :math:`h_i` of parcel :math:`i` is that of the centre
    of its bounding box on a :math:`2^{16} \\times 2^{16}` grid over the total
    bounds of all parcels (``GeoSeries.hilbert_distance``). Parcels are sorted
    by (town, :math:`h_i`); a town of :math:`n_t` parcels is cut into
    :math:`\\lceil n_t / s \\rceil` consecutive runs of near-equal size for the
    partition size :math:`s`. Parcels close on the curve are close on the
    ground, so each partition's bounding box is small and a territory meets few
    of them.
    """
    if partition_size < 1:
        raise ValueError(f"partition_size must be at least 1, got {partition_size!r}")
    geoms = parcels.geometry
    n = len(geoms)
    if n == 0:
        return [], np.empty((0, 4), dtype=np.float64)
    bounds = shapely.bounds(np.asarray(geoms.values, dtype=object))
    if np.isnan(bounds[:, 0]).any():
        raise ValueError("parcel(s) without geometry cannot be partitioned")
    total = (
        float(bounds[:, 0].min()),
        float(bounds[:, 1].min()),
        float(bounds[:, 2].max()),
        float(bounds[:, 3].max()),
    )
    hilbert = np.asarray(
        gpd.GeoSeries(geoms.values).hilbert_distance(total_bounds=total, level=_HILBERT_LEVEL)
    )
    if isinstance(parcels, gpd.GeoDataFrame) and _KEY in parcels.columns:
        town_keys = parcels[_KEY].astype("str").str[:_SWIS_LENGTH].to_numpy()
        towns, _ = pd.factorize(town_keys, sort=True)
    else:
        towns = np.zeros(n, dtype=np.intp)
    order = np.lexsort((hilbert, towns))
    sorted_towns = towns[order]
    starts = np.flatnonzero(np.r_[True, sorted_towns[1:] != sorted_towns[:-1]])
    ends = np.r_[starts[1:], n]
    positions: list[IntArray] = []
    for start, end in zip(starts, ends, strict=True):
        run = order[start:end]
        pieces = -(-len(run) // partition_size)  # ceil
        positions.extend(np.sort(p).astype(np.intp) for p in np.array_split(run, pieces))
    part_bounds = np.array(
        [
            (
                bounds[p, 0].min(),
                bounds[p, 1].min(),
                bounds[p, 2].max(),
                bounds[p, 3].max(),
            )
            for p in positions
        ],
        dtype=np.float64,
    )
    return positions, part_bounds


def _apportion_partition(
    part: gpd.GeoDataFrame, territory: BaseGeometry, sliver_tolerance: float
) -> pd.DataFrame:
    """Apportion one partition on a worker (a frame like ``_PART_META``).

    A ValueError of :func:`~pipeline.geometry.apportion` is not raised on the
    worker (it would be logged there as a failed task): its partition's rows
    get the code -1 and the message goes in ``attrs["error"]``.
    """
    index = pd.Index(part.index.to_numpy(dtype=np.int64))
    try:
        out = apportion_table(part, territory, sliver_tolerance=sliver_tolerance)
    except ValueError as exc:
        n = len(index)
        failed = pd.DataFrame(
            {
                "fraction_in_territory": np.full(n, np.nan),
                "raw_fraction": np.full(n, np.nan),
                "geometry_repaired": np.zeros(n, dtype=bool),
                "source_code": np.full(n, -1, dtype=np.int8),
            },
            index=index,
        )
        failed.attrs["error"] = str(exc)
        return failed
    codes = pd.Categorical(out["fraction_source"], categories=list(FRACTION_SOURCES)).codes
    if (codes < 0).any():
        raise RuntimeError("apportion produced a fraction_source outside FRACTION_SOURCES")
    return pd.DataFrame(
        {
            "fraction_in_territory": out["fraction_in_territory"].to_numpy(dtype=np.float64),
            "raw_fraction": out["raw_fraction"].to_numpy(dtype=np.float64),
            "geometry_repaired": out["geometry_repaired"].to_numpy(dtype=bool),
            "source_code": np.asarray(codes, dtype=np.int8),
        },
        index=index,
    )


@dataclass(eq=False)
class _Shipped:
    """Parcels cut into partitions and persisted on the cluster (one parcels object).

    ``ddf`` holds one partition per entry of ``positions``, in that order: the
    parcels' geometry indexed by their position in ``parcels``, its
    ``spatial_partitions`` the partition boxes ``bounds``.
    """

    parcels: gpd.GeoDataFrame | gpd.GeoSeries
    length: int
    positions: list[IntArray]
    bounds: FloatArray
    ddf: DaskGeoDataFrame | None


class DaskEngine:
    """Apportionment on a dask.distributed cluster, identical to the local engine.

    Parameters
    ----------
    client
        A connected ``distributed.Client``. The engine does not close it.
    partition_size
        At most this many parcels in one partition (one task).

    Attributes
    ----------
    last_partitions_sent : int
        Partitions given work by the last :meth:`fractions` call (the others
        were pruned: their bounding box misses the territory's).
    last_partitions_pruned : int
        Partitions skipped by the last call.
    shipments : int
        How many times parcels were partitioned and shipped to the cluster.

    Notes
    -----
    The partitions of a parcels object (:func:`partition_parcels`) become a
    ``dask_geopandas.GeoDataFrame`` persisted on the workers on the first call
    with that object (the frames are scattered straight to the workers, then
    wrapped with ``dask.dataframe.from_delayed``), and are reused by later
    calls with the same object (a batch evaluates many territories against the
    same parcels); a call with another object replaces them. The parcels
    object must therefore not be changed in place between calls. The territory
    is broadcast to every worker once per call and handed to
    ``map_partitions`` as that one copy.
    """

    name = "dask"

    def __init__(self, client: Client, *, partition_size: int = DEFAULT_PARTITION_SIZE) -> None:
        if partition_size < 1:
            raise ValueError(f"partition_size must be at least 1, got {partition_size!r}")
        self.client = client
        self.partition_size = partition_size
        self.last_partitions_sent = 0
        self.last_partitions_pruned = 0
        self.shipments = 0
        self._shipped: _Shipped | None = None

    @property
    def partitions(self) -> int:
        """Partitions of the parcels held on the cluster (0 before the first call)."""
        return 0 if self._shipped is None else len(self._shipped.positions)

    @property
    def frame(self) -> DaskGeoDataFrame | None:
        """The parcels persisted on the cluster (None before the first call).

        A ``dask_geopandas.GeoDataFrame`` with one partition per entry of
        :func:`partition_parcels`' positions, in that order, holding the
        parcels' geometry indexed by their position (0-based) in the parcels
        object; its ``spatial_partitions`` are the partition boxes.
        """
        return None if self._shipped is None else self._shipped.ddf

    @property
    def spatial_partitions(self) -> gpd.GeoSeries | None:
        """The bounding box of each partition held on the cluster (None before).

        The ``spatial_partitions`` of the persisted dask-geopandas frame.
        """
        if self._shipped is None or self._shipped.ddf is None:
            return None
        boxes: gpd.GeoSeries = self._shipped.ddf.spatial_partitions
        return boxes

    def release(self) -> None:
        """Forget the partitions held on the cluster (they are freed there)."""
        self._shipped = None

    def _ship(self, parcels: gpd.GeoDataFrame | gpd.GeoSeries) -> _Shipped:
        """The partitions of ``parcels`` on the cluster, shipped now or on an earlier call."""
        shipped = self._shipped
        if shipped is not None and shipped.parcels is parcels and shipped.length == len(parcels):
            return shipped
        self.release()
        positions, bounds = partition_parcels(parcels, partition_size=self.partition_size)
        geoms = parcels.geometry
        ddf: DaskGeoDataFrame | None = None
        if positions:
            parts = [
                gpd.GeoDataFrame(
                    {"geometry": geoms.values[p]},
                    index=pd.Index(p.astype(np.int64)),
                    crs=geoms.crs,
                )
                for p in positions
            ]
            client: Any = self.client  # distributed is untyped
            # straight to the workers (not through the scheduler inside a graph)
            futures = client.scatter(parts, hash=False)
            frame: Any = dd.from_delayed(
                futures, meta=parts[0].iloc[:0], divisions=None, verify_meta=False
            )
            if not isinstance(frame, DaskGeoDataFrame):
                raise RuntimeError("dask_geopandas is not registered for GeoDataFrame partitions")
            boxes = shapely.box(bounds[:, 0], bounds[:, 1], bounds[:, 2], bounds[:, 3])
            frame.spatial_partitions = gpd.GeoSeries(boxes, crs=geoms.crs)
            ddf = client.persist(frame)  # keeps the spatial_partitions
        shipped = _Shipped(
            parcels=parcels, length=len(parcels), positions=positions, bounds=bounds, ddf=ddf
        )
        self._shipped = shipped
        self.shipments += 1
        return shipped

    def fractions(
        self,
        parcels: gpd.GeoDataFrame | gpd.GeoSeries,
        territory: BaseGeometry | gpd.GeoSeries,
        *,
        sliver_tolerance: float,
    ) -> pd.DataFrame:
        """:func:`pipeline.geometry.apportion_table` of ``parcels``, computed on the cluster.

        Parameters
        ----------
        parcels
            As for :func:`~pipeline.geometry.apportion` (a GeoDataFrame with
            ``parcel_key`` is partitioned by town).
        territory
            As for :func:`~pipeline.geometry.apportion`.
        sliver_tolerance
            As for :func:`~pipeline.geometry.apportion`.

        Returns
        -------
        pandas.DataFrame
            Identical to ``apportion_table(parcels, territory,
            sliver_tolerance=sliver_tolerance)``: same index and order, same
            columns, dtypes and values.

        Raises
        ------
        ValueError
            Exactly when :func:`~pipeline.geometry.apportion` raises it, with
            the same message.

        Notes
        -----
        The fraction of parcel :math:`P_i` depends only on :math:`P_i` and the
        territory :math:`T`, so for any partition :math:`\\{B_k\\}` of the
        parcels the result is the union of ``apportion_table`` over the :math:`B_k`.
        A partition whose bounding box misses that of :math:`T` holds only
        parcels whose own boxes miss it: :math:`f_i = 0`, source
        ``"geometry"``, not repaired, as ``apportion_table`` gives them. The checks
        of the arguments run here first (``apportion_table`` of no parcels; then of
        the parcels without geometry, so the message names the same parcels);
        a ValueError on a worker is reproduced by running ``apportion_table`` here on
        the failing partitions, in the original order.
        """
        # the argument checks of apportion_table, in its order, on no parcels: also the dtypes
        empty = apportion_table(parcels.iloc[:0], territory, sliver_tolerance=sliver_tolerance)
        territory_geom = territory_geometry(territory, parcels.crs)
        n = len(parcels)
        shipped = self._shipped
        if not (shipped is not None and shipped.parcels is parcels and shipped.length == n):
            bounds = shapely.bounds(np.asarray(parcels.geometry.values, dtype=object))
            missing = np.flatnonzero(np.isnan(bounds[:, 0]))
            if len(missing):
                apportion_table(
                    parcels.iloc[missing], territory_geom, sliver_tolerance=sliver_tolerance
                )
                raise ValueError("parcel(s) without geometry")  # apportion raised first
            shipped = self._ship(parcels)

        txmin, tymin, txmax, tymax = shapely.bounds(territory_geom)
        b = shipped.bounds  # those of the frame's spatial_partitions
        near = (b[:, 0] <= txmax) & (b[:, 2] >= txmin) & (b[:, 1] <= tymax) & (b[:, 3] >= tymin)
        sent = np.flatnonzero(near)
        self.last_partitions_sent = len(sent)
        self.last_partitions_pruned = len(b) - len(sent)

        fraction = np.zeros(n, dtype=np.float64)
        raw = np.zeros(n, dtype=np.float64)
        repaired = np.zeros(n, dtype=bool)
        codes = np.zeros(n, dtype=np.int8)  # FRACTION_SOURCES[0]: "geometry"
        if len(sent):
            results = self._compute(shipped, sent, territory_geom, sliver_tolerance)
            failed = [r for r in results if (r["source_code"].to_numpy() < 0).any()]
            if failed:
                rows = np.sort(np.concatenate([r.index.to_numpy(dtype=np.intp) for r in failed]))
                apportion_table(
                    parcels.iloc[rows], territory_geom, sliver_tolerance=sliver_tolerance
                )
                raise ValueError(failed[0].attrs.get("error", "apportion failed on a worker"))
            for k, r in zip(sent, results, strict=True):
                pos = shipped.positions[k]
                if not np.array_equal(r.index.to_numpy(dtype=np.intp), pos):
                    raise RuntimeError(f"partition {k} came back with other parcels than sent")
                fraction[pos] = r["fraction_in_territory"].to_numpy()
                raw[pos] = r["raw_fraction"].to_numpy()
                repaired[pos] = r["geometry_repaired"].to_numpy()
                codes[pos] = r["source_code"].to_numpy()

        source = pa.array(list(FRACTION_SOURCES)).take(pa.array(codes))
        source_dtype = empty["fraction_source"].dtype
        return pd.DataFrame(
            {
                "fraction_in_territory": fraction,
                "fraction_source": pd.array(source, dtype=source_dtype),
                "raw_fraction": raw,
                "geometry_repaired": repaired,
            },
            index=parcels.index,
        )

    def _compute(
        self,
        shipped: _Shipped,
        sent: IntArray,
        territory: BaseGeometry,
        sliver_tolerance: float,
    ) -> list[pd.DataFrame]:
        """Apportion the ``sent`` partitions on the cluster; one result frame each, in order.

        ``map_partitions`` of :func:`_apportion_partition` over the selected
        partitions of the persisted frame, computed through the client one
        future per partition (so a partition's ValueError stays its own).
        """
        if shipped.ddf is None:  # no parcels: nothing is ever sent
            return []
        client: Any = self.client  # distributed is untyped
        [territory_future] = client.scatter([territory], broadcast=True, hash=False)
        selected = shipped.ddf.partitions[[int(k) for k in sent]]
        mapped = selected.map_partitions(
            _apportion_partition,
            territory_future,
            sliver_tolerance=sliver_tolerance,
            meta=_PART_META,
            align_dataframes=False,
        )
        futures = client.compute(mapped.to_delayed())
        try:
            results: list[pd.DataFrame] = client.gather(futures)
        finally:
            client.cancel([*futures, territory_future])
        return results


@contextmanager
def dask_engine(
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    partition_size: int = DEFAULT_PARTITION_SIZE,
) -> Iterator[DaskEngine]:
    """A :class:`DaskEngine` connected for the duration of the ``with`` block.

    Parameters
    ----------
    scheduler
        Address of a running scheduler (``tcp://host:8786``): a client is
        connected to it and closed after the block (the cluster keeps running).
        None: a ``distributed.LocalCluster`` of ``workers`` single-threaded
        worker processes is started for the block and closed after it.
    workers
        Worker processes of the local cluster (default: the CPU count).
    partition_size
        At most this many parcels in one partition.

    Yields
    ------
    DaskEngine
        The engine; its partitions on the cluster are freed when the block ends.

    Notes
    -----
    Workers of a remote cluster need this package installed (the same
    version): the parcels and the territory are shipped to them, so they need
    access to no file.
    """
    if scheduler is None:
        n_workers = workers or os.cpu_count() or 1
        with (
            LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=n_workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
            ) as cluster,
            Client(cluster) as client,  # type: ignore[no-untyped-call]
        ):
            engine = DaskEngine(client, partition_size=partition_size)
            try:
                yield engine
            finally:
                engine.release()
        return
    client = Client(scheduler)  # type: ignore[no-untyped-call]
    engine = DaskEngine(client, partition_size=partition_size)
    try:
        yield engine
    finally:
        engine.release()
        client.close()  # type: ignore[no-untyped-call]
