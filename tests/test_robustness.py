"""Kernel cache (read-only package, corrupt files), thread counts across processes, Ctrl-C on huge runs."""
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


def test_a_corrupt_kernel_cache_is_rebuilt(tmp_path):
    pkg = copy_package(tmp_path, keep_cache=False)
    first = run_query(pkg.parent)  # compiles the query's kernel (the pair kernel) into the copy
    garbled = list(pkg.glob("core/__pycache__/pair_kernel*.nbi"))
    assert garbled
    for f in garbled:
        f.write_bytes(b"\x80\x04garbage-not-a-pickle")
    want = odds.his.field_battle(5, 4, attacker_leader=1, method="mc", trials=200_000, seed=3)
    got = run_query(pkg.parent)
    assert got["attacker_win"] == first["attacker_win"] == want.p
    assert all(f.read_bytes()[:2] != b"\x80\x04g" for f in garbled if f.exists())  # rebuilt


def test_threads_loading_kernels_at_once_all_answer(tmp_path):
    # the web server loads kernels from a warm-up thread and from requests at once
    code = ("import json, odds; from concurrent.futures import ThreadPoolExecutor as P\n"
            "ask = lambda kw: odds.his.field_battle(6, 5, **kw, method='mc', trials=20000, seed=1).p\n"
            "kws = [{}, {'attacker_cards': ['surprise-attack']}] * 3\n"
            "with P(6) as pool: print(json.dumps(list(pool.map(ask, kws))))")
    got = run_query(copy_package(tmp_path, keep_cache=False).parent,
                    {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}, code)
    assert got[0::2] == [got[0]] * 3 and got[1::2] == [got[1]] * 3 and got[0] != got[1]


def test_a_kernel_loads_from_the_cache_without_numbas_compiler_set_up_and_compiling_still_works(
        tmp_path):
    """Loading a cached kernel skips numba's registry set-up (kernel_cache._lighten_numba) and
    its scan for third-party extensions (numba still does both before compiling), does not
    import numba's array module (no kernel reshapes: flat_out) nor set up numba's runtime
    (the kernel allocates nothing: _nrt=False); a kernel
    compiled after that in the same process gives the same numbers as in a process
    that compiled everything."""
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    oath = ("odds.oath.campaign(6, defense_dice=4, method='mc', trials=100000, seed=2)"
            ".to_json()['attacker_win']")
    code = ("import json, sys, odds; r = odds.his.field_battle(5, 4, method='mc', trials=100000, "
            "seed=3); loaded = 'numba.np.arraymath' not in sys.modules and 'numba.np.arrayobj' "
            "not in sys.modules and not "
            "sys.modules['numba.core.entrypoints']._already_initialized and not "
            "sys.modules['numba.core.runtime'].rtsys._init; "
            f"print(json.dumps([loaded, r.p, {oath}]))")
    site = copy_package(tmp_path, keep_cache=False).parent
    cold = run_query(site, env, code.replace(f", {oath}", ""))  # compiles the field kernel only
    warm = run_query(site, env, code)  # loads it, then compiles the Oath kernel
    assert cold[0] is False and warm[0] is True and cold[1] == warm[1]
    fresh = run_query(site, {"NUMBA_CACHE_DIR": str(tmp_path / "other")}, code)
    assert fresh[2] == warm[2]


def test_an_unwritable_package_folder_falls_back_to_the_user_cache(tmp_path):
    pkg = copy_package(tmp_path, keep_cache=False)
    for folder in [pkg, *[p for p in pkg.rglob("*") if p.is_dir()]]:
        (folder / "__pycache__").write_text("not a folder: numba cannot cache here")
    home = tmp_path / "home"
    got = run_query(pkg.parent, {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")})
    want = odds.his.field_battle(5, 4, attacker_leader=1, method="mc", trials=200_000, seed=3)
    assert got["attacker_win"] == want.p
    assert list((home / ".cache").rglob("*pair_kernel*.nbi"))  # a plain battle's kernel


# a surprise attack: the kernel resolves each battle with the inlined field_rules.resolve
SURPRISE_QUERY = ("import json, odds; kw = dict(attacker=3, defender=3, attacker_cards=['surprise-attack']); "
                  "mc = odds.his.field_battle(**kw, method='mc', trials=40000, seed=5); "
                  "print(json.dumps([mc.p, mc.se(mc.p), odds.his.field_battle(**kw).p]))")


def test_editing_a_rule_recompiles_the_kernels_that_inline_it(tmp_path):
    pkg = copy_package(tmp_path)  # with the compiled kernels: numba alone would reuse them
    before = run_query(pkg.parent, code=SURPRISE_QUERY)
    rules = pkg / "his" / "field_rules.py"
    text = rules.read_text()
    assert "code = (ah > dh) + 2 * both" in text
    rules.write_text(text.replace("code = (ah > dh) + 2 * both", "code = (ah >= dh) + 2 * both"))  # ties to the attacker
    after = run_query(pkg.parent, code=SURPRISE_QUERY)
    for mc, se, exact in (before, after):
        assert abs(mc - exact) < 5 * se
    assert after[2] - before[2] > 0.1


def test_no_writable_cache_folder_compiles_without_caching(tmp_path):
    pkg = copy_package(tmp_path, keep_cache=False)
    for folder in [pkg, *[p for p in pkg.rglob("*") if p.is_dir()]]:
        (folder / "__pycache__").write_text("not a folder: numba cannot cache here")
    blocked = tmp_path / "a-file"
    blocked.write_text("nothing can be created below a file")
    out = run_python(pkg.parent, {"NUMBA_CACHE_DIR": str(blocked / "numba"), "HOME": str(blocked),
                                  "XDG_CACHE_HOME": str(blocked / "cache")})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stderr.count("without caching") == 1 and "Traceback" not in out.stderr
    want = odds.his.field_battle(5, 4, attacker_leader=1, method="mc", trials=200_000, seed=3)
    assert json.loads(out.stdout)["attacker_win"] == want.p


def test_same_seed_same_numbers_across_processes_and_thread_counts(tmp_path):
    one = run_query(PACKAGE.parent, {"NUMBA_NUM_THREADS": "1"})
    two = run_query(PACKAGE.parent, {"NUMBA_NUM_THREADS": "2"})
    assert one == two


def test_ctrl_c_on_ten_billion_trials_prints_the_partial_json():
    run = Run("his", "field", "--attacker", "5", "--defender", "4", "--method", "mc", "--trials",
              str(10**10), "--seed", "1", "--json")
    run.wait_for("%")  # the progress bar (stderr is a terminal): the run is under way
    code, out, seconds = run.interrupt(timeout=60)
    assert seconds < 2
    assert code == 130, run.err[-1000:]
    j = json.loads(out)
    assert j["partial"] is True and 0 < j["trials"] < 10**10
    assert abs(sum(j["attacker_losses"].values()) - 1) < 1e-9
    assert "partial" in run.err


def test_no_progress_bar_when_stderr_is_not_a_terminal():
    """A run long enough for a bar, its stderr a pipe (a log file, CI): nothing on stderr."""
    out = subprocess.run([sys.executable, "-m", "odds.cli", "his", "field", "--attacker", "5",
                          "--defender", "4", "--method", "mc", "--trials", str(2 * 10**8)],
                         capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert out.returncode == 0 and out.stderr == ""


def test_a_kernels_first_compile_is_announced_once_and_a_load_is_not(tmp_path):
    """With progress on, the run that compiles a kernel says so in one line on stderr; the
    next process loads it from the cache and says nothing; progress off says nothing."""
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    code = ("import odds; odds.his.field_battle(5, 4, method='mc', trials=100000, seed=3, "
            "progress={})")
    site = copy_package(tmp_path, keep_cache=False).parent
    quiet = run_python(site, {"NUMBA_CACHE_DIR": str(tmp_path / "other")}, code.format(False))
    cold = run_python(site, env, code.format(True))
    warm = run_python(site, env, code.format(True))
    assert quiet.returncode == cold.returncode == warm.returncode == 0
    notes = [line for line in cold.stderr.splitlines() if "compiling a Monte Carlo kernel" in line]
    assert len(notes) == 1 and "odds warmup" in notes[0]
    assert "compiling" not in warm.stderr and "compiling" not in quiet.stderr


def test_crusades_loads_its_kernel_through_the_cache_check():
    """Runs, single battles and traces load the crusades kernel with kernel_cache.load, whose
    digest covers the AI and state modules the kernel compiles in (numba alone checks only
    kernel.py, so an edited ai.py would run stale code)."""
    from odds.core import kernel_cache
    from odds.crusades import EXAMPLES, play, run

    kernel_cache._loaded.discard("odds.crusades.kernel")
    play(EXAMPLES / "field.toml", seed=1)
    assert "odds.crusades.kernel" in kernel_cache._loaded
    kernel_cache._loaded.discard("odds.crusades.kernel")
    run(EXAMPLES / "field.toml", battles=100, seed=1, progress=False)
    assert "odds.crusades.kernel" in kernel_cache._loaded
    files = {os.path.basename(f) for f in kernel_cache.sources("odds.crusades.kernel")}
    assert {"kernel.py", "ai.py", "state.py"} <= files
