"""Each strategy explorer opened in Voila in headless Chromium: its charts are drawn
with data, its status line says it finished, its CSV links are there, and it took nothing from
outside the server (issue 8, defect 4; the other apps: ``test_offline``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.board_hooks import EXPLORERS, outside_the_server, record_requests

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

DONE = ".explorer-status :text('Done:')"


@pytest.mark.parametrize("notebook", EXPLORERS)
def test_explorer_draws_its_charts_in_voila(page, voila_server, app_opener, notebook):
    requests = record_requests(page)
    app_opener(page, voila_server, notebook, ready=".explorer-status", timeout=120_000)
    page.wait_for_selector(DONE, timeout=120_000)
    # Every chart is drawn with some data (bars, points or lines inside its SVG). Each chart
    # reaches the page as its own model, after the status line: wait for all of them.
    drawn = "() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(p => p.querySelectorAll(" \
            "'.trace path, .trace .point').length)"
    page.wait_for_function(f"({drawn})().filter(n => n > 0).length >= {EXPLORERS[notebook]}", timeout=60_000)
    assert all(n > 0 for n in page.evaluate(drawn))
    assert page.locator(".js-plotly-plot").count() == EXPLORERS[notebook]
    links = page.locator("a.explorer-csv")
    assert links.count() >= 1
    assert links.first.get_attribute("href").startswith("data:text/csv")
    assert "Could not compute" not in page.inner_text("body")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"explorer-{notebook.replace('.ipynb', '')}.png"), full_page=True)
    page.wait_for_load_state("networkidle", timeout=120_000)
    outside, loaders = outside_the_server(page, voila_server, requests)
    assert not outside, f"{notebook} requested from outside the server: {outside}"
    assert not loaders, f"{notebook} can load from outside the server: {loaders}"


def test_tier_toggle_recomputes_in_the_browser(page, voila_server, app_opener):
    app_opener(page, voila_server, "tiers.ipynb", ready=".explorer-status", timeout=120_000)
    page.wait_for_selector(DONE, timeout=120_000)
    assert "Moved by the house rules" not in page.inner_text("body")
    page.locator(".golf-rule-super_kings input").check()
    page.wait_for_selector("text=king: Good \u2192 Excellent", timeout=60_000)  # cards by name, never K
    page.wait_for_selector(DONE, timeout=60_000)
    page.screenshot(path=str(ARTIFACTS / "explorer-tiers-super-kings.png"), full_page=True)
    # A larger sample takes a few seconds: the explorer says it is computing meanwhile.
    page.locator(".explorer-samples select").select_option(label="900 holes")
    page.wait_for_selector(".explorer-computing .explorer-status :text('Computing')", timeout=30_000)
    # ... in words, with the old charts dimmed (issue 8 polish).
    page.wait_for_function("""() => { const c = document.querySelector('.explorer-computing .explorer-chart');
        return c && parseFloat(getComputedStyle(c).opacity) < 0.5; }""", timeout=30_000)
    assert "dimmed charts still show the previous result" in page.inner_text(".explorer-status")
    page.wait_for_selector(".explorer-status :text-matches('Done:.*from 900 simulated holes')", timeout=120_000)
    # The status line and the explorer's CSS class are separate widgets, updated one after the other.
    page.wait_for_selector(".explorer-computing", state="detached", timeout=30_000)
