"""Codepiece with integer cards: the CPU's trick play.

A card is its position in ``CARD_ORDER`` (suit * 13 + rank; suits S H D C, ranks 2 up to A),
so a hand sorted as numbers is in the game's hand order and ``legal`` lists keep the order the
string rules give. ``decide_play`` is the CPU's trick-play policy (``CodepieceCPU`` converts a
seat's ``state`` and calls it; ``fastdeal.cpu_deal`` plays whole deals with it). It draws
tie-breaks from the player's generator exactly as the string rules would, so the results are
identical (tests compare them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import CARD_ORDER

#: Each card's code (``"AS"``) by its number, and the number of each code.
CODES = tuple(str(c) for c in CARD_ORDER)
NUMBER = {code: i for i, code in enumerate(CODES)}
SUIT_LETTERS = "SHDC"
RANKS = "23456789TJQKA"


def beats(card: int, best: int, led: int, trump: int) -> bool:
    """``golflab.codepiece.game.beats`` for numbered cards and suits (``trump`` -1: none)."""
    suit, best_suit = card // 13, best // 13
    if suit == trump:
        return best_suit != trump or card % 13 > best % 13
    return best_suit != trump and suit == led == best_suit and card % 13 > best % 13


def trick_winner(trick: Sequence[tuple[int, int]], trump: int) -> tuple[int, int]:
    """``(seat, card)`` winning a (possibly unfinished) trick of ``(seat, card)`` pairs."""
    led = trick[0][1] // 13
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if beats(card, best, led, trump):
            best_seat, best = seat, card
    return best_seat, best


def legal_cards(hand: Sequence[int], seat: int, trick: Sequence[tuple[int, int]], trump: int,
                winning: "tuple[int, int] | None" = None) -> list[int]:
    """The cards ``seat`` may play (the rules' follow-suit and overtake duties); ``winning`` is the
    trick's ``trick_winner`` when the caller knows it."""
    if not trick:
        return list(hand)
    led = trick[0][1] // 13
    legal = [c for c in hand if c // 13 == led] or list(hand)
    win_seat, win_card = winning or trick_winner(trick, trump)
    if win_seat % 2 != seat % 2:
        beating = [c for c in legal if beats(c, win_card, led, trump)]
        if beating:
            return beating
    return legal


class PublicRecord:
    """What every seat has seen of a deal's play: the cards played, who showed a void in which
    suit, and who led which suit (in order). ``add`` records one card."""

    __slots__ = ("played_mask", "voids", "leads")

    def __init__(self) -> None:
        self.played_mask = 0  # bit ``card`` set once played
        self.voids: list[set[int]] = [set(), set(), set()]
        self.voids.append(set())
        self.leads: list[tuple[int, int]] = []

    def add(self, trick: Sequence[tuple[int, int]], seat: int, card: int) -> None:
        """Record ``seat`` playing ``card`` to ``trick`` (the trick before this card)."""
        self.played_mask |= 1 << card
        if trick:
            led = trick[0][1] // 13
            if card // 13 != led:
                self.voids[seat].add(led)
        else:
            self.leads.append((seat, card // 13))

    @classmethod
    def of_tricks(cls, tricks: Sequence[Sequence[tuple[int, int]]]) -> "PublicRecord":
        """The record of ``tricks`` played in order (the last may be unfinished)."""
        record = cls()
        for trick in tricks:
            for i, (seat, card) in enumerate(trick):
                record.add(trick[:i], seat, card)
        return record


class _Decision:
    """One trick-play decision of the CPU (see ``CodepieceCPU.choose``), on numbered cards."""

    __slots__ = ("rng", "seat", "partner", "trump", "declaring", "trick", "top_out", "voids", "leads", "length",
                 "winning")

    def __init__(self, seat: int, hand: Sequence[int], trump: int, declarer: int,
                 trick: Sequence[tuple[int, int]], record: PublicRecord, rng: random.Random,
                 winning: "tuple[int, int] | None") -> None:
        self.rng = rng
        self.seat = seat
        self.partner = (seat + 2) % 4
        self.trump = trump
        self.declaring = declarer % 2 == seat % 2
        self.trick = trick
        held, length = 0, [0, 0, 0, 0]
        for c in hand:
            held |= 1 << c
            length[c // 13] += 1
        self.length = length
        self.winning = winning
        out = ~(record.played_mask | held)
        # per suit: the highest rank still in the other hands, -1 for none
        self.top_out = [((out >> base) & 0x1FFF).bit_length() - 1 for base in (0, 13, 26, 39)]
        self.voids = record.voids
        self.leads = record.leads

    def top_of_suit(self, card: int) -> bool:
        return card % 13 > self.top_out[card // 13]

    def holds(self, card: int, foes: Sequence[int]) -> bool:
        """Would ``card``, winning the trick now, still win after the opponents ``foes`` to play?"""
        if not foes:
            return True
        if not self.top_of_suit(card):
            return False
        suit = card // 13
        if suit == self.trump or self.top_out[self.trump] < 0:
            return True
        return not any(suit in self.voids[s] for s in foes)

    def cheapest(self, cards: Sequence[int]) -> int:
        trump, length = self.trump, self.length
        return self.pick(cards, lambda c: (c // 13 == trump, self.top_of_suit(c), c % 13, length[c // 13]), low=True)

    def pick(self, cards: Sequence[int], key, low: bool) -> int:
        keys = [key(c) for c in cards]
        best = min(keys) if low else max(keys)
        return self.rng.choice([c for c, k in zip(cards, keys) if k == best])

    def lead(self, legal: list[int]) -> int:
        seat, trump = self.seat, self.trump
        foes = [(seat + 1) % 4, (seat + 3) % 4]
        if self.declaring and self.top_out[trump] >= 0:
            top = [c for c in legal if c // 13 == trump and self.top_of_suit(c)]
            if top:
                return self.pick(top, _rank, low=False)
        winners = [c for c in legal if c // 13 != trump and self.holds(c, foes)]
        if winners:
            return self.pick(winners, _rank, low=False)
        partner_voids = self.voids[self.partner]
        if trump not in partner_voids:
            for suit in range(4):
                if suit in partner_voids and suit != trump and self.length[suit]:
                    return self.pick([c for c in legal if c // 13 == suit], _rank, low=True)
        for suit in [s for leader, s in self.leads if leader == self.partner and s != trump]:
            if self.length[suit]:
                return self.pick([c for c in legal if c // 13 == suit], _rank, low=True)
        side = [c for c in legal if c // 13 != trump] or legal
        length = self.length
        return self.pick(side, lambda c: (-length[c // 13], c % 13), low=True)

    def follow(self, legal: list[int]) -> int:
        seat, trump, trick = self.seat, self.trump, self.trick
        foes = [s for s in ((seat + i) % 4 for i in range(1, 4 - len(trick))) if s % 2 != seat % 2]
        led = trick[0][1] // 13
        win_seat, win_card = self.winning or trick_winner(trick, trump)
        beaters = [c for c in legal if beats(c, win_card, led, trump)]
        holding = [c for c in beaters if self.holds(c, foes)]
        cost = self.win_cost
        if win_seat % 2 == seat % 2:
            if self.holds(win_card, foes) or not holding:
                return self.cheapest([c for c in legal if c not in beaters] or legal)
            return self.pick(holding, cost, low=True)
        if holding:
            return self.pick(holding, cost, low=True)
        if beaters:
            return self.pick(beaters, cost, low=True)
        return self.cheapest(legal)

    def win_cost(self, card: int):
        return (card // 13 == self.trump, card % 13)


def _rank(card: int) -> int:
    return card % 13


def decide_play(seat: int, hand: Sequence[int], trump: int, declarer: int, trick: Sequence[tuple[int, int]],
                record: PublicRecord, legal: list[int], rng: random.Random,
                winning: "tuple[int, int] | None" = None) -> int:
    """The CPU's card for ``seat`` (more than one ``legal`` card): cash sure winners, draw trumps
    as declarer, feed the partner's ruffs and suits, never overtake a partner whose card will hold,
    win as cheaply as possible, else throw the least useful card; ties from ``rng``. ``winning``:
    the trick's ``trick_winner``, when the caller knows it."""
    decision = _Decision(seat, hand, trump, declarer, trick, record, rng, winning)
    return decision.follow(legal) if trick else decision.lead(legal)
