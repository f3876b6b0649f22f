"""The real services of ``tests/support/services.py`` run: PostgreSQL answers through SQLAlchemy and gives
independent fresh databases; JupyterHub signs users in and gives each their own server, with the
settings of ``docs/jupyterhub_config.example.py``, and stops everything it started."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import sqlalchemy as sa
from traitlets.config import PyFileConfigLoader

from tests.support import services, services_fixtures


def databases(postgres) -> set[str]:
    with postgres.connect() as conn:
        return {row[0] for row in conn.execute("SELECT datname FROM pg_database")}


def environment(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode().split("=", 1) for item in raw if b"=" in item)


# ---------------------------------------------------------------------------------------------
# Missing programs: skipped on a developer machine, failed in CI


@pytest.mark.parametrize("ci, outcome", [("true", pytest.fail.Exception), ("", pytest.skip.Exception)])
def test_a_missing_service_fails_in_ci_and_is_skipped_elsewhere(monkeypatch, ci, outcome):
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="install it"):
        services_fixtures.missing(services.ServiceMissing("PostgreSQL is missing: install it"))


def test_missing_programs_are_named_with_how_to_install_them(monkeypatch, tmp_path):
    monkeypatch.setattr(services, "PG_LIB", tmp_path / "postgresql")
    (tmp_path / "postgresql" / "15" / "bin").mkdir(parents=True)  # a version without its programs
    with pytest.raises(services.ServiceMissing, match="install Debian's postgresql package"):
        services.postgres_bin_dir()
    monkeypatch.setattr(services, "CHP_NPM_DIR", tmp_path / "cphp")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(services.ServiceMissing, match="npm install --prefix .* configurable-http-proxy"):
        services.chp_command()


def test_the_newest_postgresql_is_used(monkeypatch, tmp_path):
    for version in ("9.6", "15", "13"):
        for program in ("initdb", "pg_ctl"):
            (tmp_path / version / "bin").mkdir(parents=True, exist_ok=True)
            (tmp_path / version / "bin" / program).touch()
    monkeypatch.setattr(services, "PG_LIB", tmp_path)
    assert services.postgres_bin_dir() == tmp_path / "15" / "bin"


# ---------------------------------------------------------------------------------------------
# PostgreSQL


def test_postgres_answers_through_sqlalchemy_and_not_as_root(postgres):
    engine = sa.create_engine(postgres.url)
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.text("select 1")).scalar() == 1
            assert conn.execute(sa.text("select version()")).scalar().startswith("PostgreSQL")
            backend = conn.execute(sa.text("select pg_backend_pid()")).scalar()
            # read while the connection holds its backend open: it ends once disconnected
            status = Path(f"/proc/{backend}/status").read_text()
    finally:
        engine.dispose()
    uid = int(re.search(r"^Uid:\s+(\d+)", status, re.M).group(1))
    assert uid != 0, "PostgreSQL refuses root: the tests run it as the postgres OS user"


def test_fresh_databases_are_empty_and_independent(postgres):
    first, second = postgres.new_database(), postgres.new_database()
    assert first != second
    one = sa.create_engine(first)
    two = sa.create_engine(second)
    try:
        with one.begin() as conn:
            conn.execute(sa.text("create table games (id integer primary key, player text)"))
            conn.execute(sa.text("insert into games values (1, 'ann')"))
        assert sa.inspect(two).get_table_names() == []
        with one.connect() as conn:
            assert conn.execute(sa.text("select player from games")).scalars().all() == ["ann"]
    finally:
        one.dispose()
        two.dispose()


@pytest.mark.parametrize("name", ["Bad-Name", "1st", 'x"; drop database golflab; --', "", "a" * 64, 7])
def test_new_database_refuses_a_bad_name_and_creates_nothing(postgres, name):
    before = databases(postgres)
    with pytest.raises(ValueError, match="not allowed: use 1-63 lower-case letters"):
        postgres.new_database(name)
    assert databases(postgres) == before


def test_new_database_refuses_a_taken_name_and_keeps_its_data(postgres):
    url = postgres.new_database("kept")
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("create table t (x integer)"))
        for taken in ("kept", "golflab", "postgres"):
            with pytest.raises(ValueError, match="exists already"):
                postgres.new_database(taken)
        assert sa.inspect(engine).get_table_names() == ["t"]
    finally:
        engine.dispose()


def test_database_url_gives_a_working_empty_store_of_each_kind(database_url):
    engine = sa.create_engine(database_url)
    try:
        assert sa.inspect(engine).get_table_names() == []
        with engine.begin() as conn:
            conn.execute(sa.text("create table t (x integer)"))
            conn.execute(sa.text("insert into t values (41)"))
        with engine.connect() as conn:
            assert conn.execute(sa.text("select x + 1 from t")).scalar() == 42
    finally:
        engine.dispose()


# ---------------------------------------------------------------------------------------------
# JupyterHub


def load_example(monkeypatch, **env: str):
    """docs/jupyterhub_config.example.py as JupyterHub loads it, with ``env`` as the hub's environment."""
    for key in [k for k in os.environ if k.startswith("GOLFLAB_")]:
        monkeypatch.delenv(key)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    example = services.HUB_CONFIG_EXAMPLE
    return PyFileConfigLoader(example.name, path=str(example.parent)).load_config()


def test_the_example_config_passes_the_golflab_settings_and_names_the_teachers(monkeypatch):
    config = load_example(monkeypatch, GOLFLAB_DATABASE_URL="postgresql+psycopg://golflab@db/golflab",
                          GOLFLAB_HUB_ADMINS="mrs_lee, ms_ortiz", GOLFLAB_TEACHERS="mr_park", OTHER="x")
    environment = config.Spawner.environment
    assert environment["GOLFLAB_DATABASE_URL"] == "postgresql+psycopg://golflab@db/golflab"
    assert "OTHER" not in environment
    assert config.Authenticator.admin_users == {"mrs_lee", "ms_ortiz"}
    teachers = environment["GOLFLAB_TEACHERS"]
    learner = SimpleNamespace(user=SimpleNamespace(name="ann", admin=False))
    promoted = SimpleNamespace(user=SimpleNamespace(name="bob", admin=True))  # made an admin on the hub's page
    assert teachers(learner) == "mr_park,mrs_lee,ms_ortiz"
    assert teachers(promoted) == "bob,mr_park,mrs_lee,ms_ortiz"
    assert config.Spawner.notebook_dir == str(services.ROOT)
    assert config.Spawner.default_url == "/voila/render/notebooks/index.ipynb"
    assert config.Spawner.cmd[:3] == ["/usr/bin/env", f"--chdir={services.ROOT}", str(services.ROOT / "binder/start")]


def test_the_example_config_without_golflab_settings_names_no_teacher(monkeypatch):
    config = load_example(monkeypatch)
    assert set(config.Spawner.environment) == {"GOLFLAB_TEACHERS"}
    assert config.Authenticator.admin_users == set()
    learner = SimpleNamespace(user=SimpleNamespace(name="ann", admin=False))
    assert config.Spawner.environment["GOLFLAB_TEACHERS"](learner) == ""


def test_two_users_sign_in_and_each_gets_their_own_server(hub):
    sessions = {user: hub.sign_in(user) for user in ("alice", "bob")}
    for user, session in sessions.items():
        hub.spawn(session, user)
    pids = {user: hub.api(f"users/{user}")["servers"][""]["state"]["pid"] for user in sessions}
    assert pids["alice"] != pids["bob"]
    for user, session in sessions.items():
        status = session.get(hub.user_url(user, "voila/tree"), timeout=60)  # the server's OAuth hop, then Voila
        assert status.ok and status.url == hub.user_url(user, "voila/tree"), status.url
        env = environment(pids[user])
        assert env["JUPYTERHUB_USER"] == user
        assert env["HOME"] == str(hub.home(user))
        assert env["GOLFLAB_DATABASE_URL"] == hub.env["GOLFLAB_DATABASE_URL"]
        assert env["GOLFLAB_TEACHERS"] == "mrs_lee"  # the hub's admin is a teacher in every server
    # alice cannot use bob's server: the hub does not let her through its OAuth
    refused = sessions["alice"].get(hub.user_url("bob", "voila/tree"), timeout=60)
    assert refused.status_code == 403, (refused.status_code, refused.url)


@pytest.mark.parametrize("user, password", [("alice", "wrong"), ("mallory", services.HUB_PASSWORD)])
def test_the_hub_refuses_a_wrong_password_or_an_unknown_user(hub, user, password):
    with pytest.raises(PermissionError, match=f"refused '{user}'"):
        hub.sign_in(user, password)
    if user == "mallory":
        assert hub.api("users/mallory") is None


def test_learners_servers_serve_the_apps_with_the_repositorys_settings(hub):
    """The default page is the landing app, and Voila runs with voila.json (read from the working
    directory: the example config starts the server in the checkout) and jupyter_config/ (the
    golflab template, on the config path through binder/start)."""
    session = hub.sign_in("alice")
    hub.spawn(session, "alice")
    landing = session.get(hub.user_url("alice"), timeout=120)
    assert landing.ok, landing.status_code
    assert landing.url == hub.user_url("alice", "voila/render/notebooks/index.ipynb")
    assert re.search(r'"progressiveRendering": *true', landing.text), "voila.json was not applied"
    assert "voila/templates/golflab/" in landing.text, "jupyter_config/voila.py was not applied"


def test_leaving_the_context_stops_the_hub_its_proxy_and_every_server(hub):
    """A hub of its own (the session's ``hub`` fixture only proves the programs are here)."""
    with services.jupyterhub_server(users=["carol"], name="jupyterhub-stop") as own:
        session = own.sign_in("carol")
        own.spawn(session, "carol")
        server_pid = own.api("users/carol")["servers"][""]["state"]["pid"]
        running = own.processes()
        assert {own.process.pid, server_pid} <= set(running) and len(running) >= 3, running  # and the proxy
    assert own.processes() == []
    assert not os.path.exists(own.directory)
    assert "killed processes the hub left running" not in own.log_path.read_text()


KILLED_RUN = """
import sys, time
sys.path.insert(0, {root!r})  # the repository: this script runs in a process of its own
from tests.support import services
from tests.support import services_fixtures
with services.postgres_server() as pg, services.jupyterhub_server(users=["dora"], name="jupyterhub-killed") as hub:
    print(pg.directory, pg.port, hub.directory, hub.process.pid, flush=True)
    time.sleep(600)
"""


def test_services_of_a_killed_test_run_are_ended_by_the_next_one(hub, tmp_path):
    """`timeout` ends a test run with SIGTERM, which runs no cleanup: the cluster and the hub
    (started in sessions of their own) outlive it. The next start of a service ends them."""
    script = tmp_path / "killed_run.py"
    script.write_text(KILLED_RUN.format(root=str(Path(__file__).resolve().parents[2])))
    run = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        pg_dir, pg_port, hub_dir, hub_pid = run.stdout.readline().split()
    finally:
        run.send_signal(signal.SIGTERM)
        run.wait(timeout=30)
    pg_dir, hub_dir = Path(pg_dir), Path(hub_dir)
    assert (pg_dir / "data" / "postmaster.pid").exists() and Path(f"/proc/{hub_pid}").exists()  # left running
    services.reap_orphaned_postgres()  # (a test of another pytest-xdist worker that starts a service
    services.reap_orphaned_hubs()      # now may end them first: either way they are gone)
    assert not pg_dir.exists() and not hub_dir.exists()
    assert services.processes_with_env(services.HUB_MARKER, str(hub_dir)) == []
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", int(pg_port)), timeout=5).close()
