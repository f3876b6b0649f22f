"""The account line every app shows (golflab_widgets.account.account_bar.AccountBar) and a guest's progress file."""

from __future__ import annotations

import base64
import json
from datetime import datetime, timezone

import pytest
from golflab_widgets.account.account_bar import AccountBar, GuestProgress
from golflab_widgets.account.session import open_session

from golflab import Game, Rules
from golflab.ai import CPUPlayer
from golflab.classroom import Store, session_token

PAGE = {"SCRIPT_NAME": "/voila/render/play.ipynb", "QUERY_STRING": "seed=3"}


def finished_game(seed=3) -> str:
    game = Game(players=["ann", "Sofia"], rules=Rules(rounds=1), seed=seed)
    bots = [CPUPlayer("Marcus", seed=i) for i in range(2)]
    while game.phase != "game_over":
        game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
    return game.to_json()


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path / 'class.db'}"


@pytest.fixture
def signed_in(url):
    store = Store(url)
    store.create_user("ann", password="ann-pass-1")
    token = store.sign_in("ann", "ann-pass-1")
    store.close()
    return {"GOLFLAB_DATABASE_URL": url, "HTTP_COOKIE": f"_xsrf=2|ab|cd|1; golflab_session={token}",
            "GOLFLAB_ACCOUNT_URL": "/golflab", **PAGE}


def bar_for(environ, progress=None) -> AccountBar:
    return AccountBar(open_session(environ), environ=environ, progress=progress or GuestProgress())


def shown(widget) -> bool:
    return widget.layout.display != "none"


def test_a_guest_is_told_progress_is_not_kept_and_offered_sign_in_back_to_this_app():
    bar = bar_for({"GOLFLAB_ACCOUNT_URL": "/golflab", **PAGE})
    assert "not signed in, so your progress is not kept" in bar.whoami.value
    assert 'href="/golflab/signin?next=%2Fvoila%2Frender%2Fplay.ipynb%3Fseed%3D3"' in bar.whoami.value
    assert bar.signout.value == "" and not shown(bar.problem)
    assert shown(bar.guest_box) and "Download my progress" in bar.download.value
    assert "golf-whoami" in bar.whoami._dom_classes


def test_without_a_sign_in_page_a_guest_gets_no_sign_in_link():  # Binder, a plain voila
    bar = bar_for(dict(PAGE))
    assert "not signed in" in bar.whoami.value and "href" not in bar.whoami.value
    assert shown(bar.guest_box)


def test_a_signed_in_learner_sees_their_name_and_a_sign_out_form_with_the_page_xsrf(signed_in):
    bar = bar_for(signed_in)
    assert bar.whoami.value == "Signed in as <b>ann</b> (learner)"
    assert 'action="/golflab/signout"' in bar.signout.value and 'class="golf-signout"' in bar.signout.value
    assert 'name="_xsrf" value="2|ab|cd|1"' in bar.signout.value
    assert not shown(bar.guest_box) and not shown(bar.problem)


def test_without_the_xsrf_cookie_sign_out_links_to_the_sign_out_page(signed_in):
    environ = {**signed_in, "HTTP_COOKIE": signed_in["HTTP_COOKIE"].split("; ", 1)[1]}
    assert bar_for(environ).signout.value == '<a class="golf-signout" href="/golflab/signout">Sign out</a>'


def test_an_expired_or_signed_out_cookie_is_a_guest(url, signed_in):
    store = Store(url)
    store.sign_out(signed_in["HTTP_COOKIE"].split("golflab_session=")[1])
    bar = bar_for(signed_in)
    assert "not signed in" in bar.whoami.value and bar.signout.value == ""


def test_a_hub_user_is_named_and_has_no_sign_out(url):
    environ = {"GOLFLAB_DATABASE_URL": url, "JUPYTERHUB_USER": "bea", "GOLFLAB_TEACHERS": "bea",
               "GOLFLAB_ACCOUNT_URL": "/golflab"}
    bar = bar_for(environ)
    assert bar.whoami.value == "Signed in through JupyterHub as <b>bea</b> (teacher)"
    assert bar.signout.value == "" and not shown(bar.guest_box)


def test_a_broken_store_is_said_plainly_and_the_progress_file_offered(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    environ = {"GOLFLAB_DATABASE_URL": f"sqlite:///{blocked}/class.db", "JUPYTERHUB_USER": "bea"}
    bar = bar_for(environ)
    assert "bea" in bar.whoami.value
    assert shown(bar.problem) and "Your progress cannot be kept here" in bar.problem.value
    assert shown(bar.guest_box)


def test_a_problem_met_later_shows_after_refresh(signed_in, monkeypatch):
    bar = bar_for(signed_in)
    bar.session.problem = "Your progress could not be kept just now (the database is locked). The game goes on."
    bar.refresh()
    assert shown(bar.problem) and "database is locked" in bar.problem.value and shown(bar.guest_box)


def download(bar) -> dict:
    href = bar.download.value.split('href="data:application/json;base64,')[1].split('"')[0]
    return json.loads(base64.b64decode(href))


def test_the_progress_file_round_trips_and_the_download_follows_the_progress():
    progress = GuestProgress()
    bar = bar_for(dict(PAGE), progress)
    game = finished_game()
    progress.add_exercise("lesson1", "deal-1", False)
    progress.add_exercise("lesson1", "deal-1", True)
    progress.add_exercise("lesson1", "turn-2", True)
    progress.add_puzzle("p-17", True)
    progress.add_game(game)
    progress.add_game(game)  # once is kept
    assert download(bar) == json.loads(progress.to_json())
    fresh = GuestProgress()  # the next visit
    fresh.load(progress.to_json())
    assert (fresh.exercises, fresh.puzzles, fresh.games) == (progress.exercises, progress.puzzles, [game])
    assert fresh.first_tries("lesson1") == {"deal-1": False, "turn-2": True}
    fresh.load(progress.to_json())  # the same file twice adds nothing
    assert fresh.to_json() == progress.to_json()


def test_loading_keeps_what_this_visit_did_already():
    earlier = GuestProgress()
    earlier.add_puzzle("p-1", True)
    now = GuestProgress()
    now.add_puzzle("p-2", False)
    now.load(earlier.to_json())
    assert now.puzzles == [{"key": "p-1", "correct": True}, {"key": "p-2", "correct": False}]


def upload(bar, content: bytes) -> None:
    bar.upload.value = ({"name": "golflab-progress.json", "type": "application/json", "size": len(content),
                         "content": memoryview(content), "last_modified": datetime.now(timezone.utc)},)


GOOD = {"format": "golflab.progress", "version": 1, "exercises": [], "puzzles": [], "games": []}


@pytest.mark.parametrize("content, said", [
    (b"\xff\xfe", "not text"),
    (b"{", "invalid JSON"),
    (b"[]", "expected an object with format 'golflab.progress'"),
    (json.dumps({**GOOD, "format": "golflab.game"}).encode(), "format 'golflab.progress'"),
    (json.dumps({**GOOD, "version": 2}).encode(), "version 2 is not supported"),
    (json.dumps({**GOOD, "version": True}).encode(), "is not supported"),
    (json.dumps({**GOOD, "extra": 1}).encode(), "'extra'"),
    (json.dumps({**GOOD, "puzzles": {}}).encode(), "puzzles must be a list, got an object"),
    (json.dumps({**GOOD, "puzzles": [{"key": "p", "correct": 1}]}).encode(),
     "puzzles[0].correct must be true or false, got a whole number"),
    (json.dumps({**GOOD, "exercises": [{"lesson": "l", "item": ""}]}).encode(),
     "exercises[0] must be an object with exactly lesson, item, correct"),
    (json.dumps({**GOOD, "exercises": [{"lesson": "l" * 200, "item": "i", "correct": True}]}).encode(),
     "exercises[0].lesson must be text of 1 to 128"),
    (json.dumps({**GOOD, "games": ["{}"]}).encode(), "games[0] is not a valid game: not a saved golflab game"),
    (json.dumps({**GOOD, "games": [7]}).encode(), "games[0] must be the text of a saved game"),
])
def test_a_bad_upload_is_refused_saying_why_and_changes_nothing(content, said):
    progress = GuestProgress()
    progress.add_puzzle("p-1", True)
    progress.add_game(finished_game())
    before = progress.to_json()
    bar = bar_for(dict(PAGE), progress)
    link = bar.download.value
    upload(bar, content)
    assert "That file was not loaded, nothing changed" in bar.message.value
    assert said.replace("'", "&#x27;") in bar.message.value
    assert progress.to_json() == before and bar.download.value == link
    assert bar.upload.value == ()  # ready for another try


def test_a_good_upload_says_what_it_loaded():
    source = GuestProgress()
    source.add_exercise("lesson2", "pairs-1", True)
    bar = bar_for(dict(PAGE), GuestProgress())
    upload(bar, source.to_json().encode())
    assert bar.message.value == "Loaded. This visit now holds 1 lesson answer, 0 puzzles and 0 games."
    assert download(bar)["exercises"] == [{"lesson": "lesson2", "item": "pairs-1", "correct": True}]


@pytest.mark.parametrize("call, said", [
    (lambda p: p.add_exercise("", "i", True), "lesson must be text"),
    (lambda p: p.add_exercise("l", "i", "yes"), "correct must be true or false, got a string"),
    (lambda p: p.add_puzzle(None, True), "puzzle must be text"),
    (lambda p: p.add_game("not a game"), "not a saved golflab game"),
])
def test_bad_additions_are_refused_and_change_nothing(call, said):
    progress = GuestProgress()
    progress.add_puzzle("p-1", False)
    before = progress.to_json()
    with pytest.raises(ValueError, match=said):
        call(progress)
    assert progress.to_json() == before


def test_a_page_whose_sign_in_ended_says_it_is_signed_out_and_offers_sign_in(url, signed_in):
    session = open_session(signed_in)
    bar = AccountBar(session, environ=signed_in, progress=GuestProgress())
    store = Store(url)
    store.sign_out(session_token(signed_in))  # signed out in another tab
    store.close()
    assert session.keep("record_puzzle", "p1", True) is None  # refused, nothing written
    bar.refresh()
    assert "signed out" in bar.problem.value and shown(bar.problem)
    assert not session.signed_in and 'class="golf-signin"' in bar.whoami.value and bar.signout.value == ""
    store = Store(url)
    assert store.puzzle_profile(store.user("ann"), by=store.user("ann")).attempts == 0
    store.close()
