"""Cards, their notation and decks.

Notation is rank then suit: ranks ``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` accepted on
input), suits ``S H D C``. A joker is ``JK`` (``*`` and ``★`` accepted on input).
Cards are interned: ``Card.parse("KH") is Card("K", "H")``.
"""

from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
JOKER_RANK = "JK"
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED_SUITS = frozenset("HD")

_JOKER_SPELLINGS = {"JK", "*", "\u2605", "JOKER"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}


class Card:
    """One playing card: ``rank`` (a str of ``RANKS`` or ``"JK"``) and ``suit`` (or None)."""

    __slots__ = ("rank", "suit", "code")
    _cache: dict[tuple[str, str | None], "Card"] = {}

    def __new__(cls, rank: str, suit: str | None = None) -> "Card":
        key = (rank, suit)
        card = cls._cache.get(key)
        if card is not None:
            return card
        if rank == JOKER_RANK:
            if suit is not None:
                raise ValueError(f"a joker has no suit, got suit {suit!r}")
            code = JOKER_RANK
        elif rank in RANKS:
            if suit not in SUITS:
                raise ValueError(f"bad suit {suit!r} for rank {rank!r}: allowed suits are S H D C")
            code = rank + suit
        else:
            raise ValueError(f"bad rank {rank!r}: allowed ranks are {' '.join(RANKS)} or JK")
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "code", code)
        cls._cache[key] = card
        return card

    def __setattr__(self, name, value):
        raise AttributeError("Card is immutable")

    def __reduce__(self):
        return (Card, (self.rank, self.suit))

    @classmethod
    def parse(cls, text: "str | Card") -> "Card":
        """Parse ``KH``, ``10d``, ``JK``, ``*`` or ``K♥`` (case-insensitive) into a Card."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise ValueError(f"cannot parse {text!r} as a card: expected a string such as 'KH', 'TD' or 'JK'")
        raw = text.strip()
        upper = raw.upper()
        if upper in _JOKER_SPELLINGS:
            return cls(JOKER_RANK)
        if len(upper) >= 2:
            rank, suit = upper[:-1], upper[-1]
            suit = _SYMBOL_TO_SUIT.get(suit, suit)
            if rank == "10":
                rank = "T"
            if rank in RANKS and suit in SUITS:
                return cls(rank, suit)
        raise ValueError(
            f"cannot parse {text!r} as a card: write rank then suit (ranks A 2-9 T J Q K, "
            "10 accepted; suits S H D C), or JK for a joker"
        )

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def pretty(self) -> str:
        """The card with a suit symbol: ``K♥``, ``10♦``, ``★``."""
        if self.is_joker:
            return "\u2605"
        rank = "10" if self.rank == "T" else self.rank
        return rank + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def _repr_html_(self) -> str:
        from .display import card_html

        return card_html(self)

    def __eq__(self, other):
        if isinstance(other, Card):
            return self.code == other.code
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.code)

    def __lt__(self, other: "Card") -> bool:
        return _ORDER[self.code] < _ORDER[other.code]


JOKER = Card(JOKER_RANK)
ALL_CARDS = tuple(Card(r, s) for s in SUITS for r in RANKS)
_ORDER = {c.code: i for i, c in enumerate(ALL_CARDS)}
_ORDER[JOKER.code] = len(ALL_CARDS)


def parse_cards(cards) -> list[Card]:
    """Parse an iterable of cards or codes (or one space-separated string)."""
    if isinstance(cards, str):
        cards = cards.split()
    return [Card.parse(c) for c in cards]


def build_deck(decks: int, jokers: str) -> list[Card]:
    """An unshuffled deck: ``decks`` standard 52-card decks plus the jokers of the mode."""
    cards = list(ALL_CARDS) * decks
    if jokers in ("standard", "eagle_eye"):
        cards += [JOKER] * (2 * decks)
    elif jokers == "lucky_swing":
        cards.append(JOKER)
    return cards
