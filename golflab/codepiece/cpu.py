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

from .cards import card_index
from .game import team_of
from .intplay import CODES, NUMBER, PublicRecord, decide_play

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
    return _estimate(_by_suit(hand), trump)


def _estimate(suits: Mapping[str, Sequence[str]], trump: str) -> float:
    sides = [s for s in SUITS if s != trump]
    return _trump_tricks(suits[trump], [len(suits[s]) for s in sides]) + sum(_side_tricks(suits[s]) for s in sides)


def best_trump(hand: Iterable[str]) -> tuple[str, float]:
    """``(suit, tricks)``: the trump suit with the highest estimate (ties: the longer suit,
    then the order S H D C)."""
    return best_trump_by_suit(_by_suit(hand))


def best_trump_by_suit(suits: Mapping[str, Sequence[str]]) -> tuple[str, float]:
    """``best_trump`` of a hand given as its ranks per suit letter, highest first."""
    return max(((s, _estimate(suits, s)) for s in SUITS),
               key=lambda st: (round(st[1], 6), len(suits[st[0]]), -SUITS.index(st[0])))


def sure_tricks(hand: Iterable[str], trump: str) -> int:
    """Tricks ``hand`` takes whatever the others hold: its unbroken run of top trumps from
    the ace, and every trump it has once that run outnumbers the trumps out."""
    return sure_trump_tricks(_by_suit(hand)[trump])


def sure_trump_tricks(ranks: Sequence[str]) -> int:
    """``sure_tricks`` from the trump ranks held, highest first."""
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
        return self._play(state, legal)

    # ---------------------------------------------------------------- bidding
    def _bid(self, state: Mapping[str, Any], legal: list[str]) -> str:
        """Bid what the team estimate covers (``bid_target``), else pass."""
        trump, own = best_trump(state["hand"])
        target = bid_target(state["seat"], own, sure_tricks(state["hand"], trump), state["bid"], state["declarer"])
        choice = f"bid_{target}"
        return choice if choice in legal else "pass"

    def _play(self, state: Mapping[str, Any], legal: list[str]) -> str:
        """The trick-play policy of ``intplay.decide_play`` on this seat's view, in numbered cards."""
        trick = [(s, _number(c)) for s, c in state["current_trick"]]
        tricks = [[(s, _number(c)) for s, c in t] for t, _won in state.get("completed_tricks", [])]
        record = PublicRecord.of_tricks(tricks + ([trick] if trick else []))
        card = decide_play(state["seat"], [_number(c) for c in state["hand"]], SUITS.index(state["trump"]),
                           state["declarer"], trick, record, [_number(c) for c in legal], self._rng)
        return CODES[card]


def bid_target(seat: int, own: float, sure: int, high: "int | None", holder: "int | None") -> int:
    """The bid a CPU in ``seat`` wants (below 8: none), from its hand's ``own`` trick estimate with
    its best trump and its ``sure`` tricks, given the highest bid so far (``high`` by ``holder``):
    what the team estimate covers, and over a partner's bid only with a hand worth more than the
    partner's bid shows."""
    target = max(bid_for(team_estimate(own)), sure)
    if high is not None and team_of(holder) == team_of(seat):
        partner_own = max(0.0, (high + BID_MARGIN - 13 * PARTNER_SHARE) / (1 - PARTNER_SHARE))
        target = bid_for(own + PARTNER_BID_WEIGHT * partner_own) if own > partner_own else 0
    return target


def _number(code: str) -> int:
    number = NUMBER.get(code)
    return number if number is not None else card_index(code)


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
