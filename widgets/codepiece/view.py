"""HTML for the Codepiece table: the contract and score panel, the trick in progress (or
the last trick), the bidding, and the end-of-deal summary. Pure functions of a seat's
state and the match's results; no widgets, no game logic."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from golflab.codepiece import team_of

from .words import (
    SUIT_NAMES,
    SUIT_SYMBOLS,
    card_label,
    contract_words,
    possessive,
)

CSS = """<style>
.cp-table{font-family:system-ui,sans-serif;max-width:980px}
.cp-info{font-size:14px;line-height:1.5}
.cp-info b{color:#1b4332}
.cp-status{background:#fff6c2;border:1px solid #e6d36c;border-radius:6px;padding:6px 10px;font-size:15px;margin:6px 0}
.cp-status.cp-refused{background:#ffe0e0;border-color:#e57373}
.cp-felt{background:#1f6f43;border-radius:12px;padding:10px;color:white;width:420px}
.cp-felt table{margin:auto;border-collapse:separate;border-spacing:8px 4px}
.cp-felt td{text-align:center;min-width:90px;height:58px;vertical-align:middle;font-size:13px}
.cp-played{display:inline-block;background:white;border-radius:6px;padding:4px 8px;font-size:20px;
 font-weight:bold;min-width:38px;box-shadow:0 1px 3px rgba(0,0,0,.4)}
.cp-played.cp-red,.cp-played-red{color:#c62828}.cp-played.cp-black{color:#111}
.cp-played.cp-wins{outline:3px solid #ffd54f}
.cp-felt .cp-last{opacity:.75}
.cp-hand .widget-button.cp-card{font-size:18px;font-weight:bold;width:52px;height:64px;padding:0;
 border-radius:6px;background:white;border:1px solid #999}
.cp-hand .widget-button.cp-card.cp-red{color:#c62828}
.cp-hand .widget-button.cp-card.cp-black{color:#111}
.cp-hand .widget-button.cp-card.cp-legal{border:3px solid #d4a106;box-shadow:0 0 6px #d4a106}
.cp-hand .widget-button.cp-card:disabled{cursor:default;opacity:1}
.cp-hand .widget-button.cp-card.cp-dim{opacity:.45}
.cp-summary table,.cp-info table{border-collapse:collapse}
.cp-summary td,.cp-summary th{padding:2px 10px;border-bottom:1px solid #ddd;text-align:right}
.cp-summary th{background:#f3f3f3}
.cp-made{color:#2e7d32;font-weight:bold}.cp-defeated{color:#c62828;font-weight:bold}
</style>"""


def _card_html(card: str, extra: str = "") -> str:
    colour = "cp-red" if card[1] in "HD" else "cp-black"
    return f'<span class="cp-played {colour} {extra}">{escape(card_label(card))}</span>'


def team_label(team: int, human_seat: int) -> str:
    return "us" if team == team_of(human_seat) else "them"


def info_html(state: Mapping[str, Any], names: Sequence[str], deal: int, deals: int,
              scores: Sequence[int]) -> str:
    """Deal number, dealer, bids, contract, tricks per team and the match score."""
    me = state["seat"]
    us, them = team_of(me), 1 - team_of(me)
    bids = ", ".join(f"{names[s]} {a.replace('bid_', '')}" for s, a in state["bidding_history"]) or "none yet"
    contract = contract_words(state, names) or "not decided yet"
    tricks = state["tricks_won"]
    need = ""
    if state["declarer"] is not None and state["phase"] != "bidding":
        side = team_of(state["declarer"])
        need = (f" (the bidders, {team_label(side, me)}, need {state['bid']}; "
                f"the defenders, {team_label(1 - side, me)}, win with {14 - state['bid']})")
    return (f'<div class="cp-info"><b>Deal {deal} of {deals}</b> \u00b7 dealer: {escape(names[state["dealer"]])}'
            f" \u00b7 match score: us {scores[us]:+d}, them {scores[them]:+d}<br>"
            f"Bids: {escape(bids)}<br>Contract: <b class='cp-contract'>{escape(contract)}</b><br>"
            f"Tricks: <b class='cp-tricks'>us {tricks[us]}, them {tricks[them]}</b>{escape(need)}</div>")


def trick_html(state: Mapping[str, Any], names: Sequence[str], last: tuple | None) -> str:
    """The felt: each seat's card in the trick in progress, or the last trick (and who won it)
    while the next one has not started."""
    me = state["seat"]
    trick, caption, winner = state["current_trick"], "Trick in progress", None
    if not trick and last is not None:
        trick, winner = last
        caption = f"Last trick: won by {names[winner]}"
    played = {s: c for s, c in trick}
    if not trick:
        caption = {"bidding": "Bidding", "trump": "Choosing trump"}.get(state["phase"], "Waiting for the lead")

    def spot(offset: int) -> str:
        seat = (me + offset) % 4
        mark = " \u25cf" if state["current_player"] == seat and state["phase"] != "over" else ""
        card = played.get(seat)
        face = _card_html(card, ("cp-wins" if seat == winner else "") + (" cp-last" if winner is not None else "")
                          ) if card else "&nbsp;"
        return f"<div>{escape(names[seat])}{mark}</div>{face}"

    trump = state["trump"]
    corner = f"trump {SUIT_SYMBOLS[trump]} {SUIT_NAMES[trump]}" if trump else ""
    return (f'<div class="cp-felt cp-trick"><div style="font-size:13px">{escape(caption)}'
            f'<span style="float:right">{escape(corner)}</span></div><table>'
            f"<tr><td></td><td>{spot(2)}</td><td></td></tr>"
            f"<tr><td>{spot(1)}</td><td></td><td>{spot(3)}</td></tr>"
            f"<tr><td></td><td>{spot(0)}</td><td></td></tr></table></div>")


def summary_html(state: Mapping[str, Any], names: Sequence[str], results: Sequence[Mapping[str, Any]],
                 scores: Sequence[int], match_over: bool) -> str:
    """The end of a deal: the contract, made or defeated, each seat's payoff, and the match so far."""
    me = state["seat"]
    side = team_of(state["declarer"])
    made = state["winner"] == side
    verdict = ('<span class="cp-made">made</span>' if made else '<span class="cp-defeated">defeated</span>')
    pay = "".join(f"<tr><td style='text-align:left'>{escape(names[s])}</td><td>{state['payoffs'][s]:+d}</td>"
                  f"<td>{scores[s]:+d}</td></tr>" for s in range(4))
    rows = "".join(
        f"<tr><td>{r['deal']}</td><td style='text-align:left'>{escape(names[r['declarer']])} {r['bid']} "
        f"{SUIT_SYMBOLS[r['trump']]}</td><td>{r['tricks_won'][team_of(r['declarer'])]}</td>"
        f"<td>{'made' if r['made'] else 'defeated'}</td><td>{r['payoffs'][me]:+d}</td></tr>" for r in results)
    us, them = scores[team_of(me)], scores[1 - team_of(me)]
    end = ""
    if match_over:
        end = ("<p><b>The match is over: " + ("you and your partner win" if us > them else
               "your opponents win" if them > us else "it is a tie") + f" ({us:+d} to {them:+d}).</b></p>")
    declarer = escape(possessive(names[state["declarer"]]))
    return (f'<div class="cp-summary"><h4 style="margin:6px 0">Deal {len(results)}: {declarer}'
            f" {state['bid']} in {SUIT_NAMES[state['trump']]} was {verdict} "
            f"({state['tricks_won'][side]} tricks to {state['tricks_won'][1 - side]})</h4>"
            f"<table><tr><th>seat</th><th>this deal</th><th>match</th></tr>{pay}</table>"
            f"<p style='margin:6px 0 2px'>Deals so far (your points):</p><table><tr><th>deal</th><th>contract</th>"
            f"<th>tricks</th><th>result</th><th>you</th></tr>{rows}</table>{end}</div>")
