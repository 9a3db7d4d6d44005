"""How the compiled core is built: every function without numba's runtime, and the key switches."""

from __future__ import annotations

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import core
from klondike_widget.solver.bridge import encode_state


def test_every_core_function_is_compiled_without_the_runtime() -> None:
    """``layout.core_jit``: no function of the core pays for reference counting (issue 14)."""
    functions = [
        (module.__name__, name, value)
        for module in core.MODULES
        for name, value in vars(module).items()
        if isinstance(value, CPUDispatcher)
    ]
    assert len(functions) > 50
    for module, name, fn in functions:
        assert fn.targetoptions.get("_nrt") is False, (module, name)


@pytest.mark.parametrize("draw", [1, 3])
def test_pointer_switch_off_keys_the_pointer_itself(draw: int) -> None:
    """With ``ALW_POINTER`` on, pointers of one class share a table key (in draw 1 all do); off,
    every pointer has its own key (what the soundness tests rely on when they turn it off)."""
    for always, distinct in ((core.ALW_ALL, draw == 3), (core.ALW_ALL & ~core.ALW_POINTER, True)):
        S = encode_state(deal(5, Rules(draw=draw)), always=always)
        H = np.zeros(core.H_SIZE, dtype=np.uint64)
        core.compute_hashes(S, H)
        keys = set()
        for tp in (0, 1, 2, 3, 6):  # in draw 3, 0, 3 and 6 share the class of pointer 0
            S[core.O_TP] = tp
            keys.add(tuple(int(w) for w in core.table_key(S, H, 0)))
        assert len(keys) == (5 if always != core.ALW_ALL else 3 if draw == 3 else 1), always
        assert (len(keys) > 1) == distinct
