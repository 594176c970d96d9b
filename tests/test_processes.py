"""fork_call: a function in a forked child, its value or its exception back here."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import InputError
from pipeline.tools.processes import PROCESSES_ENV, fork_call, forking_enabled

needs_fork = pytest.mark.skipif(not forking_enabled(), reason="fork is not available here")


@needs_fork
def test_value_comes_back_from_the_child() -> None:
    parent = os.getpid()
    pending = fork_call(lambda: (os.getpid(), sum(range(10))))
    child, total = pending.result()
    assert child != parent  # it really ran elsewhere
    assert total == 45  # 0 + 1 + … + 9
    assert pending.result() == (child, 45)  # asked twice, same answer


@needs_fork
def test_child_sees_this_process_memory_and_writes_files(tmp_path: Path) -> None:
    rows = list(range(1000))  # not pickled: the child is a fork

    def write() -> Path:
        path = tmp_path / "out.txt"
        path.write_text(str(sum(rows)))
        return path

    path = fork_call(write).result()
    assert path.read_text() == "499500"  # 999 × 1000 / 2


@needs_fork
def test_exception_is_raised_again_with_the_child_traceback() -> None:
    def fail() -> None:
        raise InputError("bad.csv", "not a number", row=3, column="x")

    pending = fork_call(fail)
    with pytest.raises(InputError, match="row 3") as info:
        pending.result()
    assert any("in a child process" in note for note in getattr(info.value, "__notes__", []))
    assert (info.value.file, info.value.row, info.value.column) == ("bad.csv", 3, "x")
    with pytest.raises(InputError, match="row 3"):  # asked again: the same error
        pending.result()


@needs_fork
def test_exception_that_cannot_travel_becomes_runtime_error() -> None:
    class Local(Exception):  # a local class cannot be pickled
        pass

    def fail() -> None:
        raise Local("boom")

    with pytest.raises(RuntimeError, match="boom"):
        fork_call(fail).result()


@needs_fork
def test_child_that_dies_is_reported() -> None:
    with pytest.raises(RuntimeError, match="exit code 7"):
        fork_call(lambda: os._exit(7)).result()


@needs_fork
def test_cancel_stops_the_child() -> None:
    import time

    pending = fork_call(lambda: time.sleep(30))
    started = time.perf_counter()
    pending.cancel()
    assert time.perf_counter() - started < 10


def test_disabled_runs_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROCESSES_ENV, "1")
    assert not forking_enabled()
    pending = fork_call(os.getpid)
    assert pending.result() == os.getpid()

    def fail() -> None:
        raise ValueError("here")

    pending = fork_call(fail)
    with pytest.raises(ValueError, match="here"):
        pending.result()
    with pytest.raises(ValueError, match="here"):  # asked again: the same error
        pending.result()


def test_forked_prepare_and_matching_give_the_same_evaluation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owners parsed in a child, every other owner line matched in a child and
    the resident lines matched in a child give exactly the frames of one process
    (thresholds lowered so that a small sample forks)."""
    import pandas as pd

    import pipeline.evaluate as evaluate_module
    import pipeline.people.matching as matching_module
    from pipeline.config import load_config
    from pipeline.evaluate import evaluate
    from pipeline.io.load import load_inputs
    from pipeline.sample import generate_sample

    cfg = generate_sample(tmp_path / "in", parcels=400, towns=2, seed=3)
    config = load_config(cfg)
    inputs = load_inputs(config)
    monkeypatch.setattr(matching_module, "_SPLIT_LINES", 2)
    monkeypatch.setattr(evaluate_module, "_FORK_ROLL_RECORDS", 1)
    monkeypatch.setattr(evaluate_module, "_FORK_LINES", 1)
    calls: list[str] = []

    def counted(module: Any, name: str) -> None:
        real = module.fork_call

        def wrapper(fn):  # type: ignore[no-untyped-def]
            calls.append(name)
            return real(fn)

        monkeypatch.setattr(module, "fork_call", wrapper)

    counted(matching_module, "matching")
    counted(evaluate_module, "evaluate")
    monkeypatch.setenv(PROCESSES_ENV, "")
    forked = evaluate(inputs, policy=config.policy)
    # prepare: owners, then resident lines, then owner lines
    assert calls == ["evaluate", "evaluate", "matching"]
    monkeypatch.setenv(PROCESSES_ENV, "1")
    single = evaluate(inputs, policy=config.policy)
    assert forked.summary == single.summary
    for name in ("parcels", "signatures", "review"):
        pd.testing.assert_frame_equal(getattr(forked, name), getattr(single, name))
    counted_lines = (forked.signatures["status"] == "counted").sum()
    assert counted_lines > 0  # the sample's owner lines were really matched


def test_daemonic_process_runs_here() -> None:
    """A daemonic process (a pool worker) may not have children: run in it."""
    import multiprocessing

    if not forking_enabled():
        pytest.skip("fork is not available here")
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1) as pool:  # pool workers are daemonic
        ran_in_worker, enabled = pool.apply(_ran_here_and_enabled)
    assert not enabled
    assert ran_in_worker  # fork_call ran in the worker itself, no child


def _ran_here_and_enabled() -> tuple[bool, bool]:
    return fork_call(os.getpid).result() == os.getpid(), forking_enabled()


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX signals")
def test_sigterm_while_writing_leaves_no_partial_folder(tmp_path: Path) -> None:
    # `kill` (SIGTERM) while the results are being written: the run ends as
    # Ctrl-C would, its temporary folder is removed and the earlier results
    # stay. The hand-worked petition is run once; the second run is stopped as
    # soon as its temporary folder appears
    import signal
    import subprocess
    import sys
    import time

    from test_run_handworked import make_petition

    config = make_petition(tmp_path / "p")
    out = tmp_path / "results"
    command = [sys.executable, "-m", "pipeline.cli", "run", str(config), "--out", str(out)]
    assert subprocess.run(command, capture_output=True, check=False).returncode == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if any(p.name.startswith(".results.partial-") for p in tmp_path.iterdir()):
            proc.send_signal(signal.SIGTERM)
            break
        time.sleep(0.002)
    proc.wait(timeout=120)
    if proc.returncode == 0:
        pytest.skip("the run finished before the signal could be sent")
    assert proc.returncode == 128 + signal.SIGTERM
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX signals")
def test_sigterm_caught_by_a_library_still_ends_as_terminated(tmp_path: Path) -> None:
    # Audit A18 F8: reportlab wraps any exception raised while it parses a
    # paragraph (the SystemExit of SIGTERM too) in an error of its own; the run
    # must still exit 128 + SIGTERM = 143, not 1, and leave no partial folder.
    # The signal is sent from inside reportlab's parser, on its first paragraph.
    import subprocess
    import sys

    from test_run_handworked import make_petition

    config = make_petition(tmp_path / "p")
    script = tmp_path / "signal_in_reportlab.py"
    script.write_text(
        "import os, signal, sys\n"
        "from reportlab.platypus import paraparser\n"
        "feed = paraparser.ParaParser.feed\n"
        "def fed(self, text):\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    return feed(self, text)\n"
        "paraparser.ParaParser.feed = fed\n"
        f"sys.argv = ['petition', 'run', {str(config)!r}, '--out', {str(tmp_path / 'out')!r}]\n"
        "os.environ['PETITION_PROCESSES'] = '1'\n"
        "from pipeline.cli import main\n"
        "main()\n"
    )
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, check=False)
    assert proc.returncode == 143, proc.stderr.decode()[-500:]
    assert not (tmp_path / "out").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
