"""Voila's request socket (``/voila/query/<kernel id>``), mended for golflab-voila's preheated kernels.

A preheated kernel waits on this socket for its page's request (``page_request``). Voila 0.5's
``RequestInfoSocketHandler`` loses requests two ways on a loaded server:

* a closing connection drops the last connection the server holds, which need not be its own:
  a kernel's stale first try, closing after its retry connected, drops the retry's;
* a request written to a connection the kernel has just closed is lost, not kept (Voila keeps a
  request only when no connection is registered).

``mend()`` makes a closing connection forget only itself, and keeps every request for the
kernel's next connection (Voila sends a kept request to a connection as it opens), so a kernel
that connects again always gets its request. It changes Voila's class in this process (the page
handler calls the class's ``send_updates``); golflab-voila calls it when it preheats.
"""

from __future__ import annotations

from tornado.websocket import WebSocketClosedError
from voila.request_info_handler import RequestInfoSocketHandler


def _on_close(self) -> None:
    """Forget this connection, and only this one."""
    waiters = RequestInfoSocketHandler._waiters
    for kernel_id, waiter in list(waiters.items()):
        if waiter is self:
            del waiters[kernel_id]


def _send_updates(cls, msg: dict) -> None:
    """Keep the page's request for the kernel, and send it to the kernel's connection if one waits."""
    kernel_id, payload = msg["kernel_id"], msg["payload"]
    RequestInfoSocketHandler._cache[kernel_id] = payload
    waiter = RequestInfoSocketHandler._waiters.get(kernel_id)
    if waiter is not None:
        try:
            waiter.write_message(payload)
        except WebSocketClosedError:  # the kernel hung up: its next connection is sent the kept request
            pass


def mend() -> None:
    """Mend Voila's request socket in this process (idempotent)."""
    RequestInfoSocketHandler.on_close = _on_close
    RequestInfoSocketHandler.send_updates = classmethod(_send_updates)


def mended() -> bool:
    """Whether ``mend()`` applies in this process."""
    return RequestInfoSocketHandler.on_close is _on_close
