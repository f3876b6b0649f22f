"""Roles given by a setting fall when it no longer names the account (issue 37, a lower item): a
teacher only because ``GOLFLAB_TEACHERS`` named them is a learner at their next page once it does
not; an admin of ``GOLFLAB_ADMINS`` likewise at their next sign-in (or page). A role given by hand
stays. A demoted teacher's classes stay whole, reached by an admin; their teacher never joins them."""

from __future__ import annotations

import logging
import socket

import pytest
from sqlalchemy import text

from golflab.classroom import Klass, Store, current_user, roles
from golflab.classroom import database as db

HUB = {"JUPYTERHUB_USER": "mr_park"}


def hub_page(store, teachers: str = "", **more):
    """The user of a page that mr_park opens on the Hub, with ``GOLFLAB_TEACHERS=teachers``."""
    return current_user(store, {**HUB, "GOLFLAB_TEACHERS": teachers, **more})


@pytest.fixture
def park_teaches(store):
    """mr_park, a teacher by ``GOLFLAB_TEACHERS``, with a class of one learner; (mr_park, class, ann)."""
    park = hub_page(store, "mrs_lee, mr_park")
    klass = store.create_class("7Q", teacher=park)
    ann = store.register("ann", "pass-ann", store.create_invite(klass, by=park))
    store.record_puzzle(ann, "p1", True)
    return park, klass, ann


def test_a_teacher_taken_out_of_golflab_teachers_is_a_learner_at_their_next_page(store, park_teaches, caplog):
    park, klass, ann = park_teaches
    assert park.role == "teacher"
    with caplog.at_level(logging.WARNING, logger="golflab.classroom.store"):
        again = hub_page(store, "mrs_lee")
    assert again.role == "learner" and store.user("mr_park").role == "learner"
    assert "GOLFLAB_TEACHERS no longer names mr_park" in caplog.text
    assert "the class they teach stays whole" in caplog.text and "golflab class hand-over" in caplog.text
    with pytest.raises(PermissionError, match="mr_park does not teach the class 7Q"):
        store.roster(klass, by=park)  # the page opened while a teacher is refused at once
    assert store.classes(again) == []


def test_a_demoted_teachers_class_stays_whole_for_an_admin_and_is_theirs_again_when_named_again(store, park_teaches):
    park, klass, ann = park_teaches
    hub_page(store, "")
    admin = store.create_user("it_admin", role="admin")
    assert [r["name"] for r in store.roster(klass, by=admin)] == ["ann"]
    assert store.puzzle_profile(ann, by=admin).solved == 1
    back = hub_page(store, "mr_park")
    assert back.role == "teacher" and store.classes(back) == [klass]
    assert [r["puzzles_solved"] for r in store.roster(klass, by=back)] == [1]


def test_a_demoted_teacher_never_joins_the_class_they_teach(store, park_teaches):
    park, klass, ann = park_teaches
    invite = store.create_invite(klass, by=park)
    learner = hub_page(store, "")
    with pytest.raises(ValueError, match="mr_park is the teacher of the class 7Q: its teacher never joins it"):
        store.join_class(learner, invite)
    assert store.is_member(learner, klass) is False
    assert [i["uses"] for i in store.invites(klass, by=store.create_user("boss", role="admin"))] == [1, 0]


def test_an_admin_hands_a_demoted_teachers_class_to_another_teacher_but_never_to_a_member(store, park_teaches):
    park, klass, ann = park_teaches
    kim = current_user(store, {"JUPYTERHUB_USER": "mr_kim", "GOLFLAB_TEACHERS": ""})
    store.join_class(kim, store.create_invite(klass, by=park))  # a learner of 7Q, named a teacher later
    kim = current_user(store, {"JUPYTERHUB_USER": "mr_kim", "GOLFLAB_TEACHERS": "mr_kim"})
    lee = current_user(store, {"JUPYTERHUB_USER": "mrs_lee", "GOLFLAB_TEACHERS": "mrs_lee"})
    hub_page(store, "")  # mr_park is a learner now
    admin = store.create_user("it_admin", role="admin")
    with pytest.raises(ValueError, match="mr_kim is a member of the class 7Q, so cannot teach it"):
        store.hand_over_class(klass, kim, by=admin)
    with pytest.raises(PermissionError, match="mrs_lee is not an admin"):
        store.hand_over_class(klass, lee, by=lee)
    assert store.class_by_id(klass.id).teacher_id == park.id  # nothing changed
    handed = store.hand_over_class(klass, lee, by=admin)
    assert handed.teacher_id == lee.id and store.classes(lee) == [handed]
    assert [r["puzzles_solved"] for r in store.roster(handed, by=lee)] == [1]  # ann and her record came with it
    assert store.classes(hub_page(store, "mr_park")) == []  # named again, he finds it handed on


def test_a_class_the_store_does_not_hold_is_refused_in_words_and_nothing_is_written(store, park_teaches):
    park, klass, ann = park_teaches
    lee = current_user(store, {"JUPYTERHUB_USER": "mrs_lee", "GOLFLAB_TEACHERS": "mrs_lee"})
    admin = store.create_user("it_admin", role="admin")
    made_up = Klass(klass.id + 100, "7Q", klass.code, park.id)  # no such id: a class object made up
    calls = {"hand it over": lambda: store.hand_over_class(made_up, lee, by=admin),
             "read its roster": lambda: store.roster(made_up, by=admin),
             "make an invite": lambda: store.create_invite(made_up, by=admin),
             "list its rooms": lambda: store.rooms(klass=made_up, by=admin),
             "make a puzzle set": lambda: store.create_puzzle_set(made_up, "Ends", by=admin),
             "as its teacher": lambda: store.roster(made_up, by=park)}
    for what, call in calls.items():
        with pytest.raises(ValueError) as refused:
            call()
        assert str(refused.value).startswith(f"this store has no class of id {made_up.id}: use a class"), what
    assert store.classes(admin) == [klass] and store.class_by_id(klass.id) == klass  # nothing changed
    assert len(store.invites(klass, by=park)) == 1 and store.puzzle_sets(klass, by=park) == []


def test_a_role_given_by_hand_stays_when_no_setting_names_it(store):
    store.create_user("mr_park", role="teacher", hub=True)  # `golflab class create --teacher`: by hand
    assert hub_page(store, "").role == "teacher"


def test_a_teacher_of_the_setting_given_the_role_by_hand_keeps_it(store):
    assert hub_page(store, "mr_park").role_setting == roles.TEACHERS
    assert store.ensure_user("mr_park", role="teacher").role_setting is None  # given by hand from now on
    assert hub_page(store, "").role == "teacher"


def test_a_hub_that_cannot_be_asked_lowers_no_role(store):
    hub_page(store, "mr_park")
    with socket.socket() as closed:  # a port nobody listens on: the Hub's API is down
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    down = {"JUPYTERHUB_API_URL": f"http://127.0.0.1:{port}/hub/api", "JUPYTERHUB_API_TOKEN": "t"}
    assert hub_page(store, "", **down).role == "teacher"
    assert hub_page(store, "").role == "learner"  # without a Hub API, the setting alone says


def test_an_admin_taken_out_of_golflab_admins_is_a_learner_at_next_sign_in_and_again_an_admin_once_back(
        database_url, clock):
    named = Store(database_url, clock=clock, environ={roles.ADMINS: "boss"})
    open_page = named.sign_in("boss", "boss-pass-1")  # the first sign-in sets the password
    assert named.user_for(open_page).role == "admin"
    named.close()
    unnamed = Store(database_url, clock=clock, environ={})
    assert unnamed.user_for(open_page).role == "learner"  # the page open since: a learner from its next step
    assert unnamed.user_for(unnamed.sign_in("boss", "boss-pass-1")).role == "learner"
    unnamed.close()
    named = Store(database_url, clock=clock, environ={roles.ADMINS: "boss"})  # not refused: it is their admin
    assert named.user_for(named.sign_in("boss", "boss-pass-1")).role == "admin"
    named.close()


def test_an_admin_of_golflab_admins_who_never_signed_in_cannot_once_it_no_longer_names_them(database_url):
    Store(database_url, environ={roles.ADMINS: "boss"}).close()
    store = Store(database_url, environ={})
    with pytest.raises(ValueError, match="the name or the password is wrong"):
        store.sign_in("boss", "chosen-now-1")  # no longer an admin choosing a password at first sign-in
    assert store.user("boss").role == "admin"  # a refused sign-in changes nothing
    store.close()


def test_hub_teachers_from_before_the_migration_are_governed_by_golflab_teachers(database_url):
    engine = db.make_engine(database_url)
    db.migrate(engine, target="0004")
    with engine.begin() as conn:
        for name, role, hub in (("mr_park", "teacher", True), ("mrs_lee", "teacher", False),
                                ("ann", "learner", True)):
            conn.execute(text("INSERT INTO users (name, name_key, role, active, hub, leaderboard, created_at) "
                              "VALUES (:n, :n, :r, :t, :h, :f, 1.0)"), {"n": name, "r": role, "t": True, "h": hub,
                                                                        "f": False})
    engine.dispose()
    store = Store(database_url)
    assert [store.user(n).role_setting for n in ("mr_park", "mrs_lee", "ann")] == [roles.TEACHERS, None, None]
    assert hub_page(store, "").role == "learner"
    assert current_user(store, {"JUPYTERHUB_USER": "mrs_lee"}).role == "teacher"
    store.close()


@pytest.mark.parametrize(("role", "setting", "teacher", "admin", "now"), [
    ("learner", None, True, False, ("teacher", roles.TEACHERS)),
    ("teacher", roles.TEACHERS, False, False, ("learner", roles.TEACHERS)),
    ("teacher", roles.TEACHERS, None, False, ("teacher", roles.TEACHERS)),
    ("teacher", None, False, False, ("teacher", None)),
    ("admin", None, False, False, ("admin", None)),
    ("admin", roles.ADMINS, None, False, ("learner", roles.ADMINS)),
    ("admin", roles.ADMINS, True, False, ("teacher", roles.ADMINS)),
    ("learner", roles.ADMINS, None, True, ("admin", roles.ADMINS)),
])
def test_settled_gives_the_role_the_settings_name_and_keeps_one_given_by_hand(role, setting, teacher, admin, now):
    assert roles.settled(role, setting, teacher=teacher, admin=admin) == now
