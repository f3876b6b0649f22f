"""The standalone server's sign-in pages (golflab_widgets.server.signin), driven over real HTTP.

A tornado server with the sign-in routes runs in a thread on a free port, on a SQLite store in
tmp (the settings standalone Voila has: no ``xsrf_cookies``, so the pages check XSRF themselves).
"""

from __future__ import annotations

import asyncio
import http.client
import re
import threading
from urllib.parse import urlencode

import pytest
import tornado.httpserver
import tornado.testing
import tornado.web
from golflab_widgets.server.signin import (
    Accounts,
    GolflabVoila,
    PageHandler,
    absolute_sqlite,
    export_settings,
    handlers,
    local_path,
    with_page_handler,
)
from voila.configuration import VoilaConfiguration
from voila.tornado.handler import TornadoVoilaHandler

from golflab.classroom import Store
from golflab.classroom.security import token_hash

LANDING = "/voila/render/index.ipynb"
WRONG = "The name or the password is wrong."


class Clock:
    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


class Landing(tornado.web.RequestHandler):
    def get(self, path):
        self.write("an app")


class Server:
    """The sign-in routes on a free port, in a thread of their own."""

    def __init__(self, accounts: Accounts):
        ready = threading.Event()

        def run():
            self.loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self.loop)
            app = tornado.web.Application([*handlers("/", accounts), (r"/voila/render/(.*)", Landing)],
                                          cookie_secret="test-secret-" * 4)
            sock, self.port = tornado.testing.bind_unused_port()
            self.http = tornado.httpserver.HTTPServer(app)
            self.http.add_sockets([sock])
            ready.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert ready.wait(30)

    def stop(self):
        self.loop.call_soon_threadsafe(self.http.stop)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)


class Response:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    @property
    def location(self):
        return self.headers.get("Location")

    def set_cookie(self, name):
        """The Set-Cookie header for ``name`` (None if none)."""
        return next((h for h in self.headers.get_all("Set-Cookie") or () if h.startswith(f"{name}=")), None)


class Browser:
    """A client that keeps cookies and does not follow redirects."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method, path, form=None, xsrf=True) -> Response:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers, body = {}, None
        if form is not None:
            form = dict(form)
            if xsrf:
                form["_xsrf"] = self.cookies["_xsrf"]
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn.request(method, path, body=body, headers=headers)
        raw = conn.getresponse()
        resp = Response(raw.status, raw.headers, raw.read().decode())
        conn.close()
        for header in raw.headers.get_all("Set-Cookie") or ():
            name, _, rest = header.partition("=")
            value = rest.split(";", 1)[0].strip('"')
            if not value or "Max-Age=0" in header or "expires=Thu, 01 Jan 1970" in header.lower().title():
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        return resp

    def get(self, path="/golflab/signin"):
        return self.request("GET", path)

    def sign_in(self, name, password, class_code="", path="/golflab/signin", **extra):
        if "_xsrf" not in self.cookies:
            self.get()
        return self.request("POST", path, {"name": name, "password": password, "class_code": class_code, **extra})


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(tmp_path, clock):
    s = Store(f"sqlite:///{tmp_path / 'class.db'}", clock=clock, environ={"GOLFLAB_ADMINS": "boss"})
    yield s
    s.close()


@pytest.fixture
def server(store):
    srv = Server(Accounts(store=store))
    yield srv
    srv.stop()


@pytest.fixture
def browser(server):
    return Browser(server.port)


@pytest.fixture
def ann(store):
    return store.create_user("ann", password="ann-pass-1")


@pytest.fixture
def invite(store):
    teacher = store.create_user("mrs_lee", password="teach-123", role="teacher")
    klass = store.create_class("6B", teacher=teacher)
    return klass, store.create_invite(klass, by=teacher, max_uses=1, expires_days=7)


def session_count(store) -> int:
    from sqlalchemy import func, select

    from golflab.classroom.schema import sessions
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(sessions)).scalar()


def test_the_page_has_the_form_and_loads_nothing_from_elsewhere(browser):
    page = browser.get()
    assert page.status == 200
    for field in ('name="name"', 'name="password"', 'name="class_code"', 'name="_xsrf"', 'type="submit"'):
        assert field in page.body
    assert not re.search(r"(src|href)=\"https?://", page.body)  # no script, font or style from the internet
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    assert browser.cookies.get("_xsrf")


def test_sign_in_sets_an_httponly_samesite_cookie_whose_token_the_store_maps_to_the_user(browser, store, ann):
    resp = browser.sign_in("ann", "ann-pass-1")
    assert resp.status == 302 and resp.location == LANDING
    cookie = resp.set_cookie("golflab_session")
    for attribute in ("HttpOnly", "SameSite=Lax", "Path=/", f"Max-Age={30 * 86_400}"):
        assert attribute in cookie
    token = browser.cookies["golflab_session"]
    assert len(token) >= 43  # 256 random bits, URL-safe base64
    assert store.user_for(token).name == "ann"
    assert "You are signed in as <b>ann</b>" in browser.get().body


def test_a_wrong_password_or_an_unknown_name_says_only_that_one_of_them_is_wrong(browser, store, ann):
    wrong_password = browser.sign_in("ann", "not-her-password")
    unknown_name = browser.sign_in("nobody", "ann-pass-1")
    for resp in (wrong_password, unknown_name):
        assert resp.status == 400 and WRONG in resp.body
        assert resp.set_cookie("golflab_session") is None
    assert 'value="ann"' in wrong_password.body  # the name kept in the form
    assert "ann-pass-1" not in unknown_name.body  # never the password
    assert session_count(store) == 0


def test_sign_in_is_throttled_after_repeated_failures(browser, store, ann):
    for _ in range(5):
        assert WRONG in browser.sign_in("ann", "guess-guess").body
    resp = browser.sign_in("ann", "ann-pass-1")  # now even the right password waits
    assert resp.status == 400 and "too many wrong passwords" in resp.body.lower()
    assert "golflab_session" not in browser.cookies and session_count(store) == 0


def test_sign_out_ends_the_session_everywhere(browser, store, ann, server):
    browser.sign_in("ann", "ann-pass-1")
    token = browser.cookies["golflab_session"]
    other_tab = Browser(server.port)
    other_tab.cookies = dict(browser.cookies)  # the same cookie in another tab or app
    resp = browser.request("POST", "/golflab/signout", {})
    assert resp.status == 302 and resp.location == "/golflab/signin?signed_out=1"
    assert "golflab_session" not in browser.cookies  # the cookie is cleared
    assert store.user_for(token) is None  # and the old cookie no longer maps to a user anywhere
    assert "You are signed in" not in other_tab.get().body
    assert "You are signed out." in browser.get(resp.location).body


def test_a_new_name_with_a_class_code_registers_in_that_class(browser, store, invite):
    klass, code = invite
    resp = browser.sign_in("bob", "bob-pass-1", code.lower())  # codes are read in any case
    assert resp.status == 302
    bob = store.user_for(browser.cookies["golflab_session"])
    assert bob.name == "bob" and bob.role == "learner"
    assert [k.code for k in store.classes(bob)] == [klass.code]


def test_an_existing_user_with_a_class_code_joins_that_class(browser, store, ann, invite):
    klass, code = invite
    assert browser.sign_in("ann", "ann-pass-1", code).status == 302
    assert [k.code for k in store.classes(store.user("ann"))] == [klass.code]


def test_a_used_up_code_is_refused_with_the_form_kept_and_nothing_changed(browser, store, invite, server):
    _, code = invite
    assert browser.sign_in("bob", "bob-pass-1", code).status == 302  # its one use
    resp = Browser(server.port).sign_in("cat", "cat-pass-1", code)
    assert resp.status == 400 and "used 1 times, its limit" in resp.body
    assert 'value="cat"' in resp.body and f'value="{code}"' in resp.body
    assert store.user("cat") is None and resp.set_cookie("golflab_session") is None


def test_an_expired_code_is_refused_and_a_user_joining_with_it_is_not_signed_in(browser, store, ann, invite, clock):
    _, code = invite
    clock.now += 8 * 86_400
    for name, password in (("bob", "bob-pass-1"), ("ann", "ann-pass-1")):
        resp = browser.sign_in(name, password, code)
        assert resp.status == 400 and "has expired" in resp.body
        assert "golflab_session" not in browser.cookies
    assert store.user("bob") is None and store.classes(store.user("ann")) == []
    assert session_count(store) == 0  # ann's password was right, but the sign-in was refused whole


def test_a_bad_class_code_answers_the_same_for_real_and_unknown_names(browser, store, ann, invite, clock):
    """The code is checked first: a wrong password for a real name and any password for an
    unknown name get the same words, and nobody is made or signed in."""
    for code, words in (("AAAAAAAA", "class has the code AAAAAAAA"), (invite[1], "has expired")):
        bodies = []
        for name, password in (("ann", "wrong-pass"), ("nobody", "wrong-pass"), ("ann", "ann-pass-1")):
            resp = browser.sign_in(name, password, code)
            assert resp.status == 400 and words in resp.body and "golflab_session" not in browser.cookies
            bodies.append(resp.body.count("is wrong"))
        assert bodies == [0, 0, 0]
        clock.now += 8 * 86_400
    assert store.user("nobody") is None and session_count(store) == 0


def test_next_must_be_a_path_on_this_server(browser, ann):
    kept = "/voila/render/play.ipynb?seed=3"
    assert browser.sign_in("ann", "ann-pass-1", next=kept).location == kept
    for elsewhere in ("https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)",
                      "evil.example", "/ok\r\nSet-Cookie: x=1"):
        assert browser.sign_in("ann", "ann-pass-1", next=elsewhere).location == LANDING, elsewhere
    assert browser.sign_in("ann", "ann-pass-1", path="/golflab/signin?next=//evil.example").location == LANDING


def test_posts_without_the_xsrf_field_are_refused(browser, store, ann):
    resp = browser.request("POST", "/golflab/signin", {"name": "ann", "password": "ann-pass-1"}, xsrf=False)
    assert resp.status == 403 and "was not accepted" in resp.body
    assert session_count(store) == 0
    browser.sign_in("ann", "ann-pass-1")
    token = browser.cookies["golflab_session"]
    assert browser.request("POST", "/golflab/signout", {}, xsrf=False).status == 403
    assert store.user_for(token).name == "ann"  # a forged sign-out ends nothing


def test_an_admin_sets_the_password_at_the_first_sign_in(browser, store):
    assert browser.sign_in("boss", "chosen-now-1").status == 302
    assert store.user_for(browser.cookies["golflab_session"]).role == "admin"
    assert WRONG in Browser(browser.port).sign_in("boss", "another-one").body


def test_a_store_that_cannot_be_opened_says_so_on_the_page(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    srv = Server(Accounts(f"sqlite:///{blocked}/class.db"))  # a file where the folder should be
    try:
        returning = Browser(srv.port)
        returning.cookies["golflab_session"] = "x" * 43  # the page asks the store who this is
        page = returning.get()
        assert page.status == 200 and "Signing in is not possible just now" in page.body
        resp = Browser(srv.port).sign_in("ann", "ann-pass-1")
        assert resp.status == 503 and "You can still play without signing in" in resp.body
    finally:
        srv.stop()


def test_local_path():
    assert local_path("/voila/render/play.ipynb", "/x") == "/voila/render/play.ipynb"
    for bad in (None, "", "play.ipynb", "//host", "http://host/", "/a\\b", "/a b", "/\x00"):
        assert local_path(bad, "/x") == "/x"


def test_the_server_and_every_kernel_share_one_sqlite_file(tmp_path, monkeypatch):
    assert absolute_sqlite("sqlite:///golflab.db", tmp_path) == f"sqlite:///{tmp_path}/golflab.db"
    assert absolute_sqlite(f"sqlite:///{tmp_path}/x.db", "/elsewhere") == f"sqlite:///{tmp_path}/x.db"
    assert absolute_sqlite("postgresql://u:pw@db/golf", tmp_path) == "postgresql://u:pw@db/golf"
    (tmp_path / ".env").write_text("GOLFLAB_SESSION_DAYS=7\nGOLFLAB_ADMINS=boss\n")
    environ = {}
    monkeypatch.chdir(tmp_path)  # .env is read from the working directory
    url = export_settings(environ, cwd=tmp_path)
    assert url == environ["GOLFLAB_DATABASE_URL"] == f"sqlite:///{tmp_path}/golflab.db"
    assert environ["GOLFLAB_SESSION_DAYS"] == "7" and environ["GOLFLAB_ADMINS"] == "boss"


def test_the_token_is_kept_only_as_a_hash(browser, store, ann, tmp_path):
    browser.sign_in("ann", "ann-pass-1")
    token = browser.cookies["golflab_session"]
    data = b"".join(f.read_bytes() for f in tmp_path.glob("class.db*"))  # the file and its WAL
    assert token_hash(token).encode() in data and token.encode() not in data


def test_golflab_voila_preheats_and_issues_the_xsrf_cookie_with_its_own_page_handler(voilas_request_socket):
    """Voila refuses a prelaunch hook (jupyter_config/voila.py's issues the ``_xsrf`` cookie) with
    preheated kernels, and progressive rendering too: golflab-voila drops both and its page handler
    issues the cookie that Voila's shutdown-on-unload needs. It mends Voila's request socket too, and
    its kernel manager forgets a kernel's page request as the kernel ends."""
    from golflab_widgets.server import request_socket
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    assert not request_socket.mended()
    app = GolflabVoila()
    app.voila_configuration = VoilaConfiguration(prelaunch_hook=lambda req, notebook, cwd: notebook,
                                                 progressive_rendering=True)
    app.preheat(1)
    config = app.voila_configuration
    assert config.preheat_kernel and config.default_pool_size == 1
    assert config.prelaunch_hook is None and not config.progressive_rendering
    assert request_socket.mended()
    assert issubclass(config.multi_kernel_manager_class, request_socket.ForgetsEndedKernels)
    assert issubclass(config.multi_kernel_manager_class, AsyncMappingKernelManager)  # Voila's default, kept
    app.preheat(1)
    assert config.multi_kernel_manager_class.__mro__.count(request_socket.ForgetsEndedKernels) == 1
    routes = [("/voila/render/(.*)", TornadoVoilaHandler, {"config": None}), ("/voila/tree", Landing)]
    assert with_page_handler(routes) == [("/voila/render/(.*)", PageHandler, {"config": None}), routes[1]]


def test_a_negative_pool_size_is_refused_and_changes_nothing():
    app = GolflabVoila()
    app.voila_configuration = VoilaConfiguration(progressive_rendering=True)
    with pytest.raises(ValueError, match="pool_size must be 0 .* got -1"):
        app.preheat(-1)
    assert not app.voila_configuration.preheat_kernel and app.voila_configuration.progressive_rendering


def test_without_preheating_pages_render_progressively(voilas_request_socket):
    """Voila's own path: no kernel waits for its request, so Voila's request socket and kernel manager
    are left as Voila has them."""
    from golflab_widgets.server import request_socket

    app = GolflabVoila()
    app.voila_configuration = VoilaConfiguration(progressive_rendering=True)
    manager_class = app.voila_configuration.multi_kernel_manager_class
    app.preheat(0)
    assert not app.voila_configuration.preheat_kernel and app.voila_configuration.progressive_rendering
    assert not request_socket.mended() and app.voila_configuration.multi_kernel_manager_class is manager_class


def test_with_postgresql_stopped_the_pages_say_so_in_words_not_http_500(postgres):
    url = postgres.new_database()
    store = Store(url, environ={"GOLFLAB_DB_CONNECT_TIMEOUT": "2"})
    store.create_user("ann", password="ann-pass-1")
    srv = Server(Accounts(store=store))
    try:
        returning = Browser(srv.port)
        returning.sign_in("ann", "ann-pass-1")
        with postgres.down():
            page = returning.get()  # the page asks the store who this cookie is
            assert page.status == 200 and "Signing in is not possible just now" in page.body
            assert "cannot be reached" in page.body and str(postgres.port) not in page.body
            resp = Browser(srv.port).sign_in("ann", "ann-pass-1")
            assert resp.status == 503 and "You can still play without signing in" in resp.body
            out = returning.request("POST", "/golflab/signout", {})
            assert out.status == 503 and "still signed in" in out.body
        assert "signed in as <b>ann</b>" in returning.get().body
    finally:
        srv.stop()
        store.close()
