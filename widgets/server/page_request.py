"""The page's request in a kernel Voila started ahead of its page (preheated): asked of the server
until it comes, without ever waiting on a connection the server forgot.

Voila's ``voila.utils.wait_for_request`` connects once to ``/voila/query/<kernel id>`` and waits on
that connection for good. Voila's server keeps one connection per kernel, and when a connection
closes it drops the last one it holds, which need not be the one that closed. On a loaded server a
kernel's first try can time out on its side after the server took it (a stale connection); when
that stale one closes after the retry connected, the server drops the retry's, the page's request
goes to the server's cache, and Voila's wait hangs: the page never loads. Here each connection
listens ``LISTEN_SECONDS`` at most; the next one is sent the cached request when it opens.
golflab-voila also mends the server's side (``request_socket``): there a request is kept for the
kernel's next connection, even one written to a connection the kernel just closed, until the kernel
says on the socket that it has it (``RECEIVED``), and no longer. The kernel offers the subprotocol
``ACKNOWLEDGES`` and says so only when the server takes it (Voila's own server expects no message).
A kernel whose ``RECEIVED`` is lost (its connection closed just after the request came) still has
its request; the server then keeps it until the kernel ends.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time

#: Seconds one connection waits for the request before it hangs up and asks again.
LISTEN_SECONDS = 10.0
#: Seconds to open a connection (Voila's own wait allows 5).
CONNECT_SECONDS = 5.0
#: The websocket subprotocol of a server that wants to hear ``RECEIVED`` (golflab-voila's).
ACKNOWLEDGES = "golflab.request-received"
#: What a kernel says on the socket once it has its request: the server may forget it then.
RECEIVED = "golflab: request received"


def query_url(environ: "os._Environ[str] | dict[str, str] | None" = None) -> str:
    """Where this kernel's page request arrives: Voila's ``/voila/query/<kernel id>`` websocket,
    from the variables Voila gives a preheated kernel (as ``voila.utils.wait_for_request`` builds it)."""
    env = os.environ if environ is None else environ
    server_url = env.get("VOILA_SERVER_URL", "/")
    base = env.get("VOILA_WS_BASE_URL", server_url)
    return (f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{env.get('VOILA_APP_IP', '127.0.0.1')}:"
            f"{env.get('VOILA_APP_PORT', '8866')}{base}voila/query/{env.get('VOILA_KERNEL_ID', '')}")


async def _listen(url: str, seconds: float) -> "str | None":
    """The request if it comes on one connection within ``seconds``, then ``RECEIVED`` said on it if the
    server wants it; the request is kept whatever happens to the connection after it came."""
    import websockets  # Voila's own dependency; imported only by a preheated kernel

    request = None
    try:
        async with websockets.connect(url, open_timeout=CONNECT_SECONDS, close_timeout=1,
                                      subprotocols=[ACKNOWLEDGES]) as connection:
            request = await asyncio.wait_for(connection.recv(), seconds)
            if connection.subprotocol == ACKNOWLEDGES:
                await connection.send(RECEIVED)
    except (OSError, asyncio.TimeoutError, websockets.WebSocketException):
        pass
    return request


def ask_once(url: str, seconds: float = LISTEN_SECONDS) -> "dict[str, str] | None":
    """The page's request (its environment variables) if it comes within ``seconds`` on one
    connection to ``url``; None when it did not, or the server could not be reached. Runs in a
    thread of its own: the kernel's event loop is running already."""
    answer: list = []
    thread = threading.Thread(target=lambda: answer.append(asyncio.run(_listen(url, seconds))),
                              name="golflab-page-request", daemon=True)
    thread.start()
    thread.join()
    if not answer or answer[0] is None:
        return None
    request = json.loads(answer[0])
    return {str(k): str(v) for k, v in request.items()}


def wait_for_page_request(seconds: float = LISTEN_SECONDS, retry_after: float = 1.0) -> "dict[str, str]":
    """Wait for this kernel's page request, however long, and put it in ``os.environ`` (Voila's
    cookie, query and server variables); returns it."""
    url = query_url()
    while True:
        request = ask_once(url, seconds)
        if request is not None:
            os.environ.update(request)
            return request
        time.sleep(retry_after)
