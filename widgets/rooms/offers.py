"""The open rooms of a kind that a learner's page offers as buttons, one a room of their classes
(a class table to join, a study to follow): no code to type."""

from __future__ import annotations

import logging
from typing import Callable

import ipywidgets as w

from golflab.classroom import StoreUnavailable

from ..hooks import hooked_button

log = logging.getLogger(__name__)


def offered_rooms(session, listing: str, label: Callable, hook: str, pick: Callable[[str], object]) -> "list[w.Button]":
    """A button (``hook``, its words ``label(room)``) for each room that the store's ``listing``
    (``"class_tables"``, ``"studies"``: a ``Store`` method of a class) gives for each class of the
    signed-in user; a click calls ``pick(code)``. None when the store cannot list them (logged)."""
    store, user = session.store, session.user
    try:
        rooms = [r for k in store.classes(user) for r in getattr(store, listing)(k, by=user)]
    except (ValueError, PermissionError, StoreUnavailable) as exc:
        log.warning("%s not listed: %s", listing, exc)
        rooms = []
    buttons = []
    for room in rooms:
        button = hooked_button(label(room), hook, "success")
        button.on_click(lambda _b, code=room.code: pick(code))
        buttons.append(button)
    return buttons
