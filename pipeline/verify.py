"""``petition verify``: are a run's results still what its inputs give?

Three checks, each reported as :class:`Drift` entries:

1. **inputs**: every input named in ``manifest.json`` is re-hashed (SHA-256,
   :func:`pipeline.io.results.sha256_of`); a missing file or another hash is
   drift (``input_missing``, ``input_changed``). For a town whose ``roll``
   offers several years (a folder or a list of rolls), only the file(s) the
   run used are inputs: the choice is made again
   (:func:`pipeline.io.load.resolve_rolls`, same config, same
   ``--roll-year``) and a different file is drift (``roll_choice_changed``);
   a roll file added, changed or removed that the run does not use is a note,
   not drift;
2. **outputs**: every result file listed in the manifest is re-hashed; a file
   edited after the run is drift (``output_changed``, ``output_missing``),
   and so is a file in the folder the manifest does not list
   (``output_unlisted``: added since, or its entry taken out);
3. **re-run**: the pipeline is run again on the same config (and the same
   ``--roll-year``) into a temporary folder; every file but ``manifest.json``
   must be byte-identical to the results (``rerun_differs``,
   ``rerun_missing``, ``rerun_extra``, ``rerun_failed``), and the manifest
   must record the regime, the rolls and rates and the resolved config as the
   re-run's does (``manifest_differs``).

The config is found from the manifest (``config_file``, else the config's
path relative to the results folder, its parents or the working folder) or
given explicitly.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from rich.console import Console

from pipeline.errors import InputError
from pipeline.io.history import read_manifest
from pipeline.io.results import sha256_of

__all__ = ["Drift", "VerifyReport", "find_config", "verify_results"]

DriftKind = Literal[
    "input_missing",
    "input_changed",
    "roll_choice_changed",
    "output_missing",
    "output_changed",
    "output_unlisted",
    "manifest_differs",
    "rerun_failed",
    "rerun_differs",
    "rerun_missing",
    "rerun_extra",
]


@dataclass(frozen=True)
class Drift:
    """One difference found: its kind, what it concerns (input key or file) and details."""

    kind: DriftKind
    name: str
    detail: str


@dataclass(frozen=True)
class VerifyReport:
    """The outcome of :func:`verify_results`."""

    results: Path
    config: Path
    inputs_checked: int
    outputs_checked: int
    rerun: bool
    drift: tuple[Drift, ...] = field(default_factory=tuple)
    #: Changes found that are not drift (e.g. a roll file added that the run would not use).
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def clean(self) -> bool:
        """No drift at all."""
        return not self.drift

    def report(self) -> str:
        """Plain-text report."""
        lines = [
            f"Results: {self.results}",
            f"Config:  {self.config}",
            f"Inputs re-hashed: {self.inputs_checked}; result files re-hashed: "
            f"{self.outputs_checked}; re-run compared: {'yes' if self.rerun else 'no'}",
        ]
        if self.clean:
            lines.append(
                "No drift: the inputs are those of the run"
                + (" and a re-run gives byte-identical results." if self.rerun else ".")
            )
        else:
            lines.append(f"Drift ({len(self.drift)}):")
            lines.extend(f"  {d.kind}: {d.name}: {d.detail}" for d in self.drift)
        if self.notes:
            lines.append(f"Notes ({len(self.notes)}, not drift):")
            lines.extend(f"  {n}" for n in self.notes)
        return "\n".join(lines) + "\n"


def find_config(results: Path, manifest: dict[str, Any]) -> Path:
    """The config file of a run, from its manifest.

    Raises
    ------
    InputError
        No config file found where the manifest says.
    """
    recorded = manifest.get("config_file")
    if isinstance(recorded, str) and Path(recorded).is_file():
        return Path(recorded)
    rel = manifest.get("inputs", {}).get("config", {}).get("path")
    if isinstance(rel, str):
        if Path(rel).is_absolute() and Path(rel).is_file():
            return Path(rel)
        for base in (results.resolve(), *results.resolve().parents, Path.cwd()):
            if (base / rel).is_file():
                return base / rel
    raise InputError(
        results / "manifest.json",
        f"the run's config ({recorded or rel}) is not found; give it with --config",
        column="config_file",
    )


#: What a manifest records of the run that a re-run records the same (the
#: times, the versions and the results folder are the run's own).
_MANIFEST_RECORD = ("regime", "config", "rolls")


def _files(root: Path) -> dict[str, Path]:
    return {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*")) if p.is_file()}


def _path(recorded: str, base: Path) -> Path:
    path = Path(recorded)
    return path if path.is_absolute() else base / path


def _check_input(key: str, entry: dict[str, Any], base: Path, drift: list[Drift]) -> None:
    """Re-hash one input file (or folder) of the manifest."""
    path = _path(entry["path"], base)
    if not path.exists():
        drift.append(Drift("input_missing", key, f"{path} no longer exists"))
        return
    now = sha256_of(path)
    if now != entry.get("sha256"):
        size = path.stat().st_size
        drift.append(
            Drift(
                "input_changed",
                key,
                f"{path}: SHA-256 {str(entry.get('sha256'))[:12]}… ({entry.get('bytes')} "
                f"bytes) at the run, now {now[:12]}… ({size} bytes)",
            )
        )


def _check_roll_choices(
    recorded: dict[str, Any],
    cfg: Path,
    base: Path,
    roll_year: int | None,
    drift: list[Drift],
    notes: list[str],
) -> None:
    """Choose each town's roll again; another file is drift, a new unused file a note."""
    from pipeline.config import load_config
    from pipeline.io.load import resolve_roll

    try:
        config = load_config(cfg)
    except InputError as exc:
        notes.append(f"the roll choice is not re-checked: the config does not load ({exc})")
        return
    for key, entry in sorted(recorded.items()):
        swis = key.split(".")[1] if key.count(".") == 2 else ""
        index = next((i for i, t in enumerate(config.towns) if t.swis == swis), None)
        year = entry.get("roll_year")
        then = sorted(_path(u["path"], base).resolve() for u in entry["used"])
        names = ", ".join(u["path"] for u in entry["used"])
        if index is None:
            drift.append(Drift("roll_choice_changed", key, "the config no longer lists the town"))
            continue
        try:
            choice = resolve_roll(config, index, roll_year=roll_year)
        except InputError as exc:
            drift.append(
                Drift(
                    "roll_choice_changed",
                    key,
                    f"the run used {names} (roll year {year}); the roll can no longer be "
                    f"chosen: {exc}",
                )
            )
            continue
        if choice is None:
            drift.append(
                Drift(
                    "roll_choice_changed",
                    key,
                    f"the run used {names} (roll year {year}); the config now names one roll file",
                )
            )
            continue
        now = sorted(p.resolve() for p in choice.files)
        if now != then:
            drift.append(
                Drift(
                    "roll_choice_changed",
                    key,
                    f"the run used {names} (roll year {year}); chosen again now: "
                    f"{', '.join(_rel(p, base) for p in now)} (roll year {choice.year})",
                )
            )
        known = set(then) | {_path(o["path"], base).resolve() for o in entry.get("offered") or []}
        for p in choice.offered:
            if p.resolve() not in known:
                years = ", ".join(str(y) for y in choice.years_of(p))
                notes.append(
                    f"{key}: new roll file {_rel(p, base)} (roll year {years}) offered; "
                    f"the choice is unchanged (roll year {choice.year})"
                    if now == then
                    else f"{key}: new roll file {_rel(p, base)} (roll year {years}) offered"
                )


def _rel(path: Path, base: Path) -> str:
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()


def verify_results(
    results: str | Path,
    *,
    config: str | Path | None = None,
    rerun: bool = True,
    console: Console | None = None,
) -> VerifyReport:
    """Check a results folder against its inputs (see the module docstring).

    Parameters
    ----------
    results
        A results folder of ``petition run`` (with ``manifest.json``).
    config
        The run's config (default: found from the manifest).
    rerun
        Re-run the pipeline and compare the bytes (default); ``False`` only
        re-hashes.

    Raises
    ------
    InputError
        No manifest, or no config found.
    """
    root = Path(results)
    manifest = read_manifest(root)
    cfg = Path(config) if config is not None else find_config(root, manifest)
    if not cfg.is_file():
        raise InputError(cfg, "config file not found")
    base = cfg.resolve().parent
    drift: list[Drift] = []

    notes: list[str] = []
    inputs: dict[str, Any] = manifest["inputs"]
    options = manifest.get("options") or {}
    roll_year = options.get("roll_year") if isinstance(options, dict) else None
    for key, entry in sorted(inputs.items()):
        for used in entry["used"] if isinstance(entry.get("used"), list) else [entry]:
            _check_input(key, used, base, drift)
            for part in used.get("sidecars") or []:  # a shapefile's .dbf, .prj, …
                _check_input(key, part, base, drift)
        for other in entry.get("offered") or []:
            path = _path(other["path"], base)
            if not path.is_file():
                notes.append(f"{key}: {other['path']} (offered, not used) no longer exists")
            elif sha256_of(path) != other.get("sha256"):
                notes.append(f"{key}: {other['path']} (offered, not used) changed")
    chosen = {k: e for k, e in inputs.items() if isinstance(e.get("used"), list)}
    if chosen:
        _check_roll_choices(chosen, cfg, base, roll_year, drift, notes)

    outputs: dict[str, str] = manifest.get("outputs", {})
    for name, digest in sorted(outputs.items()):
        path = root / name
        if not path.exists():
            drift.append(Drift("output_missing", name, "result file deleted since the run"))
        elif sha256_of(path) != digest:
            drift.append(Drift("output_changed", name, "result file edited since the run"))
    # a file the run did not write (added since, or an output whose entry was
    # taken out of the manifest): not a result of the run (audit A37 F5)
    for name in sorted(set(_files(root)) - set(outputs) - {"manifest.json"}):
        drift.append(Drift("output_unlisted", name, "in the results folder, not in the manifest"))

    from pipeline.io.results import code_sha256

    ran_with = (manifest.get("versions") or {}).get("village-petition-code")
    now = code_sha256()
    if isinstance(ran_with, str) and ran_with != now:
        notes.append(
            "the run was made with other code of village-petition (village-petition-code "
            f"{ran_with[:12]}…, now {now[:12]}…): a re-run that differs may differ "
            "by the code, not the inputs"
        )
    done = False
    if rerun and not any(d.kind == "input_missing" for d in drift):
        from pipeline.run import run_petition

        quiet = console or Console(stderr=True, quiet=True)
        with tempfile.TemporaryDirectory(prefix="petition-verify-") as tmp:
            again = Path(tmp) / "rerun"
            try:
                run_petition(cfg, out=again, console=quiet, roll_year=roll_year)
            except InputError as exc:
                drift.append(Drift("rerun_failed", str(exc.file), exc.message))
            else:
                done = True
                # what the manifest records of the run (the regime, the rolls and
                # rates, the resolved config) must be what a re-run records: the
                # record the sworn figures stand on (audit A37 F5)
                redone = read_manifest(again)
                for key in _MANIFEST_RECORD:
                    if manifest.get(key) != redone.get(key):
                        drift.append(
                            Drift(
                                "manifest_differs",
                                f"manifest.json: {key}",
                                "the manifest records other than a re-run does",
                            )
                        )
                mine = {k: v for k, v in _files(root).items() if k != "manifest.json"}
                theirs = {k: v for k, v in _files(again).items() if k != "manifest.json"}
                for name in sorted(mine.keys() | theirs.keys()):
                    if name not in theirs:
                        drift.append(Drift("rerun_extra", name, "not written by a re-run"))
                    elif name not in mine:
                        drift.append(Drift("rerun_missing", name, "a re-run writes it; missing"))
                    elif mine[name].read_bytes() != theirs[name].read_bytes():
                        drift.append(Drift("rerun_differs", name, "a re-run gives other bytes"))
    return VerifyReport(
        results=root,
        config=cfg,
        inputs_checked=len(inputs),
        outputs_checked=len(outputs),
        rerun=done,
        drift=tuple(drift),
        notes=tuple(notes),
    )
