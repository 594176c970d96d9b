"""``petition run``: config → inputs → evaluation → results folder, atomically."""

from __future__ import annotations

import contextlib
import datetime as dt
import re
import unicodedata
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from rich.console import Console

from pipeline.config import PetitionConfig, load_config
from pipeline.documents import write_filing_package
from pipeline.engines import open_engine
from pipeline.errors import InputError
from pipeline.evaluate import Evaluation, evaluate
from pipeline.io.load import load_inputs, resolve_rolls
from pipeline.io.results import (
    atomic_output_dir,
    build_manifest,
    changed_since,
    check_no_input_inside,
    check_results_folder,
    file_stamps,
    input_entries,
    write_csv,
    write_json,
)
from pipeline.model import PetitionInputs


def slug(name: str) -> str:
    """``"Village of Example"`` → ``"village-of-example"``."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "petition"


def output_dir(config: PetitionConfig, out: Path | None) -> Path:
    """The results folder: ``--out``, else ``[output] dir``, else ``data/processed/<slug>``."""
    if out is not None:
        return Path(out)
    if config.output.dir is not None:
        return config.output.dir
    return Path("data/processed") / slug(config.petition.name)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def write_results(
    directory: Path, evaluation: Evaluation, inputs: PetitionInputs | None = None
) -> dict[str, Path]:
    """Write the result files of an evaluation into ``directory``; return them by name.

    With ``inputs``, the filing package (certifications, schedules, exhibits,
    map, review report) is written too.
    """

    def result_files() -> dict[str, Path]:
        files = {
            "summary.json": directory / "summary.json",
            "parcels.csv": directory / "parcels.csv",
            "signatures.csv": directory / "signatures.csv",
            "data_quality.json": directory / "data_quality.json",
        }
        write_json(files["summary.json"], evaluation.summary)
        write_csv(files["parcels.csv"], evaluation.parcels)
        write_csv(files["signatures.csv"], evaluation.signatures)
        write_json(files["data_quality.json"], evaluation.data_quality)
        files["review.csv"] = directory / "review.csv"
        write_csv(files["review.csv"], evaluation.review)
        if evaluation.inhabitants is not None:
            files["inhabitants.csv"] = directory / "inhabitants.csv"
            write_csv(files["inhabitants.csv"], evaluation.inhabitants)
        if evaluation.unplaced_voters is not None:
            files["voters-unplaced.csv"] = directory / "voters-unplaced.csv"
            write_csv(files["voters-unplaced.csv"], evaluation.unplaced_voters)
        return files

    if inputs is None:
        return result_files()
    # the result files are written while a child draws the exhibits
    files = write_filing_package(directory, inputs, evaluation, meanwhile=result_files)
    return files


def _with_roll_year(config: PetitionConfig, roll_year: int | None) -> PetitionConfig:
    """The config with every town's ``roll_year`` forced (as ``--roll-year`` does)."""
    if roll_year is None:
        return config
    towns = tuple(t.model_copy(update={"roll_year": roll_year}) for t in config.towns)
    return config.model_copy(update={"towns": towns})


class _Steps:
    """Progress where no status line can be redrawn (a log, a CI job): one line a step."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self._last = ""

    def update(self, message: str) -> None:
        if message != self._last:
            self._last = message
            self._console.print(message, markup=False, highlight=False)


@contextlib.contextmanager
def progress_of(console: Console, first: str) -> Iterator[Any]:
    """The progress of a run on ``console`` (stderr): ``.update(message)`` per step.

    On a terminal, rich's status line, redrawn in place; elsewhere (stderr
    redirected to a log) each step printed once, as its own line.
    """
    if console.is_terminal or console.quiet:
        with console.status(first) as status:
            yield status
        return
    steps = _Steps(console)
    steps.update(first)
    yield steps


def run_petition(
    config_path: str | Path,
    *,
    out: Path | None = None,
    console: Console | None = None,
    roll_year: int | None = None,
    engine: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
) -> Path:
    """Run the whole pipeline on a config; return the results folder.

    ``roll_year``, when given, forces the roll year of every town (``petition
    run --roll-year``); the manifest records it under ``options`` and in the
    resolved config, so that ``petition verify`` re-runs the same way.

    ``engine`` (``"local"`` or ``"dask"``), ``scheduler`` and ``workers``
    choose where the apportionment runs (:func:`pipeline.engines.open_engine`);
    every engine gives the same bytes, so verify re-runs in process.

    Raises
    ------
    InputError
        Bad input: nothing is written and an existing results folder is left
        as it was.
    """
    console = console or Console(stderr=True)
    started = _now()
    config = load_config(config_path)
    target = output_dir(config, out)
    check_results_folder(target)  # before the work: a folder it may not replace
    files = config.input_files() | {"config": config.source or Path(config_path)}
    check_no_input_inside(target, files)
    rolls = resolve_rolls(config, roll_year=roll_year)
    base = (config.source or Path(config_path)).parent
    # the inputs are hashed as the run reads them (in a thread: hashing releases
    # the GIL), and their sizes and times taken first, so that a file written
    # meanwhile is found at the end rather than hashed as if it had been read
    stamps = file_stamps(files.values())
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="hash-inputs") as pool:
        hashing = pool.submit(input_entries, files, base, rolls)
        with progress_of(console, "Reading the inputs…") as status:
            inputs = load_inputs(
                config, progress=lambda msg: status.update(msg + "…"), roll_year=roll_year
            )
            status.update("Apportioning parcels and computing the tests…")
            with open_engine(engine, scheduler=scheduler, workers=workers) as fractions_engine:
                evaluation = evaluate(inputs, policy=config.policy, engine=fractions_engine)
            status.update("Writing the results…")
            with atomic_output_dir(target) as tmp:
                outputs = write_results(tmp, evaluation, inputs)
                entries = hashing.result()
                moved = changed_since(stamps)
                if moved is not None:
                    raise InputError(
                        moved,
                        "the file changed while the run was reading it: its results would not "
                        "be those of the file as it is now; run again",
                    )
                manifest = build_manifest(
                    inputs=files,
                    base=base,
                    config=_with_roll_year(config, roll_year).resolved(),
                    regime=inputs.regime,
                    started=started,
                    finished=_now(),
                    outputs=outputs,
                    rolls=rolls,
                    entries=entries,
                )
                manifest["options"] = {
                    "roll_year": roll_year,
                    "engine": engine,
                    "out": target.resolve().as_posix(),
                }
                manifest["config_file"] = (config.source or Path(config_path)).resolve().as_posix()
                # the roll year each town's records are of, and its rate, whatever
                # the roll input was (one file, a folder, a list)
                manifest["rolls"] = [
                    {
                        "swis": t.swis,
                        "roll_year": t.roll_year,
                        "equalization_rate": t.equalization_rate,
                        "rate_source": t.rate_source,
                    }
                    for t in inputs.towns
                ]
                write_json(tmp / "manifest.json", manifest)
    for w in evaluation.warnings:
        console.print(f"warning: {w}", markup=False, highlight=False)
    return target
