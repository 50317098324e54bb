"""Kernels loaded from threads at once, thread counts across processes, Ctrl-C on huge runs
(the kernel cache itself: test_kernel_cache.py)."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path


import odds
from terminal import Run

PACKAGE = Path(odds.__file__).parent
QUERY = ("import json, odds; r = odds.his.field_battle(5, 4, attacker_leader=1, method='mc', "
         "trials=200000, seed=3); print(json.dumps(r.to_json()))")


def copy_package(tmp_path, keep_cache=True):
    target = tmp_path / "site" / "odds"
    shutil.copytree(PACKAGE, target, ignore=None if keep_cache else shutil.ignore_patterns("__pycache__"))
    return target


def run_python(site, env=None, code=QUERY):
    env = {**os.environ, "PYTHONPATH": str(site), **(env or {})}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=600, cwd=site)


def run_query(site, env=None, code=QUERY):
    out = run_python(site, env, code)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)


def test_threads_loading_kernels_at_once_all_answer(tmp_path):
    # the web server loads kernels from a warm-up thread and from requests at once
    code = ("import json, odds; from concurrent.futures import ThreadPoolExecutor as P\n"
            "ask = lambda kw: odds.his.field_battle(6, 5, **kw, method='mc', trials=20000, seed=1).p\n"
            "kws = [{}, {'attacker_cards': ['surprise-attack']}] * 3\n"
            "with P(6) as pool: print(json.dumps(list(pool.map(ask, kws))))")
    got = run_query(copy_package(tmp_path, keep_cache=False).parent,
                    {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}, code)
    assert got[0::2] == [got[0]] * 3 and got[1::2] == [got[1]] * 3 and got[0] != got[1]


def test_same_seed_same_numbers_across_processes_and_thread_counts(tmp_path):
    one = run_query(PACKAGE.parent, {"NUMBA_NUM_THREADS": "1"})
    two = run_query(PACKAGE.parent, {"NUMBA_NUM_THREADS": "2"})
    assert one == two


def test_ctrl_c_on_ten_billion_trials_prints_the_partial_json():
    run = Run("his", "field", "--attacker", "5", "--defender", "4", "--method", "mc", "--trials",
              str(10**10), "--seed", "1", "--json")
    run.wait_for("%")  # the progress bar (stderr is a terminal): the run is under way
    code, out = run.interrupt()
    assert code == 130, run.err[-1000:]
    j = json.loads(out)
    assert j["partial"] is True and 0 < j["trials"] < 10**10
    assert abs(sum(j["attacker_losses"].values()) - 1) < 1e-9
    assert "partial" in run.err


def test_no_progress_bar_when_stderr_is_not_a_terminal():
    """A run long enough for a bar, its stderr a pipe (a log file, CI): nothing on stderr."""
    out = subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", "his", "field", "--attacker", "5",
                          "--defender", "4", "--method", "mc", "--trials", str(2 * 10**8)],
                         capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert out.returncode == 0 and out.stderr == ""


def test_crusades_loads_its_kernel_through_the_cache_check():
    """Runs, single battles and traces load the crusades kernel with kernel_cache.load, whose
    digest covers the AI and state modules the kernel compiles in (numba alone checks only
    kernel.py, so an edited ai.py would run stale code)."""
    from odds.core import kernel_cache
    from odds.crusades import EXAMPLES, play, run

    kernel_cache._folders.pop("odds.crusades.simulator.kernel", None)
    play(EXAMPLES / "field.toml", seed=1)
    assert "odds.crusades.simulator.kernel" in kernel_cache._folders
    kernel_cache._folders.pop("odds.crusades.simulator.kernel", None)
    run(EXAMPLES / "field.toml", battles=100, seed=1, progress=False)
    assert "odds.crusades.simulator.kernel" in kernel_cache._folders
    files = {os.path.basename(f) for f in kernel_cache.sources("odds.crusades.simulator.kernel")}
    assert {"kernel.py", "ai.py", "state.py"} <= files
