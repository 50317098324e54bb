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
from pathlib import Path

from hang import GUARD, poll
from limited import interruptible, limit

ROOT = Path(__file__).parents[1]


class Run:
    """`python -m odds.frontends.cli.main *args`, stdout a pipe, stderr a terminal read in the background;
    `memory`: bytes of address space (limited.py); `group`: the run leads a process group and
    a Ctrl-C reaches the whole group, its children too, as one at a terminal does."""

    def __init__(self, *args, memory=None, group=False, env=None):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # 0 wide: no bar
        env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
        self.proc = subprocess.Popen([sys.executable, "-m", "odds.frontends.cli.main", *map(str, args)], env=env,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=slave, text=True, start_new_session=group,
                                     preexec_fn=interruptible(memory and limit(memory)))
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

    def wait_for(self, needle, limit: float = GUARD):
        """Until `needle` (a text or a compiled pattern) shows on stderr (fails if the run
        ends first; `limit` seconds guard against a hang)."""
        def seen():
            found = needle.search(self.err) if isinstance(needle, re.Pattern) else needle in self.err
            assert found or self.proc.poll() is None, f"the run ended before {needle!r}: {self.err[-500:]!r}"
            return found

        poll(seen, f"{needle!r} on stderr ({self.err[-500:]!r})", limit)

    def interrupt(self, then=None, limit: float = GUARD):
        """One SIGINT; with `then` (a text), a second once `then` shows on stderr. (exit code,
        stdout); stderr is in `err`. `limit` seconds guard the exit against a hang."""
        self._sigint()
        if then is not None:
            self.wait_for(then, limit)
            self._sigint()
        try:
            out = self.proc.communicate(timeout=limit)[0]
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.communicate(timeout=limit)
        self._reader.join(timeout=limit)
        os.close(self._master)
        return self.proc.returncode, out

    def _sigint(self):
        if self.group:
            os.killpg(self.proc.pid, signal.SIGINT)
        else:
            self.proc.send_signal(signal.SIGINT)


def on_terminal(*args) -> tuple[int, str]:
    """(exit code, everything shown) of `odds *args` with stdout and stderr one terminal 80
    wide, as a player's shell runs it: what the libraries write there on a terminal only (a
    progress bar, an exit handler's reset) shows too."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "odds.frontends.cli.main", *map(str, args)],
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.DEVNULL,
                            stdout=slave, stderr=slave)
    os.close(slave)
    shown = bytearray()
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child has closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    return proc.wait(timeout=GUARD), shown.decode(errors="replace")
