"""Codepiece played by programs: whole deals, CPU-against-random duplicate pairs, and bid records.

Every function is deterministic from its ``seed``: deal ``i`` is dealt from
``derived_seed(seed, i)``, and each player is seeded from the seed, the deal and its seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..seeding import derived_seed
from ..strategy import mean_ci, rate_ci
from .cpu import CodepieceCPU, CodepieceRandom, high_card_points
from .fastdeal import cpu_deal
from .game import CodepieceGame, team_of

MAX_MOVES = 4 + 1 + 52  # four bids, the trump, every card


def play_deal(game: CodepieceGame, players: Sequence[Any]) -> CodepieceGame:
    """Play ``game`` to its end: ``players[seat].choose(game.state(seat))`` for the seat to move."""
    if len(players) != 4:
        raise ValueError(f"a deal needs 4 players, got {len(players)}")
    for _ in range(MAX_MOVES + 1):
        if game.phase == "over":
            return game
        seat = game.current_player
        game.apply(players[seat].choose(game.state(seat)))
    raise RuntimeError("the deal did not end within 57 moves")  # the rules end it sooner


def _check(deals: int) -> int:
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be a whole number of at least 1, got {deals!r}")
    return deals


def duplicate_points(deals: int, seed: int = 0,
                     team: Callable[[int], Any] = CodepieceCPU,
                     rivals: Callable[[int], Any] = CodepieceRandom) -> list[float]:
    """Points per deal of ``team`` players against ``rivals`` on duplicate deals.

    Each deal is played twice with the same cards and dealer: ``team`` in seats 0 and 2,
    then in seats 1 and 3. A deal's figure is the mean of the two payoffs of one ``team``
    player, so the luck of the cards cancels out. ``team`` and ``rivals`` build a player
    from a seed.
    """
    out = []
    for i in range(_check(deals)):
        deal_seed, dealer = derived_seed(seed, i), i % 4
        points = []
        for ours in (0, 1):
            players = [(team if team_of(s) == ours else rivals)(derived_seed(seed, i, s, ours)) for s in range(4)]
            game = play_deal(CodepieceGame(seed=deal_seed, dealer=dealer), players)
            points.append(game.payoffs[ours])
        out.append(sum(points) / 2)
    return out


def bid_records(deals: int, seed: int = 0) -> list[dict[str, Any]]:
    """One row per deal of four ``CodepieceCPU`` players: the contract and whether it was made.

    Columns: ``deal``, ``dealer``, ``declarer``, ``bid`` (7 when all passed), ``forced``
    (all passed), ``trump``, ``hcp`` (the declarer's high-card points: A 4, K 3, Q 2, J 1),
    ``estimate`` (the declarer's own trick estimate with its best trump), ``tricks`` (the
    bidding side's), ``made`` and ``points`` (a bidding-side player's payoff). The deals are played
    by ``fastdeal.cpu_deal``: the same moves as ``play_deal`` with four CPUs, several times faster.
    """
    rows = []
    for i in range(_check(deals)):
        deal = cpu_deal(derived_seed(seed, i), i % 4, [derived_seed(seed, i, s) for s in range(4)])
        declarer, side = deal["declarer"], team_of(deal["declarer"])
        rows.append({"deal": i, "dealer": deal["dealer"], "declarer": declarer, "bid": deal["bid"],
                     "forced": deal["forced"], "trump": deal["trump"],
                     "hcp": high_card_points(deal["hands"][declarer]), "estimate": round(deal["estimate"], 3),
                     "tricks": deal["tricks_won"][side], "made": deal["winner"] == side,
                     "points": deal["payoffs"][declarer]})
    return rows


def made_by(rows: Sequence[dict[str, Any]], key: Callable[[dict[str, Any]], Any],
            confidence: float = 0.95) -> list[dict[str, Any]]:
    """How often bids were made, grouped by ``key(row)``: ``group``, ``deals``, ``made``,
    ``rate`` and its Wilson interval ``low``-``high``, and the mean bidding-side ``points``."""
    groups: dict[Any, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    out = []
    for group in sorted(groups, key=lambda g: (str(type(g)), g)):
        part = groups[group]
        made = sum(1 for r in part if r["made"])
        rate, low, high = rate_ci(made, len(part), confidence)
        mean = mean_ci([r["points"] for r in part], confidence)[0]
        out.append({"group": group, "deals": len(part), "made": made, "rate": rate, "low": low, "high": high,
                    "points": mean})
    return out
