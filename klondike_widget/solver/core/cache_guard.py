"""numba's on-disk cache, kept honest across the solver's modules.

It runs once, when the core is imported (``core/__init__`` imports it first).
numba stamps each cached function with a hash of its own source file only. A function that
calls into another module (``run_chunk`` in ``core/search.py`` inlines ``gen_moves`` from
``core/movegen.py``) would, after a change to that other module alone, keep loading its old
machine code from the cache, with the old move generator in it, and no error. An upgrade
installed over an old one keeps the old ``__pycache__/*.nbi`` files (pip does not own them), so
this is not only a developer's problem. See :func:`invalidate_stale_caches`.
"""

from __future__ import annotations

import hashlib
import os
import re
import types
from collections.abc import Iterable
from pathlib import Path

_USES_NUMBA = re.compile(rb"^(?:from numba import|import numba)", re.MULTILINE)

STAMP_NAME = "klondike-numba-sources.sha256"
"""The file, in each numba cache folder, that holds the digest the cached code was built from."""


def numba_sources(folder: Path) -> list[Path]:
    """The Python files under `folder` that use numba, in a fixed order.

    >>> from pathlib import Path
    >>> names = [p.name for p in numba_sources(Path(__file__).parent.parent)]
    >>> "movegen.py" in names and "cache_guard.py" not in names
    True
    """
    return sorted(p for p in folder.rglob("*.py") if _USES_NUMBA.search(p.read_bytes()))


def sources_digest(paths: Iterable[Path]) -> str:
    """One SHA-256 over the names and contents of `paths`.

    >>> len(sources_digest([]))
    64
    """
    sha = hashlib.sha256()
    for path in paths:
        sha.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()


def cache_folder(source: Path) -> Path | None:
    """The folder numba caches the functions of `source` in (None when it cannot cache there).

    numba's own locators decide it (``NUMBA_CACHE_DIR``, the module's ``__pycache__``, or the
    user's cache folder when that one is read-only); a stand-in function defined "in" `source`
    is shown to them.
    """
    from numba.core.caching import CompileResultCacheImpl

    stand_in = types.FunctionType(compile("def f(): pass", str(source), "exec").co_consts[0], {})
    try:
        return Path(CompileResultCacheImpl(stand_in).locator.get_cache_path())  # type: ignore[no-untyped-call]
    except (RuntimeError, OSError):
        return None


def invalidate_stale_caches(folder: Path) -> list[Path]:
    """Delete numba's cached code for the modules under `folder` when any of them changed.

    A digest of all the numba modules' sources is kept in each cache folder; when it differs
    from the sources now, that folder's ``.nbi``/``.nbc`` files of those modules are deleted,
    and numba compiles them again on first use. Returns the files deleted.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     invalidate_stale_caches(Path(tmp))
    []
    """
    sources = numba_sources(folder)
    digest = sources_digest(sources)
    by_folder: dict[Path, set[str]] = {}
    for source in sources:
        where = cache_folder(source)
        if where is not None:
            by_folder.setdefault(where, set()).add(source.stem)
    deleted: list[Path] = []
    for where, modules in by_folder.items():
        stamp = where / STAMP_NAME
        try:
            if stamp.read_text(encoding="ascii") == digest:
                continue
        except OSError:
            pass
        deleted += _delete_cached_code(where, modules)
        _write_atomically(stamp, digest)
    return deleted


def _delete_cached_code(where: Path, modules: set[str]) -> list[Path]:
    """Delete the ``<module>.*.nbi`` and ``.nbc`` files of `modules` in `where`."""
    deleted = []
    for path in where.glob("*.nb[ic]"):
        if path.name.split(".", 1)[0] in modules:
            try:
                path.unlink()
                deleted.append(path)
            except OSError:
                pass
    return deleted


def _write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file (other processes may read it)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temp.write_text(text, encoding="ascii")
        os.replace(temp, path)
    except OSError:
        pass


if __name__ == "klondike_widget.solver.core.cache_guard":  # not the uncompiled copy (coldstart)
    invalidate_stale_caches(Path(__file__).resolve().parent.parent)
