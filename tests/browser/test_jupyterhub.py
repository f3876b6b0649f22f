"""A Voila app rendered through JupyterHub runs in the signed-in user's own kernel: the test page
``tests/hub_whoami.ipynb`` prints the kernel's JUPYTERHUB_USER and the scheme of its store's URL.
The hub is the session's ``hub`` fixture (tests/services_fixtures.py)."""

from __future__ import annotations

import pytest

#: One JupyterHub (the session fixture ``hub``) for both hub files: on one pytest-xdist worker.
pytestmark = pytest.mark.xdist_group("jupyterhub-apps")

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


def test_a_users_golflab_app_opens_through_the_hub(hub, browser, app_opener):
    """The landing app as a learner meets it: signed in to the hub, on her own server."""
    context = browser.new_context()
    try:
        page = context.new_page()
        hub.sign_in_page(page, "alice")
        app_opener(page, hub.apps("alice"), "index.ipynb", ready="a[href*='play.ipynb']", timeout=120_000)
        assert page.url.split("?")[0] == hub.apps("alice").url("index.ipynb")
    finally:
        context.close()
