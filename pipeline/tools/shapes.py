"""Repairing invalid polygons, one way everywhere."""

from __future__ import annotations

from typing import Any

import shapely


def made_valid(geoms: Any) -> Any:
    """``shapely.make_valid`` with GEOS' "structure" method (scalar or array).

    Notes
    -----
    The "structure" method rebuilds the area a polygon's rings describe:
    shells are unioned and holes subtracted. A hole that touches its shell (a
    notch drawn as a hole, invalid as written) stays a hole, where the default
    "linework" method fills it in and the area grows by the hole's. A
    self-intersecting ring (bow-tie) becomes the polygons its lobes enclose,
    as with "linework". Collapsed pieces (spikes, zero-area rings) are
    dropped: only area counts here.
    """
    return shapely.make_valid(geoms, method="structure", keep_collapsed=False)
