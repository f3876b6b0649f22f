"""``CodepieceMatch``: several Codepiece deals in a row, with running scores.

* Deal ``i`` (0-based) is dealt by seat ``(first_dealer + i) % 4`` (the dealer moves one
  seat clockwise each deal) from a deck shuffled by a seed derived from the match seed.
* ``scores`` per seat and ``team_scores`` are the payoffs of the finished deals summed
  (partners always have equal scores).
* A finished deal waits for ``next_deal()``; the match is over after the last deal.
* ``cpu_action()`` is what a ``CodepieceCPU`` seeded from the match seed, the deal, the
  seat and the moves so far plays for the seat to move: one seed drives the deals and
  every CPU choice, so a saved match continues exactly as the uninterrupted one would.
* ``to_json()`` saves the seed and every action; ``from_json`` replays them. A bad save
  is a ValueError saying what is wrong; a refused action changes nothing.
"""

from __future__ import annotations

import json
import random
from typing import Any

from ..actions import IllegalActionError
from .cpu import CodepieceCPU
from .game import CodepieceGame, team_of

FORMAT = "golflab-codepiece-match"
VERSION = 1
MAX_DEALS = 100


def derived_seed(*parts: int) -> int:
    """A 63-bit seed mixed from whole numbers (the match seed, a deal, a seat, a move count)."""
    value = 0
    for part in parts:
        value = (value * 1_000_003 + part) % (2**63)
    return value


def _whole(name: str, value: Any, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        allowed = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise ValueError(f"{name} must be a whole number {allowed}, got {value!r}")
    return value


class CodepieceMatch:
    """A match of ``deals`` Codepiece deals (seed None: a random seed)."""

    def __init__(self, deals: int = 4, seed: int | None = None, first_dealer: int = 0) -> None:
        self.deals = _whole("deals", deals, 1, MAX_DEALS)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self.seed = _whole("seed", seed, 0)
        self.first_dealer = _whole("first_dealer", first_dealer, 0, 3)
        self.results: list[dict[str, Any]] = []
        self.history: list[list[str]] = []
        self._deal(0)

    # ------------------------------------------------------------------ state
    @property
    def deal_number(self) -> int:
        """The deal in play (or the last one), counting from 1."""
        return len(self.history)

    @property
    def dealer(self) -> int:
        return self.game.dealer

    @property
    def deal_over(self) -> bool:
        return self.game.phase == "over"

    @property
    def over(self) -> bool:
        """True once the last deal is finished."""
        return self.deal_over and self.deal_number == self.deals

    @property
    def scores(self) -> list[int]:
        """Each seat's payoffs summed over the finished deals."""
        return [sum(r["payoffs"][seat] for r in self.results) for seat in range(4)]

    @property
    def team_scores(self) -> list[int]:
        """Each team's score (a team scores what each of its players scores)."""
        s = self.scores
        return [s[0], s[1]]

    def winner(self) -> int | None:
        """The team ahead once the match is over (None while playing or on a tie)."""
        if not self.over or self.team_scores[0] == self.team_scores[1]:
            return None
        return 0 if self.team_scores[0] > self.team_scores[1] else 1

    # ---------------------------------------------------------------- actions
    def apply(self, action: str) -> CodepieceMatch:
        """Play one action of the deal in play; IllegalActionError (nothing changed) when not legal."""
        if self.deal_over:
            more = "the match is over" if self.over else "call next_deal() to deal the next one"
            raise IllegalActionError(f"deal {self.deal_number} is over, so {action!r} cannot be played: {more}")
        self.game.apply(action)
        self.history[-1].append(self.game.history[-1])
        if self.deal_over:
            self.results.append(self._result())
        return self

    def cpu_action(self) -> str:
        """What the match's CPU player plays now for the seat to move (from that seat's state only)."""
        if self.deal_over:
            raise IllegalActionError(f"deal {self.deal_number} is over: nobody is to move")
        seat = self.game.current_player
        bot = CodepieceCPU(seed=derived_seed(self.seed, self.deal_number, seat, len(self.game.history)))
        return bot.choose(self.game.state(seat))

    def next_deal(self) -> CodepieceGame:
        """Deal the next deal (the dealer moves one seat clockwise); only after a finished deal."""
        if not self.deal_over:
            raise IllegalActionError(f"deal {self.deal_number} is still being played ({self.game.phase}); "
                                     "finish it before dealing the next one")
        if self.over:
            raise IllegalActionError(f"the match is over: all {self.deals} deals were played")
        self._deal(self.deal_number)
        return self.game

    def _deal(self, index: int) -> None:
        self.game = CodepieceGame(seed=derived_seed(self.seed, index), dealer=(self.first_dealer + index) % 4)
        self.history.append([])

    def _result(self) -> dict[str, Any]:
        g = self.game
        return {"deal": self.deal_number, "dealer": g.dealer, "declarer": g.declarer, "bid": g.bid,
                "trump": g.trump, "tricks_won": list(g.tricks_won), "winner": g.winner,
                "made": g.winner == team_of(g.declarer), "payoffs": list(g.payoffs)}

    # ----------------------------------------------------------------- saving
    def to_json(self) -> str:
        """The match as JSON text: its settings and every action played."""
        return json.dumps({"format": FORMAT, "version": VERSION, "deals": self.deals, "seed": self.seed,
                           "first_dealer": self.first_dealer, "history": self.history})

    @classmethod
    def from_json(cls, text: str) -> CodepieceMatch:
        """Replay a match saved by ``to_json``; a ValueError says what is wrong with a bad save."""
        try:
            data = json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise ValueError(f"a saved match is JSON text from CodepieceMatch.to_json(): {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"this is not a saved Codepiece match (expected \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise ValueError(f"saved match version {data.get('version')!r} is not supported (only {VERSION})")
        missing = [k for k in ("deals", "seed", "history") if k not in data]
        if missing:
            raise ValueError(f"the saved match lacks {', '.join(missing)}")
        match = cls(data["deals"], data["seed"], data.get("first_dealer", 0))
        history = data["history"]
        if not isinstance(history, list) or not all(isinstance(d, list) for d in history):
            raise ValueError("history must be a list of deals, each a list of action strings")
        if len(history) > match.deals:
            raise ValueError(f"the save holds {len(history)} deals but the match has only {match.deals}")
        for d, actions in enumerate(history):
            if d > 0:
                if not match.deal_over:
                    raise ValueError(f"deal {d} of the save stops before the deal is over, yet deal {d + 1} follows")
                match.next_deal()
            for m, action in enumerate(actions):
                try:
                    match.apply(action)
                except IllegalActionError as exc:
                    raise ValueError(f"deal {d + 1}, move {m + 1} of the save cannot be replayed: {exc}") from None
        return match

    def __repr__(self) -> str:
        return (f"<CodepieceMatch deal {self.deal_number} of {self.deals}, dealer {self.dealer}, "
                f"scores {self.scores}>")
