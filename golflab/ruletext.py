"""Rules written as text, ``name=value`` (the CLI's ``--rule`` and ``--grid``, a position's rules)."""

from __future__ import annotations

from typing import Any

from .rules import OPTION

_TRUE = {"true", "yes", "on"}
_FALSE = {"false", "no", "off"}


def parse_rule_value(text: str):
    """A rule value written as text (``--rule``, a position's rules): true/false/yes/no/on/off
    -> bool, whole numbers -> int, auto/automatic -> None (automatic decks), anything else
    stays a string."""
    low = text.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    if low in ("auto", "automatic"):
        return None
    try:
        return int(low)
    except ValueError:
        return text.strip()


def parse_rule(name: str, text: str):
    """The value of rule ``name`` written as ``text`` (``--rule``, ``--grid`` and a position's
    rules alike): as ``parse_rule_value``, and ``none`` (or the option's word for it, e.g. ``automatic``)
    means None for an option that allows None (``decks``)."""
    option = OPTION.get(name)
    if option is not None and option.optional and text.strip().lower() in ("none", option.none_label):
        return None
    return parse_rule_value(text)


def rule_text(name: str, value: Any) -> str:
    """``name=value`` as ``parse_rule`` reads it back: on/off, whole numbers, words, and the
    option's word for None (``decks=automatic``)."""
    if value is None:
        return f"{name}={OPTION[name].none_label or 'none'}"
    if isinstance(value, bool):
        return f"{name}={'on' if value else 'off'}"
    return f"{name}={value}"

