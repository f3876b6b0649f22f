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


#: This run is the reference lane (tools/test_lanes.py: GOLFLAB_KERNEL=0 from the start).
REFERENCE_RUN = os.environ.get("GOLFLAB_KERNEL", "").strip() == "0"


@pytest.fixture(autouse=True)
def reference_stays_reference():
    """On the reference lane no test may load numba: a test that compared the compiled code with the
    reference by switching the kernel on inside itself compiled the whole kernel there (CI: 66 s for
    one test, beside the main lane's own compile). Such a test is marked ``needs_compiled``."""
    loaded = "numba" in sys.modules
    yield
    if REFERENCE_RUN and not loaded and "numba" in sys.modules:
        pytest.fail("this test loaded numba under GOLFLAB_KERNEL=0: it runs compiled code, so mark it "
                    "needs_compiled (tests.support.kernel_marks) and let the main lane run it")


@pytest.fixture
def small_search(monkeypatch):
    """The Expert's search with small budgets (the same method: legality and determinism do not
    depend on them), so that a hole of Experts is quick in the Python reference too."""
    from golflab.coach import card_use, expert, hints, search

    for module, name, value in ((card_use, "USE_FIRST", 4), (card_use, "USE_ROLLOUTS", 8),
                                (search, "DECISION_FIRST", 8), (search, "DECISION_ROLLOUTS", 64),
                                (search, "SCREEN_FIRST", 8), (search, "SCREEN_ROLLOUTS", 64)):
        monkeypatch.setattr(module, name, value)
    monkeypatch.setattr(hints, "HINT_ROLLOUTS", 256)
    monkeypatch.setattr(expert, "EXPERT_ROLLOUTS", 512)


@pytest.fixture
def voilas_request_socket(monkeypatch):
    """Voila's request socket (``RequestInfoSocketHandler``) as it was, after the test:
    ``request_socket.mend()`` changes the class for the whole process."""
    from golflab_widgets.server import request_socket
    from voila.request_info_handler import RequestInfoSocketHandler as handler

    for name in request_socket.MENDS:  # on_message is inherited: put here for the test, then removed
        monkeypatch.setattr(handler, name, handler.__dict__.get(name, getattr(handler, name)), raising=False)


@pytest.fixture
def restored_environ():
    """``os.environ`` as it was, after the test: a preheated kernel's wait puts its page's request
    there (``golflab_widgets.server.page_request``), where monkeypatch does not see it."""
    with mock.patch.dict(os.environ):
        yield
