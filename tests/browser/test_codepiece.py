"""The Codepiece app in a real browser: whole deals played only through the CSS hooks
(cp-bid-N, cp-pass, cp-trump-X, cp-card-XX, cp-next-deal, cp-status), with screenshots of
the bidding, the trump choice, a trick in progress and a finished deal."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.board_hooks import CHARTS_DRAWN, CODEPIECE, enabled_hooks

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
STATUS, STEP_TIMEOUT = CODEPIECE.selector, CODEPIECE.timeout
awaiting, click_and_wait, wait_for_learner = CODEPIECE.awaiting, CODEPIECE.click_and_wait, CODEPIECE.wait_for_learner
LEGAL_CARDS = ".cp-hand button.cp-card:not([disabled])"


def play_deal(page, bid: str, shots: dict[str, str]) -> int:
    """Play your side of a deal through the hooks: ``bid`` is ``highest`` (then choose a trump)
    or ``pass``; cards are the first legal one. Takes the screenshots named in ``shots``
    (state -> file). Returns the cards you played."""
    cards = 0
    for _ in range(80):
        task = wait_for_learner(page)
        if task in ("deal-over", "match-over"):
            return cards
        if task in shots:
            page.screenshot(path=str(ARTIFACTS / shots.pop(task)), full_page=True)
        if task == "bid":
            bids = enabled_hooks(page, ".cp-pass, [class*='cp-bid-']", "cp-")
            assert "cp-pass" in bids, bids
            target = bids[-1] if bid == "highest" and len(bids) > 1 else "cp-pass"
            click_and_wait(page, f".{target}")
        elif task == "trump":
            assert sorted(enabled_hooks(page, "[class*='cp-trump-']", "cp-trump-")) == [
                "cp-trump-C", "cp-trump-D", "cp-trump-H", "cp-trump-S"]
            click_and_wait(page, ".cp-trump-S")
        elif task == "card":
            text = page.inner_text(STATUS)
            assert text.startswith("Your turn: you "), text
            legal = enabled_hooks(page, LEGAL_CARDS, "cp-card-")
            assert legal and all(len(c) == len("cp-card-AS") for c in legal)
            if "card-mid-trick" in shots and "must" in text and page.locator(".cp-trick .cp-played").count():
                page.screenshot(path=str(ARTIFACTS / shots.pop("card-mid-trick")), full_page=True)
            click_and_wait(page, f".{legal[0]}")
            assert page.locator(f".cp-hand .{legal[0]}").count() == 0  # the card left your hand
            cards += 1
        else:
            pytest.fail(f"unexpected state {task!r}: {page.inner_text(STATUS)}")
    pytest.fail("the deal did not end within 80 clicks")


def test_play_whole_deals_through_the_css_hooks(page, voila_server, app_opener, widget_error_finder):
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 1400})
    app_opener(page, voila_server, "codepiece.ipynb", ready=STATUS)
    assert "Deal 1 of 4" in page.inner_text(".cp-info")
    assert page.get_attribute("a[href='index.ipynb']", "href") == "index.ipynb"

    # deal 1: bid as high as allowed, so you choose trump, then play it out
    play_deal(page, "highest", {"bid": "codepiece-bidding.png", "trump": "codepiece-trump.png"})
    assert awaiting(page) == "deal-over", page.inner_text(STATUS)
    summary = page.inner_text(".cp-summary")
    assert "Deal 1:" in summary and "this deal" in summary and "match" in summary
    assert "You score" in page.inner_text(STATUS)
    page.screenshot(path=str(ARTIFACTS / "codepiece-deal-over.png"), full_page=True)
    page.click(".cp-log .jupyter-widget-Collapse-header")  # the move log: words, notation behind Details
    page.wait_for_selector(".cp-log .golf-log", state="visible", timeout=STEP_TIMEOUT)
    log = page.inner_text(".cp-log .golf-log")
    assert "Deal 1: You bid " in log and "Trick 1 goes to " in log and "Deal over." in log, log
    assert "D1 " not in log and "seat" not in log and "seed" not in log, log

    # deal 2: the next dealer; pass and play every card of the deal
    click_and_wait(page, ".cp-next-deal")
    assert "Deal 2 of 4" in page.inner_text(".cp-info")
    assert "dealer: Left" in page.inner_text(".cp-info")
    cards = play_deal(page, "pass", {"card-mid-trick": "codepiece-mid-trick.png"})  # the log open beside
    assert awaiting(page) == "deal-over" and cards >= 1
    assert "Deal 2:" in page.inner_text(".cp-summary")
    assert not widget_error_finder(page)


def test_the_bids_explorer_draws_both_charts(page, voila_server, app_opener, widget_error_finder):
    app_opener(page, voila_server, "codepiece_bids.ipynb", ready=".explorer-status", timeout=120_000)
    page.wait_for_function(  # the first result is shown (whatever words the status line uses for "done")
        "() => { const e = document.querySelector('.explorer'); return e && !e.classList.contains('explorer-computing')"
        " && e.querySelector('.explorer-status').textContent.includes('400 CPU self-play deals'); }", timeout=120_000)
    assert not page.locator(".explorer-error").count(), page.inner_text(".explorer-status")
    # each chart reaches the page as its own model: wait until both have drawn data, not until two traces show
    page.wait_for_function(f"({CHARTS_DRAWN})().filter(n => n > 0).length >= 2", timeout=60_000)
    drawn = page.evaluate(CHARTS_DRAWN)
    assert len(drawn) == 2 and all(n > 0 for n in drawn), drawn
    assert page.locator("a.explorer-csv").count() == 3
    assert "By bid" in page.inner_text(".explorer") and not widget_error_finder(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "codepiece-bids.png"), full_page=True)
