"""Hostile runs, part IV: nothing hangs and nothing grows without bound. Each case runs the
command line under an address-space limit and a wall-clock limit (tests/limited.py)."""
import http.server
import os
import re
import socket
import threading

import pytest

from hang import GUARD
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
    """`odds sweep SPEC --scheduler ADDRESS` (hang.GUARD bounds it against a hang; the
    scheduler's own timeout is cli/sweep.py's SCHEDULER_TIMEOUT)."""
    return odds_cli(["sweep", str(spec), "--scheduler", address], MEMORY, GUARD, cwd=spec.parent)


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


def test_a_port_that_never_answers_is_refused_in_one_line(spec, silent_port):
    one_line(sweep_on(spec, f"tcp://127.0.0.1:{silent_port}"), "not a dask scheduler (no dask answer")


def test_a_plain_http_server_is_refused_in_one_line(spec, http_port):
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


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """Results files too large to draw: a heatmap of 20,000 x 20,000 cells from 20,000 rows,
    100,001 rows (csv and parquet), and 100,000 values of one --by column."""
    import numpy as np
    import pandas as pd

    d = tmp_path_factory.mktemp("plots")
    n = 20_000
    wide = pd.DataFrame({"attacker": np.arange(n), "defender": np.arange(n)[::-1],
                         "attacker_win": np.linspace(0, 1, n), "attacker_win_se": 0.0})
    wide.to_csv(d / "wide.csv", index=False)
    n = 100_001
    long = pd.DataFrame({"attacker": np.arange(n) % 10, "defender": np.arange(n),
                         "attacker_win": 0.5, "attacker_win_se": 0.0})
    long.to_csv(d / "long.csv", index=False)
    long.to_parquet(d / "long.parquet")
    long.iloc[:100_000].to_csv(d / "by.csv", index=False)
    return d


@pytest.mark.parametrize("argv, words", [
    (["wide.csv", "--x", "attacker", "--y", "defender"],
     "attacker x defender: 20,000 x 20,000 = 400,000,000 heatmap cells (allowed: at most 250,000"),
    (["wide.csv", "--x", "attacker", "--y", "defender", "--diff", "attacker_win=0,1"], "heatmap cells"),
    (["long.csv", "--x", "attacker"], "more than 100,000 rows (allowed: at most 100,000"),
    (["long.parquet", "--x", "attacker"], "100,001 rows (allowed: at most 100,000"),
    (["by.csv", "--x", "attacker", "--by", "defender"],
     "defender: 100,000 values, one line each (allowed: at most 20 lines"),
])
def test_a_plot_too_large_to_draw_is_refused_before_drawing(results, argv, words):
    one_line(odds_cli(["plot", *argv], MEMORY, 60, cwd=results), words)
    assert not list(results.glob("*.png"))


def test_the_plot_bounds_hold_in_python_too(monkeypatch):
    import matplotlib
    import pandas as pd

    matplotlib.use("Agg")
    from odds import OddsError, plot

    df = pd.DataFrame({"attacker": [1, 2] * 21, "variant": [f"v{i // 2}" for i in range(42)],
                       "attacker_win": 0.5, "attacker_win_se": 0.0})
    assert len(plot.lines(df.iloc[:40], "attacker", by="variant").get_lines()) == 20
    with pytest.raises(OddsError, match="variant: 21 values, one line each"):
        plot.lines(df, "attacker", by="variant")
    monkeypatch.setattr(plot, "PLOT_MAX_CELLS", 41)
    with pytest.raises(OddsError, match="attacker x variant: 2 x 21 = 42 heatmap cells"):
        plot.heatmap(df, "attacker", "variant")


def after_a_multiline_string(levels: int) -> str:
    """A TOML list whose nesting follows a multi-line ''' string (which a scan of the text line
    by line takes for the end of a string and the start of another)."""
    return "['''\n''', " + "[" * levels + "]" * levels + "]"


DEEP = "nested more than 16 levels deep (allowed: at most 16)"


@pytest.mark.parametrize("levels", [300, 3000])
def test_a_set_value_nested_after_a_multiline_string_is_one_line(tmp_path, levels):
    from odds.crusades import EXAMPLES

    argv = ["crusades", "run", str(EXAMPLES / "field.toml"), "--battles", "10", "--set",
            "rules.turn_limit=" + after_a_multiline_string(levels)]
    one_line(odds_cli(argv, MEMORY, 60, cwd=tmp_path), f"--set rules.turn_limit: {DEEP}")


@pytest.mark.parametrize("levels", [300, 3000])
def test_toml_files_nested_after_a_multiline_string_are_one_line(tmp_path, levels):
    from odds.crusades import EXAMPLES

    value = after_a_multiline_string(levels)
    (tmp_path / "s.toml").write_text((EXAMPLES / "field.toml").read_text()
                                     .replace("[rules]", f"[rules]\nbreakthrough_depth = {value}"))
    one_line(odds_cli(["crusades", "run", "s.toml", "--battles", "10"], MEMORY, 60, cwd=tmp_path), DEEP)
    (tmp_path / "spec.toml").write_text(SPEC + f"attacker_cards = {value}\n")
    one_line(odds_cli(["sweep", "spec.toml"], MEMORY, 60, cwd=tmp_path), DEEP)


def test_python_overrides_and_scenario_tables_nested_too_deep_are_one_line():
    from odds import OddsError
    from odds.crusades import EXAMPLES, load

    deep = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(OddsError, match=re.escape(f"--set rules.turn_limit: {DEEP}")):
        load(EXAMPLES / "field.toml", overrides={"rules.turn_limit": deep})
    with pytest.raises(OddsError, match=re.escape(f"<scenario>: {DEEP}")):
        load({"rules": {"turn_limit": deep}})
    with pytest.raises(OddsError, match="expected KEY=VALUE"):
        load(EXAMPLES / "field.toml", overrides=[("rules.turn_limit", 5, 6)])


def test_the_web_refuses_a_scenario_nested_after_a_multiline_string_with_a_400():
    import json
    import urllib.error
    import urllib.request

    from odds.crusades import EXAMPLES
    from web_server import running

    body = (EXAMPLES / "field.toml").read_text().replace(
        "turn_limit = 20", f"turn_limit = {after_a_multiline_string(300)}").encode()
    with running() as srv:
        url = f"http://127.0.0.1:{srv.port}/api/crusades.battle?trials=10"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(url, data=body), timeout=60)
    assert refused.value.code == 400
    assert json.loads(refused.value.read())["error"] == f"scenario (the request body): {DEEP}"


def test_ctrl_c_to_a_sweep_on_two_workers_keeps_the_finished_cells(tmp_path):
    """Ctrl-C at a terminal reaches the process group, the local cluster's workers too. The
    sweep has far more work left (60 cells of 3e7 trials) than runs between its bar's first
    cells and the Ctrl-C."""
    from hang import poll
    from held import alive
    import pandas as pd

    from terminal import Run

    (tmp_path / "spec.toml").write_text('procedure = "his.field"\nmethod = "mc"\ntrials = 30000000\n'
                                        '[grid]\nattacker = {start = 1, stop = 64}\n[fixed]\ndefender = 4\n')
    run = Run("sweep", tmp_path / "spec.toml", "--workers", "2", "--out", tmp_path / "r.csv",
              memory=MEMORY, group=True)
    run.wait_for(re.compile(r"\b[1-9]\d*/64"))  # the bar: a batch of cells is done
    code, out = run.interrupt()
    kept = pd.read_csv(tmp_path / "r.csv")
    assert code == 130, run.err[-2000:]
    poll(lambda: not alive(run.proc.pid, group=True), "the end of the sweep's workers")
    assert 1 <= len(kept) < 64 and f"{len(kept)} cells -> " in out
    assert f"interrupted: partial result, {len(kept)} of 64 cells ({64 - len(kept)} cells missing)" in run.err
    assert "Traceback" not in run.err and "WARNING" not in run.err, run.err[-2000:]


WRITERS = {  # every command that writes a file, with each of its formats (issue 47: a PDF on a
    # full disk was matplotlib's AttributeError, hiding "No space left on device")
    ("sweep", "spec.toml", "--out"): ("csv", "parquet"),
    ("plot", "ok.csv", "--x", "attacker", "--out"): ("png",),
    ("chart", "his.field", "--attacker", "1..6", "--defender", "1..6", "--out"): ("pdf", "png"),
    ("luck", "game.toml", "--brief", "--out"): ("csv",),
    ("luck", "game.toml", "--brief", "--plot"): ("png", "pdf", "svg"),
}
OUTPUTS = [[*argv, f"r.{kind}"] for argv, kinds in WRITERS.items() for kind in kinds]


@pytest.mark.parametrize("argv", OUTPUTS, ids=[f"{a[0]}-{a[-1]}" for a in OUTPUTS])
def test_an_output_that_fails_mid_write_leaves_the_old_file_whole(tmp_path, argv):
    from odds.tools.luck.report import SAMPLE

    (tmp_path / "spec.toml").write_text('procedure = "his.field"\n[grid]\nattacker = {start = 1, '
                                        'stop = 100}\n[fixed]\ndefender = 3\n')
    (tmp_path / "ok.csv").write_text("attacker,attacker_win,attacker_win_se\n1,0.2,0\n2,0.6,0\n")
    (tmp_path / "game.toml").write_text(SAMPLE.read_text(encoding="utf-8"))
    old = tmp_path / argv[-1]
    old.write_bytes(b"the previous results")
    run = odds_cli(argv, MEMORY, 60, cwd=tmp_path, file_size=4096)  # each output is larger
    one_line(run, f"{argv[-2]}: {old.name}: cannot be written (")
    assert "File too large" in run.stderr
    assert old.read_bytes() == b"the previous results"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["spec.toml", "ok.csv", "game.toml",
                                                                 old.name])


def test_a_second_ctrl_c_during_a_first_compile_ends_the_command_at_once(tmp_path):
    """The first Ctrl-C waits for numba's compiler (interrupted half way, or left running while
    the interpreter exits, it can crash the process); a second ends the process: 130, before
    the kernel has compiled (none is in the cache)."""
    from odds.crusades import EXAMPLES
    from terminal import Run

    run = Run("crusades", "run", EXAMPLES / "field.toml", "--battles", "100", memory=MEMORY,
              group=True, env={"NUMBA_CACHE_DIR": str(tmp_path)})  # an empty kernel cache
    run.wait_for("compiling a Monte Carlo kernel")
    code, _ = run.interrupt(then="stopping when the kernel has compiled (Ctrl-C again to quit now)")
    assert code == 130 and run.err.endswith("odds: interrupted\r\n"), run.err[-2000:]
    assert not list(tmp_path.rglob("*.nbi")), "the kernel compiled: the second Ctrl-C waited for it"
    assert "Traceback" not in run.err, run.err[-2000:]


def test_a_second_ctrl_c_to_the_server_lets_the_requests_under_way_finish(tmp_path):
    """A real `odds serve` in its own process group, its work held (held.serve); eight requests
    under way when two Ctrl-Cs reach the group: four Monte Carlo runs of 10^10 trials, which the
    first stops (partial answers), and four exact answers, held past the second, then let go."""
    import json
    import signal
    import urllib.error
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    from hang import poll
    from held import Hold
    from limited import limit
    from odds.config import MAX_TRIALS
    from web_server import free_port, serve_process, wait_listening

    port, log, held = free_port(), tmp_path / "server.log", tmp_path / "held"
    hold = Hold(held)

    def status(query):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{query}", timeout=300) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:  # uvicorn's 500 is text, ours are JSON
            return e.code, e.read().decode()

    def arrived() -> int:
        return len((held / "requests").read_text().splitlines()) if (held / "requests").exists() else 0

    mc = [f"/api/his.field?attacker={a}&defender=5&method=mc&trials={MAX_TRIALS}&seed={a}"
          for a in range(3, 7)]
    exact = [f"/api/his.siege?attacker={a}&defender=4&assaults=3&method=exact" for a in range(5, 9)]
    with serve_process(port, log, held=held, start_new_session=True,
                       preexec_fn=limit(MEMORY)) as server:
        wait_listening(port)
        with ThreadPoolExecutor(len(mc + exact)) as pool:
            answers = [pool.submit(status, q) for q in mc + exact]
            poll(lambda: arrived() == len(answers) and hold.started() == len(exact),
                 "every request under way")
            os.killpg(server.pid, signal.SIGINT)
            poll(lambda: all(a.done() for a in answers[:len(mc)]), "the stopped runs' answers")
            os.killpg(server.pid, signal.SIGINT)
            poll(lambda: "odds: stopping: the requests under way" in log.read_text(),
                 "the second Ctrl-C's line")
            held_past = [not a.done() for a in answers[len(mc):]]
            hold.release()
            answers = [a.result() for a in answers]
        code = server.wait(timeout=GUARD)
    shown = f"answers {[(s, b[:200]) for s, b in answers]}; server log:\n{log.read_text()[-3000:]}"
    assert [s for s, _ in answers] == [200] * len(answers) and all(held_past), shown
    runs = [json.loads(b) for _, b in answers[:len(mc)]]
    assert all(r["partial"] and r["notes"][-1].endswith("the server is stopping") for r in runs), shown
    assert all(json.loads(b)["method"] == "exact" for _, b in answers[len(mc):]), shown
    assert code == 130 and "Traceback" not in log.read_text(), shown


def test_every_subprocess_call_in_the_tests_has_a_timeout():
    """subprocess.run/check_output/call and Popen.wait/communicate in tests/*.py name a
    timeout (pytest-timeout bounds each test as well: pyproject.toml)."""
    import ast
    from pathlib import Path

    runs, waits = {"run", "check_output", "check_call", "call"}, {"wait", "communicate"}
    unbounded = []
    for path in sorted(Path(__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            name, owner = node.func.attr, ast.unparse(node.func.value)
            if (name in runs and owner == "subprocess" or name in waits and not node.args) and \
                    not any(k.arg == "timeout" for k in node.keywords):
                unbounded.append(f"{path.name}:{node.lineno}: {ast.unparse(node)[:80]}")
    assert not unbounded, "\n".join(unbounded)


def test_the_suite_has_a_time_limit_per_test():
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert any(d.startswith("pytest-timeout") for d in project["project"]["optional-dependencies"]["test"])
    assert project["tool"]["pytest"]["ini_options"]["timeout"] >= 60


def test_a_request_cancelled_by_the_stopping_server_is_a_503_not_a_500():
    import asyncio
    import json

    from odds.frontends.web.limits import WEB_RETRY_AFTER
    from odds.frontends.web.app import StoppingIs503

    async def cut_short(scope, receive, send):
        raise asyncio.CancelledError  # what uvicorn does to a request still running at the end

    async def started_then_cut(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        raise asyncio.CancelledError

    def sent(app):
        messages = []

        async def send(message):
            messages.append(message)

        async def ask():
            await StoppingIs503(app)({"type": "http", "method": "GET", "path": "/"}, None, send)

        try:
            asyncio.run(ask())
        except asyncio.CancelledError:
            return messages, "cancelled"
        return messages, "answered"

    messages, how = sent(cut_short)
    assert how == "answered" and messages[0]["status"] == 503
    assert dict(messages[0]["headers"])[b"retry-after"] == str(WEB_RETRY_AFTER).encode()
    assert json.loads(messages[1]["body"]) == {"error": "the server is stopping: try again in a few seconds"}
    messages, how = sent(started_then_cut)  # a response under way is not replaced
    assert how == "cancelled" and [m["status"] for m in messages] == [200]
