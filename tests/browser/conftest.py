"""Browser-test fixtures: a Voila server on the notebooks and headless Chromium (Playwright).

Reuse them in any ``tests/browser/test_*.py``:

* ``voila_server`` (session): Voila serving ``notebooks/`` from the repo root, started through
  ``binder/start`` as ``make app`` starts it (so ``voila.json`` and ``jupyter_config/`` apply),
  on a free localhost port, with tracebacks on, ``GOLFLAB_CPU_DELAY`` short (env
  ``GOLFLAB_TEST_CPU_DELAY``, default 0.05 s) and ``GOLFLAB_SEED=7``, preheating ``PREHEATED``.
  ``voila_server.url("play.ipynb")`` is the app's URL; ``voila_server.log_path`` its log
  (``test-artifacts/voila-<xdist worker>.log``), printed by a failing test. Each pytest-xdist
  worker that runs browser tests has its own. It is ``golflab-voila`` (Voila with
  the sign-in page) on the class store ``class_store_url`` (a fresh SQLite file per session).
* ``server_starter``: ``start_server(name, command, **options)``, a context manager that starts
  another server (standalone Voila or a Jupyter server) on a free port with its own log
  ``test-artifacts/<name>.log`` and yields it as a ``VoilaServer`` (``kernel(id)`` reads a
  kernel's model, ``api(path)`` any JSON the server answers, with its token); ``server_env``
  gives ``app_env(**extra)``, the environment the test servers run with; ``preheat_option``
  gives ``preheat_only(notebooks)``, golflab-voila's option to preheat those notebooks' kernels alone.
* ``browser`` (module): Debian's Chromium, headless, for contexts of a test's own
  (``browser.new_context()``). Missing ``/usr/bin/chromium`` is a skip on a developer machine and a
  failure in CI (``CI=true``).
* ``shared_context``: the module's Chromium's own context, on a profile kept on disk for the whole
  pytest process (its caches spare each page the apps' scripts), with no cookie before or after
  the test and its pages closed after it; ``page``: a new page of it.
* ``open_app(page, voila_server, "play.ipynb", ready=".golf-status")``: opens an app and
  waits until the ``ready`` selector shows; raises ``WidgetLoadError`` when the page shows
  "Error displaying widget" / "model not found" instead.
* ``widget_errors(page)``: the widget-load error texts on a page (empty when fine).
  Test modules get both helpers as the fixtures ``app_opener`` and ``widget_error_finder``
  (or import them: ``from tests.browser.conftest import open_app``).
* ``ARTIFACTS``: ``test-artifacts/`` (git-ignored) for screenshots and logs.
* ``board_hooks.py`` (beside this file, ``tests.browser.board_hooks``): ``GOLF``/``CODEPIECE`` status lines
  (what a board awaits, a click that waits for it to change) and ``face_down_slots``.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
START = ROOT / "binder" / "start"  # puts jupyter_config/ on the Jupyter config path, then runs the command
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WIDGET_ERRORS = ("Error displaying widget", "model not found")
STARTUP_TIMEOUT = 90  # seconds for Voila to answer (a cold start imports jupyter_server and friends)


#: Resolves once the page has drawn two more frames (the one in progress, then a whole one).
NEXT_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
#: What Chromium says when asked for a screenshot while its compositor has no frame to copy; seen once
#: in ten fresh-clone runs, right after a page load on a busy machine (the failure screenshot moments
#: later worked).
NO_FRAME_YET = "Unable to capture screenshot"


def capture_after_a_frame(capture):
    """``Page.screenshot`` or ``Locator.screenshot`` that, when Chromium has no frame to copy yet,
    awaits the page's next frames and captures once more (any other error, or a second refusal,
    is raised). A screenshot is a record for people, not what a test checks."""
    @functools.wraps(capture)
    def screenshot(self, *args, **kwargs):
        try:
            return capture(self, *args, **kwargs)
        except PlaywrightError as exc:
            if NO_FRAME_YET not in str(exc):
                raise
        (self if isinstance(self, Page) else self.page).evaluate(NEXT_FRAMES)
        return capture(self, *args, **kwargs)
    return screenshot


for _kind in (Page, Locator):
    if not hasattr(_kind.screenshot, "__wrapped__"):
        _kind.screenshot = capture_after_a_frame(_kind.screenshot)


class WidgetLoadError(AssertionError):
    """The page showed a widget error instead of the app."""


@dataclass
class VoilaServer:
    port: int
    log_path: Path
    process: subprocess.Popen
    render_path: str = "voila/render"  # "voila/render/notebooks" when Voila is a server extension
    token: str = ""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, notebook: str) -> str:
        """The rendered app of a notebook in ``notebooks/`` (with the token, if the server has one)."""
        query = f"?token={self.token}" if self.token else ""
        return f"{self.base}/{self.render_path}/{notebook}{query}"

    def open(self, path: str):
        """``GET /<path>`` with the server's token; raises ``urllib.error.HTTPError`` from 400 on."""
        request = urllib.request.Request(f"{self.base}/{path.lstrip('/')}")
        if self.token:
            request.add_header("Authorization", f"token {self.token}")
        return urllib.request.urlopen(request, timeout=30)

    def api(self, path: str):
        """The JSON the server answers to ``GET /<path>``; None for 404."""
        try:
            with self.open(path) as resp:
                return json.load(resp)
        except urllib.error.HTTPError as err:
            if err.code == 404:
                return None
            raise

    def kernel(self, kernel_id: str) -> dict | None:
        """A running kernel's model (``connections``, ``execution_state``...); None once it is gone."""
        return self.api(f"api/kernels/{kernel_id}")

    def log_tail(self, chars: int = 6000) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return text[-chars:]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def voila_command(port: int, preheat: tuple[str, ...] | None = None, extra: tuple[str, ...] = ()) -> list[str]:
    """Standalone Voila with the sign-in page (``golflab-voila``) on the notebooks, as ``make app``
    runs it (through ``binder/start``); preheating kernels for every notebook, or for ``preheat``
    alone (``preheat_only``); ``extra``: more options."""
    exe = Path(sys.executable).with_name("golflab-voila")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "golflab_widgets.server.signin"]
    return [str(START), *cmd, "notebooks", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
            "--show_tracebacks=True", "--Voila.open_browser=False", *preheat_only(preheat), *extra]


def preheat_only(notebooks: tuple[str, ...] | None) -> list[str]:
    """golflab-voila's option that keeps preheated kernels for ``notebooks`` alone (the others'
    pages start a kernel when they open): a test that opens one app spares the machine the other
    apps' kernels, each started and its page rendered ahead. None: every notebook (no option)."""
    if notebooks is None:
        return []
    names = "|".join(re.escape(name) for name in notebooks)
    return [f"--VoilaKernelManager.preheat_denylist=^(?!(?:.*/)?(?:{names})$)"]  # a regex: all but these


def app_env(**extra: str) -> dict[str, str]:
    """The environment of a test server: the apps' short CPU delay and fixed seed, this venv first."""
    env = {**os.environ, "GOLFLAB_CPU_DELAY": os.environ.get("GOLFLAB_TEST_CPU_DELAY", "0.05"),
           "GOLFLAB_SEED": os.environ.get("GOLFLAB_TEST_SEED", "7"), "PYTHONUNBUFFERED": "1"}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.update(extra)
    return env


def isolated_env(env: dict[str, str], home: Path) -> dict[str, str]:
    """``env`` with ``home`` (made) as HOME and none of the developer's Jupyter paths: only what
    ships with golflab and this environment applies."""
    home.mkdir(parents=True, exist_ok=True)
    return {**{k: v for k, v in env.items() if not k.startswith("JUPYTER_")}, "HOME": str(home)}


@contextlib.contextmanager
def start_server(name: str, command, *, env: dict[str, str] | None = None, token: str = "",
                 render_path: str = "voila/render", ready_path: str = "/"):
    """Start a server on a free port and wait until ``ready_path`` answers; stop it afterwards.

    ``command(port)`` gives its command line; its output goes to ``test-artifacts/<name>.log``."""
    ARTIFACTS.mkdir(exist_ok=True)
    port = _free_port()
    log_path = ARTIFACTS / f"{name}.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(command(port), cwd=ROOT, env=env or app_env(), stdout=log,
                                stderr=subprocess.STDOUT)
    server = VoilaServer(port, log_path, proc, render_path=render_path, token=token)
    try:
        _wait_until_up(server, ready_path, name)
        yield server
    finally:
        stop_process(proc)


def stop_process(proc: subprocess.Popen, grace: float = 20) -> None:
    """End a server the tests started: SIGTERM, and SIGKILL if it is still there after ``grace`` seconds."""
    proc.terminate()
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def _wait_until_up(server: VoilaServer, path: str, name: str) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while True:
        if server.process.poll() is not None:
            pytest.fail(f"{name} exited with code {server.process.returncode} at startup. "
                        f"Its log:\n{server.log_tail()}")
        try:
            with server.open(path):
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            pytest.fail(f"{name} did not answer within {STARTUP_TIMEOUT}s. Its log:\n{server.log_tail()}")
        time.sleep(0.5)


@pytest.fixture(scope="session")
def class_store_url(tmp_path_factory) -> str:
    """The class store of the ``voila_server``: a fresh SQLite file in tmp per session (tests create
    learners in it with ``golflab.classroom.Store(class_store_url)``)."""
    return f"sqlite:///{tmp_path_factory.mktemp('class-store') / 'class.db'}"


#: The notebooks whose kernels the session's ``voila_server`` preheats: what a class opens first (the
#: landing page, the table, learn), which the tests open most. A preheated page's kernel is started
#: again behind it; the other apps' pages start theirs as they open. Preheating all 19 on each
#: worker's server started 57 kernels at once and timed pages out on two cores.
PREHEATED = ("index.ipynb", "learn.ipynb", "play.ipynb")


def worker_name(name: str) -> str:
    """``name`` made this pytest-xdist worker's own (``voila-gw1``): each worker runs its own servers."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return f"{name}-{worker}" if worker else name


@pytest.fixture(scope="session")
def voila_server(class_store_url):
    with start_server(worker_name("voila"), lambda port: voila_command(port, PREHEATED),
                      env=app_env(GOLFLAB_DATABASE_URL=class_store_url)) as server:
        yield server


@pytest.fixture
def server_starter():
    """``start_server`` as a fixture (see above)."""
    return start_server


@pytest.fixture
def server_env():
    """``app_env`` as a fixture: ``server_env(**extra)`` is a test server's environment."""
    return app_env


@pytest.fixture
def preheat_option():
    """``preheat_only`` as a fixture: ``preheat_option(("play.ipynb",))`` is golflab-voila's option."""
    return preheat_only


#: The viewport of ``page`` and of the module's own context (``shared_context``).
VIEWPORT = {"width": 1280, "height": 1000}


@dataclass
class Chromium:
    """A module's Chromium: ``browser`` for contexts of their own (``browser.new_context()``, a
    fresh profile each: a learner's own cookies), and ``shared``, the context of its profile on
    disk, whose HTTP and compiled-code caches outlive the module (see ``chromium``)."""

    browser: object
    shared: object


@pytest.fixture(scope="module")
def chromium(tmp_path_factory):
    """Debian's Chromium under Playwright, one per test module: Playwright's sync API keeps an
    event loop running in this thread while it is open, which would break later tests that call
    ``asyncio.run``. It runs on one profile directory per pytest process (each xdist worker's
    own: two Chromiums never share one), so the apps' scripts, about 6 MB a page, are fetched and
    compiled once per worker rather than on every page: a page of the shared context costs
    Chromium about 3 s of CPU instead of 5 (``benchmarks/browser_load.py``)."""
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is missing: install Debian's chromium package to run the browser tests"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    profile = tmp_path_factory.getbasetemp() / "chromium-profile"
    with sync_playwright() as pw:
        shared = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                       viewport=VIEWPORT)
        for blank in shared.pages:  # the window a persistent launch opens with
            blank.close()
        yield Chromium(shared.browser, shared)
        shared.close()


@pytest.fixture(scope="module")
def browser(chromium):
    """The module's Chromium (``chromium``) for contexts of a test's own: ``browser.new_context()``."""
    return chromium.browser


@pytest.fixture
def shared_context(chromium):
    """The module's Chromium's own context (its profile's caches kept), for this test alone: no
    cookie before or after it, and the pages it opened closed after it."""
    context = chromium.shared
    context.clear_cookies()
    yield context
    for opened in context.pages:
        opened.close()
    context.clear_cookies()


@pytest.fixture
def page(shared_context):
    """A new page of the shared context (``VIEWPORT``), no cookie set, closed after the test."""
    return shared_context.new_page()


def widget_errors(page) -> list[str]:
    """Widget-load error texts shown on the page (empty when the widgets loaded)."""
    body = page.inner_text("body")
    return [e for e in WIDGET_ERRORS if e in body]


#: Milliseconds between open_app's checks for a widget-load error while the app opens.
ERROR_CHECK_MS = 1_000
#: Milliseconds an app may take to open: Voila runs the notebook before it sends the page, and on
#: a slow or busy 2-core machine a cold kernel took over 60 s (test_codepiece, 27 November 2026).
OPEN_TIMEOUT = 120_000


def open_app(page, server: VoilaServer, notebook: str, ready: str = ".golf-status",
             timeout: float = OPEN_TIMEOUT) -> None:
    """Open an app and wait until ``ready`` is visible; a widget error fails within ERROR_CHECK_MS.
    The browser watches for ``ready`` itself between the checks (it polled from here every 50 ms,
    each poll reading the whole page's text: a load cost the machine more than the page did)."""
    page.goto(server.url(notebook), wait_until="domcontentloaded", timeout=timeout)
    deadline = time.monotonic() + timeout / 1000
    while (left := deadline - time.monotonic()) > 0:
        try:
            page.locator(ready).first.wait_for(state="visible", timeout=max(1, min(ERROR_CHECK_MS, left * 1000)))
            return
        except PlaywrightTimeout:
            pass
        errors = widget_errors(page)
        if errors:
            raise WidgetLoadError(f"{notebook}: the page shows {errors}")
    raise WidgetLoadError(f"{notebook}: {ready!r} did not appear within {timeout / 1000:.0f}s")


def open_signed_in(browser, server: VoilaServer, token: str, notebook: str, ready: str,
                   timeout: float = OPEN_TIMEOUT):
    """A page of its own Chromium context, signed in with the session ``token``, at ``notebook``
    once ``ready`` shows (each learner of a room test plays from such a page)."""
    from golflab.classroom.identity import COOKIE_NAME

    context = browser.new_context(viewport={"width": 1280, "height": 1100})
    context.add_cookies([{"name": COOKIE_NAME, "value": token, "url": server.base}])
    page = context.new_page()
    page.goto(server.url(notebook), wait_until="domcontentloaded", timeout=timeout)
    page.locator(ready).first.wait_for(timeout=timeout * 2)
    return page


def assert_not_clipped(page, selector: str) -> None:
    """The element's text fits its box (a widget's fixed line height can cut a large text off)."""
    sizes = page.eval_on_selector(selector, "el => { const c = el.querySelector('.widget-html-content') || el;"
                                            " return [c.scrollHeight, c.clientHeight, el.clientHeight]; }")
    assert sizes[0] <= sizes[1] + 1 and sizes[1] <= sizes[2] + 1, f"{selector} is cut off: {sizes}"


def class_tokens(store, teacher: str, learners: tuple, password: str, class_name: str) -> dict[str, str]:
    """A teacher with a class of ``learners`` in ``store`` (made once per store; a URL: the store
    there, opened and closed here), and a session token for each of them and the teacher."""
    if isinstance(store, str):
        from golflab.classroom import Store

        opened = Store(store)
        try:
            return class_tokens(opened, teacher, learners, password, class_name)
        finally:
            opened.close()
    if store.user(teacher) is None:
        owner = store.create_user(teacher, password, role="teacher")
        invite = store.create_invite(store.create_class(class_name, owner), by=owner)
        for name in learners:
            store.register(name, password, invite)
    return {name: store.sign_in(name, password) for name in (*learners, teacher)}


@pytest.fixture
def app_opener():
    """``open_app`` as a fixture, for tests that prefer fixtures to imports."""
    return open_app


@pytest.fixture
def widget_error_finder():
    """``widget_errors`` as a fixture."""
    return widget_errors


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    page = getattr(item, "funcargs", {}).get("page")
    if page is not None:  # what the learner would have seen: the page's text, and a screenshot
        with contextlib.suppress(Exception):
            ARTIFACTS.mkdir(exist_ok=True)
            shot = ARTIFACTS / f"failed-{''.join(c if c.isalnum() else '-' for c in item.name)}.png"
            page.screenshot(path=str(shot), full_page=True)
            report.sections.append(("Page at the failure", f"{page.url}\n{page.inner_text('body')[:4000]}\n"
                                                           f"(screenshot: {shot})"))
    if "voila_server" in getattr(item, "fixturenames", ()):
        server = item.funcargs.get("voila_server")
        if server is not None:
            report.sections.append(("Voila log (tail)", server.log_tail()))
