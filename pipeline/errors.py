"""The one error type for bad input.

Every reader raises :class:`InputError` for anything wrong with a file: the CLI
turns it into one line on stderr and exit code 2.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any


class InputError(Exception):
    """Bad input: names the file, the place in it, the column and the problem.

    Parameters
    ----------
    file
        The file concerned (or the config file for a config problem).
    problem
        What is wrong, in plain words.
    row
        Data row number counted from 1 (the header is not a data row).
    feature
        Feature id of a vector layer (used instead of ``row``).
    column
        The column, field or config key concerned.
    """

    def __init__(
        self,
        file: str | Path | None,
        problem: str,
        *,
        row: int | None = None,
        feature: str | int | None = None,
        column: str | None = None,
    ) -> None:
        self.file = str(file) if file is not None else None
        self.problem = problem
        self.row = row
        self.feature = feature
        self.column = column
        super().__init__(self.message)

    def __reduce__(self) -> tuple[Any, ...]:
        # keyword-only fields: rebuilt by name, so that the error survives a
        # trip through pickle (from a child process that wrote a document)
        return (
            _rebuild_input_error,
            (self.file, self.problem, self.row, self.feature, self.column),
            self.__dict__,
        )

    @property
    def message(self) -> str:
        parts: list[str] = []
        if self.file:
            parts.append(self.file)
        if self.row is not None:
            parts.append(f"row {self.row}")
        if self.feature is not None:
            parts.append(f"feature {self.feature}")
        if self.column:
            parts.append(f"column '{self.column}'")
        where = ", ".join(parts)
        return f"{where}: {self.problem}" if where else self.problem


def _rebuild_input_error(
    file: str | None,
    problem: str,
    row: int | None,
    feature: str | int | None,
    column: str | None,
) -> InputError:
    return InputError(file, problem, row=row, feature=feature, column=column)


#: The labels by which the core names an input in an :class:`InputError`
#: (:func:`files_named` turns them into the file).
RATES_LABEL = "[equalization] rates"
OVERRIDES_LABEL = "[overrides] apportionment"
TERRITORY_LABEL = "[territory] boundary"


def roll_label(swis: str) -> str:
    """The label of a town's roll (its 6-digit town SWIS code)."""
    return f"roll of town {swis}"


def town_boundary_label(swis: str) -> str:
    """The label of a town's boundary polygon file."""
    return f"boundary of town {swis}"


def is_town_boundary_label(label: str | None) -> bool:
    """Whether ``label`` is a :func:`town_boundary_label`."""
    return bool(label) and str(label).startswith("boundary of town ")


@contextmanager
def files_named(sources: Mapping[str, str]) -> Iterator[None]:
    """Re-raise an :class:`InputError` of the core with the file its label stands for.

    The core works on frames and never sees a path: it names an input by a
    label (``"roll of town 104400"``, ``"[overrides] apportionment"``). The
    readers record which file each label stands for
    (:attr:`pipeline.model.PetitionInputs.sources`); inside this block an
    error naming such a label is raised again naming the file, the label kept
    in the problem.
    """
    try:
        yield
    except InputError as exc:
        path = sources.get(exc.file or "")
        if path is None:
            raise
        raise InputError(
            path,
            f"{exc.problem} ({exc.file})",
            row=exc.row,
            feature=exc.feature,
            column=exc.column,
        ) from None
