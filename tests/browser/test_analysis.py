"""The analysis board in a real browser: a link opens a position, the board draws it and shows
the coach's value of every option (the values golflab's hint gives that position); a refused
text says what is impossible and keeps the board; a position set up by clicking (a house rule
too) is played on against a CPU player for a turn, analysed where play stopped, and played on
step by step. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re

from golflab_widgets.position_links import position_link
from playwright.sync_api import expect

from golflab import Card, Position
from golflab import words as plain
from golflab.coach import hint
from tests.browser.board_hooks import GOLF, shoot_whole
from tests.browser.test_a11y import assert_accessible, assert_fits_small_screens

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
    assert_fits_small_screens(page, "analysis.ipynb")  # a teacher's phone and tablet, by touch too


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


def test_a_set_up_position_is_played_on_against_a_cpu_then_analysed_then_played_step_by_step(
        page, voila_server, app_opener):
    """The teacher switches a house rule on by clicking, plays seat 1 on from the position against
    a CPU player for a turn (the learner discards the jack, the CPU plays its turn), analyses the
    moment reached, then plays on from it step by step and goes back to it."""
    app_opener(page, voila_server, position_link(Position.parse(TEXT)), ready=f"{VALUES} .golf-best",
               timeout=180_000)
    box = page.locator(".golf-position-text textarea")
    page.click(".golf-edit .jupyter-widget-Collapse-header")  # open "Set up by clicking"
    page.click(".golf-edit-rules .jupyter-widget-Collapse-header")  # and its "House rules"
    page.locator(".golf-rule-knock_early input").check()
    ruled = TEXT.replace("knock_penalty=on", "knock_penalty=on knock_early=on")
    expect(box).to_have_value(ruled, timeout=WAIT)
    shoot_whole(page, "analysis-house-rules")

    page.click(".golf-play .jupyter-widget-Collapse-header")  # open "Play from here"
    expect(page.locator(".golf-play-cpu-0")).to_be_visible(timeout=WAIT)
    expect(page.locator(".golf-play-cpu-1")).to_be_hidden()  # seat 1 is the learner's
    shoot_whole(page, "analysis-play-setup")
    assert_accessible(page, "analysis, with its set-up, house rules and play panels open")
    page.click(".golf-play-cpus")
    frame = ".golf-play-frame"
    expect(page.locator(f"{frame} .golf-status")).to_have_class(re.compile(r"\bgolf-await-place\b"), timeout=WAIT)
    expect(page.locator(".golf-analysis-board")).to_be_hidden()
    assert page.locator(f"{frame} .golf-slot-0").get_attribute("title")  # the learner's own cards, by name
    assert "Played on from a position: You against Sofia" in page.locator(f"{frame} .golf-log-box").text_content()
    shoot_whole(page, "analysis-play-cpus")
    assert_accessible(page, "analysis, playing on against a CPU player")
    GOLF.click_and_wait(page, f"{frame} .golf-action-discard")  # the learner discards the jack
    assert GOLF.wait_for_learner(page) == "draw"  # Sofia has played her turn
    assert "Sofia" in page.locator(f"{frame} .golf-recent-box").text_content()
    shoot_whole(page, "analysis-play-cpu-turn")

    page.click(".golf-play-analyse")
    expect(box).not_to_have_value(ruled, timeout=WAIT)
    moment = box.input_value()
    reached = Position.parse(moment)
    assert (reached.seat, reached.mover, reached.stage) == (1, 1, "draw")
    assert Card.parse("JC") in reached.discard and reached.rules == Position.parse(ruled).rules
    expect_values(page, moment)
    shoot_whole(page, "analysis-play-analysed")

    page.click(".golf-play-steps")
    steps = page.locator(".golf-step-status")
    expect(steps).to_contain_text("Move 1. Seat 1 to move", timeout=WAIT)
    page.click(".golf-step-move-draw")
    expect(steps).to_contain_text("Move 2. Seat 1 to move", timeout=WAIT)  # it holds the card it drew
    expect(page.locator(".golf-step-move-discard")).to_be_visible(timeout=WAIT)
    expect(page.locator(".golf-step-values .golf-best")).to_be_visible(timeout=180_000)  # valued again
    page.locator(".golf-step-text input").fill("swap 9")
    page.click(".golf-step-play")
    expect(page.locator(".golf-step-problem")).to_contain_text("'swap 9' is not an action", timeout=WAIT)
    shoot_whole(page, "analysis-play-steps")
    assert_accessible(page, "analysis, playing on step by step")
    page.click(".golf-play-back")
    expect(box).to_have_value(moment, timeout=WAIT)
    expect(page.locator(".golf-analysis-board")).to_be_visible()
