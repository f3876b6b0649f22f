"""Sign-in for a standalone golflab server (``make app``): the pages and the Voila that serves them.

``GolflabVoila`` is Voila with plotly's widget module served once for every chart
(``explorers.plotly_module``) and two more pages, ``/golflab/signin`` (a form: name, password and,
the first time, the class's invite code) and ``/golflab/signout``. Signing in sets the
``golflab_session`` cookie (HttpOnly, SameSite=Lax, for ``GOLFLAB_SESSION_DAYS``); Voila passes the
page's ``Cookie`` header to every app's kernel (``HTTP_COOKIE``), where ``page_session()`` turns
it into the learner. Both forms are XSRF-checked (tornado's ``_xsrf`` field and cookie).

The server and every kernel (whose working directory is ``notebooks/``) must use one store, so
the server resolves a relative SQLite URL (the default ``sqlite:///golflab.db`` included) against
its own working directory and exports it, with the other settings it read from ``.env``.
It also exports ``GOLFLAB_ACCOUNT_URL`` (the pages' prefix): apps show a *Sign in* link only then.

It preheats: for each notebook it keeps ``pool_size`` kernels started ahead, each with its app
run up to the cell that awaits the page's request (``classroom_session.request_environ``), so a
page opens without waiting for a kernel to start (``--GolflabVoila.pool_size=0`` turns it off;
pages then render progressively). Its pages issue the ``_xsrf`` cookie that Voila's unload
request needs to shut a closed page's kernel down (``PageHandler``: Voila allows no prelaunch
hook with preheating).

Run it as ``golflab-voila notebooks/`` or ``python -m golflab_widgets.server.signin notebooks/``
(the same options as ``voila``). On JupyterHub the Hub's user is the learner (no sign-in page);
on Binder guests play signed out.
"""

from __future__ import annotations

import asyncio
import functools
import os
from html import escape
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import tornado.web
from jupyter_server.utils import url_path_join
from sqlalchemy.engine import make_url
from traitlets import Int
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

from golflab.classroom import Store, StoreUnavailable, security, settings
from golflab.classroom.identity import COOKIE_NAME

from ..explorers import plotly_module
from . import request_socket
from .account_links import ACCOUNT_ENV, signin_url, signout_url
from .app_files import LANDING

#: Settings a kernel reads; the server exports what it found in its ``.env`` (kernels run elsewhere).
EXPORTED = ("GOLFLAB_SESSION_DAYS", "GOLFLAB_ADMINS", "GOLFLAB_TEACHERS", "GOLFLAB_DB_CONNECT_TIMEOUT",
            "GOLFLAB_DB_STATEMENT_TIMEOUT")
DAY = 86_400
#: The device cookie (OWASP's device cookies): a browser that signed in as a user is trusted for that
#: user, so wrong guesses from elsewhere never lock that user out of it. Sent to the sign-in page only.
DEVICE_COOKIE, DEVICE_DAYS = "golflab_device", 365
HELP_NEW = ("First time here? Type the invite code your teacher gave you, choose a name "
            "(2 to 32 letters, digits and _ . -) and a password of at least 6 characters.")


class Accounts:
    """The server's store (``url``, or a ``store`` already open), opened at the first request that
    needs it, and again after a failure."""

    def __init__(self, url: "str | None" = None, *, store: "Store | None" = None):
        self.url = url
        self._store = store

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(self.url)
        return self._store

    def user_for(self, token: "str | None"):
        return self.store.user_for(token) if token else None

    def sign_in(self, name: str, password: str, class_code: str = "", *, source: "str | None" = None,
                device: "str | None" = None) -> str:
        """A session token for ``name``. With an invite code a new name registers in that class and
        an existing user joins it; a refused code signs nobody in, in the same words whatever the
        name (the code is checked first, so it tells nobody which names exist). ``source`` and
        ``device``: where the try comes from (``Store.sign_in``'s throttle)."""
        store = self.store
        where = {"source": source, "device": device}
        if not class_code:
            return store.sign_in(name, password, **where)
        store.check_invite(class_code)
        if store.user(name) is None:
            store.register(name, password, class_code)
            return store.sign_in(name, password, **where)
        token = store.sign_in(name, password, **where)
        try:
            store.join_class(store.user_for(token), class_code)
        except (ValueError, PermissionError):
            store.sign_out(token)
            raise
        return token

    def sign_out(self, token: "str | None") -> None:
        if token:
            self.store.sign_out(token)


def local_path(target: "str | None", default: str) -> str:
    """``target`` if it is a path on this server (``/voila/render/play.ipynb?x=1``), else ``default``:
    no scheme, no host, no ``//`` or backslash that a browser would read as another site."""
    if not target or len(target) > 2000 or not target.startswith("/") or target.startswith("//"):
        return default
    if "\\" in target or any(ord(c) < 33 or ord(c) == 127 for c in target):
        return default
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc else default


def absolute_sqlite(url: str, cwd: "str | Path") -> str:
    """A SQLite URL with its file made absolute against ``cwd`` (other URLs as given)."""
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return url
    path = Path(parsed.database)
    if path.is_absolute():
        return url
    return parsed.set(database=str((Path(cwd) / path).resolve())).render_as_string(hide_password=False)


def export_settings(environ=None, cwd: "str | Path | None" = None) -> str:
    """Put the store's URL (absolute for SQLite) and the ``.env`` settings in ``environ`` for the
    kernels; returns the URL."""
    environ = os.environ if environ is None else environ
    cwd = Path.cwd() if cwd is None else cwd
    url = absolute_sqlite(settings.database_url(environ), cwd)
    environ["GOLFLAB_DATABASE_URL"] = url
    for name in EXPORTED:
        value = settings.setting(name, environ=environ)
        if value is not None:
            environ[name] = value
    return url


PAGE_CSS = """
body{margin:0;background:#eef3ef;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1b1b}
main{max-width:420px;margin:48px auto;padding:28px 32px;background:#fff;border-radius:12px;
 box-shadow:0 2px 10px rgba(0,0,0,.12)}
h1{margin:0 0 4px;font-size:26px;color:#1f6e43}
p{margin:8px 0}
.lead{color:#45524b}
label{display:block;margin:14px 0 4px;font-weight:600}
label small{font-weight:400;color:#5b6861}
input[type=text],input[type=password]{box-sizing:border-box;width:100%;padding:9px 10px;font-size:16px;
 border:1px solid #9aa8a0;border-radius:6px}
input:focus{outline:3px solid #ffd54f;border-color:#1f6e43}
button{margin-top:20px;padding:10px 22px;font-size:16px;font-weight:600;color:#fff;background:#1f6e43;
 border:0;border-radius:6px;cursor:pointer}
button:hover{background:#185a36}
.problem{background:#fdecea;border-left:4px solid #c62828;padding:8px 12px;border-radius:4px;color:#7f1d1d}
.done{background:#e8f5e9;border-left:4px solid #1f6e43;padding:8px 12px;border-radius:4px}
.help{font-size:14px;color:#5b6861}
a{color:#1f5fa8}
"""


def page_html(title: str, body: str) -> str:
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)} - golflab</title><style>{PAGE_CSS}</style></head>"
            f"<body><main>{body}</main></body></html>")


class _AccountHandler(tornado.web.RequestHandler):
    """Shared by both pages: security headers, the XSRF check on POST, plain error pages."""

    def initialize(self, accounts: Accounts, base_url: str = "/") -> None:
        self.accounts = accounts
        self.base_url = base_url

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; "
                        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "same-origin")

    def prepare(self) -> None:
        if self.request.method == "POST":
            self.check_xsrf_cookie()

    @property
    def landing(self) -> str:
        return url_path_join(self.base_url, LANDING)

    @property
    def pages(self) -> str:
        return url_path_join(self.base_url, "golflab")

    @property
    def signin_url(self) -> str:
        return signin_url(self.pages)

    def next_path(self) -> str:
        return local_path(self.get_argument("next", None), self.landing)

    async def run(self, fn, *args):
        """A store call off the server's event loop (argon2 and the database take a moment)."""
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    def write_error(self, status_code: int, **kwargs) -> None:
        if status_code == 403:
            text = ("This form has expired or was sent from another site, so it was not accepted. "
                    f'<a href="{escape(self.signin_url)}">Open the sign-in page again</a>.')
        else:
            text = f"Something went wrong ({status_code}). <a href=\"{escape(self.landing)}\">Back to the apps</a>."
        self.finish(page_html("Sign in", f'<h1>golflab</h1><p class="problem" role="alert">{text}</p>'))


class SignInHandler(_AccountHandler):
    """``GET``: the form (or who is signed in); ``POST``: sign in, or join a class with a code."""

    async def get(self) -> None:
        user, problem = None, None
        try:
            user = await self.run(self.accounts.user_for, self.get_cookie(COOKIE_NAME))
        except StoreUnavailable as exc:
            problem = _unavailable(exc)
        note = "You are signed out." if self.get_argument("signed_out", None) else None
        self.finish(self.form(problem=problem, note=note, user=user))

    async def post(self) -> None:
        name = self.get_body_argument("name", "").strip()
        password = self.get_body_argument("password", "")
        code = self.get_body_argument("class_code", "").strip()
        device = self.get_cookie(DEVICE_COOKIE) or security.new_token()
        try:
            token = await self.run(functools.partial(self.accounts.sign_in, name, password, code,
                                                     source=self.request.remote_ip, device=device))
        except (ValueError, PermissionError) as exc:
            self.set_status(400)
            self.finish(self.form(name=name, code=code, problem=_sentence(str(exc))))
            return
        except StoreUnavailable as exc:
            self.set_status(503)
            self.finish(self.form(name=name, code=code, problem=_unavailable(exc)))
            return
        self.set_cookie(COOKIE_NAME, token, path="/", max_age=self.accounts.store.session_days * DAY,
                        httponly=True, samesite="Lax", secure=self.request.protocol == "https")
        self.set_cookie(DEVICE_COOKIE, device, path=signin_url(self.pages), max_age=DEVICE_DAYS * DAY,
                        httponly=True, samesite="Strict", secure=self.request.protocol == "https")
        self.redirect(self.next_path())

    def form(self, *, name: str = "", code: str = "", problem=None, note=None, user=None) -> str:
        next_path = self.next_path()
        parts = ["<h1>Sign in to golflab</h1>",
                 '<p class="lead">Sign in to keep your lesson stars, puzzle rating and games.</p>']
        if problem:
            parts.append(f'<p class="problem" role="alert">{escape(problem)}</p>')
        if note:
            parts.append(f'<p class="done" role="status">{escape(note)}</p>')
        if user is not None:
            parts.append(f'<p class="done">You are signed in as <b>{escape(user.name)}</b>. '
                         f'<a href="{escape(next_path)}">Go on to the apps</a>, or sign in as someone else '
                         "below.</p>")
        parts.append(
            f'<form method="post" action="{escape(self.signin_url)}">{self.xsrf_form_html()}'
            f'<input type="hidden" name="next" value="{escape(next_path)}">'
            f'<label for="name">Name</label><input type="text" id="name" name="name" value="{escape(name)}" '
            'autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="32" required autofocus>'
            '<label for="password">Password</label><input type="password" id="password" name="password" '
            'autocomplete="current-password" maxlength="128" required>'
            '<label for="class_code">Invite code <small>(only the first time, to join a class)</small></label>'
            f'<input type="text" id="class_code" name="class_code" value="{escape(code)}" autocomplete="off" '
            'autocapitalize="characters" spellcheck="false" maxlength="16">'
            '<button type="submit">Sign in</button></form>'
            f'<p class="help">{escape(HELP_NEW)}</p>'
            f'<p class="help"><a href="{escape(next_path)}">Play without signing in</a> '
            "(your progress is not kept).</p>")
        return page_html("Sign in", "".join(parts))


class SignOutHandler(_AccountHandler):
    """``POST``: end this session (everywhere: the token is gone from the store), clear the cookie and
    show the sign-in page. ``GET``: a one-button form for pages that could not post themselves."""

    def get(self) -> None:
        self.finish(page_html("Sign out", (
            "<h1>Sign out of golflab</h1>"
            f'<form method="post" action="{escape(signout_url(self.pages))}">'
            f'{self.xsrf_form_html()}<button type="submit">Sign out</button></form>'
            f'<p class="help"><a href="{escape(self.landing)}">Back to the apps</a></p>')))

    async def post(self) -> None:
        try:
            await self.run(self.accounts.sign_out, self.get_cookie(COOKIE_NAME))
        except StoreUnavailable as exc:
            self.set_status(503)
            self.finish(page_html("Sign out", f'<h1>Sign out of golflab</h1><p class="problem" role="alert">'
                                  f"{escape(_unavailable(exc))} You are still signed in: try again soon.</p>"))
            return
        self.clear_cookie(COOKIE_NAME, path="/")
        self.redirect(self.signin_url + "?" + urlencode({"signed_out": 1}))


def handlers(base_url: str = "/", accounts: "Accounts | None" = None) -> list:
    """The tornado routes of the sign-in pages under ``base_url``."""
    options = {"accounts": accounts or Accounts(), "base_url": base_url}
    pages = url_path_join(base_url, "golflab")
    return [(signin_url(pages), SignInHandler, options), (signout_url(pages), SignOutHandler, options)]


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")) if text else text


def _unavailable(exc: Exception) -> str:
    return f"Signing in is not possible just now ({exc}). You can still play without signing in."


class PageHandler(TornadoVoilaHandler):
    """Voila's page handler that issues the ``_xsrf`` cookie with every page: Voila's page sends it
    with the shutdown request on unload, which the server refuses without it (voila#1458)."""

    def get_generator(self, path=None):
        self.xsrf_token  # noqa: B018 (reading it sets the cookie when the browser has none)
        return super().get_generator(path=path)


def with_page_handler(routes: list) -> list:
    """``routes`` with Voila's page handler replaced by ``PageHandler``."""
    return [(route[0], PageHandler, *route[2:]) if route[1] is TornadoVoilaHandler else route for route in routes]


class GolflabVoila(Voila):
    """Voila with the sign-in pages, the page's cookies passed to the kernels, one store for all,
    and preheated kernels."""

    pool_size = Int(1, config=True, help="Kernels started ahead for each notebook, each with its app run "
                    "up to where it awaits the page's request; 0: none (pages render progressively).")

    def initialize(self, argv=None):
        super().initialize(argv)
        self.preheat(self.pool_size)
        self.store_url = export_settings()
        os.environ[ACCOUNT_ENV] = url_path_join(self.base_url, "golflab")
        envs = list(self.voila_configuration.http_header_envs)
        if not any(h.lower() == "cookie" for h in envs):
            self.voila_configuration.http_header_envs = [*envs, "Cookie"]
        self.accounts = Accounts(self.store_url)
        try:
            self.accounts.store  # create or upgrade the schema, and GOLFLAB_ADMINS, now  # noqa: B018
        except StoreUnavailable as exc:
            self.log.warning("golflab: sign-in unavailable until the class store opens: %s", exc)

    def preheat(self, pool_size: int) -> None:
        """Keep ``pool_size`` kernels per notebook ready (0: none). Voila renders a pooled page ahead,
        so it allows neither progressive rendering nor a prelaunch hook with it: ``PageHandler``
        issues the cookie that ``jupyter_config/voila.py``'s hook issues elsewhere."""
        if pool_size < 0:
            raise ValueError(f"GolflabVoila.pool_size must be 0 (no preheating) or more, got {pool_size}")
        config = self.voila_configuration
        config.prelaunch_hook = None
        if pool_size:
            config.preheat_kernel, config.progressive_rendering = True, False
            config.default_pool_size = pool_size
            # a pooled kernel's page request is never lost, and forgotten once it has it or it ends (request_socket)
            request_socket.mend()
            config.multi_kernel_manager_class = request_socket.forgetting(config.multi_kernel_manager_class)
            if self.ip and ":" not in self.ip and self.ip not in ("0.0.0.0", "localhost", "*"):
                # a pooled kernel asks this server for its page's request (127.0.0.1 unless told)
                os.environ.setdefault("VOILA_APP_IP", self.ip)

    def init_handlers(self) -> list:
        # first: a single-notebook Voila ends with a catch-all route
        return [*handlers(self.base_url, self.accounts), *plotly_module.handlers(self.base_url),
                *with_page_handler(super().init_handlers())]


def main(argv=None) -> None:
    """``golflab-voila``: Voila with sign-in (the same options as ``voila``)."""
    GolflabVoila.launch_instance(argv)


__all__ = ["ACCOUNT_ENV", "Accounts", "GolflabVoila", "PageHandler", "SignInHandler", "SignOutHandler",
           "absolute_sqlite", "export_settings", "handlers", "local_path", "main", "with_page_handler"]

if __name__ == "__main__":
    main()
