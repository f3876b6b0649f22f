"""Shared fixtures: a clean environment and a helper that stacks a game's cards."""

from __future__ import annotations

import pytest

from golflab import parse_cards

ENV_VARS = ("DEFAULT_ROUNDS", "DEFAULT_INITIAL_FLIPS", "DEFAULT_USE_JOKERS", "DEFAULT_FLIP_MODE")


@pytest.fixture
def clean_env(monkeypatch):
    """A monkeypatch with the DEFAULT_* rule variables removed from the environment."""
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def stack(game, grids=None, draw=None, discard=None, face_up=None):
    """Set a fresh game's cards by hand (for rule tests): grids per seat, the draw pile
    listed top first, the discard pile listed top last, face-up flags per seat."""
    if grids is not None:
        game._grids = [parse_cards(g) for g in grids]
    if draw is not None:
        game._draw = list(reversed(parse_cards(draw)))
    if discard is not None:
        game._discard = parse_cards(discard)
    if face_up is not None:
        game._up = [[bool(int(ch)) for ch in row] if isinstance(row, str) else list(row) for row in face_up]
    return game


@pytest.fixture
def stacked():
    """The ``stack`` helper, as a fixture."""
    return stack

