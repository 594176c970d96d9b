"""The ``petition`` command: parses arguments, calls the library, maps bad input to exit 2.

Exit codes (contract): 0 the run finished, whatever the verdict; 2 bad input,
one message on stderr naming the file, the place, the column and the problem;
1 anything else (a bug), with the traceback.
"""

from __future__ import annotations

import sys
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


def _input_error(exc: InputError) -> None:
    _err.print(f"error: {exc.message}", markup=False)
    raise typer.Exit(code=2)


@app.command()
def run(
    config: Annotated[Path, typer.Argument(help="The petition's config file (TOML).")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Results folder (default: [output] dir).")
    ] = None,
) -> None:
    """Run the whole pipeline and write the results folder."""
    from pipeline.run import run_petition

    try:
        result_dir = run_petition(config, out=out, console=_err)
    except InputError as exc:
        _input_error(exc)
        return
    _err.print(f"Results written to {result_dir}", markup=False)


@app.command()
def sample(
    directory: Annotated[Path, typer.Argument(help="Folder to write the sample petition into.")],
    parcels: Annotated[int, typer.Option(help="Roll records in all towns.", min=50)] = 3000,
    towns: Annotated[int, typer.Option(help="Number of towns.", min=1, max=9)] = 2,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same bytes).")] = 1,
) -> None:
    """Write a complete, realistic sample petition (config and every input)."""
    from pipeline.sample import generate_sample

    with _err.status("Generating the sample petition…"):
        config = generate_sample(directory, parcels=parcels, towns=towns, seed=seed)
    _err.print(f"Sample petition written: {config}", markup=False)


def main() -> None:
    """Entry point of the ``petition`` console script."""
    try:
        app()
    except InputError as exc:  # pragma: no cover - commands handle their own
        print(f"error: {exc.message}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
