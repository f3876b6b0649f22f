"""A teacher's puzzle sets through the widgets, driven from Python on a real SQLite class store: the
analysis board's *Save as a puzzle for my class* (a worse move is said so and saved only when asked;
a refusal saves nothing; nobody but a teacher sees it), the set on a learner's landing page and
puzzle board (served in order, each answer kept with its first try), and the dashboard's results."""

from __future__ import annotations

import pytest
from golflab_widgets.account.dashboard import ClassDashboard
from golflab_widgets.account.greeting import Greeting
from golflab_widgets.account.session import PageSession
from golflab_widgets.coach.analysis import AnalysisBoard
from golflab_widgets.coach.analysis_save import SaveToSet
from golflab_widgets.lessons.puzzle_board import PuzzleBoard, requested_set

from golflab import Position
from tests.widgets.test_progress import Classroom, text

#: Seat 1 has drawn the 8 of diamonds; the coach's best is over a face-down card under a face-down card
#: (swap 2, or swap 5: the same move), about 0.6 points better than over the 9 (swap 0).
DRAWN = "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D"
SET = "Пазлы 5Б"  # a set's name in any script


@pytest.fixture
def room(tmp_path) -> Classroom:
    made = Classroom(tmp_path)
    yield made
    made.store.close()


def saver(room, name: str = "mrs_lee") -> SaveToSet:
    board = AnalysisBoard(DRAWN)
    return SaveToSet(board, PageSession(room.store, room.store.user(name)))


def fill(panel: SaveToSet, move: str, title: str = "Into the dark", note: str = "") -> None:
    panel.set_name.value, panel.title.value, panel.note.value, panel.move.value = SET, title, note, move


def items(room) -> list:
    teacher = room.store.user("mrs_lee")
    return [i for s in room.store.puzzle_sets(room.klass, by=teacher)
            for i in room.store.set_items(s, by=teacher)]


def test_the_best_move_is_saved_at_once_and_a_worse_one_only_when_asked(room):
    panel = saver(room)
    assert [v for _, v in panel.move.options] == [f"swap {i}" for i in range(6)] + ["discard"]
    fill(panel, "swap 0")
    panel.check_and_save()
    assert "worse than its best" in panel.said.value and "Save it anyway?" in panel.said.value
    assert panel.anyway_button.layout.display is None and items(room) == []  # nothing saved yet
    panel.move.value = "swap 2"  # another choice: the check no longer stands
    assert panel.anyway_button.layout.display == "none"
    panel.save_anyway()
    assert items(room) == []
    panel.check_and_save()
    assert "Saved as puzzle 1 of the set" in panel.said.value and "the best move" in panel.said.value
    fill(panel, "swap 0", "Over the nine", "It saves a point now.")
    panel.check_and_save()
    panel.save_anyway()
    assert "Saved as puzzle 2" in panel.said.value
    first, second = items(room)
    assert (first.answer, first.loss, first.title) == ("swap 2", 0.0, "Into the dark")
    assert (second.answer, second.title, second.note) == ("swap 0", "Over the nine", "It saves a point now.")
    assert second.loss > 0 and first.position == second.position == str(Position.parse(DRAWN))
    assert panel.set_name.options == (SET,)


def test_a_save_without_a_title_or_set_says_so_and_saves_nothing(room):
    panel = saver(room)
    fill(panel, "swap 2", title="  ")
    panel.check_and_save()
    assert "a title first" in panel.said.value and items(room) == []


@pytest.mark.parametrize("who", ["ann", None])
def test_only_a_teacher_sees_the_panel(room, who):
    board = AnalysisBoard(DRAWN)
    panel = SaveToSet(board, PageSession(room.store, room.store.user(who)) if who else PageSession())
    assert panel.children == () and board.save_slot.children == (panel,)


def test_a_learner_solves_the_assigned_set_and_the_teacher_sees_how(room, monkeypatch):
    panel = saver(room)
    fill(panel, "swap 2", note="Look past your 9.")
    panel.check_and_save()
    teacher = room.store.user("mrs_lee")
    (puzzle_set,) = room.store.puzzle_sets(room.klass, by=teacher)
    room.store.create_assignment(room.klass, by=teacher, puzzle_set=puzzle_set)

    room.sign_in("ann")
    greeting = text(Greeting())
    assert f"the puzzle set {SET}" in greeting and "set not finished yet" in greeting
    monkeypatch.setenv("QUERY_STRING", f"set={puzzle_set.id}")  # the greeting's link to it
    assert requested_set() == puzzle_set.id
    board = PuzzleBoard(seed=3)
    assert board.puzzle_set == puzzle_set and board.puzzle.answer == "swap 2"
    assert "puzzle 1 of 1" in board.score.value and "Into the dark" in board.score.value
    assert board.answer("swap 5") is True  # the other face-down card under a face-down card: the same move
    assert "Look past your 9." in board.feedback.value and "Right" in board.feedback.value
    assert "right at the first try 1 of 1 · set done \u2605\u2605\u2605" in board.score.value
    board.next()
    assert "that was the last puzzle of the set" in board.feedback.value
    monkeypatch.delenv("QUERY_STRING")

    room.sign_in("bob")
    board = PuzzleBoard(seed=3)
    assert board.puzzle_set is None  # puzzles from play until the set is chosen
    board.source.value = puzzle_set.id
    assert board.answer("discard") is False
    board.choose_set(puzzle_set.id)  # the set again: a second answer is not a first try
    board.answer("swap 2")
    answers = room.store.set_progress(room.store.user("bob"), puzzle_set, by=teacher)
    assert [(a.answer, a.correct, a.first_try) for a in answers.values()] == [("discard", False, True)]
    # the first try counts; a finished set earns one star, as a finished lesson does
    assert "right at the first try 0 of 1 · set done \u2605\u2606\u2606" in board.score.value

    dash = ClassDashboard(PageSession(room.store, teacher))
    shown = text(dash.set_results)
    assert "Into the dark" in shown and "2 of 2" in shown
    assert "Put the 8 at top right (over a face-down card) (swap 2)" in shown  # the move wanted, in words
    assert "Discard the 8 (discard): 1" in shown  # the most common wrong answer, in words
    assert "2 of 2 finished" in text(dash.assignments)


def test_a_teacher_removes_a_puzzle_and_it_is_no_longer_served(room):
    panel = saver(room)
    fill(panel, "swap 2")
    panel.check_and_save()
    teacher = room.store.user("mrs_lee")
    dash = ClassDashboard(PageSession(room.store, teacher))
    ((label, item_id),) = dash.set_item_choice.options
    assert label == f"{SET} · 1. Into the dark"
    dash.remove_set_item(item_id)
    assert items(room) == [] and dash.set_item_choice.options == () and dash.set_item_remove.disabled
    assert "no puzzles yet" in text(dash.set_results) and "no longer get it" in dash.status.value


def test_a_teacher_renames_a_set_and_a_taken_name_is_refused(room):
    panel = saver(room)
    fill(panel, "swap 2")
    panel.check_and_save()
    teacher = room.store.user("mrs_lee")
    room.store.create_puzzle_set(room.klass, "Week 2", by=teacher)
    dash = ClassDashboard(PageSession(room.store, teacher))
    assert [label for label, _ in dash.set_choice.options] == [SET, "Week 2"] and not dash.set_rename.disabled
    first = dash.set_choice.options[0][1]
    dash.set_choice.value, dash.set_name.value = first, " week 2 "
    dash.set_rename.click()
    assert "already has a set named 'Week 2'" in text(dash.status) and dash.set_name.value == " week 2 "
    assert [s.name for s in room.store.puzzle_sets(room.klass, by=teacher)] == [SET, "Week 2"]  # nothing changed
    dash.set_name.value = "Pairs, then the dark"
    dash.set_rename.click()
    assert f"The set {SET} is now Pairs, then the dark." in text(dash.status) and dash.set_name.value == ""
    assert [label for label, _ in dash.set_choice.options] == ["Pairs, then the dark", "Week 2"]
    assert "Pairs, then the dark" in text(dash.set_results) and SET not in text(dash.set_results)
    assert dash.set_item_choice.options[0][0] == "Pairs, then the dark · 1. Into the dark"  # its puzzle kept
