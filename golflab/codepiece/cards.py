"""Codepiece cards: golf's notation with aces high, and the 52-entry one-hot encoding."""

from __future__ import annotations

from typing import Iterable

from ..cards import SUITS, Card

RANK_ORDER = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
RANK_POWER = {r: i for i, r in enumerate(RANK_ORDER)}
#: The 52 cards in encoding order: suits S H D C, each from 2 up to A.
CARD_ORDER = tuple(Card(r, s) for s in SUITS for r in RANK_ORDER)
_INDEX = {c: i for i, c in enumerate(CARD_ORDER)}
#: Each card and its code to itself: the common cases of ``parse_card`` in one lookup.
_KNOWN: dict = {**{c: c for c in CARD_ORDER}, **{c.code: c for c in CARD_ORDER}}


def parse_card(code: "str | Card") -> Card:
    """A standard card (no jokers in Codepiece)."""
    known = _KNOWN.get(code) if isinstance(code, (str, Card)) else None
    if known is not None:
        return known
    card = Card.parse(code)
    if card.is_joker:
        raise ValueError(f"Codepiece uses no jokers, got {code!r}")
    return card


def card_index(card: "str | Card") -> int:
    """Position of a card in the one-hot encoding: suit (S H D C) * 13 + rank (2 ... A)."""
    return _INDEX[parse_card(card)]


def one_hot(cards: Iterable["str | Card"]) -> list[int]:
    """A 52-entry list with 1 where the card is among ``cards`` (order: ``CARD_ORDER``)."""
    vec = [0] * 52
    for card in cards:
        vec[card_index(card)] = 1
    return vec
