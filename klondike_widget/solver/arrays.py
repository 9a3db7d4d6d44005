"""The arrays of one search, handed to the compiled core as one record.

:class:`SearchArrays` bundles the sixteen arrays that
:func:`~klondike_widget.solver.core.search.run_chunk` works on (what each holds:
:mod:`klondike_widget.solver.core.search`; :class:`klondike_widget.solver.drive.Search` makes
them). numba types a named tuple field by field and
unpacks it at compile time, so ``arrays.S`` in the compiled core costs what an array passed by
position did. This module imports no numba: the uncompiled core takes the same record, and a first
search must not wait for numba to load.

>>> import numpy as np
>>> z = np.zeros(1, dtype=np.int32)
>>> u = z.astype(np.uint64)
>>> i64 = z.astype(np.int64)
>>> arrays = SearchArrays(z, u, u, *[z] * 8, i64, u, u, u, i64)
>>> len(arrays), arrays._replace(TT=None).TT is None
(16, True)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

__all__ = ["SearchArrays"]

I32 = npt.NDArray[np.int32]


class SearchArrays(NamedTuple):
    """``S``/``H`` the position, ``TT`` the table, ``MV``/``NM``/``IX`` the moves at each depth,
    how many and the next to try, ``UD`` the undo words, ``AUM``/``AUU``/``AUS`` the automatic
    moves, their undo words and how many came before each depth, ``mark`` scratch space,
    ``ctl`` the counters, ``KY[d, j]`` the key of move ``j``'s child at depth ``d`` (two
    words), the number of its automatic moves and the key's hash
    (:func:`~klondike_widget.solver.core.search.child_keys`), ``FK`` the table key of the
    position the path's first move leads to, and ``partner_FK`` / ``partner_ctl`` the same
    arrays of the search that shares the table
    (:func:`~klondike_widget.solver.core.search.enters_shared`; a search alone has a
    ``partner_ctl`` of -1s)."""

    S: I32
    H: npt.NDArray[np.uint64]
    TT: npt.NDArray[np.uint64]
    MV: I32
    NM: I32
    IX: I32
    UD: I32
    AUM: I32
    AUU: I32
    AUS: I32
    mark: I32
    ctl: npt.NDArray[np.int64]
    KY: npt.NDArray[np.uint64]
    FK: npt.NDArray[np.uint64]
    partner_FK: npt.NDArray[np.uint64]
    partner_ctl: npt.NDArray[np.int64]
