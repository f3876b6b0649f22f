"""Whatever name JupyterHub's identity provider gives is a learner who keeps progress (issue 37,
Medium 9): e-mail addresses of 43-50 characters, any script, up to the column's 64 characters;
a NUL is refused in words, never a database error. Run on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from golflab.classroom import security

HUB_NAMES = ["firstname.lastname.of-a-pupil@primary1.example.org",  # 50 characters
             "jürgen", "zoë.smith", "o'brien", "李小龙", "Ольга Петрова", "ناصر", "x" * security.HUB_NAME_MAX]


def test_the_hubs_names_are_learners_who_keep_progress(store):
    assert len(HUB_NAMES[0]) == 50
    for name in HUB_NAMES:
        user = store.hub_user(name)
        assert (user.name, user.role) == (name, "learner")
        assert store.hub_user(name).id == user.id == store.user(name.upper()).id  # one user, any case
        store.record_puzzle(user, "p1", True)
        assert store.puzzle_profile(user, by=user).attempts == 1


@pytest.mark.parametrize("name, said", [("ann\x00admin", "NUL"), ("x" * (security.HUB_NAME_MAX + 1), "1 to 64"),
                                        (" ann", "no space"), ("ann\n", "printable"), ("", "1 to 64")])
def test_a_name_no_store_can_hold_is_refused_in_words(store, name, said):
    with pytest.raises(ValueError, match=said):
        store.hub_user(name)
    assert store.user(name) is None
    with pytest.raises(ValueError, match="name or the password is wrong"):
        store.sign_in(name, "any-password")


def test_names_chosen_on_the_sign_in_page_keep_their_rule():
    for name in ("jürgen", "o'brien", "a" * (security.NAME_MAX + 1)):
        with pytest.raises(ValueError, match="letters, digits and _ . -"):
            security.check_name(name)
