"""Numba's on-disk kernel cache: keyed on every source a kernel inlines, rebuilt when corrupt,
skipped where nothing is writable.

numba caches compiled kernels beside the source (`__pycache__`) or, when the package folder is
read-only, in the user-wide cache folder (or NUMBA_CACHE_DIR), and checks only the file that
defines the cached function. A kernel inlines its rules, the chance sequence and the RNG from
other modules, so `load` keeps a digest of all of them (`<module>.sources` beside numba's
index) and deletes the compiled files when it changed. Where no cache folder is writable,
`load` imports the kernel without caching and says so in one line. A truncated or garbled
cache file makes numba raise while loading; `call` then deletes this package's cache files
and calls again, so the kernel is recompiled instead of the query failing.
"""
from __future__ import annotations

import glob
import hashlib
import os
import re
import sys
import threading
import traceback
from contextlib import contextmanager
from functools import lru_cache
from importlib import import_module
from importlib.util import resolve_name

from . import compile_speed

PACKAGE = __name__.split(".")[0]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the package folder
_loaded: set = set()  # kernel modules checked in this process
_lock = threading.Lock()
_warned = False
_WITHOUT_NRT: set = set()  # functions of loaded kernels compiled with _nrt=False (_light_calls)


def _probe():  # any function: the locators only read its first line number
    pass


def _locators(py_file: str):
    from numba.core import caching

    for cls in (caching.UserProvidedCacheLocator, caching.InTreeCacheLocator,
                caching.UserWideCacheLocator):
        try:
            locator = cls(_probe, py_file)
        except Exception:  # a locator that does not apply here (e.g. no NUMBA_CACHE_DIR)
            continue
        yield locator.get_cache_path()


@lru_cache(maxsize=None)
def folder(py_file: str) -> str | None:
    """The folder numba caches the functions of `py_file` in, or None if none is writable."""
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # _CacheImpl in older numba
    for cls in impl._locator_classes:
        locator = cls.from_function(_probe, py_file)
        if locator is not None:
            return locator.get_cache_path()
    return None


def _source(module: str) -> str | None:
    """The file of a module of this package, found without importing it."""
    base = os.path.join(ROOT, *module.split(".")[1:])
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return path
    return None


_FROM = re.compile(r"^[ \t]*from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w., \t]+)", re.M)


def sources(module: str) -> list[str]:
    """The files of `module` and of every module of this package it imports, transitively
    (import statements read as text: a stray match only adds a file)."""
    found, todo = {}, [module]
    while todo:
        name = todo.pop()
        path = _source(name)
        if name in found or path is None:
            continue
        found[name] = path
        package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for base, names in _FROM.findall(text):
            base = resolve_name(base, package) if base.startswith(".") else base
            todo += [base] + [f"{base}.{n}" for n in re.findall(r"\w+", names.split("#")[0])]
        for names in _IMPORT.findall(text):
            todo += [n.strip() for n in names.split(",")]
        todo = [n for n in todo if n == PACKAGE or n.startswith(PACKAGE + ".")]
    return sorted(set(found.values()))


def digest(files) -> str:
    h = hashlib.sha256()
    for path in files:
        with open(path, "rb") as f:
            h.update(os.path.relpath(path, ROOT).encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def refresh(module: str, files: list[str]) -> None:
    """Delete the compiled kernels of `module` (and the helpers cached from the modules it
    imports) if any of `files` changed since they were compiled; record the new digest."""
    place = folder(_source(module))
    stamp = os.path.join(place, _stem(_source(module)) + ".sources")
    now = digest(files)
    try:
        with open(stamp, encoding="utf-8") as f:
            if f.read() == now:
                return
    except OSError:
        pass
    for path in files:
        where = folder(path)
        for ext in ("nbi", "nbc"):
            for cached in glob.glob(os.path.join(where, f"{_stem(path)}.*.{ext}")) if where else ():
                try:
                    os.remove(cached)
                except OSError:
                    pass
    part = f"{stamp}.{os.getpid()}"
    with open(part, "w", encoding="utf-8") as f:
        f.write(now)
    os.replace(part, stamp)


@contextmanager
def _without_caching():
    """Import with `cache=True` ignored (numba would raise: no writable cache folder)."""
    from numba.core.dispatcher import Dispatcher

    enable = Dispatcher.enable_caching
    Dispatcher.enable_caching = lambda self: None
    try:
        yield
    finally:
        Dispatcher.enable_caching = enable


def _skip_blas_probe() -> None:
    """Import numba's array functions without their BLAS probe: it imports scipy.linalg (about
    0.3 s of every process that compiles a kernel, where scipy is installed) only to choose how
    numba's np.convolve/np.correlate multiply, which no kernel uses. numba's linear algebra
    still imports scipy when something compiles it."""
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    sys.modules["scipy.linalg.cython_blas"] = None  # the probe's import fails at once
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        sys.modules.pop("scipy.linalg.cython_blas", None)


def _before_compiling() -> None:
    """numba's registries without the BLAS probe, and its compiler's slowest steps faster
    (`compile_speed`)."""
    _skip_blas_probe()
    compile_speed.install()


@lru_cache(maxsize=None)
def _lighten_numba() -> None:
    """Two changes to how numba starts, once per process; compiled code is the same.

    - Loading a cached kernel: numba refreshes its whole target context first, importing and
      installing every typing and lowering registry (about 0.2 s of a warm Monte Carlo
      process), which only compiling needs, and numba's compiler refreshes it itself before
      compiling. Loading needs only the runtime (NRT) the kernels allocate with, and a
      kernel compiled without it (`_nrt=False`, `_light_calls`) not even that.
    - Compiling: first `_before_compiling`, when numba loads its registries.
    Where numba's internals differ from the ones this was written for, `_before_compiling`
    runs at once."""
    from numba.core import caching, cpu
    from numba.core.runtime import rtsys

    cache, context = caching.Cache, cpu.CPUContext
    if not all(hasattr(cache, a) for a in ("load_overload", "_load_overload",
                                           "_guard_against_spurious_io_errors")):
        _before_compiling()
        return
    load_registries = context.load_additional_registries

    def load_overload(self, sig, target_context):
        if getattr(self, "_py_func", None) not in _WITHOUT_NRT:
            rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    def load_additional_registries(self):
        _before_compiling()
        load_registries(self)

    cache.load_overload = load_overload
    context.load_additional_registries = load_additional_registries


def load(module: str, name: str):
    """`name` (a kernel or its argument builder) of the kernel module `module`, imported with
    its cache first made fresh (or skipped, with one warning line, where no cache folder is
    writable: a kernel module must never be imported otherwise). Thread-safe: the web server
    loads kernels from a warm-up thread and from requests at once."""
    if module not in _loaded:
        with _lock:
            if module not in _loaded:
                _import(module)
                _loaded.add(module)
    return getattr(sys.modules[module], name)


def _import(module: str) -> None:
    global _warned
    _lighten_numba()
    files = sources(module)
    if all(folder(path) for path in files):
        refresh(module, files)
        _light_calls(import_module(module))
        return
    if not _warned:
        _warned = True
        print(f"{PACKAGE}: no writable numba cache folder (package folder, NUMBA_CACHE_DIR, "
              f"user cache): compiling kernels without caching them", file=sys.stderr)
    with _without_caching():
        _light_calls(import_module(module))


def _light_calls(module) -> None:
    """Calling a kernel of `module` does not first load numba's third-party extensions
    (numba scans every installed package's entry points for them, 20-40 ms of a warm
    process): the kernels take numpy arrays and numbers only, and numba still loads the
    extensions before it compiles anything. Loading a kernel compiled without numba's
    runtime (`_nrt=False`: it allocates nothing) does not set the runtime up (about 20 ms)."""
    from numba.core.dispatcher import Dispatcher

    for value in vars(module).values():
        if isinstance(value, Dispatcher):
            value._compilation_chain_init_hook = _nothing
            if value.targetoptions.get("_nrt") is False:
                _WITHOUT_NRT.add(value.py_func)


def _nothing() -> None:
    pass


@contextmanager
def compile_note(kernel, progress: bool | None = None):
    """Within it, the first compile of `kernel` (not a load from the cache) is announced on
    stderr in one line (a first run can take seconds, more for crusades): with `progress`
    True, or None when stderr is a terminal."""
    if not (progress or (progress is None and sys.stderr.isatty())):
        yield
        return
    from numba.core import event

    class Note(event.Listener):
        said = False

        def on_start(self, ev):
            if not self.said:
                self.said = True
                print(f"{PACKAGE}: compiling a Monte Carlo kernel ({kernel.__module__}), once: "
                      f"later runs load it; `{PACKAGE} warmup` compiles them all up front",
                      file=sys.stderr, flush=True)

        def on_end(self, ev):
            pass

    with event.install_listener("numba:compile", Note()):
        yield


def cache_files() -> list[str]:
    """Cache files of every loaded module of this package."""
    files = []
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if not (name == PACKAGE or name.startswith(PACKAGE + ".")) or not path:
            continue
        stem = _stem(path)
        for place in _locators(path):
            for ext in ("nbi", "nbc"):
                files += glob.glob(os.path.join(place, f"{stem}.*.{ext}"))
    return sorted(set(files))


def clear() -> int:
    """Delete this package's kernel cache files; returns how many."""
    removed = 0
    for path in cache_files():
        try:
            os.remove(path)
            removed += 1
        except OSError:
            pass
    return removed


def _from_cache(error: BaseException) -> bool:
    return any("numba" in f.filename and "caching" in f.filename
               for f in traceback.extract_tb(error.__traceback__))


def call(kernel, *args):
    """kernel(*args), rebuilding the cache once if loading it failed (a try costs nothing)."""
    try:
        return kernel(*args)
    except Exception as error:
        if not _from_cache(error) or not clear():
            raise
    return kernel(*args)
