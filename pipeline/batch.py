"""``petition batch``: many territories against the same rolls, each roll loaded once.

The territories come from several configs, from boundary alternatives (a
folder of territory files, or one layer of several features), or both (every
config with every alternative). Configs that differ only in their territory,
name and output folder share one load: their inputs (rolls, parcel layers,
signatures, voters…) are read once by :func:`pipeline.io.load.load_inputs`
into a :class:`pipeline.scenario.Scenario`, and every other territory of the
group is a :meth:`~pipeline.scenario.Scenario.with_boundary` of it (only the
parcels meeting the change are re-apportioned).

Results, side by side: ``batch.csv`` (one row per headline figure of
:func:`pipeline.scenario.metrics`, one column per territory) and
``batch.json`` (every territory's full ``summary.json`` object, with where it
came from), written atomically into the output folder.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from shapely.geometry.base import BaseGeometry

from pipeline.config import PetitionConfig, load_config
from pipeline.engines import open_engine
from pipeline.errors import TERRITORY_LABEL, InputError, is_town_boundary_label
from pipeline.geometry import union_territory
from pipeline.io import read_boundary
from pipeline.io.history import read_alternatives
from pipeline.io.load import choose_working_crs, load_inputs
from pipeline.io.results import atomic_output_dir, write_csv, write_json
from pipeline.scenario import Scenario, metrics

__all__ = ["BatchResult", "BatchRow", "run_batch", "write_batch"]

Progress = Callable[[str], None]


def _noop(_: str) -> None:
    return None


@dataclass(frozen=True)
class BatchRow:
    """One territory of a batch and its summary."""

    name: str
    config: Path
    boundary: str  # the config's territory file, or the alternative's file / feature
    summary: dict[str, Any]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class BatchResult:
    """Every territory of a batch; ``loads`` counts the times the inputs were read."""

    rows: tuple[BatchRow, ...]
    loads: int

    def table(self) -> pd.DataFrame:
        """Headline figures side by side: index the figure, one column per territory.

        Each column starts with what it was computed under: the petition's
        name and filing date, the regime (rules § 8), and each town's roll
        year and equalization rate, so that columns of several filing dates or
        roll years can be told apart; then :func:`pipeline.scenario.metrics`.
        """
        cols = [
            pd.concat([_computed_under(r.summary), metrics(r.summary, name=r.name)]).rename(r.name)
            for r in self.rows
        ]
        table: pd.DataFrame = pd.concat(cols, axis=1)
        return table


def _computed_under(summary: dict[str, Any]) -> pd.Series:
    """The petition, filing date, regime and each town's roll year and rate of a summary."""
    petition = summary.get("petition") or {}
    out: dict[str, Any] = {
        "petition: name": petition.get("name"),
        "petition: filed on": petition.get("filed_on"),
        "regime": summary.get("regime"),
        # the roll field every value of the column is read from
        "value basis": (summary.get("owner_test") or {}).get("value_basis_column"),
    }
    for roll in summary.get("rolls") or []:
        out[f"roll, town {roll['swis']}: roll year"] = roll.get("roll_year")
        out[f"roll, town {roll['swis']}: equalization rate"] = roll.get("equalization_rate")
    return pd.Series(out, dtype=object)


def _share_key(config: PetitionConfig, working_crs: str) -> str:
    """What must be equal for two configs to share one load (all but the boundary).

    The rest of ``[territory]`` (villages, district and the coterminous claim,
    streets, crs) is read with the inputs and shapes the tests: configs that
    differ in it are loaded apart.
    """
    data = config.resolved()
    data["territory"] = {k: v for k, v in data["territory"].items() if k != "boundary"}
    data.pop("output", None)
    data["petition"] = {k: v for k, v in data["petition"].items() if k != "name"}
    if config.source is not None:
        data["_base"] = config.source.parent.as_posix()
    data["_crs"] = working_crs
    return json.dumps(data, sort_keys=True, default=str)


def _unique(name: str, taken: set[str]) -> str:
    out, i = name, 2
    while out in taken:
        out, i = f"{name} ({i})", i + 1
    taken.add(out)
    return out


def _with_name(summary: dict[str, Any], name: str) -> dict[str, Any]:
    out = dict(summary)
    out["petition"] = {**summary["petition"], "name": name}
    return out


def run_batch(
    configs: Sequence[str | Path],
    *,
    alternatives: str | Path | None = None,
    name_field: str | None = None,
    roll_year: int | None = None,
    progress: Progress = _noop,
    engine: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
) -> BatchResult:
    """Evaluate many territories against the same rolls.

    Parameters
    ----------
    configs
        One or more petition configs.
    alternatives
        Boundary alternatives (see :func:`pipeline.io.history.read_alternatives`);
        each config is evaluated with each alternative instead of its own
        territory. ``None``: each config with its own territory.
    name_field
        Field naming the features of a one-layer ``alternatives``.
    roll_year
        Force the roll year of every town (as ``petition run --roll-year``).
    engine, scheduler, workers
        Where each load's full apportionment runs
        (:func:`pipeline.engines.open_engine`); the same results on every engine.

    Returns
    -------
    BatchResult
        One row per territory, in the order given.

    Raises
    ------
    InputError
        Any bad input (config, roll, boundary, alternative).

    Notes
    -----
    Configs whose resolved contents are equal except ``[territory]``,
    ``[output]`` and the petition's name, and whose territories choose the
    same working CRS, share one load. Alternatives are read in the working
    CRS of their config's own territory. A scenario's summary is that of
    :func:`pipeline.evaluate.evaluate` on the same inputs with the territory
    swapped (see :mod:`pipeline.scenario`).
    """
    if not configs:
        raise InputError(None, "give at least one config")
    loaded = [load_config(c) for c in configs]
    with open_engine(engine, scheduler=scheduler, workers=workers) as fractions_engine:
        groups: dict[str, Scenario] = {}
        rows: list[BatchRow] = []
        taken: set[str] = set()
        loads = 0

        def scenario_for(config: PetitionConfig, working_crs: str) -> tuple[Scenario, bool]:
            nonlocal loads
            key = _share_key(config, working_crs)
            if key in groups:
                return groups[key], False
            progress(f"Reading the inputs of {config.source}")
            inputs = load_inputs(config, progress=progress, roll_year=roll_year)
            loads += 1
            groups[key] = Scenario.from_inputs(
                inputs, policy=config.policy, engine=fractions_engine
            )
            return groups[key], True

        def evaluate_row(
            scenario: Scenario,
            territory: BaseGeometry,
            *,
            name: str,
            summary_name: str,
            source: Path,
            boundary: str,
            notes: Sequence[str],
            where: tuple[Path, int | None] | None = None,
        ) -> None:
            progress(f"Evaluating {name}")
            file, feature = where if where is not None else (Path(boundary), None)
            if not scenario.meets_a_parcel(territory):
                raise InputError(
                    file,
                    f"alternative {name!r}: the territory overlaps no parcel of the towns listed "
                    "(most often a wrong CRS)",
                    feature=feature,
                )
            try:
                summary = scenario.with_boundary(territory, name=name).results()
            except InputError as exc:
                if where is None:
                    if len(loaded) < 2:
                        raise
                    # several configs: which one met the problem
                    raise _reached(exc, f"config {source.name}") from None
                if not (exc.file == TERRITORY_LABEL or is_town_boundary_label(exc.file)):
                    # an input the alternative reaches (a parcel of a town not
                    # listed, a rate): named where it is, and which alternative
                    # reached it
                    at = f"{file.name}, feature {feature}" if feature is not None else file.name
                    raise _reached(exc, f"alternative {name!r}, {at}") from None
                # a problem of this territory (or of how it meets the town
                # polygons): name the alternatives file and feature
                about = "" if exc.file == TERRITORY_LABEL else f" ({exc.file})"
                raise InputError(
                    file, f"alternative {name!r}: {exc.problem}{about}", feature=feature
                ) from None
            # the repairs of this boundary, as the run reports its own
            warnings = list(summary.get("warnings", []))
            summary["warnings"] = [*(n for n in notes if n not in warnings), *warnings]
            rows.append(
                BatchRow(
                    name=name,
                    config=source,
                    boundary=boundary,
                    summary=_with_name(summary, summary_name),
                    notes=tuple(notes),
                )
            )

        config_labels = _config_labels([c.source or Path(configs[0]) for c in loaded])
        # configs of one petition name are all labelled by their file
        names = [c.petition.name for c in loaded]
        for config in loaded:
            source = config.source or Path(configs[0])
            working_crs = choose_working_crs(config)
            scenario, fresh = scenario_for(config, working_crs)
            if alternatives is None:
                if fresh:
                    territory, notes = scenario.territory, list(scenario.inputs.notes)
                else:
                    layer, notes = read_boundary(
                        config.territory.boundary,
                        crs=config.territory.crs,
                        working_crs=working_crs,
                        what="territory",
                    )
                    try:
                        # features named as the file counts them, from 1 (as the run)
                        features = layer.geometry.set_axis(range(1, len(layer) + 1))
                        territory, more = union_territory(features)
                    except ValueError as exc:
                        raise InputError(config.territory.boundary, str(exc)) from None
                    notes = notes + more
                # the petition's own name in its summary; the column's label tells
                # configs of one name apart by their file, not by a number
                label = config.petition.name
                if names.count(label) > 1:
                    label = f"{label} [{config_labels[source]}]"
                evaluate_row(
                    scenario,
                    territory,
                    name=_unique(label, taken),
                    summary_name=config.petition.name,
                    source=source,
                    boundary=config.territory.boundary.as_posix(),
                    notes=notes,
                )
                continue
            alts = read_alternatives(
                alternatives,
                crs=config.territory.crs,
                working_crs=working_crs,
                name_field=name_field,
            )
            if not alts:
                raise InputError(alternatives, "no alternative found")
            alt_path = Path(alternatives)
            for k, (label, territory, notes) in enumerate(alts):
                place: tuple[Path, int | None] = (
                    (_alternative_file(alt_path, label), None)
                    if alt_path.is_dir()
                    else (alt_path, k + 1)
                )
                evaluate_row(
                    scenario,
                    territory,
                    name=_unique(
                        label if len(loaded) == 1 else f"{config_labels[source]}: {label}", taken
                    ),
                    summary_name=config.petition.name,
                    source=source,
                    boundary=f"{Path(alternatives).as_posix()} [{label}]",
                    notes=notes,
                    where=place,
                )
        return BatchResult(rows=tuple(rows), loads=loads)


def _config_labels(sources: Sequence[Path]) -> dict[Path, str]:
    """A short label per config file: its stem, with its folder where stems repeat."""
    stems = [p.stem for p in sources]
    out: dict[Path, str] = {}
    for p in sources:
        if stems.count(p.stem) == 1:
            out[p] = p.stem
        else:
            parent = p.resolve().parent.name
            out[p] = f"{parent}/{p.stem}" if parent else p.as_posix()
    return out


def _reached(exc: InputError, by: str) -> InputError:
    """``exc`` where it is, saying what reached it (an alternative, a config)."""
    return InputError(
        exc.file,
        f"{exc.problem} (reached by {by})",
        row=exc.row,
        feature=exc.feature,
        column=exc.column,
    )


def _alternative_file(folder: Path, label: str) -> Path:
    """The file of a folder of alternatives that holds the one named ``label``."""
    for f in sorted(folder.iterdir()):
        if f.stem == label:
            return f
    return folder


def write_batch(out: str | Path, result: BatchResult) -> dict[str, Path]:
    """Write ``batch.csv`` and ``batch.json`` into ``out`` (atomically); return them."""
    target = Path(out)
    table = result.table()
    table.index.name = "metric"
    with atomic_output_dir(target, marker="batch.json") as tmp:
        write_csv(tmp / "batch.csv", table.reset_index())
        write_json(
            tmp / "batch.json",
            {
                "loads": result.loads,
                "territories": [
                    {
                        "name": r.name,
                        "config": r.config.as_posix(),
                        "boundary": r.boundary,
                        "notes": list(r.notes),
                        "summary": r.summary,
                    }
                    for r in result.rows
                ],
            },
        )
    return {"batch.csv": target / "batch.csv", "batch.json": target / "batch.json"}
