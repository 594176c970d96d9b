"""Small frame helpers that pandas' arrow-backed strings make slow when written naively."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt
import pandas as pd


def isin(
    values: pd.Series | pd.Index | Iterable[object], pool: Iterable[object]
) -> npt.NDArray[np.bool_]:
    """``values.isin(pool)`` through a hash index.

    ``Series.isin(set_of_strings)`` on pandas' arrow-backed ``str`` dtype walks
    the set in Python (seconds at 200,000 keys); a hash index on object values
    answers in milliseconds.

    Returns
    -------
    numpy.ndarray of bool, one per value.
    """
    pool_arr = np.asarray(list(pool) if isinstance(pool, set | frozenset) else pool, dtype=object)
    index = pd.Index(pd.unique(pool_arr), dtype=object)
    return np.asarray(index.get_indexer(np.asarray(values, dtype=object)) >= 0)
