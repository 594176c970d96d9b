"""Blocks, lots, towns, the existing village and the proposed territory.

Every block of the road mesh (inset from the road centre lines to leave a
right of way) is cut into rows of lots by a bilinear map of the block: lots of
one row share their side lines, rows share their back lines, so lots never
overlap. Lot counts per block follow a density that peaks at hamlet centres
(small lots) and falls off to large rural parcels; frontages are random
(gamma weights), depths vary by row. Pairs of rows back onto each other and
are separated by a local street (a lane) in dense blocks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import shapely

from pipeline.sample import _streets
from pipeline.sample._streets import Mesh

ACRE = 43_560.0
SQMI = 27_878_400.0
X0, Y0 = 700_000.0, 1_300_000.0
ROAD_HALF_WIDTH = 25.0
LANE_WIDTH = 50.0


@dataclass(frozen=True)
class Layout:
    """The geometry of a sample: towns, village, territory and lots.

    ``lots`` has one row per lot: ``town`` (index), ``village`` (bool),
    ``street``, ``suff``, ``number`` (house number), ``area`` (sq ft),
    ``urban`` (0..1, 1 at a hamlet centre), ``print_key``, and ``geometry``
    (a shapely array aligned with the rows, in :attr:`polygons`).
    """

    mesh: Mesh
    towns: list[shapely.Polygon]
    village: shapely.Geometry
    village_town: int
    territory: shapely.Geometry
    lots: pd.DataFrame
    polygons: np.ndarray


def _allocate(total: int, weights: np.ndarray) -> np.ndarray:
    """Integers >= 1 summing to ``total``, proportional to ``weights`` (largest remainder)."""
    n = len(weights)
    extra = total - n
    if extra < 0:
        raise ValueError("fewer lots than blocks")
    share = weights / weights.sum() * extra
    base = np.floor(share).astype(np.int64)
    rest = extra - int(base.sum())
    order = np.argsort(-(share - base), kind="stable")
    base[order[:rest]] += 1
    return base + 1


def _star(cx: float, cy: float, area: float, rng: np.random.Generator) -> shapely.Polygon:
    """An irregular blob of about ``area`` square feet centred on ``(cx, cy)``."""
    t = np.linspace(0.0, 2 * np.pi, 97)[:-1]
    r = (
        1.0
        + 0.22 * np.sin(2 * t + rng.uniform(0, 6.3))
        + 0.12 * np.sin(3 * t + rng.uniform(0, 6.3))
        + 0.06 * np.sin(5 * t + rng.uniform(0, 6.3))
        + rng.uniform(-0.015, 0.015, t.size)
    )
    poly = shapely.Polygon(np.column_stack([cx + r * np.cos(t), cy + r * np.sin(t)]))
    k = np.sqrt(area / poly.area)
    return shapely.Polygon(np.column_stack([cx + k * r * np.cos(t), cy + k * r * np.sin(t)]))


def _cell_polygons(mesh: Mesh, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    x, y = mesh.x, mesh.y
    ring = np.stack(
        [
            np.stack([x[i, j], y[i, j]], -1),
            np.stack([x[i + 1, j], y[i + 1, j]], -1),
            np.stack([x[i + 1, j + 1], y[i + 1, j + 1]], -1),
            np.stack([x[i, j + 1], y[i, j + 1]], -1),
        ],
        axis=1,
    )
    return shapely.polygons(ring)


def town_polygon(mesh: Mesh, k: int) -> shapely.Polygon:
    """The polygon of town ``k``: bounded by two vertical roads and the outer edge."""
    a, b = k * mesh.cols_per_town, (k + 1) * mesh.cols_per_town
    x, y = mesh.x, mesh.y
    left = np.column_stack([x[a, ::-1], y[a, ::-1]])
    bottom = np.column_stack([x[a:b, 0], y[a:b, 0]])
    right = np.column_stack([x[b, :], y[b, :]])
    top = np.column_stack([x[b:a:-1, -1], y[b:a:-1, -1]])
    return shapely.Polygon(np.concatenate([bottom, right, top, left]))


def build_layout(*, lots: int, towns: int, rng: np.random.Generator) -> Layout:
    """Generate towns, village, territory and exactly ``lots`` lot polygons."""
    # Average parcel area shrinks slowly with size so that huge samples stay compact.
    a_avg = 6.0 * ACRE * (3000.0 / max(lots, 3000)) ** 0.3
    total_area = lots * a_avg
    width = np.sqrt(total_area / towns / 1.2)
    height = 1.2 * width
    spacing = np.sqrt(14.0 * a_avg)
    mesh = _streets.build_mesh(
        width=width, height=height, towns=towns, spacing=spacing, x0=X0, y0=Y0, rng=rng
    )
    nc, nr = mesh.x.shape[0] - 1, mesh.x.shape[1] - 1
    town_polys = [town_polygon(mesh, k) for k in range(towns)]

    # Territory on the first town line (or in the middle of a single town).
    t_area = min(np.clip(1.5 * (lots / 3000.0) ** 0.25, 1.0, 4.0) * SQMI, 0.12 * total_area)
    r_t = np.sqrt(t_area / np.pi)
    cx = float(np.mean(mesh.x[mesh.cols_per_town, :])) if towns > 1 else X0 + 0.6 * width
    cy = Y0 + 0.6 * height
    # Village in the first town, towards its lower-left corner.
    vx, vy = X0 + 0.3 * width, Y0 + 0.22 * height
    r_v = 0.5 * r_t

    # Blocks.
    ii, jj = np.meshgrid(np.arange(nc), np.arange(nr), indexing="ij")
    bi, bj = ii.ravel(), jj.ravel()
    cells = _cell_polygons(mesh, bi, bj)
    cent = shapely.get_coordinates(shapely.centroid(cells))
    block_town = bi // mesh.cols_per_town
    dv = np.hypot(cent[:, 0] - vx, cent[:, 1] - vy)
    in_village = (dv < r_v) & (block_town == 0)
    if not in_village.any():
        in_village[np.argmin(np.where(block_town == 0, dv, np.inf))] = True
    village = shapely.union_all(cells[in_village])

    territory = _star(cx, cy, t_area, rng)
    territory = shapely.intersection(territory, shapely.union_all(town_polys))
    territory = shapely.difference(territory, shapely.buffer(village, mesh.spacing))
    if isinstance(territory, shapely.MultiPolygon):
        territory = max(territory.geoms, key=lambda g: g.area)

    # Hamlet centres: the territory's, the village's and a few more per town.
    n_extra = towns + lots // 20_000
    hx = np.concatenate([[cx, vx], rng.uniform(X0, X0 + towns * width, n_extra)])
    hy = np.concatenate([[cy, vy], rng.uniform(Y0, Y0 + height, n_extra)])
    hs = np.concatenate([[0.7 * r_t, 0.9 * r_v], rng.uniform(0.2, 0.4, n_extra) * r_t])
    urban = np.zeros(len(cells))
    for x_, y_, s_ in zip(hx, hy, hs, strict=True):
        urban = np.maximum(
            urban, np.exp(-(((cent[:, 0] - x_) ** 2 + (cent[:, 1] - y_) ** 2) / s_**2))
        )
    a_min, a_max = 0.3 * ACRE, 25.0 * ACRE
    lot_area = a_max * (a_min / a_max) ** urban
    cell_area = shapely.area(cells)
    n_lots = _allocate(lots, cell_area / lot_area)

    # Inset quads, rotated at random so that rows front either road direction.
    corners = shapely.get_coordinates(shapely.get_exterior_ring(cells)).reshape(-1, 5, 2)[:, :4]
    c0 = corners.mean(axis=1, keepdims=True)
    edge_len = np.linalg.norm(np.roll(corners, -1, axis=1) - corners, axis=2)
    shrink = 1.0 - 2.0 * ROAD_HALF_WIDTH / edge_len.mean(axis=1)
    corners = c0 + (corners - c0) * shrink[:, None, None]
    rot = rng.integers(0, 4, len(cells))
    idx = (rot[:, None] + np.arange(4)[None, :]) % 4
    q = np.take_along_axis(corners, idx[:, :, None], axis=1)
    depth = 0.5 * (
        np.linalg.norm(q[:, 3] - q[:, 0], axis=1) + np.linalg.norm(q[:, 2] - q[:, 1], axis=1)
    )

    # Rows per block.
    per_lot = cell_area / n_lots
    want_depth = np.clip(1.6 * np.sqrt(per_lot), 150.0, None)
    n_rows = np.clip(np.rint(depth / want_depth), 1, 16).astype(np.int64)
    n_rows = np.minimum(n_rows, n_lots)
    n_strips = (n_rows + 1) // 2
    row_block = np.repeat(np.arange(len(cells)), n_rows)
    row_start = np.cumsum(n_rows) - n_rows
    k = np.arange(len(row_block)) - np.repeat(row_start, n_rows)
    p = n_strips[row_block]
    gap = np.where(p > 1, LANE_WIDTH / depth[row_block], 0.0)
    h = (1.0 - (p - 1) * gap) / p
    s = k // 2
    base = s * (h + gap)
    single = (n_rows[row_block] % 2 == 1) & (s == p - 1)
    m = rng.uniform(0.4, 0.6, len(row_block))
    m = m[np.arange(len(row_block)) - (k % 2)]  # the two rows of a strip share their back line
    v0 = np.where(single | (k % 2 == 0), base, base + m * h)
    v1 = np.where(single | (k % 2 == 1), base + h, base + m * h)
    faces_up = (~single) & (k % 2 == 1)
    nb = n_lots[row_block]
    rb = n_rows[row_block]
    lots_in_row = nb // rb + (k < nb % rb)

    # Lots.
    lot_row = np.repeat(np.arange(len(row_block)), lots_in_row)
    w = rng.gamma(3.0, size=len(lot_row))
    cs = np.cumsum(w)
    row_first = np.cumsum(lots_in_row) - lots_in_row
    before = np.concatenate([[0.0], cs])[row_first]
    row_tot = np.add.reduceat(w, row_first)
    cs_row = cs - np.repeat(before, lots_in_row)
    u1 = cs_row / np.repeat(row_tot, lots_in_row)
    u0 = (cs_row - w) / np.repeat(row_tot, lots_in_row)
    lb = row_block[lot_row]
    lv0, lv1 = v0[lot_row], v1[lot_row]
    qb = q[lb]

    def bil(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        uu, vv = u[:, None], v[:, None]
        return (
            (1 - uu) * (1 - vv) * qb[:, 0]
            + uu * (1 - vv) * qb[:, 1]
            + uu * vv * qb[:, 2]
            + (1 - uu) * vv * qb[:, 3]
        )

    ring = np.stack([bil(u0, lv0), bil(u1, lv0), bil(u1, lv1), bil(u0, lv1)], axis=1)
    ring = np.round(ring, 2)
    polys = shapely.polygons(ring)

    # Streets: the block edge a row faces, or the lane between two strips.
    up = faces_up[lot_row]
    ls = s[lot_row]
    lp = n_strips[lb]
    lrot = rot[lb]
    on_edge = np.where(up, ls == lp - 1, ls == 0)
    edge = np.where(up, (lrot + 2) % 4, lrot)  # 0 bottom, 1 right, 2 top, 3 left
    gi, gj = bi[lb], bj[lb]
    line = np.select([edge == 0, edge == 1, edge == 2], [gj, nr + 1 + gi + 1, gj + 1], nr + 1 + gi)
    lane = lb * 8 + np.where(up, ls, ls - 1)
    side = np.where(on_edge, np.isin(edge, (1, 2)), up).astype(np.int64)
    front = np.where(up[:, None], 0.5 * (ring[:, 2] + ring[:, 3]), 0.5 * (ring[:, 0] + ring[:, 1]))
    pos = np.where(lrot % 2 == 0, front[:, 0] - X0, front[:, 1] - Y0)
    ltown = block_town[lb]

    names = mesh.h_names + mesh.v_names
    street = np.empty(len(lb), dtype=object)
    suff = np.empty(len(lb), dtype=object)
    e_idx = np.flatnonzero(on_edge)
    street[e_idx] = [names[t][0] for t in line[e_idx]]
    suff[e_idx] = [names[t][1] for t in line[e_idx]]
    l_idx = np.flatnonzero(~on_edge)
    street_key = np.where(on_edge, line, -1 - lane)
    for t in range(towns):
        sel = l_idx[ltown[l_idx] == t]
        uniq, inv = np.unique(lane[sel], return_inverse=True)
        pool = _streets.lane_names(len(uniq), rng)
        street[sel] = [pool[v][0] for v in inv]
        suff[sel] = [pool[v][1] for v in inv]

    frame = pd.DataFrame(
        {
            "town": ltown,
            "block": lb,
            "street_key": street_key,
            "side": side,
            "pos": pos,
            "street": street.astype(str),
            "suff": suff.astype(str),
        }
    )
    frame = frame.sort_values(["town", "street_key", "side", "pos"], kind="stable")
    rank = frame.groupby(["town", "street_key", "side"], sort=False).cumcount().to_numpy()
    pnum = np.floor(frame["pos"].to_numpy() / 40.0).astype(np.int64)
    grp = frame.groupby(["town", "street_key", "side"], sort=False).ngroup().to_numpy()
    adj = pd.Series(pnum - rank).groupby(grp).cummax().to_numpy() + rank
    number = np.empty(len(frame), dtype=np.int64)
    number[frame.index.to_numpy()] = 2 * adj + 1 + frame["side"].to_numpy()

    # Print keys: tax-map sheets of 3 x 3 blocks; dense blocks get subsections.
    sheets_x = (nc // 3) + 1
    sheet = (gj // 3) * sheets_x + (gi // 3) + 1
    cellno = (gi % 3) + 3 * (gj % 3) + 1
    lot_in_block = np.arange(len(lb)) - np.repeat(np.cumsum(n_lots) - n_lots, n_lots)
    lot_in_row = np.arange(len(lb)) - np.repeat(row_first, lots_in_row)
    dense = n_lots[lb] >= 10
    sub = rng.random(len(lb)) < 0.03
    lotno = np.where(dense, lot_in_row + 1, lot_in_block + 1).astype(str)
    lotno = np.where(sub, np.char.add(lotno, ".1"), lotno)
    sec = (sheet + 10).astype(str)
    pk_dense = np.char.add(
        np.char.add(np.char.add(np.char.add(sec, "."), (10 + cellno).astype(str)), "-"),
        np.char.add(np.char.add((k[lot_row] + 1).astype(str), "-"), lotno),
    )
    pk_rural = np.char.add(
        np.char.add(np.char.add(sec, ".-"), cellno.astype(str)),
        np.char.add("-", lotno),
    )
    print_key = np.where(dense, pk_dense, pk_rural)

    lots_df = pd.DataFrame(
        {
            "town": ltown,
            "village": in_village[lb],
            "street": street.astype(str),
            "suff": suff.astype(str),
            "number": number,
            "area": shapely.area(polys),
            "urban": urban[lb],
            "print_key": print_key.astype(str),
        }
    )
    return Layout(
        mesh=mesh,
        towns=town_polys,
        village=village,
        village_town=0,
        territory=territory,
        lots=lots_df,
        polygons=polys,
    )
