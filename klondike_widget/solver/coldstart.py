"""A fast first verdict on a cold machine: the uncompiled core answers while numba compiles.

Compiling the core takes tens of seconds the first time (numba then keeps it in its on-disk
cache). A fresh install, and every Colab session, starts with an empty cache. Rather than make
the first search wait for the compiler, the first search calls :func:`start`, which returns at
once and, in a background thread, imports numba (seconds on a busy machine) and then:

* with a warm cache, loads the compiled core from it (about a second);
* with a cold cache, starts a second Python process that compiles the core and fills numba's
  cache, then loads the compiled core from there.

Until the compiled core is loaded, searches run the **uncompiled core**: the same source
(the package :mod:`klondike_widget.solver.core`) imported a second time with a no-op
``njit``, so every function, nested calls included, is plain Python (the functions'
``py_func`` alone would still call the compiled dispatchers, and compile them), and numba is
not needed for it at all. It is some 60 times slower than the compiled core (about 10,000
positions per CPU second), and most fresh deals and mid-game positions need a few hundred.
Once the compiled core is loaded every search switches to it, a search in progress included,
between two pieces of search.

The two cores are the same program over the same arrays (all search state lives in them), so
they reach the same verdicts with the same node counts and lines, and a search can switch from
one to the other anywhere between chunks. :data:`CORE` is what :mod:`klondike_widget.solver.api`
and :mod:`klondike_widget.solver.bridge` call: the compiled module's names once it is loaded,
the uncompiled ones until then (with ``run_chunk`` cut into pieces of at most
:data:`PIECE_SECONDS`, so cancelling stays quick). :func:`klondike_widget.solver.warm_up`
(``start(..., background=False)``) still loads or compiles in place, for full speed at once.

Examples
--------
>>> CORE.R_WON == python_core().R_WON == 1
True
>>> with uncompiled():
...     CORE.tt_rehash is not _real().tt_rehash and not compiled_now()
True
"""

from __future__ import annotations

import builtins
import importlib
import logging
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from klondike_widget.solver import core

__all__ = [
    "CORE",
    "compiled",
    "compiled_now",
    "python_core",
    "start",
    "state",
    "uncompiled",
    "wait",
]

_log = logging.getLogger(__name__)

#: The core's functions the solver calls from Python (what must be loaded before switching).
ENTRY_POINTS = ("start_search", "run_chunk", "tt_rehash", "tt_spread")
#: The uncompiled ``run_chunk`` returns to its caller after about this many seconds of search.
PIECE_SECONDS = 0.1
#: Positions searched by one call of the uncompiled ``run_chunk`` between clock checks.
PIECE_NODES = 200
#: What the compiler process runs (``warm_up`` loads or compiles the core in its own process).
COMPILE_CODE = "from klondike_widget.solver import warm_up; warm_up()"

_lock = threading.Lock()
_python_lock = threading.Lock()
_ready = threading.Event()
_local = threading.local()
_state = "idle"  # idle -> starting -> (compiling ->) loading -> ready (or failed); see state()
_python: ModuleType | None = None


def state() -> str:
    """``"idle"``, ``"starting"`` (loading numba, reading its cache), ``"compiling"`` (the
    compiler process runs), ``"loading"`` (the compiled core, from the cache), ``"ready"``, or
    ``"failed"`` (numba or the compiled core would not load: searches stay uncompiled)."""
    return _state


@cache
def _real() -> ModuleType:
    """The compiled core's module (importing it loads numba: seconds on a busy machine).

    Kept once imported: every ``CORE.name`` the solver reads that is not a kept constant comes
    here, and ``importlib.import_module`` each time cost about 1 us of the 2.2 us a read took
    (December 2026).
    """
    return importlib.import_module("klondike_widget.solver.core")


def compiled_now() -> bool:
    """True when this thread's searches run the compiled core."""
    mode = getattr(_local, "mode", None)
    if mode is not None:
        return bool(mode == "compiled")
    return _ready.is_set()


@contextmanager
def _mode(mode: str) -> Iterator[None]:
    before = getattr(_local, "mode", None)
    _local.mode = mode
    try:
        yield
    finally:
        _local.mode = before


@contextmanager
def uncompiled() -> Iterator[None]:
    """Run this thread's searches on the uncompiled core (tests and benchmarks)."""
    with _mode("python"):
        yield


@contextmanager
def compiled() -> Iterator[None]:
    """Run this thread's searches on the compiled core, loading (or compiling) it in this
    process if need be (profiles and benchmarks that must never measure the uncompiled core)."""
    with _mode("compiled"):
        yield


def _no_jit(*args: Any, **options: Any) -> Any:
    """``njit`` that compiles nothing: ``@_no_jit`` and ``@_no_jit(cache=True)`` both work."""
    if len(args) == 1 and callable(args[0]) and not options:
        return args[0]
    return lambda fn: fn


def python_core() -> ModuleType:
    """The core's source imported a second time, every jitted function as plain Python.

    Each module of the package is executed anew (under
    ``klondike_widget.solver._core_uncompiled``, never put in ``sys.modules``) with an import
    hook that gives ``from numba import njit`` a no-op ``njit`` (so nested calls stay in Python,
    and numba is not even imported: that alone takes seconds on a busy machine) and resolves the
    package's relative imports to these copies. Should the source ever need more of numba, the
    real one is imported and each dispatcher replaced by its ``py_func`` instead.

    >>> py = python_core()
    >>> py.is_won.__globals__["__name__"], hasattr(py.is_won, "py_func")
    ('klondike_widget.solver._core_uncompiled.board', False)
    """
    global _python
    with _python_lock:
        if _python is None:
            try:
                _python = _PlainPackage(numba_free=True).load()
            except (ImportError, AttributeError):  # the source uses more of numba than njit
                _python = _PlainPackage(numba_free=False).load()
        return _python


class _PlainPackage:
    """Executes the core package's modules afresh as plain Python (see :func:`python_core`)."""

    NAME = "klondike_widget.solver._core_uncompiled"

    def __init__(self, numba_free: bool) -> None:
        self.numba_free = numba_free
        self.folder = Path(__file__).with_name("core")
        self.modules: dict[str, ModuleType] = {}
        self.builtins = {**vars(builtins), "__import__": self._import}

    def load(self) -> ModuleType:
        """The package (its ``__init__`` imports every module of it)."""
        return self._module("")

    def _module(self, sub: str) -> ModuleType:
        if sub in self.modules:
            return self.modules[sub]
        path = self.folder / (f"{sub}.py" if sub else "__init__.py")
        name = f"{self.NAME}.{sub}" if sub else self.NAME
        module = ModuleType(name)
        module.__file__ = str(path)
        module.__package__ = self.NAME
        module.__dict__["__builtins__"] = self.builtins
        self.modules[sub] = module
        if sub:
            setattr(self._module(""), sub, module)
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
        if not self.numba_free:
            for key, value in list(vars(module).items()):
                py_func = getattr(value, "py_func", None)
                if callable(py_func):  # a numba dispatcher: never called, never compiled
                    setattr(module, key, py_func)
        return module

    def _import(
        self, name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
    ) -> Any:
        if level == 1:  # the package's own modules: ``from .layout import X``
            if name:
                return self._module(name)
            for sub in fromlist:  # ``from . import layout``
                self._module(sub)
            return self.modules[""]
        if name == "numba" and level == 0 and self.numba_free:
            return SimpleNamespace(njit=_no_jit)
        return builtins.__import__(name, globals, locals, fromlist, level)


def _quiet(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` without numpy's overflow warnings (the core's hashes wrap around on purpose)."""

    def call(*args: Any) -> Any:
        with np.errstate(all="ignore"):
            return fn(*args)

    return call


def _run_chunk_uncompiled(*args: Any) -> Any:
    """``run_chunk`` on the uncompiled core, in pieces; the compiled core takes over when ready.

    Returns like ``run_chunk`` (R_BUDGET possibly before ``max_nodes`` positions, after about
    :data:`PIECE_SECONDS`, so the caller checks its clock and cancel flag often).
    """
    arrays, max_nodes = args  # run_chunk(arrays, max_nodes)
    ctl = arrays.ctl
    py = python_core()
    t0 = time.perf_counter()
    goal = int(ctl[py.C_NODES]) + int(max_nodes)
    result = py.R_BUDGET
    with np.errstate(all="ignore"):
        while True:
            left = goal - int(ctl[py.C_NODES])
            if left <= 0:
                return result
            if compiled_now():  # the compiler process is done: carry on at full speed
                return _real().run_chunk(arrays, left)
            result = py.run_chunk(arrays, min(left, PIECE_NODES))
            if result != py.R_BUDGET or time.perf_counter() - t0 >= PIECE_SECONDS:
                return result


class _Core:
    """The core's names as :mod:`klondike_widget.solver.api` sees them (see the module doc)."""

    def __getattr__(self, name: str) -> Any:
        if compiled_now():
            value = getattr(_real(), name)
        elif name == "run_chunk":
            return _run_chunk_uncompiled
        else:
            value = getattr(python_core(), name)
            if callable(value) and name in ENTRY_POINTS:
                return _quiet(value)
        if type(value) is int:  # a constant, the same in both cores (one source): kept, so
            self.__dict__[name] = value  # later reads skip this method (about 0.8 us a read)
        return value


#: What the solver calls: the compiled core when loaded, the uncompiled one until then.
#: (Type checkers see the core module itself: the same names with the same types.)
if TYPE_CHECKING:
    CORE = core
else:
    CORE = _Core()


def _cache_is_warm() -> bool:
    """True when numba's cache holds every entry point, compiled for this machine and source."""
    try:
        for name in ENTRY_POINTS:
            dispatcher = getattr(_real(), name)
            cache = dispatcher._cache
            codegen = dispatcher.targetctx.codegen()
            index = cache._cache_file._load_index()  # empty when missing or stale
            if not any(cache._index_key(key[0], codegen) == key for key in index):
                return False
        return True
    except Exception:  # another numba version: assume cold, which is only slower
        _log.debug("klondike-widget: cannot read numba's cache index", exc_info=True)
        return False


def _jit_disabled() -> bool:
    from numba import config

    return bool(getattr(config, "DISABLE_JIT", False))


def start(load: Callable[[], None], *, background: bool = True) -> None:
    """Make the compiled core available: now if that is quick, else in the background.

    With ``NUMBA_DISABLE_JIT=1`` the "compiled" core is plain Python anyway: it is loaded at
    once.

    Parameters
    ----------
    load : callable
        Calls every entry point once (numba loads each from its cache, or compiles it). It runs
        with this thread's searches on the compiled core.
    background : bool
        Return at once (``True``): load from a warm cache in a background thread, or with a
        cold one start the compiler process. Or load (or compile) here and now, as
        :func:`klondike_widget.solver.warm_up` does (``False``; if a background load or the
        compiler process is already at work, wait for it).
    """
    global _state
    with _lock:
        if _state == "idle":
            if background:
                _state = "starting"
                threading.Thread(
                    target=_prepare,
                    args=(load,),
                    name="klondike-widget-compile",
                    daemon=True,
                ).start()
                return
            _state = "loading"
            try:
                with _mode("compiled"):
                    load()
            except BaseException:
                _state = "idle"
                raise
            _state = "ready"
            _ready.set()
            return
    if not background:
        while not _ready.wait(0.2):
            if _state == "failed":
                raise RuntimeError("klondike-widget: the compiled core could not be loaded")


def wait(timeout: float | None = None) -> bool:
    """Wait until the compiled core is loaded; False if ``timeout`` seconds passed first."""
    return _ready.wait(timeout)


def _prepare(load: Callable[[], None]) -> None:
    """In a background thread: import numba, then load from its cache or have it filled."""
    global _state
    try:
        warm = _jit_disabled() or _cache_is_warm()
    except Exception:  # numba itself does not import: the uncompiled core goes on
        _log.exception("klondike-widget: cannot load numba")
        _state = "failed"
        return
    if warm:
        _load_here(load)
    else:
        _compile_elsewhere(load)


def _compile_elsewhere(load: Callable[[], None]) -> None:
    """In a background thread: the compiler process fills the cache; then load from it here."""
    global _state
    _state = "compiling"
    try:
        proc = subprocess.run(
            [sys.executable, "-c", COMPILE_CODE],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            _log.warning(
                "klondike-widget: the compiler process failed (%s); compiling here instead",
                proc.stderr.strip().splitlines()[-1:] or proc.returncode,
            )
    except OSError as exc:  # no second process here (e.g. a browser-based Python)
        _log.warning("klondike-widget: cannot start the compiler process (%s)", exc)
    _load_here(load)


def _load_here(load: Callable[[], None]) -> None:
    """In a background thread: load the compiled core (from the cache), then switch to it."""
    global _state
    _state = "loading"
    try:
        with _mode("compiled"):
            load()
    except Exception:  # never leave the solver without a core: the uncompiled one goes on
        _log.exception("klondike-widget: loading the compiled core failed")
        _state = "failed"
        return
    _state = "ready"
    _ready.set()
