"""``CodepieceTable``: play a Codepiece match with a CPU partner against two CPU opponents.

Built on golflab's public API only. Stable CSS hooks for browser tests: the hand's cards
``cp-card-XX`` (only legal ones enabled), ``cp-bid-8`` ...
``cp-bid-13``, ``cp-pass``, ``cp-trump-S|H|D|C``, ``cp-next-deal``, ``cp-new-match``; the
status line ``cp-status`` also carries ``cp-await-<what>`` (``bid``, ``trump``, ``card``,
``cpu``, ``deal-over``, ``match-over``); the felt is ``cp-trick``, the panel ``cp-info``,
the end-of-deal summary ``cp-summary``, the move log's accordion ``cp-log`` (the moves in words,
notation behind its *Details*).

Choices where the spec is silent:

* You sit at ``human_seat`` (0 by default); seats are named from where you sit: Left
  (plays after you), Partner (across), Right. Every CPU move is ``CodepieceMatch.cpu_action``,
  so one seed drives the cards and every CPU choice.
* CPU moves are paced like the golf table: ``cpu_delay`` seconds apart (None: 0.6, or
  ``GOLFLAB_CPU_DELAY`` when set), in an asyncio task so callbacks never block.
* When a trick is complete the felt shows it (and who won it) until the next card is led.
* A click that is not legal changes nothing and the status line says why.
* ``New match`` during a match asks for a second click before throwing it away.
"""

from __future__ import annotations

import functools
import logging
from html import escape

import ipywidgets as w

from golflab import IllegalActionError
from golflab.codepiece import CodepieceMatch

from ..table.board import set_classes
from ..table.golf_table import env_delay, env_seed
from ..table.pacing import SPEEDS, CpuPacer, CpuSpeed, guarded
from ..table.view import TABLE_CSS, log_html
from . import view, words

log = logging.getLogger(__name__)

RANKS = "23456789TJQKA"
ALL_CARDS = tuple(r + s for s in "SHDC" for r in RANKS)
BIDS = tuple(range(8, 14))


#: A row of buttons: on a narrow screen it wraps rather than squeeze its buttons' words ("B…").
ROW = dict(align_items="center", flex_flow="row wrap")


def _button(description: str, hook: str, **kwargs) -> w.Button:
    button = w.Button(description=description, layout=w.Layout(width="auto"), **kwargs)
    button.add_class(hook)
    return button


class CodepieceTable(CpuSpeed, w.VBox):
    """A Codepiece match at the table: you and a CPU partner against two CPU players.

    ``deals``: deals in the match. ``seed``: drives the cards and the CPU players (None:
    random, or ``GOLFLAB_SEED`` when set). ``human_seat``: your seat 0-3. ``cpu_delay``:
    seconds between CPU moves (0 plays them at once).

    The widgets are attributes (``cards`` by card code, ``bid_buttons`` by bid,
    ``pass_button``, ``trump_buttons`` by suit, ``next_deal_button``, ``new_match_button``,
    ``status``), so code can press them: ``table.cards["AS"].click()``.
    """

    def __init__(self, deals: int = 4, seed: int | None = None, human_seat: int = 0,
                 cpu_delay: float | None = None) -> None:
        if isinstance(human_seat, bool) or human_seat not in (0, 1, 2, 3):
            raise ValueError(f"human_seat must be a seat 0-3, got {human_seat!r}")
        seed = env_seed() if seed is None else seed
        delay = env_delay() if cpu_delay is None else cpu_delay
        match = CodepieceMatch(deals=deals, seed=seed)
        self.human_seat = human_seat
        self.names = words.seat_names(human_seat)
        self.errors: list[str] = []
        self.log_lines: list[str] = []
        self.notation_lines: list[str] = []
        self._confirm_new = False
        self._last_trick: tuple | None = None
        self._status_text = ""
        self._awaiting = ""
        self._syncing = False
        self._build()
        super().__init__(self._layout(), layout=w.Layout(width="100%"))
        self.add_class("cp-table")
        self.pacer = CpuPacer(self._cpu_pending, self._cpu_step, self._render, self._fail)
        self.cpu_delay = delay
        self._start(match)

    # ------------------------------------------------------------------ widgets
    def _build(self) -> None:
        self.css = w.HTML(TABLE_CSS + view.CSS)  # the golf table's sheet styles the move log
        self.info = w.HTML()
        self.felt = w.HTML()
        self.status = w.HTML()
        self.status.add_class("cp-status")
        self.cards = {c: w.Button(description=words.card_label(c), tooltip=words.card_words(c),
                                  layout=w.Layout(width="52px", height="64px")) for c in ALL_CARDS}
        for code, button in self.cards.items():
            set_classes(button, ("cp-card", f"cp-card-{code}", "cp-red" if code[1] in "HD" else "cp-black"))
            button.on_click(functools.partial(self._on_action, code))
        self.hand = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.hand.add_class("cp-hand")
        self.pass_button = _button("Pass", "cp-pass")
        self.bid_buttons = {b: _button(f"Bid {b}", f"cp-bid-{b}", button_style="info") for b in BIDS}
        self.pass_button.on_click(functools.partial(self._on_action, "pass"))
        for b, button in self.bid_buttons.items():
            button.on_click(functools.partial(self._on_action, f"bid_{b}"))
        self.bid_row = w.HBox([w.HTML("<b>Your bid:</b>&nbsp;"), self.pass_button, *self.bid_buttons.values()],
                              layout=ROW)
        self.trump_buttons = {s: _button(f"{words.SUIT_SYMBOLS[s]} {words.SUIT_NAMES[s]}", f"cp-trump-{s}",
                                         button_style="warning") for s in "SHDC"}
        for s, button in self.trump_buttons.items():
            button.on_click(functools.partial(self._on_action, f"trump_{s}"))
        self.trump_row = w.HBox([w.HTML("<b>Trump:</b>&nbsp;"), *self.trump_buttons.values()], layout=ROW)
        self.summary = w.HTML()
        self.next_deal_button = _button("Next deal", "cp-next-deal", icon="forward", button_style="success")
        self.next_deal_button.on_click(self._on_next_deal)
        self.new_match_button = _button("New match", "cp-new-match", icon="refresh")
        self.new_match_button.on_click(self._on_new_match)
        self.speed = w.ToggleButtons(options=list(SPEEDS), description="CPU speed",
                                     style={"button_width": "64px", "description_width": "initial"})
        self.speed.add_class("cp-speed")
        self.speed.observe(self._on_speed, names="value")
        self.log_box = w.HTML()
        self.more = w.Accordion(children=[self.log_box], titles=("Move log (newest first)",), selected_index=None)
        self.more.add_class("cp-log")

    def _layout(self) -> list:
        return [self.css, w.HBox([self.new_match_button, self.speed], layout=ROW),
                w.HBox([self.felt, self.info], layout=w.Layout(align_items="flex-start", grid_gap="16px")),
                self.status, self.bid_row, self.trump_row, self.hand, self.summary, w.HBox([self.next_deal_button]),
                self.more]

    # ------------------------------------------------------------------- public
    @property
    def game(self):
        """The deal in play (a ``CodepieceGame``)."""
        return self.match.game

    def playing_started(self) -> bool:
        return hasattr(self, "match")

    @property
    def status_text(self) -> str:
        """The status line as plain text."""
        return self._status_text

    @property
    def awaiting(self) -> str:
        """What the table waits for: bid, trump, card, cpu, deal-over or match-over."""
        return self._awaiting

    def state(self) -> dict:
        """Your seat's view of the deal (``CodepieceGame.state``)."""
        return self.game.state(self.human_seat)

    def run_cpu_turns(self) -> int:
        """Play every pending CPU move now, without pauses; returns how many were played."""
        return self.pacer.run_now()

    def play(self, action: str) -> None:
        """Play ``action`` for you, as a click would (a refusal is shown and changes nothing)."""
        self._human(action)

    def save(self) -> str:
        """The match as JSON text (``CodepieceMatch.to_json``)."""
        return self.match.to_json()

    def load(self, text: str) -> None:
        """Resume a match saved with ``save``; bad text is a ValueError and changes nothing."""
        self._start(CodepieceMatch.from_json(text))

    def new_match(self, seed: int | None = None, deals: int | None = None) -> None:
        """Start a new match (a random seed unless given; the same number of deals unless given)."""
        self._start(CodepieceMatch(deals=self.match.deals if deals is None else deals, seed=seed))

    def __repr__(self) -> str:
        return f"<CodepieceTable: deal {self.match.deal_number} of {self.match.deals}, you at seat {self.human_seat}>"

    # ---------------------------------------------------------------- game flow
    def _start(self, match: CodepieceMatch) -> None:
        self.pacer.stop()
        self.match = match
        self._confirm_new = False
        self._last_trick = self._completed_last()
        self.log_lines = [f"New match of {match.deals} deals: you and Partner against Left and Right."]
        self.notation_lines = [f"seed {match.seed}, you are seat {self.human_seat}"]
        self._render()
        self.pacer.schedule()

    def _completed_last(self) -> tuple | None:
        done = self.game.state(self.human_seat)["completed_tricks"]
        return tuple(done[-1]) if done else None

    def _cpu_pending(self) -> bool:
        return not self.match.deal_over and self.game.current_player != self.human_seat

    def _apply(self, action: str) -> None:
        """Apply one move for the seat to move and log it."""
        seat = self.game.current_player
        tricks = len(self.game.completed_tricks)
        self.match.apply(action)
        deal = self.match.deal_number
        self.log_lines.append(f"Deal {deal}: {words.move_words(self.names[seat], action)}.")
        self.notation_lines.append(f"D{deal} {self.names[seat]}: {action}")
        if len(self.game.completed_tricks) > tricks:
            self._last_trick = self._completed_last()
            self.log_lines.append(f"Trick {tricks + 1} goes to {self.names[self._last_trick[1]]}.")
        if self.match.deal_over:
            self.log_lines.append(words.deal_result(self.state(), self.names))

    def _cpu_step(self) -> None:
        action = self.match.cpu_action()
        try:
            self._apply(action)
        except IllegalActionError as exc:  # a CPU bug must not freeze the learner's match
            log.error("CPU chose an illegal move: %s", exc)
            self.errors.append(f"CPU chose an illegal move {action}: {exc}")
            self._apply(self.game.legal_actions()[0])

    def _human(self, action: str) -> None:
        self._confirm_new = False
        state = self.state()
        if action not in state["legal_actions"]:
            self._refuse(words.refusal(state, action, self.names))
            return
        self._apply(action)
        self._render()
        self.pacer.schedule()

    # ---------------------------------------------------------------- callbacks
    @guarded
    def _on_action(self, action: str, _button=None) -> None:
        self._human(action)

    @guarded
    def _on_next_deal(self, _button=None) -> None:
        self._confirm_new = False
        if not self.match.deal_over:
            self._refuse("The deal is still being played: " + words.situation(self.state(), self.names)[0])
            return
        if self.match.over:
            self._refuse("The match is over: press New match to play another.")
            return
        self.match.next_deal()
        self._last_trick = None
        dealer = words.subject_verb(self.names[self.match.dealer], "deal")
        self.log_lines.append(f"Deal {self.match.deal_number}: {dealer}.")
        self._render()
        self.pacer.schedule()

    @guarded
    def _on_new_match(self, _button=None) -> None:
        if not self.match.over and any(self.match.history) and not self._confirm_new:
            self._confirm_new = True
            self._refuse("This match is not finished. Press New match again to abandon it, or keep playing.")
            return
        self.new_match()

    # ------------------------------------------------------------------ drawing
    def _render(self) -> None:
        state = self.state()
        m = self.match
        self.info.value = view.info_html(state, self.names, m.deal_number, m.deals, m.scores)
        self.felt.value = view.trick_html(state, self.names, self._last_trick)
        legal = set(state["legal_actions"])
        self.hand.children = [self.cards[c] for c in state["hand"]]
        choosing_card = state["phase"] == "play" and bool(legal)
        for code in state["hand"]:
            button = self.cards[code]
            button.disabled = code not in legal
            mark = ("cp-legal" if code in legal else "cp-dim") if choosing_card else ""
            set_classes(button, ("cp-card", f"cp-card-{code}", "cp-red" if code[1] in "HD" else "cp-black"), (mark,))
        bidding, choosing = state["phase"] == "bidding", state["phase"] == "trump"
        self.bid_row.layout.display = None if bidding else "none"
        self.pass_button.disabled = "pass" not in legal
        for b, button in self.bid_buttons.items():
            button.disabled = f"bid_{b}" not in legal
        self.trump_row.layout.display = None if choosing and state["current_player"] == self.human_seat else "none"
        for s, button in self.trump_buttons.items():
            button.disabled = f"trump_{s}" not in legal
        over = m.deal_over
        self.summary.value = view.summary_html(state, self.names, m.results, m.scores, m.over) if over else ""
        self.next_deal_button.layout.display = None if over and not m.over else "none"
        self.log_box.value = log_html(self.log_lines, self.notation_lines)
        text, awaiting = words.situation(state, self.names)
        if m.over:
            text, awaiting = f"{text} The match is over: press New match to play another.", "match-over"
        elif over:
            text = f"{text} Press Next deal for deal {m.deal_number + 1} of {m.deals}."
        self._set_status(text, awaiting)

    def _set_status(self, text: str, awaiting: str, extra: str = "") -> None:
        self._status_text, self._awaiting = text, awaiting
        with self.status.hold_sync():  # one message: the page never shows new words with an old cp-await class
            self.status.value = escape(text)
            set_classes(self.status, ("cp-status", "golf-live", f"cp-await-{awaiting}"), (extra,))

    def _refuse(self, text: str) -> None:
        self._set_status(text, self._awaiting, "cp-refused")

    def _fail(self, exc: BaseException) -> None:
        log.exception("Codepiece table callback failed", exc_info=exc)
        self.errors.append(f"{type(exc).__name__}: {exc}")
        try:
            self._render()
        except Exception:
            log.exception("re-rendering after an error failed")
        self._set_status(f"Sorry, something went wrong ({exc}). You can keep playing or start a new match.",
                         self._awaiting, "cp-error")
