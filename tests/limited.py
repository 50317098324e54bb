"""The command line as the hostile tests run it: a subprocess under an address-space limit
(RLIMIT_AS), so an input that asks for unbounded memory fails the test instead of the machine."""
import os
import resource
import subprocess
import sys


def odds_cli(argv, memory, timeout, cwd=None, env=None):
    """`python -m odds.cli ARGV` with at most `memory` bytes of address space: CompletedProcess."""
    limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    return subprocess.run([sys.executable, "-m", "odds.cli", *argv], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd, preexec_fn=limit,
                          env={**os.environ, **(env or {})}, stdin=subprocess.DEVNULL)
