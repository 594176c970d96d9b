"""Run a function in a forked child process while this process goes on.

The filing package's documents are independent of one another; on a machine
with two cores, drawing the map in a child while this process writes the
certifications halves the wait. The child is forked, so it sees this process's
frames without copying or pickling them, and it returns only its (small)
result through a pipe. Off Linux, or with the environment variable
``PETITION_PROCESSES=1``, the function runs in this process instead:
the result is the same, only the timing differs.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import traceback
import warnings
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar

__all__ = ["Forked", "fork_call", "forking_enabled", "run_here"]

T = TypeVar("T")

#: Environment variable: ``1`` runs every :func:`fork_call` in this process.
PROCESSES_ENV = "PETITION_PROCESSES"


def forking_enabled() -> bool:
    """Whether :func:`fork_call` forks: on Linux, unless ``PETITION_PROCESSES=1``.

    Elsewhere (macOS, where a forked child may crash in system libraries, and
    Windows, which has no fork), and inside a daemonic process (which may not
    have children), everything runs in this process.
    """
    if os.environ.get(PROCESSES_ENV, "").strip() == "1":
        return False
    if multiprocessing.current_process().daemon:  # a daemon may not have children
        return False
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


class Forked(Generic[T]):
    """The pending result of :func:`fork_call`."""

    def __init__(self, fn: Callable[[], T], *, fork: bool = True) -> None:
        self._fn: Callable[[], T] | None = fn
        self._value: T | None = None
        self._error: BaseException | None = None
        self._done = False
        self._process: Any = None
        self._pipe: Connection | None = None
        if fork and forking_enabled():
            ctx = multiprocessing.get_context("fork")
            receive, send = ctx.Pipe(duplex=False)
            with warnings.catch_warnings():
                # Python ≥ 3.12 warns on fork in a threaded process (Arrow's pool,
                # a progress display); the child only computes, sends its result
                # through the pipe and leaves with os._exit
                warnings.simplefilter("ignore", DeprecationWarning)
                self._process = ctx.Process(target=_child, args=(fn, send), daemon=True)
                self._process.start()
            send.close()
            self._pipe = receive
            self._fn = None

    def result(self) -> T:
        """Wait for the function; return its value or raise its exception.

        Asked again, it gives the same value or raises the same exception.
        """
        if self._done:
            if self._error is not None:
                raise self._error
            return self._value  # type: ignore[return-value]
        if self._fn is not None:  # not forked: run here
            fn, self._fn = self._fn, None
            self._done = True
            try:
                self._value = fn()
            except BaseException as exc:
                self._error = exc
                raise
            return self._value
        assert self._pipe is not None and self._process is not None
        try:
            kind, payload = self._pipe.recv()
        except EOFError:
            self._process.join()
            self._done = True
            self._error = RuntimeError(
                f"a child process ended without a result (exit code {self._process.exitcode})"
            )
            raise self._error from None
        finally:
            self._pipe.close()
        self._process.join()
        self._done = True
        if kind == "error":
            self._error = payload
            raise payload
        self._value = payload
        return self._value

    def cancel(self) -> None:
        """Stop the child (when this process fails before asking for the result)."""
        if self._process is not None and self._process.is_alive():
            self._process.terminate()
            self._process.join()
        if self._pipe is not None:
            self._pipe.close()
        self._done = True


def fork_call(fn: Callable[[], T]) -> Forked[T]:
    """Start ``fn()`` in a forked child; ``.result()`` waits for and returns its value.

    Exceptions raised by ``fn`` are raised again by ``.result()`` (with the
    child's traceback as a note). ``fn`` must not rely on side effects in this
    process other than files it writes.
    """
    return Forked(fn)


def run_here(fn: Callable[[], T]) -> Forked[T]:
    """``fn`` for this process, run when its ``.result()`` is asked for.

    The stand-in for :func:`fork_call` where the work is too small to fork.
    """
    return Forked(fn, fork=False)


def _child(fn: Callable[[], Any], send: Connection) -> None:
    # the parent owns the terminal (a progress display may be drawing on it):
    # whatever the child would print, or flush from a buffer copied at the
    # fork, goes nowhere; its result and its errors travel through the pipe
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    # the parent's SIGTERM handler (cleanup of its results folder) is not the
    # child's: cancel() stops it with SIGTERM, which ends it at once
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        message: tuple[str, Any] = ("ok", fn())
    except BaseException as exc:  # every failure goes back to the parent
        exc.add_note("in a child process:\n" + traceback.format_exc())
        try:
            pickle.loads(pickle.dumps(exc))  # it must also load again
            message = ("error", exc)
        except Exception:  # an exception that cannot travel
            message = ("error", RuntimeError(traceback.format_exc()))
    send.send(message)
    send.close()
