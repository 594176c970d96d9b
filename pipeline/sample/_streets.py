"""The road network: a curved, jittered mesh of main roads and their names.

The mesh is ``(nc + 1) x (nr + 1)`` road intersections; the vertical line ``i``
and the horizontal line ``j`` are roads. Lines bend (a sine of random phase and
wavelength per line) and every intersection is jittered, so blocks are
irregular quadrilaterals, never a regular grid. Town lines follow vertical
roads, so that no block, hence no lot, crosses a town line.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.sample import _lexicon as lx


@dataclass(frozen=True)
class Mesh:
    """Road intersections and names.

    Attributes
    ----------
    x, y
        Intersection coordinates, shape ``(nc + 1, nr + 1)`` (feet, EPSG:2260).
    cols_per_town
        Number of mesh columns per town; town ``k`` spans columns
        ``k * cols_per_town`` to ``(k + 1) * cols_per_town``.
    spacing
        Nominal road spacing (feet).
    h_names, v_names
        ``(street, suffix)`` of every horizontal and vertical road.
    """

    x: np.ndarray
    y: np.ndarray
    cols_per_town: int
    spacing: float
    h_names: list[tuple[str, str]]
    v_names: list[tuple[str, str]]


def road_names(n: int, rng: np.random.Generator) -> list[tuple[str, str]]:
    """``n`` distinct main-road names ``(street, suffix)``; a few numbered routes."""
    stems = list(lx.ROAD_STEMS)
    pool = [(s, suf) for s in stems for suf in ("Rd", "St", "Ave", "Tpke")]
    order = rng.permutation(len(pool))
    names = [pool[k] for k in order]
    routes = [
        ("State Route 9", ""),
        ("State Route 9H", ""),
        ("County Route 21", ""),
        ("Old Post", "Rd"),
        ("County Route 28", ""),
    ]
    out: list[tuple[str, str]] = []
    for k in range(n):
        if k % 7 == 3 and routes:
            out.append(routes.pop(0))
        elif names:
            out.append(names.pop())
        else:
            out.append((f"County Route {100 + k}", ""))
    return out


def build_mesh(
    *,
    width: float,
    height: float,
    towns: int,
    spacing: float,
    x0: float,
    y0: float,
    rng: np.random.Generator,
) -> Mesh:
    """Build the road mesh for ``towns`` towns side by side, each ``width`` by ``height`` feet.

    Notes
    -----
    With nominal spacing ``s``: base line positions are ``k s`` plus a jitter of
    at most ``0.1 s``; each line bends by at most ``0.15 s``; each intersection
    moves by at most ``0.05 s``. Two neighbouring lines thus stay at least
    ``s (1 - 2 (0.1 + 0.15 + 0.05)) = 0.4 s`` apart: blocks never fold.
    """
    cpt = max(2, round(width / spacing))
    nc = cpt * towns
    nr = max(2, round(height / spacing))
    sx = width / cpt
    sy = height / nr
    xb = x0 + np.arange(nc + 1) * sx
    yb = y0 + np.arange(nr + 1) * sy
    xb[1:-1] += rng.uniform(-0.1, 0.1, nc - 1) * sx
    yb[1:-1] += rng.uniform(-0.1, 0.1, nr - 1) * sy
    # Town lines and the outer edge stay straight-ish survey lines (no jitter at
    # the ends), interior roads bend.
    amp_v = rng.uniform(0.0, 0.15, nc + 1) * sx
    amp_v[::cpt] *= 0.3
    wav_v = rng.uniform(2.0, 6.0, nc + 1) * height / 3.0
    ph_v = rng.uniform(0, 2 * np.pi, nc + 1)
    amp_h = rng.uniform(0.0, 0.15, nr + 1) * sy
    amp_h[[0, -1]] = 0.0
    wav_h = rng.uniform(2.0, 6.0, nr + 1) * width * towns / 3.0
    ph_h = rng.uniform(0, 2 * np.pi, nr + 1)
    gx, gy = np.meshgrid(xb, yb, indexing="ij")
    x = gx + amp_v[:, None] * np.sin(2 * np.pi * (gy - y0) / wav_v[:, None] + ph_v[:, None])
    y = gy + amp_h[None, :] * np.sin(2 * np.pi * (gx - x0) / wav_h[None, :] + ph_h[None, :])
    x = x + rng.uniform(-0.05, 0.05, x.shape) * sx
    y = y + rng.uniform(-0.05, 0.05, y.shape) * sy
    # Keep the outer boundary exactly on the edges of the study area.
    x[0, :], x[-1, :] = xb[0], xb[-1]
    y[:, 0], y[:, -1] = yb[0], yb[-1]
    names = road_names(nc + nr + 2, rng)
    return Mesh(
        x=x,
        y=y,
        cols_per_town=cpt,
        spacing=float(spacing),
        h_names=names[: nr + 1],
        v_names=names[nr + 1 :],
    )


def lane_names(n: int, rng: np.random.Generator) -> list[tuple[str, str]]:
    """``n`` local-street names ``(street, suffix)``, distinct while the pool lasts."""
    pool = [
        (f"{q}{p} {w}", s)
        for q in lx.LANE_QUALIFIERS
        for p in lx.LANE_PREFIXES
        for w in lx.LANE_NOUNS
        for s in lx.LANE_SUFFIXES
    ]
    first = len(lx.LANE_PREFIXES) * len(lx.LANE_NOUNS) * len(lx.LANE_SUFFIXES)
    # Unqualified names first: most towns never need the "North ..." forms.
    head = rng.permutation(first)
    idx = head if n <= first else np.concatenate([head, first + rng.permutation(len(pool) - first)])
    return [pool[idx[k % len(idx)]] for k in range(n)]
