"""Whole Codepiece deals of four CPUs, played fast with integer cards (``intplay``) and without
building any state dict, for ``selfplay.bid_records``: the same moves, bids and payoffs as playing
``CodepieceGame`` move by move with four ``CodepieceCPU`` players (tests compare them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .cpu import best_trump_by_suit, bid_target, sure_trump_tricks
from .intplay import CODES, RANKS, SUIT_LETTERS, PublicRecord, beats, decide_play, legal_cards


def cpu_deal(seed: int, dealer: int, cpu_seeds: Sequence[int]) -> dict[str, Any]:
    """A deal dealt as ``CodepieceGame(seed, dealer)`` played by ``CodepieceCPU(cpu_seeds[s])`` in
    each seat, without the game's per-move views. Returns ``hands`` (the dealt codes), ``declarer``,
    ``bid``, ``forced``, ``trump`` (a letter), ``estimate`` (the declarer's ``best_trump``),
    ``tricks_won``, ``winner`` and ``payoffs``: the same as playing the game move by move."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    hands = [sorted(deck[i * 13:(i + 1) * 13]) for i in range(4)]
    codes = [[CODES[c] for c in h] for h in hands]
    rngs = [random.Random(s) for s in cpu_seeds]
    by_suit = []  # each hand's ranks per suit letter, highest first
    for hand in hands:
        suits: dict[str, list[str]] = {s: [] for s in SUIT_LETTERS}
        for c in reversed(hand):
            suits[SUIT_LETTERS[c // 13]].append(RANKS[c % 13])
        by_suit.append(suits)
    best = [best_trump_by_suit(suits) for suits in by_suit]
    # bidding: one round from the dealer's left, ending with the dealer
    bid, declarer, forced = None, None, True
    for i in range(1, 5):
        seat = (dealer + i) % 4
        high = bid or 7
        if high < 13:
            trump, own = best[seat]
            target = bid_target(seat, own, sure_trump_tricks(by_suit[seat][trump]), bid, declarer)
            if high < target <= 13:
                bid, declarer, forced = target, seat, False
    if bid is None:
        bid, declarer = 7, (dealer + 1) % 4
    trump = SUIT_LETTERS.index(best[declarer][0])
    record, trick, won = PublicRecord(), [], [0, 0]
    bidders = declarer % 2
    seat, winner, winning = declarer, None, None
    for _ in range(52):
        hand = hands[seat]
        legal = legal_cards(hand, seat, trick, trump, winning)
        card = legal[0] if len(legal) == 1 else decide_play(seat, hand, trump, declarer, trick, record, legal,
                                                            rngs[seat], winning)
        hand.remove(card)
        record.add(trick, seat, card)
        if not trick or beats(card, winning[1], trick[0][1] // 13, trump):
            winning = (seat, card)
        trick.append((seat, card))
        if len(trick) < 4:
            seat = (seat + 1) % 4
            continue
        seat, winning = winning[0], None
        trick = []
        won[seat % 2] += 1
        if won[1 - bidders] >= 14 - bid:
            winner = 1 - bidders
            break
        if won[0] + won[1] == 13:
            winner = bidders
            break
    pay = {bidders: bid, 1 - bidders: -bid} if winner == bidders else {bidders: -2 * bid, 1 - bidders: 2 * bid}
    return {"hands": codes, "dealer": dealer, "declarer": declarer, "bid": bid, "forced": forced,
            "trump": SUIT_LETTERS[trump], "estimate": best[declarer][1], "tricks_won": won, "winner": winner,
            "payoffs": [pay[s % 2] for s in range(4)]}


__all__ = ["cpu_deal"]
