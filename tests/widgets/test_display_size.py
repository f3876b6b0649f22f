"""The large display for a projector (widgets.display_size): one class, golf-large, that the
table, the score pad and any board take from an argument, GOLFLAB_LARGE or ?large=1."""

from __future__ import annotations

import pytest
from golflab_widgets.lessons.exercise import Exercises, ScoreHand
from golflab_widgets.lessons.scorer import HandScorer
from golflab_widgets.table import display_size
from golflab_widgets.table.display_size import (
    LARGE_CLASS,
    LARGE_CSS,
    large_default,
    resolve_large,
    set_large,
    size_toggle,
)
from golflab_widgets.table.golf_table import GolfTable


def exercises(**kwargs) -> Exercises:
    return Exercises([ScoreHand(["QH", "2S", "5D", "QC", "7C", "KS"])], **kwargs)


@pytest.fixture(autouse=True)
def no_teacher_setting(monkeypatch):
    monkeypatch.delenv("GOLFLAB_LARGE", raising=False)
    monkeypatch.delenv("QUERY_STRING", raising=False)


def test_off_unless_asked():
    assert large_default() is False
    assert LARGE_CLASS not in GolfTable(seed=1, cpu_delay=0)._dom_classes
    assert LARGE_CLASS not in HandScorer()._dom_classes
    assert LARGE_CLASS not in exercises()._dom_classes


@pytest.mark.parametrize("text, expected", [("1", True), ("yes", True), ("ON", True), ("0", False), ("off", False)])
def test_environment_variable(monkeypatch, text, expected):
    monkeypatch.setenv("GOLFLAB_LARGE", text)
    assert large_default() is expected
    assert (LARGE_CLASS in GolfTable(seed=1, cpu_delay=0)._dom_classes) is expected
    assert (LARGE_CLASS in HandScorer()._dom_classes) is expected
    assert (LARGE_CLASS in exercises()._dom_classes) is expected


def test_the_url_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("GOLFLAB_LARGE", "0")
    monkeypatch.setenv("QUERY_STRING", "large=1&x=2")
    assert large_default() is True
    assert GolfTable(seed=1, cpu_delay=0).large_toggle.value is True
    assert LARGE_CLASS in exercises()._dom_classes  # a lesson's exercises read it as the table does


def test_an_argument_wins_over_the_teacher_setting(monkeypatch):
    monkeypatch.setenv("GOLFLAB_LARGE", "1")
    assert LARGE_CLASS not in GolfTable(seed=1, cpu_delay=0, large=False)._dom_classes
    assert LARGE_CLASS in HandScorer(large=True)._dom_classes
    assert LARGE_CLASS not in exercises(large=False)._dom_classes
    monkeypatch.setenv("GOLFLAB_LARGE", "0")
    assert LARGE_CLASS in exercises(large=True)._dom_classes


@pytest.mark.parametrize("name, value, where", [("GOLFLAB_LARGE", "big", "environment variable GOLFLAB_LARGE"),
                                                ("QUERY_STRING", "large=maybe", "URL parameter large")])
def test_a_bad_setting_is_refused_clearly(monkeypatch, name, value, where):
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=where) as err:
        large_default()
    assert "1, true, yes, on, 0, false, no, off" in str(err.value)


@pytest.mark.parametrize("bad", [1, "yes", 0.5])
def test_a_bad_argument_is_refused(bad):
    with pytest.raises(ValueError, match="large must be True, False or None"):
        resolve_large(bad)
    with pytest.raises(ValueError, match="large must be"):
        GolfTable(seed=1, cpu_delay=0, large=bad)
    with pytest.raises(ValueError, match="large must be True, False or None"):
        exercises(large=bad)


def test_the_toggle_switches_the_table_and_keeps_the_game():
    table = GolfTable(seed=4, cpu_delay=0)
    table.slots[0].click()
    before = table.save()
    assert "golf-large-toggle" in table.large_toggle._dom_classes
    assert table.large_toggle in table.board.toolbar.children
    table.large_toggle.value = True
    assert LARGE_CLASS in table._dom_classes
    table.large_toggle.value = False
    assert LARGE_CLASS not in table._dom_classes
    assert table.save() == before


def test_every_board_gets_the_style_sheet_with_its_own():
    assert LARGE_CSS in GolfTable(seed=1, cpu_delay=0).css.value
    assert LARGE_CSS in HandScorer().children[0].value
    assert LARGE_CSS in exercises().children[0].value and "golf-exercise-set" in exercises()._dom_classes
    for selector in (".golf-large button.golf-card-btn", ".golf-large .golf-status",  # the table
                     ".golf-large .golf-card-text input", ".golf-large .gl-breakdown",  # the score pad
                     ".golf-large .golf-exercise-feedback", ".golf-large .golf-exercise-number input",  # exercises
                     ".golf-large.golf-exercise-set"):
        assert selector in LARGE_CSS


def test_set_large_switches_an_exercise_set_and_keeps_its_answers():
    ex = exercises(large=False)
    ex.answer(0, number="99")
    set_large(ex, True)
    assert display_size.is_large(ex) and ex.results == [False]
    assert "golf-exercise-wrong" in ex.boxes[0].feedback._dom_classes
    set_large(ex, False)
    assert not display_size.is_large(ex) and ex.done == 1


def test_set_large_and_size_toggle_work_on_any_widget():
    import ipywidgets as w

    box = w.VBox()
    toggle = size_toggle(box)
    assert toggle.value is False
    set_large(box, True)
    assert display_size.is_large(box)
    toggle.value = True
    toggle.value = False
    assert not display_size.is_large(box)
