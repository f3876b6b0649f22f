"""The analysis board in a real browser: a link opens a position, the board draws it and shows
the coach's value of every option (the values golflab's hint gives that position); a refused
text says what is impossible and keeps the board. Screenshots go to test-artifacts/."""

from __future__ import annotations

from golflab_widgets.position_links import position_link
from playwright.sync_api import expect

from golflab import Position
from golflab import words as plain
from golflab.coach import hint
from tests.browser.board_hooks import shoot_whole

#: Seat 1 drew the jack of clubs: discard it, or swap it for a face-down card (or a 9, 4 or 7)?
TEXT = "KH 5D ? ? ? 2C / 9S ? 4H ? 7H ?; discard 4S; deck 38; seat 1 holds JC; rules knock_penalty=on"
VALUES = ".golf-analysis-values"
WAIT = 60_000  # ms: the coach values every option on a loaded machine


def test_a_link_opens_the_position_with_the_coachs_values(page, voila_server, app_opener):
    position = Position.parse(TEXT)
    options = hint(position.observation())  # what the page must show: the same hint, the same values
    link = position_link(position)
    app_opener(page, voila_server, link, ready=f"{VALUES} .golf-best", timeout=180_000)
    assert page.locator(".golf-position-text textarea").input_value() == TEXT
    assert page.locator(".golf-analysis-board .gl-card").count() >= 14
    values = page.locator(VALUES)
    assert "Best." in values.inner_text()
    values.locator(".golf-details summary").click()
    shown = values.inner_text()
    for action, value, lost in plain.details_rows(options):
        assert f"{action}\t{value}\t{lost}" in shown, (action, shown)
    assert page.locator(".golf-position-link a").get_attribute("href") == link
    shoot_whole(page, "analysis-link")

    page.locator(".golf-position-text textarea").fill(TEXT.replace("9S", "KH"))
    page.locator(".golf-position-show").click()
    expect(page.locator(".golf-position-problem")).to_contain_text(
        "impossible position: KH is there 2 times", timeout=WAIT)
    assert values.inner_text() == shown  # the last good position's values stay
    shoot_whole(page, "analysis-refused")


def expect_values(page, text: str) -> None:
    """Wait until the page shows the coach's values of position ``text`` (as golflab's hint gives them)."""
    for row in plain.details_rows(hint(Position.parse(text).observation())):
        expect(page.locator(VALUES)).to_contain_text("".join(row), timeout=WAIT)


def test_a_position_set_up_by_clicking_opens_by_its_link_with_the_same_values(page, browser, voila_server,
                                                                             app_opener):
    """The teacher lays the queen of spades face up at seat 0's top right by clicking; the link
    then opens that position on a learner's page, with the same values as on the teacher's."""
    app_opener(page, voila_server, position_link(Position.parse(TEXT)), ready=f"{VALUES} .golf-best",
               timeout=180_000)
    page.click(".golf-edit .jupyter-widget-Collapse-header")  # open "Set up by clicking"
    page.locator(".golf-card-text input").fill("QS")
    page.locator(".golf-card-text input").press("Enter")
    page.locator(".golf-edit-slot-0-2").click()
    set_up = TEXT.replace("KH 5D ?", "KH 5D QS", 1)
    expect(page.locator(".golf-position-text textarea")).to_have_value(set_up, timeout=WAIT)
    link = position_link(Position.parse(set_up))
    expect(page.locator(".golf-position-link a")).to_have_attribute("href", link, timeout=WAIT)
    expect_values(page, set_up)
    shoot_whole(page, "analysis-set-up")

    learner = browser.new_page()
    try:
        app_opener(learner, voila_server, link, ready=f"{VALUES} .golf-best", timeout=180_000)
        expect_values(learner, set_up)
        assert learner.locator(VALUES).text_content() == page.locator(VALUES).text_content()
        shoot_whole(learner, "analysis-learner")
    finally:
        learner.close()
