"""Hostile runs, part IV: nothing hangs and nothing grows without bound. Each case runs the
command line under an address-space limit and a wall-clock limit (tests/limited.py)."""
import http.server
import socket
import threading

import pytest

from limited import odds_cli

MEMORY = 3 << 30
SPEC = 'procedure = "his.field"\n[grid]\nattacker = [1, 2]\n[fixed]\ndefender = 1\n'


def one_line(run, words):
    """The run was refused with exit code 2 and one line holding `words`."""
    assert run.returncode == 2, run.stderr[-2000:]
    assert words in run.stderr and run.stderr.count("\n") == 1, run.stderr[-2000:]


@pytest.fixture
def spec(tmp_path):
    (tmp_path / "spec.toml").write_text(SPEC)
    return tmp_path / "spec.toml"


def sweep_on(spec, address):
    return odds_cli(["sweep", str(spec), "--scheduler", address], MEMORY, 30, cwd=spec.parent)


@pytest.fixture
def silent_port():
    """A loopback port that accepts connections and never says anything."""
    server = socket.create_server(("127.0.0.1", 0))
    held = []
    threading.Thread(target=lambda: held.extend(iter(server.accept, None)), daemon=True).start()
    yield server.getsockname()[1]
    server.close()


@pytest.fixture
def http_port():
    """A plain HTTP server on loopback (it waits for a request, as a dask client waits for a
    handshake)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_a_port_that_never_answers_is_refused_within_30_s(spec, silent_port):
    one_line(sweep_on(spec, f"tcp://127.0.0.1:{silent_port}"), "not a dask scheduler (no dask answer")


def test_a_plain_http_server_is_refused_within_30_s(spec, http_port):
    one_line(sweep_on(spec, f"tcp://127.0.0.1:{http_port}"), "not a dask scheduler")


@pytest.mark.parametrize("address, words", [
    ("tcp://127.0.0.1:99999", "is not an address"),
    ("tcp://[::1", "is not an address"),
    ("tcp://127.0.0.1", "is not an address"),
    ("udp://127.0.0.1:8786", "is not an address"),
])
def test_a_malformed_scheduler_address_is_one_line(spec, address, words):
    one_line(sweep_on(spec, address), words)


def test_tls_without_dask_security_settings_is_one_line(spec, silent_port):
    one_line(sweep_on(spec, f"tls://127.0.0.1:{silent_port}"), "not a dask scheduler")


def test_a_real_dask_scheduler_runs_the_sweep(spec):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  protocol="tcp", host="127.0.0.1", dashboard_address=":0") as cluster:
        run = sweep_on(spec, cluster.scheduler_address)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert lines[0].split()[:2] == ["defender", "attacker"] and len(lines) == 3
