"""The new-game panel of the golf table: how many people at this screen (one learner, or
several taking turns: hot-seat) and their names, how many CPU players, which personalities,
your seat, an optional seed, and every rule option (``RulesForm``, each with its explanation).

Hooks: ``golf-people`` (the people menu), ``golf-person-name`` and ``golf-person-name-N``
(a person's name box, N from 0), ``golf-cpu-count`` (how many CPU players),
``golf-cpu-N`` (a CPU seat's personality), ``golf-your-seat``, ``golf-seed``,
``golf-new-game-here`` and ``golf-setup-problem`` (why the last press started no game),
``golf-level-suggestion`` (the opponent level suggested from the learner's results,
``golflab.ai.levels.suggest_level``) and ``golf-use-level`` (puts it in the first CPU seat).

``table_settings`` and ``hot_settings`` validate a table's seating (one learner, or several
people at one screen) for ``GolfTable`` and the panel alike."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Iterator

import ipywidgets as w

from golflab import Game, Rules
from golflab.ai import CPU_NAMES, CPU_NAMES_TEXT, PROFILES, Suggestion, get_profile, personality_names, suggest_level

from ..a11y import name_control
from .rules_form import RulesForm

HUMAN_NAME = "You"
MAX_OPPONENTS = 5
MAX_PLAYERS = MAX_OPPONENTS + 1
MAX_NAME = 20  # characters in a person's name: it must fit the board's labels and status line
LABEL = {"description_width": "initial"}  # a control's label as wide as its words (large type too)
MAX_SEED = 2**63 - 1  # a random game's seed is below 2**63: any seed from the move log can be typed back


@dataclass(frozen=True)
class TableSettings:
    """What a new game needs: the CPU personalities in seat order, the rules, the seed
    (None: a random one) and the learner's seat; or, for several people at one screen
    (hot-seat), the people's names in ``people`` and the seats they hold in ``people_seats``
    (ascending; when it does not fit the number of people and seats, the people sit first and
    the CPU players after them)."""

    opponents: tuple[str, ...]
    rules: Rules
    seed: int | None
    human_seat: int
    people: tuple[str, ...] = ()
    people_seats: tuple[int, ...] = ()

    @property
    def players(self) -> list[str]:
        """Seat names: the personalities with ``You`` inserted at the learner's seat (hot-seat:
        the people in ``people_seats``, the personalities in the other seats, each in order)."""
        if self.people:
            seats = self.people_seats if fits_seats(self.people_seats, len(self.people), self.seat_count) \
                else range(len(self.people))
            people, cpus = iter(self.people), iter(self.opponents)
            return [next(people) if seat in seats else next(cpus) for seat in range(self.seat_count)]
        names = list(self.opponents)
        names.insert(self.human_seat, HUMAN_NAME)
        return names

    @property
    def seat_count(self) -> int:
        return len(self.opponents) + max(len(self.people), 1)


def fits_seats(seats, people: int, total: int) -> bool:
    """Whether ``seats`` can be the seats of ``people`` people at a table of ``total`` seats:
    that many distinct seats from 0 to ``total - 1``, ascending."""
    seats = tuple(seats)
    return len(seats) == people and list(seats) == sorted(set(seats)) and all(0 <= s < total for s in seats)


def check_people(names) -> tuple[str, ...]:
    """Validate the names of the people at one screen (hot-seat): 2 to 6 names of at most
    ``MAX_NAME`` characters, distinct, neither a CPU personality's name nor ``You`` (the one
    learner's seat); a ValueError saying which name is wrong and why."""
    if not 2 <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"several people at one screen are 2 to {MAX_PLAYERS} names, got {len(names)}; "
                         "for one learner against CPU players leave humans out")
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise ValueError(f"a person's name is text, got {name!r}")
        if not name.strip():
            raise ValueError(f"person {i + 1} has no name: type a name for each person at this screen")
        if len(name) > MAX_NAME:
            raise ValueError(f"the name {name[:MAX_NAME]!r}... is too long: at most {MAX_NAME} characters")
        if name in CPU_NAMES:
            raise ValueError(f"{name!r} is a CPU personality; give the people other names")
        if name == HUMAN_NAME:
            raise ValueError(f"{HUMAN_NAME!r} is the seat of the one learner in a one-person game; give each "
                             "person at this screen their own name")
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"two people are called {twice!r}: every person needs a different name")
    return tuple(names)


def and_list(names) -> str:
    """``Ann``, ``Ann and Ben``, ``Ann, Ben and Cleo``."""
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def people_in(players) -> tuple[str, ...]:
    """Who plays at this screen in a game with these seat names: ``("You",)`` when a seat is
    called ``You`` (one learner), else every seat not named after a CPU personality (CPU
    seats always are, people's never are), in seat order."""
    names = list(players)
    if HUMAN_NAME in names:
        return (HUMAN_NAME,)
    return tuple(name for name in names if name not in CPU_NAMES)


def check_opponents(names) -> tuple[str, ...]:
    """Validate CPU opponents: 1-5 distinct names from ``golflab.ai.CPU_NAMES`` (the eight
    personalities, the Expert and Level 1 to Level 8)."""
    return tuple(personality_names([names] if isinstance(names, str) else names, count=(1, MAX_OPPONENTS),
                                   distinct=True, what="CPU opponents"))


def default_opponents(count: int) -> tuple[str, ...]:
    """The first ``count`` personalities in ``PROFILES`` order (deterministic)."""
    return tuple(list(PROFILES)[:count])


def _rules_and_seed(rules: Rules | None, seed: int | None) -> Rules:
    """The game's rules (None: the defaults); a ValueError for rules or a seed of the wrong kind."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ValueError(f"seed must be a whole number or None, got {seed!r}")
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a golflab.Rules, got {type(rules).__name__}")
    return rules


def table_settings(players, rules: Rules | None, seed: int | None, human_seat: int) -> TableSettings:
    """Validate the table's arguments into TableSettings (a ValueError saying what is allowed)."""
    if isinstance(players, bool) or not isinstance(players, (int, str, list, tuple)):
        raise ValueError(f"players must be a list of CPU personality names (from {CPU_NAMES_TEXT}) "
                         f"or a count from 2 to 6, got {players!r}")
    if isinstance(players, int):
        if not 2 <= players <= 6:
            raise ValueError(f"golf is for 2 to 6 players (you included), got {players}")
        opponents = default_opponents(players - 1)
    else:
        opponents = check_opponents(players)
    rules = _rules_and_seed(rules, seed)
    if isinstance(human_seat, bool) or not isinstance(human_seat, int) or not 0 <= human_seat <= len(opponents):
        raise ValueError(f"human_seat must be a seat from 0 to {len(opponents)}, got {human_seat!r}")
    return TableSettings(opponents, rules, seed, human_seat)


def hot_settings(players, humans, rules: Rules | None, seed: int | None) -> TableSettings:
    """Validate a hot-seat table: ``players`` every seat's name in order, ``humans`` the people
    among them (2-6, see ``check_people``); the other seats are personalities.
    Returns TableSettings whose ``players`` are exactly ``players``."""
    if isinstance(players, (str, int)) or not isinstance(players, (list, tuple)):
        raise ValueError(f"with humans, players must list every seat's name in order, got {players!r}")
    if isinstance(humans, str) or not isinstance(humans, (list, tuple)) or not humans:
        raise ValueError(f"humans must be a list of the people's names among players, got {humans!r}")
    names = list(players)
    if not 2 <= len(names) <= 6:
        raise ValueError(f"golf is for 2 to 6 players, got {len(names)}: {names}")
    check_people(humans)
    for name in humans:
        if name not in names:
            raise ValueError(f"every human must be one of the players {names}, got {name!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"every player needs a different name, got players {names} and humans {list(humans)}")
    cpus = [n for n in names if n not in humans]
    if cpus:
        check_opponents(cpus)
    rules = _rules_and_seed(rules, seed)
    return _HotSettings(tuple(names), rules, seed, names.index(humans[0]))


class _HotSettings(TableSettings):
    """TableSettings whose ``opponents`` are every seat (the people included)."""

    @property
    def players(self) -> list[str]:
        return list(self.opponents)


def cpu_label(name: str) -> str:
    """A CPU player's name with its style, as the personality menus show it."""
    return f"{name} \u2014 {get_profile(name).style}"


def _guest_games(texts) -> Iterator[tuple]:
    """``(players, totals, seat)`` of a guest's saved games where "You" played, newest first
    (each read only when asked for: the suggestion needs the newest)."""
    for text in reversed(list(texts)):
        try:
            game = Game.from_json(text)
        except ValueError:
            continue
        if HUMAN_NAME in game.players:
            yield game.players, game.totals, game.players.index(HUMAN_NAME)


def learner_suggestion() -> Suggestion:
    """The level to suggest to this page's learner (``suggest_level``): a signed-in learner's
    puzzle rating when they have one, else their newest kept game; a guest's newest finished
    game on this page (``widgets.account.guest.guest_progress``)."""
    from ..account import learner_progress as progress

    if progress.session().signed_in:
        profile = progress.puzzle_profile()
        if profile is not None and profile.attempts:
            return suggest_level(rating=profile.rating)
        games = progress.my_games(limit=5) or []
        return suggest_level(games=[(r.players, r.scores, r.seat) for r in games])
    from ..account.guest import guest_progress

    return suggest_level(games=_guest_games(guest_progress.games))


class NewGamePanel(w.VBox):
    """Controls for the next game. ``panel.settings()`` validates them into TableSettings."""

    def __init__(self, settings: TableSettings) -> None:
        options = [(cpu_label(n), n) for n in CPU_NAMES]
        self.people = w.Dropdown(options=[("1: you against the CPU players", 1)]
                                 + [(f"{n}: take turns at this screen", n) for n in range(2, MAX_PLAYERS + 1)],
                                 description="People at this screen", style=LABEL, layout=w.Layout(width="360px"))
        self.names = [w.Text(description=f"Person {i + 1}", placeholder="name", style=LABEL,
                             layout=w.Layout(width="230px")) for i in range(MAX_PLAYERS)]
        self.count = w.Dropdown(description="Opponents", style=LABEL, layout=w.Layout(width="190px"))
        self.personalities = [name_control(w.Dropdown(options=options, layout=w.Layout(width="480px",
                                                                                      max_width="100%")),
                                           f"opponent {i + 1}") for i in range(MAX_OPPONENTS)]
        self.seat = w.Dropdown(description="Your seat", style=LABEL, layout=w.Layout(width="190px"))
        self.seed = w.Text(description="Seed", placeholder="blank = random", style=LABEL,
                           layout=w.Layout(width="220px"))
        self.rules_form = RulesForm(settings.rules)
        self.new_game_button = w.Button(description="New game with these settings", icon="refresh",
                                        button_style="primary", layout=w.Layout(width="auto"),
                                        tooltip="Deal a new game with the players and rules above")
        self.problem = w.HTML(layout=w.Layout(display="none"))
        self.suggestion = w.HTML()
        self.use_level = w.Button(layout=w.Layout(width="auto"), tooltip="Put this level in the first CPU seat")
        self.use_level.on_click(lambda _: self.choose_level(self.suggested.level.name))
        self.suggested: Suggestion | None = None
        hooks = [(self.people, "golf-people"), (self.problem, "golf-setup-problem"), (self.count, "golf-cpu-count"),
                 (self.seat, "golf-your-seat"), (self.seed, "golf-seed"), (self.new_game_button, "golf-new-game-here"),
                 (self.suggestion, "golf-level-suggestion"), (self.use_level, "golf-use-level")]
        hooks += [(box, f"golf-person-name-{i}") for i, box in enumerate(self.names)]
        hooks += [(dd, f"golf-cpu-{i}") for i, dd in enumerate(self.personalities)]
        for widget, cls in hooks:
            widget.add_class(cls)
        for box in self.names:
            box.add_class("golf-person-name")
        self._syncing = False
        self._people_seats: tuple[int, ...] = ()  # the seats of the table's people (hot-seat), kept if they fit
        self.people.observe(lambda _: self._sync(), names="value")
        self.count.observe(lambda _: self._sync(), names="value")
        note = w.HTML("<span style='color:#555;font-size:12px'>Seat 1 starts the first hole; the start moves one "
                      "seat on every hole. The same seed deals the same cards. Several people at this screen "
                      "sit first, in the order above, the CPU players after them (a table that seats them "
                      "between the CPU players keeps the people's seats while there are as many people and enough "
                      "seats); between two people's turns the board is hidden until the next person is "
                      "ready.</span>")
        super().__init__([
            w.HTML("<b>Players</b>"),
            self.people, w.HBox(self.names, layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.count, self.seat, self.seed]), note,
            w.HBox([self.suggestion, self.use_level]),
            w.VBox(self.personalities),
            w.HTML("<b>Rules</b>"), self.rules_form,
            self.new_game_button, self.problem,
        ])
        self.show(settings)

    def _sync(self) -> None:
        if self._syncing:  # setting the menus below calls back here
            return
        self._syncing = True
        try:
            self._show_seats(self.people.value)
        finally:
            self._syncing = False

    def _show_seats(self, people: int) -> None:
        """Show a name box per person, the CPU-count menu's range and a menu per CPU seat."""
        for i, box in enumerate(self.names):
            box.layout.display = None if people > 1 and i < people else "none"
        low = 1 if people == 1 else 0
        count = min(max(self.count.value or 0, low), MAX_PLAYERS - people)
        self.count.description = "Opponents" if people == 1 else "CPU players"
        self.count.options = list(range(low, MAX_PLAYERS - people + 1))
        self.count.value = count
        for i, dd in enumerate(self.personalities):
            dd.layout.display = None if i < count else "none"
            dd.description = f"CPU {i + 1}"
        seat = min(self.seat.value or 0, count)
        self.seat.options = [(f"{i + 1} of {count + 1}", i) for i in range(count + 1)]
        self.seat.value = seat
        self.seat.layout.display = None if people == 1 else "none"

    def show_problem(self, text: str) -> None:
        """Say below the button why it started no game ("" hides the message)."""
        self.problem.value = (f'<div style="background:#ffebee;border-left:4px solid #c62828;padding:4px 10px;'
                              f'margin:4px 0">{escape(text)}</div>') if text else ""
        self.problem.layout.display = None if text else "none"

    def suggest(self, suggestion: Suggestion) -> None:
        """Show ``suggestion`` (a level and why) beside a button that picks it."""
        self.suggested = suggestion
        name = suggestion.level.name
        self.suggestion.value = (f"<span style='font-size:13px'>Suggested opponent: <b>{escape(name)}</b> "
                                 f"({escape(suggestion.reason)})</span>")
        self.use_level.description = f"Play {name}"

    def choose_level(self, name: str) -> None:
        """Put level ``name`` in the first CPU seat (swapping menus when another seat has it)."""
        first = self.personalities[0]
        for dd in self.personalities[1:self.count.value]:
            if dd.value == name:
                dd.value = first.value
        first.value = name
        if not self.count.value:
            self.count.value = 1

    def show(self, settings: TableSettings) -> None:
        """Put ``settings`` into the controls and suggest a level (``learner_suggestion``)."""
        self.suggest(learner_suggestion())
        self.show_problem("")
        self._people_seats = settings.people_seats
        people = len(settings.people) if len(settings.people) > 1 else 1
        for box, name in zip(self.names, settings.people if people > 1 else ()):
            box.value = name
        self.people.value = people
        self._sync()
        self.count.value = len(settings.opponents)
        names = list(settings.opponents) + [n for n in CPU_NAMES if n not in settings.opponents]
        for dd, name in zip(self.personalities, names):
            dd.value = name
        self._sync()
        self.seat.value = min(settings.human_seat, len(settings.opponents))
        self.seed.value = "" if settings.seed is None else str(settings.seed)
        self.rules_form.set_rules(settings.rules)

    def settings(self) -> TableSettings:
        """The validated settings (a ValueError saying what is wrong otherwise)."""
        n = self.count.value
        names = [dd.value for dd in self.personalities[:n]]
        opponents = check_opponents(names) if n or self.people.value == 1 else ()
        people = ()
        if self.people.value > 1:
            people = check_people([box.value.strip() for box in self.names[:self.people.value]])
        seat = self.seat.value if not people else 0
        seats = self._people_seats if fits_seats(self._people_seats, len(people), len(people) + len(opponents)) \
            else ()
        return TableSettings(opponents, self.rules_form.rules, parse_seed(self.seed.value), seat, people, seats)


def parse_seed(text: str) -> int | None:
    """The seed typed in the panel: digits 0-9 only (None when blank), else a plain ValueError."""
    text = text.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_SEED:
        raise ValueError(f"the seed must be a whole number from 0 to {MAX_SEED} or blank (random), got {text!r}")
    return int(text)
