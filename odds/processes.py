"""Ctrl-C and processes: children a Ctrl-C at the terminal does not reach, and a Ctrl-C that
does not meet numba's compiler.

A Ctrl-C goes to every process of the terminal's foreground group: the sweep's local dask
workers and the web server's exact workers too, which would die mid-start with tracebacks of
their own. Python keeps an ignored SIGINT ignored in the processes it starts, so they are
started with SIGINT ignored (`sigint_ignored`), and the parent alone decides what a Ctrl-C does.

numba's compiler (LLVM) interrupted half way, or still running in another thread while the
interpreter exits, can crash the process. While a kernel compiles (`deferred_sigint`) a Ctrl-C
is held until the compile is done, then raised; on the command line (`cli.main`) a second one
ends the process at once (`quit_now`: exit code 130, no interpreter shutdown).
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager

from .i18n import _


@contextmanager
def sigint_ignored():
    """SIGINT ignored during the block (in the main thread; elsewhere, where signals cannot be
    set, the block runs as it is), the handler before it restored after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


COMMAND_LINE = threading.Event()  # set while cli.main runs: a second Ctrl-C may end the process


def quit_now(code: int):
    """End the process with `code` at once, output flushed, without the interpreter's shutdown
    (which a thread compiling with numba can crash)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(code)


@contextmanager
def deferred_sigint():
    """A Ctrl-C (one that would raise KeyboardInterrupt in the main thread) held during the
    block, then raised; on the command line a second one ends the process (`quit_now`)."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    held = []

    def hold(sig, frame):
        held.append(sig)
        if len(held) == 1:
            print(_("odds: interrupted: stopping when the kernel has compiled (Ctrl-C again to "
                    "quit now)") if COMMAND_LINE.is_set() else
                  _("odds: interrupted: stopping when the kernel has compiled"),
                  file=sys.stderr, flush=True)
        elif COMMAND_LINE.is_set():
            print(_("odds: interrupted"), file=sys.stderr)
            quit_now(130)

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held:
        raise KeyboardInterrupt
