"""The store's permissions are one table applied at its boundary (issue 36, point 4): every public
method of ``Store`` has a rule in ``permissions.TABLE``, each guarded method runs its rule first,
and no method of the store raises PermissionError itself."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from golflab.classroom import Store, permissions


def public_methods() -> list[str]:
    return sorted(name for name, value in inspect.getmembers(Store, callable) if not name.startswith("_"))


def test_every_public_method_of_the_store_has_a_rule_in_the_one_table():
    missing = [name for name in public_methods() if name not in permissions.TABLE]
    assert missing == []
    assert sorted(set(permissions.TABLE) - set(public_methods())) == []  # no rule for a method that is gone


def test_each_rule_but_open_to_all_is_applied_at_the_boundary():
    for name in public_methods():
        rule = permissions.TABLE[name]
        if rule is not permissions.open_to_all:
            assert getattr(getattr(Store, name), "permission", None) is rule, name


@pytest.mark.parametrize("module", ["store.py", "rooms.py"])
def test_the_store_raises_no_permission_error_of_its_own_but_in_a_room(module):
    """Permission lives in permissions.py; a room's seat and host checks stay with the room's
    state (read in the same step), in ``Room``."""
    source = (Path(permissions.__file__).parent / module).read_text()
    store_part = source.split("class RoomsMixin", 1)[-1] if module == "rooms.py" else source
    assert re.findall(r"raise PermissionError", store_part) == []


def test_a_learner_asking_for_a_class_is_refused_before_anything_is_read(store):
    teacher = store.create_user("mrs_lee", role="teacher")
    klass = store.create_class("6B", teacher=teacher)
    ann = store.create_user("ann")
    for call in (store.roster, store.export_csv, store.stuck, store.learners, store.invites):
        with pytest.raises(PermissionError, match="ann does not teach the class 6B"):
            call(klass, by=ann)
    with pytest.raises(PermissionError, match="only an admin lists every room"):
        store.rooms(by=teacher)
