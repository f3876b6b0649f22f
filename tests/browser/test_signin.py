"""Signing in on the standalone server (golflab-voila): the sign-in page, the account line of an app,
a reload, and signing out. Screenshots: test-artifacts/signin-page.png, signin-app.png."""

from __future__ import annotations

import re
import time

import pytest
from golflab_widgets.server.request_socket import NO_SUCH_KERNEL
from playwright.sync_api import expect
from websockets.sync.client import connect

from golflab.classroom import Store
from tests.browser.board_hooks import connected_kernel
from tests.browser.conftest import ARTIFACTS, OPEN_TIMEOUT, open_signed_in
from tests.support.query_socket import closed_unsent, sent_nothing

NAME, PASSWORD = "lena", "lena-pass-1"


@pytest.fixture(scope="module")
def learner(voila_server, class_store_url):
    store = Store(class_store_url)
    if store.user(NAME) is None:
        store.create_user(NAME, password=PASSWORD)
    yield store
    store.close()


def whoami(page) -> str:
    return page.locator(".golf-whoami").first.inner_text()


def test_sign_in_show_who_on_the_app_reload_and_sign_out(page, voila_server, learner, app_opener):
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(f"{voila_server.base}/golflab/signin?next=/voila/render/play.ipynb", wait_until="load")
    page.screenshot(path=str(ARTIFACTS / "signin-page.png"))
    requests = []
    page.on("request", lambda r: requests.append(r.url))

    page.fill("input[name=name]", NAME)
    page.fill("input[name=password]", "wrong-password")
    page.click("button[type=submit]")
    expect(page.locator("main")).to_contain_text("The name or the password is wrong.", timeout=60_000)
    assert page.input_value("input[name=name]") == NAME  # the name kept
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/voila/render/play\.ipynb$"), timeout=60_000)
    page.locator(".golf-whoami").first.wait_for(timeout=60_000)
    page.locator(".golf-status").first.wait_for(timeout=60_000)
    assert whoami(page) == f"Signed in as {NAME} (learner)"
    cookie = next(c for c in page.context.cookies() if c["name"] == "golflab_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert learner.user_for(cookie["value"]).name == NAME
    page.screenshot(path=str(ARTIFACTS / "signin-app.png"))
    local = (voila_server.base, "data:", f"blob:{voila_server.base}")  # blob: URLs the page made itself
    assert all(u.startswith(local) for u in requests), requests

    page.reload()
    page.locator(".golf-whoami").first.wait_for(timeout=60_000)
    assert whoami(page) == f"Signed in as {NAME} (learner)"

    page.click(".golf-signout")
    page.wait_for_url(re.compile(r"/golflab/signin\?signed_out=1$"), timeout=30_000)
    assert "You are signed out." in page.inner_text("main")
    assert learner.user_for(cookie["value"]) is None  # the old cookie is nobody now
    assert not any(c["name"] == "golflab_session" for c in page.context.cookies())

    app_opener(page, voila_server, "play.ipynb", ready=".golf-whoami")
    assert "not signed in, so your progress is not kept" in whoami(page)
    assert page.locator(".golf-signout").count() == 0
    link = page.locator(".golf-whoami a.golf-signin")
    assert link.get_attribute("href") == "/golflab/signin?next=%2Fvoila%2Frender%2Fplay.ipynb"
    page.screenshot(path=str(ARTIFACTS / "signin-guest-app.png"))


def test_a_preheated_page_s_request_goes_to_its_kernel_alone_and_is_forgotten_with_it(browser, voila_server, learner):
    """A signed-in learner opens a preheated app: its kernel got the page's request, cookie and all
    (the account line names the learner). Anyone connecting for that kernel on Voila's request socket
    afterwards gets nothing, and once the page is closed and its kernel ended, the socket refuses
    the kernel id (issue 37: the server kept every request, for anyone, for its whole life)."""
    page = open_signed_in(browser, voila_server, learner.sign_in(NAME, PASSWORD), "play.ipynb", ".golf-whoami")
    assert whoami(page) == f"Signed in as {NAME} (learner)"
    kernel_id = connected_kernel(page, voila_server, "play.ipynb", OPEN_TIMEOUT)
    assert f"Using pre-heated kernel: {kernel_id}" in voila_server.log_tail(10**7), "not a preheated page"
    query = f"ws://127.0.0.1:{voila_server.port}/voila/query/{kernel_id}"
    with connect(query) as stranger:
        assert sent_nothing(stranger)
    page.close(run_before_unload=True)
    deadline = time.monotonic() + 60
    while voila_server.kernel(kernel_id) is not None:  # Voila's unload request shuts it down
        assert time.monotonic() < deadline, f"kernel {kernel_id} still runs\n{voila_server.log_tail()}"
        time.sleep(0.25)
    assert closed_unsent(query) == NO_SUCH_KERNEL
    page.context.close()
