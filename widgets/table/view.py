"""HTML pieces of the golf table: the style sheet, opponents' seats, the card in hand,
the rules bar, the hole summary, the score table, the final ranking and the move log.

Plain strings built from golflab's public API and ``golflab.display``; the widget in
``widgets.table`` decides when to show which.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from golflab import Card, RoundBreakdown, Rules
from golflab import words as plain
from golflab.display import CARD_CSS, breakdown_html, card_html

from .words import Move, ranking

RECENT_MOVES = 6  # moves kept in view beside the board

TABLE_CSS = CARD_CSS + """
<style>
.golf-table{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1b1b;max-width:1100px}
.golf-felt{background:#1f6e43;border-radius:14px;padding:10px 14px;color:#fff}
.golf-felt .gl-name{color:#fff}
.golf-rules{font-size:13px;color:#33413a;background:#eef3ef;border-radius:6px;padding:4px 10px}
.golf-opponents{display:flex;flex-wrap:wrap;gap:8px}
.golf-opp{--gl-w:34px;--gl-h:48px;--gl-f:11px;background:rgba(255,255,255,.10);border-radius:10px;
 padding:6px 8px;border:2px solid transparent;font-size:13px;line-height:1.3}
.golf-opp.golf-active{border-color:#ffd54f;background:rgba(255,213,79,.18)}
.golf-opp .golf-style{color:#fff;font-size:12px}
.golf-opp .golf-holding{color:#fff;font-weight:600;font-size:12px;min-height:16px}
.golf-pile-label{font-size:12px;color:#e3f1e8;text-align:center;margin-top:2px}
.golf-hand{--gl-w:76px;--gl-h:106px;--gl-f:20px;text-align:center;font-size:12px;color:#e3f1e8;min-width:86px}
.golf-hand .gl-card{box-shadow:0 0 0 3px #ffd54f}
.golf-mine-label{font-size:14px;font-weight:600;color:#fff;margin:4px 0}
button.golf-card-btn{width:76px !important;height:106px !important;border-radius:8px !important;
 background:#fff !important;border:1px solid #888 !important;color:#222 !important;padding:0 !important;
 font:700 26px/1.15 system-ui,sans-serif !important;white-space:pre-line !important;margin:3px !important;
 box-shadow:0 2px 3px rgba(0,0,0,.35) !important;cursor:default}
button.golf-card-btn.golf-red{color:#c62828 !important}
button.golf-card-btn.golf-joker{color:#6a1b9a !important}
button.golf-card-btn.golf-back{color:#fff !important;font-size:15px !important;border:3px solid #fff !important;
 background:repeating-linear-gradient(45deg,#1e4f8a,#1e4f8a 6px,#2d6cb5 6px,#2d6cb5 12px) !important}
button.golf-card-btn.golf-empty{background:rgba(255,255,255,.15) !important;border:2px dashed #cfe8d8 !important;
 color:#e3f1e8 !important;font-size:13px !important;box-shadow:none !important}
button.golf-card-btn.golf-legal{box-shadow:0 0 0 4px #ffd54f,0 2px 3px rgba(0,0,0,.35) !important;cursor:pointer}
button.golf-card-btn.golf-legal:hover{transform:translateY(-3px)}
button.golf-card-btn.golf-paired{box-shadow:0 0 0 4px #66bb6a !important}
.golf-status{font-size:17px;font-weight:600;background:#fff8e1;border-left:6px solid #f9a825;
 border-radius:6px;padding:8px 12px;margin:6px 0;color:#3e2c00}
.golf-status.golf-await-cpu{background:#eceff1;border-left-color:#78909c;color:#263238}
.golf-status.golf-error{background:#ffebee;border-left-color:#c62828;color:#7f0000}
.golf-status .golf-last{display:block;font-weight:400;font-size:13px;color:#5d4b1f;margin-top:2px}
button.golf-action{font-size:15px !important;height:38px !important;border-radius:6px !important}
.golf-scores table{border-collapse:collapse;font-size:13px;margin:4px 0}
.golf-scores th,.golf-scores td{border:1px solid #cfd8dc;padding:3px 9px;text-align:right}
.golf-scores th{background:#eceff1}
.golf-scores td.golf-win{font-weight:700;color:#1b5e20;background:#e8f5e9}
.golf-scores tr.golf-total td{font-weight:700;background:#f5f5f5}
.golf-summary{background:#fff;border:1px solid #cfd8dc;border-radius:10px;padding:8px 12px;margin:6px 0}
.golf-summary h3{margin:2px 0 6px 0;font-size:17px}
.golf-summary .golf-seat-score{display:inline-block;vertical-align:top;margin:0 14px 8px 0}
.golf-ranking li{font-size:16px;margin:2px 0}
.golf-opp .gl-card.golf-changed{box-shadow:0 0 0 3px #ffd54f,0 0 10px 3px rgba(255,213,79,.9);
 outline:none;position:relative;z-index:1}
.golf-recent{background:rgba(0,0,0,.18);border-radius:10px;padding:6px 10px;margin:8px 0 0 4px;
 box-sizing:border-box;font-size:13px;line-height:1.45;color:#e3f1e8}
.golf-recent-box{flex:1 1 300px;max-width:520px}
.golf-recent h2{margin:0 0 3px 0;font-size:13px;color:#fff}
.golf-recent ol{margin:0;padding:0;list-style:none}
.golf-recent li{padding:1px 0;border-top:1px solid rgba(255,255,255,.12)}
.golf-recent li:first-child{color:#fff;font-weight:600;border-top:none}
.golf-recent .golf-you{color:#ffe082}
.golf-log{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;max-height:260px;overflow-y:auto;
 background:#fafafa;border:1px solid #e0e0e0;border-radius:6px;padding:4px 10px;color:#1b1b1b}
.golf-log div{padding:1px 0;border-bottom:1px solid #eee}
.golf-log > div:first-child,.golf-log > .golf-details + div{font-weight:600}
a.golf-download{display:inline-block;line-height:30px;padding:0 12px;margin:2px 6px;border-radius:4px;
 background:#1565c0;color:#fff !important;text-decoration:none;font-size:14px}
.golf-save-note{font-size:13px;color:#455a64;margin:4px 0}
.golf-details summary{cursor:pointer;color:#3949ab;font-size:13px}
.golf-log .golf-details div{font:12px ui-monospace,monospace;font-weight:400;color:#455a64;border:none}
</style>
"""


def rules_bar_html(rules: Rules, round_: int) -> str:
    """``Hole 2 of 9 · Rules: 9 holes · 2 initial flips · …``."""
    return (f'<div class="golf-rules"><b>Hole {round_} of {rules.rounds}</b> \u00b7 Rules: '
            f"{escape(rules.describe())}</div>")


def opponent_html(name: str, style: str, total: int, cards: Sequence[Card | None], active: bool,
                  holding: str = "", changed: int | None = None) -> str:
    """One CPU seat: name, personality style, running total, its smaller grid (backs for
    face-down cards, the card its last turn changed outlined: ``golf-changed``) and what it
    holds right now."""
    cls = "golf-opp golf-active" if active else "golf-opp"
    grid = "".join(card_html(c, c is not None, "golf-changed" if pos == changed else "", plain.position(pos))
                   for pos, c in enumerate(cards))
    return (f'<div class="{cls}"><div class="gl-name">{escape(name)} \u00b7 total {total}</div>'
            f'<div class="golf-style">{escape(style)}</div>'
            f'<div class="gl-grid" role="group" aria-label="cards of {escape(name)}">{grid}</div>'
            f'<div class="golf-holding">{escape(holding)}</div></div>')


def opponents_html(seats: Sequence[str]) -> str:
    return '<div class="golf-opponents">' + "".join(seats) + "</div>"


def hand_html(card: Card | None, label: str) -> str:
    """The card in play (drawn or taken), face up, or a back when only its owner may see it."""
    if not label:
        return '<div class="golf-hand"></div>'
    return f'<div class="golf-hand">{card_html(card, card is not None)}<div>{escape(label)}</div></div>'


def scores_html(players: Sequence[str], results: Sequence[RoundBreakdown], totals: Sequence[int],
                rounds: int) -> str:
    """The score table: one row per hole played (hole winners highlighted) and the totals."""
    head = "".join(f"<th>{escape(p)}</th>" for p in players)
    rows = []
    for hole, res in enumerate(results, start=1):
        cells = "".join(
            f'<td class="golf-win">{s}</td>' if seat in res.winners else f"<td>{s}</td>"
            for seat, s in enumerate(res.scores)
        )
        rows.append(f"<tr><th>Hole {hole}</th>{cells}</tr>")
    if not results:
        rows.append(f'<tr><th>Hole 1</th><td colspan="{len(players)}" style="text-align:center;color:#595959">'
                    "not scored yet</td></tr>")
    total = "".join(f"<td>{t}</td>" for t in totals)
    rows.append(f'<tr class="golf-total"><th>Total</th>{total}</tr>')
    return (f"<b>Scores</b> <span style='color:#666;font-size:12px'>({len(results)} of {rounds} holes; "
            f"lowest wins; green = won the hole)</span><table><tr><td></td>{head}</tr>{''.join(rows)}</table>")


def hole_summary_html(players: Sequence[str], result: RoundBreakdown, hole: int) -> str:
    """End of a hole: every grid revealed, paired columns outlined, every score explained."""
    went_out = f" {players[result.finisher]} went out first." if result.finisher is not None else \
        " Nobody went out (the turn limit ended the hole)."
    seats = []
    for seat, name in enumerate(players):
        seats.append(f'<div class="golf-seat-score"><b>{escape(name)}: {result.scores[seat]}</b>'
                     f"{breakdown_html(result.hands[seat], result.adjustments_for(seat))}</div>")
    return (f'<div class="golf-summary"><h3>{escape(plain.hole_over(players, result.winners, hole))}'
            f"{escape(went_out)}</h3>"
            f"<div style='font-size:13px;color:#555;margin-bottom:4px'>A column of two cards of the same rank "
            f"scores 0 (outlined in green); every other column adds up its two cards.</div>{''.join(seats)}</div>")


TROPHY = '<span style="color:#f9a825">\u2605</span> '  # a star: no emoji font needed


def ranking_html(players: Sequence[str], totals: Sequence[int], holes_won: Sequence[int]) -> str:
    """The final ranking, lowest total first."""
    won = dict(zip(players, holes_won))
    items = "".join(
        f"<li>{TROPHY if place == 1 else ''}<b>{place}. {escape(name)}</b> \u2014 {total} points "
        f"<span style='color:#666'>({won[name]} hole{'s' if won[name] != 1 else ''} won)</span></li>"
        for place, name, total in ranking(players, totals)
    )
    return ('<div class="golf-summary golf-ranking"><h3>Final ranking</h3>'
            f'<ol style="list-style:none;padding-left:4px">{items}</ol></div>')


def recent_html(moves: Sequence[Move], hole: int, seat: "int | None") -> str:
    """The last few moves of ``hole``, newest first, the learner's (at ``seat``; None: nobody's) marked."""
    shown = [m for m in moves if m.hole == hole][-RECENT_MOVES:][::-1]
    items = "".join(f'<li class="golf-you">{escape(m.text)}</li>' if m.seat == seat else f"<li>{escape(m.text)}</li>"
                    for m in shown) or "<li>No moves yet this hole.</li>"
    return f'<div class="golf-recent"><h2>Last moves (newest first)</h2><ol>{items}</ol></div>'


def details_toggle(body: str) -> str:
    """The *Details* toggle (``golf-details``, closed) around ``body`` (HTML): where notation
    waits for those who open it, under the plain words a learner reads."""
    return f'<details class="golf-details"><summary>Details</summary>{body}</details>'


def log_html(lines: Sequence[str], notation: Sequence[str] = ()) -> str:
    """The move log in words, newest first, so it opens at the latest move; ``notation`` (the
    moves in notation, newest first too) behind *Details* at its top."""
    body = "".join(f"<div>{escape(line)}</div>" for line in reversed(lines)) or "<div>No moves yet.</div>"
    if notation:
        body = details_toggle("".join(f"<div>{escape(line)}</div>" for line in reversed(notation))) + body
    return f'<div class="golf-log">{body}</div>'
