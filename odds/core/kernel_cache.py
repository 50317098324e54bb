"""Numba's on-disk kernel cache, in folders this package owns: one per kernel module and digest
of every source it compiles, rebuilt when corrupt, temporary where nothing is writable.

numba checks only the file that defines a cached function, but a kernel inlines its rules,
the chance sequence and the RNG from other modules. `load` digests the kernel module, every
module of this package it imports and numba's version, and imports the module with numba's
public cache setting (`numba.config.CACHE_DIR`, which NUMBA_CACHE_DIR sets) pointing at
`<root>/<module>-<digest>`: numba picks the cache folder of a `cache=True` function when the
function is defined, so the module's kernels are kept there (the setting is the user's again
once the import is done: only a `cache=True` function defined by another thread during that
import would follow it). An edited source gives a new folder; the module's folders of other
digests are deleted, and so are the folders of kernel modules that no longer exist (moved).
The root is the first writable of `$NUMBA_CACHE_DIR/odds`, `__pycache__/kernels` in the
package folder and `<user cache folder>/odds`; where none is, a temporary folder deleted at
exit (said in one line). A truncated or garbled cache file makes numba raise while loading;
`call` then deletes the kernel's folder and calls again, so the kernel is recompiled instead
of the query failing.
"""
from __future__ import annotations

import atexit
import glob
import hashlib
import os
import re
import shutil
import sys
import tempfile
import threading
import traceback
from contextlib import contextmanager
from functools import lru_cache
from importlib import import_module
from importlib.util import resolve_name

from ..errors import OddsError
from ..i18n import _
from ..processes import deferred_sigint
from . import compile_speed

PACKAGE = __name__.split(".")[0]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the package folder
_folders: dict = {}  # kernel module -> its cache folder, for the modules `load` imported
_lock = threading.Lock()
_note = threading.local()  # .wanted: the kernel whose first compile `compile_note` announces


def _user_cache() -> str:
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                        PACKAGE)


def roots() -> list[str]:
    """Where the kernel folders may go, in order of preference."""
    from numba import config

    chosen = [os.path.join(config.CACHE_DIR, PACKAGE)] if config.CACHE_DIR else []
    return chosen + [os.path.join(ROOT, "__pycache__", "kernels"), _user_cache()]


def _writable(path: str) -> bool:
    try:
        os.makedirs(path, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path)
        os.close(fd)
        os.remove(probe)
        return True
    except OSError:
        return False


@lru_cache(maxsize=None)
def root() -> str:
    """The first writable of `roots()`, else a temporary folder deleted at exit (one line
    says so), once per process."""
    for path in roots():
        if _writable(path):
            return path
    try:
        path = _temporary_folder()
    except OSError:
        raise OddsError(f"NUMBA_CACHE_DIR: no writable folder for the compiled kernels (tried "
                        f"{', '.join(roots())} and the temporary folder): set it to a writable "
                        "folder") from None
    atexit.register(shutil.rmtree, path, True)
    print(f"{PACKAGE}: no writable numba cache folder (NUMBA_CACHE_DIR, the package folder, the "
          f"user cache): compiling kernels without caching them (in {path}, deleted at exit)",
          file=sys.stderr)
    return path


def _temporary_folder() -> str:
    """A new folder of the system's temporary folder, for a process's kernels alone."""
    return tempfile.mkdtemp(prefix=f"{PACKAGE}-kernels-")


def _source(module: str) -> str | None:
    """The file of a module of this package, found without importing it."""
    base = os.path.join(ROOT, *module.split(".")[1:])
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return path
    return None


_FOLDER = re.compile(rf"^({PACKAGE}(?:\.\w+)+)-[0-9a-f]{{20}}$")  # a kernel module's cache folder
_FROM = re.compile(r"^[ \t]*from[ \t]+([.\w]+)[ \t]+import[ \t]+([^\n]*)", re.M)
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
        for m in _FROM.finditer(text):
            base, names = m[1], m[2]
            if names.startswith("("):  # a parenthesised list runs on to its ")"
                names = text[m.start(2):text.find(")", m.start(2)) + 1 or len(text)]
            base = resolve_name(base, package) if base.startswith(".") else base
            todo += [base] + [f"{base}.{n}" for n in re.findall(r"\w+", names.split("#")[0])]
        for names in _IMPORT.findall(text):
            todo += [n.strip() for n in names.split(",")]
        todo = [n for n in todo if n == PACKAGE or n.startswith(PACKAGE + ".")]
    return sorted(set(found.values()))


def digest(files) -> str:
    """sha256 of numba's version and of the files' paths (below the package) and contents."""
    import numba

    h = hashlib.sha256(numba.__version__.encode() + b"\0")
    for path in files:
        with open(path, "rb") as f:
            h.update(os.path.relpath(path, ROOT).encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()


def folder(module: str) -> str:
    """The cache folder of kernel module `module` for its sources as they are now."""
    return os.path.join(root(), f"{module}-{digest(sources(module))[:20]}")


def load(module: str, name: str):
    """`name` (a kernel or its argument builder) of the kernel module `module`, imported with
    numba caching its kernels in `folder(module)` (a kernel module must never be imported
    otherwise). Thread-safe: the web server loads kernels from a warm-up thread and from
    requests at once."""
    if module not in _folders:
        with _lock:
            if module not in _folders:
                _folders[module] = _import(module)
    return getattr(sys.modules[module], name)


def _import(module: str) -> str:
    from numba import config

    compile_speed.install()  # only with ODDS_FAST_COMPILE=1
    place = folder(module)
    for old in glob.glob(os.path.join(glob.escape(root()), f"{PACKAGE}.*-*")):
        name = _FOLDER.match(os.path.basename(old))
        if name and (name[1] == module and old != place or _source(name[1]) is None):
            shutil.rmtree(old, ignore_errors=True)  # other sources or numba; a module gone: stale
    chosen = config.CACHE_DIR
    config.CACHE_DIR = place
    try:
        import_module(module)
    finally:
        config.CACHE_DIR = chosen
    return place


def _places(module: str | None) -> list[str]:
    if module is None:
        return list(_folders.values())
    return [_folders[module]] if module in _folders else []


def cache_files(module: str | None = None) -> list[str]:
    """The files of the kernel cache folder of `module` (default: of every loaded module)."""
    return sorted(f for place in _places(module)
                  for f in glob.glob(os.path.join(glob.escape(place), "**", "*"), recursive=True)
                  if os.path.isfile(f))


def clear(module: str | None = None) -> int:
    """Delete the kernel cache folder of `module` (default: of every loaded module); returns
    how many files it held."""
    files = cache_files(module)
    for place in _places(module):
        shutil.rmtree(place, ignore_errors=True)
    return len(files)


def _from_cache(error: BaseException) -> bool:
    return any("numba" in f.filename and "caching" in f.filename
               for f in traceback.extract_tb(error.__traceback__))


def _types(value) -> str:
    """What numba compiles a specialisation per, roughly: the argument's type, an array's
    dtype, dimensions and layout, a tuple's items."""
    if hasattr(value, "dtype") and hasattr(value, "ndim"):
        return f"{value.dtype.str}{value.ndim}{'C' if value.flags.c_contiguous else 'A'}"
    if isinstance(value, tuple):
        return "(" + ",".join(map(_types, value)) + ")"
    return type(value).__name__


def _seen(kernel, args) -> str | None:
    """The file that marks `kernel` called with arguments of these types from its cache folder
    (None if `load` did not import it)."""
    place = _folders.get(getattr(kernel, "__module__", None))
    if place is None:
        return None
    key = hashlib.sha1(_types(tuple(args)).encode()).hexdigest()[:16]
    return os.path.join(place, f"{getattr(kernel, '__name__', 'kernel')}-{key}.seen")


def call(kernel, *args):
    """kernel(*args), rebuilding the cache once if loading it failed (a try costs nothing);
    within `compile_note`, a first compile of these argument types is announced; a Ctrl-C
    waits for the compile (processes.deferred_sigint)."""
    seen = _seen(kernel, args)
    with deferred_sigint():  # a Ctrl-C does not stop numba's compiler half way; once the note
        # shows, a Ctrl-C is deferred
        if seen and getattr(_note, "wanted", None) is kernel and not os.path.exists(seen):
            print(_("{package}: compiling a Monte Carlo kernel ({module}), once: later runs load "
                    "it; `{package} warmup` compiles them all up front").format(
                package=PACKAGE, module=kernel.__module__), file=sys.stderr, flush=True)
        try:
            out = kernel(*args)
        except Exception as error:
            if not _from_cache(error) or not clear(kernel.__module__):
                raise
            out = kernel(*args)
    if seen and not os.path.exists(seen):
        try:
            open(seen, "a").close()
        except OSError:  # the folder went (another process found it stale): nothing to mark
            pass
    return out


@contextmanager
def compile_note(kernel, progress: bool | None = None):
    """Within it, `call(kernel, ...)` says in one line on stderr that it compiles (a first run
    can take seconds, more for crusades) when this folder has not seen arguments of those
    types yet: with `progress` True, or None when stderr is a terminal."""
    if not (progress or (progress is None and sys.stderr.isatty())):
        yield
        return
    before, _note.wanted = getattr(_note, "wanted", None), kernel
    try:
        yield
    finally:
        _note.wanted = before
