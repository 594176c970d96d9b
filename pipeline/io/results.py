"""Writers of results: the atomic output folder, JSON, CSV and the manifest.

Nothing here decides a figure: it only writes what the core computed.
Outputs are deterministic (fixed column order, ``repr`` floats, sorted rows as
the core gave them, ``\\n`` line ends), so the same inputs give the same bytes;
only ``manifest.json`` carries the run's times.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import json
import os
import platform
import shutil
import uuid
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from pipeline.errors import InputError

if TYPE_CHECKING:
    from pipeline.io.load import RollChoice

#: Leading characters that make a spreadsheet treat a cell as a formula.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def inert_text(value: Any) -> Any:
    """Make a text cell safe from formula injection (prefix ``'``); numbers untouched."""
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


@contextlib.contextmanager
def atomic_output_dir(final: Path, *, marker: str = "manifest.json") -> Iterator[Path]:
    """Yield a temporary folder beside ``final``; move it into place only on success.

    On any exception the temporary folder is removed and ``final`` is left as it
    was (an earlier run's results stay intact). ``final`` must be new, an empty
    folder or an earlier results folder (holding ``marker``):
    :func:`check_results_folder`.
    """
    final = Path(final)
    check_results_folder(final, marker=marker)
    made = [p for p in (final.parent, *final.parent.parents) if not p.exists()]
    final.parent.mkdir(parents=True, exist_ok=True)
    _sweep_stale(final, marker=marker)
    # a plain mkdir (not mkdtemp's 0700): the results get the user's usual
    # permissions (umask), as any folder they make
    tmp = final.parent / f".{final.name}.partial-{os.getpid()}-{uuid.uuid4().hex[:12]}"
    tmp.mkdir()
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        for folder in made:  # the folders made for the results, innermost first
            with contextlib.suppress(OSError):
                folder.rmdir()  # only when empty
        raise
    backup: Path | None = None
    try:
        if final.exists():
            backup = final.parent / f".{final.name}.old-{os.getpid()}-{uuid.uuid4().hex[:12]}"
            final.rename(backup)
        tmp.rename(final)
    except BaseException:
        # stopped (Ctrl-C, SIGTERM) between the two renames: the earlier
        # results go back in place, as for a run stopped before; where the new
        # ones were already in place they stay
        if not final.exists() and backup is not None and backup.is_dir():
            backup.rename(final)
        elif final.exists() and backup is not None:
            shutil.rmtree(backup, ignore_errors=True)
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if backup is not None:
        shutil.rmtree(backup, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _sweep_stale(final: Path, *, marker: str) -> None:
    """Clear what a run killed while writing ``final`` left beside it.

    A ``.NAME.partial-PID-*`` folder of a process no longer running is
    removed (results never finished). A ``.NAME.old-PID-*`` folder is an
    earlier run's results moved aside while the new ones were put in place:
    when ``final`` is missing (the run died between the two renames) it is
    put back, else removed. Folders of a running process are left alone.
    """
    prefix = f".{final.name}."
    try:
        entries = sorted(final.parent.iterdir())
    except OSError:
        return
    for entry in entries:
        rest = entry.name[len(prefix) :] if entry.name.startswith(prefix) else ""
        kind, _, tail = rest.partition("-")
        pid = tail.partition("-")[0]
        if kind not in ("partial", "old") or not pid.isdigit() or not entry.is_dir():
            continue
        if _alive(int(pid)):
            continue
        if kind == "old" and not final.exists() and (entry / marker).is_file():
            entry.rename(final)
        else:
            shutil.rmtree(entry, ignore_errors=True)


def check_no_input_inside(final: Path, inputs: Mapping[str, Path]) -> None:
    """Refuse a results folder that holds an input of the run.

    The results replace ``final`` as a whole: an input kept in it (match
    decisions beside ``review.csv``) would be deleted by the run that read it.

    Raises
    ------
    InputError
        Naming ``final``, the input's config key and its path.
    """
    where = Path(final).resolve()
    for key, path in sorted(inputs.items()):
        p = Path(path).resolve()
        if p == where or where in p.parents:
            raise InputError(
                final,
                f"the results folder holds an input of the petition ({key}: {path}): the "
                "results replace the folder as a whole, so the input would be deleted; "
                "move the input out of it or choose another results folder",
            )


def check_results_folder(final: Path, *, marker: str = "manifest.json") -> None:
    """Refuse a results folder whose replacement would destroy something else.

    The results replace ``final`` as a whole. That is right for a new path, an
    empty folder or the results of an earlier run (a folder holding
    ``marker``); anything else (a file, the petition's own folder, a folder of
    other files) is bad input, left untouched.

    Raises
    ------
    InputError
        Naming ``final`` and why it is refused.
    """
    final = Path(final)
    if final.is_symlink():
        # the results replace ``final`` by a rename: a link would be replaced by
        # a folder, and the folder it points to keep the older results
        raise InputError(
            final,
            f"the results folder is a symbolic link (to {os.readlink(final)}): give the "
            "folder it points to as the results folder",
        )
    # the results are made beside ``final`` and renamed into place: its nearest
    # existing folder must be writable (found now, not after the whole run)
    nearest = final.absolute().parent
    while not nearest.exists() and nearest != nearest.parent:
        nearest = nearest.parent
    if not nearest.is_dir():
        raise InputError(final, f"the results folder cannot be made: {nearest} is a file")
    if not os.access(nearest, os.W_OK | os.X_OK):
        raise InputError(final, f"the results folder cannot be written: {nearest} is read-only")
    if not final.exists():
        return
    if not final.is_dir():
        raise InputError(final, "the results folder is an existing file: choose a folder")
    if any(final.iterdir()) and not (final / marker).is_file():
        raise InputError(
            final,
            f"the results folder holds other files and no {marker} of an earlier run: "
            "the results would replace them; choose a new or empty folder",
        )


def write_json(path: Path, data: Any) -> None:
    """Write JSON with two-space indents and a final newline (deterministic)."""
    text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")


def write_csv(path: Path, frame: pd.DataFrame) -> None:
    """Write a schedule as CSV: UTF-8, ``\\n`` line ends, text cells made inert."""
    out = frame.copy()
    # headers too (a batch's columns are the alternatives' names)
    out.columns = [inert_text(str(c)) for c in out.columns]
    for col in out.columns:
        values = out[col]
        if pd.api.types.is_float_dtype(values):
            # -0.0 (a negative figure rounded, "-0" in an input) is written 0.0
            out[col] = values + 0.0
            continue
        if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            continue
        if isinstance(values.dtype, pd.StringDtype):
            # text columns: the same rule as inert_text, vectorised
            hit = values.str.startswith(FORMULA_PREFIXES, na=False).to_numpy(dtype=bool)
            if hit.any():
                out[col] = values.where(~hit, "'" + values)
        else:
            out[col] = values.map(inert_text)
    out.to_csv(path, index=False, lineterminator="\n", encoding="utf-8")


#: The files that make up a shapefile with its .shp (attributes, index, CRS, encoding).
_SHAPEFILE_PARTS = (".dbf", ".shx", ".prj", ".cpg", ".qix", ".sbn", ".sbx")


def shapefile_sidecars(path: Path) -> list[Path]:
    """The files beside a ``.shp`` that belong to it (none for any other file).

    A shapefile keeps its attributes (SWIS, print keys) in the ``.dbf`` and its
    CRS in the ``.prj``: the manifest hashes each, so that ``petition verify``
    sees a changed key or CRS.
    """
    path = Path(path)
    if path.suffix.lower() != ".shp" or not path.is_file():
        return []
    found = []
    for ext in _SHAPEFILE_PARTS:
        for suffix in (ext, ext.upper()):
            q = path.with_suffix(suffix)
            if q.is_file():
                found.append(q)
                break
    return found


def sha256_of(path: Path) -> str:
    """SHA-256 of a file (or of every file of a folder, in name order)."""
    h = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in files:
        with file.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    return h.hexdigest()


_LIBRARIES = (
    "village-petition",
    "numpy",
    "pandas",
    "pyarrow",
    "shapely",
    "pyproj",
    "pyogrio",
    "geopandas",
    "pydantic",
    "pandera",
    "rapidfuzz",
    "nicknames",
    "matplotlib",
    "reportlab",
    "python-docx",
    "openpyxl",
    "dask",
    "distributed",
    "dask-geopandas",
)


def code_sha256() -> str:
    """SHA-256 of this project's code: every ``.py`` file of the package, by path.

    A version number names a release; two checkouts of one release may still
    differ. ``petition verify`` tells a re-run that differs because the code
    changed from one whose inputs did.
    """
    root = Path(__file__).resolve().parents[1]  # the pipeline package
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        digest.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def versions() -> dict[str, str]:
    """Versions of Python, this project (and its code's hash) and its main libraries.

    Also GEOS, PROJ and GDAL; ``village-petition-code`` is :func:`code_sha256`.
    """
    out = {"python": platform.python_version()}
    for name in _LIBRARIES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = "not installed"
        if name == "village-petition":
            out["village-petition-code"] = code_sha256()
    with contextlib.suppress(Exception):
        import shapely

        out["GEOS"] = shapely.geos_version_string
    with contextlib.suppress(Exception):
        import pyproj

        out["PROJ"] = pyproj.proj_version_str
    with contextlib.suppress(Exception):
        import pyogrio

        out["GDAL"] = pyogrio.__gdal_version_string__
    return out


def input_entries(
    inputs: Mapping[str, Path],
    base: Path,
    rolls: Mapping[str, RollChoice] | None = None,
) -> dict[str, Any]:
    """The manifest's ``inputs``: each input file with its SHA-256 and size.

    ``rolls`` (:func:`pipeline.io.load.resolve_rolls`) gives, for each town
    whose ``roll`` is a folder or a list of yearly rolls, the roll chosen: its
    input entry (key ``towns.<swis>.roll``, replacing the folder or the listed
    files of ``inputs``) then names the file used (``path``, ``sha256``,
    ``bytes``, as for any input) and adds ``roll_year``, ``chosen_by``,
    ``used`` (every file used, normally one) and ``offered`` (every other file
    offered, with its roll years), so that ``petition verify`` can tell a
    changed roll from a new year's file that the run would not use. A
    shapefile's entry lists its ``sidecars`` (``.dbf``, ``.prj``, …), each
    hashed.
    """

    def rel(p: Path) -> str:
        try:
            return p.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            return p.resolve().as_posix()

    def entry(p: Path) -> dict[str, Any]:
        out: dict[str, Any] = {"path": rel(p), "sha256": sha256_of(p), "bytes": p.stat().st_size}
        sidecars = shapefile_sidecars(p)
        if sidecars:
            out["sidecars"] = [
                {"path": rel(q), "sha256": sha256_of(q), "bytes": q.stat().st_size}
                for q in sidecars
            ]
        return out

    rolls = rolls or {}
    entries = {
        key: entry(p)
        for key, p in inputs.items()
        if not any(key == k or key.startswith(f"{k}[") for k in rolls)
    }
    for key, choice in rolls.items():
        used = [entry(p) for p in choice.files]
        entries[key] = {
            **used[0],
            "roll_year": choice.year,
            "chosen_by": choice.chosen_by,
            "used": used,
            "offered": [
                {**entry(p), "roll_years": list(choice.years_of(p))} for p in choice.offered
            ],
        }
    return dict(sorted(entries.items()))


def file_stamps(paths: Iterable[Path]) -> dict[Path, tuple[int, int]]:
    """Size and modification time (ns) of each file, of a folder's files, and of sidecars.

    Taken before the inputs are hashed and read, and compared after the run
    (:func:`changed_since`): a file written in between would make the manifest's
    hash that of a file the run did not read.
    """
    out: dict[Path, tuple[int, int]] = {}
    for path in paths:
        path = Path(path)
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for f in [*files, *shapefile_sidecars(path)]:
            with contextlib.suppress(OSError):
                st = f.stat()
                out[f] = (st.st_size, st.st_mtime_ns)
    return out


def changed_since(stamps: Mapping[Path, tuple[int, int]]) -> Path | None:
    """The first file whose size or modification time differs from ``stamps`` (or None)."""
    for f, stamp in stamps.items():
        try:
            st = f.stat()
        except OSError:
            return f
        if (st.st_size, st.st_mtime_ns) != stamp:
            return f
    return None


def build_manifest(
    *,
    inputs: Mapping[str, Path],
    base: Path,
    config: Mapping[str, Any],
    regime: str,
    started: str,
    finished: str,
    outputs: Mapping[str, Path],
    rolls: Mapping[str, RollChoice] | None = None,
    entries: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The run's manifest: inputs with SHA-256, resolved config, versions, regime, times.

    The ``inputs`` part is :func:`input_entries` of ``inputs``, ``base`` and
    ``rolls``, or ``entries`` when they were hashed already (at the start of
    the run, before the files were read).
    """
    if entries is None:
        entries = input_entries(inputs, base, rolls)

    return {
        "regime": regime,
        "started": started,
        "finished": finished,
        "inputs": dict(entries),
        "outputs": {name: sha256_of(p) for name, p in sorted(outputs.items())},
        "config": dict(config),
        "versions": versions(),
    }
