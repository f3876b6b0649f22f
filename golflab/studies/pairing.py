"""The pairing study: the exact calculator (``calculator_observation``, ``placement_table``,
``column_chances``) and what completing a pair is worth (``pairing_study``, ``pairing_table``,
``partner_table``)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from ..analysis import PHASES, game_phase, phase_of
from ..cards import JOKER_RANK, SUITS, Card
from ..ev import Pool, deck_counts, pair_probability, placement_evs, unseen_counts
from ..game import Observation
from ..model import ALL_KINDS, COLUMNS, PARTNER, RANK_OF, scoring_model
from ..rules import ONE_EYED, ONE_EYED_SUITS, Rules, card_kind
from ..simulation import resolve_players, uses_kernel
from .common import CHART_RANKS, load_pandas
from .tiers import games_for, play_events

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import pandas as pd


# ----------------------------------------------------------------------------- pairing


def _grid_ranks(grid: Sequence, rules: Rules) -> list[str | None]:
    if isinstance(grid, str) or len(grid) != 6:
        raise ValueError("a grid has 6 positions in grid order (0-2 top, 3-5 bottom); "
                         f"give a rank (A 2-9 T J Q K JK) or None (face down) for each, got {grid!r}")
    return [None if c in (None, "", "?") else _check_rank(c, rules) for c in grid]


def _check_rank(card, rules: Rules) -> str:
    if isinstance(card, str) and card in ALL_KINDS:
        rank = card
    else:
        rank = card_kind(Card.parse(card), rules)
    if rank == ONE_EYED and not rules.one_eyed_jacks:
        rank = "J"
    if rank == JOKER_RANK and rules.jokers == "none":
        raise ValueError("there are no jokers with jokers='none': choose a joker mode or another rank")
    return rank


def calculator_observation(grid: Sequence, drawn, rules: Rules | None = None, players: int = 4):
    """An ``Observation`` of seat 0 holding ``drawn`` (drawn from the pile) with ``grid``
    (6 ranks or cards, None for face down) and nothing else visible: every opponent card
    face down, an empty discard pile. Suits are assigned in order (they do not score; under
    ``one_eyed_jacks`` a ``J`` gets a two-eyed suit, ``JH``/``JS`` or ``ONE_EYED`` a one-eyed
    one); more cards of a kind than the deck holds is a ValueError.
    """
    rules = rules or Rules()
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
        raise ValueError(f"players must be a whole number from 2 to 6, got {players!r}")
    ranks = _grid_ranks(grid, rules)
    held = _check_rank(drawn, rules)
    seen = Counter(r for r in ranks if r is not None)
    seen[held] += 1
    in_deck = deck_counts(rules, players)
    for rank, n in seen.items():
        if n > in_deck.get(rank, 0):
            raise ValueError(f"{n} cards of rank {rank} shown but the deck for {players} players under these rules "
                             f"holds {in_deck.get(rank, 0)}")
    used: Counter = Counter()

    def card(kind: str):
        if kind == JOKER_RANK:
            return Card(JOKER_RANK)
        suits = SUITS
        if rules.one_eyed_jacks and RANK_OF[kind] == "J":
            suits = tuple(s for s in SUITS if (s in ONE_EYED_SUITS) == (kind == ONE_EYED))
        used[kind] += 1
        return Card(RANK_OF[kind], suits[(used[kind] - 1) % len(suits)])

    cards = [None if r is None else card(r) for r in ranks]
    hand = card(held)
    return Observation.of_position(rules, [cards] + [[None] * 6 for _ in range(players - 1)], drawn=hand,
                                   draw_pile_size=sum(in_deck.values()) - 6 * players - 1)


def placement_table(obs, card=None) -> "pd.DataFrame":
    """Every placement of the held card (or ``card``) with its exact expected change of the
    hand score (``golflab.ev.placement_evs``; lower is better): columns ``action``, ``ev``,
    ``replaces`` (the card there, ``?`` when face down), ``completes_pair`` and ``best``
    (the lowest expected change; ties all marked)."""

    held = obs.drawn if card is None else card
    evs = placement_evs(obs, held)
    grid = obs.my_grid
    rank = RANK_OF[_check_rank(held, obs.rules)]  # pairs are by rank
    rows = []
    for action, ev in evs.items():
        pos = int(action.split()[1]) if action.startswith("swap") else None
        partner = None if pos is None else grid[PARTNER[pos]]
        rows.append({
            "action": action, "ev": ev,
            "replaces": "" if pos is None else ("?" if grid[pos] is None else str(grid[pos])),
            "completes_pair": bool(partner is not None and partner.rank == rank and
                                   (grid[pos] is None or grid[pos].rank != rank)),
        })
    frame = load_pandas().DataFrame(rows)
    frame["best"] = frame["ev"] <= frame["ev"].min() + 1e-9
    return frame


def column_chances(obs, draws: Sequence[int] = (3, 6)) -> "pd.DataFrame":
    """For each column of the observing seat's grid: can it still be paired, and how likely?

    ``p_pair_now`` is the chance the column is a pair already (1 or 0 when both cards are
    up; two face-down cards: the exact chance they share a rank, without eagle-eye
    distinctions). For a column with one face-up card of rank r and one face-down card,
    ``p_within_k`` is the exact chance that one of the next k unseen cards to come to light
    (the face-down partner first, then cards drawn) is an r (``golflab.ev.pair_probability``).
    """

    counts = unseen_counts(obs)
    n = sum(counts.values())
    grid = obs.my_grid
    rows = []
    for a, b in COLUMNS:
        ca, cb = grid[a], grid[b]
        row = {"column": f"{a}/{b}", "top": "?" if ca is None else str(ca), "bottom": "?" if cb is None else str(cb)}
        if ca is not None and cb is not None:
            row["p_pair_now"] = float(ca.rank == cb.rank)
            row.update({f"p_within_{k}": row["p_pair_now"] for k in draws})
        elif ca is None and cb is None:
            row["p_pair_now"] = sum(c * (c - 1) for c in counts.values()) / (n * (n - 1)) if n > 1 else 0.0
            row.update({f"p_within_{k}": math.nan for k in draws})
        else:
            up = ca or cb
            row["p_pair_now"] = pair_probability(up.rank, counts, 1)
            row.update({f"p_within_{k}": pair_probability(up.rank, counts, min(k, n)) for k in draws})
        rows.append(row)
    return load_pandas().DataFrame(rows)


@dataclass(frozen=True)
class Placements:
    """Placement decisions as arrays, one row each (from the compiled kernel's records or from
    ``Game`` replays: ``pairing_study`` reads both alike). ``cards`` [m, 6]: the seat's six cards
    (kernel card indices, ``kernel.tables.card_of``), ``up`` [m, 6]: which are face up, ``held``
    [m]: the card it holds, ``taken`` [m]: held from the discard pile, ``actions`` [m]: the action
    chosen (its notation), ``phases`` [m]: the game's phase, ``unseen`` [m, kinds]: the cards the
    seat has not seen, per kind of ``golflab.model.ALL_KINDS``."""

    cards: "np.ndarray"
    up: "np.ndarray"
    held: "np.ndarray"
    taken: "np.ndarray"
    actions: "np.ndarray"
    phases: "np.ndarray"
    unseen: "np.ndarray"


def _kernel_placements(personalities, rules: Rules, seed: int, games: int) -> Placements:
    """``Placements`` of games ``0..games-1`` recorded in compiled play (``kernel.place_records``)."""
    import numpy as np

    from .. import kernel
    from ..kernel import records as r
    from ..kernel.layout import ACTION_NAMES

    found, unseen = kernel.place_records(personalities, rules, seed, 0, games)
    phase = np.array([[phase_of(down, bool(final)) for final in (0, 1)] for down in range(7)], dtype=object)
    return Placements(found[:, r.P_CARD0:r.P_CARD0 + 6], found[:, r.P_UP0:r.P_UP0 + 6].astype(bool),
                      found[:, r.P_HELD], found[:, r.P_TAKEN].astype(bool),
                      np.array(ACTION_NAMES, dtype=object)[found[:, r.P_ACTION]],
                      phase[found[:, r.P_FEWEST_DOWN], found[:, r.P_FINAL]], unseen)


def _replayed_placements(players, holes: int, rules: Rules, seed: int) -> Placements:
    """``Placements`` of the same games replayed through ``Game`` (``play_events``)."""
    import numpy as np

    from ..kernel.tables import card_index

    cards, up, held, taken, actions, phases, unseen = [], [], [], [], [], [], []
    column = {k: i for i, k in enumerate(ALL_KINDS)}
    for kind, game, obs, action in play_events(players, holes, rules, seed, awaiting="place"):
        if kind != "decision":
            continue
        cards.append([card_index(c) for c in game.grid(obs.seat)])
        up.append([c is not None for c in obs.my_grid])
        held.append(card_index(obs.drawn))
        taken.append(obs.taken is not None)
        actions.append(str(action))
        phases.append(game_phase(obs))
        row = [0] * len(ALL_KINDS)
        for k, c in unseen_counts(obs).items():
            row[column[k]] = c
        unseen.append(row)
    return Placements(np.array(cards, dtype=np.int64).reshape(-1, 6), np.array(up, dtype=bool).reshape(-1, 6),
                      np.array(held, dtype=np.int64), np.array(taken, dtype=bool), np.array(actions, dtype=object),
                      np.array(phases, dtype=object),
                      np.array(unseen, dtype=np.int64).reshape(-1, len(ALL_KINDS)))


#: A face-up card beside a face-down one, in the order a grid is read: (face up, face down)
#: for each column, top first.
HALVES = tuple(pair for a, b in COLUMNS for pair in ((a, b), (b, a)))


def _partner_rows(p: Placements, rank_of: "np.ndarray", ranks: Sequence[str], by_rank: "np.ndarray") -> dict:
    """``pairing_study``'s partners as columns: per placement and ``HALVES`` pair (in that order),
    the face-up card's rank, the exact chance one unseen card has it (``ev.pair_chances``: by
    rank over its kinds) and whether the hidden partner did."""
    import numpy as np

    size = by_rank.sum(axis=1)
    rank = np.stack([rank_of[p.cards[:, u]] for u, _ in HALVES], axis=1)
    shown = np.stack([p.up[:, u] & ~p.up[:, d] for u, d in HALVES], axis=1)
    matched = np.stack([rank_of[p.cards[:, d]] for _, d in HALVES], axis=1) == rank
    wanted = np.take_along_axis(by_rank, rank, axis=1)
    n = np.broadcast_to(size[:, None], rank.shape)
    with np.errstate(divide="ignore", invalid="ignore"):  # 1 - C(n - m, 1) / C(n, 1), 0 when nothing is unseen
        predicted = np.where(n > 0, 1 - (n - wanted).astype(float) / n, 0.0)
    phases = np.broadcast_to(p.phases[:, None], rank.shape)
    return {"rank": np.array(ranks, dtype=object)[rank[shown]].tolist(), "phase": phases[shown].tolist(),
            "predicted": predicted[shown], "matched": matched[shown]}


def _situation_rows(p: Placements, rank_of: "np.ndarray", rules: Rules, kinds: Sequence[str]) -> list[dict]:
    """``pairing_study``'s situations: the placements where the held card could complete a pair
    (its rank face up in a column whose other card is not face up with that rank)."""
    import numpy as np

    from ..kernel.tables import card_of

    held = rank_of[p.held][:, None]
    grid = rank_of[p.cards]
    partner_up = p.up[:, list(PARTNER)] & (grid[:, list(PARTNER)] == held)
    chances = partner_up & ~(p.up & (grid == held))
    model = scoring_model(rules)
    kind = model.kind
    column = [ALL_KINDS.index(k) for k in kinds]
    rows = []
    for i in np.flatnonzero(chances.any(axis=1)).tolist():
        true = [card_of(c) for c in p.cards[i].tolist()]
        shown = [c if up else None for c, up in zip(true, p.up[i].tolist())]
        card, taken = card_of(int(p.held[i])), bool(p.taken[i])
        left = p.unseen[i].tolist()
        evs = Pool({k: left[c] for k, c in zip(kinds, column)}, rules).placements(
            [c and kind(c) for c in shown], kind(card), not taken)  # placement_evs: the held card is seen
        before = model.hand_score([kind(c) for c in true])
        for pos in np.flatnonzero(chances[i]).tolist():
            key = f"swap {pos}"
            elsewhere = min(v for k, v in evs.items() if k != key)
            after = list(true)
            after[pos] = card
            rows.append({
                "rank": card.rank, "phase": p.phases[i], "source": "take" if taken else "draw",
                "pair_ev": evs[key], "elsewhere_ev": elsewhere, "gain": elsewhere - evs[key],
                "realised": model.hand_score([kind(c) for c in after]) - before, "chose_pair": p.actions[i] == key,
            })
    return rows


def pairing_study(players: Sequence[str], holes: int, rules: Rules | None = None,
                  seed: int = 0) -> "tuple[pd.DataFrame, pd.DataFrame]":
    """Pairing in simulated play (``play_events``), predicted and realised.

    ``situations``: one row per moment a player held a card that could complete a column
    pair (a face-up card of the same rank whose partner is not that rank): ``rank``,
    ``phase`` (``golflab.analysis.game_phase``), ``source`` (draw/take), ``pair_ev`` (exact
    expected hand change of pairing), ``elsewhere_ev`` (best other placement, discarding
    included when allowed), ``gain`` (``elsewhere_ev - pair_ev``: points pairing is
    expected to save over the best alternative), ``realised`` (the true change pairing
    would have made, from the hidden cards: its mean checks ``pair_ev``) and ``chose_pair``.

    ``partners``: one row per decision and column with one face-up card and one face-down
    card: ``rank``, ``phase``, ``predicted`` (exact chance the hidden partner matches) and
    ``matched`` (it did).
    """
    import numpy as np

    from ..kernel.tables import card_of

    rules = rules or Rules()
    games = games_for(holes, rules)
    personalities = resolve_players(players)
    if uses_kernel(personalities, rules, games, analyze=False):  # the same placements, recorded in compiled play
        placements = _kernel_placements(personalities, rules, seed, games)
    else:
        placements = _replayed_placements(players, holes, rules, seed)
    kinds = list(deck_counts(rules, len(personalities)))
    ranks = list(dict.fromkeys([*(RANK_OF[k] for k in kinds), *(card_of(i).rank for i in range(53))]))
    rank_of = np.array([ranks.index(card_of(i).rank) for i in range(53)])
    by_rank = np.zeros((len(placements.held), len(ranks)), dtype=np.int64)
    for k in kinds:
        by_rank[:, ranks.index(RANK_OF[k])] += placements.unseen[:, ALL_KINDS.index(k)]
    situations = _situation_rows(placements, rank_of, rules, kinds)
    partners = _partner_rows(placements, rank_of, ranks, by_rank)
    pd = load_pandas()
    cols_s = ["rank", "phase", "source", "pair_ev", "elsewhere_ev", "gain", "realised", "chose_pair"]
    cols_p = ["rank", "phase", "predicted", "matched"]
    return (pd.DataFrame(situations, columns=cols_s),
            pd.DataFrame(partners if len(partners["rank"]) else [], columns=cols_p))


def pairing_table(situations: "pd.DataFrame") -> "pd.DataFrame":
    """``pairing_study`` situations by rank and phase: ``situations``, mean ``pair_ev``,
    ``elsewhere_ev``, ``gain`` and ``realised``, and ``chose_pair`` (share of CPU players
    who paired). Ranks in chart order, phases early/mid/late."""

    pd = load_pandas()
    if situations.empty:
        return pd.DataFrame(columns=["rank", "phase", "situations", "pair_ev", "elsewhere_ev", "gain",
                                     "realised", "chose_pair"])
    out = (situations.groupby(["rank", "phase"], sort=False)
           .agg(situations=("gain", "size"), pair_ev=("pair_ev", "mean"), elsewhere_ev=("elsewhere_ev", "mean"),
                gain=("gain", "mean"), realised=("realised", "mean"), chose_pair=("chose_pair", "mean"))
           .reset_index())
    out["_r"] = out["rank"].map(CHART_RANKS.index)
    out["_p"] = out["phase"].map(PHASES.index)
    return out.sort_values(["_r", "_p"]).drop(columns=["_r", "_p"]).reset_index(drop=True)


def partner_table(partners: "pd.DataFrame") -> "pd.DataFrame":
    """``pairing_study`` partner checks by rank: ``columns`` seen, mean ``predicted``
    chance that the hidden partner matches, and the ``observed`` rate."""
    pd = load_pandas()
    if partners.empty:
        return pd.DataFrame(columns=["rank", "columns", "predicted", "observed"])
    out = (partners.groupby("rank", sort=False)
           .agg(columns=("matched", "size"), predicted=("predicted", "mean"), observed=("matched", "mean"))
           .reset_index())
    out["_r"] = out["rank"].map(CHART_RANKS.index)
    return out.sort_values("_r").drop(columns="_r").reset_index(drop=True)
