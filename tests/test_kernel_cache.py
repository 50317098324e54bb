"""The kernel cache: a folder per kernel module and source digest, stale folders deleted,
corrupt files rebuilt, fall-backs where nothing is writable, numba's internals left alone."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import odds

PACKAGE = Path(odds.__file__).parent
QUERY = ("import json, odds; r = odds.his.field_battle(5, 4, attacker_leader=1, method='mc', "
         "trials=200000, seed=3); print(json.dumps(r.to_json()))")
PAIR = re.compile(r"odds\.core\.pair_kernel-[0-9a-f]{20}")  # a plain battle's kernel


def want():
    return odds.his.field_battle(5, 4, attacker_leader=1, method="mc", trials=200_000, seed=3).p


def copy_package(tmp_path):
    target = tmp_path / "site" / "odds"
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def run_python(site, env=None, code=QUERY):
    """`code` in a new process importing the package copy at `site`; NUMBA_CACHE_DIR only
    where `env` sets it."""
    base = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**base, "PYTHONPATH": str(site), **(env or {})}, timeout=600,
                          cwd=site)


def run_query(site, env=None, code=QUERY):
    out = run_python(site, env, code)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)


def kernel_folders(root: Path, pattern=PAIR):
    return sorted(p for p in root.iterdir() if pattern.fullmatch(p.name)) if root.is_dir() else []


def test_a_kernel_is_cached_in_its_own_folder_of_its_sources_digest(tmp_path):
    """By default below the package folder (numba's own default would have put the files in
    each source folder's __pycache__); with NUMBA_CACHE_DIR below that, in `odds/`."""
    pkg = copy_package(tmp_path)
    assert run_query(pkg.parent)["attacker_win"] == want()
    (mine,) = kernel_folders(pkg / "__pycache__" / "kernels")
    assert list(mine.rglob("*.nbi")) and list(mine.rglob("*.nbc"))
    assert not list((pkg / "core").rglob("*.nbi"))
    cache = tmp_path / "cache"
    assert run_query(pkg.parent, {"NUMBA_CACHE_DIR": str(cache)})["attacker_win"] == want()
    (chosen,) = kernel_folders(cache / "odds")
    assert chosen.name == mine.name and list(chosen.rglob("*.nbi"))
    assert [p.name for p in cache.iterdir()] == ["odds"]


def test_an_edited_source_gets_a_new_folder_and_the_stale_ones_are_deleted(tmp_path):
    """Stale: the loaded module's folder of other sources, and the folder of a kernel module
    that no longer exists (moved); another module's folder and a folder not ours stay."""
    pkg = copy_package(tmp_path)
    root = tmp_path / "cache" / "odds"
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    run_query(pkg.parent, env)
    (before,) = kernel_folders(root)
    gone, other, theirs = (root / name for name in (
        "odds.crusades.kernel-" + "0" * 20, "odds.his.naval.kernel-" + "0" * 20, "notes-1"))
    for folder in (gone, other, theirs):
        folder.mkdir()
    rng = pkg / "core" / "rng.py"  # inlined by the kernel, not its own file
    rng.write_text(rng.read_text() + "\n# edited\n")
    assert run_query(pkg.parent, env)["attacker_win"] == want()
    (after,) = kernel_folders(root)
    assert after != before and not before.exists() and list(after.rglob("*.nbi"))
    assert not gone.exists() and other.is_dir() and theirs.is_dir()


# a surprise attack: the kernel resolves each battle with the inlined field.rules.resolve
SURPRISE_QUERY = ("import json, odds; kw = dict(attacker=3, defender=3, attacker_cards=['surprise-attack']); "
                  "mc = odds.his.field_battle(**kw, method='mc', trials=40000, seed=5); "
                  "print(json.dumps([mc.p, mc.se(mc.p), odds.his.field_battle(**kw).p]))")


def test_editing_a_rule_recompiles_the_kernels_that_inline_it(tmp_path):
    pkg = copy_package(tmp_path)
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    before = run_query(pkg.parent, env, SURPRISE_QUERY)
    rules = pkg / "his" / "field" / "rules.py"
    text = rules.read_text()
    assert "code = (ah > dh) + 2 * both" in text
    rules.write_text(text.replace("code = (ah > dh) + 2 * both", "code = (ah >= dh) + 2 * both"))  # ties to the attacker
    after = run_query(pkg.parent, env, SURPRISE_QUERY)
    for mc, se, exact in (before, after):
        assert abs(mc - exact) < 5 * se
    assert after[2] - before[2] > 0.1


def test_a_corrupt_kernel_cache_is_rebuilt(tmp_path):
    pkg = copy_package(tmp_path)
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    first = run_query(pkg.parent, env)
    (mine,) = kernel_folders(tmp_path / "cache" / "odds")
    garbled = list(mine.rglob("*.nbi"))
    assert garbled
    for f in garbled:
        f.write_bytes(b"\x80\x04garbage-not-a-pickle")
    got = run_query(pkg.parent, env)
    assert got["attacker_win"] == first["attacker_win"] == want()
    rebuilt = list(mine.rglob("*.nbi"))
    assert rebuilt and all(f.read_bytes()[:2] != b"\x80\x04g" for f in rebuilt)


def block_package_caches(pkg):
    for folder in [pkg, *[p for p in pkg.rglob("*") if p.is_dir()]]:
        (folder / "__pycache__").write_text("not a folder: nothing can be cached here")


def test_an_unwritable_package_folder_falls_back_to_the_user_cache(tmp_path):
    pkg = copy_package(tmp_path)
    block_package_caches(pkg)
    home = tmp_path / "home"
    out = run_python(pkg.parent, {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")})
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout)["attacker_win"] == want()
    assert out.stderr == ""
    (mine,) = kernel_folders(home / ".cache" / "odds")
    assert list(mine.rglob("*.nbi"))


def test_no_writable_cache_folder_compiles_in_a_temporary_one_with_one_warning(tmp_path):
    """Two kernels, one line; the temporary folder is gone when the process ends."""
    pkg = copy_package(tmp_path)
    block_package_caches(pkg)
    blocked = tmp_path / "a-file"
    blocked.write_text("nothing can be created below a file")
    temp = tmp_path / "tmp"
    temp.mkdir()
    code = QUERY.replace("print(", "odds.oath.campaign(6, defense_dice=4, method='mc', "
                                   "trials=1000, seed=2); print(")
    out = run_python(pkg.parent, {"NUMBA_CACHE_DIR": str(blocked / "numba"), "HOME": str(blocked),
                                  "XDG_CACHE_HOME": str(blocked / "cache"), "TMPDIR": str(temp)},
                     code)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout)["attacker_win"] == want()
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and "without caching" in lines[0] and "Traceback" not in out.stderr
    assert list(temp.iterdir()) == []


def test_nowhere_to_write_at_all_is_one_line_naming_the_setting(tmp_path, monkeypatch):
    from odds.core import kernel_cache

    blocked = tmp_path / "a-file"
    blocked.write_text("nothing can be created below a file")

    def no_temporary_folder(*args, **kwargs):
        raise OSError("read-only file system")

    monkeypatch.setattr(kernel_cache, "roots", lambda: [str(blocked / "odds")])
    monkeypatch.setattr(kernel_cache, "_temporary_folder", no_temporary_folder)
    with pytest.raises(odds.OddsError, match="^NUMBA_CACHE_DIR: no writable folder .*writable"):
        kernel_cache.root.__wrapped__()


def test_a_kernels_first_compile_is_announced_once_and_a_load_is_not(tmp_path):
    """With progress on, the run that compiles a kernel says so in one line on stderr; the
    next process loads it from the cache and says nothing; progress off says nothing."""
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    code = ("import odds; odds.his.field_battle(5, 4, method='mc', trials=100000, seed=3, "
            "progress={})")
    site = copy_package(tmp_path).parent
    quiet = run_python(site, {"NUMBA_CACHE_DIR": str(tmp_path / "other")}, code.format(False))
    cold = run_python(site, env, code.format(True))
    warm = run_python(site, env, code.format(True))
    assert quiet.returncode == cold.returncode == warm.returncode == 0
    notes = [line for line in cold.stderr.splitlines() if "compiling a Monte Carlo kernel" in line]
    assert len(notes) == 1 and "odds warmup" in notes[0]
    assert "compiling" not in warm.stderr and "compiling" not in quiet.stderr


# After a compile and a load in one process: numba's own compiler steps and cache loading,
# numba's cache setting as the user left it.
UNTOUCHED = """
import json, numba, odds
from numba.core import analysis, caching, dispatcher
from numba.core.types import functions
before = (analysis.compute_live_map, functions.BaseFunction.get_call_type,
          caching.Cache.load_overload, dispatcher.Dispatcher._compilation_chain_init_hook)
odds.his.field_battle(5, 4, method='mc', trials=1000, seed=3)
odds.oath.campaign(6, defense_dice=4, method='mc', trials=1000, seed=2)
after = (analysis.compute_live_map, functions.BaseFunction.get_call_type,
         caching.Cache.load_overload, dispatcher.Dispatcher._compilation_chain_init_hook)
import sys
kernels = [v for m in ("odds.core.pair_kernel", "odds.oath.campaigns.kernel")
           for v in vars(sys.modules[m]).values() if isinstance(v, dispatcher.Dispatcher)]
plain = all("_compilation_chain_init_hook" not in vars(k) for k in kernels) and len(kernels) > 1
print(json.dumps([before == after, plain, numba.config.CACHE_DIR]))
"""


def test_numbas_internals_are_left_alone_by_default(tmp_path):
    site = copy_package(tmp_path).parent
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    run_query(site, env, QUERY)  # the field kernel is loaded below, the Oath kernel compiled
    assert run_query(site, env, UNTOUCHED) == [True, True, str(tmp_path / "cache")]


def test_the_package_source_names_no_numba_internals_outside_the_opt_in():
    pattern = re.compile(r"numba\.core|CacheLocator|_locator_classes|_compilation_chain|cython_blas")
    found = [str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
             if pattern.search(p.read_text(encoding="utf-8"))]
    assert found == [os.path.join("core", "compile_speed.py")]
