"""The pairing study: the exact calculator (``calculator_observation``, ``placement_table``,
``column_chances``) and what completing a pair is worth (``pairing_study``, ``pairing_table``,
``partner_table``)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

from ..cards import JOKER_RANK
from ..model import ALL_KINDS, COLUMNS, PARTNER, RANK_OF
from ..rules import ONE_EYED, ONE_EYED_SUITS, Rules, card_kind
from .common import CHART_RANKS, load_pandas
from .tiers import games_for, play_events

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


# ----------------------------------------------------------------------------- pairing


def _grid_ranks(grid: Sequence, rules: Rules) -> list[str | None]:
    if isinstance(grid, str) or len(grid) != 6:
        raise ValueError("a grid has 6 positions in grid order (0-2 top, 3-5 bottom); "
                         f"give a rank (A 2-9 T J Q K JK) or None (face down) for each, got {grid!r}")
    return [None if c in (None, "", "?") else _check_rank(c, rules) for c in grid]


def _check_rank(card, rules: Rules) -> str:
    from ..cards import Card

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
    from collections import Counter

    from ..cards import SUITS, Card
    from ..ev import deck_counts
    from ..game import Observation

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
    from ..ev import placement_evs

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
    from ..ev import pair_probability, unseen_counts

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


class _PlacementRows:
    """``pairing_study``'s rows, one placement decision at a time (from ``Game`` replays or the
    compiled kernel's records: the same arguments either way)."""

    def __init__(self, rules: Rules) -> None:
        from ..model import scoring_model

        self.rules, self.model = rules, scoring_model(rules)
        self.situations: list[dict] = []
        self.partners: list[dict] = []

    def score(self, cards) -> int:
        """``score_hand`` of six known cards."""
        kind = self.model.kind
        return self.model.hand_score([kind(c) for c in cards])

    def add(self, grid, true, held, taken: bool, action: str, phase: str, counts: dict) -> None:
        """One placement: the seat's ``grid`` as it sees it (None face down), its ``true`` cards,
        the ``held`` card (``taken`` from the discard pile or drawn), the ``action`` chosen, the
        game's ``phase`` and the ``counts`` of the cards the seat has not seen."""
        from ..ev import Pool, pair_chances

        halves = [(grid[up].rank, down) for a, b in COLUMNS for up, down in ((a, b), (b, a))
                  if grid[up] is not None and grid[down] is None]  # a face-up card beside a face-down one
        if halves:
            chances = pair_chances(counts, {rank for rank, _ in halves})
            self.partners += [{"rank": rank, "phase": phase, "predicted": chances[rank],
                               "matched": true[down].rank == rank} for rank, down in halves]
        evs = None
        for pos in range(6):
            partner = grid[PARTNER[pos]]
            if partner is None or partner.rank != held.rank or (grid[pos] is not None and grid[pos].rank == held.rank):
                continue
            if evs is None:  # placement_evs(obs, held): the held card is seen, so the pool is the unseen cards
                kind = self.model.kind
                evs = Pool(counts, self.rules).placements([c and kind(c) for c in grid], kind(held), not taken)
            key = f"swap {pos}"
            elsewhere = min(v for k, v in evs.items() if k != key)
            after = list(true)
            after[pos] = held
            self.situations.append({
                "rank": held.rank, "phase": phase, "source": "take" if taken else "draw",
                "pair_ev": evs[key], "elsewhere_ev": elsewhere, "gain": elsewhere - evs[key],
                "realised": self.score(after) - self.score(true), "chose_pair": action == key,
            })


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
    from .. import kernel
    from ..analysis import game_phase, phase_of
    from ..ev import deck_counts, unseen_counts
    from ..simulation import resolve_players, uses_kernel

    rules = rules or Rules()
    games = games_for(holes, rules)
    personalities = resolve_players(players)
    rows = _PlacementRows(rules)
    if uses_kernel(personalities, rules, games, analyze=False):  # the same placements, recorded in compiled play
        from ..kernel import records as r
        from ..kernel.layout import ACTION_NAMES
        from ..kernel.tables import card_of

        found, unseen = kernel.place_records(personalities, rules, seed, 0, games)
        kinds = [(k, ALL_KINDS.index(k)) for k in deck_counts(rules, len(personalities))]
        cards = [card_of(i) for i in range(53)]
        for rec, left in zip(found.tolist(), unseen.tolist()):
            true = [cards[c] for c in rec[r.P_CARD0:r.P_CARD0 + 6]]
            rows.add([c if up else None for c, up in zip(true, rec[r.P_UP0:r.P_UP0 + 6])], true,
                     cards[rec[r.P_HELD]], bool(rec[r.P_TAKEN]), ACTION_NAMES[rec[r.P_ACTION]],
                     phase_of(rec[r.P_FEWEST_DOWN], bool(rec[r.P_FINAL])), {k: left[i] for k, i in kinds})
    else:
        for kind, game, obs, action in play_events(players, holes, rules, seed, awaiting="place"):
            if kind == "decision":
                rows.add(obs.my_grid, game.grid(obs.seat), obs.drawn, obs.taken is not None, str(action),
                         game_phase(obs), unseen_counts(obs))
    situations, partners = rows.situations, rows.partners
    pd = load_pandas()
    cols_s = ["rank", "phase", "source", "pair_ev", "elsewhere_ev", "gain", "realised", "chose_pair"]
    cols_p = ["rank", "phase", "predicted", "matched"]
    return pd.DataFrame(situations, columns=cols_s), pd.DataFrame(partners, columns=cols_p)


def pairing_table(situations: "pd.DataFrame") -> "pd.DataFrame":
    """``pairing_study`` situations by rank and phase: ``situations``, mean ``pair_ev``,
    ``elsewhere_ev``, ``gain`` and ``realised``, and ``chose_pair`` (share of CPU players
    who paired). Ranks in chart order, phases early/mid/late."""
    from ..analysis import PHASES

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
