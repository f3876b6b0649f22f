"""HTML for cards, grids and games, so they draw themselves in a notebook.

Plain strings only: nothing here imports Jupyter. The widgets reuse these helpers.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Iterable, Sequence

from . import words
from .cards import Card

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game
    from .scoring import Adjustment, HandBreakdown

CARD_CSS = """
<style>
.gl-card{display:inline-flex;flex-direction:column;justify-content:space-between;box-sizing:border-box;
 width:var(--gl-w,48px);height:var(--gl-h,68px);border-radius:6px;border:1px solid #999;background:#fff;
 font:600 var(--gl-f,16px)/1 system-ui,sans-serif;padding:calc(var(--gl-f,16px)/4);margin:2px;
 box-shadow:0 1px 2px rgba(0,0,0,.25);color:#222;vertical-align:top}
.gl-card>span{white-space:nowrap}
.gl-card .gl-mid{align-self:center;font-size:calc(var(--gl-f,16px)*1.5)}
.gl-card .gl-br{align-self:flex-end;transform:rotate(180deg)}
.gl-card.gl-red{color:#c62828}
.gl-card.gl-joker{color:#6a1b9a}
.gl-card.gl-back{background:repeating-linear-gradient(45deg,#1e4f8a,#1e4f8a 5px,#2d6cb5 5px,#2d6cb5 10px);
 border:3px solid #fff;outline:1px solid #1e4f8a}
.gl-card.gl-empty{background:transparent;border:1px dashed #bbb;box-shadow:none}
.gl-grid{display:inline-grid;grid-template-columns:repeat(3,auto);gap:2px;padding:4px}
.gl-seat{display:inline-block;margin:4px 12px 4px 0;vertical-align:top;font:13px system-ui,sans-serif}
.gl-seat.gl-active .gl-name{color:#1b5e20;text-decoration:underline}
.gl-name{font-weight:600;margin-bottom:2px}
.gl-card.gl-paired{outline:3px solid #2e7d32;outline-offset:-1px}
.gl-note{color:#666}
.gl-breakdown{display:inline-block;vertical-align:top;margin:4px 16px 4px 0}
.gl-piles{display:inline-block;vertical-align:top;margin:4px 12px;font:12px system-ui,sans-serif;text-align:center}
</style>
"""


def card_name(card: Card | None, face_up: bool = True, where: str = "") -> str:
    """A card's one accessible name: ``seven of hearts``, ``joker`` or ``face down``, after its
    place when given (``top left: face down``)."""
    if card is None or not face_up:
        name = "face down"
    else:
        name = "joker" if card.is_joker else words.card_name(card, suit=True)
    return f"{where}: {name}" if where else name


def card_html(card: Card | None, face_up: bool = True, extra_class: str = "", where: str = "") -> str:
    """One card as HTML: its face, or a back when ``face_up`` is false or ``card`` is None. A
    screen reader reads it once by name (``card_name``), after its place ``where`` when given."""
    cls = "gl-card " + extra_class
    label = f'role="img" aria-label="{escape(card_name(card, face_up, where))}"'
    if card is None or not face_up:
        return f'<span class="{cls} gl-back" title="face down" {label}></span>'
    if card.is_joker:
        return (f'<span class="{cls} gl-joker" title="joker" {label}><span>JK</span>'
                '<span class="gl-mid">\u2605</span><span class="gl-br">JK</span></span>')
    color = " gl-red" if card.is_red else ""
    pretty = escape(card.pretty)
    return (f'<span class="{cls}{color}" title="{card.code}" {label}><span>{pretty}</span>'
            f'<span class="gl-mid">{escape(pretty[-1])}</span><span class="gl-br">{pretty}</span></span>')


def grid_html(cards: Sequence[Card | None], face_up: Iterable[bool] | None = None, label: str = "cards") -> str:
    """A 2x3 grid in spec order (0-2 top row, 3-5 bottom); None or face_up False shows a back.
    A screen reader hears it as a group named ``label``, each card after its place."""
    ups = list(face_up) if face_up is not None else [c is not None for c in cards]
    return (f'<div class="gl-grid" role="group" aria-label="{escape(label)}">'
            + "".join(card_html(c, u, where=words.position(i)) for i, (c, u) in enumerate(zip(cards, ups)))
            + "</div>")


def game_html(game: "Game") -> str:
    """The table: every seat's grid (face-down cards as backs), the piles and the totals."""
    seats = []
    for s, name in enumerate(game.players):
        active = " gl-active" if s == game.current_player and game.awaiting else ""
        seats.append(
            f'<div class="gl-seat{active}"><div class="gl-name">{escape(name)} \u00b7 total {game.totals[s]}</div>'
            f"{grid_html(game.grid(s), game.face_up(s), label=f'cards of {name}')}</div>"
        )
    pile = game.discard_pile
    held = ""
    if game.held is not None:
        held = f'<div class="gl-piles">in hand<br>{card_html(game.held)}</div>'
    piles = (f'<div class="gl-piles">draw ({game.draw_pile_size})<br>{card_html(None, False)}</div>'
             f'<div class="gl-piles">discard<br>'
             f'{card_html(pile[-1]) if pile else card_html(None, extra_class="gl-empty")}</div>'
             + held)
    head = (f"<div style='font:13px system-ui,sans-serif'><b>Hole {game.round}/{game.rules.rounds}</b> \u00b7 "
            f"{escape(str(game.phase))} \u00b7 {escape(game.rules.describe())}</div>")
    return CARD_CSS + head + "<div>" + "".join(seats) + "</div><div>" + piles + "</div>"


def breakdown_html(breakdown: "HandBreakdown", adjustments: Sequence["Adjustment"] = ()) -> str:
    """A hand laid out as its grid, paired columns outlined, with one line per column.

    ``adjustments`` (from a ``RoundBreakdown``) are listed after the hand total.
    """
    cards = [None] * 6
    paired = set()
    for col in breakdown.columns:
        for pos, card in zip(col.positions, col.cards):
            cards[pos] = card
        if col.paired:
            paired.update(col.positions)
    cells = "".join(card_html(c, extra_class="gl-paired" if i in paired else "") for i, c in enumerate(cards))
    lines = []
    for col in breakdown.columns:
        a, b = col.cards
        mark = " \u2714 pair" if col.paired else ""
        lines.append(f"<li>{words.column(col.positions[0])}: {escape(words.card_name(a))} + "
                     f"{escape(words.card_name(b))}"
                     f" = <b>{col.points:+d}</b> <span class='gl-note'>({escape(col.note)}){mark}</span></li>")
    for bonus in breakdown.bonuses:
        lines.append(f"<li>{escape(bonus.rule.replace('_', ' '))}: <b>{bonus.points:+d}</b> "
                     f"<span class='gl-note'>({escape(bonus.reason)})</span></li>")
    lines.append(f"<li>hand: <b>{breakdown.total}</b></li>")
    total = breakdown.total
    for adj in adjustments:
        total += adj.points
        lines.append(f"<li>{escape(adj.rule.replace('_', ' '))}: <b>{adj.points:+d}</b> "
                     f"<span class='gl-note'>({escape(adj.reason)})</span></li>")
    if adjustments:
        lines.append(f"<li>hole score: <b>{total}</b></li>")
    return (f'<div class="gl-breakdown"><div class="gl-grid">{cells}</div>'
            '<ul style="font:13px system-ui,sans-serif;margin:4px 0 0 0;padding-left:18px">'
            f'{"".join(lines)}</ul></div>')
