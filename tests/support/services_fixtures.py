"""Fixtures for the real services of ``tests/support/services.py``, for every test (a plugin that
``tests/conftest.py`` loads).

* ``postgres`` (session): one PostgreSQL cluster (``PostgresServer``: ``.url``, ``.new_database()``).
* ``postgres_url``: a fresh, empty PostgreSQL database for one test (its SQLAlchemy URL).
* ``database_url``: parametrized over ``sqlite`` (a file in the test's tmp_path) and
  ``postgresql`` (a fresh database), so one test runs against both stores.
* ``clock``: a ``Clock`` the test moves by hand (``clock.days(1)``); ``store``: a class store on
  ``database_url`` (both kinds) with that clock, closed afterwards.
* ``hub`` (session): one JupyterHub (``HubServer``) whose users ``alice``, ``bob`` and
  ``mrs_lee`` (an admin: a teacher) sign in with ``hub.password``; their servers keep the class
  store in the PostgreSQL database ``hub`` (``hub.env["GOLFLAB_DATABASE_URL"]``) and run the apps
  with a short CPU delay, a fixed seed and one-hole games (``DEFAULT_ROUNDS=1``).

A missing PostgreSQL, JupyterHub or configurable-http-proxy skips the tests that need it on a
developer machine and fails them in CI (``CI=true``), as a missing Chromium does.
"""

from __future__ import annotations

import contextlib
import os

import pytest

from tests.support import services

HUB_USERS = ("alice", "bob", "mrs_lee")
HUB_ADMINS = ("mrs_lee",)


def missing(error: services.ServiceMissing):
    """Skip (a developer machine) or fail (CI) a test whose service cannot run here."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(str(error))
    pytest.skip(str(error))


@pytest.fixture(scope="session")
def postgres():
    with contextlib.ExitStack() as stack:
        try:
            server = stack.enter_context(services.postgres_server())
        except services.ServiceMissing as error:
            missing(error)
        yield server


@pytest.fixture
def postgres_url(postgres) -> str:
    return postgres.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'golflab.db'}"
    return request.getfixturevalue("postgres").new_database()


@pytest.fixture(scope="session")
def hub(postgres):
    # one-hole games by default, so a test plays a whole game at the table in one hole
    env = {"GOLFLAB_DATABASE_URL": postgres.new_database("hub"), "DEFAULT_ROUNDS": "1", **services.app_test_env()}
    with contextlib.ExitStack() as stack:
        try:
            server = stack.enter_context(services.jupyterhub_server(env=env, users=HUB_USERS, admins=HUB_ADMINS))
        except services.ServiceMissing as error:
            missing(error)
        yield server


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def days(self, n: float) -> None:
        self.now += n * 86_400


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(database_url, clock):
    from golflab.classroom import Store

    s = Store(database_url, clock=clock)
    yield s
    s.close()
