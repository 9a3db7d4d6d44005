"""The compiled search core: one package of small modules over compact integer arrays.

Everything here works on small integer numpy arrays (filled from the engine's positions by
:mod:`klondike_widget.solver.bridge`) and is compiled with numba (``layout.core_jit``: cached,
without the GIL and without numba's reference-counting runtime). The same source runs as plain
Python under ``NUMBA_DISABLE_JIT=1`` (slow, used to debug and to cross-check the compiled code),
and as the uncompiled core of :mod:`klondike_widget.solver.coldstart` (the package imported a
second time with a no-op ``njit``).

The modules, each with one job (imports point down this list):

* :mod:`.layout`: where everything lives in the arrays; the pruning switches (``DOM_*``,
  ``ALW_*``); the card tables;
* :mod:`.codes`: move codes, packed and read by small helpers (``encode``, ``move_kind`` ...);
* :mod:`.priorities`: the order moves are tried in (each kind's priority in the two orders);
* :mod:`.keys`: Zobrist words, the twin-class and exact keys of the transposition table;
* :mod:`.quiet`: a child's key read off its parent; the rule for whether an automatic move may
  follow a move (``autos_may_follow``);
* :mod:`.one_word`: the twin-class key packed into one word (table rows of one word);
* :mod:`.board`: do and undo;
* :mod:`.autos`: the safe automatic foundation moves;
* :mod:`.targets`: where a card can go (the column tops marked in scratch space);
* :mod:`.talon_moves`: the talon cards taps and recycles reach, the draw-3 deck rule, their
  moves;
* :mod:`.movegen`: the moves of a position (all of them, or one per twin class);
* :mod:`.prune`: the follow-up, King-fill and reverse-move prunings;
* :mod:`.dead`: the dead-end test;
* :mod:`.table`: the transposition table;
* :mod:`.pointers`: pointer dominance, a draw-3 position covered under a stronger pointer;
* :mod:`.search`: the resumable depth-first search (``start_search``, ``run_chunk``);
* :mod:`.cache_guard`: deletes numba's cached code of every solver module after any of them
  changed.

Every name is also importable from this package, as it was from the one-file ``core.py``: each
module's ``__all__`` is re-exported, and its private helpers are found by the package's
``__getattr__``.

Examples
--------
>>> import numpy as np
>>> from klondike_widget.engine.deals import deal
>>> from klondike_widget.solver.bridge import encode_state
>>> S = encode_state(deal(1)); out = np.zeros(MAXM, dtype=np.int32)
>>> n = gen_moves(S, out, np.zeros(SCR_SIZE, dtype=np.int32), False)
>>> n > 0 and all(move_kind(m) in (K_COL_FND, K_TAL_COL, K_COL_COL, K_TAL_FND) for m in out[:n])
True
"""

from __future__ import annotations

from . import (
    autos,
    board,
    cache_guard,  # noqa: F401  (first: see its docstring)
    codes,
    dead,
    keys,
    layout,
    movegen,
    one_word,
    pointers,
    priorities,
    prune,
    quiet,
    search,
    table,
    talon_moves,
    targets,
)
from .autos import *  # noqa: F403
from .board import *  # noqa: F403
from .codes import *  # noqa: F403
from .dead import *  # noqa: F403
from .keys import *  # noqa: F403
from .layout import *  # noqa: F403
from .movegen import *  # noqa: F403
from .one_word import *  # noqa: F403
from .pointers import *  # noqa: F403
from .priorities import *  # noqa: F403
from .prune import *  # noqa: F403
from .quiet import *  # noqa: F403
from .search import *  # noqa: F403
from .table import *  # noqa: F403
from .talon_moves import *  # noqa: F403
from .targets import *  # noqa: F403

#: The modules, in the order of their imports (each imports only modules before it).
MODULES = (
    layout,
    codes,
    priorities,
    keys,
    quiet,
    one_word,
    board,
    autos,
    targets,
    talon_moves,
    movegen,
    prune,
    dead,
    table,
    pointers,
    search,
)

__all__ = [name for module in MODULES for name in module.__all__]


def __getattr__(name: str) -> object:
    """The modules' private helpers, importable from the package as from the old ``core.py``.

    >>> from klondike_widget.solver.core import _pop
    >>> _pop is board._pop
    True
    """
    for module in MODULES:
        if name.startswith("_") and name in vars(module):
            return vars(module)[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
