"""A real `odds serve` for the web tests: in a thread of this process, on a free port; or in a
subprocess with its log kept (`serve_process`), its work held for the test if asked (held.serve)."""
import os
import signal
import socket
import subprocess
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from starlette.applications import Starlette

from hang import poll
from limited import interruptible
from odds.frontends.web.app import create_app, server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def wait_listening(port: int):
    """Until something listens on `port`."""
    poll(lambda: listening(port), f"a server on port {port}")


@dataclass(frozen=True)
class Served:
    """A server running for a test: the app it serves (create_app's) and its port."""
    app: Starlette
    port: int


@contextmanager
def running(**settings):
    """A uvicorn server on a free port in a thread of this process, its exact workers started
    (their start counts against a deadline); `settings`: create_app's keywords, the server's
    limits unless given (a test's deadline=2.0, body_seconds=0.5)."""
    served = Served(create_app(**settings), free_port())
    srv = server("127.0.0.1", served.port, served.app)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    wait_listening(served.port)
    workers = served.app.state.exact.pool.workers
    poll(lambda: workers and all(w.started for w in workers), "the exact workers started")
    try:
        yield served
    finally:
        srv.should_exit = True
        thread.join(timeout=10)


@contextmanager
def serve_process(port: int, log, held=None, **popen):
    """`odds serve --port PORT` in a subprocess (`popen`: more Popen keywords), its output in
    the file `log`; printed when the block fails (pytest shows it with the failure), the
    server (and its process group, when it leads one) killed after the block. `held`: a
    folder shared with the server, whose work is then held for the test (held.serve)."""
    argv, env = ["-m", "odds.frontends.cli.main", "serve"], None
    if held is not None:
        tests = Path(__file__).parent
        argv = ["-c", "import held, sys; held.serve(sys.argv[1:])", str(held)]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tests.parent), str(tests)])}
    with open(log, "w") as sink:
        popen["preexec_fn"] = interruptible(popen.get("preexec_fn"))  # a Ctrl-C test's
        proc = subprocess.Popen([sys.executable, *argv, "--port", str(port)], env=env,
                                stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, **popen)
    try:
        yield proc
    except BaseException:
        print(f"server log ({log}):\n{open(log).read()[-5000:]}")
        raise
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL) if popen.get("start_new_session") else proc.kill()
        proc.wait(timeout=30)
