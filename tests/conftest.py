"""Shared fixtures."""

from __future__ import annotations

import pytest

ENV_VARS = ("DEFAULT_ROUNDS", "DEFAULT_INITIAL_FLIPS", "DEFAULT_USE_JOKERS", "DEFAULT_FLIP_MODE")


@pytest.fixture
def clean_env(monkeypatch):
    """A monkeypatch with the DEFAULT_* rule variables removed from the environment."""
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    return monkeypatch
