"""``CodepieceMatch``: several Codepiece deals in a row, with running scores.

* Deal ``i`` (0-based) is dealt by seat ``(first_dealer + i) % 4`` (the dealer moves one
  seat clockwise each deal) from a deck shuffled by a seed derived from the match seed.
* ``scores`` per seat and ``team_scores`` are the payoffs of the finished deals summed
  (partners always have equal scores).
* The deals themselves are the record: ``history``, ``results``, the scores and the save
  are read from each deal's own history, so they follow every move however it was played
  (``match.apply`` or ``match.game.apply``).
* A finished deal waits for ``next_deal()``; the match is over after the last deal.
* ``cpu_action()`` is what a ``CodepieceCPU`` seeded from the match seed, the deal, the
  seat and the moves so far plays for the seat to move: one seed drives the deals and
  every CPU choice, so a saved match continues exactly as the uninterrupted one would.
* ``to_json()`` saves the seed and every action; ``from_json`` replays them. A bad save
  is a ValueError saying what is wrong (checked as ``golflab.codepiece.saves`` says); a
  refused action changes nothing.
"""

from __future__ import annotations

import json
import random
from typing import Any

from ..actions import IllegalActionError
from ..excerpt import excerpt
from ..seeding import derived_seed
from . import saves
from .cpu import CodepieceCPU
from .game import CodepieceGame, replay, team_of

FORMAT = "golflab-codepiece-match"
VERSION = 1
MAX_DEALS = 100
#: The largest seed: the deals' seeds are mixed modulo 2**63 (``seeding.derived_seed``), so a larger one
#: would repeat a smaller one's match.
MAX_SEED = 2**63 - 1


class CodepieceMatch:
    """A match of ``deals`` Codepiece deals (seed None: a random seed)."""

    def __init__(self, deals: int = 4, seed: int | None = None, first_dealer: int = 0) -> None:
        self.deals = saves.whole("deals", deals, 1, MAX_DEALS)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self.seed = saves.whole("seed", seed, 0, MAX_SEED)
        self.first_dealer = saves.whole("first_dealer", first_dealer, 0, 3)
        self._games: list[CodepieceGame] = []
        self._deal(0)

    # ------------------------------------------------------------------ state
    @property
    def game(self) -> CodepieceGame:
        """The deal in play (or the last one)."""
        return self._games[-1]

    @property
    def history(self) -> list[list[str]]:
        """Every action played, one list per deal dealt so far (read from the deals themselves)."""
        return [list(g.history) for g in self._games]

    @property
    def results(self) -> list[dict[str, Any]]:
        """One summary per finished deal: dealer, declarer, bid, trump, tricks, winner, payoffs."""
        return [self._result(i, g) for i, g in enumerate(self._games) if g.phase == "over"]

    @property
    def deal_number(self) -> int:
        """The deal in play (or the last one), counting from 1."""
        return len(self._games)

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
            raise IllegalActionError(f"deal {self.deal_number} is over, so {excerpt(action)} cannot be played: {more}")
        self.game.apply(action)
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
        self._games.append(CodepieceGame(seed=derived_seed(self.seed, index),
                                         dealer=(self.first_dealer + index) % 4))

    @staticmethod
    def _result(index: int, g: CodepieceGame) -> dict[str, Any]:
        return {"deal": index + 1, "dealer": g.dealer, "declarer": g.declarer, "bid": g.bid,
                "trump": g.trump, "tricks_won": list(g.tricks_won), "winner": g.winner,
                "made": g.winner == team_of(g.declarer), "payoffs": list(g.payoffs)}

    # ----------------------------------------------------------------- saving
    def to_json(self) -> str:
        """The match as JSON text: its settings and every action played."""
        return json.dumps({"format": FORMAT, "version": VERSION, "deals": self.deals, "seed": self.seed,
                           "first_dealer": self.first_dealer, "history": self.history})

    @classmethod
    def from_json(cls, text: "str | bytes") -> CodepieceMatch:
        """Replay a match saved by ``to_json``; a ValueError says what is wrong with a bad save."""
        data = saves.load(text, "saved Codepiece match", FORMAT, VERSION, ("deals", "seed", "first_dealer", "history"),
                          limit=saves.max_chars(MAX_DEALS))
        if data["seed"] is None:
            raise ValueError("the save's seed is null: a saved match holds the whole number that deals its cards "
                             "and drives its CPU players")
        match = cls(saves.whole("the save's deals", data["deals"], 1, MAX_DEALS),
                    saves.whole("the save's seed", data["seed"], 0, MAX_SEED),
                    saves.whole("the save's first_dealer", data["first_dealer"], 0, 3))
        history = data["history"]
        if type(history) is not list or not history:
            raise ValueError("the save's history must be a list with one list of actions per deal dealt")
        if len(history) > match.deals:
            raise ValueError(f"the save holds {len(history)} deals but the match has only {match.deals}")
        for d, actions in enumerate(history):
            if d > 0:
                if not match.deal_over:
                    raise ValueError(f"deal {d} of the save stops before the deal is over, yet deal {d + 1} follows")
                match.next_deal()
            replay(match.game, saves.actions(f"deal {d + 1} of the save", actions), f"deal {d + 1} of the save")
        return match

    def __repr__(self) -> str:
        return (f"<CodepieceMatch deal {self.deal_number} of {self.deals}, dealer {self.dealer}, "
                f"scores {self.scores}>")
