"""The coach's words scanned with the shared checker (tests/support/plain_words.py): the hint, the grade
badges, the tutor's question, the review (titles, the chart's axis and labels, the costliest
decisions), a retry and its feedback: no notation, no position numbers, short sentences."""

from __future__ import annotations

import pytest
from golflab_widgets import GolfTable
from golflab_widgets.coach.panel import Coach

from golflab import Phase, Rules
from tests.support.plain_words import widget_problems, widget_texts
from tests.widgets.test_tutor import careless_click


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    for var in ("GOLFLAB_CPU_DELAY", "GOLFLAB_SEED"):
        monkeypatch.delenv(var, raising=False)


def coach_problems(t: GolfTable) -> list:
    return widget_problems(t.coach_slot) + widget_problems(t.review_slot)


def test_the_coach_speaks_plain_words_from_the_first_hint_to_a_retry():
    t = GolfTable(players=["Sofia", "Maya"], rules=Rules(rounds=1), seed=5, cpu_delay=0)
    coach = Coach(t, tutor=True)
    asked = hinted = 0
    for n in range(300):
        if t.game.phase is Phase.GAME_OVER:
            break
        if t.awaiting in ("draw", "place") and n % 3 == 0:
            coach.hint_button.click()
            hinted += 1
        careless_click(t, n)
        assert not coach_problems(t), coach_problems(t)[:3]
        if coach.held is not None:  # the tutor's question, then play it anyway
            asked += 1
            coach.tutor_play.click()
    assert t.game.phase is Phase.GAME_OVER and asked and hinted
    coach.show_review()
    assert not coach_problems(t), coach_problems(t)[:3]
    chart = widget_texts(coach.chart)
    assert "hole and turn" in chart and any("hole 1, turn 1" in x for x in chart)
    rows = coach.costly_box.children[1:]
    assert len(rows) > 1
    for row in rows:
        row.children[1].click()  # retry
        assert not coach_problems(t), coach_problems(t)[:3]
        options = coach.retry_box.children[2].children
        for button in options[:2]:  # a try, then the feedback and the row's better move
            button.click()
            assert not coach_problems(t), coach_problems(t)[:3]
    assert coach.errors == [] and t.errors == []
