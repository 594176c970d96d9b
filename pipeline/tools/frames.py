"""Small frame helpers that pandas' arrow-backed strings make slow when written naively."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc


def isin(values: Iterable[object], pool: Iterable[object]) -> npt.NDArray[np.bool_]:
    """``values.isin(pool)``, fast for large sets of text keys.

    ``Series.isin`` on pandas' arrow-backed ``str`` dtype walks a Python set
    value by value, and an object ``Index.get_indexer`` rebuilds its hash table
    slowly: at 200,000 keys both take a few hundred milliseconds or more.
    Arrow's ``is_in`` answers in tens of milliseconds; values of mixed types
    fall back to a Python set.

    Returns
    -------
    numpy.ndarray of bool, one per value.
    """
    fast_vals, fast_pool = _arrow_text(values), _arrow_text(pool)
    if fast_vals is not None and fast_pool is not None:
        hit = pc.is_in(fast_vals, value_set=fast_pool)
        return np.asarray(hit.to_numpy(zero_copy_only=False), dtype=bool)
    vals = np.asarray(list(values) if not hasattr(values, "__len__") else values, dtype=object)
    pool_list = list(pool) if isinstance(pool, set | frozenset) else pool
    pool_arr = np.asarray(pool_list, dtype=object)
    try:
        hit = pc.is_in(
            pa.array(vals, type=pa.string()), value_set=pa.array(pool_arr, type=pa.string())
        )
        return np.asarray(hit.to_numpy(zero_copy_only=False), dtype=bool)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        members = set(pool_arr.tolist())
        return np.fromiter((v in members for v in vals.tolist()), dtype=bool, count=len(vals))


def _arrow_text(values: object) -> pa.Array | None:
    """The Arrow array behind a pandas text Series or Index without missing values.

    None for anything else (the general path converts it).
    """
    if not isinstance(values, pd.Series | pd.Index):
        return None
    if not isinstance(values.dtype, pd.StringDtype) or values.dtype.storage != "pyarrow":
        return None
    arr = pa.array(values.array)
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if arr.null_count:
        return None
    return arr
