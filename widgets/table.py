"""``GolfTable``: play 6-Card Golf against CPU personalities in a notebook or a Voila app.

The board is built on golflab's public API only. Every clickable thing carries a stable
CSS class for browser tests (``golf-slot-N``, ``golf-deck``, ``golf-discard``,
``golf-action-discard``, ``golf-action-skip``, ``golf-next-round``, ``golf-new-game``);
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
* Every CPU decision is made by a ``CPUPlayer`` seeded from the game's seed, the seat
  and the number of moves so far, so one seed drives the deal and every CPU choice, and
  a resumed game continues exactly as the uninterrupted one would.
* ``New game`` during a game asks for a second click before throwing the game away.
* A saved game is ``Game.to_json()``; the seat named ``You`` is the learner's and every
  other seat must be a personality.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import logging
import os
from html import escape

import ipywidgets as w

from golflab import Action, Game, IllegalActionError, Observation, Phase, Rules
from golflab.ai import PROFILES, CPUPlayer

from . import status as words
from . import table_view as view
from .table_setup import HUMAN_NAME, NewGamePanel, TableSettings, check_opponents, default_opponents

log = logging.getLogger(__name__)

DEFAULT_CPU_DELAY = 0.6
SPEEDS = (("Instant", 0.0), ("Fast", 0.25), ("Normal", 0.6), ("Slow", 1.2))
MAX_CPU_STEPS = 20_000  # far beyond any game (18 holes x 6 seats x 500 turns guards stop earlier)


def env_number(name: str, default, kind=float):
    """``kind(os.environ[name])`` or ``default`` when unset; a bad value names the variable."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        return kind(text)
    except ValueError:
        raise ValueError(f"environment variable {name} must be a {kind.__name__}, got {text!r}") from None


def _guarded(method):
    """Run a callback; any exception is logged and shown as a friendly status, never a traceback."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the page must never show a traceback
            self._fail(exc)
            return None

    return wrapper


def _classes(widget: w.DOMWidget, base: tuple[str, ...], extra: tuple[str, ...] = ()) -> None:
    """Set a widget's CSS classes (only sends an update when they change)."""
    wanted = tuple(base) + tuple(c for c in extra if c)
    if tuple(widget._dom_classes) != wanted:
        widget._dom_classes = wanted


def _card_face(card) -> tuple[str, str, str]:
    """(button text, colour class, tooltip) for a face-up card on a card button."""
    if card.is_joker:
        return "JK\n\u2605", "golf-joker", "joker"
    rank = "10" if card.rank == "T" else card.rank
    return f"{rank}\n{card.pretty[-1]}", "golf-red" if card.is_red else "golf-black", card.pretty


class GolfTable(w.VBox):
    """A golf table: you against CPU personalities.

    ``players``: CPU personality names, or the number of players at the table (you
    included, 2-6). ``rules``: a ``golflab.Rules``. ``seed``: drives the deal and the CPU
    players (None: random, or ``GOLFLAB_SEED`` when set). ``human_seat``: your seat.
    ``cpu_delay``: seconds between CPU moves (0 plays them at once; None: 0.6, or
    ``GOLFLAB_CPU_DELAY`` when set).
    """

    def __init__(self, players=("Sofia", "Maya", "Marcus"), rules: Rules | None = None, seed: int | None = None,
                 human_seat: int = 0, cpu_delay: float | None = None) -> None:
        settings = _settings(players, rules, env_number("GOLFLAB_SEED", None, int) if seed is None else seed,
                             human_seat)
        delay = env_number("GOLFLAB_CPU_DELAY", DEFAULT_CPU_DELAY) if cpu_delay is None else cpu_delay
        self.errors: list[str] = []
        self.log_lines: list[str] = []
        self._token = 0
        self._task: asyncio.Task | None = None
        self._confirm_new = False
        self._syncing = False
        self._last = ""
        self._build()
        super().__init__(self._layout(), layout=w.Layout(width="100%"))
        self.add_class("golf-table")
        self.cpu_delay = delay
        self._start(Game(settings.players, settings.rules, settings.seed), settings.human_seat)

    # ------------------------------------------------------------------ public
    @property
    def cpu_delay(self) -> float:
        """Seconds between CPU moves; 0 plays them instantly."""
        return self._cpu_delay

    @cpu_delay.setter
    def cpu_delay(self, seconds: float) -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds <= 10:
            raise ValueError(f"cpu_delay must be a number of seconds from 0 to 10, got {seconds!r}")
        self._cpu_delay = float(seconds)
        options = list(SPEEDS)
        if all(abs(v - seconds) > 1e-9 for _, v in options):
            options.append((f"{seconds:g} s", float(seconds)))
        self._syncing = True
        try:
            if list(self.speed.options) != options:
                self.speed.options = options
            self.speed.value = next(v for _, v in options if abs(v - seconds) <= 1e-9)
        finally:
            self._syncing = False
        if hasattr(self, "game"):
            self._schedule_cpu()

    @property
    def status_text(self) -> str:
        """The status line as plain text (what the learner reads)."""
        return self._status_text

    @property
    def awaiting(self) -> str:
        """What the table waits for: initial_flip, draw, place, flip (the learner), cpu,
        next-round or new-game."""
        return self._awaiting

    @property
    def cpu_to_move(self) -> bool:
        """True while a CPU seat is to move."""
        g = self.game
        return g.phase in words.ACTIVE_PHASES and g.current_player != self.human_seat

    def run_cpu_turns(self) -> int:
        """Play every pending CPU move now, without pauses; returns how many were played."""
        self._stop_pacing()
        played = 0
        while self.cpu_to_move and played < MAX_CPU_STEPS:
            self._cpu_step()
            played += 1
        self._render()
        return played

    def save(self) -> str:
        """The game as JSON text (``Game.to_json``)."""
        return self.game.to_json()

    def load(self, text: str) -> None:
        """Resume a game saved with ``save``. Bad text is a ValueError and changes nothing."""
        game = Game.from_json(text)
        names = list(game.players)
        if names.count(HUMAN_NAME) != 1:
            raise ValueError(f"this saved game has no single seat named {HUMAN_NAME!r}, so there is no seat for you")
        seat = names.index(HUMAN_NAME)
        check_opponents(names[:seat] + names[seat + 1:])
        self._start(game, seat)
        self._note(f"Loaded a saved game: hole {game.round} of {game.rules.rounds}.")

    def new_game(self, players=None, rules: Rules | None = None, seed: int | None = None,
                 human_seat: int | None = None) -> None:
        """Deal a new game; arguments left out keep the current opponents, rules and seat
        (the seed is random unless given)."""
        current = self._settings_now()
        settings = _settings(current.opponents if players is None else players,
                             current.rules if rules is None else rules, seed,
                             current.human_seat if human_seat is None else human_seat)
        self._start(Game(settings.players, settings.rules, settings.seed), settings.human_seat)

    @property
    def setup(self) -> NewGamePanel:
        """The new-game panel, built the first time it is opened (it holds two thirds of the
        board's widgets, so the page loads faster without it)."""
        if self._setup is None:
            self._setup = NewGamePanel(self._settings_now(seed=None))
            self._setup_slot.children = [self._setup]
        return self._setup

    def __repr__(self) -> str:
        others = [n for i, n in enumerate(self.game.players) if i != self.human_seat]
        return f"<GolfTable: you against {', '.join(others)}; {self.game.rules.rounds} holes>"

    # ------------------------------------------------------------- building
    def _build(self) -> None:
        def btn(**kwargs) -> w.Button:
            return w.Button(layout=w.Layout(width="auto"), **kwargs)  # a Layout of its own each

        self.css = w.HTML(view.TABLE_CSS)
        self.rules_bar = w.HTML()
        self.new_game_button = btn(description="New game", icon="refresh", tooltip="Deal a new game with the settings below")
        self.speed = w.ToggleButtons(options=list(SPEEDS), description="CPU speed",
                                     style={"button_width": "64px", "description_width": "initial"},
                                     tooltip="Pause between CPU moves (Instant: no pause)")
        self.opponents = w.HTML()
        self.deck_button = w.Button(tooltip="Draw the top card of the deck")
        self.discard_button = w.Button(tooltip="Take the top card of the discard pile")
        for b in (self.deck_button, self.discard_button):
            b.add_class("golf-card-btn")
        self.deck_label = w.HTML()
        self.discard_label = w.HTML('<div class="golf-pile-label">discard pile</div>')
        self.hand = w.HTML()
        self.discard_action = btn(description="Discard", icon="trash", button_style="warning",
                                  tooltip="Throw the drawn card onto the discard pile")
        self.skip_action = btn(description="Skip flip", icon="forward", button_style="info",
                               tooltip="Do not flip a card this turn")
        self.status = w.HTML()
        self.slots = []
        for i in range(6):
            slot = w.Button(tooltip=words.position_words(i))
            slot.on_click(functools.partial(self._on_slot, i))
            self.slots.append(slot)
        self.mine_label = w.HTML()
        self.summary = w.HTML()
        self.next_round_button = btn(description="Next hole", icon="forward", button_style="success")
        self.scores = w.HTML()
        self.log_box = w.HTML()
        self.save_button = btn(description="Save game", icon="download", tooltip="Put the game into the box as JSON")
        self.load_button = btn(description="Load game", icon="upload", tooltip="Resume the game pasted into the box")
        self.save_text = w.Textarea(placeholder="Press Save game, copy this text; later paste it here and press Load game.",
                                    layout=w.Layout(width="98%", height="90px"))
        self.download = w.HTML()
        self._setup: NewGamePanel | None = None
        self._setup_slot = w.VBox([w.HTML("<i>Preparing the settings\u2026</i>")])

        for widget, cls in ((self.new_game_button, "golf-new-game"), (self.deck_button, "golf-deck"),
                            (self.discard_button, "golf-discard"), (self.discard_action, "golf-action-discard"),
                            (self.skip_action, "golf-action-skip"), (self.next_round_button, "golf-next-round"),
                            (self.scores, "golf-scores"), (self.speed, "golf-speed"), (self.save_button, "golf-save"),
                            (self.load_button, "golf-load"), (self.save_text, "golf-save-text"),
                            (self.log_box, "golf-log-box"), (self.rules_bar, "golf-rules-bar")):
            widget.add_class(cls)
        for b in (self.discard_action, self.skip_action, self.next_round_button):
            b.add_class("golf-action")
        self.new_game_button.on_click(self._on_new_game)
        self.deck_button.on_click(self._on_deck)
        self.discard_button.on_click(self._on_discard_pile)
        self.discard_action.on_click(self._on_discard)
        self.skip_action.on_click(self._on_skip)
        self.next_round_button.on_click(self._on_next_round)
        self.save_button.on_click(self._on_save)
        self.load_button.on_click(self._on_load)
        self.speed.observe(self._on_speed, names="value")

    def _layout(self) -> list:
        piles = w.HBox([
            w.VBox([self.deck_button, self.deck_label]),
            w.VBox([self.discard_button, self.discard_label]),
            self.hand,
            w.VBox([self.discard_action, self.skip_action], layout=w.Layout(justify_content="center")),
        ], layout=w.Layout(align_items="flex-start", margin="8px 0 0 0"))
        grid = w.GridBox(self.slots, layout=w.Layout(grid_template_columns="repeat(3, 84px)", width="270px"))
        mine = w.VBox([self.mine_label, grid])
        felt = w.VBox([self.opponents, w.HBox([mine, piles], layout=w.Layout(flex_flow="row wrap",
                                                                            align_items="flex-start"))])
        felt.add_class("golf-felt")
        toolbar = w.HBox([self.new_game_button, self.speed], layout=w.Layout(flex_flow="row wrap",
                                                                            align_items="center"))
        more = w.Accordion(children=[
            w.VBox([self.log_box]),
            self._setup_slot,
            w.VBox([w.HBox([self.save_button, self.load_button, self.download]), self.save_text]),
        ])
        more.add_class("golf-more")
        more.observe(self._on_more, names="selected_index")
        for i, title in enumerate(("Move log", "New game settings: players, personalities, holes, rules",
                                   "Save or resume a game")):
            more.set_title(i, title)
        return [self.css, self.rules_bar, toolbar, self.status, felt, self.summary, self.next_round_button,
                self.scores, more]

    # ------------------------------------------------------------- game flow
    def _start(self, game: Game, human_seat: int) -> None:
        self._stop_pacing()
        self.game = game
        self.human_seat = human_seat
        if self._setup is not None:  # the panel starts from this game's settings, with a random seed
            self._setup.show(self._settings_now(seed=None))
        self.log_lines = [f"New game (seed {game.seed}): {', '.join(game.players)}; {game.rules.describe()}"]
        self._confirm_new = False
        self._last = ""
        self._render()
        self._schedule_cpu()

    def _view(self) -> Observation:
        return self.game.observation(self.human_seat)

    def _play(self, action: Action) -> None:
        """Apply one move for the seat to move, log it in notation and in words."""
        g = self.game
        seat, hole = g.current_player, g.round
        before = self._view()
        g.apply(action)
        said = words.move_words(g.players[seat], action, before, self._view(), seat)
        self.log_lines.append(f"H{hole} {g.players[seat]}: {action} \u2014 {said}")
        self._last = said + "."
        if g.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            self.log_lines.append(f"H{hole} scored: " + ", ".join(
                f"{n} {s}" for n, s in zip(g.players, g.round_results[-1].scores)))

    def _human(self, action: Action, target: str, pos: int | None = None) -> None:
        """Play the learner's click if it is legal now; otherwise say why and change nothing."""
        self._confirm_new = False
        obs = self._view()
        if obs.current_player != self.human_seat or action not in obs.legal_actions:
            self._refuse(words.refusal(obs, target, pos))
            return
        self._play(action)
        self._render()
        self._schedule_cpu()

    def _cpu_step(self) -> None:
        g = self.game
        seat = g.current_player
        obs = g.observation(seat)
        action = CPUPlayer(g.players[seat], seed=_cpu_seed(g.seed, seat, len(g.history))).choose(obs)
        try:
            self._play(action)
        except IllegalActionError as exc:  # a CPU bug must not freeze the learner's game
            log.error("CPU %s chose an illegal move: %s", g.players[seat], exc)
            self.errors.append(f"{g.players[seat]} chose an illegal move {action}: {exc}")
            self._play(obs.legal_actions[0])

    def _stop_pacing(self) -> None:
        """Stop the paced CPU task, if any (it only ever waits in its sleep when this runs)."""
        self._token += 1
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    @property
    def cpu_pacing(self) -> bool:
        """True while CPU moves are being played one by one with pauses."""
        return self._task is not None and not self._task.done()

    def _schedule_cpu(self) -> None:
        """Let the CPU seats move: now (delay 0 or no event loop) or paced on the kernel's loop."""
        if not self.cpu_to_move:
            return
        self._stop_pacing()
        if self._cpu_delay <= 0:
            self.run_cpu_turns()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a plain script: nothing would run a paced task
            self.run_cpu_turns()
            return
        self._task = loop.create_task(self._pace(self._token))

    async def _pace(self, token: int) -> None:
        try:
            while token == self._token and self.cpu_to_move:
                await asyncio.sleep(self._cpu_delay)
                if token != self._token:
                    return
                self._cpu_step()
                self._render()
        except Exception as exc:  # noqa: BLE001 - shown as a status, never a traceback
            self._fail(exc)

    # --------------------------------------------------------------- callbacks
    @_guarded
    def _on_slot(self, pos: int, _button=None) -> None:
        awaiting = self.game.awaiting
        kind = "swap" if awaiting == "place" else "flip"
        self._human(Action.parse(f"{kind} {pos}"), "slot", pos)

    @_guarded
    def _on_deck(self, _button=None) -> None:
        self._human(Action.parse("draw"), "deck")

    @_guarded
    def _on_discard_pile(self, _button=None) -> None:
        self._human(Action.parse("take"), "discard_pile")

    @_guarded
    def _on_discard(self, _button=None) -> None:
        self._human(Action.parse("discard"), "discard")

    @_guarded
    def _on_skip(self, _button=None) -> None:
        self._human(Action.parse("skip"), "skip")

    @_guarded
    def _on_next_round(self, _button=None) -> None:
        self._confirm_new = False
        if self.game.phase is not Phase.ROUND_OVER:
            self._refuse("There is no finished hole to leave: " + self._prompt_text())
            return
        self.game.next_round()
        self._last = ""
        self.log_lines.append(f"H{self.game.round} dealt; {self.game.players[self.game.first_player]} starts.")
        self._render()
        self._schedule_cpu()

    @_guarded
    def _on_new_game(self, _button=None) -> None:
        in_play = self.game.phase is not Phase.GAME_OVER and bool(self.game.history)
        if in_play and not self._confirm_new:
            self._confirm_new = True
            self._refuse("This game is not finished. Press New game again to abandon it and deal a new one, "
                         "or just keep playing.")
            return
        try:
            settings = self._setup.settings() if self._setup is not None else self._settings_now(seed=None)
        except ValueError as exc:
            self._refuse(f"Cannot start a new game: {exc}. Fix it under New game settings.")
            return
        self._start(Game(settings.players, settings.rules, settings.seed), settings.human_seat)

    @_guarded
    def _on_save(self, _button=None) -> None:
        text = self.save()
        self.save_text.value = text
        data = base64.b64encode(text.encode()).decode()
        self.download.value = (f'<a download="golf-game.json" href="data:application/json;base64,{data}" '
                               'style="line-height:32px;color:#1565c0;text-decoration:underline">download golf-game.json</a>')
        self._note("Saved: the game is in the box below (and can be downloaded). Paste it back and press "
                   "Load game to resume.")

    @_guarded
    def _on_load(self, _button=None) -> None:
        try:
            self.load(self.save_text.value)
        except ValueError as exc:
            self._refuse(f"Could not load that game: {exc}. Nothing was changed.")

    @_guarded
    def _on_more(self, change) -> None:
        if change["new"] == 1:
            self.setup  # noqa: B018 - builds the panel on first opening

    @_guarded
    def _on_speed(self, change) -> None:
        if not self._syncing and change["new"] is not None and change["new"] != self._cpu_delay:
            self._cpu_delay = float(change["new"])
            self._schedule_cpu()

    # --------------------------------------------------------------- status
    def _prompt_text(self) -> str:
        g = self.game
        if g.phase is Phase.GAME_OVER:
            board = view.ranking(g.players, g.totals)
            winners = [name for place, name, _ in board if place == 1]
            total = board[0][2]
            who = " and ".join(winners)
            verb = "win" if len(winners) > 1 or who == HUMAN_NAME else "wins"
            return f"Game over: {who} {verb} with {total} points! Press New game to play again."
        if g.phase is Phase.ROUND_OVER:
            res = g.round_results[-1]
            who = " and ".join(g.players[s] for s in res.winners)
            return (f"Hole {g.round} is over ({who} won it with {res.scores[res.winners[0]]}). "
                    f"Read the scores below, then press Next hole.")
        obs = self._view()
        if obs.current_player == self.human_seat:
            return words.prompt(obs)
        name = g.players[g.current_player]
        return words.waiting(obs, PROFILES[name].style)

    def _awaiting_now(self) -> str:
        g = self.game
        if g.phase is Phase.GAME_OVER:
            return "new-game"
        if g.phase is Phase.ROUND_OVER:
            return "next-round"
        return g.awaiting if g.current_player == self.human_seat else "cpu"

    def _set_status(self, text: str, extra: str = "") -> None:
        self._status_text = text
        self._awaiting = self._awaiting_now()
        last = f'<span class="golf-last">Last move: {escape(self._last)}</span>' if self._last else ""
        self.status.value = f"{escape(text)}{last}"
        _classes(self.status, ("golf-status", f"golf-await-{self._awaiting}"), (extra,))

    def _refuse(self, text: str) -> None:
        self._set_status(text, "golf-refused")

    def _note(self, text: str) -> None:
        self._set_status(f"{text} {self._prompt_text()}")

    def _fail(self, exc: BaseException) -> None:
        log.exception("golf table callback failed", exc_info=exc)
        self.errors.append(f"{type(exc).__name__}: {exc}")
        try:
            self._render()
        except Exception:  # noqa: BLE001
            log.exception("re-rendering after an error failed")
        self._set_status(f"Sorry, something went wrong ({exc}). You can keep playing, or save the game and "
                         "start a new one.", "golf-error")

    # --------------------------------------------------------------- rendering
    def _render(self) -> None:
        g = self.game
        obs = self._view()
        mine = obs.current_player == self.human_seat and g.phase in words.ACTIVE_PHASES
        legal = {str(a) for a in obs.legal_actions} if mine else set()
        over = g.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
        result = g.round_results[-1] if over else None

        self.rules_bar.value = view.rules_bar_html(g.rules, g.round)
        seats = []
        for seat, name in enumerate(g.players):
            if seat == self.human_seat:
                continue
            cards = obs.grids[seat]
            if result is not None:
                cards = _grid_from(result.hands[seat])
            holding = ""
            if seat == obs.current_player and obs.holding and not over:
                holding = f"holds the {obs.taken.pretty}" if obs.taken is not None else "holds a card from the deck"
            seats.append(view.opponent_html(name, PROFILES[name].style, g.totals[seat], cards,
                                            seat == obs.current_player and not over, holding))
        self.opponents.value = view.opponents_html(seats)

        self.deck_button.description = f"Deck\n{obs.draw_pile_size}"
        _classes(self.deck_button, ("golf-card-btn", "golf-deck", "golf-back"), ("golf-legal" if "draw" in legal else "",))
        self.deck_label.value = f'<div class="golf-pile-label">deck: {obs.draw_pile_size} cards</div>'
        top = obs.discard_top
        if top is None:
            text, colour, tip = "empty", "golf-empty", "The discard pile is empty"
        else:
            text, colour, tip = _card_face(top)
        self.discard_button.description = text
        self.discard_button.tooltip = f"Take the {tip} from the discard pile" if top is not None else tip
        _classes(self.discard_button, ("golf-card-btn", "golf-discard", colour), ("golf-legal" if "take" in legal else "",))

        if obs.drawn is not None and mine:
            label = "you took" if obs.taken is not None else "you drew"
            self.hand.value = view.hand_html(obs.drawn, label)
        else:
            self.hand.value = view.hand_html(None, "")
        self.discard_action.layout.display = None if "discard" in legal else "none"
        self.skip_action.layout.display = None if "skip" in legal else "none"

        my_cards = _grid_from(result.hands[self.human_seat]) if result is not None else obs.grids[self.human_seat]
        paired = _paired_positions(result.hands[self.human_seat]) if result is not None else set()
        slot_kind = "swap" if obs.awaiting == "place" else "flip"
        for pos, (slot, card) in enumerate(zip(self.slots, my_cards)):
            if card is None:
                slot.description, colour, tip = "", "golf-back", "face down"
            else:
                slot.description, colour, tip = _card_face(card)
            can = f"{slot_kind} {pos}" in legal
            slot.tooltip = f"{words.position_words(pos)}: {tip}" + (f" \u2014 click to {slot_kind}" if can else "")
            _classes(slot, ("golf-card-btn", "golf-slot", f"golf-slot-{pos}", colour),
                     ("golf-legal" if can else "", "golf-paired" if pos in paired else ""))
        you = f"You (seat {self.human_seat + 1}) \u00b7 total {g.totals[self.human_seat]}"
        self.mine_label.value = f'<div class="golf-mine-label">{escape(you)}</div>'

        if result is not None:
            summary = view.hole_summary_html(g.players, result, len(g.round_results))
            if g.phase is Phase.GAME_OVER:
                summary = view.ranking_html(g.players, g.totals, g.holes_won) + summary
            self.summary.value = summary
        else:
            self.summary.value = ""
        self.next_round_button.layout.display = None if g.phase is Phase.ROUND_OVER else "none"
        self.next_round_button.description = f"Next hole ({g.round + 1} of {g.rules.rounds})"
        self.scores.value = view.scores_html(g.players, g.round_results, g.totals, g.rules.rounds)
        self.log_box.value = view.log_html(self.log_lines)
        self._set_status(self._prompt_text())

    def _settings_now(self, seed: int | None = None) -> TableSettings:
        """The current opponents, rules and seat, with ``seed`` for the next game."""
        names = list(self.game.players)
        names.pop(self.human_seat)
        return TableSettings(tuple(names), self.game.rules, seed, self.human_seat)


def _settings(players, rules: Rules | None, seed: int | None, human_seat: int) -> TableSettings:
    """Validate the table's arguments into TableSettings (a ValueError saying what is allowed)."""
    if isinstance(players, bool):
        raise ValueError(f"players must be a list of personality names or a count from 2 to 6, got {players!r}")
    if isinstance(players, int):
        if not 2 <= players <= 6:
            raise ValueError(f"golf is for 2 to 6 players (you included), got {players}")
        opponents = default_opponents(players - 1)
    else:
        opponents = check_opponents(players)
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a golflab.Rules, got {type(rules).__name__}")
    if isinstance(human_seat, bool) or not isinstance(human_seat, int) or not 0 <= human_seat <= len(opponents):
        raise ValueError(f"human_seat must be a seat from 0 to {len(opponents)}, got {human_seat!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ValueError(f"seed must be a whole number or None, got {seed!r}")
    return TableSettings(opponents, rules, seed, human_seat)


def _cpu_seed(seed: int, seat: int, moves: int) -> int:
    """The seed of one CPU decision: from the game's seed, the seat and the moves so far."""
    return ((seed * 1_000_003 + seat) * 1_000_033 + moves) % (2**63)


def _grid_from(hand) -> list:
    """Grid order cards from a HandBreakdown's columns."""
    cards = [None] * 6
    for col in hand.columns:
        for pos, card in zip(col.positions, col.cards):
            cards[pos] = card
    return cards


def _paired_positions(hand) -> set[int]:
    return {pos for col in hand.columns if col.paired for pos in col.positions}
