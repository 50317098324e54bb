"""The command line as the hostile tests run it: a subprocess under an address-space limit
(RLIMIT_AS), so an input that asks for unbounded memory fails the test instead of the machine."""
import os
import resource
import signal
import subprocess
import sys


def limit(memory, file_size=None):
    """A preexec_fn: the child may use at most `memory` bytes of address space and write
    files of at most `file_size` bytes (a longer write fails with EFBIG, as on a full disk)."""
    def preexec():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
    return preexec


def interruptible(then=None):
    """A preexec_fn: the child takes a Ctrl-C as a command at a terminal does (SIGINT at its
    default, which Python turns into KeyboardInterrupt), whatever this run inherited (a shell
    starts a background job with SIGINT ignored, and children keep that); then `then`."""
    def preexec():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if then is not None:
            then()
    return preexec


def odds_cli(argv, memory, timeout, cwd=None, env=None, file_size=None):
    """`python -m odds.frontends.cli.main ARGV` with at most `memory` bytes of address space (and files of
    at most `file_size` bytes): CompletedProcess."""
    return subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", *argv], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd, preexec_fn=limit(memory, file_size),
                          env={**os.environ, **(env or {})}, stdin=subprocess.DEVNULL)
