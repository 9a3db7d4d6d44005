"""A tiny Jupyter server extension: send kernel websocket frames without Nagle's delay.

jupyter_server leaves Nagle's algorithm on for the kernel websocket. The kernel answers a widget
intent with several small frames (status busy, the board update, status idle); a small frame
written while an earlier one is still unacknowledged waits for the browser's delayed ACK, about
40 ms on Linux. Setting ``TCP_NODELAY`` on that socket (tornado's documented
``WebSocketHandler.set_nodelay``) removes the wait: measured by ``benchmarks/widget_latency.py``,
p95 from a click to the updated board 67 ms without and 43 ms with it.

Installing the package enables the extension through
``etc/jupyter/jupyter_server_config.d/klondike_widget.json``; disable it with
``jupyter server extension disable klondike_widget.server_extension``. It changes only that socket
option, for every kernel websocket of the server, which helps any widget.

Importing this module imports nothing from Jupyter; the server calls the hooks below.

>>> _jupyter_server_extension_points()
[{'module': 'klondike_widget.server_extension'}]
"""

from __future__ import annotations

from typing import Any

__all__ = ["patch_kernel_websocket"]

_MARK = "_klondike_widget_nodelay"


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "klondike_widget.server_extension"}]


def patch_kernel_websocket(handler_class: Any) -> bool:
    """Make ``handler_class.open`` set ``TCP_NODELAY`` first; False if it already does.

    >>> class Handler:
    ...     async def open(self, kernel_id):
    ...         return kernel_id
    ...     def set_nodelay(self, value):
    ...         self.nodelay = value
    >>> patch_kernel_websocket(Handler), patch_kernel_websocket(Handler)
    (True, False)
    >>> h = Handler()
    >>> step = h.open("k1")  # drive the coroutine by hand: no event loop needed
    >>> try:
    ...     step.send(None)
    ... except StopIteration as done:
    ...     result = done.value
    >>> result, h.nodelay
    ('k1', True)
    """
    original = handler_class.open
    if getattr(original, _MARK, False):
        return False

    async def open_without_delay(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.set_nodelay(True)
        return await original(self, *args, **kwargs)

    setattr(open_without_delay, _MARK, True)
    open_without_delay.__doc__ = original.__doc__
    handler_class.open = open_without_delay
    return True


def _load_jupyter_server_extension(serverapp: Any) -> None:
    try:
        from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
    except ImportError:  # an older or newer layout: leave the server as it is, and say so
        serverapp.log.warning("klondike_widget: kernel websocket handler not found; not patched")
        return
    if patch_kernel_websocket(KernelWebsocketHandler):
        serverapp.log.info("klondike_widget: TCP_NODELAY set on kernel websockets")
