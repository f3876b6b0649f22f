"""Shared fixtures."""

from __future__ import annotations

import os
import sys
from unittest import mock

import pytest

from golflab.classroom.security import PASSWORD_HASHING_ENV

# Real services (PostgreSQL, JupyterHub) for every test: the fixtures of tests/support/services_fixtures.py,
# which imports tests/support/services.py (the helpers are the package tests.support: pyproject's pytest
# pythonpath puts the repository on sys.path); and the order pytest-xdist hands the files out in, longest
# first (tests/scheduling.py).
pytest_plugins = ["tests.support.services_fixtures", "tests.scheduling"]

# Accounts are made by the hundred here: hash their passwords at argon2's cheapest (the servers and
# kernels the tests start inherit it); tests/classroom/test_password_hashing.py checks the real default.
os.environ.setdefault(PASSWORD_HASHING_ENV, "cheapest")

ENV_VARS = ("DEFAULT_ROUNDS", "DEFAULT_INITIAL_FLIPS", "DEFAULT_USE_JOKERS", "DEFAULT_FLIP_MODE")


@pytest.fixture
def clean_env(monkeypatch):
    """A monkeypatch with the DEFAULT_* rule variables removed from the environment."""
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


@pytest.fixture(autouse=True)
def fresh_page_state():
    """Each test starts as a new page's kernel does: no guest progress left by another test (the
    apps keep it per kernel, and the tests share one process) and this page's session read again."""
    guest = sys.modules.get("golflab_widgets.account.guest")
    if guest is not None:
        guest.guest_progress.clear()
    session = sys.modules.get("golflab_widgets.account.session")
    if session is not None:
        session.page_session(refresh=True)
    yield


@pytest.fixture
def small_search(monkeypatch):
    """The Expert's search with small budgets (the same method: legality and determinism do not
    depend on them), so that a hole of Experts is quick in the Python reference too."""
    from golflab.coach import expert, hints, search

    for name, value in (("USE_FIRST", 4), ("USE_ROLLOUTS", 8), ("DECISION_FIRST", 8), ("DECISION_ROLLOUTS", 64),
                        ("SCREEN_FIRST", 8), ("SCREEN_ROLLOUTS", 64)):
        monkeypatch.setattr(search, name, value)
    monkeypatch.setattr(hints, "HINT_ROLLOUTS", 256)
    monkeypatch.setattr(expert, "EXPERT_ROLLOUTS", 512)


@pytest.fixture
def restored_environ():
    """``os.environ`` as it was, after the test: a preheated kernel's wait puts its page's request
    there (``golflab_widgets.server.page_request``), where monkeypatch does not see it."""
    with mock.patch.dict(os.environ):
        yield
