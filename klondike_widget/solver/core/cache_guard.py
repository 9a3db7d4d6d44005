"""numba's cache, kept honest across the package's modules (runs once, when the core is imported).

numba's on-disk cache checks only the file a function is defined in; see
:func:`invalidate_stale_caches`.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path


def invalidate_stale_caches() -> None:
    """After any module of the package changed, make numba recompile all of them.

    numba's on-disk cache checks only the file a function is defined in: after a change to
    ``movegen.py`` alone, ``run_chunk`` (in ``search.py``, with ``gen_moves`` compiled into
    it) would still load from the cache as it was, with the old move generator. So a digest
    of all the package's sources is kept beside the cache; when it differs, every source file
    is touched, which numba reads as a change of each. (A read-only install changes only by
    being reinstalled, which rewrites every file.)
    """
    folder = Path(__file__).resolve().parent
    sources = sorted(folder.glob("*.py"))
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    stamp = folder / "__pycache__" / "klondike-core-sources.sha256"
    try:
        if stamp.read_text(encoding="ascii") == digest:
            return
    except OSError:
        pass
    try:
        now = time.time()
        for path in sources:
            os.utime(path, (now, now))
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest, encoding="ascii")
    except OSError:
        pass


invalidate_stale_caches()
