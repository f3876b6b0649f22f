"""The store's permissions are one table applied at its boundary (issue 36, point 4): every public
method of ``Store`` has a rule in ``permissions.TABLE``, and of ``Room`` in ``permissions.ROOM_TABLE``;
each guarded method runs its rule first, and no code of the store, its rooms or its command line
raises PermissionError itself."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from golflab.classroom import Store, permissions
from golflab.classroom.rooms import Room

GUARDED = [(Store, permissions.TABLE), (Room, permissions.ROOM_TABLE)]


def public_methods(cls: type) -> list[str]:
    return sorted(name for name, value in inspect.getmembers(cls, callable) if not name.startswith("_"))


@pytest.mark.parametrize(("cls", "table"), GUARDED, ids=["Store", "Room"])
def test_every_public_method_has_a_rule_in_its_table(cls, table):
    missing = [name for name in public_methods(cls) if name not in table]
    assert missing == []
    assert sorted(set(table) - set(public_methods(cls))) == []  # no rule for a method that is gone


@pytest.mark.parametrize(("cls", "table"), GUARDED, ids=["Store", "Room"])
def test_each_rule_but_open_to_all_is_applied_at_the_boundary(cls, table):
    for name in public_methods(cls):
        rule = table[name]
        if rule is not permissions.open_to_all:
            assert getattr(getattr(cls, name), "permission", None) is rule, name


@pytest.mark.parametrize("module", sorted(p.name for p in Path(permissions.__file__).parent.glob("*.py")
                                          if p.name not in ("permissions.py", "errors.py")))
def test_no_code_of_the_store_raises_a_permission_error_of_its_own(module):
    """Permission lives in permissions.py (``errors.SignedOut`` is a PermissionError, raised there)."""
    source = (Path(permissions.__file__).parent / module).read_text()
    assert re.findall(r"PermissionError\(", source) == []


def test_a_learner_asking_for_a_class_is_refused_before_anything_is_read(store):
    teacher = store.create_user("mrs_lee", role="teacher")
    klass = store.create_class("6B", teacher=teacher)
    ann = store.create_user("ann")
    for call in (store.roster, store.export_csv, store.stuck, store.learners, store.invites):
        with pytest.raises(PermissionError, match="ann does not teach the class 6B"):
            call(klass, by=ann)
    with pytest.raises(PermissionError, match="only an admin lists every room"):
        store.rooms(by=teacher)


def test_a_rooms_host_seat_and_keeper_are_checked_by_its_rules_before_anything_is_read(store):
    teacher = store.create_user("mrs_lee", role="teacher")
    invite = store.create_invite(store.create_class("6B", teacher), by=teacher)
    ann, bob = (store.register(n, "pass-123", invite) for n in ("ann", "bob"))
    room = store.create_room(ann, seats=2)
    with pytest.raises(PermissionError, match=f"only the host \\(ann\\) starts room {room.code}"):
        room.start(by=bob)
    stale = store.room(room.code)  # read before bob joined: seat 1 is empty on this page
    store.join_room(room.code, bob)
    with pytest.raises(PermissionError, match=f"seat 0 of room {room.code} is not bob's"):
        stale.claim(0, "tab", by=bob)
    assert stale.claim(1, "tab", by=bob)  # seat 1, empty as this page saw it, is read again: bob's
    with pytest.raises(ValueError, match="seat must be 0 to 1, got 2"):
        stale.apply(2, "flip 0", by=bob)
    room.start(by=ann)
    with pytest.raises(PermissionError, match="is not ann's"):
        room.apply(1, "flip 0", by=ann)
    store.deactivate(bob, by=teacher)
    with pytest.raises(PermissionError, match="bob's account is deactivated"):
        stale.keep(by=bob)
