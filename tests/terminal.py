"""Ctrl-C as a user gives it: `odds ...` in a subprocess whose stderr is a terminal (a pty, so
it shows its progress bar, which says the run is under way), then one SIGINT."""
import fcntl
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

from limited import limit

ROOT = Path(__file__).parents[1]


class Run:
    """`python -m odds.cli *args`, stdout a pipe, stderr a terminal read in the background;
    `memory`: bytes of address space (limited.py); `group`: the run leads a process group and
    a Ctrl-C reaches the whole group, its children too, as one at a terminal does."""

    def __init__(self, *args, memory=None, group=False, env=None):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # 0 wide: no bar
        env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
        self.proc = subprocess.Popen([sys.executable, "-m", "odds.cli", *map(str, args)], env=env,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=slave, text=True, start_new_session=group,
                                     preexec_fn=memory and limit(memory))
        os.close(slave)
        self.err, self._master, self.group = "", master, group
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        while True:
            try:
                chunk = os.read(self._master, 4096)
            except OSError:  # EIO: the child has closed the terminal
                break
            if not chunk:
                break
            self.err += chunk.decode(errors="replace")

    def wait_for(self, needle, timeout: float = 300):
        """Until `needle` (a text or a compiled pattern) shows on stderr (fails if the run
        ends first or takes too long)."""
        end = time.monotonic() + timeout
        while not (needle.search(self.err) if isinstance(needle, re.Pattern) else needle in self.err):
            assert self.proc.poll() is None, f"the run ended before {needle!r}: {self.err[-500:]!r}"
            assert time.monotonic() < end, f"no {needle!r} within {timeout} s: {self.err[-500:]!r}"
            time.sleep(0.05)

    def interrupt(self, timeout: float = 30, then=None):
        """One SIGINT (a second `then` seconds later, if given): (exit code, stdout, seconds
        from the first to the exit); stderr is in `err`."""
        t = time.perf_counter()
        for wait in (0, then) if then is not None else (0,):
            time.sleep(wait)
            if self.group:
                os.killpg(self.proc.pid, signal.SIGINT)
            else:
                self.proc.send_signal(signal.SIGINT)
        try:
            out = self.proc.communicate(timeout=timeout)[0]
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.communicate(timeout=30)
        seconds = time.perf_counter() - t
        self._reader.join(timeout=5)
        os.close(self._master)
        return self.proc.returncode, out, seconds
