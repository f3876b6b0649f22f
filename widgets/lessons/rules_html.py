"""Plain-language HTML for teaching the rules, every number from the engine.

* ``hand_html``: a scored hand, column by column; a pair of negative cards is marked as
  the mistake it is, with the points it throws away (the column's score against the same
  two cards unpaired);
* ``table_html`` and ``tell``: a table as the players see it, and moves told in words;
* ``adjustments_html``: a hole's scores with each house-rule adjustment in order;
* ``tier_frame``: the value tiers with readable headings and cards as people write them.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from golflab import (
    Action,
    Card,
    Game,
    HandBreakdown,
    RoundBreakdown,
    Rules,
    card_value,
    pair_gain,
    unpaired_total,
    wasted_pairs,
)
from golflab.display import CARD_CSS, card_html, grid_html
from golflab.words import card_name

from ..table.words import move_words
from .card_picker import rank_label

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from golflab.scoring import ColumnScore

COLUMN_NAMES = ("left", "middle", "right")
LESSON_CSS = CARD_CSS + """
<style>
.golf-lesson{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1b1b}
.golf-lesson ul,.golf-lesson ol{margin:4px 0;padding-left:20px}
.gl-card.golf-pair-mistake{outline:3px dashed #c62828;outline-offset:-1px}
.golf-score-warning{background:#fff3e0;border-left:4px solid #e65100;color:#6d2600;padding:3px 8px;
 margin:3px 0;list-style:none;margin-left:-20px;border-radius:4px}
.golf-pair-ok{color:#1b5e20;font-weight:600}
.golf-lesson .gl-note{color:#555}
.golf-lesson .golf-seat-hand{display:inline-block;vertical-align:top;margin:0 18px 8px 0}
</style>
"""


def _cards(cards: Sequence[Card]) -> str:
    return " + ".join(escape(card_name(c)) for c in cards)


def _column_line(col: ColumnScore, rules: Rules, wasted: bool) -> str:
    where = f"{COLUMN_NAMES[col.positions[0]].capitalize()} column"
    head = f"{where}: {_cards(col.cards)} = <b>{col.points}</b>"
    if not col.paired:
        a, b = (card_value(c, rules) for c in col.cards)
        return f"<li>{head} <span class='gl-note'>({a} + {b})</span></li>"
    gain = pair_gain(col, rules)
    apart = col.points + gain
    if wasted:
        return (f"<li class='golf-score-warning'>\u2718 {head}: a pair of negative cards. Apart they would "
                f"score {apart}, so this pair throws away {-gain} points: keep them in different columns.</li>")
    why = (f"saves {gain} points (apart they would score {apart})" if gain
           else f"they score {apart} apart too")
    return (f"<li>{head} <span class='golf-pair-ok'>\u2714 {escape(col.note)}</span>: "
            f"<span class='gl-note'>{why}</span></li>")


def hand_html(breakdown: HandBreakdown, rules: Rules) -> str:
    """A hand's grid and its score explained column by column (no style sheet: see ``LESSON_CSS``).

    Good pairs are outlined green (``gl-paired``); a pair that throws points away is outlined
    red (``golf-pair-mistake``) and its line carries the class ``golf-score-warning``.
    """
    wasted = wasted_pairs(breakdown, rules)
    cells: list[Card | None] = [None] * 6
    marks = [""] * 6
    for col in breakdown.columns:
        for pos, card in zip(col.positions, col.cards):
            cells[pos] = card
            if col.paired:
                marks[pos] = "golf-pair-mistake" if col in wasted else "gl-paired"
    grid = "".join(card_html(c, extra_class=m) for c, m in zip(cells, marks))
    lines = [_column_line(col, rules, col in wasted) for col in breakdown.columns]
    for bonus in breakdown.bonuses:
        lines.append(f"<li>{escape(bonus.reason[:1].upper() + bonus.reason[1:])}: <b>{bonus.points}</b> "
                     f"<span class='gl-note'>({escape(bonus.rule.replace('_', ' '))} bonus)</span></li>")
    apart = unpaired_total(breakdown, rules)
    note = (f" <span class='gl-note'>(the same cards unpaired would score {apart})</span>"
            if apart != breakdown.total else "")
    lines.append(f"<li>Hand: <b>{breakdown.total}</b>{note}</li>")
    return (f'<div class="golf-lesson gl-breakdown"><div class="gl-grid">{grid}</div>'
            f'<ul>{"".join(lines)}</ul></div>')


def table_html(game: Game) -> str:
    """Every seat's grid as the players see it (face-down cards as backs) and the two piles."""
    seats = []
    for seat, name in enumerate(game.players):
        turn = " (to play)" if seat == game.current_player and game.awaiting else ""
        seats.append(f'<div class="gl-seat"><div class="gl-name">{escape(name)}{turn}</div>'
                     f"{grid_html(game.grid(seat), game.face_up(seat))}</div>")
    pile = game.discard_pile
    top = card_html(pile[-1]) if pile else card_html(None, extra_class="gl-empty")
    piles = (f'<div class="gl-piles">draw pile<br>{card_html(None, False)}<br>{game.draw_pile_size} cards</div>'
             f'<div class="gl-piles">discard pile<br>{top}</div>')
    return f'{LESSON_CSS}<div class="golf-lesson">{"".join(seats)}{piles}</div>'


def _choices(game: Game) -> str:
    """What the player to move may do now, in words (before a draw or with a card in hand)."""
    name = game.players[game.current_player]
    legal = {str(a) for a in game.legal_actions()}
    if game.awaiting == "draw":
        top = game.discard_pile[-1] if "take" in legal else None
        take = f" or take the {card_name(top, suit=True)} from the discard pile." if top else "."
        return f"{name} may draw from the deck{take}"
    if game.awaiting == "place":
        held = card_name(game.held, suit=True)
        if "discard" in legal:
            return f"{name} may swap the {held} for any one of the six cards in the grid, or discard it."
        return f"{name} must swap the {held} into the grid: a card taken from the discard pile cannot go back."
    return ""


def tell(game: Game, *actions: str) -> str:
    """Play ``actions`` on ``game`` and tell each move in words (with the choices it was made
    from), then show the table. Each move is seen from the mover's seat, so a drawn card is named."""
    lines = []
    for text in actions:
        seat = game.current_player
        choices = _choices(game)
        before = game.observation(seat)
        action = Action.parse(text)
        game.apply(action)
        said = move_words(game.players[seat], action, before, game.observation(seat), seat)
        lines.append(f"<li>{escape(choices)} {escape(said)}.</li>" if choices else f"<li>{escape(said)}.</li>")
    return f'<div class="golf-lesson"><ol>{"".join(lines)}</ol></div>' + table_html(game)


def adjustments_html(players: Sequence[str], result: RoundBreakdown, rules: Rules) -> str:
    """Each hand explained, then every house-rule adjustment in the order applied, with the
    running score it leaves, then the hole scores and who won the hole."""
    hands = "".join(f'<div class="golf-seat-hand"><div><b>{escape(name)}</b>'
                    f'{" (went out)" if seat == result.finisher else ""}</div>{hand_html(hand, rules)}</div>'
                    for seat, (name, hand) in enumerate(zip(players, result.hands)))
    running = list(result.hand_scores)
    steps = []
    for adj in result.adjustments:
        running[adj.seat] += adj.points
        steps.append(f"<li>{escape(adj.rule.replace('_', ' ').capitalize())}: {escape(players[adj.seat])} "
                     f"<b>{adj.points:+d}</b>, now {running[adj.seat]} "
                     f"<span class='gl-note'>({escape(adj.reason)})</span></li>")
    winners = [players[s] for s in result.winners]
    won = f"{winners[0]} wins the hole" if len(winners) == 1 else f"{' and '.join(winners)} share the hole"
    scores = ", ".join(f"{escape(p)} {s}" for p, s in zip(players, result.scores))
    hand_scores = ", ".join(f"{escape(p)} {s}" for p, s in zip(players, result.hand_scores))
    return (f'{LESSON_CSS}<div class="golf-lesson"><div>{hands}</div>'
            f"<p>Hand scores: {hand_scores}.</p><ol>{''.join(steps) or '<li>No adjustments.</li>'}</ol>"
            f"<p>Hole scores: {scores}. {escape(won)}.</p></div>")


def tier_frame(rules: Rules | None = None, moved_only: bool = False) -> pd.DataFrame:
    """The value tiers under ``rules`` (``golflab.strategy.tier_table``) for reading: cards as
    people write them and plain headings; ``moved_only`` keeps the cards the rules moved."""
    from golflab.strategy import tier_table

    table = tier_table(rules)
    if moved_only:
        table = table[table.moved]
        columns = {"standard_value": "Usual points", "standard_tier": "Usual tier",
                   "value": "Points with these rules", "tier": "Tier with these rules"}
    else:
        columns = {"value": "Points", "tier": "Tier", "advice": "Advice"}
    out = table[list(columns)].rename(columns=columns)
    out.index = [rank_label(r) if r == label else label for r, label in zip(table["rank"], table["label"])]
    out.index.name = "Card"
    return out
