"""Passwords (argon2id), session tokens (256 random bits, kept only as a hash), and the
checks on names, passwords and codes, each refusing with a message that says what is allowed."""

from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets
from functools import cache

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

#: Letters that cannot be mistaken for one another or for digits (no B/8, I/1, L, O/0, S/5, Z/2).
CODE_LETTERS = "ACDEFGHJKMNPQRTUVWXY"
CLASS_CODE_LENGTH = 6
INVITE_CODE_LENGTH = 8
NAME_MIN, NAME_MAX = 2, 32
PASSWORD_MIN, PASSWORD_MAX = 6, 128
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")
#: JupyterHub's names are the identity provider's (e-mail addresses, any script), up to the column's length.
HUB_NAME_MAX = 64
#: How hard passwords are hashed (argon2id): ``recommended`` (the default: argon2-cffi's RFC 9106
#: low-memory profile, about 0.2 s of CPU a hash) or ``cheapest``, for test suites alone (golflab's
#: creates about a thousand accounts); set by the environment variable ``PASSWORD_HASHING_ENV``.
#: A hash keeps its own parameters, so either verifies the other's hashes.
PASSWORD_HASHING = {"recommended": profiles.RFC_9106_LOW_MEMORY, "cheapest": profiles.CHEAPEST}
PASSWORD_HASHING_ENV = "GOLFLAB_PASSWORD_HASHING"


def password_hashing() -> str:
    """The name of the hashing in use (``PASSWORD_HASHING``), from ``PASSWORD_HASHING_ENV``; a
    ValueError naming the allowed values for another."""
    name = os.environ.get(PASSWORD_HASHING_ENV, "") or "recommended"
    if name not in PASSWORD_HASHING:
        raise ValueError(f"{PASSWORD_HASHING_ENV}={name!r} is not a password hashing: use one of "
                         f"{', '.join(PASSWORD_HASHING)}")
    return name


@cache
def _hasher() -> PasswordHasher:
    """This process's hasher, chosen at its first use; a warning when it is not the recommended one."""
    name = password_hashing()
    if name != "recommended":
        logging.getLogger("golflab").warning("%s=%s: passwords are hashed for tests, not for real accounts",
                                             PASSWORD_HASHING_ENV, name)
    return PasswordHasher.from_parameters(PASSWORD_HASHING[name])


def check_name(name: object, *, hub: bool = False) -> str:
    """A user's name as given, or a ValueError that says which names are allowed. A name from
    JupyterHub (``hub``) is whatever its identity provider gave (an e-mail address, ``jürgen``,
    ``o'brien``, any script) up to ``HUB_NAME_MAX`` characters: printable, no NUL."""
    if hub:
        return _check_hub_name(name)
    allowed = f"{NAME_MIN}-{NAME_MAX} characters: letters, digits and _ . -, starting with a letter or digit"
    if not isinstance(name, str):
        raise ValueError(f"a name must be text ({allowed}), got {type(name).__name__}")
    if not NAME_MIN <= len(name) <= NAME_MAX or not _NAME.match(name):
        raise ValueError(f"{shown(name)} is not a valid name: use {allowed}")
    return name


def _check_hub_name(name: object) -> str:
    allowed = f"1 to {HUB_NAME_MAX} printable characters"
    if not isinstance(name, str):
        raise ValueError(f"a name must be text ({allowed}), got {type(name).__name__}")
    if "\x00" in name:
        raise ValueError(f"{shown(name)} is not a valid name: it holds a NUL character (\\x00), which no name may")
    if not 1 <= len(name) <= HUB_NAME_MAX or not name.isprintable() or name != name.strip():
        raise ValueError(f"{shown(name)} is not a valid name: use {allowed}, no space at either end")
    if len(name_key(name)) > HUB_NAME_MAX:
        raise ValueError(f"{shown(name)} is not a valid name: it is longer than {HUB_NAME_MAX} characters "
                         "once its case is folded")
    return name


def name_key(name: str) -> str:
    """The form in which names are unique: ``Ann`` and ``ann`` are one name."""
    return name.casefold()


def lookup_key(name: object) -> "str | None":
    """The ``name_key`` to look ``name`` up by, or None when no stored name can be it (not text,
    too long, a NUL): such a name is nobody, never a database error."""
    if not isinstance(name, str) or len(name) > HUB_NAME_MAX or "\x00" in name:
        return None
    key = name_key(name)
    return key if len(key) <= HUB_NAME_MAX else None


def check_password(password: object) -> str:
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ValueError(f"a password must be {PASSWORD_MIN} to {PASSWORD_MAX} characters long")
    return password


def hash_password(password: str) -> str:
    return _hasher().hash(check_password(password))


@cache
def _dummy_hash() -> str:
    """A hash no password is checked against in earnest (made once, at the first need)."""
    return _hasher().hash(new_token())


def password_matches(stored_hash: "str | None", password: str) -> bool:
    """True when ``password`` is the one hashed (False for no hash, a wrong one or a bad hash).
    Without a hash a dummy one is checked, so an unknown name costs the same work as a known one."""
    if not isinstance(password, str):
        return False
    try:
        return _hasher().verify(stored_hash or _dummy_hash(), password) and bool(stored_hash)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    """A session token: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the store keeps of a token (a leaked database gives no usable session)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_code(length: int) -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(length))


def check_code(code: object, length: int, what: str) -> str:
    """A code typed by a person, upper-cased, or a ValueError naming what a code looks like."""
    allowed = f"{length} letters from {CODE_LETTERS}"
    if not isinstance(code, str):
        raise ValueError(f"{what} must be text: {allowed}")
    cleaned = code.strip().upper()
    if len(cleaned) != length or any(c not in CODE_LETTERS for c in cleaned):
        a = "an" if what[:1] in "aeiou" else "a"
        raise ValueError(f"{shown(code)} is not {a} {what}: {a} {what} is {allowed}")
    return cleaned


def shown(value: object, limit: int = 40) -> str:
    """``value`` quoted for a message, cut to ``limit`` characters (a long input never floods it)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
