"""The apps on JupyterHub, one hub for the file (the session's ``hub`` fixture, tests/support/services_fixtures.py,
so one pytest-xdist worker runs them all). A Voila app rendered through JupyterHub runs in the
signed-in user's own kernel: the test page ``tests/hub_whoami.ipynb`` prints the kernel's
JUPYTERHUB_USER and the scheme of its store's URL. Learners on JupyterHub: the Hub's user is the
learner (no second sign-in), each plays a game at the table in their own server, and each finds only
their own game in *My games*, kept in the hub's PostgreSQL class store (one-hole games)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from golflab.classroom import Store
from tests.browser.board_hooks import GOLF, play_hole

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LEARNERS = ("alice", "bob")
WHOAMI = "voila/render/tests/hub_whoami.ipynb"


@pytest.mark.parametrize("user", ["alice", "bob"])
def test_a_voila_app_through_the_hub_runs_in_the_users_kernel(hub, browser, user):
    context = browser.new_context()
    try:
        page = context.new_page()
        hub.sign_in_page(page, user)
        page.goto(hub.user_url(user, WHOAMI), wait_until="domcontentloaded", timeout=120_000)
        output = page.get_by_text("JUPYTERHUB_USER=")
        output.first.wait_for(timeout=120_000)
        text = page.inner_text("body")
        assert f"JUPYTERHUB_USER={user}\n" in text + "\n", text
        assert "GOLFLAB_DATABASE_URL scheme=postgresql+psycopg" in text, text
        assert page.url.split("?")[0] == hub.user_url(user, WHOAMI)  # her own server, not a hub page
    finally:
        context.close()


def test_two_hub_users_each_find_only_their_own_game_in_my_games(hub, browser, app_opener):
    pages = {}
    try:
        for user in LEARNERS:
            context = browser.new_context(viewport={"width": 1280, "height": 1600})
            page = context.new_page()
            hub.sign_in_page(page, user)
            app_opener(page, hub.apps(user), "play.ipynb", timeout=180_000)
            assert user in page.inner_text(".golf-whoami")  # the Hub's user, no sign-in page
            pages[user] = page
        for page in pages.values():
            play_hole(page)
            assert GOLF.awaiting(page) == "new-game", page.inner_text(GOLF.selector)
            # the game is written to the store after the status says the hole is over: wait for the words
            expect(page.locator(GOLF.selector)).to_contain_text("Game kept in My games", timeout=60_000)
        store = Store(hub.env["GOLFLAB_DATABASE_URL"])
        kept = {}
        for user in LEARNERS:
            learner = store.user(user)
            records = store.games(learner, by=learner)
            assert len(records) == 1 and records[0].players[records[0].seat] is not None
            kept[user] = records[0].id
        store.close()
        assert kept["alice"] != kept["bob"]
        for user, page in pages.items():
            # the landing app as a learner meets it: signed in to the hub, on her own server
            app_opener(page, hub.apps(user), "index.ipynb", ready=".golf-my-games-row", timeout=180_000)
            assert page.url.split("?")[0] == hub.apps(user).url("index.ipynb")
            links = page.eval_on_selector_all(".golf-my-games-open", "els => els.map(e => e.getAttribute('href'))")
            ids = {int(m.group(1)) for href in links if (m := re.search(r"game=(\d+)", href or ""))}
            assert ids == {kept[user]}, (user, links)
            page.screenshot(path=str(ARTIFACTS / f"hub-my-games-{user}.png"), full_page=True)
        other = kept["bob"]  # alice asking for bob's game by its id is refused, in words
        page = pages["alice"]
        page.goto(hub.apps("alice").url("replay.ipynb") + f"?game={other}", timeout=180_000)
        try:
            page.wait_for_selector(".golf-refused", timeout=120_000)
        except Exception:
            page.screenshot(path=str(ARTIFACTS / "hub-replay-refused.png"), full_page=True)
            raise AssertionError(f"no refusal on {page.url}:\n{page.inner_text('body')[:3000]}") from None
        assert "Could not open that game" in page.inner_text(".golf-refused")
        assert "bob" not in page.inner_text("body")
    finally:
        for page in pages.values():
            page.context.close()
