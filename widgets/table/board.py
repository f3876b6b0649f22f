"""The golf table's widgets and how a game state is drawn on them.

``Board`` builds the widget tree once (every clickable thing carries its stable CSS
hook) and ``Board.draw`` shows a game from the learner's seat; it holds no game logic
and wires no callbacks (``widgets.table.GolfTable`` does).
"""

from __future__ import annotations

import base64
import dataclasses
from html import escape
from typing import Sequence

import ipywidgets as w

from golflab import Game, Phase
from golflab import words as plain
from golflab.ai import CPU_NAMES, get_profile

from ..account.file_picker import FilePicker
from ..scroll import Scroller
from . import view, words
from .display_size import LARGE_CSS
from .pacing import SPEEDS

MORE_TITLES = ("Move log (newest first)", "New game settings: players, personalities, holes, rules",
               "Save or resume a game")
SETTINGS_TAB = 1
# A card back's button text. Never "": the ipywidgets Button view leaves its old text in
# place when description and icon are both empty, so a back would keep the last face shown.
BACK_TEXT = "\u00a0"


def set_classes(widget: w.DOMWidget, base: tuple[str, ...], extra: tuple[str, ...] = ()) -> None:
    """Set a widget's CSS classes (only sends an update when they change)."""
    wanted = tuple(base) + tuple(c for c in extra if c)
    if tuple(widget._dom_classes) != wanted:
        widget._dom_classes = wanted


def card_face(card) -> tuple[str, str, str]:
    """(button text, colour class, tooltip) for a face-up card on a card button. The tooltip is
    also the button's name for a screen reader, so it says what the button shows first (voice
    control users say it): ``7 of hearts``, ``Q, queen of hearts``, ``JK, joker``."""
    if card.is_joker:
        return "JK\n\u2605", "golf-joker", "JK, joker"
    rank = "10" if card.rank == "T" else card.rank
    name = plain.card_name(card, suit=True)
    said = name.replace(plain.rank_name(card.rank), rank, 1) if rank.isdigit() else f"{rank}, {name}"
    return f"{rank}\n{card.pretty[-1]}", "golf-red" if card.is_red else "golf-black", said


def grid_from(hand) -> list:
    """Grid-order cards from a HandBreakdown's columns."""
    cards = [None] * 6
    for col in hand.columns:
        for pos, card in zip(col.positions, col.cards):
            cards[pos] = card
    return cards


def paired_positions(hand) -> set[int]:
    return {pos for col in hand.columns if col.paired for pos in col.positions}


def _button(**kwargs) -> w.Button:
    return w.Button(layout=w.Layout(width="auto"), **kwargs)  # a Layout of its own for each button


class Board:
    """Every widget of the table; ``children`` is what the table's VBox shows."""

    def __init__(self) -> None:
        self.css = w.HTML(view.TABLE_CSS + LARGE_CSS)
        self.rules_bar = w.HTML()
        self.new_game_button = _button(description="New game", icon="refresh",
                                       tooltip="Deal a new game with the players and rules under New game settings")
        self.speed = w.ToggleButtons(options=list(SPEEDS), description="CPU speed",
                                     style={"button_width": "64px", "description_width": "initial"},
                                     tooltip="Pause between CPU moves (Instant: no pause)")
        self.opponents = w.HTML()
        self.deck_button = w.Button(tooltip="Draw the top card of the deck")
        self.discard_button = w.Button(tooltip="Take the top card of the discard pile")
        self.deck_label = w.HTML()
        self.discard_label = w.HTML('<div class="golf-pile-label">discard pile</div>')
        self.hand = w.HTML()
        self.discard_action = _button(description="Discard", icon="trash", button_style="warning",
                                      tooltip="Throw the drawn card onto the discard pile")
        self.skip_action = _button(description="Skip flip", icon="forward", button_style="info",
                                   tooltip="Do not flip a card this turn")
        self.knock_action = _button(description="Knock", icon="bolt", button_style="danger",
                                    tooltip="Knock early: turn up your last face-down cards as your whole turn "
                                    "and go out")
        self.status = w.HTML()
        self.slots = [w.Button(tooltip=words.position_words(i)) for i in range(6)]
        self.mine_label = w.HTML()
        self.summary = w.HTML()
        self.next_round_button = _button(description="Next hole", icon="forward", button_style="success")
        self.scores = w.HTML()
        self.log_box = w.HTML()
        self.person_style = "plays at this screen"  # how a person at the table is described (a room: their own page)
        self.shows_log = True  # False: ``draw`` leaves the log alone (a room shows its own, outside ``more``)
        self.recent = w.HTML()
        self.scroller = Scroller(".golf-table")
        self.save_button = _button(description="Save game", icon="download",
                                   tooltip="Make a file of this game that your browser can download")
        self.download = w.HTML()
        self.upload = FilePicker(accept=".json,application/json", description="Resume from a file",
                                 icon="upload", layout=w.Layout(width="auto"),
                                 tooltip="Choose a golf-game .json file saved with Save game")
        self.load_button = _button(description="Load pasted game", icon="upload",
                                   tooltip="Resume the game whose text is pasted into the box")
        self.save_text = w.Textarea(placeholder="Or paste the text of a saved golf-game .json file here and press "
                                    "Load pasted game.", layout=w.Layout(width="98%", height="70px"))
        self.settings_slot = w.VBox([w.HTML("<i>Preparing the settings\u2026</i>")])
        self.coach_slot = w.VBox()  # empty unless a coach attaches (widgets.coach_panel)
        self.review_slot = w.VBox()
        self.pass_text = w.HTML()
        self.ready_button = _button(description="Show my turn", icon="eye", button_style="primary",
                                    tooltip="Show the board to the player whose turn it is")
        self.pass_panel = w.VBox([self.pass_text, self.ready_button], layout=w.Layout(display="none"))
        self.pass_panel.add_class("golf-hotseat-pass")
        for widget, cls in ((self.new_game_button, "golf-new-game"), (self.deck_button, "golf-deck"),
                            (self.discard_button, "golf-discard"), (self.discard_action, "golf-action-discard"),
                            (self.skip_action, "golf-action-skip"), (self.knock_action, "golf-action-knock"),
                            (self.next_round_button, "golf-next-round"),
                            (self.scores, "golf-scores"), (self.speed, "golf-speed"), (self.save_button, "golf-save"),
                            (self.load_button, "golf-load"), (self.save_text, "golf-save-text"),
                            (self.upload, "golf-upload"), (self.download, "golf-download-box"),
                            (self.recent, "golf-recent-box"), (self.log_box, "golf-log-box"),
                            (self.rules_bar, "golf-rules-bar"), (self.ready_button, "golf-hotseat-ready")):
            widget.add_class(cls)
        for b in (self.discard_action, self.skip_action, self.knock_action, self.next_round_button):
            b.add_class("golf-action")
        self.next_round_button.add_class("golf-next-action")  # gets the focus when it shows (a11y.html.j2)
        self.more = w.Accordion(children=[
            w.VBox([self.log_box]),
            self.settings_slot,
            w.VBox([w.HBox([self.save_button, self.download], layout=w.Layout(align_items="center")),
                    w.HTML('<div class="golf-save-note">Save game makes a <b>.json</b> file of this game; keep it '
                           "and resume later from that file.</div>"),
                    w.HBox([self.upload]), self.save_text, w.HBox([self.load_button])]),
        ])
        self.more.add_class("golf-more")
        for i, title in enumerate(MORE_TITLES):
            self.more.set_title(i, title)
        self.children = self._layout()

    def _layout(self) -> list:
        def whole() -> w.Layout:  # a pile keeps its card's width; on a phone the row wraps instead
            return w.Layout(flex="0 0 auto")

        piles = w.HBox([
            w.VBox([self.deck_button, self.deck_label], layout=whole()),
            w.VBox([self.discard_button, self.discard_label], layout=whole()),
            self.hand,
            w.VBox([self.discard_action, self.skip_action, self.knock_action],  # a fixed width: no jumps
                   layout=w.Layout(justify_content="center", min_width="112px")),
        ], layout=w.Layout(align_items="flex-start", margin="8px 0 0 0", flex_flow="row wrap"))
        grid = w.GridBox(self.slots, layout=w.Layout(grid_template_columns="repeat(3, 84px)", width="270px"))
        grid.add_class("golf-roving")  # one Tab stop, the arrow keys within (a11y.html.j2)
        felt = w.VBox([self.opponents, w.HBox([w.VBox([self.mine_label, grid]), piles, self.recent],
                                              layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))])
        felt.add_class("golf-felt")
        self.felt = felt
        self.toolbar = toolbar = w.HBox([self.new_game_button, self.speed],
                         layout=w.Layout(flex_flow="row wrap", align_items="center"))
        return [self.css, self.scroller, self.rules_bar, toolbar, self.status, self.coach_slot, self.pass_panel,
                felt, self.summary,
                self.review_slot, self.next_round_button, self.scores, self.more]

    # ------------------------------------------------------------------ drawing
    def draw(self, game: Game, seat: int, log_lines: Sequence[str], moves: Sequence[words.Move] = (),
             notation: Sequence[str] = (), *, public: bool = False) -> None:
        """Show ``game`` as the learner at ``seat`` sees it (every card once a hole is over);
        ``moves`` (oldest first) give the last moves beside the board and each opponent's
        changed card; ``log_lines`` (words) and ``notation`` (under *Details*) the move log.
        ``public``: ``seat``'s place at the bottom, but only what the whole table sees (a projector
        that both halves of a class watch): no legal moves, and a card ``seat`` drew from the deck
        shown as a back ("Half A drew")."""
        obs = game.observation(seat)
        if public:
            obs = dataclasses.replace(obs, drawn=None, legal_actions=[])
        mine = obs.current_player == seat and game.phase in words.ACTIVE_PHASES
        legal = {str(a) for a in obs.legal_actions} if mine else set()
        over = game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
        result = game.round_results[-1] if over else None

        self.rules_bar.value = view.rules_bar_html(game.rules, game.round)
        self._draw_opponents(game, obs, result, moves)
        self.recent.value = view.recent_html(moves, game.round, None if public else seat)
        self._draw_piles(obs, legal, game.players[seat] if public and result is None else None)
        self._draw_grid(obs, legal, result)
        self.mine_label.value = (f'<div class="golf-mine-label">{escape(game.players[seat])} '
                                 f"\u00b7 total {game.totals[seat]}</div>")
        if result is None:
            self.summary.value = ""
        else:
            summary = view.hole_summary_html(game.players, result, len(game.round_results))
            if game.phase is Phase.GAME_OVER:
                summary = view.ranking_html(game.players, game.totals, game.holes_won) + summary
            self.summary.value = summary
        self.next_round_button.layout.display = None if game.phase is Phase.ROUND_OVER else "none"
        self.next_round_button.description = f"Next hole ({game.round + 1} of {game.rules.rounds})"
        self.scores.value = view.scores_html(game.players, game.round_results, game.totals, game.rules.rounds)
        if self.shows_log:
            self.log_box.value = view.log_html(log_lines, notation)

    def _draw_opponents(self, game: Game, obs, result, moves: Sequence[words.Move]) -> None:
        seats = []
        for s, name in enumerate(game.players):
            if s == obs.seat:
                continue
            cards = obs.grids[s] if result is None else grid_from(result.hands[s])
            holding = ""
            if s == obs.current_player and obs.holding and result is None:
                holding = (f"holds the {plain.card_name(obs.taken, suit=True)}" if obs.taken is not None
                           else "holds a card from the deck")
            active = s == obs.current_player and result is None
            style = get_profile(name).style if name in CPU_NAMES else self.person_style
            seats.append(view.opponent_html(name, style, game.totals[s], cards, active, holding,
                                            words.last_changed(moves, game.round, s)))
        self.opponents.value = view.opponents_html(seats)

    def _draw_piles(self, obs, legal: set[str], holder: "str | None" = None) -> None:
        """The deck, the discard pile and the card in play: the learner's own, or (``holder``: the
        bottom seat's name in a public view) what that seat holds as the table sees it, a back
        unless it was taken from the pile."""
        self.deck_button.description = f"Deck\n{obs.draw_pile_size}"
        self.deck_button.tooltip = f"Deck {obs.draw_pile_size}: draw the top card of the deck"
        set_classes(self.deck_button, ("golf-card-btn", "golf-deck", "golf-back"),
                    ("golf-legal" if "draw" in legal else "",))
        self.deck_label.value = f'<div class="golf-pile-label">deck: {obs.draw_pile_size} cards</div>'
        top = obs.discard_top
        if top is None:
            text, colour, tip = "empty", "golf-empty", "The discard pile is empty"
        else:
            text, colour, tip = card_face(top)
            tip = f"Discard pile: {tip}. Take it"
        self.discard_button.description = text
        self.discard_button.tooltip = tip
        set_classes(self.discard_button, ("golf-card-btn", "golf-discard", colour),
                    ("golf-legal" if "take" in legal else "",))
        if obs.drawn is not None and legal:
            self.hand.value = view.hand_html(obs.drawn, "you took" if obs.taken is not None else "you drew")
        elif holder is not None and obs.holding and obs.current_player == obs.seat:
            self.hand.value = view.hand_html(obs.taken, f"{holder} {'took' if obs.taken is not None else 'drew'}")
        else:
            self.hand.value = view.hand_html(None, "")
        self.discard_action.layout.display = None if "discard" in legal else "none"
        self.skip_action.layout.display = None if "skip" in legal else "none"
        self.knock_action.layout.display = None if "knock" in legal else "none"

    def _draw_grid(self, obs, legal: set[str], result) -> None:
        seat = obs.seat
        cards = obs.grids[seat] if result is None else grid_from(result.hands[seat])
        paired = set() if result is None else paired_positions(result.hands[seat])
        kind = "swap" if obs.awaiting == "place" else "flip"
        for pos, (slot, card) in enumerate(zip(self.slots, cards)):
            if card is None:
                slot.description, colour, tip = BACK_TEXT, "golf-back", "face down"
            else:
                slot.description, colour, tip = card_face(card)
            can = f"{kind} {pos}" in legal
            slot.tooltip = f"{words.position_words(pos)}: {tip}" + (f" \u2014 click to {kind}" if can else "")
            set_classes(slot, ("golf-card-btn", "golf-slot", f"golf-slot-{pos}", colour),
                        ("golf-legal" if can else "", "golf-paired" if pos in paired else ""))

    def show_status(self, text: str, awaiting: str, last: Sequence[str] = (), extra: str = "") -> None:
        """The status line: ``text``, below it the moves played since the board was last drawn (``last``,
        oldest first: a screen reader hears every CPU player's turn, not only the last, when they play
        at once), and ``golf-await-<awaiting>``."""
        said = "Last move" if len(last) == 1 else "Last moves"
        note = f'<span class="golf-last">{said}: {escape(" ".join(last))}</span>' if last else ""
        with self.status.hold_sync():  # text and golf-await-* class reach the page in one message
            self.status.value = f"{escape(text)}{note}"
            set_classes(self.status, ("golf-status", "golf-live", f"golf-await-{awaiting}"), (extra,))

    def show_pass(self, name: str | None) -> None:
        """Hide the board behind "Pass to <name>" (a shared screen between two people's turns),
        or show it again (None)."""
        self.felt.layout.display = None if name is None else "none"
        self.pass_panel.layout.display = "none" if name is None else None
        if name is not None:
            self.pass_text.value = ('<div class="golf-hotseat-note" style="font-size:1.6em;padding:18px 8px">'
                                    f"Pass to <b>{escape(name)}</b> \u2014 "
                                    "press when ready.</div>")
            self.ready_button.description = f"I am {name}, show my turn"

    def show_download(self, text: str, filename: str) -> None:
        """A link that downloads ``text`` as the file ``filename``."""
        data = base64.b64encode(text.encode()).decode()
        self.download.value = (f'<a class="golf-download" download="{escape(filename)}" '
                               f'href="data:application/json;base64,{data}">\u2b07 Download {escape(filename)}</a>')

    def scroll_into_view(self) -> None:
        """Ask the browser to scroll the table's top into view."""
        self.scroller.now()
