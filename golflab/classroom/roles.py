"""Roles given by the settings and by hand, as plain values.

A role given in the store (``create_user``, ``golflab class admin``) is the store's: the settings may
raise it, never lower it. A role given by a setting (``GOLFLAB_ADMINS``; ``GOLFLAB_TEACHERS`` and
the Hub's admin flag, which JupyterHub's example configuration writes into it) is that setting's:
it holds while the setting names the account and falls when it no longer does, at the account's
next sign-in (or, on a Hub, the next page it opens). The account keeps the name of the setting
that made it, so an admin taken out of ``GOLFLAB_ADMINS`` and put back is its admin again (the
same password), never a learner who happened to take the name.
"""

from __future__ import annotations

from .records import ROLES

TEACHERS, ADMINS = "GOLFLAB_TEACHERS", "GOLFLAB_ADMINS"
SETTINGS = (TEACHERS, ADMINS)


def settled(role: str, setting: "str | None", *, teacher: "bool | None", admin: bool) -> "tuple[str, str | None]":
    """The role an account holds now, and the setting it comes from (None: by hand), given the role
    it held (``role``, from ``setting``) and what the settings say: ``admin`` (``GOLFLAB_ADMINS`` names
    it) and ``teacher`` (``GOLFLAB_TEACHERS`` or the Hub's admin flag names it; None: not known here,
    e.g. on a standalone server, which reads no teachers' setting: a teacher stays one)."""
    teacher = role == "teacher" if teacher is None else teacher
    if setting == ADMINS:  # made by GOLFLAB_ADMINS: its role is what the settings say now
        return ("admin" if admin else "teacher" if teacher else "learner"), ADMINS
    if setting is None and role != "learner":  # given by hand: kept
        return role, None
    return ("teacher", TEACHERS) if teacher else ("learner", setting)


def falls(before: str, after: str) -> bool:
    """Whether ``after`` is a lower role than ``before`` (``ROLES`` go from learner up to admin)."""
    return ROLES.index(after) < ROLES.index(before)
