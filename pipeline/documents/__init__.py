"""The filing package: certifications, schedules, exhibits, map, review report.

:func:`write_filing_package` writes every document of § 2-202.1 into the
results folder. The documents only present figures the core computed
(``evaluation.summary`` and the schedules); the metes-and-bounds description is
computed by :mod:`pipeline.geometry.metes`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipeline.evaluate import Evaluation
    from pipeline.model import PetitionInputs

__all__ = ["write_filing_package"]


def write_filing_package(
    directory: Path,
    inputs: PetitionInputs,
    evaluation: Evaluation,
    *,
    meanwhile: Callable[[], dict[str, Path]] | None = None,
) -> dict[str, Path]:
    """Write the filing package into ``directory``; return the files by name.

    Parameters
    ----------
    directory
        The (temporary) results folder; only files inside it are written.
    inputs
        The loaded petition (geometries for the map and the description).
    evaluation
        The evaluation whose figures the documents present.
    meanwhile
        More writing for this process while a forked child writes the
        exhibits (:mod:`pipeline.tools.processes`); ``petition run`` passes the
        writing of its result files. Its files come first in the result.

    Returns
    -------
    dict of str to Path
        Every file written, by file name (``meanwhile``'s first, then the
        certifications, schedules, exhibits and the review report).
    """
    from pipeline.documents._common import county_of_swis
    from pipeline.documents.certification import write_certifications
    from pipeline.documents.report import render_report, write_report
    from pipeline.documents.schedules import write_schedules
    from pipeline.tools.processes import fork_call

    summary = evaluation.summary
    when = inputs.filed_on if isinstance(inputs.filed_on, dt.date) else dt.date(2000, 1, 1)
    counties = {t.swis: t.county or county_of_swis(t.swis) for t in inputs.towns}
    # the exhibits (inhabitants, description, map) in a child process, the rest
    # here: the same bytes either way, each document depends only on its inputs
    drawn = fork_call(
        lambda: _exhibits(directory, inputs, counties=counties, when=when, evaluation=evaluation)
    )
    try:
        first = meanwhile() if meanwhile is not None else {}
        certifications = write_certifications(
            directory,
            summary,
            evaluation.parcels,
            counties=counties,
            signatures=evaluation.signatures,
        )
        schedules = write_schedules(
            directory,
            parcels=evaluation.parcels,
            signatures=evaluation.signatures,
            when=when,
            several_towns=len((summary.get("territory") or {}).get("towns") or []) > 1,
        )
    except BaseException:
        drawn.cancel()
        raise
    exhibits, closure_ft = drawn.result()
    package: dict[str, Path] = {**certifications, **schedules, **exhibits}
    report = render_report(
        summary,
        evaluation.parcels,
        evaluation.signatures,
        map_png=package["map.png"].read_bytes(),
        files=[*package, "review-report.html"],  # the package's documents
        description_closure_ft=closure_ft,
    )
    package["review-report.html"] = write_report(directory / "review-report.html", report)
    return {**first, **package}


def _exhibits(
    directory: Path,
    inputs: PetitionInputs,
    *,
    counties: dict[str, str | None],
    when: dt.date,
    evaluation: Evaluation,
) -> tuple[dict[str, Path], float | None]:
    """Write the exhibits: inhabitants, description (§ 2-202.1.a(1)) and map.

    Returns the files by name (in that order, as the report lists them) and
    the description's largest closure error in feet (None when the territory
    could not be described).
    """
    from pipeline.documents.exhibits import place_words, write_description, write_inhabitants
    from pipeline.documents.mapping import write_map
    from pipeline.geometry.metes import MetesAndBounds, describe_territory

    # the towns the territory reaches (a listed town it misses is no part of
    # the place), and the State Plane zone of the town holding most of it
    summary = evaluation.summary
    reached = {str(t["swis"]) for t in (summary.get("territory") or {}).get("towns", [])}
    towns = [t for t in inputs.towns if t.swis in reached] or list(inputs.towns)
    main = str((summary.get("filing") or {}).get("original_with") or "")
    zone_swis = main if main in reached else (towns[0].swis if towns else None)
    place = place_words([(t.name, counties.get(t.swis)) for t in towns])
    description: MetesAndBounds | None = None
    problem = ""
    try:
        description = describe_territory(
            inputs.territory,
            working_crs=inputs.working_crs,
            swis=zone_swis,
            name=inputs.name,
            place=place,
        )
    except ValueError as exc:
        problem = str(exc)
    streets = None
    if inputs.streets is not None and description is not None:
        from pipeline.geometry.streets import describe_streets

        streets = describe_streets(
            inputs.territory,
            inputs.streets,
            working_crs=inputs.working_crs,
            crs=description.crs,
            name=inputs.name,
            place=place,
        )
    files = write_inhabitants(directory, evaluation.inhabitants, evaluation.summary, when=when)
    regime = str(summary.get("regime", ""))
    files |= write_description(
        directory, description, when=when, problem=problem, streets=streets, regime=regime
    )
    files |= write_map(
        directory,
        territory=inputs.territory,
        crs=inputs.working_crs,
        parcels=inputs.parcels,
        schedule=evaluation.parcels,
        towns=[(t.swis, t.name, t.boundary) for t in inputs.towns],
        title=f"Proposed {inputs.name}",
        streets=inputs.streets,
        parts=[str(t["swis"]) for t in evaluation.summary["territory"]["towns"]],
        regime=regime,
    )
    return files, description.max_closure_ft if description else None
