"""``CodepieceCPU``: a Codepiece player that decides from one seat's ``state`` only.

It never sees another hand. Everything it knows comes from ``state(seat)``: its own hand,
the bidding, the trump, the current trick and the tricks already played face up (from
which it counts the cards still out and learns who is void in which suit).

* **Bidding** (``estimate_tricks``): a hand is worth so many tricks with a given trump:
  top cards (aces, guarded kings and queens), trump length beyond the third trump, and
  short side suits it can ruff. The partner is expected to add a third of the tricks the
  hand does not take. The CPU bids the highest bid its team's estimate covers with a
  safety margin (a failed bid costs twice what a made one earns, so a bid pays only when
  made more than two times in three; the margin grows above 9), outbids an opponent only
  that way, and outbids its partner only with a hand worth more than the partner's bid shows.
* **Trump**: the suit with the highest trick estimate.
* **Play**: see ``CodepieceCPU.choose``: cash sure winners, draw trumps as declarer, lead
  what the partner can ruff or has shown, otherwise lead low from a long suit; when
  following, never overtake a partner whose card will hold, win as cheaply as possible
  when it matters, and throw the least useful card otherwise.

Ties between equally good cards are broken by the player's seeded random generator, so a
CPU is deterministic from its seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .game import beats, team_of, trick_winner

RANKS = "23456789TJQKA"
POWER = {r: i for i, r in enumerate(RANKS)}
SUITS = "SHDC"
HIGH_CARD_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}
#: Tricks the team's estimate must exceed a bid by before the CPU bids it.
BID_MARGIN = 0.5
#: Extra margin per trick of a bid above 9.
HIGH_BID_MARGIN = 0.4
#: How much of the tricks a partner's bid shows the CPU counts on when it takes over the
#: contract (their hands may not fit the CPU's trump).
PARTNER_BID_WEIGHT = 0.5
#: Share of the tricks a hand does not take that its partner is expected to take.
PARTNER_SHARE = 1 / 3


def high_card_points(hand: Iterable[str]) -> int:
    """The classic hand-strength count: A 4, K 3, Q 2, J 1 (0-40 over a 13-card hand)."""
    return sum(HIGH_CARD_POINTS.get(str(c)[0], 0) for c in hand)


def _by_suit(hand: Iterable[str]) -> dict[str, list[str]]:
    """Ranks held per suit, highest first."""
    out: dict[str, list[str]] = {s: [] for s in SUITS}
    for code in hand:
        code = str(code)
        out[code[1]].append(code[0])
    for ranks in out.values():
        ranks.sort(key=POWER.__getitem__, reverse=True)
    return out


def _side_tricks(ranks: Sequence[str]) -> float:
    """Tricks from a side suit's top cards: an ace, a guarded king, a well-guarded queen."""
    n, held, tricks = len(ranks), set(ranks), 0.0
    if "A" in held:
        tricks += 1.0
    if "K" in held:
        tricks += (0.9 if "A" in held else 0.7) if n >= 2 else 0.2
    if "Q" in held:
        tricks += (0.6 if held & {"A", "K"} else 0.4) if n >= 3 else 0.1
    return tricks + 0.3 * max(0, n - 4)  # a long side suit sets up late winners


def _trump_tricks(ranks: Sequence[str], side_lengths: Sequence[int]) -> float:
    """Tricks from the trump suit: top trumps, length beyond three, and ruffs in short suits
    (never more tricks than trumps)."""
    n, held = len(ranks), set(ranks)
    tricks = sum(v for r, v, need in (("A", 1.0, 1), ("K", 0.9, 2), ("Q", 0.7, 3), ("J", 0.5, 4))
                 if r in held and n >= need)
    tricks += 0.9 * max(0, n - 3)  # long trumps win once the others are drawn
    ruffs = sum({0: 1.0, 1: 0.6, 2: 0.25}.get(length, 0.0) for length in side_lengths)
    return min(float(n), tricks + min(ruffs, 0.8 * max(0, n - 2)))  # each trump wins one trick at most


def estimate_tricks(hand: Iterable[str], trump: str) -> float:
    """Tricks ``hand`` should take by itself with ``trump`` (a suit letter S, H, D or C)."""
    if trump not in SUITS:
        raise ValueError(f"trump must be one of S, H, D, C, got {trump!r}")
    suits = _by_suit(hand)
    sides = [s for s in SUITS if s != trump]
    return _trump_tricks(suits[trump], [len(suits[s]) for s in sides]) + sum(_side_tricks(suits[s]) for s in sides)


def best_trump(hand: Iterable[str]) -> tuple[str, float]:
    """``(suit, tricks)``: the trump suit with the highest estimate (ties: the longer suit,
    then the order S H D C)."""
    hand = [str(c) for c in hand]
    suits = _by_suit(hand)
    return max(((s, estimate_tricks(hand, s)) for s in SUITS),
               key=lambda st: (round(st[1], 6), len(suits[st[0]]), -SUITS.index(st[0])))


def sure_tricks(hand: Iterable[str], trump: str) -> int:
    """Tricks ``hand`` takes whatever the others hold: its unbroken run of top trumps from
    the ace, and every trump it has once that run outnumbers the trumps out."""
    ranks = _by_suit(hand)[trump]
    run = 0
    for have, top in zip(ranks, reversed(RANKS)):
        if have != top:
            break
        run += 1
    return len(ranks) if run >= 13 - len(ranks) else run


def team_estimate(own: float) -> float:
    """A team's expected tricks from one hand's own estimate: the partner takes a share of the rest."""
    return own + PARTNER_SHARE * (13 - own)


def bid_for(estimate: float) -> int:
    """The highest bid a team estimate covers: by ``BID_MARGIN`` up to 9, and by a wider
    margin above (``HIGH_BID_MARGIN`` more per trick), since long estimates are the least sure.
    A result below 8 means no bid."""
    bid = min(13, math.floor(estimate - BID_MARGIN))
    while bid > 9 and estimate < bid + BID_MARGIN + HIGH_BID_MARGIN * (bid - 9):
        bid -= 1
    return bid


def _check_seed(seed: Any) -> None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ValueError(f"seed must be a whole number or None, got {seed!r}")


class CodepieceCPU:
    """A Codepiece CPU player: ``choose(state)`` returns one of ``state["legal_actions"]``.

    ``seed`` drives its tie-breaks, so the same seed and states give the same choices.
    """

    def __init__(self, seed: int | None = 0) -> None:
        _check_seed(seed)
        self.seed = seed
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"CodepieceCPU(seed={self.seed!r})"

    # ------------------------------------------------------------------ entry
    def choose(self, state: Mapping[str, Any]) -> str:
        """The action for the seat whose ``state`` this is (it must be that seat's turn)."""
        legal = list(state.get("legal_actions") or [])
        if not legal:
            raise ValueError(f"seat {state.get('seat')} has nothing to do (phase {state.get('phase')}, "
                             f"seat {state.get('current_player')} to move)")
        if len(legal) == 1:
            return legal[0]
        phase = state["phase"]
        if phase == "bidding":
            return self._bid(state, legal)
        if phase == "trump":
            return f"trump_{best_trump(state['hand'])[0]}"
        return _Play(state, self._rng).choose(legal)

    # ---------------------------------------------------------------- bidding
    def _bid(self, state: Mapping[str, Any], legal: list[str]) -> str:
        """Bid what the team estimate covers; leave a partner's bid alone unless clearly better."""
        seat = state["seat"]
        trump, own = best_trump(state["hand"])
        target = max(bid_for(team_estimate(own)), sure_tricks(state["hand"], trump))
        high = state["bid"]
        holder = state["declarer"]
        if high is not None and team_of(holder) == team_of(seat):
            # the partner bid: it holds a good hand, so only a hand worth more than the
            # partner's bid on its own (with the partner's help) takes the contract over
            partner_own = max(0.0, (high + BID_MARGIN - 13 * PARTNER_SHARE) / (1 - PARTNER_SHARE))
            target = bid_for(own + PARTNER_BID_WEIGHT * partner_own) if own > partner_own else 0
        choice = f"bid_{target}"
        return choice if choice in legal else "pass"


class _Play:
    """One trick-play decision, from what the seat has seen (see ``CodepieceCPU.choose``)."""

    def __init__(self, state: Mapping[str, Any], rng: random.Random) -> None:
        self.rng = rng
        self.seat = state["seat"]
        self.partner = (self.seat + 2) % 4
        self.trump = state["trump"]
        self.hand = list(state["hand"])
        self.declaring = team_of(state["declarer"]) == team_of(self.seat)
        self.trick = [(s, c) for s, c in state["current_trick"]]
        tricks = [list(t) for t, _won in state.get("completed_tricks", [])]
        played = [c for t in tricks for _s, c in t] + [c for _s, c in self.trick]
        gone = set(played) | set(self.hand)
        self.out = {s: {r for r in RANKS if r + s not in gone} for s in SUITS}  # held by the others
        self.voids: dict[int, set[str]] = {s: set() for s in range(4)}
        self.partner_led: list[str] = []
        for t in tricks + ([self.trick] if self.trick else []):
            led = t[0][1][1]
            if t[0][0] == self.partner and led != self.trump:
                self.partner_led.append(led)
            for s, c in t[1:]:
                if c[1] != led:
                    self.voids[s].add(led)
        self.length = {s: sum(1 for c in self.hand if c[1] == s) for s in SUITS}

    # ----------------------------------------------------------- card facts
    def top_of_suit(self, card: str) -> bool:
        """No card still out in the other hands outranks ``card`` in its suit."""
        return all(POWER[r] < POWER[card[0]] for r in self.out[card[1]])

    def holds(self, card: str, after: Sequence[int]) -> bool:
        """Would ``card``, winning the trick now, still win after the seats in ``after`` play?"""
        foes = [s for s in after if team_of(s) != team_of(self.seat)]
        if not foes:
            return True
        if not self.top_of_suit(card):
            return False
        if card[1] == self.trump or not self.out[self.trump]:
            return True
        return not any(card[1] in self.voids[s] for s in foes)  # a void opponent may ruff

    def cheapest(self, cards: Sequence[str]) -> str:
        """The least useful card: a non-trump before a trump, a loser before a sure winner,
        low before high, and from a short suit (to make a void for ruffing)."""
        def key(c: str):
            return (c[1] == self.trump, self.top_of_suit(c), POWER[c[0]], self.length[c[1]])
        return self.pick(cards, key, low=True)

    def pick(self, cards: Sequence[str], key, low: bool) -> str:
        """The card with the lowest (or highest) key; exact ties broken by the seeded generator."""
        best = (min if low else max)(key(c) for c in cards)
        return self.rng.choice([c for c in cards if key(c) == best])

    # -------------------------------------------------------------- decisions
    def choose(self, legal: list[str]) -> str:
        return self.follow(legal) if self.trick else self.lead(legal)

    def lead(self, legal: list[str]) -> str:
        """Leading: draw trumps with the top trump as declarer, cash sure winners, feed the
        partner's ruffs and suits, else lead low from the longest side suit."""
        after = [(self.seat + i) % 4 for i in (1, 2, 3)]
        trumps = [c for c in legal if c[1] == self.trump]
        if self.declaring and self.out[self.trump]:
            top = [c for c in trumps if self.top_of_suit(c)]
            if top:
                return self.pick(top, lambda c: POWER[c[0]], low=False)
        winners = [c for c in legal if c[1] != self.trump and self.holds(c, after)]
        if winners:
            return self.pick(winners, lambda c: POWER[c[0]], low=False)
        partner_can_ruff = self.trump not in self.voids[self.partner]
        for suit in SUITS:
            if suit in self.voids[self.partner] and suit != self.trump and partner_can_ruff and self.length[suit]:
                return self.pick([c for c in legal if c[1] == suit], lambda c: POWER[c[0]], low=True)
        for suit in self.partner_led:
            if self.length[suit]:
                return self.pick([c for c in legal if c[1] == suit], lambda c: POWER[c[0]], low=True)
        side = [c for c in legal if c[1] != self.trump] or legal
        return self.pick(side, lambda c: (-self.length[c[1]], POWER[c[0]]), low=True)

    def follow(self, legal: list[str]) -> str:
        """Following: leave a partner's winning card alone when it will hold; otherwise win
        with the cheapest card that will hold, or throw the least useful card."""
        after = [(self.seat + i) % 4 for i in range(1, 4 - len(self.trick))]
        led = self.trick[0][1][1]
        win_seat, win_card = trick_winner(self.trick, self.trump)
        win_card = str(win_card)
        beaters = [c for c in legal if beats(c, win_card, led, self.trump)]
        holding = [c for c in beaters if self.holds(c, after)]
        if team_of(win_seat) == team_of(self.seat):
            if self.holds(win_card, after) or not holding:
                others = [c for c in legal if c not in beaters] or legal
                return self.cheapest(others)  # no needless overtake of the partner
            return self.pick(holding, self._win_cost, low=True)
        if holding:
            return self.pick(holding, self._win_cost, low=True)
        if beaters:  # the overtake rule forces a beater: the cheapest one
            return self.pick(beaters, self._win_cost, low=True)
        return self.cheapest(legal)

    def _win_cost(self, card: str):
        """What winning with ``card`` spends: a side card before a trump, then low before high."""
        return (card[1] == self.trump, POWER[card[0]])


class CodepieceRandom:
    """A baseline: plays a uniformly random legal action (seeded)."""

    def __init__(self, seed: int | None = 0) -> None:
        _check_seed(seed)
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, state: Mapping[str, Any]) -> str:
        legal = list(state.get("legal_actions") or [])
        if not legal:
            raise ValueError(f"seat {state.get('seat')} has nothing to do (phase {state.get('phase')})")
        return self._rng.choice(legal)

    def __repr__(self) -> str:
        return f"CodepieceRandom(seed={self.seed!r})"
