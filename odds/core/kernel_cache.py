"""Numba's on-disk kernel cache: find it, and rebuild it when it is corrupt.

numba caches compiled kernels beside the source (`__pycache__`) or, when the package folder is
read-only, in the user-wide cache folder (or NUMBA_CACHE_DIR). A truncated or garbled cache
file makes numba raise while loading; `call` then deletes this package's cache files and
calls again, so the kernel is recompiled instead of the query failing.
"""
from __future__ import annotations

import glob
import os
import sys
import traceback


def _locators(py_file: str):
    from numba.core import caching

    def probe():  # any function: the locators only read its first line number
        pass

    for cls in (caching.UserProvidedCacheLocator, caching.InTreeCacheLocator,
                caching.UserWideCacheLocator):
        try:
            locator = cls(probe, py_file)
        except Exception:  # a locator that does not apply here (e.g. no NUMBA_CACHE_DIR)
            continue
        yield locator.get_cache_path()


def cache_files() -> list[str]:
    """Cache files of every loaded module of this package."""
    files = []
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if not (name == "odds" or name.startswith("odds.")) or not path:
            continue
        stem = os.path.splitext(os.path.basename(path))[0]
        for folder in _locators(path):
            for ext in ("nbi", "nbc"):
                files += glob.glob(os.path.join(folder, f"{stem}.*.{ext}"))
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
