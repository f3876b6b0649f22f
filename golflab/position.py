"""Positions: one moment of a hole as one line of text, the notation teachers share.

``str(position)`` writes it and ``Position.parse(text)`` reads it back, exactly; the grammar
is in ``docs/position-notation.md``. For example (seat 1 drew the 8 of diamonds)::

    KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 36; seat 1 holds 8D

A position is what one seat (``seat``) may see, plus what a teacher chose to set up: a
face-down card may be known, written in brackets, ``(QS)``; it is never shown to a seat and
the coach never reads it, but ``game()`` deals it there. Every position is checked when made:
an impossible one (a card more often than the decks hold, cards that do not add up to the
decks, a turn that cannot happen) is a ValueError saying what is impossible, and so is text
that is not a position.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from .actions import SKIP
from .cards import Card, build_deck
from .game import Game, Observation, Phase
from .rules import DEFAULTS, OPTION, Rules
from .ruletext import parse_rule, rule_text

#: The longest text ``parse`` reads: six seats with every rule written stay far below it.
MAX_CHARS = 4000
#: What the seat to move is doing (``Position.stage``), as the notation writes it after ``seat N``.
STAGES = {
    "turn up": "to turn up",      # the initial flips
    "draw": "to draw",            # the start of a turn
    "holds": "holds",             # drawn from the deck: swap or discard (``holds ?`` when unseen)
    "took": "took",               # taken from the discard pile: must swap
    "flip": "to flip",            # flip after a discard (flip_mode always, or endgame: may skip)
    "hole over": "ended the hole",
    "game over": "ended the game",
}
_WORDS = {words: stage for stage, words in STAGES.items()}
_AWAITING = {"turn up": "initial_flip", "draw": "draw", "holds": "place", "took": "place", "flip": "flip"}
_GRAMMAR = "see docs/position-notation.md"


def _refuse(what: str) -> ValueError:
    return ValueError(f"impossible position: {what}")


def _bad(what: str) -> ValueError:
    return ValueError(f"not a position: {what} ({_GRAMMAR})")


@dataclass(frozen=True)
class Position:
    """One moment of a hole as ``seat`` sees it (a frozen value; checked when made).

    ``cards[s][i]``: seat s's card at grid position i, None where face down and unknown;
    ``up[s][i]``: whether it is face up. ``discard``: the discard pile, top last. ``deck``:
    cards left in the draw pile. ``mover``: the seat to move (or that ended the hole);
    ``stage``: one of ``STAGES``; ``held``: the card the mover holds (``holds``/``took``;
    None when ``seat`` cannot see it). ``finisher``: the seat that went out, if any.
    ``hole``, ``totals`` and ``rules`` as in a game.
    """

    cards: tuple
    up: tuple
    discard: tuple
    deck: int
    mover: int
    stage: str
    held: Card | None = None
    finisher: int | None = None
    seat: int | None = None
    hole: int = 1
    totals: tuple | None = None
    rules: Rules = Rules(**DEFAULTS)

    def __post_init__(self) -> None:
        fix = object.__setattr__
        fix(self, "cards", tuple(tuple(g) for g in self.cards))
        fix(self, "up", tuple(tuple(bool(u) for u in g) for g in self.up))
        fix(self, "discard", tuple(self.discard))
        if self.seat is None:
            fix(self, "seat", self.mover)
        if self.totals is None:
            fix(self, "totals", (0,) * len(self.cards))
        fix(self, "totals", tuple(self.totals))
        _check(self)

    # ------------------------------------------------------------ making one
    @classmethod
    def of(cls, source: "Observation | Game") -> "Position":
        """The position an observation shows (a game: as its seat to move sees it)."""
        obs = source.observation(source.current_player) if isinstance(source, Game) else source
        if not isinstance(obs, Observation):
            raise ValueError(f"Position.of takes an Observation or a Game, got {type(source).__name__}")
        phase = obs.phase
        if phase is Phase.ROUND_OVER or phase is Phase.GAME_OVER:
            stage = "hole over" if phase is Phase.ROUND_OVER else "game over"
        elif phase is Phase.INITIAL_FLIP:
            stage = "turn up"
        elif obs.awaiting == "place":
            stage = "took" if obs.taken is not None else "holds"
        else:
            stage = obs.awaiting
        held = obs.taken if stage == "took" else obs.drawn if stage == "holds" else None
        return cls(cards=obs.grids, up=[[c is not None for c in g] for g in obs.grids], discard=obs.discard_pile,
                   deck=obs.draw_pile_size, mover=obs.current_player, stage=stage, held=held,
                   finisher=obs.finisher, seat=obs.seat, hole=obs.round, totals=obs.totals, rules=obs.rules)

    @classmethod
    def parse(cls, text: str) -> "Position":
        """Read a position's text (its grammar: ``docs/position-notation.md``). Anything but a
        possible position is a ValueError saying what is wrong."""
        if not isinstance(text, str):
            raise _bad(f"expected text, got {type(text).__name__}")
        if len(text) > MAX_CHARS:
            raise _bad(f"{len(text):,} characters is too long (a position is one line, at most {MAX_CHARS:,})")
        parts = [" ".join(p.split()) for p in text.split(";")]
        if len(parts) < 4:
            raise _bad("expected at least four parts separated by ';': the grids, the discard pile, the deck "
                       f"and the turn, got {len(parts)}")
        cards, up = _grids(parts[0])
        discard = _discard(parts[1])
        deck = _number(_after(parts[2], "deck", "the third part"), "the deck", 0)
        turn = _turn(parts[3], len(cards))
        hole, totals, rules = 1, None, Rules(**DEFAULTS)
        rest = parts[4:]
        if rest and rest[0].startswith("hole"):
            hole, totals = _score(rest.pop(0), len(cards))
        if rest and rest[0].startswith("rules"):
            rules = _rules(rest.pop(0))
        if rest:
            raise _bad(f"unexpected part {_quote(rest[0])}: after the turn come 'hole N, totals ...' and then "
                       "'rules name=value ...', each at most once")
        return cls(cards=cards, up=up, discard=discard, deck=deck, hole=hole, totals=totals, rules=rules, **turn)

    # ------------------------------------------------------------ writing it
    def __str__(self) -> str:
        return position_text(self.cards, self.up, self.discard, self.deck, self.mover, self.stage, self.held,
                             self.finisher, self.seat, self.hole, self.totals, self.rules)

    # ------------------------------------------------------------ using it
    @property
    def phase(self) -> Phase:
        """The game's phase at this position."""
        if self.stage == "turn up":
            return Phase.INITIAL_FLIP
        if self.stage in ("hole over", "game over"):
            return Phase.ROUND_OVER if self.stage == "hole over" else Phase.GAME_OVER
        return Phase.FINAL_TURN if self.finisher is not None else Phase.PLAYING

    def game(self, seed: int | None = 0, players: "Sequence[str] | None" = None) -> Game:
        """A game standing at this position: the unknown cards (face down, the deck, a held card
        ``seat`` cannot see) dealt from the cards the position leaves, shuffled by ``seed``.
        ``players``: the seats' names (one distinct name a seat; None: ``Seat 0``, ``Seat 1``, ...)."""
        n = len(self.cards)
        names = _names(players, n)
        left = Counter(build_deck(self.rules.decks_for(n), self.rules.jokers))
        left.subtract(_known(self))
        pool = sorted(left.elements(), key=str)
        random.Random(seed).shuffle(pool)
        grids = [[c if c is not None else pool.pop() for c in g] for g in self.cards]
        held = self.held if self.held is not None or self.stage != "holds" else pool.pop()
        obs = Observation(
            seat=self.mover, phase=self.phase, round=self.hole, current_player=self.mover,
            grids=[[c if u else None for c, u in zip(g, us)] for g, us in zip(grids, self.up)],
            discard_top=self.discard[-1] if self.discard else None, drawn=held, draw_pile_size=self.deck,
            legal_actions=[SKIP] if self.stage == "flip" and self.rules.flip_mode == "endgame" else [],
            rules=self.rules, totals=list(self.totals), players=names,
            discard_pile=self.discard, taken=held if self.stage == "took" else None, holding=held is not None,
            awaiting=_AWAITING.get(self.stage), first_player=(self.hole - 1) % n, finisher=self.finisher,
            turns=(0,) * n, holes_won=(0,) * n)
        return Game.from_position(obs, grids, pool, seed)

    def observation(self) -> Observation:
        """What ``seat`` sees at this position (``hint`` takes it when ``seat`` is to move)."""
        return self.game(0).observation(self.seat)


def _names(players: "Sequence[str] | None", n: int) -> tuple[str, ...]:
    """The seats' names for a game played on from a position (None: ``Seat 0``, ``Seat 1``, ...)."""
    if players is None:
        return tuple(f"Seat {i}" for i in range(n))
    names = (players,) if isinstance(players, str) else tuple(players)
    if len(names) != n or any(not isinstance(x, str) or not x.strip() for x in names) or len(set(names)) != n:
        raise ValueError(f"players must be {n} distinct names, one for each seat of the position, got {list(names)!r}")
    return names


def position_text(cards, up, discard, deck: int, mover: int, stage: str, held: Card | None = None,
                  finisher: int | None = None, seat: int | None = None, hole: int = 1, totals=None,
                  rules: Rules | None = None) -> str:
    """The notation of these parts (``Position``'s fields), written without checking them: for
    code that sets a position up piece by piece and lets ``Position.parse`` say what is wrong."""
    grids = " / ".join(" ".join(_slot_text(c, u) for c, u in zip(cs, us)) for cs, us in zip(cards, up))
    parts = [grids, "discard " + (" ".join(map(str, discard)) or "empty"), f"deck {deck}"]
    turn = f"seat {mover} {STAGES[stage]}"
    if stage in ("holds", "took"):
        turn += f" {held if held is not None else '?'}"
    if finisher is not None:
        turn += f", seat {finisher} went out"
    if seat is not None and seat != mover:
        turn += f", seen by seat {seat}"
    parts.append(turn)
    if hole != 1 or any(totals or ()):
        parts.append(f"hole {hole}, totals {' '.join(map(str, totals))}")
    changes = rules.changes() if rules is not None else {}
    if changes:
        parts.append("rules " + " ".join(rule_text(k, v) for k, v in changes.items()))
    return "; ".join(parts)


# ---------------------------------------------------------------- reading the parts
def _quote(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _after(part: str, word: str, where: str) -> str:
    head, _, rest = part.partition(" ")
    if head != word or not rest:
        raise _bad(f"{where} must be {word!r} and what follows, got {_quote(part)}")
    return rest


def _number(text: str, what: str, low: int, high: int | None = None, signed: bool = False) -> int:
    digits = text[1:] if signed and text[:1] == "-" else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 6:
        raise _bad(f"{what} must be a whole number, got {_quote(text)}")
    value = int(text)
    if value < low or (high is not None and value > high):
        raise _bad(f"{what} must be from {low}" + (f" to {high}" if high is not None else " up") + f", got {value}")
    return value


def _card(text: str, where: str) -> Card:
    try:
        return Card.parse(text)
    except ValueError:
        raise _bad(f"{where}: {_quote(text)} is not a card (write rank then suit, e.g. KH, TD, or JK)") from None


def _grids(part: str) -> tuple[list, list]:
    grids = [g.split() for g in part.split("/")]
    if not 2 <= len(grids) <= 6:
        raise _bad(f"the first part holds one grid per seat, 2 to 6 separated by '/', got {len(grids)}")
    cards, up = [], []
    for seat, slots in enumerate(grids):
        if len(slots) != 6:
            raise _bad(f"seat {seat}'s grid must hold 6 cards (positions 0-5), got {len(slots)}")
        row_cards, row_up = [], []
        for i, slot in enumerate(slots):
            where = f"seat {seat}, position {i}"
            if slot == "?":
                row_cards.append(None)
                row_up.append(False)
            elif slot.startswith("(") and slot.endswith(")") and len(slot) > 2:
                row_cards.append(_card(slot[1:-1], where))
                row_up.append(False)
            else:
                row_cards.append(_card(slot, where))
                row_up.append(True)
        cards.append(row_cards)
        up.append(row_up)
    return cards, up


def _discard(part: str) -> list:
    rest = _after(part, "discard", "the second part")
    if rest == "empty":
        return []
    return [_card(c, "the discard pile") for c in rest.split()]


def _seat(text: str, n: int, what: str = "seat") -> int:
    return _number(text, what, 0, n - 1)


def _turn(part: str, n: int) -> dict[str, Any]:
    clauses = [c.strip() for c in part.split(",")]
    head = clauses[0].split(" ")
    if len(head) < 3 or head[0] != "seat":
        raise _bad(f"the fourth part is the turn, e.g. 'seat 1 to draw', got {_quote(part)}")
    turn: dict[str, Any] = {"mover": _seat(head[1], n)}
    words = " ".join(head[2:])
    stage = _WORDS.get(words)
    if stage is None and head[2] in ("holds", "took") and len(head) == 4:
        stage = head[2]
        turn["held"] = None if (stage == "holds" and head[3] == "?") else _card(head[3], "the card held")
    if stage is None:
        allowed = ", ".join(f"'{w}'" + (" CARD" if s in ("holds", "took") else "") for s, w in STAGES.items())
        raise _bad(f"the turn says {_quote(words)}: after 'seat N' write one of {allowed}")
    turn["stage"] = stage
    for clause in clauses[1:]:
        words = clause.split(" ")
        if len(words) == 4 and words[0] == "seat" and words[2:] == ["went", "out"] and "finisher" not in turn:
            turn["finisher"] = _seat(words[1], n, "the seat that went out")
        elif len(words) == 4 and words[:3] == ["seen", "by", "seat"] and "seat" not in turn:
            turn["seat"] = _seat(words[3], n, "the seat that sees the position")
        else:
            raise _bad(f"after the turn may come ', seat N went out' and ', seen by seat N', got {_quote(clause)}")
    return turn


def _score(part: str, n: int) -> tuple[int, list]:
    hole_text, _, totals_text = part.partition(",")
    hole = _number(_after(hole_text.strip(), "hole", "the part after the turn"), "the hole", 1, 18)
    totals = _after(totals_text.strip(), "totals", "after the hole").split()
    if len(totals) != n:
        raise _bad(f"totals must give one number for each of the {n} seats, got {len(totals)}")
    return hole, [_number(t, "a total", -99_999, signed=True) for t in totals]


def _rules(part: str) -> Rules:
    options: dict[str, Any] = {}
    for item in _after(part, "rules", "the last part").split():
        name, sep, value = item.partition("=")
        if not sep or name not in OPTION:
            raise _bad(f"rules are written name=value with a rule's name ({', '.join(OPTION)}), got {_quote(item)}")
        if name in options:
            raise _bad(f"the rule {name} is written twice")
        options[name] = parse_rule(name, value)
    try:
        return Rules(**{**DEFAULTS, **options})
    except ValueError as exc:
        raise _bad(f"bad rule: {exc}") from None


def _slot_text(card: Card | None, up: bool) -> str:
    if up:
        return str(card)
    return "?" if card is None else f"({card})"


# ---------------------------------------------------------------- what is possible
def _known(pos: Position) -> list:
    known = [c for g in pos.cards for c in g if c is not None] + list(pos.discard)
    return known + ([pos.held] if pos.held is not None else [])


def _check(pos: Position) -> None:
    """Refuse an impossible position, saying what is impossible."""
    if not isinstance(pos.rules, Rules):
        raise ValueError(f"rules must be a golflab.Rules, got {type(pos.rules).__name__}")
    n = len(pos.cards)
    if not 2 <= n <= 6 or len(pos.up) != n or any(len(g) != 6 for g in (*pos.cards, *pos.up)):
        raise _refuse(f"golf is 2 to 6 seats of six cards each, got {n} seats")
    for s, (g, us) in enumerate(zip(pos.cards, pos.up)):
        for i, (c, u) in enumerate(zip(g, us)):
            if u and c is None:
                raise _refuse(f"seat {s}'s card {i} is face up but has no card")
            if c is not None and not isinstance(c, Card):
                raise ValueError(f"cards must be golflab Cards or None, got {c!r}")
    if pos.stage not in STAGES:
        raise ValueError(f"stage must be one of {', '.join(STAGES)}, got {pos.stage!r}")
    for what, seat in (("mover", pos.mover), ("seat", pos.seat), ("finisher", pos.finisher)):
        if (seat is not None or what != "finisher") and (type(seat) is not int or not 0 <= seat < n):
            raise _refuse(f"{what} must be a seat from 0 to {n - 1}, got {seat!r}")
    if len(pos.totals) != n or any(type(t) is not int for t in pos.totals):
        raise ValueError(f"totals must be {n} whole numbers, one per seat")
    if type(pos.hole) is not int or not 1 <= pos.hole <= pos.rules.rounds:
        raise _refuse(f"hole {pos.hole} in a game of {pos.rules.rounds} hole(s)")
    _check_cards(pos, n)
    _check_turn(pos, n)


def _check_cards(pos: Position, n: int) -> None:
    decks = pos.rules.decks_for(n)
    full = build_deck(decks, pos.rules.jokers)
    if len(full) < 6 * n + 1:
        raise _refuse(f"{decks} deck(s) hold {len(full)} cards, too few to deal 6 to each of {n} seats")
    allowed = Counter(full)
    known = _known(pos)
    for card, count in sorted(Counter(known).items(), key=lambda kv: str(kv[0])):
        if count > allowed[card]:
            held = f"{decks} deck(s) with jokers {pos.rules.jokers} hold it {allowed[card]} time(s)"
            raise _refuse(f"{card} is there {count} times, but {held}")
    if type(pos.deck) is not int or pos.deck < 0:
        raise _refuse(f"the deck must hold a whole number of cards, got {pos.deck!r}")
    unknown = sum(c is None for g in pos.cards for c in g) + (pos.stage == "holds" and pos.held is None)
    placed = len(known) + unknown + pos.deck
    if placed != len(full):
        where = (f"the grids hold {6 * n}, the discard pile {len(pos.discard)}"
                 + (", the hand 1" if pos.stage in ("holds", "took") else "") + f" and the deck {pos.deck}")
        fits = len(full) - placed + pos.deck
        fix = f"the deck would hold {fits}" if fits >= 0 else "there are too many cards"
        if placed < len(full):
            fix += " (or write the cards under the discard pile's top: discard 9C 7H 4S, top last)"
        raise _refuse(f"the cards do not add up: {decks} deck(s) hold {len(full)} cards, {where}: {fix}")


def _check_turn(pos: Position, n: int) -> None:
    stage, mover, up, rules = pos.stage, pos.mover, pos.up, pos.rules
    down = [g.count(False) for g in up]
    if stage not in ("holds", "took") and pos.held is not None:
        raise _refuse(f"seat {mover} holds no card while {STAGES[stage]}")
    if stage == "took" and pos.held is None:
        raise _refuse("a card taken from the discard pile is seen by everyone: write which")
    if stage == "holds" and (pos.held is not None) != (pos.seat == mover):
        raise _refuse(f"seat {pos.seat} cannot see the card seat {mover} drew: write 'holds ?'"
                      if pos.held is not None else f"seat {mover} sees the card it drew: write which")
    if not pos.discard and stage != "took":
        raise _refuse("the discard pile is empty only just after its only card was taken")
    if stage in ("hole over", "game over"):
        if any(down):
            raise _refuse("when a hole is over every card is face up")
        if (stage == "game over") != (pos.hole == rules.rounds):
            raise _refuse(f"the game ends after hole {rules.rounds}, not hole {pos.hole}")
        return
    if stage == "turn up":
        _check_initial_flips(pos, n, down)
        return
    flips = rules.initial_flips
    short = next((s for s in range(n) if 6 - down[s] < flips), None)
    if short is not None:
        raise _refuse(f"seat {short} has fewer than the {flips} face-up cards every seat turns up at the start")
    if not down[mover]:
        raise _refuse(f"seat {mover} is to move with every card face up: it would have gone out")
    if pos.finisher is None:
        out = next((s for s in range(n) if not down[s]), None)
        if out is not None:
            raise _refuse(f"seat {out} has every card face up, so it went out: write ', seat {out} went out'")
    else:
        if down[pos.finisher]:
            raise _refuse(f"seat {pos.finisher} went out with a face-down card")
        done = [(pos.finisher + k) % n for k in range(1, (mover - pos.finisher) % n)]
        hidden = next((s for s in done if down[s]), None)
        if hidden is not None:
            raise _refuse(f"seat {hidden} had its final turn before seat {mover}, so its cards are face up")
    if stage == "flip":
        if rules.flip_mode == "never":
            raise _refuse("a flip after a discard needs flip_mode always or endgame")
        if rules.flip_mode == "endgame" and min(down) > 1:
            raise _refuse("under flip_mode endgame a flip comes only when some seat has at most 1 face-down card")


def _check_initial_flips(pos: Position, n: int, down: list) -> None:
    flips = pos.rules.initial_flips
    if not flips:
        raise _refuse("there is no turning up at the start with initial_flips 0")
    if pos.finisher is not None or len(pos.discard) != 1:
        raise _refuse("while the cards are turned up at the start nobody has played: the discard pile is one card")
    first = (pos.hole - 1) % n
    order = [(first + k) % n for k in range(n)]
    at = order.index(pos.mover)
    for k, seat in enumerate(order):
        want = flips if k < at else 0 if k > at else None
        shown = 6 - down[seat]
        if (want is None and shown >= flips) or (want is not None and shown != want):
            turned = f"fewer than {flips}" if want is None else str(want)
            raise _refuse(f"seat {first} turns up first in hole {pos.hole}, so when seat {pos.mover} turns up, "
                          f"seat {seat} has {turned} card(s) face up, not {shown}")
