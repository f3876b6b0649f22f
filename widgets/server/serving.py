"""``golflab serve``: every app from the installed package, as ``make app`` serves them from a clone.

It runs ``golflab-voila`` (``signin.GolflabVoila``: sign-in, preheated kernels, one store) on the
apps' own files (``app_files.apps_root``): their ``voila.json`` (culling, waits) and
``jupyter_config/`` (the offline template, the Voila hooks) come first on the config path, as
``binder/start`` puts them for ``make app``, and nothing is read from the working directory but
``.env``. Only the apps in ``preheat`` get a kernel started ahead (what a class opens first by
default); the others start theirs when opened.

The class store is ``GOLFLAB_DATABASE_URL`` (or ``DATABASE_URL``) from the environment or ``.env``,
else ``golflab.db`` in the user's data directory (``platformdirs``); the first line printed names it.
"""

from __future__ import annotations

import os
import socket
import sys
import webbrowser
from pathlib import Path

import platformdirs
import tornado.ioloop
from jupyter_core.paths import jupyter_config_path
from jupyter_server.utils import url_path_join
from sqlalchemy.engine import make_url
from traitlets import Bool, List, Unicode, default

from golflab.classroom import settings

from .app_files import DEFAULT_PREHEAT, LANDING, apps_root
from .signin import GolflabVoila


def default_store(environ=None, data_dir: "str | Path | None" = None) -> str:
    """The store's URL: the environment's or ``.env``'s, else (put in ``environ`` for the server and
    its kernels) ``golflab.db`` in ``data_dir`` (the user's data directory), which is made."""
    environ = os.environ if environ is None else environ
    given = settings.setting("GOLFLAB_DATABASE_URL", environ=environ) or settings.setting("DATABASE_URL",
                                                                                        environ=environ)
    if given:
        return given
    folder = Path(data_dir or platformdirs.user_data_dir("golflab", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    environ["GOLFLAB_DATABASE_URL"] = url = f"sqlite:///{(folder / 'golflab.db').resolve()}"
    return url


def port_problem(ip: str, port: int) -> "str | None":
    """Why the server could not listen on ``ip``:``port`` (None: it can), in one clause."""
    try:
        addresses = socket.getaddrinfo(ip or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        return f"{ip!r} is not an address of this machine ({exc.strerror or exc})"
    for family, kind, proto, _name, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            if os.name != "nt":  # as tornado listens: a port in TIME_WAIT is free
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                if isinstance(exc, PermissionError):
                    return f"this user may not listen on port {port}"
                if exc.errno in (98, 48, 10048):  # EADDRINUSE on Linux, macOS, Windows
                    return f"port {port} is taken (another program, or another golflab serve, listens there)"
                if family == socket.AF_INET6:  # a machine without IPv6 still serves on IPv4
                    continue
                return f"cannot listen on {ip}:{port} ({exc.strerror or exc})"
    return None


def kernel_pools(preheat: "list[str]") -> dict:
    """Voila's ``kernel_pools_config``: one kernel ahead for each app in ``preheat``, none for the others."""
    return {"default": {"pool_size": 0}, **{f"{name}.ipynb": {"pool_size": 1} for name in preheat}}


class ServedVoila(GolflabVoila):
    """``GolflabVoila`` configured from the installed apps' files, preheating only ``preheat_apps``,
    and saying once where the apps are when it listens."""

    preheat_apps = List(Unicode(), list(DEFAULT_PREHEAT), config=True,
                        help="Apps (notebook names without .ipynb) given a kernel started ahead.")
    open_landing = Bool(False, config=True, help="Open the landing page in a browser once serving.")

    @default("config_file_paths")
    def _apps_config_first(self) -> list:
        root = apps_root()
        return [str(root), str(root / "jupyter_config"), *jupyter_config_path()]

    def preheat(self, pool_size: int) -> None:
        super().preheat(pool_size)
        if pool_size:
            self.config.VoilaKernelManager.kernel_pools_config = kernel_pools(list(self.preheat_apps))

    def address(self, path: str) -> str:
        """The URL of ``path`` (under the base URL) as a browser on this machine reaches it."""
        host = "localhost" if self.ip in ("", "0.0.0.0", "::", "*") else self.ip
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}" + url_path_join(self.base_url, path)

    def listen(self) -> None:
        tornado.ioloop.IOLoop.current().add_callback(self._announce)  # runs once the port is bound
        super().listen()

    def _announce(self) -> None:
        landing = self.address(LANDING)
        print(f"golflab: serving the apps at {landing} (sign in: {self.address('golflab/signin')}); Ctrl-C stops",
              flush=True)
        if self.open_landing:
            webbrowser.open(landing)


def serve(port: int = 8866, ip: str = "localhost", open_browser: bool = False,
          preheat: "list[str] | tuple[str, ...]" = DEFAULT_PREHEAT, base_url: str = "/") -> int:
    """Serve every app until stopped, under ``base_url``; returns the exit code (1, with one line on
    stderr, when the port cannot be used)."""
    problem = port_problem(ip, port)
    if problem:
        print(f"golflab serve: {problem}: choose another with --port N", file=sys.stderr, flush=True)
        return 1
    root = apps_root()
    url = default_store()
    print(f"golflab: class store {make_url(url).render_as_string(hide_password=True)}", flush=True)
    config = os.environ.get("JUPYTER_CONFIG_PATH")
    os.environ["JUPYTER_CONFIG_PATH"] = os.pathsep.join([str(root / "jupyter_config"), *([config] if config else [])])
    argv = [str(root / "notebooks"), f"--port={port}", f"--Voila.ip={ip}", "--Voila.port_retries=0",
            "--Voila.open_browser=False", f"--Voila.base_url={base_url}",
            # Behind the launcher's proxy the Jupyter server and this one see the same host: under
            # jupyter_server's default name each would read, and clear, the other's login cookie.
            f"--IdentityProvider.cookie_name=golflab-login-{port}",
            f"--GolflabVoila.pool_size={1 if preheat else 0}"]
    ServedVoila.launch_instance(argv, preheat_apps=list(preheat), open_landing=open_browser)
    return 0


__all__ = ["ServedVoila", "default_store", "kernel_pools", "port_problem", "serve"]
