"""The apps need nothing from the internet (issue 8, defect 4): every request an app's page makes
goes to the Voila server itself, no page holds a loader for a public CDN (Mermaid imports its
script only when a diagram shows), and the icons draw with Font Awesome served locally. The apps
of the accessibility test, the explorers among them, are checked on the page it opens (``test_a11y``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.board_hooks import (
    EXPLORERS,
    LOAD_TIMEOUT,
    assert_nothing_from_outside,
    connected_kernel,
    outside_the_server,
    record_requests,
)
from tests.browser.test_a11y import AXE_CHECKED

#: The apps whose requests no other test checks: every app of ``test_a11y``'s per-app test (the
#: explorers among them) is checked on the page it loads anyway (one load, both checks); the table's
#: with its icons, below.
NOTEBOOKS = sorted(name for p in (Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb")
                   if (name := p.name) not in EXPLORERS and name not in AXE_CHECKED and name != "play.ipynb")


def open_connected(page, server, notebook: str) -> list[str]:
    """Open ``notebook`` with its requests recorded, until its kernel is connected; the requests.
    The server's log then shows no websocket ping warning: jupyter_server's kernel-websocket
    keepalive (30000 ms pings, 90000 ms timeout) made tornado warn "The websocket_ping_timeout
    (90000) cannot be longer than the websocket_ping_interval (30000)" at the first kernel
    connection (jupyter_config/voila.py: MillisecondPings)."""
    requests = record_requests(page)
    page.goto(server.url(notebook), wait_until="domcontentloaded", timeout=LOAD_TIMEOUT)
    page.wait_for_selector("#rendered_cells", state="visible", timeout=LOAD_TIMEOUT)
    connected_kernel(page, server, notebook, LOAD_TIMEOUT)
    log = server.log_path.read_text(errors="replace")
    assert "Connecting to kernel" in log or "Kernel started" in log, "the log shows no kernel: nothing was checked"
    assert "websocket_ping_timeout" not in log
    return requests


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_an_app_requests_nothing_from_outside_the_server(page, voila_server, notebook):
    requests = open_connected(page, voila_server, notebook)
    assert_nothing_from_outside(page, voila_server, requests, notebook)
    page.close(run_before_unload=True)  # Voila shuts the kernel down


def test_the_table_requests_nothing_from_outside_and_draws_its_icons_with_font_awesome_served_locally(
        page, voila_server):
    requests = open_connected(page, voila_server, "play.ipynb")
    page.wait_for_selector(".golf-status", timeout=LOAD_TIMEOUT)
    assert_nothing_from_outside(page, voila_server, requests, "play.ipynb")
    icons = page.evaluate("""() => [...document.querySelectorAll('i.fa')].map(i => {
        const before = getComputedStyle(i, '::before');
        return {icon: i.className, font: before.fontFamily, glyph: before.content}; })""")
    assert icons, "the table shows no Font Awesome icon"
    # Each icon name (ipywidgets uses Font Awesome 4 names such as "refresh") maps to a glyph.
    blank = [i for i in icons if "Font Awesome 5" not in i["font"] or i["glyph"] in ("none", "normal", '""')]
    assert not blank, blank
    faces = page.evaluate("""() => [...document.fonts].filter(f => f.status === 'loaded')
        .map(f => f.family.replace(/"/g, '') + ' ' + f.weight)""")
    assert "Font Awesome 5 Free 900" in faces, faces
    page.close(run_before_unload=True)


def test_the_app_listing_requests_nothing_from_outside_the_server(page, voila_server):
    """/voila/tree, the listing Voila shows at its root, loads nothing from a CDN (Voila's base page
    template links Font Awesome 4 from cdn.jsdelivr.net) and still lists the apps, as links drawn
    by the server (``classic_tree``). Voila's JupyterLab listing asks for the folder once, with its
    next poll 24 days later; in one CI run it stayed empty for two minutes."""
    requests = record_requests(page)
    page.goto(f"{voila_server.base}/voila/tree", wait_until="domcontentloaded", timeout=LOAD_TIMEOUT)
    landing = page.wait_for_selector("a >> text='index.ipynb'", timeout=LOAD_TIMEOUT)
    assert landing.get_attribute("href").split("?")[0].endswith("/voila/render/index.ipynb")
    page.wait_for_load_state("networkidle", timeout=LOAD_TIMEOUT)
    page.screenshot(path=str(voila_server.log_path.parent / "voila-tree.png"))
    outside, loaders = outside_the_server(page, voila_server, requests)
    assert not outside, f"/voila/tree requested from outside the server: {outside}"
    assert not loaders, f"/voila/tree can load from outside the server: {loaders}"
