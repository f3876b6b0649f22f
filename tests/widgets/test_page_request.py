"""A preheated kernel gets its page's request from Voila's own request socket (``voila.request_info_handler``,
served here by Tornado as Voila serves it), even when the server forgot the kernel's connection."""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time

import pytest
import tornado.ioloop
import tornado.web
from golflab_widgets.server import page_request, request_socket
from voila.request_info_handler import RequestInfoSocketHandler
from websockets.sync.client import connect

pytestmark = pytest.mark.usefixtures("restored_environ")


@pytest.fixture(params=["voila", "mended"])
def query_server(request, monkeypatch):
    """Voila's request socket on a free port; yields ``send(kernel_id, request)``, which hands a page's
    request to the server as Voila's page handler does: Voila's socket as it is, and as golflab-voila
    mends it (``request_socket``). The environment is restored afterwards (a kernel's wait puts the
    request in it)."""
    for name in ("on_close", "send_updates"):  # Voila's own again after the test
        monkeypatch.setattr(RequestInfoSocketHandler, name, RequestInfoSocketHandler.__dict__[name])
    if request.param == "mended":
        request_socket.mend()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ready, holder = threading.Event(), {}

    def run():
        asyncio.set_event_loop(asyncio.new_event_loop())
        app = tornado.web.Application([(r"/voila/query/(.*)", RequestInfoSocketHandler)])
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

    def send(kernel_id: str, request: dict) -> None:
        holder["loop"].add_callback(RequestInfoSocketHandler.send_updates,
                                    {"kernel_id": kernel_id, "payload": request})

    yield port, send, request.param
    holder["loop"].add_callback(holder["server"].stop)
    holder["loop"].add_callback(holder["loop"].stop)
    thread.join(10)
    RequestInfoSocketHandler._waiters.clear()
    RequestInfoSocketHandler._cache.clear()


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
    port, send, server = query_server
    with connect(f"ws://127.0.0.1:{port}/voila/query/k-stale"):
        _until(lambda: "k-stale" in RequestInfoSocketHandler._waiters)
        first = RequestInfoSocketHandler._waiters["k-stale"]
        thread, got = _waiting(monkeypatch, "k-stale", seconds=0.5)
        _until(lambda: RequestInfoSocketHandler._waiters.get("k-stale") not in (None, first))
    if server == "voila":
        _until(lambda: "k-stale" not in RequestInfoSocketHandler._waiters)  # the live connection dropped
    else:
        time.sleep(0.3)
        assert RequestInfoSocketHandler._waiters.get("k-stale") not in (None, first)  # the live one stays
    send("k-stale", {"QUERY_STRING": "game=9", "SERVER_SOFTWARE": "voila/0.5.13"})
    thread.join(10)
    assert got == [{"QUERY_STRING": "game=9", "SERVER_SOFTWARE": "voila/0.5.13"}]
    assert os.environ["QUERY_STRING"] == "game=9"


def test_a_request_sent_before_the_kernel_asks_is_kept_for_it(query_server, monkeypatch):
    port, send, _server = query_server
    send("k-early", {"QUERY_STRING": "game=2"})
    _until(lambda: "k-early" in RequestInfoSocketHandler._cache)
    thread, got = _waiting(monkeypatch, "k-early", seconds=5)
    thread.join(10)
    assert got == [{"QUERY_STRING": "game=2"}]


def test_a_request_sent_while_the_kernel_listens_arrives_on_that_connection(query_server, monkeypatch):
    port, send, _server = query_server
    thread, got = _waiting(monkeypatch, "k-live", seconds=30)
    _until(lambda: "k-live" in RequestInfoSocketHandler._waiters)
    send("k-live", {"QUERY_STRING": "", "HTTP_COOKIE": "golflab_session=abc"})
    thread.join(10)
    assert got == [{"QUERY_STRING": "", "HTTP_COOKIE": "golflab_session=abc"}]


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


def test_the_mended_server_keeps_a_request_written_to_a_connection_the_kernel_closed(query_server, monkeypatch):
    """The kernel hung up (its listening time was over) just as the page's request came: Voila's
    server writes it to the closed connection and loses it; the mended one keeps it for the
    kernel's next connection."""
    port, send, server = query_server
    with connect(f"ws://127.0.0.1:{port}/voila/query/k-gone"):
        _until(lambda: "k-gone" in RequestInfoSocketHandler._waiters)
        gone = RequestInfoSocketHandler._waiters["k-gone"]
    gone.on_close = lambda: None  # the server has not yet heard of the close: the connection is still its
    RequestInfoSocketHandler._waiters["k-gone"] = gone
    _until(lambda: gone.ws_connection is None or gone.ws_connection.is_closing())
    send("k-gone", {"QUERY_STRING": "game=7"})
    time.sleep(0.3)
    assert ("k-gone" in RequestInfoSocketHandler._cache) == (server == "mended")


def test_the_mend_refuses_a_voila_it_was_not_tested_with(monkeypatch):
    """Voila's handler is mended as tested with ``TESTED_VOILA`` (byte for byte the same in each);
    another Voila is refused, loudly and before anything changes, and pyproject allows no other."""
    from pathlib import Path

    import tomllib
    import voila

    for name in ("on_close", "send_updates"):
        monkeypatch.setattr(RequestInfoSocketHandler, name, RequestInfoSocketHandler.__dict__[name])
    monkeypatch.setattr(voila, "__version__", "0.6.0")
    with pytest.raises(request_socket.UntestedVoila, match=r"tested with Voila 0\.5\.8, .*0\.5\.13; Voila 0\.6\.0 is"):
        request_socket.mend()
    assert not request_socket.mended()
    request_socket.check_version("0.5.13")
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    voila_pin = next(r for r in pyproject["project"]["optional-dependencies"]["apps"] if r.startswith("voila"))
    tested = request_socket.TESTED_VOILA
    assert voila_pin == f"voila>={tested[0]},<={tested[-1]}", voila_pin
