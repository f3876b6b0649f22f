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

No released Voila fixes this (0.5.8 to 0.5.13 ship the same handler; the report for upstream is in
``docs/upstream.md``). The mend is tested with the versions in ``TESTED_VOILA`` alone: on any
other, ``mend()`` refuses loudly, so that a Voila that changed its handler is looked at, not patched
blindly.
"""

from __future__ import annotations

import voila
from tornado.websocket import WebSocketClosedError
from voila.request_info_handler import RequestInfoSocketHandler

#: The Voila releases whose ``RequestInfoSocketHandler`` the mend was tested against (the same file
#: in each); pyproject's ``voila`` requirement allows these alone.
TESTED_VOILA = ("0.5.8", "0.5.9", "0.5.10", "0.5.11", "0.5.12", "0.5.13")


class UntestedVoila(RuntimeError):
    """The installed Voila is not one the request socket's mend was tested with."""


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


def check_version(version: str | None = None) -> None:
    """Refuse (``UntestedVoila``) a Voila the mend was not tested with (default: the installed one)."""
    version = voila.__version__ if version is None else version
    if version not in TESTED_VOILA:
        raise UntestedVoila(
            f"golflab-voila mends Voila's request socket as tested with Voila {', '.join(TESTED_VOILA)}; "
            f"Voila {version} is installed. Install one of those (pip install 'voila<=0.5.13'), or check "
            f"docs/upstream.md against the new release and add it to request_socket.TESTED_VOILA.")


def mend() -> None:
    """Mend Voila's request socket in this process (idempotent); ``UntestedVoila`` on another Voila."""
    check_version()
    RequestInfoSocketHandler.on_close = _on_close
    RequestInfoSocketHandler.send_updates = classmethod(_send_updates)


def mended() -> bool:
    """Whether ``mend()`` applies in this process."""
    return RequestInfoSocketHandler.on_close is _on_close
