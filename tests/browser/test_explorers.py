"""A strategy explorer recomputes in Voila in headless Chromium when a house rule or the sample
changes. That each explorer opens with its charts drawn, its status line finished, its CSV links
there and nothing taken from outside the server is checked on the page ``test_a11y`` opens for
each app (one load per app: ``assert_explorer_drawn``, ``assert_nothing_from_outside``)."""

from __future__ import annotations

from pathlib import Path

from tests.browser.board_hooks import EXPLORER_DONE

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"



def test_tier_toggle_recomputes_in_the_browser(page, voila_server, app_opener):
    app_opener(page, voila_server, "tiers.ipynb", ready=".explorer-status", timeout=120_000)
    page.wait_for_selector(EXPLORER_DONE, timeout=120_000)
    assert "Moved by the house rules" not in page.inner_text("body")
    page.locator(".golf-rule-super_kings input").check()
    page.wait_for_selector("text=king: Good \u2192 Excellent", timeout=60_000)  # cards by name, never K
    page.wait_for_selector(EXPLORER_DONE, timeout=60_000)
    page.screenshot(path=str(ARTIFACTS / "explorer-tiers-super-kings.png"), full_page=True)
    # A larger sample takes a few seconds: the explorer says it is computing meanwhile.
    page.locator(".explorer-samples select").select_option(label="900 holes")
    page.wait_for_selector(".explorer-computing .explorer-status :text('Computing')", timeout=30_000)
    # ... in words, with the old charts dimmed (issue 8 polish).
    page.wait_for_function("""() => { const c = document.querySelector('.explorer-computing .explorer-chart');
        return c && parseFloat(getComputedStyle(c).opacity) < 0.5; }""", timeout=30_000)
    # said while it computes (the status turns to Done when it ends, so read it with the class)
    page.wait_for_selector(".explorer-computing .explorer-status :text('dimmed charts still show the previous result')",
                           timeout=30_000)
    page.wait_for_selector(".explorer-status :text-matches('Done:.*from 900 simulated holes')", timeout=120_000)
    # The status line and the explorer's CSS class are separate widgets, updated one after the other.
    page.wait_for_selector(".explorer-computing", state="detached", timeout=30_000)
