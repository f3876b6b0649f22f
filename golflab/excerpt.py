"""Quoting user input in error messages: cut short, and named by its JSON type."""

from __future__ import annotations

from typing import Any

#: Characters of a value's repr an error message quotes before cutting it short.
LIMIT = 60

_KINDS = {bool: "true or false", int: "a whole number", float: "a decimal number", str: "a string",
          list: "a list", dict: "an object", type(None): "null"}


def excerpt(value: Any, limit: int = LIMIT) -> str:
    """``repr(value)``, cut to ``limit`` characters and saying how long it was when longer."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print (sys.get_int_max_str_digits)
        return f"a whole number of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    except RecursionError:
        return f"a {type(value).__name__} nested too deeply to show"
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


def json_kind(value: Any) -> str:
    """What ``value`` is in JSON words: "null", "a string", "a list", ... (exactly: true is no number)."""
    return _KINDS.get(type(value), "something else")
