"""Real services for the tests, started and stopped by the tests themselves.

* ``postgres_server()``: a PostgreSQL cluster from Debian's packages in a temporary directory,
  listening on 127.0.0.1 on a free port, trust authentication. PostgreSQL refuses to run as
  root, so under root (CI) its programs run as the ``postgres`` OS user; otherwise as you.
* ``jupyterhub_server(env=..., users=[...])``: a JupyterHub (PyPI) behind configurable-http-proxy
  (npm, installed by ``make test`` under ``.venv/cphp``), configured by
  ``docs/jupyterhub_config.example.py`` (what an operator uses) with a dummy authenticator, local
  processes for the learners' servers and everything else in a temporary directory.

Both are context managers that stop everything they started and delete their directory. A
missing program raises ``ServiceMissing``; ``tests/support/services_fixtures.py`` makes that a skip on a
developer machine and a failure in CI. This module imports no pytest.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
HUB_CONFIG_EXAMPLE = ROOT / "docs" / "jupyterhub_config.example.py"
PG_LIB = Path("/usr/lib/postgresql")  # Debian's PostgreSQL: <version>/bin/initdb...
CHP_NPM_DIR = Path(sys.prefix) / "cphp"  # `npm install --prefix .venv/cphp configurable-http-proxy` (Makefile)
PG_USER = "golflab"  # the cluster's superuser (trust authentication on 127.0.0.1 only)
PG_OS_USER = "postgres"  # the OS user that runs PostgreSQL when the tests run as root
HUB_PASSWORD = "golflab-hub-test"  # every test user's password (DummyAuthenticator)
DATABASE_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
PG_PREFIX = "golflab-postgres-"  # the clusters' temporary directories
HUB_PREFIX = "golflab-hub-"  # the hubs' temporary directories
HUB_MARKER = "GOLFLAB_TEST_HUB"  # in the environment of every process a test hub starts: its directory
START_TIMEOUT = 120  # seconds for a service (or a single-user server) to answer on a loaded machine


def app_test_env() -> dict[str, str]:
    """What the apps' test servers run with: a short CPU delay (``GOLFLAB_TEST_CPU_DELAY``, default
    0.05 s) and a fixed seed (``GOLFLAB_TEST_SEED``, default 7)."""
    return {"GOLFLAB_CPU_DELAY": os.environ.get("GOLFLAB_TEST_CPU_DELAY", "0.05"),
            "GOLFLAB_SEED": os.environ.get("GOLFLAB_TEST_SEED", "7")}


class ServiceMissing(RuntimeError):
    """A program a service needs is not installed; the message says what to install."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def is_root() -> bool:
    return os.geteuid() == 0


# ---------------------------------------------------------------------------------------------
# Leftovers of test runs that were killed (a `timeout` sends SIGTERM: no cleanup runs)


def _process_start(pid: int) -> str | None:
    """The start time of process ``pid`` (field 22 of /proc/<pid>/stat), None when it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def service_directory(prefix: str) -> Path:
    """A new temporary directory for one service, marked with the process that owns it."""
    directory = Path(tempfile.mkdtemp(prefix=prefix))
    (directory / "owner").write_text(f"{os.getpid()} {_process_start(os.getpid())}\n")
    return directory


def orphaned_directories(prefix: str) -> list[Path]:
    """The service directories whose owning test process is gone (killed before its cleanup)."""
    found = []
    for directory in Path(tempfile.gettempdir()).glob(f"{prefix}*"):
        try:
            pid, start = (directory / "owner").read_text().split()
        except (OSError, ValueError):
            continue
        if _process_start(int(pid)) != start:
            found.append(directory)
    return found


# ---------------------------------------------------------------------------------------------
# PostgreSQL


def postgres_bin_dir() -> Path:
    """The newest Debian PostgreSQL's programs (``/usr/lib/postgresql/<version>/bin``)."""
    found = [d / "bin" for d in PG_LIB.glob("*")
             if (d / "bin" / "initdb").exists() and (d / "bin" / "pg_ctl").exists()]
    if not found:
        raise ServiceMissing("PostgreSQL is missing (no /usr/lib/postgresql/<version>/bin/initdb): "
                             "install Debian's postgresql package (make test does)")
    return max(found, key=lambda p: _version_key(p.parent.name))


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", name)) or (0,)


@dataclass
class PostgresServer:
    """A running cluster. ``url`` is its ``golflab`` database (SQLAlchemy URL, psycopg 3)."""

    port: int
    directory: Path
    host: str = "127.0.0.1"
    user: str = PG_USER
    databases: list[str] = field(default_factory=list)
    start_command: list[str] = field(default_factory=list, repr=False)

    def stop(self) -> None:
        """Stop the cluster (fast shutdown: every connection is ended), as an outage does."""
        _run(_as_postgres_user([str(postgres_bin_dir() / "pg_ctl"), "-D", str(self.directory / "data"),
                                "-m", "fast", "-w", "stop"]), "pg_ctl stop")

    def start(self) -> None:
        """Start the stopped cluster again, on the same port."""
        _run(self.start_command, "pg_ctl start")

    @contextlib.contextmanager
    def down(self) -> Iterator[None]:
        """The cluster stopped inside the block, started again after it (whatever happens)."""
        self.stop()
        try:
            yield
        finally:
            self.start()

    @property
    def log_path(self) -> Path:
        return self.directory / "postgres.log"

    def url_for(self, database: str) -> str:
        return f"postgresql+psycopg://{self.user}@{self.host}:{self.port}/{database}"

    @property
    def url(self) -> str:
        return self.url_for("golflab")

    def connect(self, database: str = "postgres"):
        """A psycopg connection (autocommit) to ``database``."""
        import psycopg

        return psycopg.connect(host=self.host, port=self.port, user=self.user, dbname=database,
                               autocommit=True, connect_timeout=10)

    def new_database(self, name: str | None = None) -> str:
        """Create a fresh, empty database and give its URL. ``name`` (lower-case letters, digits
        and ``_``, at most 63, not starting with a digit) must be new in this cluster; without
        one a new name is made (``test_1``, ``test_2``...)."""
        if name is None:
            n = len(self.databases) + 1
            while f"test_{n}" in self.databases:
                n += 1
            name = f"test_{n}"
        if not isinstance(name, str) or not DATABASE_NAME.fullmatch(name):
            raise ValueError(f"database name {name!r} is not allowed: use 1-63 lower-case letters, digits "
                             "and '_', not starting with a digit")
        if name in self.databases or name in ("golflab", "postgres", "template0", "template1"):
            raise ValueError(f"database {name!r} exists already in this cluster: pick a new name, "
                             "or pass none to get a generated one")
        with self.connect() as conn:
            conn.execute(f'CREATE DATABASE "{name}"')  # name checked above: identifiers cannot be parameters
        self.databases.append(name)
        return self.url_for(name)

    def log_tail(self, chars: int = 4000) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return text[-chars:]


def _as_postgres_user(command: list[str]) -> list[str]:
    """``command`` run as the ``postgres`` OS user when we are root (PostgreSQL refuses root)."""
    if not is_root():
        return command
    return ["runuser", "-u", PG_OS_USER, "--", *command]


def _run(command: list[str], what: str) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=START_TIMEOUT)
    if result.returncode != 0:
        raise RuntimeError(f"{what} failed (exit {result.returncode}): {' '.join(command)}\n"
                           f"{result.stdout}{result.stderr}")


def reap_orphaned_postgres() -> list[Path]:
    """Stop and delete the clusters of test processes that were killed; gives their directories."""
    orphans = orphaned_directories(PG_PREFIX)
    for orphan in orphans:
        if (orphan / "data" / "postmaster.pid").exists():
            subprocess.run(_as_postgres_user([str(postgres_bin_dir() / "pg_ctl"), "-D", str(orphan / "data"),
                                              "-m", "immediate", "-w", "stop"]), capture_output=True, timeout=60)
        shutil.rmtree(orphan, ignore_errors=True)
    return orphans


@contextlib.contextmanager
def postgres_server(settings: Mapping[str, str] | None = None) -> Iterator[PostgresServer]:
    """Start a throw-away PostgreSQL cluster; stop it and delete its directory afterwards.

    ``settings`` are extra ``postgres -c`` settings. By default the cluster skips fsync (a test
    cluster loses nothing it needs on a crash); pass ``{"fsync": "on", "synchronous_commit": "on"}``
    to measure durable writes."""
    bin_dir = postgres_bin_dir()
    if is_root():
        try:
            import pwd

            owner = pwd.getpwnam(PG_OS_USER)
        except KeyError:
            raise ServiceMissing(f"the OS user {PG_OS_USER!r} is missing: PostgreSQL refuses to run as root, "
                                 "and Debian's postgresql package creates that user") from None
    reap_orphaned_postgres()
    directory = service_directory(PG_PREFIX)
    if is_root():
        os.chown(directory, owner.pw_uid, owner.pw_gid)
    data = directory / "data"
    options = {"listen_addresses": "127.0.0.1", "unix_socket_directories": str(directory),
               "fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
               "max_connections": "200",
               # a record for a failure's reader: each connection, lock waits and statements over 1 s
               "log_connections": "on", "log_lock_waits": "on", "log_min_duration_statement": "1000",
               **(settings or {})}
    server = None
    try:
        _run(_as_postgres_user([str(bin_dir / "initdb"), "-D", str(data), "-U", PG_USER, "--auth=trust",
                                "--encoding=UTF8", "--locale=C", "--no-sync"]), "initdb")
        for attempt in range(3):  # a free port may be taken before the server binds it
            port = free_port()
            server = PostgresServer(port, directory)
            flags = " ".join(f"-c {k}={v}" for k, v in {**options, "port": str(port)}.items())
            server.start_command = _as_postgres_user(
                [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(server.log_path), "-o", flags,
                 "-w", "-t", str(START_TIMEOUT), "start"])
            result = subprocess.run(server.start_command, capture_output=True, text=True)
            if result.returncode == 0:
                break
            if attempt == 2:
                raise RuntimeError(f"PostgreSQL did not start: {result.stdout}{result.stderr}\n{server.log_tail()}")
        with server.connect() as conn:
            conn.execute("CREATE DATABASE golflab")
        yield server
    finally:
        if server is not None and (data / "postmaster.pid").exists():
            subprocess.run(_as_postgres_user([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w",
                                              "stop"]), capture_output=True, timeout=60)
        if server is not None and server.log_path.exists():
            ARTIFACTS.mkdir(exist_ok=True)
            worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # each test process's cluster its own log
            shutil.copyfile(server.log_path, ARTIFACTS / f"postgres{'-' + worker if worker else ''}.log")
        shutil.rmtree(directory, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# JupyterHub


def chp_command() -> str:
    """configurable-http-proxy: the one ``make test`` installs under ``.venv/cphp``, else on PATH."""
    local = CHP_NPM_DIR / "node_modules" / ".bin" / "configurable-http-proxy"
    found = str(local) if local.exists() else shutil.which("configurable-http-proxy")
    if not found:
        raise ServiceMissing(f"configurable-http-proxy is missing: `npm install --prefix {CHP_NPM_DIR} "
                             "configurable-http-proxy@~5.1.0` (make test does)")
    if not shutil.which("node"):
        raise ServiceMissing("node is missing (configurable-http-proxy runs on it): apt-get install nodejs")
    return found


def hub_executable(name: str) -> str:
    """``jupyterhub`` or ``jupyterhub-singleuser`` beside this Python."""
    exe = Path(sys.executable).with_name(name)
    if not exe.exists():
        raise ServiceMissing(f"{name} is missing: pip install 'jupyterhub>=5' (the test extra has it)")
    return str(exe)


@dataclass
class HubServer:
    """A running JupyterHub: ``url`` the public URL, ``api(path)`` its REST API as an admin service."""

    url: str
    directory: Path
    log_path: Path
    process: subprocess.Popen
    token: str
    users: tuple[str, ...]
    admins: tuple[str, ...]
    env: dict[str, str]
    password: str = HUB_PASSWORD

    def home(self, user: str) -> Path:
        """The user's HOME (and their single-user server's working directory before binder/start)."""
        return self.directory / "home" / user

    def user_url(self, user: str, path: str = "") -> str:
        """``<hub>/user/<user>/<path>``, e.g. ``user_url("alice", "voila/render/notebooks/play.ipynb")``."""
        return f"{self.url}/user/{urllib.parse.quote(user)}/{path.lstrip('/')}"

    def apps(self, user: str) -> UserApps:
        """``user``'s apps, for ``open_app(page, hub.apps("alice"), "play.ipynb")`` of the browser tests."""
        return UserApps(self, user)

    def api(self, path: str, method: str = "GET", data: dict | None = None):
        """The hub's JSON answer to ``method /hub/api/<path>``; None for 404 or an empty answer."""
        import requests

        resp = requests.request(method, f"{self.url}/hub/api/{path.lstrip('/')}", json=data, timeout=30,
                                headers={"Authorization": f"token {self.token}"})
        if resp.status_code == 404:
            return None
        resp.raise_for_status()
        return resp.json() if resp.content else None

    def sign_in(self, user: str, password: str | None = None):
        """A ``requests.Session`` signed in as ``user`` through the login form (with its _xsrf)."""
        import requests

        session = requests.Session()
        session.get(f"{self.url}/hub/login", timeout=30).raise_for_status()
        resp = session.post(f"{self.url}/hub/login?next=", timeout=30, allow_redirects=False,
                            data={"username": user, "password": self.password if password is None else password,
                                  "_xsrf": session.cookies.get("_xsrf", "")})
        if resp.status_code != 302:
            raise PermissionError(f"the hub refused {user!r} (HTTP {resp.status_code})")
        return session

    def spawn(self, session, user: str, timeout: float = START_TIMEOUT) -> str:
        """Start ``user``'s server as their browser does (``/hub/spawn``) and wait until it is
        ready; gives its URL. The session's first page there completes the server's OAuth hop."""
        session.get(f"{self.url}/hub/spawn/{urllib.parse.quote(user)}", timeout=30, allow_redirects=False)
        deadline = time.monotonic() + timeout
        while not ((self.api(f"users/{urllib.parse.quote(user)}") or {}).get("servers", {}).get("", {}).get("ready")):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{user}'s server was not ready within {timeout:.0f}s. Hub log:\n{self.log_tail()}")
            time.sleep(0.5)
        return self.user_url(user)

    def sign_in_page(self, page, user: str) -> None:
        """Sign ``user`` in on a Playwright ``page`` through the hub's login form."""
        page.goto(f"{self.url}/hub/login", wait_until="domcontentloaded")
        page.fill("#username_input", user)
        page.fill("#password_input", self.password)
        page.click("#login_submit")
        page.wait_for_load_state("domcontentloaded")

    def stop(self, user: str, timeout: float = 60) -> None:
        """Stop ``user``'s server and wait until the hub says it is gone."""
        self.api(f"users/{urllib.parse.quote(user)}/server", method="DELETE")
        deadline = time.monotonic() + timeout
        while (self.api(f"users/{urllib.parse.quote(user)}") or {}).get("servers"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{user}'s server did not stop within {timeout:.0f}s")
            time.sleep(0.5)

    def processes(self) -> list[int]:
        """Ids of the processes this hub started that still run (hub, proxy, single-user servers,
        their kernels): each carries the hub's marker in its environment."""
        return processes_with_env(HUB_MARKER, str(self.directory))

    def log_tail(self, chars: int = 6000) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return text[-chars:]


@dataclass
class UserApps:
    """The golflab apps on one user's server, as Voila renders them there."""

    hub: HubServer
    user: str

    def url(self, notebook: str) -> str:
        """The rendered app of a notebook in ``notebooks/``."""
        return self.hub.user_url(self.user, f"voila/render/notebooks/{notebook}")


def processes_with_env(name: str, value: str) -> list[int]:
    """Ids of the processes whose environment has ``name=value`` (readable ones: ours, or all as root)."""
    wanted = f"{name}={value}".encode()
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if wanted in (proc / "environ").read_bytes().split(b"\0"):
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def hub_config(*, directory: Path, port: int, users: Sequence[str], env: Mapping[str, str], token: str) -> str:
    """The test hub's ``jupyterhub_config.py``: the operator's example, then the test settings."""
    if not HUB_CONFIG_EXAMPLE.exists():  # load_subconfig would skip a missing file without a word
        raise FileNotFoundError(f"{HUB_CONFIG_EXAMPLE} is missing: the test hub loads the operator's example")
    settings = {
        "example": str(HUB_CONFIG_EXAMPLE), "password": HUB_PASSWORD, "users": sorted(users),
        "home": str(directory / "home" / "{username}"), "allow_root": is_root(), "env": dict(env),
        "bind_url": f"http://127.0.0.1:{port}", "hub_bind_url": f"http://127.0.0.1:{free_port()}",
        "proxy_api_url": f"http://127.0.0.1:{free_port()}", "chp": chp_command(),
        "db_url": f"sqlite:///{directory / 'jupyterhub.sqlite'}",
        "cookie_secret_file": str(directory / "jupyterhub_cookie_secret"), "token": token,
        "timeout": START_TIMEOUT,
    }
    return f'''# Written by tests/support/services.py for one test session.
import json
S = json.loads({json.dumps(json.dumps(settings))})
c = get_config()  # noqa: F821
load_subconfig(S["example"])  # noqa: F821  (the operator's settings: docs/jupyterhub_config.example.py)
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = S["password"]
c.Authenticator.allowed_users = set(S["users"])
c.JupyterHub.spawner_class = "simple"  # every user is this OS user, HOME under the temporary directory
c.SimpleLocalProcessSpawner.home_dir_template = S["home"]
c.Spawner.args = ["--allow-root"] if S["allow_root"] else []
c.Spawner.environment.update(S["env"])
c.Spawner.start_timeout = c.Spawner.http_timeout = S["timeout"]
c.JupyterHub.bind_url = S["bind_url"]
c.JupyterHub.hub_bind_url = S["hub_bind_url"]
c.ConfigurableHTTPProxy.api_url = S["proxy_api_url"]
c.ConfigurableHTTPProxy.command = [S["chp"]]
c.JupyterHub.db_url = S["db_url"]
c.JupyterHub.cookie_secret_file = S["cookie_secret_file"]
c.JupyterHub.services = [{{"name": "golflab-tests", "api_token": S["token"]}}]
c.JupyterHub.load_roles = [{{"name": "golflab-tests", "services": ["golflab-tests"],
                            "scopes": ["admin:users", "admin:servers", "access:servers", "read:users"]}}]
'''


def reap_orphaned_hubs() -> list[Path]:
    """End the processes of hubs whose test process was killed and delete their directories."""
    orphans = orphaned_directories(HUB_PREFIX)
    for orphan in orphans:
        # a hub still starting may fork its proxy or a server after one look: look again until none is left
        deadline = time.monotonic() + 15
        while (pids := processes_with_env(HUB_MARKER, str(orphan))) and time.monotonic() < deadline:
            _end_processes(pids)
            time.sleep(0.1)
        shutil.rmtree(orphan, ignore_errors=True)
    return orphans


@contextlib.contextmanager
def jupyterhub_server(env: Mapping[str, str] | None = None, users: Sequence[str] = ("alice", "bob"),
                      admins: Sequence[str] = (), name: str = "jupyterhub") -> Iterator[HubServer]:
    """Start a JupyterHub on 127.0.0.1 (a free port); stop it, its proxy and every single-user
    server afterwards and delete its directory.

    ``users`` may sign in with ``HUB_PASSWORD``; ``admins`` (among them) are the hub's admins
    (teachers, through ``GOLFLAB_HUB_ADMINS``); ``env`` reaches every single-user server and its
    kernels (e.g. ``GOLFLAB_DATABASE_URL``). The hub's log is ``test-artifacts/<name>.log``."""
    import requests

    env = dict(env or {})
    users = tuple(users)
    admins = tuple(admins)
    if not users or len(set(users)) != len(users) or not set(admins) <= set(users):
        raise ValueError(f"users must be distinct names and admins among them: users={users}, admins={admins}")
    hub = hub_executable("jupyterhub")
    hub_executable("jupyterhub-singleuser")
    reap_orphaned_hubs()
    directory = service_directory(HUB_PREFIX)
    (directory / "home").mkdir()
    port = free_port()
    token = os.urandom(16).hex()
    marker = {HUB_MARKER: str(directory)}
    config = directory / "jupyterhub_config.py"
    config.write_text(hub_config(directory=directory, port=port, users=users, env={**env, **marker}, token=token))
    process_env = {**os.environ, **env, **marker, "GOLFLAB_HUB_ADMINS": ",".join(admins), "PYTHONUNBUFFERED": "1"}
    process_env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + process_env.get("PATH", "")
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / f"{name}.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen([hub, "-f", str(config)], cwd=directory, env=process_env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    server = HubServer(f"http://127.0.0.1:{port}", directory, log_path, proc, token, users, admins, env)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"JupyterHub exited with code {proc.returncode} at startup:\n{server.log_tail()}")
            with contextlib.suppress(requests.RequestException):
                if requests.get(f"{server.url}/hub/health", timeout=5).ok:
                    break
            if time.monotonic() > deadline:
                raise TimeoutError(f"JupyterHub did not answer within {START_TIMEOUT}s:\n{server.log_tail()}")
            time.sleep(0.3)
        yield server
    finally:
        _stop_hub(server)
        shutil.rmtree(directory, ignore_errors=True)


def _stop_hub(server: HubServer) -> None:
    """SIGTERM the hub (it stops the proxy and the single-user servers), then end what is left."""
    proc = server.process
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    deadline = time.monotonic() + 10
    while (left := server.processes()) and time.monotonic() < deadline:
        time.sleep(0.5)
    _end_processes(left)
    if left:
        with open(server.log_path, "a") as log:
            log.write(f"\n[tests/support/services.py] killed processes the hub left running: {json.dumps(left)}\n")


def _end_processes(pids: Sequence[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
