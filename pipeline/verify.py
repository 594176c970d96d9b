"""``petition verify``: are a run's results still what its inputs give?

Three checks, each reported as :class:`Drift` entries:

1. **inputs**: every input named in ``manifest.json`` is re-hashed (SHA-256,
   :func:`pipeline.io.results.sha256_of`); a missing file or another hash is
   drift (``input_missing``, ``input_changed``);
2. **outputs**: every result file listed in the manifest is re-hashed; a file
   edited after the run is drift (``output_changed``, ``output_missing``);
3. **re-run**: the pipeline is run again on the same config (and the same
   ``--roll-year``) into a temporary folder; every file but ``manifest.json``
   must be byte-identical to the results (``rerun_differs``,
   ``rerun_missing``, ``rerun_extra``, ``rerun_failed``).

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
    "output_missing",
    "output_changed",
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


def _files(root: Path) -> dict[str, Path]:
    return {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*")) if p.is_file()}


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

    inputs: dict[str, Any] = manifest["inputs"]
    for key, entry in sorted(inputs.items()):
        path = Path(entry["path"])
        path = path if path.is_absolute() else base / path
        if not path.exists():
            drift.append(Drift("input_missing", key, f"{path} no longer exists"))
            continue
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

    outputs: dict[str, str] = manifest.get("outputs", {})
    for name, digest in sorted(outputs.items()):
        path = root / name
        if not path.exists():
            drift.append(Drift("output_missing", name, "result file deleted since the run"))
        elif sha256_of(path) != digest:
            drift.append(Drift("output_changed", name, "result file edited since the run"))

    done = False
    if rerun and not any(d.kind == "input_missing" for d in drift):
        from pipeline.run import run_petition

        options = manifest.get("options") or {}
        roll_year = options.get("roll_year") if isinstance(options, dict) else None
        quiet = console or Console(stderr=True, quiet=True)
        with tempfile.TemporaryDirectory(prefix="petition-verify-") as tmp:
            again = Path(tmp) / "rerun"
            try:
                run_petition(cfg, out=again, console=quiet, roll_year=roll_year)
            except InputError as exc:
                drift.append(Drift("rerun_failed", str(exc.file), exc.message))
            else:
                done = True
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
    )
