"""Plain-words text for the golf table: what the learner can do now, why a click was
refused, and what a move did (for the status line and the move log).

Pure functions of golflab observations: no widgets here, so they are easy to test.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from golflab import Action, Card, Game, Observation, Phase, Rules, card_value
from golflab import words as plain

POSITION_NAMES = plain.POSITIONS
ACTIVE_PHASES = (Phase.INITIAL_FLIP, Phase.PLAYING, Phase.FINAL_TURN)
TURN_STARTS = ("draw", "take")


@dataclass(frozen=True)
class Move:
    """One move as the table tells it: the hole, the seat, the action's notation and what it did in words."""

    hole: int
    seat: int
    action: str
    text: str

    @property
    def pos(self) -> int | None:
        """The grid position this move changed (a swap or a flip), else None."""
        _, _, pos = self.action.partition(" ")
        return int(pos) if pos else None


class LastMoves:
    """The moves a board's status line (its live region) names, oldest first (``said``): every move
    played since the board was last drawn, so that a screen reader hears each CPU player's turn when
    several come at once, not only the last."""

    def __init__(self) -> None:
        self.said: tuple[str, ...] = ()
        self._since: list[str] = []

    def played(self, texts: Sequence[str]) -> None:
        """Moves played (in words) that the board has not drawn yet."""
        self._since.extend(texts)

    def drawn(self) -> None:
        """The board was drawn: the moves played since it was last drawn are the ones said (when
        none were, the last said stay)."""
        if self._since:
            self.said, self._since = tuple(self._since), []

    def clear(self) -> None:
        """Nothing said (a new game, a new hole)."""
        self.said, self._since = (), []


class Chronicle:
    """What happened in a game, told from the learner's seat: ``log_lines`` (the move log, in
    words), ``notation`` (the same moves in notation, for the log's *Details*) and ``moves``
    (for the last moves beside the board).

    ``heading`` replaces the first line (``New game: ...``, whose notation gives the seed):
    a room's page must not learn its seed."""

    def __init__(self, game: Game, heading: str | None = None) -> None:
        players = ", ".join(game.players)
        self.log_lines = [heading or f"New game: {players}. Rules: {game.rules.describe()}."]
        self.notation = [] if heading else [f"seed {game.seed}"]
        self.moves: list[Move] = []

    def play(self, game: Game, action: Action, viewer: int) -> str:
        """Apply ``action`` for the seat to move and record it; returns what it did in words."""
        seat, hole = game.current_player, game.round
        before = game.observation(viewer)
        game.apply(action)
        said = move_words(game.players[seat], action, before, game.observation(viewer), seat)
        self.log_lines.append(f"Hole {hole}: {said}.")
        self.notation.append(f"H{hole} {game.players[seat]}: {action}")
        self.moves.append(Move(hole, seat, str(action), said))
        if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            self.log_lines.append(f"Hole {hole} scored: " + ", ".join(
                f"{n} {s}" for n, s in zip(game.players, game.round_results[-1].scores)) + ".")
        return said

    def next_hole(self, game: Game, viewer: int) -> None:
        """Deal ``game``'s next hole and record it."""
        game.next_round()
        first = game.first_player
        self.log_lines.append(f"Hole {game.round} dealt: {plain.subject_verb(game.players[first], 'start')}.")

    @classmethod
    def retold(cls, saved: Game, viewer: int) -> tuple[Game, Chronicle]:
        """``saved`` played again from its deal, so its story can be told (a loaded game);
        the game returned continues exactly like ``saved``."""
        game = Game(list(saved.players), saved.rules, saved.seed)
        story = cls(game)
        for action in saved.history:
            if game.phase is Phase.ROUND_OVER:
                story.next_hole(game, viewer)
            story.play(game, Action.parse(action), viewer)
        while game.phase is Phase.ROUND_OVER and game.round < saved.round:
            story.next_hole(game, viewer)
        return game, story


def last_changed(moves: Sequence[Move], hole: int, seat: int) -> int | None:
    """The position of ``seat``'s grid that its latest turn in ``hole`` changed (None if that
    turn changed none, e.g. a draw and a discard)."""
    for move in reversed(moves):
        if move.hole != hole or move.seat != seat:
            continue
        if move.pos is not None:
            return move.pos
        if move.action in TURN_STARTS:
            return None
    return None


def card_words(card: Card | None, rules: Rules) -> str:
    """``7 (7 points)``; ``king (0 points)``; a missing card is ``nothing`` (card names, never letters)."""
    if card is None:
        return "nothing"
    return f"{plain.card_name(card)} ({plain.points(card_value(card, rules))})"


def position_words(pos: int) -> str:
    """``bottom left``: the position as the board names it."""
    return plain.position(pos)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def prompt(obs: Observation) -> str:
    """What the seat of ``obs`` can do now, in plain words (it must be that seat's move)."""
    rules = obs.rules
    legal = set(map(str, obs.legal_actions))
    final = ""
    if obs.phase is Phase.FINAL_TURN and obs.finisher is not None:
        final = f"Last turn! {obs.players[obs.finisher]} went out. "
    awaiting = obs.awaiting
    if awaiting == "initial_flip":
        done = 6 - len(obs.face_down())
        left = rules.initial_flips - done
        return (f"Your turn: click {_plural(left, 'face-down card')} of yours to turn "
                f"{'it' if left == 1 else 'them'} face up and start the hole.")
    if awaiting == "draw":
        top = obs.discard_top
        if "take" in legal and top is not None:
            text = f"{final}Your turn: draw from the deck, or take the {card_words(top, rules)} from the discard pile."
        else:
            text = f"{final}Your turn: draw from the deck."
        if any(a.startswith("flip ") for a in legal):
            text += " Or click a face-down card to flip it as your whole turn (flip as action)."
        if "knock" in legal:
            text += " Or press Knock to turn up your last face-down cards as your whole turn (knock early)."
        return text
    if awaiting == "place":
        card = obs.drawn
        if "discard" in legal:
            return (f"{final}You drew the {card_words(card, rules)}. Click one of your cards to swap it in, "
                    "or press Discard to throw it away.")
        return (f"{final}You took the {card_words(card, rules)}. Click one of your cards to swap it in "
                "(a card taken from the discard pile must be swapped).")
    if awaiting == "flip":
        if "skip" in legal:
            return (f"{final}You may flip one of your face-down cards (someone has at most one left), "
                    "or press Skip flip.")
        return f"{final}Flip one of your face-down cards (Speed Golf: every discard reveals a card)."
    return "Nothing to do right now."


def waiting(obs: Observation, style: str = "", person: bool = False) -> str:
    """The status while another seat moves: ``Maya's turn (Aggressive Closer): thinking…``, or for a
    ``person`` (a room's other learner) ``Ann's turn: waiting for Ann to move…``."""
    name = obs.players[obs.current_player]
    who = f"{name}'s turn" + (f" ({style})" if style else "")
    if obs.phase is Phase.FINAL_TURN:
        return f"{who}: a last turn after {obs.players[obs.finisher]} went out…"
    if person:
        doing = "turn cards face up" if obs.awaiting == "initial_flip" else "move"
        return f"{who}: waiting for {name} to {doing}…"
    if obs.awaiting == "initial_flip":
        return f"{who}: turning cards face up…"
    return f"{who}: thinking…"


#: the action each click target asks for (a slot: swap when a card is held, else flip)
CLICKS = {"deck": "draw", "discard_pile": "take", "discard": "discard", "skip": "skip", "knock": "knock"}


def refusal(obs: Observation, target: str, pos: int | None = None) -> str:
    """Why a click on ``target`` ('slot', 'deck', 'discard_pile', 'discard', 'skip', 'knock') is not legal,
    in plain words for the engine's reason (``Observation.why_illegal``).

    Called only for clicks the game refused; the game is unchanged, so the answer ends
    by repeating what the learner can do now.
    """
    if obs.phase is Phase.ROUND_OVER:
        return "This hole is over: press Next hole to deal the next one."
    if obs.phase is Phase.GAME_OVER:
        return "The game is over: press New game to play again."
    if obs.current_player != obs.seat:
        return f"Please wait: it is {obs.players[obs.current_player]}'s turn."
    awaiting = obs.awaiting
    if target == "slot" and pos is not None:
        action = f"{'swap' if awaiting == 'place' else 'flip'} {pos}"
    else:
        action = CLICKS.get(target)
    refused = obs.why_illegal(action) if action is not None else None
    reason = refused.reason if refused is not None else ""
    why = "That move is not possible now."
    if target == "slot" and reason == "face_up":
        why = f"Your card at {position_words(pos)} is already face up" + (
            "." if awaiting == "draw" else ": pick a face-down card.")
    elif target == "slot" and reason == "flip_off":
        why = "Draw a card first (the deck or the discard pile), then click where it goes."
    elif target in ("deck", "discard_pile") and reason in ("holding", "flip_first", "pile_empty"):
        why = {"holding": "You already hold a card: place it before drawing again.",
               "flip_first": "Flip a card first.",
               "pile_empty": "The discard pile is empty: draw from the deck."}[reason]
    elif target == "discard":
        why = ("A card taken from the discard pile cannot be put back: swap it into your grid."
               if reason == "taken_swaps" else "You have no drawn card to discard.")
    elif target == "skip":
        why = "There is no optional flip to skip now."
    elif target == "knock" and reason.startswith("knock_"):
        why = {"knock_off": "Knocking is not a rule of this game (knock early is off).",
               "knock_not_now": "You can knock only at the start of your turn, before drawing.",
               "knock_count": f"You can knock only with one or two face-down cards; you have {len(obs.face_down())}.",
               }[reason]
    return f"{why} {prompt(obs)}"


def move_words(name: str, action: Action, before: Observation, after: Observation, seat: int) -> str:
    """What ``name`` (at ``seat``) did, told from public information (and the viewer's own card).

    ``before`` and ``after`` are the viewer's observations around the move.
    """
    rules = before.rules
    kind = action.kind
    if kind == "draw":
        mine = before.seat == seat and after.drawn is not None
        return f"{name} drew the {plain.card_name(after.drawn)} from the deck" if mine else f"{name} drew from the deck"
    if kind == "take":
        return f"{name} took the {plain.card_name(before.discard_top)} from the discard pile"
    if kind == "swap":
        placed = after.grids[seat][action.pos]
        replaced = card_words(after.discard_top, rules)
        where = f"{name} put the {plain.card_name(placed)} at {position_words(action.pos)}"
        if before.grids[seat][action.pos] is None:
            return f"{where}, replacing a face-down card: it was the {replaced}"
        return f"{where}, discarding the {replaced}"
    if kind == "discard":
        return f"{name} discarded the {plain.card_name(after.discard_top)}"
    if kind == "flip":
        shown = after.grids[seat][action.pos]
        card = card_words(shown, rules) if shown is not None else "a card"
        whole = " as the whole turn" if before.awaiting == "draw" else ""
        return f"{name} turned up the {card} at {position_words(action.pos)}{whole}"
    if kind == "knock":
        shown = [after.grids[seat][i] for i in range(6) if before.grids[seat][i] is None]
        cards = " and the ".join(card_words(c, rules) for c in shown if c is not None) or "their last cards"
        return f"{name} knocked, turning up the {cards}"
    return f"{name} skipped the optional flip"


def ranking(players: Sequence[str], totals: Sequence[int]) -> list[tuple[int, str, int]]:
    """(place, name, total) from lowest total up; tied totals share a place."""
    order = sorted(range(len(players)), key=lambda s: (totals[s], s))
    out = []
    for i, seat in enumerate(order):
        place = out[-1][0] if i and totals[seat] == out[-1][2] else i + 1
        out.append((place, players[seat], totals[seat]))
    return out




def awaiting(game: Game, seat: int) -> str:
    """What the table waits for: the learner's initial_flip, draw, place or flip; cpu while
    another seat moves; next-round or new-game between holes."""
    if game.phase is Phase.GAME_OVER:
        return "new-game"
    if game.phase is Phase.ROUND_OVER:
        return "next-round"
    return game.awaiting if game.current_player == seat else "cpu"


def game_over_words(game: Game) -> str:
    """``Game over: Ann wins with 12 points!`` (``You win``, ``Ann and Ben win``)."""
    board = ranking(game.players, game.totals)
    winners = [name for place, name, _ in board if place == 1]
    verb = "win" if len(winners) > 1 or winners[0] == "You" else "wins"
    return f"Game over: {' and '.join(winners)} {verb} with {board[0][2]} points!"


def hole_over_words(game: Game) -> str:
    """``Hole 2 is over (Ann won it with 5).`` for the hole just played."""
    res = game.round_results[-1]
    who = " and ".join(game.players[s] for s in res.winners)
    return f"Hole {game.round} is over ({who} won it with {res.scores[res.winners[0]]})."


def situation(game: Game, seat: int, style: Callable[[str], str] = lambda name: "") -> str:
    """The status line for the learner at ``seat``: what to do now, whose turn it is, or
    how the hole or the game ended. ``style(name)`` names a CPU player's personality."""
    if game.phase is Phase.GAME_OVER:
        return game_over_words(game) + " Press New game to play again."
    if game.phase is Phase.ROUND_OVER:
        return hole_over_words(game) + " Read the scores below, then press Next hole."
    obs = game.observation(seat)
    if obs.current_player == seat:
        return prompt(obs)
    return waiting(obs, style(game.players[obs.current_player]))


def turn_for(name: str, obs: Observation) -> str:
    """The status at a shared screen (hot-seat): ``Ann, it is your turn. Draw from the deck...``."""
    text = prompt(obs)
    if text.startswith("Your turn: "):
        text = text[len("Your turn: "):]
        text = text[:1].upper() + text[1:]
    return f"{name}, it is your turn. {text}"


def pass_words(name: str) -> str:
    """The hide step between two people's turns at one screen."""
    return f"Pass to {name}: the board is hidden. {name}, press \u201cI am {name}, show my turn\u201d when ready."
