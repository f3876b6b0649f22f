"""The teacher's dashboard (golflab_widgets.account.dashboard) driven in Python on a real SQLite store:
a teacher sees their own class only, the heat map is the learners' lesson progress, assignments,
invite codes, accounts and the CSV export work, refusals change nothing, and a learner or a
guest gets a refusal with no class data anywhere in the widget tree."""

from __future__ import annotations

import base64
import csv
import io
import re

import pytest
from golflab_widgets.account.dashboard import LESSONS, SIGNIN, ClassDashboard, LeaderboardOptIn, star_matrix
from golflab_widgets.account.session import PageSession, page_session

from golflab import Game, Rules
from golflab.ai import CPUPlayer
from golflab.classroom import Store, StoreUnavailable
from golflab.classroom.admin import new_password, span_words, when
from tests.support.widget_state import widget_tree

START = 1_800_000_000.0
PASSWORD = "secret-pw1"
L1, L2 = LESSONS[0][0], LESSONS[1][0]


@pytest.fixture
def world(tmp_path):
    """Two teachers with a class each: Falcons (ann, bob) and Owls (zed, taught by mr_ng)."""
    now = [START]
    url = f"sqlite:///{tmp_path / 'class.db'}"
    store = Store(url, clock=lambda: now[0])
    lee = store.create_user("mrs_lee", PASSWORD, role="teacher")
    ng = store.create_user("mr_ng", PASSWORD, role="teacher")
    falcons, owls = store.create_class("Falcons", lee), store.create_class("Owls", ng)
    invite = store.create_invite(falcons, by=lee)
    ann, bob = store.register("ann", PASSWORD, invite), store.register("bob", PASSWORD, invite)
    zed = store.register("zed", PASSWORD, store.create_invite(owls, by=ng))
    for i in range(4):  # ann: lesson 1 all right first time (3 stars)
        store.record_exercise(ann, L1, f"item{i}", True, lesson_items=4, skill="turn")
    store.record_exercise(ann, L2, "item0", False, lesson_items=5, skill="pairs")  # started, no stars yet
    for i in range(3):  # bob: three puzzle misses on one skill -> stuck
        store.record_puzzle(bob, f"puzzle{i}", False, skill="pairs")
    store.record_exercise(zed, L1, "item0", True, lesson_items=4)
    now[0] += 3 * 3600
    yield dict(store=store, url=url, now=now, lee=lee, ng=ng, falcons=falcons, owls=owls, ann=ann, bob=bob, zed=zed)
    store.close()


def finished_game(seed: int) -> Game:
    game = Game(players=["ann", "Sofia"], rules=Rules(rounds=1), seed=seed)
    bots = [CPUPlayer("Marcus", seed=i) for i in range(2)]
    while game.phase != "game_over":
        game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
    return game


def dashboard(world, user="lee") -> ClassDashboard:
    return ClassDashboard(PageSession(world["store"], world[user]))


def tree_text(widget) -> str:
    """All the state the page would receive from the widget tree, as one string (without the
    JavaScript and CSS a plotly chart carries)."""
    return "\n".join(repr({k: v for k, v in x.get_state().items() if k not in ("_esm", "_css")})
                     for x in widget_tree(widget))


def roster_names(dash: ClassDashboard) -> list[str]:
    return re.findall(r"<tr class='golf-roster-row[^']*' data-name='([^']+)'", dash.roster.value)


def test_a_teacher_sees_the_roster_of_their_own_class_only(world):
    dash = dashboard(world)
    assert "golf-roster" in dash.roster._dom_classes
    assert dash.klass == world["falcons"]
    assert roster_names(dash) == ["ann", "bob"]
    assert dash.roster.value.count("golf-roster-row") == 2
    assert "3 hours ago" in dash.roster.value
    text = tree_text(dash)
    assert "zed" not in text and "Owls" not in text and world["owls"].code not in text
    assert [label for label, _ in dash.class_choice.options] == [f"Falcons · code {world['falcons'].code}"]


def test_an_admin_may_choose_any_class(world):
    boss = world["store"].create_user("boss", PASSWORD, role="admin")
    dash = ClassDashboard(PageSession(world["store"], boss))
    assert [v for _, v in dash.class_choice.options] == [world["falcons"].id, world["owls"].id]
    dash.class_choice.value = world["owls"].id
    assert roster_names(dash) == ["zed"]


def test_the_heat_map_is_the_learners_lesson_progress(world):
    store, lee = world["store"], world["lee"]
    dash = dashboard(world)
    names, lessons, z = dash.stars
    assert names == ["ann", "bob"] and lessons == [key for key, _ in LESSONS]
    for learner, row in zip((world["ann"], world["bob"]), z):
        progress = store.lesson_progress(learner, by=lee)
        assert row == [progress[k].stars if k in progress else None for k in lessons]
    assert z[0][:2] == [3, 0] and z[1] == [None] * 5
    heat = dash.heatmap.figure.data[0]
    assert [list(r) for r in heat.z] == z and list(heat.y) == names
    assert dash.heatmap.figure.layout.width == 760 and dash.heatmap.figure.layout.height > 0


def test_a_learners_accuracy_trend_and_rating(world):
    store, ann = world["store"], world["ann"]
    for seed, accuracy in ((1, 60.0), (2, 85.0)):
        world["now"][0] += 60
        store.record_game(ann, finished_game(seed), 0, accuracy=accuracy)
    dash = dashboard(world)
    assert "<td class='num'>85%</td>" in dash.roster.value
    dash.learner_choice.value = "ann"
    trend = dash.accuracy_chart.figure.data[0]
    assert list(trend.y) == [60.0, 85.0]
    # games a minute apart: numbered on the axis (not a time axis of milliseconds), when in the hover
    assert list(trend.x) == [1, 2] and dash.accuracy_chart.figure.layout.xaxis.title.text == "graded game"
    assert list(dash.accuracy_chart.figure.layout.xaxis.range) == [0.5, 2.5]
    assert all(when.startswith(("today", "yesterday")) or when[-4:].isdigit() for when in trend.customdata)
    assert dash.accuracy_chart.figure.layout.width == 460
    dash.learner_choice.value = "bob"
    bars = dash.rating_chart.figure.data[0]
    assert list(bars.x) == ["ann", "bob"] and list(bars.marker.color) == ["#90a4ae", "#e65100"]
    assert "bob: puzzle rating" in dash.rating_chart.figure.layout.title.text
    assert "(0 of 3 solved)" in dash.rating_chart.figure.layout.title.text


def test_a_class_with_no_lesson_started_gets_a_sentence_not_an_empty_chart(world):
    dash = dashboard(world)
    assert dash.heatmap_box.children == (dash.heatmap,)  # ann has stars: the chart
    dash.create_class("Owlets")  # a new class: nobody in it yet
    assert dash.stars[0] == [] and dash.heatmap_box.children == (dash.no_stars,)
    assert "No lesson stars yet" in dash.no_stars.value
    dash.class_choice.value = world["falcons"].id  # back to a class with stars: the chart again
    assert dash.heatmap_box.children == (dash.heatmap,) and list(dash.heatmap.figure.data[0].y) == ["ann", "bob"]


def test_a_lesson_outside_the_five_gets_its_own_column():
    rows = [{"name": "ann", "stars:extra": 2, f"stars:{L1}": 1}]
    names, lessons, z = star_matrix(rows)
    assert lessons[-1] == "extra" and z == [[1, None, None, None, None, 2]]


def test_creating_an_assignment_shows_it_and_learners_get_it(world):
    store = world["store"]
    dash = dashboard(world)
    assert "No assignments yet" in dash.assignments.value
    dash.create_assignment(L2, 3, "easy", 5)
    assert "Lesson 2: scoring and pairs and 3 easy puzzles" in dash.assignments.value
    assert "due in 5 days" in dash.assignments.value and "0 of 2 finished" in dash.assignments.value
    assert [a.lesson for a in store.assignments(world["ann"])] == [L2]
    dash.create_assignment(L1, 0, "any", 2)  # ann has done lesson 1
    assert "1 of 2 finished" in dash.assignments.value


def test_a_refused_assignment_says_why_and_sets_nothing(world):
    store = world["store"]
    dash = dashboard(world)
    dash.create_assignment(None, 0, "any", 7)
    assert "golf-dashboard-problem" in dash.status._dom_classes
    assert "needs a lesson, some puzzles, a puzzle set, or any mix of them" in dash.status.value
    assert store.class_assignments(world["falcons"], by=world["lee"]) == []
    assert "No assignments yet" in dash.assignments.value


def test_who_is_stuck_in_words(world):
    dash = dashboard(world)
    assert "<b>bob</b> has missed <i>pairs</i> 3 times in a row" in dash.stuck.value
    assert "ann" not in dash.stuck.value


def test_the_csv_download_is_the_class_export(world):
    store = world["store"]
    dash = dashboard(world)
    href = re.search(r"href='data:text/csv;charset=utf-8;base64,([^']+)'", dash.csv.value).group(1)
    assert "download='golflab-Falcons.csv'" in dash.csv.value
    text = base64.b64decode(href).decode("utf-8")
    assert text == store.export_csv(world["falcons"], by=world["lee"])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["name"] for r in rows] == ["ann", "bob"]
    assert rows[0][f"stars:{L1}"] == "3" and rows[1]["puzzle_rating"] != "1500"


def test_invite_codes_made_listed_and_stopped(world):
    store = world["store"]
    dash = dashboard(world)
    dash.create_invite(2, 3)
    code = re.search(r"<code class='golf-invite-code'>([A-Z]+)</code>", dash.invite_note.value).group(1)
    assert f"<code>{code}</code></td><td class='num'>0 of 2</td><td>expires in 3 days" in dash.invites.value
    assert dash.invite_choice.value is not None and code in dash.invite_choice.options  # one to choose at once
    dash.deactivate_invite(code)
    assert code not in dash.invite_choice.options
    with pytest.raises(ValueError, match="no longer in use"):
        store.register("newbie", PASSWORD, code)


def test_deactivating_a_learner_ends_their_sessions_and_reactivating_lets_them_back(world):
    store = world["store"]
    token = store.sign_in("bob", PASSWORD)
    dash = dashboard(world)
    dash.learner_choice.value = "bob"
    dash.set_active(False)
    assert store.user_for(token) is None
    assert "golf-roster-row golf-roster-inactive' data-name='bob'" in dash.roster.value
    assert dash.deactivate_button.disabled and not dash.reactivate_button.disabled
    dash.set_active(True)
    assert store.sign_in("bob", PASSWORD)


def test_a_reset_password_is_shown_once_and_works(world):
    store = world["store"]
    dash = dashboard(world)
    dash.learner_choice.value = "ann"
    dash.reset_password()
    password = re.search(r"<span class='golf-password'>([a-z0-9]+)</span>", dash.learner_note.value).group(1)
    assert store.sign_in("ann", password)
    with pytest.raises(ValueError):
        store.sign_in("ann", PASSWORD)
    dash.learner_choice.value = "bob"
    assert password not in tree_text(dash)


def test_a_teacher_deactivated_meanwhile_is_refused_and_the_page_stays(world):
    store = world["store"]
    boss = store.create_user("boss", PASSWORD, role="admin")
    dash = dashboard(world)
    before = dash.roster.value
    store.deactivate(world["lee"], by=boss)
    dash.create_invite(5, 5)
    assert "golf-dashboard-problem" in dash.status._dom_classes and "deactivated" in dash.status.value
    assert dash.roster.value == before and dash.invite_note.value == ""


def test_an_unreachable_store_is_a_plain_sentence(world, monkeypatch):
    dash = dashboard(world)

    def down(*args, **kwargs):
        raise StoreUnavailable("the class store at sqlite:///class.db cannot be opened: disk I/O error")

    monkeypatch.setattr(world["store"], "create_assignment", down)
    dash.create_assignment(L1, 2, "any", 3)
    assert "golf-dashboard-problem" in dash.status._dom_classes
    assert "cannot be reached just now" in dash.status.value and "Nothing was changed" in dash.status.value
    assert "No assignments yet" in dash.assignments.value


def test_a_learner_gets_the_refusal_and_nothing_of_the_class(world):
    dash = dashboard(world, "ann")
    assert dash.refusal is not None and "golf-dashboard-refused" in dash.refusal._dom_classes
    assert "This page is for teachers" in dash.refusal.value
    text = tree_text(dash)
    for secret in ("bob", "zed", "Falcons", world["falcons"].code, "golf-roster", "pairs", "1500"):
        assert secret not in text, secret


def test_a_guest_gets_the_refusal_without_opening_a_store(tmp_path):
    dash = ClassDashboard(page_session(environ={"GOLFLAB_DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"}))
    assert "Sign in as a teacher" in dash.refusal.value
    assert dash.store is None and not (tmp_path / "x.db").exists()
    assert "golf-roster" not in tree_text(dash)


def test_a_teacher_signed_in_by_cookie(world):
    token = world["store"].sign_in("mrs_lee", PASSWORD)
    session = page_session(environ={"GOLFLAB_DATABASE_URL": world["url"], "HTTP_COOKIE": f"golflab_session={token}"})
    try:
        dash = ClassDashboard(session)
        assert dash.refusal is None and roster_names(dash) == ["ann", "bob"]
    finally:
        session.store.close()


def test_a_teacher_without_classes_creates_one(world):
    store = world["store"]
    kim = store.create_user("mrs_kim", PASSWORD, role="teacher")
    dash = ClassDashboard(PageSession(store, kim))
    assert dash.klass is None and dash.class_part.layout.display == "none"
    assert "no classes yet" in dash.status.value
    dash.create_class("   ")
    assert "golf-dashboard-problem" in dash.status._dom_classes and store.classes(kim) == []
    dash.create_class("Robins")
    assert dash.klass.name == "Robins" and dash.class_part.layout.display is None
    assert "Class Robins created. Make an invite code for it below" in dash.status.value
    assert dash.klass.code not in dash.status.value  # the class's own code is not the one learners type
    assert "No learners yet" in dash.roster.value


def test_learners_opt_in_to_the_leaderboard(world):
    store = world["store"]
    opt = LeaderboardOptIn(PageSession(store, world["ann"]))
    assert opt.checkbox.value is False and "golf-leaderboard-optin" in opt.checkbox._dom_classes
    opt.checkbox.value = True
    assert [b["name"] for b in store.leaderboard(world["falcons"], by=world["lee"])] == ["ann"]
    assert "<li>ann: 1500</li>" in opt.boards.value
    assert LeaderboardOptIn(PageSession(store, world["ann"])).checkbox.value is True
    dash = dashboard(world)
    assert "<li>ann: 1500</li>" in dash.leaderboard.value
    assert LeaderboardOptIn(PageSession()).children == ()  # a guest: nothing
    assert LeaderboardOptIn(PageSession(store, world["lee"])).children == ()  # a teacher: nothing


def test_times_and_passwords_in_words():
    assert when(None, START) == "never"
    assert when(START - 30, START) == "just now"
    assert when(START - 2 * 3600 - 5, START) == "2 hours ago"
    assert when(START + 86_400, START) == "in 1 day"
    assert span_words(150) == "3 minutes" and span_words(7 * 86_400 - 5) == "7 days"
    assert when(START + 7 * 86_400 - 5, START) == "in 7 days" and when(START - 8 * 86_400, START) == "1 week ago"
    first, second = new_password(), new_password()
    assert len(first) == 10 and first != second and first.isalnum()


def test_after_the_teacher_signs_out_the_open_dashboard_resets_no_password(world):
    store = world["store"]
    token = store.sign_in("mrs_lee", PASSWORD)
    session = PageSession(store, store.user_for(token))  # the class page open on a shared computer
    dash = ClassDashboard(session)
    store.sign_out(token)
    dash.learner_choice.value = "ann"
    dash.reset_password()
    assert "golf-dashboard-problem" in dash.status._dom_classes and "signed out" in dash.status.value
    assert f"href='{SIGNIN}'" in dash.status.value and dash.learner_note.value == ""
    assert store.sign_in("ann", PASSWORD)  # the old password still works
    assert not session.signed_in


def test_the_whole_dashboard_reads_a_class_of_3_or_30_in_the_same_statements(tmp_path):
    """Issue 37 (school scale): opening the dashboard and pressing Refresh run as many SQL statements
    for 30 learners as for 3 (the assignments' progress read each learner alone: 4 more a learner)."""
    from tests.support.class_fill import counted, fill_class

    counts = {}
    for size in (3, 30):
        store = Store(f"sqlite:///{tmp_path / f'class{size}.db'}")
        teacher, _ = fill_class(store, size)
        with counted(store) as opened:
            dash = ClassDashboard(PageSession(store, teacher))
        with counted(store) as refreshed:
            dash.refresh()
        assert f"of {size} finished" in dash.assignments.value
        counts[size] = (len(opened), len(refreshed))
        store.close()
    assert counts[3] == counts[30], counts
