"""Each lesson's exercises, drawn from seeded generators: ``lesson_questions(n)``.

A lesson's items come from its own seed (``LESSON_SEEDS``), so they and their ids
(``<n>-<skill>``) are the same on every visit. Generators pick positions so that no answer kind
fills more than ``MAX_SHARE`` of a lesson (``answer_kind``). Every number is exact: hand and hole
scores by the engine, options by the exact one-step expected value (``golflab.ev``).

* lesson 1 (no card values yet): which card shares a column, may this card be discarded,
  draw or take (no "by how much");
* lesson 2: score a hand, will this pair pay;
* lesson 3: where the card goes, and by how much (buckets), in positions where the lesson's
  rules of thumb (``thumb``) give the engine's best answer;
* lesson 4: should you go out (the spec's guidance, ``golflab.guidance.go_out_advice``) and hole scores with
  the knock penalty;
* lesson 5: pairs and hands under house rules, each holding the cards its rules change.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from html import escape

from golflab import RANKS, SUITS, Card, Game, Rules, card_value, hand_breakdown
from golflab.display import grid_html
from golflab.ev import deck_counts, expected_unseen_value
from golflab.guidance import GO_OUT_MAX, go_out_advice
from golflab.puzzles import POSITION_NAMES, Puzzle, cpu_hole, decision_kind, generate
from golflab.strategy import tier_table
from golflab.words import card_name

from .exercise import BestOption, Choice, PairPays, Question, ScoreHand, ScoreHole, option_kind
from .rules_html import LESSON_CSS

#: The seed of each lesson's items (fixed: the same items and ids on every visit).
LESSON_SEEDS = {1: 11, 2: 4, 3: 3, 4: 7, 5: 5}
#: No answer kind may be more than this share of a lesson's items.
MAX_SHARE = 0.6
KINGS = Rules(super_kings=True, ten_penny=True)
KEEP = Rules(negative_pairs_keep_value=True)


def _card(rank: str, rng: random.Random) -> Card:
    return Card(rank, rng.choice(SUITS))


def _capped(candidates: Iterator, n: int, *keys: Callable) -> list:
    """The first ``n`` candidates keeping each value of each key (default ``answer_kind``) at most
    ``MAX_SHARE`` of ``n``."""
    keys = keys or (lambda q: q.answer_kind,)
    cap, counts, out = int(MAX_SHARE * n) or 1, [Counter() for _ in keys], []
    for q in candidates:
        ks = [key(q) for key in keys]
        if all(c[k] < cap for c, k in zip(counts, ks)):
            for c, k in zip(counts, ks):
                c[k] += 1
            out.append(q)
            if len(out) == n:
                return out
    raise ValueError(f"the generator found only {len(out)} of {n} varied items")


# -- lesson 1 ---------------------------------------------------------------------------------------

def column_partner(seed: int, pos: int) -> Choice:
    """Which position shares a column with ``pos`` (a dealt grid, all face up)?"""
    grid = Game(players=2, seed=seed).grid(0)
    partner = (pos + 3) % 6
    options = [(POSITION_NAMES[p].capitalize(), POSITION_NAMES[p]) for p in range(6) if p != pos]
    named = card_name(grid[pos], suit=True)
    return Choice(f"Which card is in the same column as the {named} at {POSITION_NAMES[pos]}?",
                  options, POSITION_NAMES[partner], skill="columns",
                  nudge="A column is a top card and the card right below it.",
                  why=f"The {card_name(grid[partner], suit=True)} at {POSITION_NAMES[partner]} is right "
                      f"{'below' if pos < 3 else 'above'} it.",
                  figure=f'{LESSON_CSS}<div class="golf-lesson">{grid_html(grid)}</div>')


def may_discard(seed: int, taken: bool) -> Choice:
    """After drawing (``taken`` False) or taking the discard, may the card be discarded? (from the engine)"""
    game = Game(players=["You", "Maya"], rules=Rules(rounds=1), seed=seed)
    for move in ("flip 0", "flip 4", "flip 1", "flip 5"):
        game.apply(move)
    game.apply("take" if taken else "draw")
    held = game.observation(0).drawn
    allowed = any(str(a) == "discard" for a in game.legal_actions())
    where = "took the {} from the discard pile" if taken else "drew the {} from the deck"
    said = where.format(card_name(held, suit=True))
    return Choice(f"You {said}. May you throw it onto the discard pile without swapping?",
                  (("Yes", "yes"), ("No", "no")), "yes" if allowed else "no", skill="turn-rules",
                  nudge="Where did the card come from? The rules treat the two piles differently.",
                  why=("A card drawn from the deck may be discarded." if allowed else
                       "A card taken from the discard pile must be swapped into your grid."))


def _turns(seed: int) -> Iterator[Question]:
    for p in generate(n=40, seed=seed, min_gap=1.0, kind="turn", valuation="one_step"):
        yield BestOption(p, margin=False)


def lesson1(seed: int) -> list[Question]:
    """Columns, the turn's rules, and four draw-or-take decisions (two of each)."""
    turns = [q for q in _turns(seed)]
    draws = [q for q in turns if q.answer_kind == "draw"][:2]
    takes = [q for q in turns if q.answer_kind == "take"][:2]
    return [column_partner(seed, 1), may_discard(seed, False), draws[0], column_partner(seed + 1, 3),
            takes[0], may_discard(seed + 1, True), draws[1], column_partner(seed + 2, 5), takes[1]]


# -- lesson 2 ---------------------------------------------------------------------------------------

def pair_hand(rng: random.Random, rank: str) -> tuple[list[Card], int]:
    """Six different cards with a pair of ``rank`` in a random column (no other card of that rank)."""
    column = rng.randrange(3)
    others = rng.sample([Card(r, s) for r in RANKS if r != rank for s in SUITS], 4)
    suits = rng.sample(SUITS, 2)
    cells: list = others[:column] + [Card(rank, suits[0])] + others[column:column + 2]
    cells.insert(column + 3, Card(rank, suits[1]))
    cells += others[len(cells) - 2:]
    return cells[:6], column


def pair_questions(seed: int, ranks: list[tuple[str, Rules]]) -> list[PairPays]:
    """One ``PairPays`` per (rank, rules), hands from ``seed``."""
    rng = random.Random(seed)
    out = []
    for rank, rules in ranks:
        cells, column = pair_hand(rng, rank)
        out.append(PairPays(cells, column, rules))
    return out


def lesson2(seed: int) -> list[Question]:
    """Five hands to score and four pairs (two pay, two do not)."""
    hands = [ScoreHand.dealt(s) for s in (seed, seed + 4, seed + 17, seed + 29, seed + 40)]
    pairs = pair_questions(seed, [("Q", Rules()), ("2", Rules()), ("5", Rules()), ("K", Rules())])
    return [hands[0], pairs[0], hands[1], pairs[1], hands[2], pairs[2], hands[3], pairs[3], hands[4]]


# -- lesson 3 ---------------------------------------------------------------------------------------

def thumb(obs) -> str:
    """Lesson 3's rules of thumb, in order: complete a pair that saves points; else replace your
    highest face-up card with a lower one; else put a card lower than the average unseen card on
    a face-down card; else discard it (if you may)."""
    rules, held, grid = obs.rules, obs.drawn, obs.my_grid
    mine = card_value(held, rules)
    legal = {str(a) for a in obs.legal_actions}
    for pos in range(6):
        partner = grid[(pos + 3) % 6]
        old = grid[pos]
        if partner is not None and partner.rank == held.rank and (old is None or old.rank != held.rank) \
                and 2 * mine > 0:
            return f"swap {pos}"
    up = [(card_value(c, rules), pos) for pos, c in enumerate(grid) if c is not None]
    if up and max(up)[0] > mine:
        return f"swap {max(up, key=lambda vp: (vp[0], -vp[1]))[1]}"
    down = [pos for pos, c in enumerate(grid) if c is None]
    if down and mine < expected_unseen_value(deck_counts(rules, len(obs.players)), rules):
        return f"swap {down[0]}"
    return "discard" if "discard" in legal else f"swap {max(up)[1]}"


def _clear(p: Puzzle) -> bool:
    """An exact gap not within a quarter point of a bucket's edge."""
    return min(abs(p.gap - 2), abs(p.gap - 5)) >= 0.25


def placements(seed: int, rules: Rules | None = None, keep: Callable = lambda p: True) -> Iterator[Puzzle]:
    """Placement puzzles (exact one-step values) whose best answer the rules of thumb give."""
    for p in generate(n=60, seed=seed, rules=rules, min_gap=0.5, kind="place", valuation="one_step"):
        if thumb(p.observation) == p.answer and _clear(p) and keep(p):
            yield p


def lesson3_example(seed: int | None = None) -> Puzzle:
    """Lesson 3's worked example: a placement puzzle that is not one of its exercises."""
    used = {q.puzzle.source for q in lesson3(LESSON_SEEDS[3] if seed is None else seed)}
    return next(p for p in placements(LESSON_SEEDS[3] if seed is None else seed) if p.source not in used
                and option_kind(p.observation, p.answer) == "pair")


def lesson3(seed: int) -> list[Question]:
    """Ten placements before the last card: no kind of move and no bucket more than ``MAX_SHARE`` of them."""
    mid_hole = (p for p in placements(seed) if decision_kind(p.observation) == "place")  # going out: lesson 4
    return _capped((BestOption(p) for p in mid_hole), 10, lambda q: q.answer_kind, lambda q: q.bucket)


# -- lesson 4 ---------------------------------------------------------------------------------------

class GoOut(Choice):
    """Should you go out now? Your hand as it would be, the opponents' grids as you see them."""

    def __init__(self, mine: list[Card], others: list[list], rules: Rules):
        self.rules, self.mine, self.others = rules, list(mine), [list(c) for c in others]
        self.score = hand_breakdown(mine, rules).total
        counts = deck_counts(rules, 1 + len(others))
        for c in [*mine, *(c for cells in others for c in cells if c is not None)]:
            counts[c.rank] -= 1
        self.unseen = expected_unseen_value(counts, rules)
        self.advice, why = go_out_advice(self.score, others, rules, self.unseen)
        seats = "".join(f'<div class="gl-seat"><div class="gl-name">Opponent {i + 1}</div>{grid_html(cells)}</div>'
                        for i, cells in enumerate(others))
        figure = (f'{LESSON_CSS}<div class="golf-lesson">{seats}<div class="gl-seat gl-me">'
                  f'<div class="gl-name">You, after the swap</div>{grid_html(mine)}</div></div>')
        knock = " House rule: knock penalty." if rules.knock_penalty else ""
        super().__init__(f"Your last face-down card is the only one left: swapping onto it takes you out, with the "
                         f"hand shown.{knock} Should you go out now?",
                         (("Yes, go out", "yes"), ("No, not yet", "no")), "yes" if self.advice == "yes" else "no",
                         skill="go-out", why=why, figure=figure,
                         nudge="Score your hand as it would be. Then look at each opponent's face-up cards, "
                               "and think about their hidden ones.")


def going_out(seed: int, tries: int = 5000) -> Iterator[GoOut]:
    """Random tables (from ``seed``) for the going-out question: one or two opponents, a low hand
    most of the time, the knock penalty sometimes."""
    rng = random.Random(seed)
    for _ in range(tries):
        rules = Rules(knock_penalty=rng.random() < 0.4)
        deck = [Card(r, s) for r in RANKS for s in SUITS]
        rng.shuffle(deck)
        low = sorted(deck[:14], key=lambda c: card_value(c, rules))
        mine = rng.sample(low[:9], 6) if rng.random() < 0.7 else deck[:6]
        rest = [c for c in deck if c not in mine]
        others = []
        for _ in range(rng.choice((1, 2))):
            if rng.random() < 0.4:  # a strong opponent: low cards
                rest.sort(key=lambda c: card_value(c, rules) + rng.random() * 6)
                cells = [rest.pop(0) for _ in range(6)]
            else:
                cells = [rest.pop() for _ in range(6)]
            for pos in rng.sample(range(6), rng.choice((2, 3, 4))):
                cells[pos] = None
            others.append(cells)
        yield GoOut(mine, others, rules)


def going_out_examples(seed: int) -> list[GoOut]:
    """One going-out question of each advice (yes, high, not-lowest, careful), in that order."""
    found: dict[str, GoOut] = {}
    for q in going_out(seed):
        found.setdefault(q.advice, q)
        if len(found) == 4:
            return [found[k] for k in ("yes", "high", "not-lowest", "careful")]
    raise ValueError(f"no table of each kind from seed {seed}")


def lesson4(seed: int) -> list[Question]:
    """Six going-out questions (three yes; three no: too high, not lowest, careful) and two
    knock-penalty holes to score."""
    yes: list[GoOut] = []
    no: dict[str, GoOut] = {}
    for q in going_out(seed):
        if q.advice == "yes" and len(yes) < 3:
            yes.append(q)
        elif q.advice != "yes":
            no.setdefault(q.advice, q)
        if len(yes) == 3 and len(no) == 3:
            break
    knock = Rules(knock_penalty=True)
    holes = [ScoreHole.from_game(cpu_hole(s, knock)) for s in (seed, seed + 1)]
    return [yes[0], no["high"], yes[1], holes[0], no["careful"], yes[2], no["not-lowest"], holes[1]]


# -- lesson 5 ---------------------------------------------------------------------------------------

def rule_cards(rules: Rules) -> set[str]:
    """The ranks a house rule changes: cards whose value moves, or (pair rules) negative cards."""
    table = tier_table(rules)
    ranks = set(table[table.moved]["rank"])
    if rules.negative_pairs_keep_value:
        ranks |= {r for r in RANKS if card_value(Card(r, "S"), rules) < 0}
    return ranks


def kings_hands(seed: int) -> Iterator[ScoreHand]:
    """Dealt hands under super kings and ten penny holding at least one king and one ten."""
    s = seed
    while True:
        q = ScoreHand.dealt(s, KINGS)
        if {"K", "T"} <= {c.rank for col in q.breakdown.columns for c in col.cards}:
            yield q
        s += 1


def lesson5(seed: int) -> list[Question]:
    """Pairs and hands under house rules (each holds the cards its rules change) and two placements."""
    pairs = pair_questions(seed, [("K", KINGS), ("T", KINGS), ("2", KEEP), ("Q", KINGS)])
    hands = [q for _, q in zip(range(3), kings_hands(seed))]
    kinged = Rules(super_kings=True)
    has_king = lambda p: "K" in {c.rank for c in p.observation.my_grid if c is not None} | {p.observation.drawn.rank}  # noqa: E731
    picks = [BestOption(p) for _, p in zip(range(2), placements(seed, kinged, has_king))]
    return [pairs[0], hands[0], pairs[1], picks[0], hands[1], pairs[2], hands[2], pairs[3], picks[1]]


LESSONS = {1: lesson1, 2: lesson2, 3: lesson3, 4: lesson4, 5: lesson5}


def lesson_questions(lesson: int, seed: int | None = None) -> list[Question]:
    """Lesson ``lesson``'s exercises (8-12 items) from its seed (``LESSON_SEEDS``, or ``seed``)."""
    if lesson not in LESSONS:
        raise ValueError(f"lesson must be one of {', '.join(map(str, LESSONS))}, got {lesson!r}")
    return LESSONS[lesson](LESSON_SEEDS[lesson] if seed is None else seed)


__all__ = ["GO_OUT_MAX", "LESSON_SEEDS", "MAX_SHARE", "GoOut", "advice_html", "go_out_advice", "going_out_examples",
           "lesson3_example",
           "lesson_questions", "rule_cards", "thumb"]


def advice_html(q: GoOut) -> str:
    """A going-out table with the spec's advice for it, for lesson 4's examples."""
    verdict = "Go out." if q.answer == "yes" else "Not yet."
    rule = " (knock penalty)" if q.rules.knock_penalty else ""
    return (f'{q.figure()}<div class="golf-lesson"><p><b>{verdict}</b>{rule} {escape(q.why)}</p></div>')
