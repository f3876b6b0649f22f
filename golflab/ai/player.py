"""``CPUPlayer``: a personality that picks a legal action from an observation."""

from __future__ import annotations

import random

from ..actions import DISCARD, DRAW, FLIP, SKIP, SWAP, TAKE, Action
from .decisions import SeatView, choose_flip, place_from_view, should_skip_flip, takes_from_view, turn_action
from .profiles import CLASSIC_EXPERT, EXPERT, Profile, get_profile, level_of


class CPUPlayer:
    """A CPU opponent: ``CPUPlayer("Sofia", seed=1).choose(game.observation(seat))``.

    It decides only from the observation (never from hidden cards) and draws every random
    choice from its own ``random.Random(seed)``: the same seed and observations give the
    same choices. To place a card it reuses what its draw decision computed when the new
    observation shows the same grid (and the same cards), which changes no choice.
    ``CPUPlayer("Expert")`` plays the coach's best move (``golflab.coach.expert``) and
    ``CPUPlayer("Classic Expert")`` the hint's best option at 160 rollouts a move, the Expert
    before that search and the hint's race:
    both deterministic, so their seed changes nothing. ``CPUPlayer("Level 3")`` plays a level
    (``golflab.ai.levels``): its base personality, with a random legal move at the level's
    ``blunder`` rate and the Expert's move at its ``search`` rate (both from its own generator).
    """

    def __init__(self, profile: "str | Profile", seed: int | None = None) -> None:
        self.profile = get_profile(profile)
        self.level = level_of(self.profile)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"seed must be a whole number or None, got {seed!r}")
        self.seed = seed
        self.rng = random.Random(seed)
        self._view = None  # the view of this player's last draw decision (reused to place the card)

    @property
    def name(self) -> str:
        return self.profile.name

    def reset(self, rng_state: tuple) -> None:
        """Start again from generator state ``rng_state`` (``rng.getstate()``), forgetting the
        last draw decision: the same choices again from the same observations."""
        self.rng.setstate(rng_state)
        self._view = None

    def choose(self, obs) -> Action:
        """One of ``obs.legal_actions``, for whatever the seat must do now."""
        legal = getattr(obs, "legal_actions", None)
        if not legal:
            raise ValueError(
                "choose() needs the observation of the seat to move (its legal_actions are empty): "
                "pass game.observation(game.current_player)"
            )
        profile, rng, level, horizon = self.profile, self.rng, self.level, None
        if level is not None:
            if level.blunder and rng.random() < level.blunder:
                self._view = None  # a random move: the next placement decides afresh
                return legal[rng.randrange(len(legal))]
            if level.search and rng.random() < level.search:
                self._view = None  # the Expert's move: the next placement decides afresh
                profile, horizon = EXPERT, level.horizon
        if profile is EXPERT or profile is CLASSIC_EXPERT:
            # the one import of the coach from ai, at call time: the coach imports ai
            from ..coach.expert import classic_expert_move, expert_move

            return expert_move(obs, horizon) if profile is EXPERT else classic_expert_move(obs)
        stage = obs.awaiting
        if stage == "draw":  # should_take_discard, which is False when the discard pile is empty
            rules = obs.rules
            if rules.knock_early or rules.flip_as_action:  # a whole-turn action instead of drawing
                whole = turn_action(obs, profile, rng)
                if whole is not None:
                    return Action.parse(whole)
            self._view = view = SeatView(obs, profile)
            return TAKE if takes_from_view(view) and TAKE in legal else DRAW
        if stage == "place":  # choose_placement
            last, self._view = self._view, None
            view = SeatView(obs, profile) if last is None or last.profile is not profile else last.follow(obs)
            pos = place_from_view(view, rng)
            return DISCARD if pos is None else SWAP[pos]
        if stage == "flip" and SKIP in legal and should_skip_flip(obs, profile):
            return SKIP
        return FLIP[choose_flip(obs, profile, rng)]

    def __repr__(self) -> str:
        return f"CPUPlayer({self.profile.name!r}, seed={self.seed!r})"
