"""``python -m golflab class ...``: the class store from a terminal, for admins.

    class create NAME --teacher T      a class taught by T (a new T gets a password, shown once)
    class invite CODE [--uses N] [--days D]   an invite code for the class with code CODE
    class list                          every class: code, name, teacher, learners
    class learners CODE                 the class's learners: name, active, last seen
    class hand-over CODE --to T         the class taught by T from now on (a teacher or admin)
    class export CODE [--out FILE]      the class as CSV (stdout, or FILE written whole)
    class admin NAME                    make NAME an admin by hand (a new one sets a password at first
                                        sign-in; no setting lowers a role given here)
    class reset-password NAME           a new password for NAME, printed once
    class deactivate NAME / reactivate NAME
    class purge                         forget ended sessions, old failed sign-ins and wrong room codes
                                        (sign-ins also do, hourly)

Who acts: the store's operator, whoever can open the database. Every command but ``admin``
runs as the admin named with ``--as NAME`` (a teacher may be named too: the store then allows
only what that teacher may do), by default the first active admin the store made.
``--database URL`` overrides ``GOLFLAB_DATABASE_URL``; a SQLite file that does not exist yet is
created only by ``admin`` (a mistyped path is refused, not made).

Errors are one line on stderr and change nothing: exit code 2 for bad input (argparse's own
complaints, an unknown name or code, a bad value), 3 when the acting user may not do it, 1
when the store cannot be opened or written, or ``--out`` or the output cannot be written. A
reader that goes away (``| head``) is not an error.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import Sequence

from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from . import database, schema, settings
from .admin import new_password, when
from .database import SchemaTooNew, StoreUnavailable
from .records import User
from .store import Store

EXIT_STORE = 1
EXIT_USAGE = 2
EXIT_REFUSED = 3
CREATING = {"admin"}


class Failure(Exception):
    """A refusal to report as one line with ``code``."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise Failure(f"{message} (see {self.prog} --help)")


def _count(name: str, low: int, high: int):
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number from {low} to {high}, "
                                             f"got {text[:40]!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number from {low} to {high}, got {value}")
        return value
    return convert


def _class_name(text: str) -> str:
    """Checked before anything is made (a new teacher is created only for a class that can be)."""
    if not 1 <= len(text.strip()) <= 64:
        raise argparse.ArgumentTypeError(f"a class name must be 1 to 64 characters, got {text[:40]!r}")
    return text


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--database", metavar="URL", default=argparse.SUPPRESS,
                        help="the store (overrides GOLFLAB_DATABASE_URL), e.g. sqlite:////srv/golflab.db")
    common.add_argument("--as", dest="acting", metavar="NAME", default=argparse.SUPPRESS,
                        help="act as this admin (default: the first admin)")
    parser = _Parser(prog="golflab class", parents=[common],
                     description="Classes, invite codes and learners in the class store (for admins).")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    create = sub.add_parser("create", parents=[common], help="create a class taught by a teacher")
    create.add_argument("name", metavar="NAME", type=_class_name, help="the class's name, e.g. 6B (1-64 characters)")
    create.add_argument("--teacher", required=True, metavar="T",
                        help="its teacher: a teacher or admin, or a new name (made a teacher, password shown once)")
    invite = sub.add_parser("invite", parents=[common], help="make an invite code for a class")
    invite.add_argument("code", metavar="CODE", help="the class's code (see `class list`)")
    invite.add_argument("--uses", type=_count("--uses", 1, 1000), default=30, help="learners it admits (default 30)")
    invite.add_argument("--days", type=_count("--days", 1, 365), default=7, help="days it lasts (default 7)")
    sub.add_parser("list", parents=[common], help="list every class")
    hand = sub.add_parser("hand-over", parents=[common], help="hand a class to another teacher")
    hand.add_argument("code", metavar="CODE", help="the class's code (see `class list`)")
    hand.add_argument("--to", required=True, metavar="T", help="its new teacher: a teacher or an admin")
    learners = sub.add_parser("learners", parents=[common], help="list a class's learners")
    learners.add_argument("code", metavar="CODE")
    export = sub.add_parser("export", parents=[common], help="a class's roster as CSV")
    export.add_argument("code", metavar="CODE")
    export.add_argument("--out", metavar="FILE", help="write the CSV to FILE (default: standard output)")
    sub.add_parser("purge", parents=[common], help="forget ended sessions, old failed sign-ins and wrong room codes")
    for command, text in (("admin", "make NAME an admin (a new admin sets a password at first sign-in)"),
                          ("reset-password", "give NAME a new password, printed once"),
                          ("deactivate", "deactivate NAME: sessions end, sign-in refused"),
                          ("reactivate", "let a deactivated NAME sign in again")):
        sub.add_parser(command, parents=[common], help=text).add_argument("name", metavar="NAME")
    return parser


def main(argv: "Sequence[str] | None" = None) -> int:
    """Run ``golflab class`` with ``argv``; returns the exit code (see the module's docstring)."""
    parser = build_parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
        if args.command is None:
            raise Failure(f"a command is required: {', '.join(COMMANDS)} (see {parser.prog} --help)")
        store = _open(getattr(args, "database", None), creating=args.command in CREATING)
        try:
            text = COMMANDS[args.command](store, args)
        finally:
            store.close()
        return _say(text)
    except Failure as exc:
        return _complain(str(exc), exc.code)
    except ValueError as exc:
        return _complain(str(exc), EXIT_USAGE)
    except PermissionError as exc:
        return _complain(f"not allowed: {exc}", EXIT_REFUSED)
    except (StoreUnavailable, SchemaTooNew) as exc:
        return _complain(str(exc), EXIT_STORE)
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0


def _say(text: str) -> int:
    """Print ``text``: 0; a reader that went away is not an error (0), unwritable output is one line (1)."""
    try:
        print(text, flush=True)
    except BrokenPipeError:  # `golflab class export X | head -1`
        try:  # what is still buffered goes nowhere, not to a traceback at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
    except OSError as exc:  # e.g. a full disk
        return _complain(f"cannot write the output: {exc.strerror or exc}", EXIT_STORE)
    return 0


def _complain(text: str, code: int) -> int:
    print(f"golflab class: error: {text}", file=sys.stderr)
    return code


def _open(url: "str | None", *, creating: bool) -> Store:
    url = url or settings.database_url()
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise Failure(f"{url[:60]!r} is not a database URL: e.g. sqlite:///golflab.db or "
                      "postgresql://user@host/golflab") from None
    path = parsed.database if parsed.get_backend_name() == "sqlite" else None
    if path and path != ":memory:" and not creating and not os.path.exists(path):
        raise Failure(f"there is no class store at {path}: check --database (or GOLFLAB_DATABASE_URL); "
                      "`golflab class admin NAME` starts a new one")
    return Store(url)


def _acting(store: Store, args) -> User:
    """The user named with ``--as`` (an admin or teacher), else the store's first admin."""
    name = getattr(args, "acting", None)
    if name is not None:
        user = store.user(name)
        if user is None or not user.teaches:
            raise Failure(f"--as {name!r} must name an admin or a teacher of this store")
        return user
    with database.reading(store.engine) as conn:
        first = conn.execute(select(schema.users.c.name).where(schema.users.c.role == "admin")
                             .where(schema.users.c.active.is_(True)).order_by(schema.users.c.id).limit(1)).first()
    if first is None:
        raise Failure("this store has no admin yet: make one with `golflab class admin NAME` "
                      "(or name them in GOLFLAB_ADMINS)")
    return store.user(first.name)


def _named(store: Store, name: str) -> User:
    user = store.user(name)
    if user is None:
        raise Failure(f"no user is called {name[:40]!r}")
    return user


def _class(store: Store, code: str):
    klass = store.klass(code)
    if klass is None:
        raise Failure(f"no class has the code {code[:40]!r}: see `golflab class list`")
    return klass


def _create(store: Store, args) -> str:
    by = _acting(store, args)
    teacher = store.user(args.teacher)
    note = ""
    if teacher is None:
        password = new_password()
        teacher = store.create_user(args.teacher, password, role="teacher", by=by)
        note = f"\n{teacher.name} is a new teacher; their password (shown once): {password}"
    elif not teacher.teaches:
        raise Failure(f"{teacher.name} is a learner: a class's teacher must be a teacher or an admin")
    klass = store.create_class(args.name, teacher, by=by)
    return (f"class {klass.name} created, code {klass.code} (for these commands), taught by {teacher.name}; "
            f"learners join with an invite code: golflab class invite {klass.code}{note}")


def _invite(store: Store, args) -> str:
    klass = _class(store, args.code)
    code = store.create_invite(klass, by=_acting(store, args), max_uses=args.uses, expires_days=args.days)
    return (f"invite code {code} for class {klass.name}: up to {args.uses} learners, "
            f"for {args.days} day{'' if args.days == 1 else 's'}")


def _hand_over(store: Store, args) -> str:
    klass = _class(store, args.code)
    teacher = _named(store, args.to)
    was = store.user_by_id(klass.teacher_id)
    store.hand_over_class(klass, teacher, by=_acting(store, args))
    return f"class {klass.name} ({klass.code}) is now taught by {teacher.name}, not {was.name}"


def _list(store: Store, args) -> str:
    by = _acting(store, args)
    lines = ["code    name                  teacher           learners  state"]
    untaught = False
    for klass in store.classes(by):
        teacher = store.user_by_id(klass.teacher_id)
        count = len(store.learners(klass, by=by))
        mark = "*" if not teacher.teaches else ""
        untaught = untaught or bool(mark)
        lines.append(f"{klass.code:<7} {klass.name[:20]:<21} {teacher.name[:16 - len(mark)] + mark:<17} {count:>8}  "
                     f"{'active' if klass.active else 'closed'}")
    if len(lines) == 1:
        return "no classes yet: create one with `golflab class create NAME --teacher T`"
    if untaught:
        lines.append("* no longer a teacher (their name was taken out of GOLFLAB_TEACHERS): the class is "
                     "whole, an admin runs it, and it is theirs again once the name is back; or hand it to "
                     "another teacher: golflab class hand-over CODE --to T")
    return "\n".join(lines)


def _learners(store: Store, args) -> str:
    klass = _class(store, args.code)
    now = store.clock()
    rows = store.learners(klass, by=_acting(store, args))
    if not rows:
        return f"class {klass.name} has no learners yet"
    width = max(len(u.name) for u in rows)
    return "\n".join(f"{u.name:<{width}}  {'active' if u.active else 'deactivated':<11}  last seen "
                     f"{when(u.last_seen, now)}" for u in rows)


def _export(store: Store, args) -> str:
    klass = _class(store, args.code)
    text = store.export_csv(klass, by=_acting(store, args))
    if args.out is None:
        return text.rstrip("\n")
    _write_whole(args.out, text)
    return f"class {klass.name}: {text.count(chr(10)) - 1} learners written to {args.out}"


def _write_whole(path: str, text: str) -> None:
    """Write ``text`` to ``path`` beside it first, then put it in place (a failure leaves nothing)."""
    if not path.strip():
        raise Failure("--out needs a file name")
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, partial = tempfile.mkstemp(prefix=".golflab-export-", suffix=".partial", dir=folder)
    except OSError as exc:
        raise Failure(f"cannot write --out {path}: {exc.strerror or exc}", EXIT_STORE) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.replace(partial, path)
    except OSError as exc:
        raise Failure(f"cannot write --out {path}: {exc.strerror or exc}", EXIT_STORE) from None
    finally:
        if os.path.exists(partial):
            os.unlink(partial)


def _admin(store: Store, args) -> str:
    existing = store.user(args.name)
    if existing is not None and existing.role == "admin" and existing.role_setting is None:
        return f"{existing.name} is already an admin"
    user = store.ensure_user(args.name, role="admin")
    if existing is None:
        return f"{user.name} is now an admin: they choose a password at their first sign-in"
    if existing.role == "admin":
        return (f"{user.name} is now an admin by hand: they stay one when {existing.role_setting} "
                "no longer names them")
    return f"{user.name} is now an admin (their password is unchanged)"


def _reset_password(store: Store, args) -> str:
    user = _named(store, args.name)
    password = new_password()
    store.reset_password(user, password, by=_acting(store, args))
    return f"new password for {user.name} (shown once): {password}"


def _deactivate(store: Store, args) -> str:
    user = _named(store, args.name)
    store.deactivate(user, by=_acting(store, args))
    return f"{user.name} is deactivated: their sessions have ended"


def _reactivate(store: Store, args) -> str:
    user = _named(store, args.name)
    store.reactivate(user, by=_acting(store, args))
    return f"{user.name} may sign in again"


def _purge(store: Store, args) -> str:
    _acting(store, args)  # an admin's command, as the others
    gone = store.purge()
    return (f"forgot {gone['sessions']} ended sessions, {gone['failed sign-ins']} old failed sign-ins and "
            f"{gone['wrong room codes']} old wrong room codes")


COMMANDS = {"create": _create, "invite": _invite, "list": _list, "hand-over": _hand_over, "learners": _learners,
            "export": _export, "admin": _admin, "reset-password": _reset_password, "deactivate": _deactivate,
            "reactivate": _reactivate, "purge": _purge}
