"""The golf state machine (spec sections 3-7).

A game is its players, rules, seed and history: every random choice (the shuffles)
comes from one ``random.Random(seed)``, so ``Game.replay`` and ``Game.from_json``
continue exactly where the original would.

Choices where the spec is silent:

* The deal goes one card at a time from the top of the shuffled deck, seat 0's grid
  first (positions 0-5), then seat 1's, and so on; then one card starts the discard pile.
* After the last hole is scored the game moves straight to ``game_over`` (there is
  no ``round_over`` pause to leave with ``next_round``).
* The stall guard only ends a hole that is still in ``playing``: once someone has
  gone out, the final turns always complete.
* A draw from an empty draw pile that finds nothing to reshuffle ends the hole at
  once; it is scored with the finisher, if there already is one.
* The endgame optional flip looks at the face-down counts after the discard.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from . import savefile
from .actions import DISCARD, DRAW, KNOCK, NOTATION, TAKE, Action, IllegalActionError
from .cards import Card, build_deck
from .legality import Refusal
from .legality import is_legal as _is_legal
from .legality import legal_actions as _legal_actions
from .legality import why_illegal as _why_illegal
from .rules import OPTION, OPTIONS, Rules
from .scoring import RoundBreakdown, round_breakdown

if TYPE_CHECKING:
    from .position import Position

_ACTIONS = Action._by_text  # notation -> the interned Action
JSON_FORMAT = savefile.FORMAT
JSON_VERSION = savefile.VERSION


class Phase(str, Enum):
    """Where a game stands. Compares equal to its string value (``"playing"``)."""

    INITIAL_FLIP = "initial_flip"
    PLAYING = "playing"
    FINAL_TURN = "final_turn"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Counters:
    """A position's counters that an observation implies (``Observation.counters``):
    ``held_source`` ("draw", "take" or None), ``flip_optional`` (the flip may be skipped),
    ``pending`` (the seats still to take their final turn, the one to move first),
    ``flips_done`` and ``seats_flipped`` (initial flips so far by the seat to move, and seats
    done with theirs: meaningful in the initial-flip phase)."""

    held_source: str | None
    flip_optional: bool
    pending: tuple
    flips_done: int
    seats_flipped: int


@dataclass(frozen=True)
class Observation:
    """What one seat may see. A plain value: it holds no reference to the game.

    ``grids[s][i]`` is the card at seat s, position i, or None while it is face down.
    ``drawn`` is the card this seat holds after drawing or taking (else None);
    ``taken`` is the card the current player took from the discard pile, which
    everybody saw (else None). A card drawn from the pile by another seat is never shown.
    """

    seat: int
    phase: Phase
    round: int
    current_player: int
    grids: list
    discard_top: Card | None
    drawn: Card | None
    draw_pile_size: int
    legal_actions: list
    rules: Rules
    totals: list
    players: tuple
    discard_pile: tuple
    taken: Card | None
    holding: bool
    awaiting: str | None
    first_player: int
    finisher: int | None
    turns: tuple
    holes_won: tuple

    @classmethod
    def of_position(cls, rules: Rules, grids: Sequence[Sequence], *, drawn: Card | None = None,
                    draw_pile_size: int = 0, discard_pile: Sequence[Card] = (),
                    players: Sequence[str] | None = None) -> "Observation":
        """Seat 0's view of a position set up by hand (calculators, teaching): ``grids`` one list
        of six per seat (None face down), seat 0 to move in the first hole's playing phase, and
        holding ``drawn`` (drawn from the pile, so it must be placed) if given. No legal actions
        are listed and every count (totals, turns, holes won) is 0."""
        n = len(grids)
        pile = tuple(discard_pile)
        return cls(
            seat=0, phase=Phase.PLAYING, round=1, current_player=0, grids=[list(g) for g in grids],
            discard_top=pile[-1] if pile else None, drawn=drawn, draw_pile_size=draw_pile_size, legal_actions=[],
            rules=rules, totals=[0] * n,
            players=tuple(players) if players is not None else tuple(f"Player {i + 1}" for i in range(n)),
            discard_pile=pile, taken=None, holding=drawn is not None, awaiting="place" if drawn is not None else "draw",
            first_player=0, finisher=None, turns=(0,) * n, holes_won=(0,) * n,
        )

    def counters(self) -> "Counters":
        """What a game standing where this observation shows keeps beyond what it shows (for
        code that sets up such a game: the coach's determinizations, the compiled rollouts)."""
        n = len(self.players)
        pending: tuple[int, ...] = ()
        if self.finisher is not None:  # the final turns still to play, in seat order after the finisher
            order = [(self.finisher + k) % n for k in range(1, n)]
            pending = tuple(order[order.index(self.current_player):]) if self.current_player in order else ()
        return Counters(
            held_source=None if self.drawn is None else ("take" if self.taken is not None else "draw"),
            flip_optional=self.awaiting == "flip" and any(str(a) == "skip" for a in self.legal_actions),
            pending=pending,
            flips_done=sum(c is not None for c in self.grids[self.current_player]),
            seats_flipped=(self.current_player - self.first_player) % n,
        )

    @property
    def my_grid(self) -> list:
        return self.grids[self.seat]

    def why_illegal(self, action: "Action | str") -> "Refusal | None":
        """Why ``action`` is not legal for this seat now (``golflab.legality.Refusal``: a reason
        and the engine's note), or None when it is one of ``legal_actions``."""
        return _why_illegal(self, action)

    def face_down(self, seat: int | None = None) -> list[int]:
        """Face-down positions of a seat (default: this one)."""
        grid = self.grids[self.seat if seat is None else seat]
        return [i for i, c in enumerate(grid) if c is None]

    def visible_cards(self) -> list[Card]:
        """Every card this seat can see: face-up grid cards, the discard pile, its drawn card."""
        seen = [c for g in self.grids for c in g if c is not None]
        seen += self.discard_pile
        if self.drawn is not None and self.taken is None:
            seen.append(self.drawn)
        elif self.taken is not None:
            seen.append(self.taken)
        return seen


class Game:
    """A game of 6-Card Golf.

    ``players`` is a count (2-6) or a list of distinct names; ``rules`` a ``Rules``;
    ``seed`` drives every shuffle (None picks one at random, kept in ``game.seed``).
    """

    def __init__(self, players: "int | Sequence[str]" = 4, rules: Rules | None = None, seed: int | None = None):
        self._names = tuple(_player_names(players))  # immutable: observations share it
        self._n = n = len(self._names)
        if rules is None:
            rules = Rules()
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a golflab.Rules, got {type(rules).__name__}")
        self._rules = rules
        decks = rules.decks_for(n)
        size = len(build_deck(decks, rules.jokers))
        if size < 6 * n + 1:
            raise ValueError(
                f"{decks} deck(s) hold {size} cards, too few to deal 6 to each of {n} players and start the "
                f"discard pile ({6 * n + 1} needed): use more decks"
            )
        self._decks = decks
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be a whole number or None, got {seed!r}")
        self._seed = seed
        self._rng = random.Random(seed)
        self._totals = [0] * n
        self._holes_won = [0] * n
        self._results: list[RoundBreakdown] = []
        self._history: list[str] = []
        self._round = 0
        self._start_round()

    # ------------------------------------------------------------------ setup
    def _start_round(self) -> None:
        n = self._n
        self._round += 1
        self._first = (self._round - 1) % n
        deck = build_deck(self._decks, self._rules.jokers)
        self._rng.shuffle(deck)
        self._grids = [[deck.pop() for _ in range(6)] for _ in range(n)]
        self._up = [[False] * 6 for _ in range(n)]
        self._draw = deck
        self._discard = [deck.pop()]
        self._held: Card | None = None
        self._held_src: str | None = None
        self._turns = [0] * n
        self._finisher: int | None = None
        self._pending: list[int] = []
        self._current = self._first
        self._flip_optional = False
        if self._rules.initial_flips:
            self._phase = Phase.INITIAL_FLIP
            self._stage = "initial_flip"
            self._flips_done = 0
            self._seats_flipped = 0
        else:
            self._phase = Phase.PLAYING
            self._stage = "draw"

    # ------------------------------------------------------------ properties
    phase = property(lambda self: self._phase, doc="The current Phase.")
    current_player = property(lambda self: self._current, doc="Seat index of the player to move.")
    round = property(lambda self: self._round, doc="1-based hole number.")
    rules = property(lambda self: self._rules)
    seed = property(lambda self: self._seed)
    players = property(lambda self: self._names, doc="Player names by seat (a tuple).")
    num_players = property(lambda self: self._n)
    first_player = property(lambda self: self._first, doc="The seat that starts this hole.")
    finisher = property(lambda self: self._finisher, doc="The seat that went out this hole, or None.")
    awaiting = property(
        lambda self: self._stage,
        doc="What the current player must do: initial_flip, draw, place, flip, or None between holes.",
    )
    held = property(lambda self: self._held, doc="The card the current player holds (omniscient view).")
    held_source = property(lambda self: self._held_src, doc="'draw', 'take' or None.")
    discard_pile = property(lambda self: list(self._discard), doc="The discard pile, top last.")
    draw_pile_size = property(lambda self: len(self._draw))
    totals = property(lambda self: list(self._totals), doc="Running total per seat.")
    holes_won = property(lambda self: list(self._holes_won), doc="Holes won per seat (ties share).")
    history = property(lambda self: list(self._history), doc="Action notations since the start.")
    turns = property(lambda self: list(self._turns), doc="Turns completed per seat this hole.")
    round_results = property(lambda self: list(self._results), doc="A RoundBreakdown per finished hole.")

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.GAME_OVER

    @property
    def winners(self) -> list[int]:
        """Seats with the lowest total (meaningful once the game is over)."""
        low = min(self._totals)
        return [i for i, t in enumerate(self._totals) if t == low]

    def grid(self, seat: int) -> list[Card]:
        """All six cards of a seat, face up or not (omniscient: for tests and teaching)."""
        return list(self._grids[seat])

    def face_up(self, seat: int) -> list[bool]:
        return list(self._up[seat])

    # ---------------------------------------------------------------- actions
    def legal_actions(self) -> list[Action]:
        """The legal actions now (empty between holes and at game over): ``golflab.legality``'s declaration."""
        return _legal_actions(self._stage, self._rules, self._up[self._current], bool(self._discard), self._held_src,
                              self._flip_optional)

    def why_illegal(self, action: "Action | str") -> Refusal | None:
        """Why ``action`` is not legal now (``golflab.legality.Refusal``: a reason and the engine's
        note), or None when it is. Not an action at all: IllegalActionError."""
        return _why_illegal(self.observation(self._current), action)

    def _refuse(self, action: Any, why: str = "") -> IllegalActionError:
        legal = ", ".join(str(a) for a in self.legal_actions()) or "none"
        where = f"phase {self._phase.value}"
        if self._stage:
            where += f", seat {self._current} ({self._names[self._current]}) to {self._stage.replace('_', ' ')}"
        hint = " (call next_round() to deal the next hole)" if self._phase is Phase.ROUND_OVER else ""
        shown = str(action) if isinstance(action, (str, Action)) else repr(action)
        return IllegalActionError(f"illegal action {shown!r} in {where}{why}: legal actions are {legal}{hint}")

    def apply(self, action: "Action | str") -> "Game":
        """Play one action (an Action or its notation). Illegal: IllegalActionError, game unchanged."""
        # the interned action of that notation: a hand-built Action("swap", 9) is no action
        a = _ACTIONS.get(action.notation) if isinstance(action, Action) else None
        if a is None:
            try:
                a = Action.parse(str(action) if isinstance(action, Action) else action)
            except IllegalActionError:
                raise self._refuse(action, f" (not an action: write {NOTATION})") from None
        if not _is_legal(a, self._stage, self._rules, self._up[self._current], bool(self._discard), self._held_src,
                         self._flip_optional):
            raise self._refuse(a, self.why_illegal(a).note)
        self._history.append(a.notation)
        kind = a.kind
        seat = self._current
        if kind == "flip":  # an initial flip, a flip after a discard, or a whole turn (flip_as_action)
            self._up[seat][a.pos] = True
            if self._stage == "initial_flip":
                self._after_initial_flip()
            else:
                self._end_turn(seat)
        elif a is KNOCK:  # knock_early: the last one or two cards face up, the whole turn
            self._up[seat][:] = [True] * 6
            self._end_turn(seat)
        elif kind == "swap":
            grid = self._grids[seat]
            self._discard.append(grid[a.pos])
            grid[a.pos] = self._held
            self._up[seat][a.pos] = True
            self._held = self._held_src = None
            self._end_turn(seat)
        elif a is DRAW:
            if not self._draw:
                self._reshuffle()
                if not self._draw:
                    self._end_round()
                    return self
            self._held = self._draw.pop()
            self._held_src = "draw"
            self._stage = "place"
        elif a is TAKE:
            self._held = self._discard.pop()
            self._held_src = "take"
            self._stage = "place"
        elif a is DISCARD:
            self._discard.append(self._held)
            self._held = self._held_src = None
            self._after_discard(seat)
        else:  # skip
            self._end_turn(seat)
        return self

    def next_round(self) -> "Game":
        """Deal the next hole (only from ``round_over``)."""
        if self._phase is not Phase.ROUND_OVER:
            raise IllegalActionError(
                f"next_round() is only possible when a hole is over (phase round_over), not in phase "
                f"{self._phase.value}; legal actions are {', '.join(map(str, self.legal_actions())) or 'none'}"
            )
        self._start_round()
        return self

    # ---------------------------------------------------------------- internals
    def _after_initial_flip(self) -> None:
        self._flips_done += 1
        if self._flips_done < self._rules.initial_flips:
            return
        self._flips_done = 0
        self._seats_flipped += 1
        if self._seats_flipped < self._n:
            self._current = (self._current + 1) % self._n
            return
        self._phase = Phase.PLAYING
        self._stage = "draw"
        self._current = self._first

    def _after_discard(self, seat: int) -> None:
        mode = self._rules.flip_mode
        if mode != "never" and not all(self._up[seat]):
            if mode == "always":
                self._stage, self._flip_optional = "flip", False
                return
            if any(up.count(False) <= 1 for up in self._up):
                self._stage, self._flip_optional = "flip", True
                return
        self._end_turn(seat)

    def _reshuffle(self) -> None:
        top = self._discard.pop()
        self._draw = self._discard
        self._discard = [top]
        self._rng.shuffle(self._draw)

    def _end_turn(self, seat: int) -> None:
        self._turns[seat] += 1
        self._flip_optional = False
        n = self._n
        if self._phase is Phase.PLAYING:
            if all(self._up[seat]):
                self._finisher = seat
                self._pending = [(seat + k) % n for k in range(1, n)]
                self._phase = Phase.FINAL_TURN
                self._current = self._pending[0]
                self._stage = "draw"
            elif min(self._turns) >= self._rules.max_turns:
                self._end_round()
            else:
                self._current = (seat + 1) % n
                self._stage = "draw"
            return
        # final turn: reveal this player's cards, then the next one (or the scoring)
        self._up[seat] = [True] * 6
        self._pending.pop(0)
        if self._pending:
            self._current = self._pending[0]
            self._stage = "draw"
        else:
            self._end_round()

    def _end_round(self) -> None:
        for up in self._up:
            up[:] = [True] * 6
        result = round_breakdown(self._grids, self._rules, self._finisher)
        self._results.append(result)
        for i, s in enumerate(result.scores):
            self._totals[i] += s
        for w in result.winners:
            self._holes_won[w] += 1
        self._stage = None
        self._phase = Phase.GAME_OVER if self._round >= self._rules.rounds else Phase.ROUND_OVER

    # ----------------------------------------------------------- observation
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see (never a face-down card or another seat's drawn card)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise ValueError(f"seat must be a seat index 0-{self._n - 1}, got {seat!r}")
        # unrolled over the six positions: twice as fast as a nested comprehension
        grids = [[g[0] if u[0] else None, g[1] if u[1] else None, g[2] if u[2] else None,
                  g[3] if u[3] else None, g[4] if u[4] else None, g[5] if u[5] else None]
                 for g, u in zip(self._grids, self._up)]
        mine = seat == self._current
        held = self._held
        discard = self._discard
        # Filled like the dataclass __init__ would, without its per-field frozen-setattr
        # cost: an observation is built for every simulated decision.
        obs = object.__new__(Observation)
        obs.__dict__.update(
            seat=seat,
            phase=self._phase,
            round=self._round,
            current_player=self._current,
            grids=grids,
            discard_top=discard[-1] if discard else None,
            drawn=held if mine else None,
            draw_pile_size=len(self._draw),
            legal_actions=self.legal_actions() if mine else [],
            rules=self._rules,
            totals=list(self._totals),
            players=self._names,
            discard_pile=tuple(discard),
            taken=held if self._held_src == "take" else None,
            holding=held is not None,
            awaiting=self._stage,
            first_player=self._first,
            finisher=self._finisher,
            turns=tuple(self._turns),
            holes_won=tuple(self._holes_won),
        )
        return obs

    # ------------------------------------------------------------- positions
    @classmethod
    def from_position(cls, observation: "Observation | Position | str", grids: Sequence[Sequence[Card]] | None = None,
                      draw_pile: Sequence[Card] | None = None, seed: int | None = None) -> "Game":
        """A game standing where ``observation`` shows (the coach's determinizations), with
        every seat's six cards ``grids`` (agreeing with its face-up ones) and the draw pile
        ``draw_pile`` (drawn from the end; as many cards as the observation counts); ``seed``
        seeds its generator (its reshuffles). What the observation does not show (the held
        card's source, the final turns still to play, ...) is derived (``counters``).

        Given a ``golflab.Position`` (or its text) alone, the cards it leaves unknown are dealt
        from what is left of the decks, shuffled by ``seed`` (``Position.game``)."""
        if not isinstance(observation, Observation) and grids is None and draw_pile is None:
            from .position import Position  # the notation's module builds on this one

            pos = Position.parse(observation) if isinstance(observation, str) else observation
            if not isinstance(pos, Position):
                raise ValueError(f"from_position takes an Observation, a Position or its text, "
                                 f"got {type(observation).__name__}")
            return pos.game(seed)
        if grids is None or draw_pile is None:
            raise ValueError("from an Observation, from_position needs every seat's grids and the draw pile")
        obs = observation
        if len(grids) != len(obs.grids) or any(len(g) != 6 for g in grids):
            raise ValueError(f"grids must be six cards for each of the {len(obs.grids)} seats")
        for seat, (full, shown) in enumerate(zip(grids, obs.grids)):
            if any(c is None or (s is not None and c != s) for c, s in zip(full, shown)):
                raise ValueError(f"seat {seat}'s grid must hold six cards that agree with its face-up ones")
        if len(draw_pile) != obs.draw_pile_size:
            raise ValueError(f"draw_pile must hold the observation's {obs.draw_pile_size} cards, "
                             f"got {len(draw_pile)}")
        counters = obs.counters()
        g = cls.__new__(cls)
        g._names, g._n, g._rules = tuple(obs.players), len(obs.players), obs.rules
        g._decks = obs.rules.decks_for(g._n)
        g._seed, g._rng = seed, random.Random(seed)
        g._round, g._first = obs.round, obs.first_player
        g._totals, g._holes_won = list(obs.totals), list(obs.holes_won)
        g._up = [[c is not None for c in grid] for grid in obs.grids]
        g._grids = [list(grid) for grid in grids]
        g._draw, g._discard = list(draw_pile), list(obs.discard_pile)
        g._held, g._held_src = obs.drawn, counters.held_source
        g._turns, g._finisher = list(obs.turns), obs.finisher
        g._current, g._phase, g._stage = obs.current_player, obs.phase, obs.awaiting
        g._flip_optional, g._pending = counters.flip_optional, list(counters.pending)
        g._flips_done, g._seats_flipped = counters.flips_done, counters.seats_flipped
        g._history, g._results = [], []
        return g

    def position(self, seat: int | None = None) -> "Position":
        """This moment as ``seat`` sees it (default: the seat to move), a ``golflab.Position``:
        ``str(game.position())`` is its one line of notation."""
        from .position import Position  # the notation's module builds on this one

        return Position.of(self.observation(self._current if seat is None else seat))

    # -------------------------------------------------------------- copying
    def copy(self) -> "Game":
        """An independent copy (same random stream position)."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._rng = random.Random()
        g._rng.setstate(self._rng.getstate())
        g._grids = [list(x) for x in self._grids]
        g._up = [list(x) for x in self._up]
        g._draw = list(self._draw)
        g._discard = list(self._discard)
        g._totals = list(self._totals)
        g._holes_won = list(self._holes_won)
        g._results = list(self._results)
        g._history = list(self._history)
        g._turns = list(self._turns)
        g._pending = list(self._pending)
        return g

    # ------------------------------------------------------------ persistence
    @classmethod
    def replay(
        cls,
        players: "int | Sequence[str]",
        rules: Rules | None,
        seed: int,
        history: Iterable[str],
        round: int | None = None,
    ) -> "Game":
        """Rebuild a game from its seed, rules and history (dealing each next hole as needed)."""
        game = cls(players, rules, seed)
        for i, act in enumerate(history):
            if game._phase is Phase.ROUND_OVER:
                game.next_round()
            try:
                game.apply(act)
            except IllegalActionError as exc:
                raise ValueError(f"history entry {i} ({act!r}) cannot be replayed: {exc}") from None
        if round is not None:
            while game._round < round and game._phase is Phase.ROUND_OVER:
                game.next_round()
            if game._round != round:
                raise ValueError(f"history does not reach hole {round} (it ends in hole {game._round})")
        return game

    def _snapshot(self) -> dict[str, Any]:
        return {
            "phase": self._phase.value,
            "round": self._round,
            "current_player": self._current,
            "totals": list(self._totals),
            "grids": [[str(c) for c in g] for g in self._grids],
            "face_up": [list(u) for u in self._up],
            "discard_pile": [str(c) for c in self._discard],
            "draw_pile_size": len(self._draw),
        }

    def _save(self) -> dict[str, Any]:
        return {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "players": list(self._names),
            "rules": self._rules.to_dict(),
            "seed": self._seed,
            "history": list(self._history),
            "state": self._snapshot(),
        }

    def to_json(self) -> str:
        """The whole game as JSON text; ``Game.from_json`` restores it exactly."""
        data = self._save()
        data["checksum"] = savefile.checksum(data)
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: "str | bytes") -> "Game":
        """Restore a game saved by ``to_json``. Anything but such a save exactly as it was
        written (see ``golflab.savefile``) is a ValueError saying what is wrong."""
        data = savefile.load(text)
        saved = data["rules"]
        # options newer than the save's version: an older save has none of them (they were off)
        absent = [o.name for o in OPTIONS if o.since > data["version"] and o.name not in saved]
        try:
            rules = Rules.from_dict({**saved, **{name: OPTION[name].default for name in absent}})
        except ValueError as exc:
            raise ValueError(f"saved game rules are not allowed: {exc}") from None

        def as_saved(rules_dict: dict) -> dict:
            return {k: v for k, v in rules_dict.items() if k not in absent}

        savefile.check_part("rules", as_saved(rules.to_dict()), saved)
        game = cls.replay(data["players"], rules, data["seed"], data["history"], round=data["state"]["round"])
        written = game._save()
        # an older save is checked as that version wrote it
        savefile.check_restored(data, {**written, "version": data["version"], "rules": as_saved(written["rules"])})
        return game

    # ------------------------------------------------------------- display
    def __repr__(self) -> str:
        where = f"seat {self._current} to {self._stage.replace('_', ' ')}" if self._stage else "between holes"
        return f"<golflab.Game hole {self._round}/{self._rules.rounds}, {self._phase.value}, {where}>"

    def _repr_html_(self) -> str:
        from .display import game_html

        return game_html(self)


def _player_names(players: "int | Sequence[str]") -> list[str]:
    if isinstance(players, bool):
        raise ValueError(f"players must be a number from 2 to 6 or a list of 2-6 names, got {players!r}")
    if isinstance(players, int):
        if not 2 <= players <= 6:
            raise ValueError(f"golf is for 2 to 6 players, got {players}")
        return [f"Player {i + 1}" for i in range(players)]
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ValueError(f"players must be a number from 2 to 6 or a list of 2-6 names, got {players!r}")
    names = list(players)
    if not 2 <= len(names) <= 6:
        raise ValueError(f"golf is for 2 to 6 players, got {len(names)} names")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"player names must be non-empty strings, got {name!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"player names must be distinct, got {names}")
    return names
