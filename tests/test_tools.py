"""pipeline.tools: the small frame helpers."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.tools import isin


def test_isin_text_series_through_arrow_equals_python() -> None:
    values = pd.Series(["104400:1.-1-1", "104400:1.-1-2", "104600:2.-1-1", "104400:1.-1-1"])
    pool = pd.Series(["104400:1.-1-1", "104600:2.-1-1", "999999:9"])
    # 1 and 4 are the same key (in the pool), 2 is not, 3 is
    expected = [True, False, True, True]
    assert isin(values, pool).tolist() == expected
    assert isin(values, pd.Index(pool)).tolist() == expected
    assert isin(values.tolist(), set(pool)).tolist() == expected  # the general path


def test_isin_missing_and_mixed_values_take_the_general_path() -> None:
    values = pd.Series(["a", None, "b"], dtype="str")
    # a missing value is in no pool of text
    assert isin(values, pd.Series(["b", "c"])).tolist() == [False, False, True]
    mixed = np.asarray([1, "1", 2.5], dtype=object)
    assert isin(mixed, [1, 2.5]).tolist() == [True, False, True]
