"""Issue 39, point 3: the *golflab* card in JupyterLab's launcher reaches the landing page.

The card comes from ``golflab_widgets.server.launcher`` through jupyter-server-proxy (installed
with the ``apps`` extra, registered by pyproject's entry point): JupyterLab runs in a fresh home
with nothing configured but what the install brings; Chromium opens the launcher, clicks the card,
and the new tab shows the landing page served by ``golflab serve`` behind the Jupyter server, its
account bar drawn over the proxied kernel websocket.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import psutil
from golflab_widgets.server import launcher

from tests.browser.conftest import ARTIFACTS, app_env, isolated_env, start_server

TOKEN = "golflab-launcher-token"
OPEN_TIMEOUT = (launcher.START_TIMEOUT + 180) * 1000  # ms: golflab serve's start, then the page's kernel


def _jupyterlab(port: int) -> list[str]:
    root = ["--allow-root"] if os.geteuid() == 0 else []
    return [str(Path(sys.executable).with_name("jupyter")), "lab", "--no-browser", f"--port={port}",
            "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}", *root]


def test_the_launcher_card_opens_the_landing_page_through_the_proxy(browser, tmp_path):
    env = {**isolated_env(app_env(), tmp_path / "home"), "GOLFLAB_DATABASE_URL": f"sqlite:///{tmp_path / 'class.db'}"}
    with start_server("jupyterlab-launcher", _jupyterlab, env=env, token=TOKEN, render_path="lab",
                      ready_path="/api/status") as lab:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{lab.port}/lab?token={TOKEN}", timeout=OPEN_TIMEOUT)
            card = page.locator(".jp-LauncherCard", has_text=launcher.NAME)
            card.wait_for(timeout=120_000)
            assert card.locator("img, svg").count() >= 1  # its icon, not JupyterLab's placeholder letter
            page.screenshot(path=str(ARTIFACTS / "launcher-card.png"))
            start = time.perf_counter()
            with context.expect_page(timeout=OPEN_TIMEOUT) as opened:
                card.click()
            landing = opened.value
            landing.locator(".golf-account").wait_for(timeout=OPEN_TIMEOUT)  # a widget: the kernel's websocket
            (ARTIFACTS / "launcher-figures.txt").write_text(
                f"launcher card click to a usable landing page (golflab serve started cold): "
                f"{time.perf_counter() - start:.1f} s\n")
            assert landing.url.startswith(f"http://127.0.0.1:{lab.port}/{launcher.NAME}/voila/render/index.ipynb")
            assert landing.locator("a[href='play.ipynb']").count() >= 1
            signin = landing.locator("a.golf-signin").get_attribute("href")  # the sign-in pages behind the proxy too
            assert signin.startswith(f"/{launcher.NAME}/golflab/signin"), signin
            landing.screenshot(path=str(ARTIFACTS / "launcher-landing.png"), full_page=True)
            served = [p for p in psutil.Process(lab.process.pid).children(recursive=True)
                      if "golflab_widgets.server" in " ".join(p.cmdline())]
            assert len(served) == 1, [p.cmdline() for p in served]
            assert "--preheat=none" in served[0].cmdline()
        finally:
            context.close()
