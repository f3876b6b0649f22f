"""Signing in on the standalone server (golflab-voila): the sign-in page, the account line of an app,
a reload, and signing out. Screenshots: test-artifacts/signin-page.png, signin-app.png."""

from __future__ import annotations

import re

import pytest

from golflab.classroom import Store
from tests.browser.conftest import ARTIFACTS

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
    assert "The name or the password is wrong." in page.inner_text("main")
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
