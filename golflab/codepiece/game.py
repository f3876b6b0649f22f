"""The Codepiece deal: bidding, trump choice and trick play (the Codepiece rules spec).

Choices where the spec is silent:

* The deal gives 13 cards to each seat in turn from a shuffled deck (seat 0's first);
  hands are kept sorted by suit (S H D C) and rank for display.
* ``legal_actions`` lists cards in hand order.
* ``winner`` is the winning team (0 or 1); ``payoffs`` stays None until the deal is over.
* ``state`` also shows the tricks already played (``completed_tricks``): they were played
  face up, so every player may remember them (a CPU player counts cards from them).
* ``to_json()`` saves the deal (its seed, or a set deal's hands), the dealer and every
  action; ``from_json`` replays them and refuses a bad save with a ValueError (see
  ``golflab.codepiece.saves``).
"""

from __future__ import annotations

import json
import random
from typing import Any, Sequence

from ..actions import IllegalActionError
from ..cards import SUITS, Card
from ..excerpt import excerpt, json_kind
from . import saves
from .cards import CARD_ORDER, RANK_POWER, parse_card

PHASES = ("bidding", "trump", "play", "over")
BIDS = tuple(f"bid_{b}" for b in range(8, 14))
TRUMPS = tuple(f"trump_{s}" for s in SUITS)
DEFAULT_BID = 7
FORMAT = "golflab-codepiece-game"
VERSION = 1
_SORT = {c: i for i, c in enumerate(CARD_ORDER)}


def team_of(seat: int) -> int:
    """Team 0 is seats 0 and 2; team 1 is seats 1 and 3."""
    return seat % 2


def beats(card: "str | Card", best: "str | Card", led: str, trump: str | None) -> bool:
    """True when ``card`` beats ``best`` (the card winning a trick whose led suit is ``led``):
    any trump beats any non-trump; otherwise only a higher card of the led suit wins."""
    card, best = parse_card(card), parse_card(best)
    if card.suit == trump:
        return best.suit != trump or RANK_POWER[card.rank] > RANK_POWER[best.rank]
    return best.suit != trump and card.suit == led == best.suit and RANK_POWER[card.rank] > RANK_POWER[best.rank]


def trick_winner(trick: Sequence[tuple[int, "str | Card"]], trump: str | None) -> tuple[int, Card]:
    """``(seat, card)`` winning a (possibly unfinished) trick of ``(seat, card)`` pairs."""
    if not trick:
        raise ValueError("an empty trick has no winner")
    led = parse_card(trick[0][1]).suit
    best_seat, best = trick[0][0], parse_card(trick[0][1])
    for seat, card in trick[1:]:
        if beats(card, best, led, trump):
            best_seat, best = seat, parse_card(card)
    return best_seat, best


class CodepieceGame:
    """One Codepiece deal for seats 0-3 (``dealer`` deals; bidding starts at its left)."""

    def __init__(self, seed: int | None = None, dealer: int = 0) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be a whole number or None, got {excerpt(seed)}")
        deck = list(CARD_ORDER)
        random.Random(seed).shuffle(deck)
        self.seed = seed
        self._setup([deck[i * 13:(i + 1) * 13] for i in range(4)], dealer)

    @classmethod
    def from_hands(cls, hands: Sequence[Sequence["str | Card"]], dealer: int = 0) -> "CodepieceGame":
        """A deal with set hands: four lists of 13 distinct cards (codes or Cards) that make one deck."""
        if len(hands) != 4:
            raise ValueError(f"Codepiece needs exactly 4 hands, got {len(hands)}")
        parsed = [[parse_card(c) for c in hand] for hand in hands]
        for seat, hand in enumerate(parsed):
            if len(hand) != 13:
                raise ValueError(f"hand {seat} has {len(hand)} cards; every hand has 13")
        every = [c for hand in parsed for c in hand]
        if len(set(every)) != 52:
            dupes = sorted({str(c) for c in every if every.count(c) > 1})
            raise ValueError(f"the four hands must hold 52 different cards; repeated: {', '.join(dupes)}")
        game = cls.__new__(cls)
        game.seed = None
        game._setup(parsed, dealer)
        return game

    def _setup(self, hands: list[list[Card]], dealer: int) -> None:
        if isinstance(dealer, bool) or dealer not in (0, 1, 2, 3):
            raise ValueError(f"dealer must be a seat 0-3, got {dealer!r}")
        self.dealer = dealer
        self._hands = [sorted(h, key=_SORT.__getitem__) for h in hands]
        self._dealt = [[str(c) for c in h] for h in self._hands]
        self.phase = "bidding"
        self.current_player = (dealer + 1) % 4
        self.bidding_history: list[tuple[int, str]] = []
        self.bid: int | None = None
        self.declarer: int | None = None
        self.trump: str | None = None
        self.tricks_won = [0, 0]
        self.current_trick: list[tuple[int, Card]] = []
        self.completed_tricks: list[tuple[list[tuple[int, Card]], int]] = []
        self.winner: int | None = None
        self.payoffs: list[int] | None = None
        self.history: list[str] = []

    # ----------------------------------------------------------------- queries
    def hand(self, seat: int) -> list[Card]:
        return list(self._hands[seat])

    def legal_actions(self) -> list[str]:
        if self.phase == "bidding":
            high = self.bid or DEFAULT_BID
            return ["pass"] + [b for b in BIDS if int(b[4:]) > high]
        if self.phase == "trump":
            return list(TRUMPS)
        if self.phase == "play":
            return [str(c) for c in self._legal_cards(self.current_player)]
        return []

    def _legal_cards(self, seat: int) -> list[Card]:
        hand = self._hands[seat]
        if not self.current_trick:
            return list(hand)
        led = self.current_trick[0][1].suit
        legal = [c for c in hand if c.suit == led] or list(hand)
        win_seat, win_card = self._winning()
        if team_of(win_seat) != team_of(seat):
            beating = [c for c in legal if self._beats(c, win_card, led)]
            if beating:
                return beating
        return legal

    def _beats(self, card: Card, best: Card, led: str) -> bool:
        return beats(card, best, led, self.trump)

    def _winning(self) -> tuple[int, Card]:
        return trick_winner(self.current_trick, self.trump)

    # ----------------------------------------------------------------- actions
    def apply(self, action: str) -> "CodepieceGame":
        """Play one action string; an illegal one raises IllegalActionError and changes nothing."""
        legal = self.legal_actions()
        text = action.strip() if isinstance(action, str) else action
        if isinstance(text, str) and self.phase == "play":
            try:
                text = str(parse_card(text))
            except ValueError:
                pass
        if text not in legal:
            raise IllegalActionError(
                f"illegal action {excerpt(action)} in phase {self.phase} (seat {self.current_player} to move): "
                f"legal actions are {', '.join(legal) or 'none'}"
            )
        seat = self.current_player
        self.history.append(text)
        if self.phase == "bidding":
            self._bid(seat, text)
        elif self.phase == "trump":
            self.trump = text[-1]
            self.phase = "play"
            self.current_player = self.declarer
        else:
            self._play(seat, parse_card(text))
        return self

    def _bid(self, seat: int, action: str) -> None:
        self.bidding_history.append((seat, action))
        if action != "pass":
            self.bid = int(action[4:])
            self.declarer = seat
        if seat != self.dealer:
            self.current_player = (seat + 1) % 4
            return
        if self.bid is None:  # all passed: the first bidder takes the default bid
            self.bid = DEFAULT_BID
            self.declarer = (self.dealer + 1) % 4
        self.phase = "trump"
        self.current_player = self.declarer

    def _play(self, seat: int, card: Card) -> None:
        self._hands[seat].remove(card)
        self.current_trick.append((seat, card))
        if len(self.current_trick) < 4:
            self.current_player = (seat + 1) % 4
            return
        winner, _ = self._winning()
        self.completed_tricks.append((self.current_trick, winner))
        self.current_trick = []
        self.tricks_won[team_of(winner)] += 1
        self.current_player = winner
        bidders = team_of(self.declarer)
        defenders = 1 - bidders
        if self.tricks_won[defenders] >= 14 - self.bid:
            self._finish(defenders)
        elif len(self.completed_tricks) == 13:
            self._finish(bidders)

    def _finish(self, winning_team: int) -> None:
        bidders = team_of(self.declarer)
        b = self.bid
        if winning_team == bidders:
            pay = {bidders: b, 1 - bidders: -b}
        else:
            pay = {bidders: -2 * b, 1 - bidders: 2 * b}
        self.payoffs = [pay[team_of(s)] for s in range(4)]
        self.winner = winning_team
        self.phase = "over"

    # ----------------------------------------------------------------- views
    def state(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: never another player's hand."""
        if isinstance(seat, bool) or seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0-3, got {seat!r}")
        return {
            "seat": seat,
            "phase": self.phase,
            "current_player": self.current_player,
            "dealer": self.dealer,
            "hand": [str(c) for c in self._hands[seat]],
            "legal_actions": self.legal_actions() if seat == self.current_player else [],
            "bid": self.bid,
            "declarer": self.declarer,
            "trump": self.trump,
            "tricks_won": list(self.tricks_won),
            "current_trick": [(s, str(c)) for s, c in self.current_trick],
            "completed_tricks": [([(s, str(c)) for s, c in trick], won) for trick, won in self.completed_tricks],
            "bidding_history": list(self.bidding_history),
            "winner": self.winner,
            "payoffs": list(self.payoffs) if self.payoffs is not None else None,
        }

    # ----------------------------------------------------------------- saving
    def to_json(self) -> str:
        """The deal as JSON text: its seed (a set deal: its hands), the dealer and every action."""
        deal = {"seed": self.seed} if self.seed is not None else {"hands": self._dealt}
        return json.dumps({"format": FORMAT, "version": VERSION, **deal, "dealer": self.dealer,
                           "history": self.history})

    @classmethod
    def from_json(cls, text: "str | bytes") -> "CodepieceGame":
        """Replay a deal saved by ``to_json``; a ValueError says what is wrong with a bad save."""
        what = "saved Codepiece deal"
        data = saves.load(text, what, FORMAT, VERSION, ("dealer", "history"), ("seed", "hands"))
        if ("seed" in data) == ("hands" in data):
            raise ValueError(f"the {what} must hold either its seed or its hands (a set deal), not "
                             f"{'both' if 'seed' in data else 'neither'}")
        dealer = saves.whole("the save's dealer", data["dealer"], 0, 3)
        history = saves.actions("the save's history", data["history"])
        if "seed" in data:
            if type(data["seed"]) is not int:
                raise ValueError(f"the save's seed must be the whole number that dealt the cards, got "
                                 f"{json_kind(data['seed'])}")
            game = cls(data["seed"], dealer)
        else:
            hands = data["hands"]
            if type(hands) is not list or not all(
                    type(h) is list and all(type(c) is str and len(c) <= 3 for c in h) for h in hands):
                raise ValueError("the save's hands must be 4 lists of 13 card codes such as \"AS\"")
            try:
                game = cls.from_hands(hands, dealer)
            except ValueError as exc:
                raise ValueError(f"the save's hands are not a deal: {exc}") from None
            if game._dealt != hands:
                raise ValueError("the save's hands are not written as a save writes them (each in suit order "
                                 "S H D C, 2 up to A, in codes such as \"AS\")")
        replay(game, history, "the save")
        return game

    def __repr__(self) -> str:
        return f"<CodepieceGame {self.phase}, seat {self.current_player} to move, tricks {self.tricks_won}>"


def replay(game: CodepieceGame, history: Sequence[str], where: str) -> None:
    """Play ``history`` on ``game``; a move that cannot be played is a ValueError naming it."""
    for i, action in enumerate(history):
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise ValueError(f"move {i + 1} of {where} cannot be replayed: {exc}") from None
        if game.history[-1] != action:
            raise ValueError(f"move {i + 1} of {where} ({excerpt(action)}) is not written as a save writes it "
                             f"({game.history[-1]!r})")
