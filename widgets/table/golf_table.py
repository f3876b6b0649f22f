"""``GolfTable``: play 6-Card Golf against CPU personalities in a notebook or a Voila app.

The board is built on golflab's public API only. Every clickable thing carries a stable
CSS class for browser tests (``golf-slot-N``, ``golf-deck``, ``golf-discard``,
``golf-action-discard``, ``golf-action-skip``, ``golf-action-knock``, ``golf-next-round``,
``golf-new-game``);
the status line is ``golf-status`` and also carries ``golf-await-<what>`` (``initial_flip``,
``draw``, ``place``, ``flip``, ``cpu``, ``next-round``, ``new-game``), the score table
is ``golf-scores``.

Choices where the spec is silent (a careful player's table):

* ``players`` is a list of CPU personality names (your opponents; you are added at
  ``human_seat``) or a count of players at the table, you included (like ``Game``),
  whose opponents are the first personalities of ``golflab.ai.PROFILES``.
* A click that is not legal changes nothing and the status line says why; clicks while
  a CPU player moves are refused the same way. Callbacks never block: with a CPU delay
  the CPU moves run one at a time in an asyncio task on the kernel's loop.
* Every CPU decision is made by a ``CPUPlayer`` seeded (``seeding.derived_seed``) from the game's seed, the seat
  and the number of moves so far, so one seed drives the deal and every CPU choice, and
  a resumed game continues exactly as the uninterrupted one would.
* ``New game`` during a game asks for a second click before throwing the game away.
* A saved game is ``Game.to_json()``, offered as a ``.json`` file to download; it resumes
  from a chosen file (``golf-upload``) or pasted text. Every seat not named after a CPU
  personality is a person's (people may not take a personality's name): a save whose only
  person is ``You`` resumes as one learner's game, one with other people's names as a
  hot-seat game that starts behind "Pass to <the person to move>". A loaded game is
  replayed from its deal so that the move log tells it.
* The new-game panel seats one learner (``You``) or several people at this screen
  (hot-seat, see ``widgets.table_setup``); it starts the game through ``new_game``.
* ``play_from(game, seat)`` plays on from a set-up position (``Position.game``: the analysis
  board's *Play from here*): the learner at ``seat``, CPU personalities at the others. Such a
  game never started from a deal, so it is neither saved as a file (Save game says why) nor kept
  in the learner's games; New game deals an ordinary game again.
* Each opponent's card that its latest turn changed is outlined (``golf-changed``) and the
  last moves of the hole stay beside the board (``golf-recent-box``); *Next hole* scrolls
  the table's top into view.
"""

from __future__ import annotations

import functools
import logging
import os
from typing import Callable

import ipywidgets as w

from golflab import Action, Game, IllegalActionError, Observation, Phase, Rules
from golflab.ai import CPU_NAMES, CPUPlayer, get_profile
from golflab.excerpt import excerpt
from golflab.seeding import derived_seed

from ..account import learner_progress as progress
from ..tab_slot import TabSlot
from . import words
from .board import SETTINGS_TAB, Board
from .display_size import resolve_large, set_large, size_toggle
from .pacing import MAX_CPU_DELAY, CpuPacer, CpuSpeed, delay_ok, guarded
from .resume import KEY, TabResume
from .setup import (
    HUMAN_NAME,
    MAX_SEED,
    NewGamePanel,
    TableSettings,
    and_list,
    check_opponents,
    hot_settings,
    parse_seed,
    people_in,
    table_settings,
)

log = logging.getLogger(__name__)

DEFAULT_CPU_DELAY = 0.6
MAX_CPU_STEPS = 20_000  # far beyond one hole (6 seats x 500 turns x 3 moves)
BOARD_WIDGETS = ("css", "rules_bar", "new_game_button", "speed", "opponents", "deck_button", "discard_button",
                 "hand", "discard_action", "skip_action", "knock_action", "status", "slots", "summary",
                 "next_round_button",
                 "scores", "log_box", "save_button", "load_button", "save_text", "download", "upload", "recent",
                 "more", "coach_slot", "review_slot")
MAX_SAVE_BYTES = 1_000_000  # a whole 18-hole game saves to a few dozen kB
NOT_SAVED = "A game played on from a position cannot be saved as a file: it never started from a deal."


def env_seed() -> int | None:
    """``GOLFLAB_SEED`` (a whole number from 0 to ``MAX_SEED``, as the new-game panel takes it) or None
    when unset; a bad value names the variable. (A negative seed would deal as its positive twin.)"""
    text = os.environ.get("GOLFLAB_SEED", "")
    try:
        return parse_seed(text)
    except ValueError:
        raise ValueError(f"environment variable GOLFLAB_SEED must be a whole number from 0 to {MAX_SEED}, "
                         f"got {excerpt(text.strip())}") from None


def env_delay() -> float:
    """``GOLFLAB_CPU_DELAY`` (seconds, 0-10) or the default; a bad value names the variable."""
    text = os.environ.get("GOLFLAB_CPU_DELAY", "").strip()
    if not text:
        return DEFAULT_CPU_DELAY
    try:
        seconds = float(text)
    except ValueError:
        seconds = None
    if not delay_ok(seconds):
        raise ValueError(f"environment variable GOLFLAB_CPU_DELAY must be a number of seconds from 0 to "
                         f"{MAX_CPU_DELAY:g}, got {excerpt(text)}")
    return seconds



def _style(name: str) -> str:
    return get_profile(name).style if name in CPU_NAMES else ""


class GolfTable(CpuSpeed, w.VBox):
    """A golf table: you against CPU personalities.

    ``players``: CPU personality names, or the number of players at the table (you
    included, 2-6). ``rules``: a ``golflab.Rules``. ``seed``: drives the deal and the CPU
    players (None: random, or ``GOLFLAB_SEED`` when set). ``human_seat``: your seat.
    ``cpu_delay``: seconds between CPU moves (0 plays them at once; None: 0.6, or
    ``GOLFLAB_CPU_DELAY`` when set).

    Hot-seat (several people at one screen): ``players`` names every seat in order and
    ``humans`` the people among them, e.g. ``players=["Ann", "Ben", "Sofia"], humans=["Ann",
    "Ben"]``; the other seats are CPU personalities (the panel's "People at this screen"
    does the same). The status names whose turn it is, and
    between two people's turns the board hides behind "Pass to Ben" (``golf-hotseat-ready``
    shows it again), so a drawn card is seen only by the seat that drew it.

    ``large``: large cards and type for a projector (None: ``GOLFLAB_LARGE`` or ``?large=1``
    on the app's URL; see ``widgets.display_size``); the "Large" toggle switches it too.

    ``resume_on_reload``: the game in play is kept in the browser tab after every move, and the page
    reloaded in that tab resumes it (``widgets.table.resume``).

    The board's widgets are attributes (``slots``, ``deck_button``, ``discard_button``,
    ``discard_action``, ``skip_action``, ``next_round_button``, ``new_game_button``,
    ``status``, ``scores``, ``save_button``, ``load_button``, ``save_text``, ``speed`` ...),
    so code can press them: ``table.slots[3].click()``.
    """

    def __init__(self, players=("Sofia", "Maya", "Marcus"), rules: Rules | None = None, seed: int | None = None,
                 human_seat: int = 0, cpu_delay: float | None = None, humans=None, large: bool | None = None,
                 resume_on_reload: bool = False) -> None:
        seed = env_seed() if seed is None else seed
        if humans is None:
            settings = table_settings(players, rules, seed, human_seat)
        else:
            settings = hot_settings(players, humans, rules, seed)
        is_large = resolve_large(large)
        delay = env_delay() if cpu_delay is None else cpu_delay
        self.errors: list[str] = []
        self._aside: str | None = None
        self.pacer = CpuPacer(pending=lambda: self.cpu_to_move and self._aside is None, step=self._cpu_step,
                              render=self._render,
                              on_error=self._fail, max_steps=MAX_CPU_STEPS)
        self._confirm_new = False
        self._syncing = False
        self._last_moves = words.LastMoves()  # what the status line names (``_render``)
        self._setup: NewGamePanel | None = None
        self._move_listeners: list[Callable[[Observation, str, int], None]] = []
        self._start_listeners: list[Callable[[], None]] = []
        self._moved: list[tuple[Observation, str, int]] = []
        self._hot: tuple[str, ...] | None = None if humans is None else tuple(humans)
        self._kept: Game | None = None
        self._from_position: Game | None = None
        #: Set by a coach: ``grader(keep)`` calls ``keep(accuracy, blunders)`` once the finished game is graded.
        self.grader: Callable[[Callable[..., None]], None] | None = None
        #: Set by a coach in tutor mode: ``tutor(obs, action)`` is True when it holds the learner's move to ask first.
        self.tutor: Callable[[Observation, Action], bool] | None = None
        self._pass_to: int | None = None
        self._learner_moved = False
        self._resume: TabResume | None = None
        self.board = board = Board()
        for name in BOARD_WIDGETS:
            setattr(self, name, getattr(board, name))
        super().__init__(board.children, layout=w.Layout(width="100%"))
        self.add_class("golf-table")
        self.add_class("golf-keeps-focus")  # focus moves on to the next action (a11y.html.j2)
        set_large(self, is_large)
        self.large_toggle = size_toggle(self)
        board.toolbar.children = (*board.toolbar.children, self.large_toggle)
        self._wire()
        self.cpu_delay = delay
        self._start(Game(settings.players, settings.rules, settings.seed), settings.human_seat)
        if resume_on_reload:
            self.tab_slot = TabSlot(KEY)
            self.children = (*self.children, self.tab_slot)
            self._resume = TabResume(self, self.tab_slot)

    def _wire(self) -> None:
        for pos, slot in enumerate(self.slots):
            slot.on_click(functools.partial(self._on_slot, pos))
        self.new_game_button.on_click(self._on_new_game)
        self.deck_button.on_click(self._on_deck)
        self.discard_button.on_click(self._on_discard_pile)
        self.discard_action.on_click(self._on_discard)
        self.skip_action.on_click(self._on_skip)
        self.knock_action.on_click(self._on_knock)
        self.board.ready_button.on_click(self._on_ready)
        self.next_round_button.on_click(self._on_next_round)
        self.save_button.on_click(self._on_save)
        self.load_button.on_click(self._on_load)
        self.upload.observe(self._on_upload, names="value")
        self.speed.observe(self._on_speed, names="value")
        self.more.observe(self._on_more, names="selected_index")

    # ------------------------------------------------------------------ public
    def playing_started(self) -> bool:
        return hasattr(self, "game")

    @property
    def learner_has_moved(self) -> bool:
        """True once a person at this table has played a move of the game in play."""
        return self._learner_moved

    @property
    def status_text(self) -> str:
        """The status line as plain text (what the learner reads)."""
        return self._status_text

    @property
    def awaiting(self) -> str:
        """What the table waits for: initial_flip, draw, place, flip (the learner), cpu,
        next-round or new-game; pass (hot-seat) or aside (``set_aside``)."""
        return self._awaiting

    @property
    def cpu_to_move(self) -> bool:
        """True while a CPU seat is to move."""
        g = self.game
        return g.phase in words.ACTIVE_PHASES and g.current_player not in self.humans

    @property
    def hotseat(self) -> bool:
        """True when several people play at this screen (``humans`` was given)."""
        return self._hot is not None

    @property
    def passing_to(self) -> str | None:
        """The person the board waits to be passed to (hot-seat), else None."""
        return None if self._pass_to is None else self.game.players[self._pass_to]

    def ready(self) -> None:
        """The person the board was passed to is ready: show their turn (as the button does)."""
        if self._pass_to is None:
            raise ValueError("the board is not waiting to be passed to anyone")
        self.human_seat, self._pass_to = self._pass_to, None
        self._render()

    @property
    def set_aside_for(self) -> str | None:
        """Why the table is set aside (``set_aside``), or None while it is played."""
        return self._aside

    def set_aside(self, note: str | None) -> None:
        """Set the table aside while its learner plays elsewhere on the page (a room's game): the board
        hides, the CPU players wait and the status line says ``note``; ``None`` brings it back as it was."""
        if note is not None and not note.strip():
            raise ValueError("set_aside needs a note saying where the learner plays (or None to bring the table back)")
        self._aside = note
        self.pacer.stop()
        self._render()
        if note is None:
            self.pacer.schedule()

    def run_cpu_turns(self) -> int:
        """Play every pending CPU move now, without pauses; returns how many were played."""
        return self.pacer.run_now()

    def save(self) -> str:
        """The game as JSON text (``Game.to_json``); a game played on from a position (``play_from``)
        is a ValueError saying why it cannot be saved."""
        if self.from_position:
            raise ValueError(NOT_SAVED)
        return self.game.to_json()

    @property
    def from_position(self) -> bool:
        """True while the game in play was played on from a set-up position (``play_from``)."""
        return self._from_position is not None and self.game is self._from_position

    def play_from(self, game: Game, human_seat: int, heading: str | None = None) -> None:
        """Play on from ``game``, a game standing at a set-up position (``Position.game``): the
        learner at ``human_seat`` sees that seat's view only; every other seat is a CPU player named
        after a personality (``golflab.ai.CPU_NAMES``), deciding by ``derived_seed`` from the game's
        seed. ``heading``: the move log's first line. The hole must be in play. Bad arguments are a
        ValueError saying what is allowed, and change nothing."""
        if not isinstance(game, Game):
            raise ValueError(f"play_from takes a golflab.Game standing at a position, got {type(game).__name__}")
        names = list(game.players)
        if isinstance(human_seat, bool) or not isinstance(human_seat, int) or not 0 <= human_seat < len(names):
            raise ValueError(f"human_seat must be a seat from 0 to {len(names) - 1}, got {human_seat!r}")
        check_opponents(names[:human_seat] + names[human_seat + 1:])
        if game.phase not in words.ACTIVE_PHASES:
            raise ValueError("there is nothing to play on: the hole is over in that position")
        others = and_list([n for i, n in enumerate(names) if i != human_seat])
        heading = heading or (f"Played on from a position: {names[human_seat]} against {others}, hole "
                              f"{game.round} of {game.rules.rounds}. Rules: {game.rules.describe()}.")
        self._hot = None
        self._from_position = game
        self._start(game, human_seat, words.Chronicle(game, heading))

    @property
    def save_filename(self) -> str:
        """The name Save game gives the file: ``golf-<seed>-hole-<n>.json``."""
        return f"golf-{self.game.seed}-hole-{self.game.round}.json"

    def load(self, text: str, *, resumed: bool = False) -> None:
        """Resume a game saved with ``save``. Bad text is a ValueError and changes nothing.
        ``resumed``: the game was in play when this page last closed (``widgets.table.resume``)."""
        game = Game.from_json(text)
        names = list(game.players)
        people = people_in(names)
        if people == (HUMAN_NAME,):
            hot = None
            seat = names.index(HUMAN_NAME)
            check_opponents(names[:seat] + names[seat + 1:])
        elif len(people) > 1:
            hot = people
            seat = hot_settings(names, people, game.rules, game.seed).human_seat
        else:
            raise ValueError(f"this saved game has no single seat named {HUMAN_NAME!r} (one learner) nor two or "
                             "more people's names (hot-seat): every seat but its people's must be a CPU "
                             f"personality, got {', '.join(names)}")
        replayed, story = words.Chronicle.retold(game, seat)
        if replayed.to_json() != game.to_json():  # never expected; the save itself is what counts
            log.error("a loaded game replays differently from its save")
            replayed, story = game, words.Chronicle(game)
        what = "a saved game" if hot is None else f"a saved hot-seat game ({and_list(people)} at this screen)"
        if resumed:
            done = (f"Resumed the game you were playing when this page closed: hole {game.round} of "
                    f"{game.rules.rounds}. New game deals another.")
        else:
            done = f"Loaded {what}: hole {game.round} of {game.rules.rounds}."
        story.log_lines.append(done)
        self._hot = hot
        self._start(replayed, seat, story, hide=True)
        self._note(done)

    def new_game(self, players=None, rules: Rules | None = None, seed: int | None = None,
                 human_seat: int | None = None, humans=None) -> None:
        """Deal a new game; arguments left out keep the current opponents, rules and seat
        (the seed is random unless given). A hot-seat table keeps its seats and people unless
        ``players`` is given; ``humans`` makes it (or keeps it) a hot-seat table."""
        if humans is not None or (self._hot is not None and players is None and human_seat is None):
            names = list(self.game.players) if players is None else players
            people = self._hot if humans is None else humans
            settings = hot_settings(names, people, self.game.rules if rules is None else rules, seed)
            self._hot = tuple(people)
            self._start(Game(settings.players, settings.rules, settings.seed), settings.human_seat)
            return
        current = self._settings_now()
        settings = table_settings(current.opponents if players is None else players,
                             current.rules if rules is None else rules, seed,
                             current.human_seat if human_seat is None else human_seat)
        self._hot = None
        self._start(Game(settings.players, settings.rules, settings.seed), settings.human_seat)

    @property
    def setup(self) -> NewGamePanel:
        """The new-game panel, built the first time it is opened (it holds two thirds of the
        board's widgets, so the page loads faster without it)."""
        if self._setup is None:
            self._setup = NewGamePanel(self._settings_now(seed=None))
            self._setup.new_game_button.on_click(self._on_new_game)
            self.board.settings_slot.children = [self._setup]
        return self._setup

    def on_move(self, callback: Callable[[Observation, str, int], None]) -> None:
        """Call ``callback(before, action, step)`` after every move played here (the learner's
        and the CPUs'), once the board shows it: ``before`` is the mover's observation before
        the move, ``action`` its notation, ``step`` its index in ``game.history``."""
        self._move_listeners.append(callback)

    def on_start(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` whenever a new or loaded game replaces ``game``."""
        self._start_listeners.append(callback)

    def __repr__(self) -> str:
        names, holes = self.game.players, self.game.rules.rounds
        if self._hot is not None:
            cpus = [n for i, n in enumerate(names) if i not in self.humans]
            against = f" against {', '.join(cpus)}" if cpus else ""
            return f"<GolfTable: {and_list(self._hot)} at this screen{against}; {holes} holes>"
        others = [n for i, n in enumerate(names) if i != self.human_seat]
        return f"<GolfTable: you against {', '.join(others)}; {holes} holes>"

    # ------------------------------------------------------------- game flow
    @property
    def log_lines(self) -> list[str]:
        """The move log, oldest first: each move in notation and in words."""
        return self.story.log_lines

    @property
    def moves(self) -> list[words.Move]:
        """Every move of this game, oldest first (a loaded game's too)."""
        return self.story.moves

    def _start(self, game: Game, human_seat: int, story: words.Chronicle | None = None, hide: bool = False) -> None:
        """Show ``game`` from ``human_seat``; hot-seat: the person to move sees the board first,
        or (``hide``, a loaded game) the board waits behind "Pass to" them."""
        self.pacer.stop()
        self._moved = []
        self._learner_moved = False
        self.game = game
        self.human_seat = human_seat
        names = list(game.players)
        self.humans = frozenset(names.index(n) for n in self._hot) if self._hot is not None else frozenset([human_seat])
        self._pass_to = None
        if self._setup is not None:  # the panel starts from this game's settings, with a random seed
            self._setup.show(self._settings_now(seed=None))
        if self._hot is not None and game.current_player in self.humans and game.phase in words.ACTIVE_PHASES:
            if hide:  # whoever loaded the game hands the screen over: a drawn card stays hidden
                self._pass_to = game.current_player
            else:
                self.human_seat = game.current_player  # the first person to play sees the board first
        self.story = story or words.Chronicle(game)
        self._kept = game if game.phase is Phase.GAME_OVER else None  # a loaded finished game is kept already
        self._confirm_new = False
        self._last_moves.clear()
        self._render()
        for callback in self._start_listeners:
            callback()
        self.pacer.schedule()

    def _view(self) -> Observation:
        return self.game.observation(self.human_seat)

    def _play(self, action: Action) -> None:
        """Apply one move for the seat to move, log it in notation and in words."""
        before = self.game.observation(self.game.current_player) if self._move_listeners else None
        self._last_moves.played([self.story.play(self.game, action, self.human_seat) + "."])
        if before is not None:
            self._moved.append((before, str(action), len(self.game.history) - 1))

    def _tell_moves(self) -> None:
        """Tell the ``on_move`` listeners about the moves played since the last time."""
        moved, self._moved = self._moved, []
        for before, action, step in moved:
            for callback in self._move_listeners:
                callback(before, action, step)

    def _human(self, action: Action, target: str, pos: int | None = None) -> None:
        """Play the learner's click if it is legal now; otherwise say why and change nothing."""
        self._confirm_new = False
        if self._aside is not None:
            self._refuse(self._aside)
            return
        if self._pass_to is not None:
            self._refuse(f"The board is hidden until {self.passing_to} presses \u201cI am {self.passing_to}, show my "
                         "turn\u201d.")
            return
        obs = self._view()
        if obs.current_player != self.human_seat or action not in obs.legal_actions:
            self._refuse(words.refusal(obs, target, pos))
            return
        if self.tutor is not None and self.tutor(obs, action):
            return  # held: the tutor asks first; nothing is played
        self._learner_moved = True
        self._play(action)
        self._render()
        self.pacer.schedule()

    def play_anyway(self, action: str | Action) -> None:
        """Play the learner's move without asking the tutor (its *Play it anyway*). A move that
        is not the learner's to play now is a ValueError, and nothing changes."""
        act = Action.parse(action)
        obs = self._view()
        if self._pass_to is not None or obs.current_player != self.human_seat or act not in obs.legal_actions:
            now = words.situation(self.game, self.human_seat)
            raise ValueError(f"{act.notation!r} is not yours to play now; {now}")
        self._confirm_new = False
        self._learner_moved = True
        self._play(act)
        self._render()
        self.pacer.schedule()

    def _cpu_step(self) -> None:
        g = self.game
        seat = g.current_player
        obs = g.observation(seat)
        action = CPUPlayer(g.players[seat], seed=derived_seed(g.seed, seat, len(g.history))).choose(obs)
        try:
            self._play(action)
        except IllegalActionError as exc:  # a CPU bug must not freeze the learner's game
            log.error("CPU %s chose an illegal move: %s", g.players[seat], exc)
            self.errors.append(f"{g.players[seat]} chose an illegal move {action}: {exc}")
            self._play(obs.legal_actions[0])

    @property
    def cpu_pacing(self) -> bool:
        """True while CPU moves are being played one by one with pauses."""
        return self.pacer.active

    # --------------------------------------------------------------- callbacks
    @guarded
    def _on_slot(self, pos: int, _button=None) -> None:
        awaiting = self.game.awaiting
        kind = "swap" if awaiting == "place" else "flip"
        self._human(Action.parse(f"{kind} {pos}"), "slot", pos)

    @guarded
    def _on_deck(self, _button=None) -> None:
        self._human(Action.parse("draw"), "deck")

    @guarded
    def _on_discard_pile(self, _button=None) -> None:
        self._human(Action.parse("take"), "discard_pile")

    @guarded
    def _on_discard(self, _button=None) -> None:
        self._human(Action.parse("discard"), "discard")

    @guarded
    def _on_skip(self, _button=None) -> None:
        self._human(Action.parse("skip"), "skip")

    @guarded
    def _on_knock(self, _button=None) -> None:
        self._human(Action.parse("knock"), "knock")

    @guarded
    def _on_next_round(self, _button=None) -> None:
        self._confirm_new = False
        if self.game.phase is not Phase.ROUND_OVER:
            self._refuse("There is no finished hole to leave: " + self._situation())
            return
        self.story.next_hole(self.game, self.human_seat)
        self._last_moves.clear()
        self._render()
        self.board.scroll_into_view()  # the button sat below the hole's summary, which is gone now
        self.pacer.schedule()

    @guarded
    def _on_ready(self, _button=None) -> None:
        if self._pass_to is not None:
            self.ready()

    @guarded
    def _on_new_game(self, button=None) -> None:
        """New game (the toolbar's or the panel's button): the panel's settings are checked first,
        so a problem shows at once beside the panel's button (``golf-setup-problem``), as does the
        request to press again before a game in play is abandoned when that button was pressed."""
        if self._aside is not None:  # its learner plays elsewhere on the page: no new deal behind their back
            self._refuse(self._aside)
            return
        panel = self._setup
        try:
            settings = None if panel is None else panel.settings()
            in_play = self.game.phase is not Phase.GAME_OVER and bool(self.game.history)
            if in_play and not self._confirm_new:
                self._confirm_new = True
                self._refuse("This game is not finished. Press New game again to abandon it and deal a new one, "
                             "or just keep playing.")
                if panel is not None and button is panel.new_game_button:
                    panel.show_problem(f"No new game yet: this game is not finished. Press "
                                       f"{panel.new_game_button.description} again to abandon it and deal the new "
                                       "one.")
                return
            if settings is None:
                self.new_game()  # the same players, seats and rules, a new deal
            elif settings.people:
                self.new_game(settings.players, settings.rules, settings.seed, humans=settings.people)
            else:
                self.new_game(settings.opponents, settings.rules, settings.seed, settings.human_seat)
        except ValueError as exc:
            self._refuse(f"Cannot start a new game: {exc}. Fix it under New game settings.")
            if panel is not None:
                panel.show_problem(f"No new game: {exc}.")

    @guarded
    def _on_save(self, _button=None) -> None:
        name = self.save_filename
        try:
            text = self.save()
        except ValueError as exc:
            self._refuse(f"{exc} {self._situation()}")
            return
        self.board.show_download(text, name)
        self._note(f"Saved: press Download {name} (under Save or resume a game) to keep the file; resume later "
                   "with Resume from a file.")

    @guarded
    def _on_load(self, _button=None) -> None:
        try:
            self.load(self.save_text.value)
        except ValueError as exc:
            self._refuse(f"Could not load that game: {exc}. Nothing was changed.")

    @guarded
    def _on_upload(self, change) -> None:
        files = change["new"]
        if not files:  # the reset below
            return
        try:
            self.load(_file_text(files[0]["name"], bytes(files[0]["content"])))
        except ValueError as exc:
            self._refuse(f"Could not load that file: {exc}. Nothing was changed.")
        finally:
            self.upload.value = ()  # so the same file can be chosen again

    @guarded
    def _on_more(self, change) -> None:
        if change["new"] == SETTINGS_TAB:
            self.setup  # noqa: B018 - builds the panel on first opening

    # --------------------------------------------------------------- status
    def _set_status(self, text: str, extra: str = "") -> None:
        self._status_text = text
        if self._aside is not None:
            self._awaiting = "aside"
        else:
            self._awaiting = "pass" if self._pass_to is not None else words.awaiting(self.game, self.human_seat)
        self.board.show_status(text, self._awaiting, self._last_moves.said, extra)

    def _refuse(self, text: str) -> None:
        self._set_status(text, "golf-refused")

    def _note(self, text: str) -> None:
        self._set_status(f"{text} {self._situation()}")

    def _situation(self) -> str:
        g = self.game
        if self._pass_to is not None:
            return words.pass_words(g.players[self._pass_to])
        if self._hot is not None and g.phase in words.ACTIVE_PHASES and g.current_player == self.human_seat:
            return words.turn_for(g.players[self.human_seat], g.observation(self.human_seat))
        return words.situation(g, self.human_seat, _style)

    def _fail(self, exc: BaseException) -> None:
        log.exception("golf table callback failed", exc_info=exc)
        self.errors.append(f"{type(exc).__name__}: {exc}")
        try:
            self._render()
        except Exception:  # noqa: BLE001
            log.exception("re-rendering after an error failed")
        self._set_status(f"Sorry, something went wrong ({exc}). You can keep playing, or save the game and "
                         "start a new one.", "golf-error")

    def _render(self) -> None:
        g = self.game
        self._last_moves.drawn()  # at the Instant speed, all the CPU players' turns since the learner's
        if g.phase in words.ACTIVE_PHASES and g.current_player in self.humans and g.current_player != self.human_seat:
            self._pass_to = g.current_player  # another person's turn: hide the board until they are ready
        self.board.show_pass(self.passing_to)
        self.board.draw(self.game, self.human_seat, self.log_lines, self.moves, self.story.notation)
        self.new_game_button.disabled = self._aside is not None
        self._tell_moves()  # the coach's "grading" badge reaches the page before the status it follows
        if self._aside is not None:  # its learner plays elsewhere on the page: the board waits, hidden
            self.board.felt.layout.display = "none"
            self._set_status(self._aside, "golf-set-aside")
        else:
            self._set_status(self._situation())
        if g.phase is Phase.GAME_OVER and self._kept is not g:
            self._kept = g
            self._keep(g)
        if self._resume is not None:
            self._resume.keep()

    def _keep(self, game: Game) -> None:
        """Keep a finished game for the signed-in learner (hot-seat: the first person's seat), with the
        coach's accuracy when a coach grades it (``widgets.progress``); a store problem is said, play goes on.
        A game played on from a position is not kept (it never started from a deal)."""
        if self.from_position:
            return
        seat = min(self.humans)

        def keep(accuracy: float | None = None, blunders: int | None = None) -> None:
            said = progress.kept_words(progress.record_game(game, seat, accuracy=accuracy, blunders=blunders),
                                       game.players, seat, self.hotseat)
            if said and self.game is game:
                self._note(said)

        if self.grader is None:
            keep()
        else:
            self.grader(keep)

    def _settings_now(self, seed: int | None = None) -> TableSettings:
        """The current opponents, rules and seat, with ``seed`` for the next game (hot-seat:
        the people and the CPU seats, each in seat order)."""
        names = list(self.game.players)
        if self._hot is not None:
            return TableSettings(tuple(n for i, n in enumerate(names) if i not in self.humans), self.game.rules,
                                 seed, 0, tuple(n for i, n in enumerate(names) if i in self.humans),
                                 tuple(sorted(self.humans)))
        names.pop(self.human_seat)
        return TableSettings(tuple(names), self.game.rules, seed, self.human_seat)


def _file_text(name: str, content: bytes) -> str:
    """An uploaded save's text; a file too large or not UTF-8 text is a ValueError naming it."""
    if len(content) > MAX_SAVE_BYTES:
        raise ValueError(f"{name} is {len(content) / 1e6:.1f} MB, too large for a saved game (at most "
                         f"{MAX_SAVE_BYTES / 1e6:g} MB)")
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{name} is not a text file; choose a .json file made by Save game") from None
