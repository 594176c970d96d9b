"""Where the apportionment runs: in this process (default) or on a dask cluster.

An engine computes :func:`pipeline.geometry.apportion_table` of every parcel against a
territory. Both engines give identical results (same bytes): the fraction of a
parcel depends only on that parcel and the territory, never on which other
parcels are computed beside it, so partitioning the parcels changes nothing.

``petition run --engine dask`` (and ``petition batch --engine dask``) select
:class:`pipeline.engines.distributed.DaskEngine`; see :func:`open_engine`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

import geopandas as gpd
import pandas as pd
from shapely.geometry.base import BaseGeometry

from pipeline.geometry import apportion_table

ENGINES = ("local", "dask")


class FractionEngine(Protocol):
    """Computes the apportionment of parcels against a territory."""

    name: str

    def fractions(
        self,
        parcels: gpd.GeoDataFrame,
        territory: BaseGeometry,
        *,
        sliver_tolerance: float,
    ) -> pd.DataFrame:
        """:func:`pipeline.geometry.apportion_table` of ``parcels`` (same index, same order)."""
        ...


class LocalEngine:
    """The in-process engine: :func:`pipeline.geometry.apportion_table` itself."""

    name = "local"

    def fractions(
        self,
        parcels: gpd.GeoDataFrame,
        territory: BaseGeometry,
        *,
        sliver_tolerance: float,
    ) -> pd.DataFrame:
        """:func:`pipeline.geometry.apportion_table` of ``parcels`` against ``territory``."""
        return apportion_table(parcels, territory, sliver_tolerance=sliver_tolerance)


@contextmanager
def open_engine(
    name: str = "local", *, scheduler: str | None = None, workers: int | None = None
) -> Iterator[FractionEngine]:
    """The engine called ``name``, open for the duration of the ``with`` block.

    Parameters
    ----------
    name
        ``"local"`` (in process) or ``"dask"``.
    scheduler
        For ``"dask"``: the address of a running dask.distributed scheduler
        (``tcp://host:8786``). Without one a local cluster of ``workers``
        processes is started for the block and closed after it.
    workers
        Worker processes of the local cluster (default: the CPU count).
    """
    if name == "local":
        yield LocalEngine()
        return
    if name != "dask":
        raise ValueError(f"unknown engine {name!r}; expected one of {', '.join(ENGINES)}")
    from pipeline.engines.distributed import dask_engine

    with dask_engine(scheduler=scheduler, workers=workers) as engine:
        yield engine
