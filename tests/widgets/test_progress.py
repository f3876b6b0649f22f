"""The learner's progress kept by the apps, driven from Python with a real SQLite class store in
tmp: a finished game in My games and the replay, a lesson's stars and ticks over a new kernel, a
puzzle rating and streak that persist, missed puzzles served again, another learner's game
refused, the greeting, and an unwritable store that never stops a game."""

from __future__ import annotations

import html
import re
import time

import pytest
from golflab_widgets.account import learner_progress as progress
from golflab_widgets.account.greeting import Greeting, assignment_words
from golflab_widgets.account.my_games import MyGames
from golflab_widgets.account.session import page_session
from golflab_widgets.coach.panel import Coach
from golflab_widgets.coach.replay import ReplayViewer
from golflab_widgets.lessons.exercise import Exercises, PairPays, ScoreHand
from golflab_widgets.lessons.puzzle_board import PuzzleBoard, parse_puzzle_key, puzzle_key
from golflab_widgets.table.golf_table import GolfTable

from golflab import Phase, Rules
from golflab.classroom import Store
from golflab.classroom.database import make_engine

PASSWORD = "pass-word-1"
HAND = ["QH", "2S", "5D", "QC", "7C", "KS"]  # the queens pair (0), -2 + 7, 5 + 0: scores 10
DAY = 86_400


def text(widget) -> str:
    """What a widget tree says, without tags."""
    parts = []

    def walk(w):
        if hasattr(w, "value") and isinstance(w.value, str):
            parts.append(w.value)
        if hasattr(w, "description") and isinstance(w.description, str):
            parts.append(w.description)
        for child in getattr(w, "children", ()):
            walk(child)

    walk(widget)
    shown = re.sub(r"<style>.*?</style>", " ", " ".join(parts), flags=re.DOTALL)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", shown)).split())


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for var in ("GOLFLAB_CPU_DELAY", "GOLFLAB_SEED", "QUERY_STRING", "JUPYTERHUB_USER", "HTTP_COOKIE"):
        monkeypatch.delenv(var, raising=False)
    yield
    page_session(environ={})  # later tests play as a guest again


class Classroom:
    """A store in tmp with a teacher, a class and two learners, ann and bob, each with a session."""

    def __init__(self, path):
        self.url = f"sqlite:///{path / 'class.db'}"
        self.path = path / "class.db"
        self.store = Store(self.url)
        self.teacher = self.store.create_user("mrs_lee", password=PASSWORD, role="teacher")
        self.klass = self.store.create_class("6B", teacher=self.teacher)
        invite = self.store.create_invite(self.klass, by=self.teacher)
        self.ann = self.store.register("ann", PASSWORD, invite)
        self.bob = self.store.register("bob", PASSWORD, invite)

    def environ(self, name: str) -> dict:
        token = self.store.sign_in(name, PASSWORD)
        return {"GOLFLAB_DATABASE_URL": self.url, "HTTP_COOKIE": f"_xsrf=abc; golflab_session={token}"}

    def sign_in(self, name: str):
        """A new kernel's page signed in as ``name``."""
        return page_session(environ=self.environ(name))


@pytest.fixture
def room(tmp_path) -> Classroom:
    return Classroom(tmp_path)


def play_to_end(table: GolfTable, limit: int = 5000) -> None:
    """Play through the board, the first legal action each time (passing the board in hot-seat)."""
    for _ in range(limit):
        if table.game.phase is Phase.GAME_OVER:
            return
        if table.awaiting == "pass":
            table.board.ready_button.click()
        elif table.awaiting == "next-round":
            table.next_round_button.click()
        else:
            action = str(table.game.observation(table.human_seat).legal_actions[0])
            kind, _, pos = action.partition(" ")
            if pos:
                table.slots[int(pos)].click()
            else:
                {"draw": table.deck_button, "take": table.discard_button, "discard": table.discard_action,
                 "skip": table.skip_action, "knock": table.knock_action}[kind].click()
    raise AssertionError("the game did not end")


def one_hole(seed: int = 3, **kwargs) -> GolfTable:
    return GolfTable(players=kwargs.pop("players", ["Sofia", "Maya"]), rules=Rules(rounds=1), seed=seed,
                     cpu_delay=0, **kwargs)


# ---------------------------------------------------------------------------------- games
def test_a_finished_game_shows_in_my_games_and_opens_in_the_replay(room, monkeypatch):
    room.sign_in("ann")
    table = one_hole()
    play_to_end(table)
    assert "Game kept in My games." in table.status_text
    records = room.store.games(room.ann, by=room.ann)
    assert [r.game().to_json() for r in records] == [table.game.to_json()]
    record = records[0]
    assert (record.seat, record.holes, record.points, record.accuracy) == (0, 1, table.game.totals[0], None)

    listed = MyGames()  # the landing page's list: a link per game
    assert "1 game, newest first" in text(listed)
    assert f'href="replay.ipynb?game={record.id}"' in listed.rows.children[1].children[1].value
    assert progress.place_words(record.points, record.scores) in text(listed)

    viewer = ReplayViewer(opener=False)
    assert MyGames(viewer=viewer).open_game(record.id) is True
    assert viewer.game.to_json() == table.game.to_json() and viewer.seat == 0
    assert "Your game of today" in text(viewer.message)

    monkeypatch.setenv("QUERY_STRING", f"game={record.id}")  # replay.ipynb?game=<id>
    asked = ReplayViewer(opener=False)
    MyGames(viewer=asked)
    assert asked.game.to_json() == table.game.to_json()


def test_games_list_newest_first_and_a_loaded_finished_game_is_not_kept_twice(room):
    room.sign_in("ann")
    first, second = one_hole(seed=3), one_hole(seed=4)
    play_to_end(first)
    play_to_end(second)
    second.load(first.save())  # a finished game opened again is no new game
    assert [r.seed for r in room.store.games(room.ann, by=room.ann)] == ["4", "3"]
    assert [row.children[0].value.count("golf-cell") for row in MyGames().rows.children] == [5, 5, 5]


def test_the_coach_keeps_its_accuracy_and_blunders_with_the_game(room):
    room.sign_in("ann")
    table = one_hole(seed=5)
    coach = Coach(table, on=True)
    play_to_end(table)
    record = room.store.games(room.ann, by=room.ann)[0]
    assert coach.review.grades, "the coach graded the learner's decisions"
    assert record.accuracy == coach.review.accuracy
    assert record.blunders == coach.review.counts["BLUNDER"]


def test_hot_seat_keeps_the_game_for_the_first_persons_seat_only(room):
    room.sign_in("ann")
    table = one_hole(seed=6, players=["Ann", "Ben", "Sofia"], humans=["Ann", "Ben"])
    play_to_end(table)
    assert [r.seat for r in room.store.games(room.ann, by=room.ann)] == [0]
    assert "kept in My games for Ann (the first person's seat" in table.status_text


def test_another_learners_game_is_refused_in_plain_words(room):
    room.sign_in("bob")
    bobs = one_hole(seed=8)
    play_to_end(bobs)
    bob_id = room.store.games(room.bob, by=room.bob)[0].id

    room.sign_in("ann")
    viewer = ReplayViewer(opener=False)
    assert viewer.open_kept(bob_id) is False
    said = text(viewer.message)
    assert f"there is no kept game {bob_id} of yours" in said and "Nothing was changed" in said
    assert viewer.game is None  # nothing of bob's game shows
    assert viewer.open_kept(bob_id + 1000) is False
    assert text(viewer.message) == said.replace(str(bob_id), str(bob_id + 1000))  # the same as a missing one
    assert viewer.open_kept("12; drop table games") is False
    assert "opened by its number" in text(viewer.message)
    assert MyGames().records == []  # ann's list holds none of bob's games

    page_session(environ={})  # a guest
    assert viewer.open_kept(bob_id) is False and "sign in to open your kept games" in text(viewer.message)


# -------------------------------------------------------------------------------- lessons
def test_a_lesson_answer_gives_a_star_that_survives_a_new_kernel(room):
    room.sign_in("ann")
    ex = Exercises([ScoreHand(HAND), PairPays(["2S", "5D", "QC", "2H", "7C", "KS"], 0)], title="Lesson 2 exercises")
    assert ex.lesson == "lesson2" and [ex.item_id(i) for i in range(2)] == ["1-score-hand", "2-pairs"]
    ex.answer(0, number="10")
    ex.answer(1, choice="no")  # a pair of twos (-2 each) throws 4 points away
    assert "\u2605\u2605\u2605 lesson done" in text(ex.progress)
    progress_now = room.store.lesson_progress(room.ann, by=room.ann)["lesson2"]
    assert (progress_now.stars, progress_now.done, progress_now.items) == (3, True, 2)

    room.sign_in("ann")  # a new kernel: the page is opened again
    again = Exercises([ScoreHand(HAND), PairPays(["2S", "5D", "QC", "2H", "7C", "KS"], 0)],
                      title="Lesson 2 exercises")
    assert again.results == [True, True]
    assert "\u2605\u2605\u2605" in text(again.progress) and "2 of 2 answered, 2 right" in text(again.progress)
    assert "right on an earlier visit" in text(again.boxes[0].feedback)
    attempts = room.store.exercise_results(room.ann, "lesson2", by=room.ann)
    assert attempts == {"1-score-hand": True, "2-pairs": True}


def test_a_wrong_first_try_costs_the_star_and_keeps_a_cross(room):
    room.sign_in("ann")
    ex = Exercises([ScoreHand(HAND)], title="Lesson 1 exercises")
    ex.answer(0, number="11")
    ex.answer(0, number="10")  # right at the second try: answered, no first-try star
    assert room.store.lesson_progress(room.ann, by=room.ann)["lesson1"].stars == 1  # done, none at the first try
    assert "\u2605\u2606\u2606 0 right at the first try" in text(ex.progress)
    ex.answer(0, number="")  # refused input is no attempt
    assert len(room.store.exercise_results(room.ann, "lesson1", by=room.ann)) == 1


def test_a_guests_answers_are_not_kept_and_say_so(room):
    page_session(environ={})
    ex = Exercises([ScoreHand(HAND)], title="Lesson 1 exercises")
    ex.answer(0, number="10")
    assert room.store.lesson_progress(room.ann, by=room.ann) == {}
    assert "\u2605" not in text(ex.progress)


def test_lesson_keys():
    assert progress.lesson_key("Lesson 4 exercises") == "lesson4"
    assert progress.lesson_key("Warm-up: Scoring!") == "warm-up-scoring"
    assert progress.lesson_key("Lesson 9 extras") == "lesson-9-extras"  # no such lesson: the title's words


# -------------------------------------------------------------------------------- puzzles
def test_a_puzzle_attempt_moves_the_rating_and_the_streak_persists(room):
    room.sign_in("ann")
    board = PuzzleBoard(seed=0)
    assert parse_puzzle_key(board.puzzle_keys[0])[1:] == (0, "medium", "place", 0)
    assert len(board.puzzle_keys[0]) <= 128
    board.answer(board.puzzle.answer)
    profile = room.store.puzzle_profile(room.ann, by=room.ann)
    assert profile.rating > 1500 and profile.streak == 1
    said = text(board.score)
    assert f"your rating {profile.rating:.0f} (+{profile.rating - 1500:.0f})" in said and "streak 1" in said
    assert "still settling: your first puzzles move it most" in said  # a first result moves it by 100 or more

    room.sign_in("ann")  # a new kernel
    again = PuzzleBoard(seed=0)
    assert "streak 1 (best 1)" in text(again.score) and f"your rating {profile.rating:.0f}" in text(again.score)
    again.next()
    again.answer(again.puzzle.answer)
    assert room.store.puzzle_profile(room.ann, by=room.ann).streak == 2
    assert "streak 2 (best 2)" in text(again.score)


def test_a_missed_puzzle_due_again_comes_first(room):
    session = room.sign_in("ann")
    board = PuzzleBoard(seed=0)
    board.next()
    missed_key = board.puzzle_keys[1]
    wrong = next(o.action for o in board.puzzle.options if o.action != board.puzzle.answer)
    board.answer(wrong)
    assert "streak 0" in text(board.score)

    session = room.sign_in("ann")
    session.store.clock = lambda: __import__("time").time() + 2 * DAY  # two days later: due again
    later = PuzzleBoard(seed=0)
    assert later.puzzle_keys[0] == missed_key and later.puzzle.source == board.puzzles[1].source
    assert "missed before, back for another try" in text(later.question)
    assert later.puzzle_keys.count(missed_key) == 1  # not served twice
    later.answer(later.puzzle.answer)
    assert room.store.puzzle_profile(room.ann, by=room.ann).due == ()


def test_puzzle_keys_round_trip_and_refuse_other_text():
    key = puzzle_key(Rules(jokers="standard"), 12, "hard", None, 4)
    digest, *rest = parse_puzzle_key(key)
    assert rest == [12, "hard", None, 4] and digest != parse_puzzle_key(puzzle_key(Rules(), 12, "hard", None, 4))[0]
    for bad in ("", "golf:x:1:medium:place", "golf:x:a:medium:place:0", "golf:x:1:tricky:place:0",
                "golf:x:1:medium:juggle:0", "golf:x:1:medium:place:9"):
        assert parse_puzzle_key(bad) is None


# ------------------------------------------------------------------------------- greeting
def test_a_first_visit_is_welcomed_and_a_return_welcomed_back(room):
    room.sign_in("ann")
    assert "Welcome, ann!" in text(Greeting()) and "Welcome back" not in text(Greeting())
    Exercises([ScoreHand(HAND)], title="Lesson 2 exercises").answer(0, number="10")
    assert "Welcome back, ann!" in text(Greeting())


def test_the_greeting_names_the_learner_with_stars_rating_assignments_and_games(room):
    room.store.create_assignment(room.klass, by=room.teacher, lesson="lesson2", puzzles=1, difficulty="medium",
                                 due_days=3)
    room.sign_in("ann")
    Exercises([ScoreHand(HAND)], title="Lesson 2 exercises").answer(0, number="10")
    board = PuzzleBoard(seed=0)
    board.answer(board.puzzle.answer)
    play_to_end(one_hole())

    said = text(Greeting())
    assert "Welcome back, ann!" in said
    assert "Lesson 2: scoring and pairs : \u2605\u2605\u2605 done" in said
    assert "Lesson 1: the deal and a turn : not started" in said
    rating = room.store.puzzle_profile(room.ann, by=room.ann).rating
    settling = "still settling: your first puzzles move it most"
    assert f"your rating {rating:.0f} \u00b7 {settling} \u00b7 streak 1 (best 1)" in said
    assert "Lesson 2: scoring and pairs and 1 medium puzzle: due in 3 days \u2014 done \u2714" in said
    assert "My games" in said and "1 game, newest first" in said
    assert "class dashboard" not in said
    assert "Show me on my class leaderboard" in said  # a learner's own choice, on their landing page


def test_the_greeting_gives_a_teacher_the_dashboard_and_a_guest_nothing_more(room):
    room.sign_in("mrs_lee")
    teacher = Greeting()
    assert 'href="class.ipynb"' in teacher.text.value and "golf-class-dashboard" in teacher.text.value
    assert "leaderboard" not in text(teacher)
    page_session(environ={})
    guest = Greeting()  # the account bar above it says that progress is not kept
    assert guest.layout.display == "none" and guest.text.value == "" and guest.games is None
    assert text(MyGames()) == "My games Your finished games are kept here once you sign in."


def test_assignment_words():
    from golflab.classroom import Assignment

    now = 1_000_000.0
    late = Assignment(1, 1, None, 5, "hard", now - 1.5 * DAY, now - 9 * DAY, None, 2)
    assert assignment_words(late, now) == ("5 hard puzzles: 2 days late \u2014 2 of 5 puzzles solved", False)
    soon = Assignment(2, 1, "lesson1", 0, None, now + 0.5 * DAY, now, False, 0)
    assert assignment_words(soon, now) == ("Lesson 1: the deal and a turn: due today \u2014 lesson not done yet",
                                           False)


# ------------------------------------------------------------------------ store problems
def test_an_unwritable_store_shows_the_problem_and_the_game_plays_to_the_end(room):
    session = room.sign_in("ann")
    session.store.engine = make_engine(f"sqlite:///file:{room.path}?mode=ro&uri=true")  # read-only from now
    table = one_hole(seed=3)
    play_to_end(table)
    assert table.game.phase is Phase.GAME_OVER and not table.errors
    assert "Your progress could not be kept just now" in table.status_text and "The game goes on" in table.status_text
    assert room.store.games(room.ann, by=room.ann) == []
    ex = Exercises([ScoreHand(HAND)], title="Lesson 1 exercises")
    assert ex.answer(0, number="10").correct and ex.results == [True]
    assert "could not be kept" in text(ex.progress)


def test_a_store_that_cannot_be_opened_leaves_the_apps_working(room, tmp_path):
    page_session(environ={"GOLFLAB_DATABASE_URL": f"sqlite:///{tmp_path / 'no-such-dir' / 'x.db'}",
                          "HTTP_COOKIE": "golflab_session=abc"})
    assert "cannot be kept here" in progress.problem()
    table = one_hole(seed=3)
    play_to_end(table)
    assert table.game.phase is Phase.GAME_OVER and "cannot be kept here" in table.status_text
    assert "cannot be kept here" in text(MyGames()) and Greeting().layout.display == "none"


def test_a_learner_deactivated_meanwhile_plays_on_and_is_told(room):
    room.sign_in("ann")
    table = one_hole(seed=3)
    room.store.deactivate(room.ann, by=room.teacher)
    play_to_end(table)
    assert table.game.phase is Phase.GAME_OVER and "could not be kept" in table.status_text
    assert "cannot be read" in text(Greeting()) and room.store.games(room.ann, by=room.teacher) == []


def test_a_puzzle_answered_after_the_sign_in_expired_is_not_kept_and_the_page_says_signed_out(room):
    session = room.sign_in("ann")
    board = PuzzleBoard(seed=0)
    session.store.clock = lambda: time.time() + 31 * 24 * 3600  # past GOLFLAB_SESSION_DAYS (30)
    board.answer(board.puzzle.answer)
    assert room.store.puzzle_profile(room.ann, by=room.ann).attempts == 0
    assert "signed out" in text(board.score) and not session.signed_in
