"""Lower items of issue 37: ``GOLFLAB_TEACHERS`` names a hub user in any case; ``?game=²`` is
refused in words (``"²".isdigit()`` is True, ``int("²")`` fails); error messages name no file
path, host or user of the database; a renamed learner's open page goes on."""

from __future__ import annotations

import pytest

from golflab.classroom import Store, StoreUnavailable, current_user


@pytest.fixture
def sqlite_store(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'class.db'}")
    yield store
    store.close()


def test_golflab_teachers_names_a_hub_user_in_any_case(sqlite_store):
    env = {"JUPYTERHUB_USER": "mrs_lee", "GOLFLAB_TEACHERS": "Mrs_Lee"}
    assert current_user(sqlite_store, env).role == "teacher"


def test_a_game_number_that_is_no_number_to_int_is_refused_in_words(sqlite_store, monkeypatch):
    from golflab_widgets.account import learner_progress as progress
    from golflab_widgets.account.session import PageSession

    ann = sqlite_store.create_user("ann")
    monkeypatch.setattr(progress, "session", lambda: PageSession(sqlite_store, ann))
    for asked in ("²", "١٢", "12.0"):
        with pytest.raises(ValueError, match="a kept game is opened by its number, e.g. ") as caught:
            progress.kept_game(asked)
        assert "invalid literal" not in str(caught.value)


def test_a_store_that_cannot_be_opened_does_not_show_its_file_path(tmp_path):
    blocked = tmp_path / "secret-school-folder"
    blocked.write_text("")  # a file where the folder should be
    with pytest.raises(StoreUnavailable, match="cannot be opened") as caught:
        Store(f"sqlite:///{blocked / 'class.db'}")
    assert "secret-school-folder" not in str(caught.value) and "/" not in str(caught.value)


def test_a_renamed_learners_open_page_goes_on_under_the_new_name(sqlite_store):
    teacher = sqlite_store.create_user("mrs_lee", password="teach-pass-1", role="teacher")
    invite = sqlite_store.create_invite(sqlite_store.create_class("7Q", teacher=teacher), by=teacher)
    sqlite_store.register("ann", "ann-pass-1", invite)
    page_user = sqlite_store.user_for(sqlite_store.sign_in("ann", "ann-pass-1"))  # the open page's user
    by_name = sqlite_store.user("ann")  # no session: known by name alone (as the Hub's users are)
    sqlite_store.rename(by_name, "anna", by=teacher)
    sqlite_store.record_exercise(page_user, "lesson1", "1-deal", True, lesson_items=3, skill="deal")
    assert sqlite_store.fresh_user(page_user).name == "anna"
    assert sqlite_store.lesson_progress(page_user, by=page_user)["lesson1"].answered == 1
    with pytest.raises(PermissionError, match="ann is not a user of this store"):
        sqlite_store.fresh_user(by_name)
