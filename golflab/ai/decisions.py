"""The CPU decision rules (spec sections 9 and 10), each a pure function of an observation.

Every function decides from what the seat may see (``Observation``), the personality
(``Profile``) and, where a personality may vary its play, a ``random.Random``; with
``rng=None`` the choice is the deterministic best one. Face-down cards are estimated
by the mean value of the cards the seat has not seen (``unseen_mean``).

Choices where the spec is silent (a careful player's reading):

* A face-up card is replaced for a gain of at least ``MIN_SWAP_GAIN`` points; a good
  card (worth 1 or less) is never replaced by a worse one unless that completes a pair.
  Cards worth 1 or less replace any face-up card they improve on (not only those at the
  personality's threshold).
* With ``flip_mode="always"`` a discard with one face-down card left forces going out;
  a player that does not want to go out swaps into a face-up position instead, accepting
  a loss of up to ``STAY_IN_COST`` points (more with a high hand: half its excess over 10).
* Pair hope: a face-up card worth 3 or more whose partner is still face down may yet be
  paired; a player credits it with ``pair_hope * HOPE_WEIGHT`` of its points (fading as
  the face-down cards run out) before replacing it, and seeds fresh columns with mid cards.
* Cards worth 0 or less are never discarded while they improve some position; jokers
  and 2s are never discarded at all (forced into the least bad position instead).
* A card beside a face-down partner and a flip are judged at the expected unseen value.
* In the final turn (someone went out) the player simply maximises its expected score;
  an optional flip is skipped then (all cards are turned up anyway).
* Aggression drives the pace (``_closing``): a personality credits revealing a card
  (bringing the round's end nearer) with from -1.3 points (Sofia) to +2.55 (Sage), so
  closers put more cards face down, even instead of a slightly better face-up swap, and
  patient players keep them for later; closers also go out against closer opponents
  (``wants_to_go_out``). At a round robin of the eight, go-out rates run from about 11%
  (Sofia) to 35% (Sage, Maya, Kenji), in aggression order.
* Stalls: from ``pressure_start`` turns the going-out limits relax a point a turn, from
  ``progress_start`` turns a card that would be discarded goes face down unless it is
  terrible, and from ``stall_turns`` any card does and a player goes out whenever it can
  (all three scale down with small ``max_turns``), so rounds end before the stall guard.
"""

from __future__ import annotations

import random
from functools import lru_cache
from math import erf, sqrt

from ..cards import JOKER_RANK, Card
from ..ev import unseen_counts
from ..game import Phase
from ..model import ADJUSTMENT_OF
from .evaluate import (
    ALL_KINDS,
    PARTNER,
    RuleTable,
    column_scores,
    hand_estimate,
    placement_gains,
    ranks_of,
    rule_table,
    table_unseen_mean,
    unseen_mean,
)
from .profiles import Profile

MIN_SWAP_GAIN = 1.0  # points a face-up card's replacement must save
BIG_GAIN = 4.0  # an immediate gain worth going out for (without knock_penalty)
#: the round adjustments going out weighs (their points and the blackjack score: ``model``)
BLACKJACK, KNOCK_BONUS, KNOCK_PENALTY = (ADJUSTMENT_OF[r] for r in ("blackjack", "knock_bonus", "knock_penalty"))
HIGH_HAND = 10  # going out above this is "going out high" (spec section 9: about 10 or less)
FUTURE_GAIN = 2.0  # points a player still expects to gain by staying in
STAY_IN_COST = 3.0  # loss accepted to avoid a forced going out under flip_mode="always"
HOPE_WEIGHT = 0.5  # share of a card's points a full pair hunter credits to its pair chance
CLOSING_WEIGHT = 5.0  # with CLOSING_OFFSET: what revealing a card is worth to a personality (_closing)
CLOSING_OFFSET = 1.5
SQRT2 = sqrt(2)
_GOOD_TIERS = ("Excellent", "Good", "Decent")  # cards worth 1 or less: placed wherever they help
_BAD_TIERS = ("Bad", "Terrible")


@lru_cache(maxsize=64)
def turn_marks(max_turns: int) -> tuple[int, int, int]:
    """(pressure_start, progress_start, stall_turns) for a stall guard of ``max_turns``."""
    return min(8, max_turns // 6), min(10, max_turns // 5), min(20, max_turns * 2 // 5)


_NO_DOWNGRADES = (False,) * 6


class SeatView:
    """One seat's view of its own grid, computed once per decision."""

    __slots__ = ("obs", "profile", "table", "grid", "down", "playing", "_unknown", "_gains", "_worse", "_hopes",
                 "_columns")

    def __init__(self, obs, profile: Profile) -> None:
        self.obs = obs
        self.profile = profile
        self.table: RuleTable = rule_table(obs.rules)
        self.grid = grid = self.table.kinds(obs.grids[obs.seat])  # kinds (ranks but one-eyed jacks)
        self.down = [i for i in range(6) if grid[i] is None]
        self.playing = obs.phase is Phase.PLAYING or obs.phase == Phase.PLAYING
        self._unknown: float | None = None
        self._gains: dict[str, list[float]] = {}
        self._worse: dict[str, list[bool]] = {}
        self._hopes: list[float] | None = None
        self._columns: tuple | None = None

    def follow(self, obs) -> "SeatView":
        """The view of ``obs`` when it is this seat's next decision in the same turn (placing
        the card it drew or took). What depends only on the seat's grid is kept when that
        grid is the same, and every estimate too when the visible cards are the same (a take
        only moves the top of the discard pile into the seat's hand); else a fresh view.
        Either way the view reads exactly as a fresh ``SeatView(obs, profile)`` would."""
        old = self.obs
        seat = obs.seat
        if seat != old.seat or obs.rules is not old.rules or obs.grids[seat] != old.grids[seat]:
            return SeatView(obs, self.profile)
        view = object.__new__(SeatView)
        view.obs, view.profile, view.table = obs, self.profile, self.table
        view.grid, view.down, view._hopes = self.grid, self.down, self._hopes
        view.playing = obs.phase is Phase.PLAYING or obs.phase == Phase.PLAYING
        pile, old_pile = obs.discard_pile, old.discard_pile
        if (obs.taken is not None and old.drawn is None and old.taken is None and old_pile
                and old_pile[-1] == obs.taken and tuple(pile) == old_pile[:-1] and obs.grids == old.grids
                and len(obs.players) == len(old.players)):
            view._unknown, view._gains, view._worse, view._columns = (
                self._unknown, self._gains, self._worse, self._columns)
        else:
            view._unknown, view._gains, view._worse, view._columns = None, {}, {}, None
        return view

    @property
    def unknown(self) -> float:
        if self._unknown is None:
            self._unknown = table_unseen_mean(self.obs, self.table)
        return self._unknown

    @property
    def turns(self) -> int:
        return self.obs.turns[self.obs.seat]

    def gains(self, rank: str) -> list[float]:
        """Estimated points saved by putting ``rank`` at each position (computed once per rank)."""
        gains = self._gains.get(rank)
        if gains is None:
            unknown = self.unknown if self.down else 0.0
            columns = self._columns
            if columns is None:
                columns = self._columns = column_scores(self.grid, self.table, unknown)
            gains = self._gains[rank] = placement_gains(self.grid, rank, self.table, unknown, columns)
        return gains

    def gain(self, pos: int, rank: str) -> float:
        """Estimated points saved by putting ``rank`` at ``pos``."""
        return self.gains(rank)[pos]

    def hopes(self) -> list[float]:
        """The pair-hope credit of each face-up card: a card worth 3 or more whose partner is
        face down is credited ``pair_hope * HOPE_WEIGHT`` of its points (fading as the
        face-down cards run out); 0 elsewhere."""
        hopes = self._hopes
        if hopes is None:
            grid, value = self.grid, self.table.value
            unit = self.profile.pair_hope * HOPE_WEIGHT
            fade = min(1.0, len(self.down) / 3)
            hopes = self._hopes = [
                0.0 if r is None or grid[PARTNER[i]] is not None or value[r] < 3 else unit * value[r] * fade
                for i, r in enumerate(grid)]
        return hopes

    def hope(self, pos: int) -> float:
        """The pair-hope credit of the face-up card at ``pos`` (see ``hopes``)."""
        return self.hopes()[pos]

    def downgrades(self, rank: str) -> list[bool]:
        """Per position: would ``rank`` replace a good face-up card (worth 1 or less) by a worse
        one without improving the hand (completing a pair over an ace is not a downgrade)?"""
        worse = self._worse.get(rank)
        if worse is None:
            value = self.table.value
            v = value[rank]
            good = [i for i, old in enumerate(self.grid) if old is not None and value[old] <= 1 and v > value[old]]
            if good:
                gains = self.gains(rank)
                worse = [False] * 6
                for i in good:
                    worse[i] = gains[i] <= 0
            else:
                worse = _NO_DOWNGRADES
            self._worse[rank] = worse
        return worse

    def downgrade(self, pos: int, rank: str) -> bool:
        """True when ``rank`` at ``pos`` is a downgrade (see ``downgrades``)."""
        return self.downgrades(rank)[pos]

    def score_with(self, pos: int, rank: str) -> float:
        """The hand's estimated score after ``rank`` replaces ``pos``."""
        grid = list(self.grid)
        grid[pos] = rank
        return hand_estimate(grid, self.table, self.unknown if None in grid else 0.0)


# ---------------------------------------------------------------- helpers
def forms_negative_pair(card, partner, rules) -> bool:
    """Never pair negative cards: True when ``card`` beside ``partner`` (Cards, codes or ranks;
    None for a face-down partner) would pair two negative cards under ``rules`` (their points
    are lost: two 2s score 0, not -4). eagle_eye jokers are the exception."""
    table = rule_table(rules)
    return table.negative_pair(_kind_of(card, table), None if partner is None else _kind_of(partner, table))


def _kind_of(card, table: RuleTable) -> str:
    """The kind of a Card, a card code (``"2C"``, ``"JK"``) or a kind (``"2"``) under ``table``'s rules."""
    if isinstance(card, Card):
        return table.model.kind(card)
    if card in ALL_KINDS:
        return card
    return table.model.kind(Card.parse(card))


def _allowed(view: SeatView, rank: str) -> list[int]:
    """Positions where ``rank`` may go: never to pair negative cards."""
    if view.table.value[rank] >= 0:
        return [0, 1, 2, 3, 4, 5]
    neg = view.table.negative_pair
    grid = view.grid
    return [i for i in range(6) if not neg(rank, grid[PARTNER[i]])]


def _pick(scored: list, view: SeatView, rng: "random.Random | None") -> int:
    """The best-scored position, or with the personality's unpredictability a close,
    still clearly improving alternative. ``scored``: (score, pos) pairs, any order."""
    scored.sort(key=lambda sp: (-sp[0], sp[1]))
    best = scored[0]
    if rng is not None and len(scored) > 1 and rng.random() < view.profile.unpredictability:
        near = [p for s, p in scored if s >= max(MIN_SWAP_GAIN, best[0] - 3)]
        if len(near) > 1:
            return rng.choice(near)
    return best[1]


def _facedown_choice(view: SeatView, positions: list[int], rng: "random.Random | None") -> int:
    """Where a card goes among face-down ``positions``: a fresh column (partner face down)
    first, keeping the slots beside visible cards for their pairs; else beside the lowest
    visible card. Unpredictability may pick another face-down slot."""
    if rng is not None and len(positions) > 1 and rng.random() < view.profile.unpredictability:
        return rng.choice(positions)
    grid = view.grid
    fresh = [i for i in positions if grid[PARTNER[i]] is None]
    if fresh:
        return min(fresh)
    value = view.table.value
    return min(positions, key=lambda i: (value[grid[PARTNER[i]]], i))


def forced_swap_position(obs, card, profile: Profile | None = None) -> int:
    """Where a card that must be swapped in (taken from the discard pile, or a joker or 2
    that is never discarded) goes when it has no good place: into a face-down position,
    else over the worst face-up card (the swap that loses least); never pairing negative
    cards unless every position would."""
    view = SeatView(obs, profile or _NEUTRAL)
    return _forced(view, _kind_of(card, view.table), avoid_out=False)


def _forced(view: SeatView, rank: str, avoid_out: bool) -> int:
    allowed = _allowed(view, rank) or list(range(6))
    down = [i for i in view.down if i in allowed]
    if down and not (avoid_out and len(view.down) == 1):
        return _facedown_choice(view, down, None)
    up = [i for i in allowed if view.grid[i] is not None] or allowed
    return max(up, key=lambda i: (not view.downgrade(i, rank), view.gain(i, rank), -i))


# ---------------------------------------------------------------- placement
def choose_placement(obs, profile: Profile, rng: "random.Random | None" = None, card=None,
                     must_swap: bool | None = None) -> "int | None":
    """Where the held card goes: a grid position to swap it into, or None to discard it.

    ``card`` defaults to the card the seat holds (``obs.drawn``); ``must_swap`` defaults to
    whether it was taken from the discard pile. Decision order (spec section 10):
    eagle_eye joker pairs; column pairs (never for negative cards); the best swap among bad
    face-up cards; blackjack pursuit; excellent cards into face-down positions; the
    personality's thresholds; then discard, or the forced swap when discarding is not allowed.
    Going out is checked with ``wants_to_go_out``.
    """
    return place_from_view(SeatView(obs, profile), rng, card, must_swap)


def place_from_view(view: SeatView, rng, card=None, must_swap: bool | None = None) -> "int | None":
    """``choose_placement`` from a view of the observation."""
    obs = view.obs
    held = obs.drawn if card is None else card
    if held is None:
        raise ValueError("choose_placement needs a held card: the observation has none and no card was given")
    if must_swap is None:
        must_swap = obs.taken is not None
    return _placement(view, _kind_of(held, view.table), must_swap, rng)[0]


def _placement(view: SeatView, rank: str, must_swap: bool, rng) -> tuple["int | None", str]:
    allowed = _allowed(view, rank)
    if view.playing:
        pos, reason = _ordered(view, rank, allowed, rng)
        pos, reason = _respect_going_out(view, rank, allowed, pos, reason, rng)
    else:
        pos, reason = _final_turn(view, rank, allowed)
    if pos is None and (must_swap or _never_discard(view, rank, allowed)):
        return _forced(view, rank, avoid_out=view.playing and not _out_ok(view, rank)), "forced"
    return pos, reason


def _never_discard(view: SeatView, rank: str, allowed: list[int]) -> bool:
    """Jokers and 2s are never discarded; a good card (0 or less) only when it fits nowhere."""
    if rank == JOKER_RANK or rank == "2":
        return True
    if view.table.value[rank] > 0:
        return False
    return any(view.gain(i, rank) >= 0 and not view.downgrade(i, rank) for i in allowed)


def _out_ok(view: SeatView, rank: str) -> bool:
    """Would the player go out by putting ``rank`` into its last face-down position?"""
    if len(view.down) != 1:
        return True
    last = view.down[0]
    return wants_to_go_out(view.obs, view.profile, view.score_with(last, rank), view.gain(last, rank))


def _ordered(view: SeatView, rank: str, allowed: list[int], rng) -> tuple["int | None", str]:
    table, grid, profile = view.table, view.grid, view.profile
    value = table.value
    v = value[rank]
    gain = view.gains(rank)
    worse = view.downgrades(rank)
    _, progress, stall = turn_marks(table.rules.max_turns)
    turns = view.turns
    if turns >= stall:
        # an overdue round: only face-down positions, so the hand goes out soon
        allowed = [i for i in allowed if grid[i] is None] or allowed
    # 1. eagle_eye joker pairs (-4 for the column)
    if table.eagle and rank == JOKER_RANK:
        pairs = [i for i in allowed if grid[PARTNER[i]] == JOKER_RANK and grid[i] != JOKER_RANK and not worse[i]]
        if pairs:
            return max(pairs, key=lambda i: (gain[i], -i)), "eagle_pair"
    # One pass over the positions gathers the candidates of steps 2, 3 and 6 (a downgrade is
    # never one: it replaces a card worth 1 or less, never a bad card).
    tier = table.tier
    rank_tier = tier[rank]
    good = rank_tier in _GOOD_TIERS
    threshold = profile.swap_threshold
    hopes = view.hopes()
    twin = table.twin.get(rank, rank)  # the other kind that pairs with it (the jacks under one_eyed_jacks)
    wastes = table.pair_wastes[rank]  # a pair of it throws points away (negative cards, by default)
    pair = best = None  # the best column pair; the best gain anywhere
    bad, ups = [], []
    for i in allowed:
        if worse[i]:
            continue
        g = gain[i]
        if best is None or g > best:
            best = g
        old = grid[i]
        partner = grid[PARTNER[i]]
        if not wastes and (partner == rank or partner == twin) and old != rank and old != twin and g > 0 and \
                (pair is None or g > gain[pair] or (g == gain[pair] and i < pair)):
            pair = i
        if old is None:
            continue
        old_value = value[old]
        if old_value > v and tier[old] in _BAD_TIERS:
            score = g - hopes[i]
            if score >= MIN_SWAP_GAIN:
                bad.append((score, i))
        if good or old_value >= threshold:
            score = g - hopes[i]
            if score >= MIN_SWAP_GAIN:
                ups.append((score, i))
    # 2. column pairs, never for negative cards; a pair that saves little (an ace beside a
    #    king) waits for a better place
    if pair is not None and gain[pair] >= best - MIN_SWAP_GAIN:
        return pair, "pair"
    # 3. the best swap among bad face-up cards (a closer may reveal a card instead)
    down = [i for i in view.down if i in allowed]
    closing = _closing(profile)
    limit = _facedown_limit(view, v) if down else None
    if bad:
        if down and closing > 0 and v <= limit and view.unknown - v + closing >= max(s for s, _ in bad):
            return _facedown_choice(view, down, rng), "closing"
        return _pick(bad, view, rng), "bad_swap"
    # 4. blackjack pursuit: a finished hand of exactly 21 scores 0
    if table.rules.blackjack and len(view.down) <= 1:
        for i in allowed:
            if (not view.down or view.down == [i]) and view.score_with(i, rank) == 21:
                if hand_estimate(grid, table, view.unknown) > MIN_SWAP_GAIN:
                    return i, "blackjack"
    # 5. excellent cards into face-down positions
    if rank_tier == "Excellent" and down:
        return _facedown_choice(view, down, rng), "excellent_facedown"
    # 6. the personality's thresholds (and good cards anywhere they help)
    if down and v <= limit and (not ups or view.unknown - v + closing >= max(s for s, _ in ups)):
        return _facedown_choice(view, down, rng), "facedown"
    if ups:
        return _pick(ups, view, rng), "threshold"
    # 7. progress: late in a long round, a card that is not terrible goes face down (any card
    #    once the round is overdue)
    if down:
        if turns >= stall or (turns >= progress and rank_tier != "Terrible"):
            return _facedown_choice(view, down, None), "progress"
    return None, "discard"


def _closing(profile: Profile) -> float:
    """Points a personality credits to revealing a face-down card (it brings the end of the
    round nearer): ``CLOSING_WEIGHT * aggression**2 - CLOSING_OFFSET``, from -1.5 for a
    fully patient player to +3.5 for a full closer (Sofia -1.3, Priya -0.25, Maya +2.1, Sage
    +2.55). Squared so that the closers pull clearly ahead of the middle of the table."""
    return CLOSING_WEIGHT * profile.aggression ** 2 - CLOSING_OFFSET


def _facedown_limit(view: SeatView, v: int) -> float:
    """The highest value a player puts into a face-down position: about the expected unseen
    value; aggressive players accept more (revealing cards brings the end nearer), pair
    hunters seed fresh columns with mid cards."""
    profile = view.profile
    limit = view.unknown - 0.5 + _closing(profile)
    if 3 <= v <= 7:
        grid = view.grid
        for i in view.down:
            if grid[PARTNER[i]] is None:  # a fresh column to seed
                limit += 1.5 * profile.pair_hope
                break
    return limit


def _respect_going_out(view: SeatView, rank: str, allowed, pos, reason, rng) -> tuple["int | None", str]:
    """Going out only when ``wants_to_go_out`` agrees; an eager closer goes out with a card that
    is not bad even when another place would gain a little more."""
    if len(view.down) != 1:
        return pos, reason
    last = view.down[0]
    obs, profile, value = view.obs, view.profile, view.table.value
    if pos == last:
        if wants_to_go_out(obs, profile, view.score_with(last, rank), view.gain(last, rank)):
            return pos, reason
        # staying in: decide again as if the last face-down slot were not there
        return _ordered(view, rank, [i for i in allowed if i != last], rng)[0], "stay_in"
    if last in allowed and value[rank] <= 7:
        slack = 3 * profile.aggression
        if (pos is None or view.gain(last, rank) >= view.gain(pos, rank) - slack) and \
                wants_to_go_out(obs, profile, view.score_with(last, rank), view.gain(last, rank)):
            return last, "go_out"
    if pos is None and obs.rules.flip_mode == "always":
        # discarding forces flipping the last card: going out with an unknown card
        risk = 2 * (1 - profile.aggression)
        expected = hand_estimate(view.grid, view.table, view.unknown)
        if not wants_to_go_out(obs, profile, expected + risk):
            alt = _best_face_up(view, rank, allowed, -max(STAY_IN_COST, (expected - HIGH_HAND) / 2))
            if alt is not None:
                return alt, "stay_in"
    return pos, reason


def _best_face_up(view: SeatView, rank: str, allowed, min_gain: float) -> "int | None":
    scored = [(view.gain(i, rank), i) for i in allowed
              if view.grid[i] is not None and not view.downgrade(i, rank)]
    scored = [(g, i) for g, i in scored if g >= min_gain]
    return max(scored, key=lambda gi: (gi[0], -gi[1]))[1] if scored else None


def _final_turn(view: SeatView, rank: str, allowed) -> tuple["int | None", str]:
    """Last turn: the placement that lowers the expected score most (blackjack counted), if any."""
    best, best_gain = None, 0.0
    for i, gain in _final_gains(view, rank, allowed):
        if gain > best_gain:
            best, best_gain = i, gain
    return best, ("final" if best is not None else "discard")


def _final_gains(view: SeatView, rank: str, allowed) -> list:
    """(position, gain) for each allowed position that is no downgrade (blackjack counted)."""
    gains, worse = view.gains(rank), view.downgrades(rank)
    out = [(i, gains[i]) for i in allowed if not worse[i]]
    if view.table.rules.blackjack:
        for k, (i, _gain) in enumerate(out):
            if (not view.down or view.down == [i]) and view.score_with(i, rank) == 21:
                out[k] = (i, hand_estimate(view.grid, view.table, view.unknown))
    return out


def _expected_draw_gain(view: SeatView) -> float:
    """What drawing from the pile is worth (judged as in the final turn): the mean best gain
    (or 0 for a discard) over the cards not seen."""
    counts = unseen_counts(view.obs)
    total = sum(counts.values())
    if not total:
        return 0.0
    blackjack = view.table.rules.blackjack
    acc = 0.0
    for rank, n in counts.items():
        if n:
            allowed = _allowed(view, rank)
            if blackjack:
                acc += n * max([0.0, *(g for _, g in _final_gains(view, rank, allowed))])
            else:  # a downgrade gains nothing, so only the positions allowed matter for the best
                gains = view.gains(rank)
                acc += n * max([0.0, *[gains[i] for i in allowed]])
    return acc / total


# ---------------------------------------------------------------- take or draw
def should_take_discard(obs, profile: Profile) -> bool:
    """Take the top of the discard pile (True) or draw from the pile (False).

    Order (spec section 10): always take jokers (placed as pairs under eagle_eye); a card
    that completes a column pair (never planned for negative cards); never a card worth 8 or
    more otherwise, nor one with no good place; kings, aces, 2s and (ten_penny) tens
    wherever they improve the hand; mid cards when the placement gains enough
    (``_take_margin``: by the card, the personality and end-game pressure); in the final
    turn, when the sure gain beats the expected gain of a blind draw. The placement is the
    one ``choose_placement`` would make, so a taken card replaces a worse visible card or
    goes face down. Whether to take is never left to chance: unpredictability never takes
    a bad card.
    """
    return takes_from_view(SeatView(obs, profile))


def takes_from_view(view: SeatView) -> bool:
    """``should_take_discard`` from a view of the observation."""
    obs, profile = view.obs, view.profile
    top = obs.discard_top
    if top is None:
        return False
    table = view.table
    rank = table.model.kind(top)
    if rank == JOKER_RANK:
        return True
    if rank not in view.grid and table.twin.get(rank, rank) not in view.grid:  # no pair to complete: quick answers
        if table.tier[rank] == "Terrible":
            return False
        value = table.value[rank]
        if view.playing and value >= 2 and max(view.gains(rank)) < _take_need(profile, value, True, True):
            return False  # no position gains what taking it would need, even at the lowest need
    pos, reason = _placement(view, rank, True, None)
    if reason == "forced":  # no good place for it
        return False
    if table.pairs(view.grid[PARTNER[pos]], rank) and not table.pairs(view.grid[pos], rank):
        return True  # it completes a column pair
    gain = view.gain(pos, rank)
    value = table.value[rank]
    if table.tier[rank] == "Terrible" or gain <= 0:
        return False
    if not view.playing:
        return gain >= _expected_draw_gain(view)
    if value <= 1:
        return True
    return gain >= _take_margin(view, value, pos)


def _take_margin(view: SeatView, value: int, pos: int) -> float:
    """The gain a mid card (3-7) must bring to be taken rather than drawing blind: small for
    3-5 (less for aggressive players), larger for 6-7; less for a pair hunter seeding a fresh
    column (``pos`` face down beside a face-down partner); lower when the round is ending."""
    obs = view.obs
    fresh = view.grid[pos] is None and view.grid[PARTNER[pos]] is None
    # end-game pressure: someone may go out next turn
    pressure = any(g.count(None) <= 1 for s, g in enumerate(obs.grids) if s != obs.seat)
    return _take_need(view.profile, value, fresh, pressure)


def _take_need(profile: Profile, value: int, fresh: bool, pressure: bool) -> float:
    """``_take_margin`` from its parts (with both reductions: the least it can be)."""
    if value <= 5:
        need = 1.0 - 0.8 * profile.aggression
    else:
        need = 3.0 - profile.pair_hope
    if fresh:
        need -= 1.5 * profile.pair_hope
    if pressure:
        need -= 0.5
    return need


# ---------------------------------------------------------------- flips
def choose_flip(obs, profile: Profile, rng: "random.Random | None" = None) -> int:
    """Which face-down card to turn up.

    Initial flips go to different columns (each shows what a column may pair with). After a
    discard: beside the highest visible card worth 3 or more (a matching card there zeroes
    it), else in a fresh column, else beside a low card; beside a negative card last (a
    second one would pair it).
    """
    grid = ranks_of(obs.grids[obs.seat], obs.rules)
    down = [i for i, r in enumerate(grid) if r is None]
    if not down:
        raise ValueError(f"seat {obs.seat} has no face-down card to flip")
    if obs.awaiting == "initial_flip":
        used = {i % 3 for i, r in enumerate(grid) if r is not None}
        options = [i for i in down if i % 3 not in used] or down
        return rng.choice(options) if rng is not None else options[0]
    table = rule_table(obs.rules)
    value = table.value

    def key(i: int):
        partner = grid[PARTNER[i]]
        if partner is None:
            return (1, 0, i)
        v = value[partner]
        if v >= 3:
            return (0, -v, i)
        return (2 if v >= 0 else 3, v, i)

    if rng is not None and len(down) > 1 and rng.random() < profile.unpredictability:
        safe = [i for i in down if key(i)[0] < 3] or down
        return rng.choice(safe)
    return min(down, key=key)


def should_skip_flip(obs, profile: Profile) -> bool:
    """Skip an optional (endgame) flip? In the final turn yes (the cards are turned up anyway);
    when it is the last face-down card, skip unless going out with it is wanted (judged at
    the expected unseen value plus a risk margin for cautious players); otherwise flip."""
    if obs.phase != Phase.PLAYING:
        return True
    view = SeatView(obs, profile)
    if len(view.down) != 1:
        return False
    risk = 2 * (1 - profile.aggression)
    return not wants_to_go_out(obs, profile, hand_estimate(view.grid, view.table, view.unknown) + risk)


# ---------------------------------------------------------------- whole-turn actions
def turn_action(obs, profile: Profile, rng: "random.Random | None" = None) -> "str | None":
    """At the start of a turn, a whole-turn action preferred to drawing, or None (draw or take).

    * ``knock`` (``knock_early``), with two face-down cards in the playing phase, when
      ``wants_to_go_out`` agrees with the hand estimated at the expected unseen value plus a
      risk margin per face-down card (cautious players want more). With one face-down card
      drawing is never worse: the drawn card may replace it (going out all the same) or be
      discarded. In the final turn knocking gains nothing (the cards are turned up anyway).
    * ``flip N`` (``flip_as_action``), in the playing phase, when revealing a card is worth
      more to the personality (``_closing``: only closers credit it) than the expected gain of
      drawing (the mean best placement over the unseen cards) or of taking the discard; a
      flip that would go out needs ``wants_to_go_out`` too. The card is the one
      ``choose_flip`` picks.
    """
    if obs.awaiting != "draw" or obs.phase != Phase.PLAYING:
        return None
    legal = {str(a) for a in obs.legal_actions}
    view = SeatView(obs, profile)
    down = view.down
    if not down:
        return None
    risk = 2 * (1 - profile.aggression)
    if "knock" in legal and len(down) == 2:
        if wants_to_go_out(obs, profile, hand_estimate(view.grid, view.table, view.unknown) + risk * len(down)):
            return "knock"
    closing = _closing(profile)
    if closing <= 0 or not any(a.startswith("flip ") for a in legal):
        return None
    gain = _expected_draw_gain(view)
    top = obs.discard_top
    if top is not None and takes_from_view(view):
        rank = view.table.model.kind(top)
        pos, _ = _placement(view, rank, True, None)
        gain = max(gain, view.gain(pos, rank))
    if gain >= closing:
        return None
    if len(down) == 1 and not wants_to_go_out(obs, profile, hand_estimate(view.grid, view.table, view.unknown) + risk):
        return None
    return f"flip {choose_flip(obs, profile, rng)}"


# ---------------------------------------------------------------- going out
def wants_to_go_out(obs, profile: Profile, score: float, gain: float = 0.0) -> bool:
    """Go out now with a hand worth ``score`` (estimated), by a move that gains ``gain`` points?

    Never above ``6 + 8 * aggression`` points (about 10), nor above ``HIGH_HAND`` (10) unless
    lower than every opponent's expected score (going out high).

    * Plain rules: yes for a big immediate gain (``BIG_GAIN``), else when confident of being
      lowest: under every opponent's outlook (visible cards, face-down ones at the expected
      unseen value, less a point for their last turn and up to two per face-down card,
      fewer for aggressive players) by a margin of ``3 * (1 - 2 * aggression)`` points
      (a closer goes out even a little above that outlook). knock_bonus counts the score lower by its points; blackjack
      counts a 21 as 0 (``model.ROUND_ADJUSTMENTS``).
    * knock_penalty (+10 unless lowest): the chance that some opponent ends strictly lower
      (each opponent's score taken as normal around its estimate, wider per face-down
      card) prices the penalty; go out when score plus the priced penalty (weighed more
      by cautious players) is no worse than staying, i.e. than the hand without this move
      less ``FUTURE_GAIN`` points still to come.

    Turn pressure relaxes the tests late in a round, and from ``stall_turns`` a player
    always goes out, so no round stalls.
    """
    rules = obs.rules
    table = rule_table(rules)
    turns = obs.turns[obs.seat]
    pressure_start, _, stall = turn_marks(rules.max_turns)
    if turns >= stall:
        return True
    pressure = max(0, turns - pressure_start)
    aggression = profile.aggression
    base = score + BLACKJACK.points if rules.blackjack and score == BLACKJACK.score else score
    mine = base + KNOCK_BONUS.points if rules.knock_bonus else base
    if mine > 6 + 8 * aggression + pressure:
        return False
    if not rules.knock_penalty and gain >= BIG_GAIN and mine <= HIGH_HAND:
        return True
    unknown = unseen_mean(obs)
    others = [(hand_estimate(ranks_of(g, rules), table, unknown), g.count(None))
              for s, g in enumerate(obs.grids) if s != obs.seat]
    if score > HIGH_HAND and score >= min(est for est, _ in others) - pressure:
        return False  # going out high: some opponent is expected to score no more
    if rules.knock_penalty:
        caution = 1.2 - 0.4 * aggression
        priced = mine + KNOCK_PENALTY.points * caution * _chance_someone_lower(base, others)
        return priced <= score + gain - FUTURE_GAIN + pressure
    outlook = min(est - 1 - 2 * (1 - aggression) * down for est, down in others)
    return mine <= outlook - 3 * (1 - 2 * aggression) + pressure


def _chance_someone_lower(score: float, others) -> float:
    """The chance that at least one opponent ends strictly below ``score``: each opponent's
    final hand taken as normal around its estimate less 1.5 (its last turn), with variance
    2 plus 12 per face-down card (a card's spread of values)."""
    none_lower = 1.0
    for est, down in others:
        sd = sqrt(2 + 12 * down)
        none_lower *= 1 - 0.5 * (1 + erf((score - 0.5 - (est - 1.5)) / (sd * SQRT2)))
    return 1 - none_lower


_NEUTRAL = Profile("Neutral", "Default judgement", 5, 0.0, 0.5, 0.0)
