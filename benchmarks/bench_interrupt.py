"""How soon the work stops when asked, and how quick the answers without an estimate are: the
speed targets the test suite used to assert in seconds (the tests now check order and
outcome only; issue 41).

Run: `python benchmarks/bench_interrupt.py [--quick]`. A Ctrl-C row runs the command with its
stderr a terminal, sends one SIGINT once the command says it is under way (its progress bar,
or its 'solving exactly' line), and times the SIGINT to the exit (code 130); the baseline is
the same command's whole process on a question answered at once (imports and start-up).
"""
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time

from common import ROOT, USER_ENV, Row, best_of, table

LONG = {  # command -> what its stderr shows once the work is under way
    "MC field battle, 10^10 trials": (["his", "field", "--attacker", "5", "--defender", "4",
                                      "--method", "mc", "--trials", "10000000000"], b"%|"),
    "MC attack (rounds of whole chains), 10^9 trials": (
        ["his", "attack", "--attacker", "8", "--defender", "4", "--assaults", "3", "--method",
         "mc", "--trials", "1000000000"], b"%|"),
    "crusades battles, 10^9": (["crusades", "run", "odds/crusades/examples/field.toml",
                                "--battles", "1000000000"], b"%|"),
    "exact 110 v 100 siege of 30 assaults": (["his", "siege", "--attacker", "110", "--defender",
                                              "100", "--assaults", "30"], b"solving exactly"),
}


def ctrl_c_seconds(argv, ready: bytes) -> float:
    """Seconds from one SIGINT, sent when `ready` shows on the command's terminal, to its exit."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # 0 wide: no bar
    proc = subprocess.Popen([sys.executable, "-m", "odds.frontends.cli.main", *argv], cwd=ROOT, env=USER_ENV,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen, end = b"", time.monotonic() + 600
    while ready not in seen and time.monotonic() < end:
        if select.select([master], [], [], 1)[0]:
            seen += os.read(master, 4096)
    started = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=600)
    code = proc.returncode
    seconds = time.perf_counter() - started
    os.close(master)
    assert code == 130, f"{argv}: exit {code}"
    return seconds


def whole_process() -> float:
    return best_of(lambda: subprocess.run(
        [sys.executable, "-m", "odds.frontends.cli.main", "his", "field", "--attacker", "5", "--defender", "4"],
        cwd=ROOT, env=USER_ENV, capture_output=True, check=True), 3)


def measure(quick=False):
    from odds import registry
    from odds.his import siege

    start = whole_process()
    rows = [Row(f"Ctrl-C to exit: {name}", min(ctrl_c_seconds(*LONG[name]) for _ in range(1 if quick else 3)),
                "s", start, "a whole exact command", "<= 1 s") for name in LONG]
    refused = best_of(lambda: _refused(siege), 3)
    rows.append(Row("exact 200 v 200 siege of 100 assaults refused, in-process", refused * 1e3,
                    "ms", None, "", "< 1000 ms"))
    war = registry.get("his.foreign_war")
    piracy = registry.get("his.piracy")
    bounds = best_of(lambda: (
        war.call(units=12, foreign=12, leader=6, attempts=60, method="exact"),
        piracy.call(corsairs=12, squadrons=12, adjacent_squadrons=12, fortresses=12,
                    method="exact")), 3)
    rows.append(Row("exact foreign war and piracy at their bounds (no estimate)", bounds, "s",
                    None, "", "< 10 s"))
    return rows


def _refused(siege):
    from odds import OddsError

    try:
        siege(200, 200, assaults=100, method="exact")
    except OddsError:
        return
    raise AssertionError("not refused")


if __name__ == "__main__":
    print(table(measure("--quick" in sys.argv)))
