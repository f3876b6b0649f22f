"""The teacher's dashboard in a browser (golflab-voila, the shared test class store): a teacher
signs in and sees the roster row and the lesson star of a learner who earned one; a learner who
opens the page sees only the refusal. Screenshots: test-artifacts/dashboard.png,
dashboard-learner.png."""

from __future__ import annotations

import re

import pytest

from golflab import Game, Rules
from golflab.ai import CPUPlayer
from golflab.classroom import Store
from tests.browser.conftest import ARTIFACTS, NEXT_FRAMES

TEACHER, LEARNER, PASSWORD = "dash_teacher", "dash_kid", "dash-pass-1"
LESSON = "lesson1"


def finished_game(seed: int) -> Game:
    game = Game(players=[LEARNER, "Sofia"], rules=Rules(rounds=1), seed=seed)
    bots = [CPUPlayer("Marcus", seed=i) for i in range(2)]
    while game.phase != "game_over":
        game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
    return game


@pytest.fixture(scope="module")
def dashboard_class(voila_server, class_store_url):
    """A class with one learner who has three stars in lesson 1, two graded games and a place on the
    leaderboard, and another who is stuck on puzzles; an assignment set."""
    store = Store(class_store_url)
    if store.user(TEACHER) is None:
        teacher = store.create_user(TEACHER, password=PASSWORD, role="teacher")
        klass = store.create_class("Dashboard class", teacher)
        invite = store.create_invite(klass, by=teacher)
        kid = store.register(LEARNER, PASSWORD, invite)
        other = store.register("dash_other", PASSWORD, invite)
        for i in range(4):
            store.record_exercise(kid, LESSON, f"item{i}", True, lesson_items=4, skill="turn")
        for seed, accuracy in ((1, 62.0), (2, 71.5), (3, 84.0)):
            store.record_game(kid, finished_game(seed), 0, accuracy=accuracy, blunders=1)
        for i in range(3):
            store.record_puzzle(other, f"dash-puzzle-{i}", False, skill="pairs")
        store.record_puzzle(kid, "dash-puzzle-0", True, skill="pairs")
        store.set_leaderboard(kid, True, by=kid)
        store.create_assignment(klass, by=teacher, lesson=LESSON, puzzles=5, difficulty="easy", due_days=7)
    yield store
    store.close()


def test_a_teacher_sees_the_roster_and_the_star(page, voila_server, dashboard_class):
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(f"{voila_server.base}/golflab/signin?next=/voila/render/class.ipynb", wait_until="load")
    page.fill("input[name=name]", TEACHER)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/voila/render/class\.ipynb$"), timeout=120_000)
    row = page.locator(f".golf-roster .golf-roster-row[data-name='{LEARNER}']")
    row.wait_for(timeout=120_000)
    assert page.locator(".golf-roster .golf-roster-row").count() == 2
    text = row.inner_text()
    assert LEARNER in text and ("just now" in text or "ago" in text), text
    heatmap = page.locator(".golf-stars-heatmap")
    heatmap.locator("text", has_text="★★★").first.wait_for(timeout=120_000)  # the learner's lesson star
    page.set_viewport_size({"width": 1280, "height": 2400})  # Voila scrolls its own pane: show all of it
    page.wait_for_function("h => window.innerHeight === h", arg=2400)
    page.evaluate(NEXT_FRAMES)  # drawn at the new size
    page.screenshot(path=str(ARTIFACTS / "dashboard.png"))
    assert "Error displaying widget" not in page.inner_text("body")


def test_a_learner_sees_only_the_refusal(page, voila_server, dashboard_class, app_opener):
    token = dashboard_class.sign_in(LEARNER, PASSWORD)
    page.context.add_cookies([{"name": "golflab_session", "value": token, "url": voila_server.base}])
    app_opener(page, voila_server, "class.ipynb", ready=".golf-dashboard-refused")
    body = page.inner_text("body")
    assert "This page is for teachers" in body and f"signed in as {LEARNER}" in body
    assert "dash_other" not in body and page.locator(".golf-roster").count() == 0
    page.screenshot(path=str(ARTIFACTS / "dashboard-learner.png"))
