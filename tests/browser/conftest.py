"""Browser-test fixtures: a Voila server on the notebooks and headless Chromium (Playwright).

Reuse them in any ``tests/browser/test_*.py``:

* ``voila_server`` (session): Voila serving ``notebooks/`` from the repo root (so
  ``voila.json`` applies: play.ipynb is preheated) on a free localhost port, with
  tracebacks on, ``GOLFLAB_CPU_DELAY`` short (env ``GOLFLAB_TEST_CPU_DELAY``, default
  0.05 s) and ``GOLFLAB_SEED=7``. ``voila_server.url("play.ipynb")`` is the app's URL;
  ``voila_server.log_path`` its log (``test-artifacts/voila.log``), printed by a failing test.
* ``browser`` (session): Debian's Chromium, headless. Missing ``/usr/bin/chromium`` is a
  skip on a developer machine and a failure in CI (``CI=true``).
* ``page``: a fresh browser context and page per test, closed afterwards.
* ``open_app(page, voila_server, "play.ipynb", ready=".golf-status")``: opens an app and
  waits until the ``ready`` selector shows; raises ``WidgetLoadError`` when the page shows
  "Error displaying widget" / "model not found" instead.
* ``widget_errors(page)``: the widget-load error texts on a page (empty when fine).
  Test modules get both helpers as the fixtures ``app_opener`` and ``widget_error_finder``
  (``from conftest import`` is ambiguous with ``tests/conftest.py`` beside it).
* ``ARTIFACTS``: ``test-artifacts/`` (git-ignored) for screenshots and logs.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WIDGET_ERRORS = ("Error displaying widget", "model not found")
STARTUP_TIMEOUT = 90  # seconds for Voila to answer (a cold start imports jupyter_server and friends)


class WidgetLoadError(AssertionError):
    """The page showed a widget error instead of the app."""


@dataclass
class VoilaServer:
    port: int
    log_path: Path
    process: subprocess.Popen

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, notebook: str) -> str:
        """The rendered app of a notebook in ``notebooks/``."""
        return f"{self.base}/voila/render/{notebook}"

    def log_tail(self, chars: int = 6000) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return text[-chars:]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _voila_command(port: int) -> list[str]:
    exe = Path(sys.executable).with_name("voila")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "voila"]
    return cmd + ["notebooks", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
                  "--show_tracebacks=True", "--Voila.open_browser=False"]


@pytest.fixture(scope="session")
def voila_server():
    ARTIFACTS.mkdir(exist_ok=True)
    port = _free_port()
    log_path = ARTIFACTS / "voila.log"
    env = {**os.environ, "GOLFLAB_CPU_DELAY": os.environ.get("GOLFLAB_TEST_CPU_DELAY", "0.05"),
           "GOLFLAB_SEED": os.environ.get("GOLFLAB_TEST_SEED", "7"), "PYTHONUNBUFFERED": "1"}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    with open(log_path, "w") as log:
        proc = subprocess.Popen(_voila_command(port), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    server = VoilaServer(port, log_path, proc)
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while True:
        if proc.poll() is not None:
            pytest.fail(f"Voila exited with code {proc.returncode} at startup. Its log:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(f"{server.base}/", timeout=5) as resp:
                if resp.status == 200:
                    break
        except OSError:
            pass
        if time.monotonic() > deadline:
            proc.terminate()
            pytest.fail(f"Voila did not answer within {STARTUP_TIMEOUT}s. Its log:\n{server.log_tail()}")
        time.sleep(0.5)
    yield server
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium under Playwright, one per test module: Playwright's sync API keeps an
    event loop running in this thread while it is open, which would break later tests that call
    ``asyncio.run``."""
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is missing: install Debian's chromium package to run the browser tests"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    pg = context.new_page()
    yield pg
    context.close()


def widget_errors(page) -> list[str]:
    """Widget-load error texts shown on the page (empty when the widgets loaded)."""
    body = page.inner_text("body")
    return [e for e in WIDGET_ERRORS if e in body]


def open_app(page, server: VoilaServer, notebook: str, ready: str = ".golf-status", timeout: float = 60_000) -> None:
    """Open an app and wait until ``ready`` is visible; a widget error fails at once."""
    page.goto(server.url(notebook), wait_until="domcontentloaded", timeout=timeout)
    deadline = time.monotonic() + timeout / 1000
    while time.monotonic() < deadline:
        if page.locator(ready).first.is_visible():
            return
        errors = widget_errors(page)
        if errors:
            raise WidgetLoadError(f"{notebook}: the page shows {errors}")
        page.wait_for_timeout(50)
    raise WidgetLoadError(f"{notebook}: {ready!r} did not appear within {timeout / 1000:.0f}s")


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
    if report.failed and "voila_server" in getattr(item, "fixturenames", ()):
        server = item.funcargs.get("voila_server")
        if server is not None:
            report.sections.append(("Voila log (tail)", server.log_tail()))
