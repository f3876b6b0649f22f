"""Voila's request socket (``/voila/query/<kernel id>``), mended for golflab-voila's preheated kernels.

A preheated kernel waits on this socket for its page's request (``page_request``): its query, and
its cookie, the learner's session. Voila 0.5's ``RequestInfoSocketHandler`` loses requests two ways
on a loaded server:

* a closing connection drops the last connection the server holds, which need not be its own:
  a kernel's stale first try, closing after its retry connected, drops the retry's;
* a request written to a connection the kernel has just closed is lost, not kept (Voila keeps a
  request only when no connection is registered).

``mend()`` makes a closing connection forget only itself, and keeps a page's request until its
kernel has it, and no longer: the kernel says so on the socket (``page_request.RECEIVED``, in the
subprotocol ``page_request.ACKNOWLEDGES``), and the server forgets the request then. So a request
written as the kernel hung up reaches the kernel's next connection (a kept request is sent to a
connection as it opens), and any later connection gets nothing. The socket serves the kernel
manager's live kernels alone: a connection for any other kernel id is closed at once
(``NO_SUCH_KERNEL``), sent nothing. A kernel manager with ``ForgetsEndedKernels`` (``forgetting()``,
golflab-voila's) forgets a kernel's request, and closes its connection, as the kernel ends (shut
down, culled or died). A kernel that waits with Voila's own ``voila.utils.wait_for_request`` never
says it has its request: that one is kept until the kernel ends. ``mend()`` changes Voila's class
in this process (the page handler calls the class's ``send_updates``); golflab-voila calls it, and
sets its kernel manager class, when it preheats.

No released Voila fixes this (0.5.8 to 0.5.13 ship the same handler; the report for upstream is in
``docs/upstream.md``). The mend is tested with the versions in ``TESTED_VOILA`` alone: on any
other, ``mend()`` refuses loudly, so that a Voila that changed its handler is looked at, not patched
blindly.
"""

from __future__ import annotations

import voila
from tornado.websocket import WebSocketClosedError
from voila.request_info_handler import RequestInfoSocketHandler

from .page_request import ACKNOWLEDGES, RECEIVED

#: The Voila releases whose ``RequestInfoSocketHandler`` the mend was tested against (the same file
#: in each); pyproject's ``voila`` requirement allows these alone.
TESTED_VOILA = ("0.5.8", "0.5.9", "0.5.10", "0.5.11", "0.5.12", "0.5.13")
#: The close code of a connection for a kernel the server does not run (4000-4999: the application's).
NO_SUCH_KERNEL = 4404


class UntestedVoila(RuntimeError):
    """The installed Voila is not one the request socket's mend was tested with."""


def _open(self, kernel_id: str) -> None:
    """Register a live kernel's connection and send it the kernel's kept request, if any; close a
    connection for any other kernel id at once, sent nothing."""
    kernels = self.settings.get("kernel_manager")
    self.golflab_kernel_id, self.golflab_handed = kernel_id, False
    if kernels is None or kernel_id not in kernels:
        self.close(NO_SUCH_KERNEL, "no such kernel")
        return
    RequestInfoSocketHandler._waiters[kernel_id] = self
    if kernel_id in RequestInfoSocketHandler._cache:
        _hand(self, kernel_id)


def _select_subprotocol(self, subprotocols: list) -> "str | None":
    """Take ``ACKNOWLEDGES`` when the kernel offers it: it will say when it has its request."""
    return ACKNOWLEDGES if ACKNOWLEDGES in subprotocols else None


def _on_message(self, message: "str | bytes") -> None:
    """The kernel has its request (``RECEIVED`` on a connection it was written to): forget it."""
    kernel_id = getattr(self, "golflab_kernel_id", None)
    if message == RECEIVED and getattr(self, "golflab_handed", False):
        RequestInfoSocketHandler._cache.pop(kernel_id, None)


def _on_close(self) -> None:
    """Forget this connection, and only this one."""
    waiters = RequestInfoSocketHandler._waiters
    for kernel_id, waiter in list(waiters.items()):
        if waiter is self:
            del waiters[kernel_id]


def _send_updates(cls, msg: dict) -> None:
    """Keep the page's request until its kernel has it, and send it to the kernel's connection if one waits."""
    kernel_id = msg["kernel_id"]
    RequestInfoSocketHandler._cache[kernel_id] = msg["payload"]
    waiter = RequestInfoSocketHandler._waiters.get(kernel_id)
    if waiter is not None:
        _hand(waiter, kernel_id)


def _hand(connection, kernel_id: str) -> None:
    """Write the kernel's kept request to ``connection``; it stays kept until the kernel says it has it."""
    try:
        connection.write_message(RequestInfoSocketHandler._cache[kernel_id])
    except WebSocketClosedError:  # the kernel hung up: its next connection is sent the kept request
        return
    connection.golflab_handed = True


def kept(kernel_id: str) -> bool:
    """Whether the server keeps a page's request for ``kernel_id`` (the kernel has not said it has it)."""
    return kernel_id in RequestInfoSocketHandler._cache


def forget(kernel_id: str) -> None:
    """Forget ``kernel_id``'s request and close its connection (the kernel ended)."""
    RequestInfoSocketHandler._cache.pop(kernel_id, None)
    waiter = RequestInfoSocketHandler._waiters.pop(kernel_id, None)
    if waiter is not None:
        waiter.close(NO_SUCH_KERNEL, "the kernel ended")


class ForgetsEndedKernels:
    """A kernel manager mixin: a kernel's page request is forgotten as the kernel leaves the manager
    (``remove_kernel``: every end, shut down, culled, died or the server stopping, goes through it)."""

    def remove_kernel(self, kernel_id: str):
        forget(kernel_id)
        return super().remove_kernel(kernel_id)


def forgetting(manager_class: type) -> type:
    """``manager_class`` (a Jupyter kernel manager class) with ``ForgetsEndedKernels`` mixed in;
    itself when it has it already."""
    if issubclass(manager_class, ForgetsEndedKernels):
        return manager_class
    return type(f"Forgetting{manager_class.__name__}", (ForgetsEndedKernels, manager_class), {})


def check_version(version: str | None = None) -> None:
    """Refuse (``UntestedVoila``) a Voila the mend was not tested with (default: the installed one)."""
    version = voila.__version__ if version is None else version
    if version not in TESTED_VOILA:
        raise UntestedVoila(
            f"golflab-voila mends Voila's request socket as tested with Voila {', '.join(TESTED_VOILA)}; "
            f"Voila {version} is installed. Install one of those (pip install 'voila<=0.5.13'), or check "
            f"docs/upstream.md against the new release and add it to request_socket.TESTED_VOILA.")


#: What ``mend()`` puts in Voila's class, by name.
MENDS = {"select_subprotocol": _select_subprotocol, "open": _open, "on_message": _on_message,
         "on_close": _on_close, "send_updates": classmethod(_send_updates)}


def mend() -> None:
    """Mend Voila's request socket in this process (idempotent); ``UntestedVoila`` on another Voila."""
    check_version()
    for name, method in MENDS.items():
        setattr(RequestInfoSocketHandler, name, method)


def mended() -> bool:
    """Whether ``mend()`` applies in this process."""
    return all(RequestInfoSocketHandler.__dict__.get(name) is method for name, method in MENDS.items())
