"""A preheated kernel gets its page's request from Voila's own request socket (``voila.request_info_handler``,
served here by Tornado as Voila serves it, with a real kernel manager), even when the server forgot the
kernel's connection; golflab-voila's mended socket then forgets the request (its cookie too) as soon as the
kernel has it or ends, and serves no other kernel id."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time
from dataclasses import dataclass

import pytest
import tornado.ioloop
import tornado.web
from golflab_widgets.server import page_request, request_socket
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from voila.request_info_handler import RequestInfoSocketHandler
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.support.query_socket import closed_unsent, sent_nothing

pytestmark = pytest.mark.usefixtures("restored_environ")


@dataclass
class QueryServer:
    """Voila's request socket served by Tornado on ``port``, with a real kernel manager (golflab-voila's
    kind, ``request_socket.forgetting``) in the app's settings, as Voila serves it."""

    port: int
    loop: tornado.ioloop.IOLoop
    kernels: object
    mended: bool

    def url(self, kernel_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/voila/query/{kernel_id}"

    def send(self, kernel_id: str, request: dict) -> None:
        """Hand a page's request to the server as Voila's page handler does."""
        self.loop.add_callback(RequestInfoSocketHandler.send_updates, {"kernel_id": kernel_id, "payload": request})

    def _run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop.asyncio_loop).result(120)

    def kernel(self, kernel_id: str) -> None:
        """Start a kernel ``kernel_id`` for the mended socket, which serves live kernels alone (Voila's
        own serves any kernel id)."""
        if self.mended:
            self._run(self.kernels.start_kernel(kernel_id=kernel_id))

    def end(self, kernel_id: str) -> None:
        """Shut the kernel down, as the page's unload or the culler does."""
        self._run(self.kernels.shutdown_kernel(kernel_id))


@contextlib.contextmanager
def _serving(mended: bool, monkeypatch):
    """A ``QueryServer`` on a free port, Voila's socket mended or not. The environment is restored
    afterwards (a kernel's wait puts the request in it)."""
    if mended:
        request_socket.mend()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ready, holder = threading.Event(), {}

    def run():
        asyncio.set_event_loop(asyncio.new_event_loop())
        holder["kernels"] = request_socket.forgetting(AsyncMappingKernelManager)()
        app = tornado.web.Application([(r"/voila/query/(.*)", RequestInfoSocketHandler)],
                                      kernel_manager=holder["kernels"])
        holder["server"] = app.listen(port, "127.0.0.1")
        holder["loop"] = tornado.ioloop.IOLoop.current()
        ready.set()
        holder["loop"].start()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    for name, value in {"VOILA_PREHEAT": "True", "VOILA_APP_IP": "127.0.0.1", "VOILA_APP_PORT": str(port),
                        "VOILA_SERVER_URL": "/"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("VOILA_WS_BASE_URL", raising=False)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    server = QueryServer(port, holder["loop"], holder["kernels"], mended)
    try:
        yield server
    finally:
        server._run(holder["kernels"].shutdown_all(now=True))
        holder["loop"].add_callback(holder["server"].stop)
        holder["loop"].add_callback(holder["loop"].stop)
        thread.join(10)
        RequestInfoSocketHandler._waiters.clear()
        RequestInfoSocketHandler._cache.clear()


@pytest.fixture(params=["voila", "mended"])
def query_server(request, voilas_request_socket, monkeypatch):
    """Voila's request socket as it is, and as golflab-voila mends it (``request_socket``)."""
    with _serving(request.param == "mended", monkeypatch) as server:
        yield server


@pytest.fixture
def mended_server(voilas_request_socket, monkeypatch):
    """golflab-voila's mended request socket alone."""
    with _serving(True, monkeypatch) as server:
        yield server


def _waiting(monkeypatch, kernel_id: str, seconds: float) -> tuple[threading.Thread, list]:
    """Kernel ``kernel_id`` waiting for its page's request in a thread (each connection ``seconds``);
    what it got."""
    monkeypatch.setenv("VOILA_KERNEL_ID", kernel_id)
    got: list = []
    thread = threading.Thread(target=lambda: got.append(page_request.wait_for_page_request(seconds, 0.05)),
                              daemon=True)
    thread.start()
    return thread, got


def _until(condition, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the server never saw the connection"
        time.sleep(0.02)


def test_the_request_arrives_though_a_stale_connection_of_the_kernel_closed(query_server, monkeypatch):
    """On a loaded server a kernel's first connection can time out on its side after the server took
    it. When that stale connection closes after the kernel connected again, Voila's server drops the
    live connection (it drops the last it holds): Voila's own wait then hangs for good. The mended
    server keeps the live connection."""
    server = query_server
    server.kernel("k-stale")
    with connect(server.url("k-stale")):
        _until(lambda: "k-stale" in RequestInfoSocketHandler._waiters)
        first = RequestInfoSocketHandler._waiters["k-stale"]
        thread, got = _waiting(monkeypatch, "k-stale", seconds=0.5)
        _until(lambda: RequestInfoSocketHandler._waiters.get("k-stale") not in (None, first))
    if not server.mended:
        _until(lambda: "k-stale" not in RequestInfoSocketHandler._waiters)  # the live connection dropped
    else:
        time.sleep(0.3)
        assert RequestInfoSocketHandler._waiters.get("k-stale") not in (None, first)  # the live one stays
    server.send("k-stale", {"QUERY_STRING": "game=9", "SERVER_SOFTWARE": "voila/0.5.13"})
    thread.join(10)
    assert got == [{"QUERY_STRING": "game=9", "SERVER_SOFTWARE": "voila/0.5.13"}]
    assert os.environ["QUERY_STRING"] == "game=9"


def test_a_request_sent_before_the_kernel_asks_is_kept_for_it(query_server, monkeypatch):
    server = query_server
    server.kernel("k-early")
    server.send("k-early", {"QUERY_STRING": "game=2"})
    _until(lambda: "k-early" in RequestInfoSocketHandler._cache)
    thread, got = _waiting(monkeypatch, "k-early", seconds=5)
    thread.join(10)
    assert got == [{"QUERY_STRING": "game=2"}]


def _delivered_while_listening(server, monkeypatch, kernel_id: str) -> None:
    """A page's request (its cookie with it) sent while ``kernel_id`` listens arrives on that connection."""
    server.kernel(kernel_id)
    thread, got = _waiting(monkeypatch, kernel_id, seconds=30)
    _until(lambda: kernel_id in RequestInfoSocketHandler._waiters)
    server.send(kernel_id, {"QUERY_STRING": "", "HTTP_COOKIE": "golflab_session=abc"})
    thread.join(10)
    assert got == [{"QUERY_STRING": "", "HTTP_COOKIE": "golflab_session=abc"}]


def test_a_request_sent_while_the_kernel_listens_arrives_on_that_connection(query_server, monkeypatch):
    _delivered_while_listening(query_server, monkeypatch, "k-live")


def test_no_server_or_no_request_is_no_request():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nobody listens here now
    assert page_request.ask_once(f"ws://127.0.0.1:{port}/voila/query/k", 1) is None


def test_the_query_address_is_voilas():
    env = {"VOILA_APP_IP": "10.0.0.5", "VOILA_APP_PORT": "9000", "VOILA_SERVER_URL": "/user/ann/",
           "VOILA_KERNEL_ID": "abc"}
    assert page_request.query_url(env) == "ws://10.0.0.5:9000/user/ann/voila/query/abc"
    assert page_request.query_url({**env, "VOILA_WS_BASE_URL": "/base/", "VOILA_WS_PROTOCOL": "wss"}) == \
        "wss://10.0.0.5:9000/base/voila/query/abc"
    assert page_request.query_url({}) == "ws://127.0.0.1:8866/voila/query/"


def _closed_but_held(server, kernel_id: str):
    """A connection of ``kernel_id`` that the kernel has closed but the server still holds as its
    waiter (it has not yet heard of the close): the reconnect race's first half."""
    server.kernel(kernel_id)
    with connect(server.url(kernel_id)):
        _until(lambda: kernel_id in RequestInfoSocketHandler._waiters)
        gone = RequestInfoSocketHandler._waiters[kernel_id]
    gone.on_close = lambda: None
    RequestInfoSocketHandler._waiters[kernel_id] = gone
    _until(lambda: gone.ws_connection is None or gone.ws_connection.is_closing())
    return gone


def test_the_mended_server_keeps_a_request_written_to_a_connection_the_kernel_closed(query_server, monkeypatch):
    """The kernel hung up (its listening time was over) just as the page's request came: Voila's
    server writes it to the closed connection and loses it; the mended one keeps it for the
    kernel's next connection."""
    server = query_server
    _closed_but_held(server, "k-gone")
    server.send("k-gone", {"QUERY_STRING": "game=7"})
    time.sleep(0.3)
    assert ("k-gone" in RequestInfoSocketHandler._cache) == server.mended


def test_the_mend_refuses_a_voila_it_was_not_tested_with(voilas_request_socket, monkeypatch):
    """Voila's handler is mended as tested with ``TESTED_VOILA`` (byte for byte the same in each);
    another Voila is refused, loudly and before anything changes, and pyproject allows no other."""
    from pathlib import Path

    import tomllib
    import voila

    monkeypatch.setattr(voila, "__version__", "0.6.0")
    with pytest.raises(request_socket.UntestedVoila, match=r"tested with Voila 0\.5\.8, .*0\.5\.13; Voila 0\.6\.0 is"):
        request_socket.mend()
    assert not request_socket.mended()
    request_socket.check_version("0.5.13")
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    voila_pin = next(r for r in pyproject["project"]["optional-dependencies"]["apps"] if r.startswith("voila"))
    tested = request_socket.TESTED_VOILA
    assert voila_pin == f"voila>={tested[0]},<={tested[-1]}", voila_pin


def test_the_request_is_forgotten_once_the_kernel_has_it_and_never_handed_out_again(mended_server, monkeypatch):
    """The kernel says on the socket that it has its request; the server forgets it (the learner's
    cookie with it): a later connection for the kernel gets nothing."""
    server = mended_server
    _delivered_while_listening(server, monkeypatch, "k-done")
    _until(lambda: "k-done" not in RequestInfoSocketHandler._waiters)  # closed, after it said it has it
    assert not request_socket.kept("k-done")
    with connect(server.url("k-done")) as second:
        assert sent_nothing(second)


def test_a_kernel_that_ends_has_its_request_forgotten_and_its_connection_closed(mended_server):
    """A kernel whose request was written but never acknowledged (Voila's own wait says nothing; a
    kernel's answer can be lost as its connection closes) is kept no longer than the kernel: when it
    is shut down (or culled) its request goes and its connection is closed, and a connection for it
    afterwards is closed at once, sent nothing."""
    server = mended_server
    server.kernel("k-ends")
    with connect(server.url("k-ends")) as listening:  # a kernel that will not acknowledge
        _until(lambda: "k-ends" in RequestInfoSocketHandler._waiters)
        server.send("k-ends", {"QUERY_STRING": "", "HTTP_COOKIE": "golflab_session=abc"})
        assert '"golflab_session=abc"' in listening.recv(timeout=10)
        assert request_socket.kept("k-ends")
        server.end("k-ends")
        assert not request_socket.kept("k-ends")
        with pytest.raises(ConnectionClosed) as closed:
            listening.recv(timeout=10)
        assert closed.value.rcvd.code == request_socket.NO_SUCH_KERNEL
    assert closed_unsent(server.url("k-ends")) == request_socket.NO_SUCH_KERNEL


def test_a_connection_for_a_kernel_the_server_does_not_run_is_closed_and_sent_nothing(mended_server):
    assert closed_unsent(mended_server.url("no-such-kernel")) == request_socket.NO_SUCH_KERNEL
    assert "no-such-kernel" not in RequestInfoSocketHandler._waiters


def test_a_request_written_as_the_kernel_hung_up_reaches_its_next_connection_then_is_forgotten(
        mended_server, monkeypatch):
    """The reconnect race (the request written to a connection the kernel just closed): the kernel's
    next connection still gets it, and once the kernel has it the server keeps it no longer."""
    server = mended_server
    _closed_but_held(server, "k-race")
    server.send("k-race", {"QUERY_STRING": "game=7", "HTTP_COOKIE": "golflab_session=abc"})
    _until(lambda: request_socket.kept("k-race"))
    thread, got = _waiting(monkeypatch, "k-race", seconds=30)
    thread.join(10)
    assert got == [{"QUERY_STRING": "game=7", "HTTP_COOKIE": "golflab_session=abc"}]
    _until(lambda: "k-race" not in RequestInfoSocketHandler._waiters)  # the next connection closed, after it said so
    assert not request_socket.kept("k-race")
