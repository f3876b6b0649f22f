"""Tutor mode (ask before a move that loses 5 points or more) and retrying the review's costly
decisions, driven from Python."""

from __future__ import annotations

import html
import re

import pytest
from golflab_widgets import GolfTable
from golflab_widgets.coach.panel import TUTOR_LOSS, Coach

from golflab import Phase, Rules, words
from golflab.coach import hint
from tests.support.plain_words import problems


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    for var in ("GOLFLAB_CPU_DELAY", "GOLFLAB_SEED"):
        monkeypatch.delenv(var, raising=False)


def text(widget) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", widget.value)).split())


def shown(widget) -> bool:
    return widget.layout.display != "none"


def careless_click(t: GolfTable, n: int) -> None:
    """Takes the discard whenever it can and swaps it in at position n % 6."""
    obs = t.game.observation(t.human_seat)
    if t.awaiting in ("initial_flip", "flip"):
        t.slots[obs.face_down()[0]].click()
    elif t.awaiting == "draw":
        (t.discard_button if obs.discard_top is not None else t.deck_button).click()
    elif t.awaiting == "place":
        t.slots[n % 6].click()


def until_held(t: GolfTable, coach: Coach) -> int:
    """Careless clicks until the tutor holds one; returns the click's n."""
    for n in range(300):
        if t.game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            break
        careless_click(t, n)
        if coach.held is not None:
            return n
    pytest.fail("no move lost 5 points")


def test_the_tutor_asks_before_a_costly_move_and_plays_nothing_until_the_learner_chooses():
    t = GolfTable(players=["Sofia", "Maya"], rules=Rules(rounds=1), seed=5, cpu_delay=0)
    coach = Coach(t, tutor=True)
    assert not shown(coach.tutor_box)
    n = until_held(t, coach)
    held, history, obs = coach.held, list(t.game.history), t.game.observation(0)
    options = hint(obs)
    loss = next(o.value for o in options if o.action == held) - options[0].value
    assert loss >= TUTOR_LOSS
    said = text(coach.tutor_text)
    assert shown(coach.tutor_box) and len(words.sentences(said)) == 1 and f"{loss:.1f} points lost" not in said
    assert f"you lose {loss:.1f} points compared with the best move" in said and words.move(obs, held) in said
    assert "golf-tutor" in coach.tutor_box._dom_classes
    assert "golf-tutor-play" in coach.tutor_play._dom_classes and "golf-tutor-think" in coach.tutor_think._dom_classes
    coach.tutor_think.click()  # think again: nothing played, the question gone
    assert t.game.history == history and not shown(coach.tutor_box) and coach.held is None
    careless_click(t, n)  # the same move again: asked again
    assert coach.held == held and t.game.history == history
    coach.tutor_play.click()  # play it anyway
    assert t.game.history[len(history)] == held and not shown(coach.tutor_box)
    assert coach.errors == [] and t.errors == []


def test_without_the_tutor_the_same_move_is_played_at_once():
    t = GolfTable(players=["Sofia", "Maya"], rules=Rules(rounds=1), seed=5, cpu_delay=0)
    coach = Coach(t, tutor=True)
    n = until_held(t, coach)
    held, history = coach.held, list(t.game.history)
    coach.tutor_toggle.value = False
    careless_click(t, n)
    assert t.game.history[len(history)] == held and coach.held is None


def test_a_coach_without_tutor_asks_nothing_and_bad_settings_are_refused():
    t = GolfTable(players=["Sofia", "Maya"], rules=Rules(rounds=1), seed=5, cpu_delay=0)
    coach = Coach(t)
    assert not coach.tutor
    for n in range(300):
        if t.game.phase is Phase.ROUND_OVER:
            break
        careless_click(t, n)
        assert coach.held is None
    with pytest.raises(ValueError, match="tutor must be True or False"):
        Coach(t, tutor="yes")


def test_play_anyway_refuses_a_move_that_is_not_the_learners_and_changes_nothing():
    t = GolfTable(players=["Sofia", "Maya"], rules=Rules(rounds=1), seed=5, cpu_delay=0)
    history = list(t.game.history)
    with pytest.raises(ValueError, match="is not yours to play now"):
        t.play_anyway("swap 3")
    assert t.game.history == history


def test_a_costly_decision_can_be_retried_and_a_right_retry_is_marked():
    t = GolfTable(players=["Sofia", "Maya"], rules=Rules(rounds=1), seed=5, cpu_delay=0)
    coach = Coach(t)
    for n in range(300):
        if t.game.phase is Phase.GAME_OVER:
            break
        careless_click(t, n)
    coach.show_review()
    worst = coach.review.costliest(1)[0]
    row = coach.costly_box.children[1]
    retry = row.children[1]
    assert "Better" not in text(row.children[2])  # hidden in the review until retried
    assert "golf-review-retry-0" in retry._dom_classes
    retry.click()
    assert shown(coach.retry_box)
    box = " ".join(text(c) for c in coach.retry_box.children if hasattr(c, "value"))
    assert "Retry" in box and "Better" not in box  # the better move stays hidden until a try
    buttons = {b._dom_classes[-1]: b for b in coach.retry_box.children[2].children}
    assert len(buttons) == len(worst.observation.legal_actions)
    # words, not notation: no "swap 3" (a card may be named by its number: "Put the 7 at top left")
    assert not [(b.description, problems(b.description)) for b in buttons.values() if problems(b.description)]
    assert not {b.description for b in buttons.values()} & {str(a) for a in worst.observation.legal_actions}
    feedback = coach.retry_box.children[3]
    buttons[f"golf-retry-option-{worst.action.replace(' ', '-')}"].click()  # the same mistake again
    assert "Not yet" in text(feedback) and "Better:" in text(feedback)
    assert text(feedback).startswith(buttons[f"golf-retry-option-{worst.action.replace(' ', '-')}"].description)
    assert "Better:" in text(row.children[2])  # tried: the review row tells it too
    assert not coach.retried[worst.step]
    best = hint(worst.observation)[0].action
    buttons[f"golf-retry-option-{best.replace(' ', '-')}"].click()
    assert "Right!" in text(feedback) and coach.retried[worst.step]
    coach.show_review()
    assert "You retried it right." in text(coach.costly_box.children[1].children[2])
    assert coach.errors == []
