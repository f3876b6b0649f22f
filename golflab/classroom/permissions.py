"""Who may call what: one table over every public method of the class store (``TABLE``) and of a
room (``ROOM_TABLE``), applied at their boundary (as JupyterHub's scopes are), before the method runs.

Each rule names the arguments it reads and raises PermissionError (or ``SignedOut``) when the
acting user may not; a rule that acts as a user hands the method that user as the database knows
it now (``fresh``: unknown, deactivated or signed-out users are refused). The methods
themselves check input, never permission. ``tests/classroom/test_classroom_permissions.py`` checks
that every public method of ``Store`` and ``Room`` is in its table, and that no other code of the
store, its rooms or its command line raises PermissionError.
"""

from __future__ import annotations

import functools
import inspect
from typing import Callable

from .errors import SignedOut
from .records import Klass, PuzzleSet, User


def _klass(value) -> Klass:
    if not isinstance(value, Klass):
        raise ValueError(f"expected a class (from the store), got {type(value).__name__}")
    return value


def _puzzle_set(value) -> PuzzleSet:
    if not isinstance(value, PuzzleSet):
        raise ValueError(f"expected a puzzle set (from the store), got {type(value).__name__}")
    return value


def _user(value) -> User:
    if not isinstance(value, User):
        raise ValueError(f"expected a golflab user (from the store), got {type(value).__name__}")
    return value


def fresh(store, user) -> User:
    """``user`` as ``store`` knows it now (``Store.fresh_user`` is this); a PermissionError if the
    user is unknown or deactivated, ``SignedOut`` if the user came from a session (``user_for``)
    that has since ended (signed out, expired or its password reset)."""
    user = _user(user)
    now = store.user_by_id(user.id)
    # A user from a session is who that session proves (a page open when a teacher renamed its
    # learner goes on, under the new name); any other (the Hub's, a command's) is known by name.
    if now is None or (now.name != user.name and user.session is None):
        raise PermissionError(f"{user.name} is not a user of this store")
    if not now.active:
        raise PermissionError(f"{user.name}'s account is deactivated")
    if user.session is not None and not store.session_open(user):
        raise SignedOut()
    return now


def open_to_all(store, args: dict) -> None:
    """No acting user: lookups, sign-in and sessions, opening a room by its code, reading a room a
    page holds (the sign-in server, the command line and a page call these; what they give away is
    checked inside)."""


def acts_as(name: str) -> Callable:
    """The call acts as the user in argument ``name`` (handed on fresh)."""
    def rule(store, args: dict) -> None:
        args[name] = fresh(store, args[name])
    rule.__doc__ = f"acts as ``{name}``, re-read and refused if gone, deactivated or signed out"
    return rule


def creates_user(store, args: dict) -> None:
    """``by`` (when given) is an admin, or a teacher creating a learner; without ``by``: the
    operator (command line, settings)."""
    if args.get("by") is None:
        return
    actor = args["by"] = fresh(store, args["by"])
    if not (actor.role == "admin" or (actor.role == "teacher" and args.get("role", "learner") == "learner")):
        raise PermissionError(f"{actor.name} may not create a {args.get('role', 'learner')}")


def makes_classes(store, args: dict) -> None:
    """``teacher`` is a teacher or an admin; ``by`` (when given: who asks for it, e.g. the command
    line's ``--as``) is that teacher or an admin."""
    actor = args["teacher"] = fresh(store, args["teacher"])
    if not actor.teaches:
        raise PermissionError(f"{actor.name} is a learner: only teachers and admins create classes")
    if args.get("by") is not None:
        asking = args["by"] = fresh(store, args["by"])
        if asking.role != "admin" and asking.id != actor.id:
            raise PermissionError(f"{asking.name} may not create a class for {actor.name}")


def hands_over(store, args: dict) -> None:
    """``by`` is an admin; ``teacher`` (re-read) is a teacher or an admin."""
    actor = args["by"] = fresh(store, args["by"])
    if actor.role != "admin":
        raise PermissionError(f"{actor.name} is not an admin: only an admin hands a class to another teacher")
    teacher = args["teacher"] = fresh(store, args["teacher"])
    if not teacher.teaches:
        raise ValueError(f"{teacher.name} is a learner: a class's teacher must be a teacher or an admin")
    _klass(args["klass"])


def teaches(store, args: dict) -> None:
    """``by`` teaches ``klass`` (or is an admin)."""
    actor = args["by"] = fresh(store, args["by"])
    klass = _klass(args["klass"])
    if not store.teaches(actor, klass):
        raise PermissionError(f"{actor.name} does not teach the class {klass.name}")


def teaches_invite(store, args: dict) -> None:
    """``by`` teaches the class of invite ``code`` (an unknown code is a ValueError)."""
    teaches(store, {"by": args["by"], "klass": store.class_of_invite(args["code"])})


def in_class(store, args: dict) -> None:
    """``by`` teaches ``klass`` or is one of its members."""
    actor = args["by"] = fresh(store, args["by"])
    klass = _klass(args["klass"])
    if not (store.teaches(actor, klass) or store.is_member(actor, klass)):
        raise PermissionError(f"{actor.name} is not in the class {klass.name}")


def lists_rooms(store, args: dict) -> None:
    """``by`` teaches ``klass``; without a class, ``by`` is an admin."""
    if args.get("klass") is not None:
        return teaches(store, args)
    actor = args["by"] = fresh(store, args["by"])
    if actor.role != "admin":
        raise PermissionError("only an admin lists every room: name a class")


def sees(store, args: dict) -> None:
    """``by`` is ``user``, a teacher of a class ``user`` learns in, or an admin."""
    actor = args["by"] = fresh(store, args["by"])
    user = _user(args["user"])
    if actor.id != user.id and not store.teaches_user(actor, user):
        raise PermissionError(f"{actor.name} may not see {user.name}'s records")


def sees_record(store, args: dict) -> None:
    """``by`` may see the records of the player of kept game ``record_id`` (an unknown id: ValueError)."""
    sees(store, {"by": args["by"], "user": store.owner_of_game(args["record_id"])})


def manages(store, args: dict) -> None:
    """``by`` is an admin, or teaches the learner ``user``; nobody manages their own account here,
    and only an admin manages an admin."""
    actor = args["by"] = fresh(store, args["by"])
    target = store.user_by_id(_user(args["user"]).id)
    if target is None:
        raise ValueError(f"{args['user'].name} is not a user of this store")
    if actor.id == target.id or not store.teaches_user(actor, target) or (
            target.role == "admin" and actor.role != "admin"):
        raise PermissionError(f"{actor.name} may not manage {target.name}'s account")


def only_self(store, args: dict) -> None:
    """``by`` is ``user`` themself."""
    if fresh(store, args["by"]).id != _user(args["user"]).id:
        raise PermissionError("only learners themselves choose whether they appear on the leaderboard")


def _set_class(store, args: dict) -> Klass:
    """The class of the set or item a call names: ``item_id``, else ``puzzle_set`` (a set from the
    store) or ``set_id``, read from the store (an unknown one: ValueError)."""
    if "item_id" in args:
        return store.class_of_item(args["item_id"])
    if "puzzle_set" in args:
        return store.class_of_set(_puzzle_set(args["puzzle_set"]).id)
    return store.class_of_set(args["set_id"])


def _of_set(rule: Callable, actor: str = "by") -> Callable:
    """``rule`` applied to the class of the set or item the call names (``_set_class``), the acting
    user being the argument ``actor`` (handed on fresh)."""
    def checked(store, args: dict) -> None:
        inner = {"by": args[actor], "klass": _set_class(store, args)}
        rule(store, inner)
        args[actor] = inner["by"]
    checked.__doc__ = f"as ``{rule.__name__}`` (``by`` being ``{actor}``), in the class of the set or item named"
    return checked


#: ``by`` teaches the class of the puzzle set or set item (or is an admin).
teaches_set = _of_set(teaches)
#: ``by`` teaches the class of the puzzle set or set item, or is one of its members.
in_set_class = _of_set(in_class)
#: Acts as ``user``, who teaches the class of set item ``item_id`` or is one of its members.
answers_set = _of_set(in_class, actor="user")


def sees_set(store, args: dict) -> None:
    """``by`` may see ``user``'s records (``sees``) in ``puzzle_set``, a set of the store (an unknown
    one: ValueError)."""
    _set_class(store, args)
    sees(store, args)


#: Every public method of ``Store`` and its rule.
TABLE: "dict[str, Callable]" = {
    **dict.fromkeys(("user", "user_by_id", "user_for", "sign_in", "sign_out", "register", "check_invite",
                     "klass", "room", "hub_user", "ensure_user", "puzzle_rating", "fresh_user", "teaches",
                     "teaches_user", "is_member", "session_open", "touch", "sign_out_everywhere", "table_rating",
                     "close", "transaction", "class_of_invite", "owner_of_game", "purge", "class_of_set",
                     "class_of_item", "class_by_id", "readable_room"), open_to_all),
    "create_user": creates_user,
    "create_class": makes_classes,
    "hand_over_class": hands_over,
    **{name: acts_as("user") for name in ("record_game", "record_exercise", "record_puzzle", "assignments",
                                          "join_class", "join_room", "open_room_of")},
    "classes": acts_as("by"),
    "create_room": acts_as("host"),
    **dict.fromkeys(("create_invite", "invites", "learners", "class_assignments", "assignment_progress",
                     "create_assignment", "roster", "stuck", "export_csv"), teaches),
    "deactivate_invite": teaches_invite,
    "leaderboard": in_class,
    "rooms": lists_rooms,
    **dict.fromkeys(("games", "learner_stats", "lesson_progress", "exercise_results", "puzzle_profile"), sees),
    "game_record": sees_record,
    **dict.fromkeys(("deactivate", "reactivate", "reset_password", "rename"), manages),
    "set_leaderboard": only_self,
    "create_puzzle_set": teaches,
    "create_class_table": teaches,
    "create_study": teaches,
    "studies": in_class,
    "puzzle_sets": in_class,
    "class_tables": in_class,
    **dict.fromkeys(("puzzle_set", "set_items"), in_set_class),
    **dict.fromkeys(("add_set_item", "remove_set_item", "rename_puzzle_set", "set_results"), teaches_set),
    "record_set_answer": answers_set,
    "set_progress": sees_set,
}


# -- a room's rules: ``room`` is the Room (its ``store``, ``code``, ``host_id``, seats) ----------------

def _hosts(doing: str) -> Callable:
    """``by`` is the room's host (who made it: that never changes), who alone does ``doing``."""
    def rule(room, args: dict) -> None:
        actor = args["by"] = fresh(room.store, args["by"])
        if actor.id != room.host_id:
            raise PermissionError(f"only the host ({room.host or 'its teacher'}) {doing} room {room.code}")
    rule.__doc__ = f"``by`` is the room's host (who made it: that never changes): only they {doing} it"
    return rule


#: ``by`` is the room's host: only they start it.
hosts_room = _hosts("starts")
#: ``by`` is the class table's host, its teacher: only they close its votes.
closes_votes = _hosts("closes the votes of")


def holds_seat(room, args: dict) -> None:
    """``by`` holds ``seat`` of the room (``Room.holds``; a seat the room has not: ValueError)."""
    actor = args["by"] = fresh(room.store, args["by"])
    if not room.holds(actor, args["seat"]):
        raise PermissionError(f"seat {args['seat']} of room {room.code} is not {actor.name}'s")


def in_room_class(room, args: dict) -> None:
    """``by`` is a member of a class table's class (an ordinary room's are refused by the method, in
    words)."""
    actor = args["by"] = fresh(room.store, args["by"])
    if room.is_class_table and not room.store.is_member(actor, room.store.class_by_id(room.class_id)):
        raise PermissionError(f"{actor.name} is not a learner of the class of room {room.code}")


def follows_study(room, args: dict) -> None:
    """``by`` is in a study's class (its teacher, a member, an admin); another room's page is refused
    by the method, in words."""
    actor = args["by"] = fresh(room.store, args["by"])
    if room.is_study and room.class_id is not None:
        in_class(room.store, {"by": actor, "klass": room.store.class_by_id(room.class_id)})


def room_user(room, args: dict) -> None:
    """Acts as ``by``, re-read from the room's store and refused if gone, deactivated or signed out."""
    args["by"] = fresh(room.store, args["by"])


#: Every public method of ``Room`` and its rule.
ROOM_TABLE: "dict[str, Callable]" = {
    **dict.fromkeys(("refresh", "game", "observation", "away", "seat_of", "hosts", "holds", "subscribe", "voters",
                     "tally", "closed_votes"), open_to_all),
    "start": hosts_room,
    **dict.fromkeys(("apply", "claim"), holds_seat),
    "keep": room_user,
    **dict.fromkeys(("join_team", "vote"), in_room_class),
    "close_vote": closes_votes,
    **dict.fromkeys(("study_page", "follow_study"), follows_study),
    "followers": open_to_all,
}

#: The classes guarded, by name, and their tables.
TABLES = {"Store": TABLE, "Room": ROOM_TABLE}


def guarded(cls: type) -> type:
    """``cls`` (``Store`` or ``Room``) with each method in its table checked by its rule before it runs."""
    for name, rule in TABLES[cls.__name__].items():
        if rule is open_to_all or not hasattr(cls, name):
            continue
        setattr(cls, name, _guard(getattr(cls, name), rule))
    return cls


def _guard(method: Callable, rule: Callable) -> Callable:
    signature = inspect.signature(method)

    @functools.wraps(method)
    def checked(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        values = dict(bound.arguments)
        rule(self, values)
        bound.arguments.update(values)
        return method(*bound.args, **bound.kwargs)

    checked.permission = rule
    return checked
