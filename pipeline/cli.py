"""The ``petition`` command: parses arguments, calls the library, maps bad input to exit 2.

Exit codes (contract): 0 the run finished, whatever the verdict; 2 bad input,
one message on stderr naming the file, the place, the column and the problem;
1 anything else (a bug), with the traceback.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pipeline.errors import InputError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Prepare and check a petition to incorporate a village in New York (Village Law § 2-202).",
)
_err = Console(stderr=True, highlight=False, soft_wrap=True)


#: ``--engine``, ``--scheduler``, ``--workers`` of ``run`` and ``batch``.
EngineOption = Annotated[
    str,
    typer.Option(
        "--engine",
        help="Where parcels are apportioned: local (in process) or dask "
        "(dask.distributed; same results).",
    ),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="With --engine dask: address of a running scheduler (tcp://host:8786); "
        "default: a local cluster for the run.",
    ),
]
WorkersOption = Annotated[
    int | None,
    typer.Option("--workers", help="With --engine dask: workers of the local cluster.", min=1),
]


def _input_error(exc: InputError) -> None:
    _err.print(f"error: {exc.message}", markup=False)
    raise typer.Exit(code=2)


def _check_engine(engine: str) -> None:
    from pipeline.engines import ENGINES

    if engine not in ENGINES:
        raise InputError(None, f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}")


@app.command()
def run(
    config: Annotated[
        Path, typer.Argument(help="The petition's config file (TOML).", readable=False)
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Results folder (default: the config's [output] dir, else "
            "data/processed/<petition name> under the current folder).",
        ),
    ] = None,
    roll_year: Annotated[
        int | None,
        typer.Option(
            "--roll-year",
            help="Force the roll year of every town (default: the last roll completed "
            "as of filed_on, or the town's roll_year key).",
        ),
    ] = None,
    engine: EngineOption = "local",
    scheduler: SchedulerOption = None,
    workers: WorkersOption = None,
) -> None:
    """Run the whole pipeline and write the results folder."""
    import warnings

    from pipeline.run import run_petition

    try:
        _check_engine(engine)
        # numeric RuntimeWarnings of shapely/numpy on bad geometry (NaN areas,
        # invalid values) are not for the user: what matters is reported as a
        # warning of the run or as one line of bad input
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            result_dir = run_petition(
                config,
                out=out,
                console=_err,
                roll_year=roll_year,
                engine=engine,
                scheduler=scheduler,
                workers=workers,
            )
    except InputError as exc:
        _input_error(exc)
        return
    except PermissionError as exc:
        # a file or folder of the petition this user may not read (or a results
        # folder it may not write): one line, as any bad input
        _input_error(InputError(exc.filename, f"permission denied ({exc.strerror})"))
        return
    _err.print(f"Results written to {result_dir}", markup=False)


@app.command()
def sample(
    directory: Annotated[Path, typer.Argument(help="Folder to write the sample petition into.")],
    parcels: Annotated[
        int,
        typer.Option(
            help="Roll records in all towns: at least 66 a town (132 for the default 2).",
            min=1,
        ),
    ] = 3000,
    towns: Annotated[int, typer.Option(help="Number of towns.", min=1, max=9)] = 2,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same bytes).")] = 1,
    years: Annotated[
        int,
        typer.Option(
            help="Roll years: 2 also writes the next year's rolls and parcel layer and "
            "petition-next-year.toml (for petition diff); 1 leaves them out.",
            min=1,
            max=2,
        ),
    ] = 2,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Replace files in DIR that differ from the sample's (a petition)."
        ),
    ] = False,
) -> None:
    """Write a complete, realistic sample petition (config and every input), next year's
    rolls and boundary alternatives (alternatives.geojson) to try diff and batch.

    DIR may be new or hold a sample already: a file the sample would replace with
    other bytes (a petition of your own) is left alone and the command stops (exit
    2), unless --force."""
    from pipeline.sample import generate_sample, min_parcels

    if parcels < min_parcels(towns):
        _input_error(
            InputError(
                directory,
                f"--parcels {parcels} is too few for {towns} town(s): at least "
                f"{min_parcels(towns)}",
            )
        )
    if directory.exists() and not directory.is_dir():
        _input_error(InputError(directory, "is a file: the sample needs a folder"))
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}.sample-", dir=directory.parent))
    try:
        with _err.status("Generating the sample petition…"):
            generate_sample(staging, parcels=parcels, towns=towns, seed=seed, years=years)
        made = sorted(p.relative_to(staging) for p in staging.rglob("*") if p.is_file())
        clash = [
            rel
            for rel in made
            if (directory / rel).exists()
            and (
                not (directory / rel).is_file()
                or (directory / rel).read_bytes() != (staging / rel).read_bytes()
            )
        ]
        if clash and not force:
            _input_error(
                InputError(
                    directory / clash[0],
                    f"exists and is not the sample's ({len(clash)} file(s) would be "
                    "replaced): choose a new folder, or give --force to replace them",
                )
            )
        for rel in made:
            (directory / rel).parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / rel, directory / rel)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    config = directory / "petition.toml"
    _err.print(f"Sample petition written: {config}", markup=False)
    if years == 2:
        _err.print(
            f"Next year's petition: {config.with_name('petition-next-year.toml')}", markup=False
        )
    _err.print(f"Boundary alternatives: {config.with_name('alternatives.geojson')}", markup=False)


@app.command()
def diff(
    results_a: Annotated[Path, typer.Argument(help="The earlier results folder.")],
    results_b: Annotated[Path, typer.Argument(help="The later results folder.")],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help="CSV of every change (default: diff-<A>-<B>.csv beside RESULTS_B)."
        ),
    ] = None,
) -> None:
    """What changed between two runs: parcels added, removed, split or merged, owners,
    values and rates, and each test before and after. Prints a report; writes a CSV."""
    from pipeline.diff import diff_results
    from pipeline.io.history import read_results
    from pipeline.io.results import write_csv

    try:
        a = read_results(results_a)
        b = read_results(results_b)
    except InputError as exc:
        _input_error(exc)
        return
    if a.name == b.name:
        a = dataclasses.replace(a, name=str(results_a))
        b = dataclasses.replace(b, name=str(results_b))
    result = diff_results(a, b)
    # the names may be paths ("y2022/out"): one file name, without separators
    default = "diff-" + "-".join(re.sub(r"[^\w.]+", "-", n).strip("-") for n in (a.name, b.name))
    target = out or results_b.resolve().parent / f"{default}.csv"
    if target.is_dir():  # a folder: the file goes in it
        target = target / f"{default}.csv"
    if not target.parent.is_dir():
        _input_error(InputError(target, "the folder to write the changes in does not exist"))
        return
    frame = result.to_frame()
    refused = _diff_target_refused(target, list(frame.columns))
    if refused:
        _input_error(InputError(target, refused))
        return
    write_csv(target, frame)
    typer.echo(result.report(), nl=False)
    _err.print(f"Changes written to {target}", markup=False)


def _diff_target_refused(target: Path, header: list[str]) -> str:
    """Why ``petition diff`` may not write ``target`` ("" when it may).

    Results folders are left as written (``petition verify`` checks their
    bytes), and an existing file is replaced only when it is an earlier
    changes file (the same header): never an input or another result.
    """
    if (target.parent / "manifest.json").is_file():
        return "is in a results folder of `petition run`: write the changes elsewhere (--out)"
    if target.exists():
        if not target.is_file():
            return "exists and is not a file"
        with target.open("rb") as fh:
            first = fh.readline().decode("utf-8-sig", errors="replace").strip()
        if first != ",".join(header):
            return (
                "exists and is not a changes file of `petition diff`: it is left as it "
                "was; choose another --out"
            )
    return ""


@app.command()
def verify(
    results: Annotated[Path, typer.Argument(help="A results folder of `petition run`.")],
    config: Annotated[
        Path | None, typer.Option("--config", help="The run's config (default: from manifest).")
    ] = None,
    rerun: Annotated[
        bool, typer.Option("--rerun/--no-rerun", help="Re-run and compare the bytes.")
    ] = True,
) -> None:
    """Re-hash the inputs named in the manifest and re-run into a temporary folder.

    Exit 0: no drift (inputs unchanged, results byte-identical to a re-run,
    manifest.json aside). Exit 3: drift, listed on stdout. Exit 2: bad input
    (no manifest, config not found).
    """
    from pipeline.verify import verify_results

    try:
        report = verify_results(results, config=config, rerun=rerun)
    except InputError as exc:
        _input_error(exc)
        return
    typer.echo(report.report(), nl=False)
    if not report.clean:
        raise typer.Exit(code=3)


@app.command()
def batch(
    configs: Annotated[
        list[Path], typer.Argument(help="One or more petition configs.", readable=False)
    ],
    out: Annotated[Path, typer.Option("--out", help="Folder for batch.csv and batch.json.")],
    alternatives: Annotated[
        Path | None,
        typer.Option(
            "--alternatives",
            help="Boundary alternatives: a folder of territory files, or one layer of "
            "several features; each config is evaluated with each of them.",
        ),
    ] = None,
    name_field: Annotated[
        str | None,
        typer.Option("--name-field", help="Field naming the features (default: name)."),
    ] = None,
    roll_year: Annotated[
        int | None, typer.Option("--roll-year", help="Force the roll year of every town.")
    ] = None,
    engine: EngineOption = "local",
    scheduler: SchedulerOption = None,
    workers: WorkersOption = None,
) -> None:
    """Many territories against the same rolls, each roll and parcel layer read once;
    the results side by side (batch.csv, batch.json)."""
    from pipeline.batch import run_batch, write_batch
    from pipeline.run import progress_of

    try:
        _check_engine(engine)
        with progress_of(_err, "Running the batch…") as status:
            result = run_batch(
                configs,
                alternatives=alternatives,
                name_field=name_field,
                roll_year=roll_year,
                progress=lambda msg: status.update(msg + "…"),
                engine=engine,
                scheduler=scheduler,
                workers=workers,
            )
            files = write_batch(out, result)
    except InputError as exc:
        _input_error(exc)
        return
    # each territory's warnings, as petition run prints its own
    for row in result.rows:
        for w in row.summary.get("warnings") or []:
            _err.print(f"warning: [{row.name}] {w}", markup=False, highlight=False)
    _err.print(
        f"{len(result.rows)} territories, inputs read {result.loads} time(s); "
        f"written {files['batch.csv']} and {files['batch.json']}",
        markup=False,
    )


def _terminated(signum: int, _frame: object) -> None:
    """SIGTERM (``kill``, a CI timeout) ends the run as Ctrl-C does, cleaning up.

    Raised as SystemExit, it unwinds through the results' temporary folder,
    which is removed: no half-written ``.DIR.partial-*`` is left, and an earlier
    run's results stay as they were.
    """
    _signalled.append(signum)
    raise SystemExit(128 + signum)


#: The signal that ended the run, once one has (:func:`_terminated`).
_signalled: list[int] = []


def main() -> None:
    """Entry point of the ``petition`` console script."""
    signal.signal(signal.SIGTERM, _terminated)
    try:
        app()
    except InputError as exc:  # pragma: no cover - commands handle their own
        print(f"error: {exc.message}", file=sys.stderr)
        sys.exit(2)
    except BaseException:
        # a library that catches everything (reportlab wraps any exception of a
        # paragraph in its own) may have turned the SystemExit of a SIGTERM into
        # another error: the run still ends as terminated, 128 + the signal
        if _signalled:
            print("terminated", file=sys.stderr)
            sys.exit(128 + _signalled[0])
        raise


if __name__ == "__main__":  # pragma: no cover
    main()
