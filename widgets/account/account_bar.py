"""Who is signed in, at the top of every app: ``AccountBar()``.

* ``golf-whoami``: the signed-in name and role (on JupyterHub: the Hub's user), or for a guest the
  plain sentence that progress is not kept, with a *Sign in* link when this server has the sign-in
  page (``GolflabVoila``; not on Binder).
* ``golf-signout`` beside it: a button posting to the server's sign-out page with the page's
  ``_xsrf`` cookie (a link to the sign-out page when the kernel did not see that cookie); none on
  JupyterHub, whose own logout applies.
* ``golf-account-problem``: why progress cannot be kept, when the store fails.
* For anyone whose progress is not kept: *Download my progress* (``golf-progress-download``) and
  *Upload my progress* (``golf-progress-upload``), a JSON file of what ``guest_progress`` holds.

In a kernel Voila started ahead of its page (preheating) the bar does not hold the notebook up:
it is built at once and shows the page's learner as soon as the request arrives, so the app's
next cells (an explorer's first charts) run before the learner opens the page.

``guest_progress`` is this kernel's record of a guest's lesson answers, puzzle results and
finished games; the apps add to it (``add_exercise``, ``add_puzzle``, ``add_game``).
"""

from __future__ import annotations

import base64
import json
import os
import threading
from collections import Counter
from html import escape
from typing import Callable

import ipywidgets as w

from golflab import Game
from golflab.excerpt import excerpt, json_kind

from ..server.account_links import account_base, signin_url, signout_url, this_page
from .file_picker import FilePicker
from .session import PageSession, awaiting_request, page_session

FORMAT = "golflab.progress"
VERSION = 1
MAX_KEY = 128  # lesson, item and puzzle names (as the class store allows)
MAX_GAMES = 200
MAX_ATTEMPTS = 20_000
MAX_FILE_CHARS = 32 * 1024 * 1024
XSRF_COOKIE = "_xsrf"


def _key(value, what: str) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_KEY or not value.isprintable():
        raise ValueError(f"{what} must be text of 1 to {MAX_KEY} printable characters, got {excerpt(value)}")
    return value


def _flag(value, what: str) -> bool:
    if type(value) is not bool:
        raise ValueError(f"{what} must be true or false, got {json_kind(value)}")
    return value


def _game(text, what: str = "a game") -> str:
    if not isinstance(text, str):
        raise ValueError(f"{what} must be the text of a saved game, got {json_kind(text)}")
    Game.from_json(text)  # a ValueError saying what is wrong with the save
    return text


def _merged(first: list, then: list) -> list:
    """``first``, then what ``then`` holds beyond it (counting repeats): loading a file twice adds nothing."""
    seen = Counter(json.dumps(x, sort_keys=True) for x in first)
    out = list(first)
    for item in then:
        key = json.dumps(item, sort_keys=True)
        if seen[key]:
            seen[key] -= 1
        else:
            out.append(item)
    return out


class GuestProgress:
    """A guest's progress kept in this kernel: lesson answers, puzzle results and finished games,
    saved to and loaded from a JSON file (``to_json``, ``load``)."""

    def __init__(self) -> None:
        self.games: list[str] = []
        self.exercises: list[dict] = []
        self.puzzles: list[dict] = []
        self._listeners: list[Callable[[], None]] = []

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change (the account bar refreshes its download link)."""
        self._listeners.append(callback)

    def _changed(self) -> None:
        for callback in list(self._listeners):
            callback()

    def add_game(self, save_text: str) -> None:
        """A finished game, as ``Game.to_json`` wrote it (the same game twice is kept once)."""
        _game(save_text)
        if save_text not in self.games:
            if len(self.games) >= MAX_GAMES:
                raise ValueError(f"a progress file keeps at most {MAX_GAMES} games")
            self.games.append(save_text)
            self._changed()

    def add_exercise(self, lesson: str, item: str, correct: bool) -> None:
        """One answer to a lesson's exercise ``item``."""
        entry = {"lesson": _key(lesson, "lesson"), "item": _key(item, "item"), "correct": _flag(correct, "correct")}
        self._append(self.exercises, entry, "lesson answers")

    def add_puzzle(self, key: str, correct: bool) -> None:
        """One attempt at the puzzle ``key``."""
        self._append(self.puzzles, {"key": _key(key, "puzzle"), "correct": _flag(correct, "correct")}, "puzzles")

    def _append(self, entries: list, entry: dict, what: str) -> None:
        if len(entries) >= MAX_ATTEMPTS:
            raise ValueError(f"a progress file keeps at most {MAX_ATTEMPTS:,} {what}")
        entries.append(entry)
        self._changed()

    def first_tries(self, lesson: str) -> dict[str, bool]:
        """Each answered item of ``lesson``: whether its first answer was right (the lesson's ticks)."""
        ticks: dict[str, bool] = {}
        for e in self.exercises:
            if e["lesson"] == lesson:
                ticks.setdefault(e["item"], e["correct"])
        return ticks

    @property
    def empty(self) -> bool:
        return not (self.games or self.exercises or self.puzzles)

    def summary(self) -> str:
        return (f"{len(self.exercises)} lesson answer{'s' * (len(self.exercises) != 1)}, "
                f"{len(self.puzzles)} puzzle{'s' * (len(self.puzzles) != 1)} and "
                f"{len(self.games)} game{'s' * (len(self.games) != 1)}")

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "version": VERSION, "exercises": self.exercises,
                           "puzzles": self.puzzles, "games": self.games}, indent=1)

    def load(self, text: "str | bytes") -> None:
        """Add a progress file's contents (what this visit holds already stays). A file that is not
        a golflab progress file, or has any bad entry, is refused with a ValueError and changes nothing."""
        exercises, puzzles, games = parse(text)
        if len(_merged(games, self.games)) > MAX_GAMES:
            raise ValueError(f"together with this visit's games that is more than {MAX_GAMES} games")
        self.exercises = _merged(exercises, self.exercises)
        self.puzzles = _merged(puzzles, self.puzzles)
        self.games = _merged(games, self.games)
        self._changed()

    def clear(self) -> None:
        self.games, self.exercises, self.puzzles = [], [], []
        self._changed()


def parse(text: "str | bytes") -> tuple[list, list, list]:
    """The exercises, puzzles and games of a progress file, every entry checked (a ValueError otherwise)."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("not a golflab progress file: it is not text (UTF-8)") from None
    if not isinstance(text, str):
        raise ValueError(f"not a golflab progress file: expected text, got {type(text).__name__}")
    if len(text) > MAX_FILE_CHARS:
        raise ValueError(f"not a golflab progress file: {len(text):,} characters is more than the "
                         f"{MAX_FILE_CHARS:,} a progress file may hold")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"not a golflab progress file: invalid JSON ({str(exc)[:80]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a golflab progress file: expected an object with format {FORMAT!r}")
    if data.get("version") != VERSION or type(data.get("version")) is not int:
        raise ValueError(f"progress file version {excerpt(data.get('version'))} is not supported (expected {VERSION})")
    keys = {"format", "version", "exercises", "puzzles", "games"}
    if set(data) != keys:
        odd = sorted(set(data) ^ keys)
        raise ValueError(f"a progress file holds exactly {', '.join(sorted(keys))}; this one differs in "
                         f"{', '.join(map(repr, odd))}")
    lists = []
    for name, limit in (("exercises", MAX_ATTEMPTS), ("puzzles", MAX_ATTEMPTS), ("games", MAX_GAMES)):
        if not isinstance(data[name], list):
            raise ValueError(f"{name} must be a list, got {json_kind(data[name])}")
        if len(data[name]) > limit:
            raise ValueError(f"a progress file keeps at most {limit:,} {name}, this one has {len(data[name]):,}")
        lists.append(data[name])
    exercises = [_entry(e, i, ("lesson", "item", "correct"), "exercises") for i, e in enumerate(lists[0])]
    puzzles = [_entry(e, i, ("key", "correct"), "puzzles") for i, e in enumerate(lists[1])]
    games = []
    for i, g in enumerate(lists[2]):
        try:
            games.append(_game(g, f"games[{i}]"))
        except ValueError as exc:
            raise ValueError(f"games[{i}] is not a valid game: {exc}") from None
    return exercises, puzzles, games


def _entry(entry, index: int, fields: tuple, name: str) -> dict:
    where = f"{name}[{index}]"
    if not isinstance(entry, dict) or set(entry) != set(fields):
        raise ValueError(f"{where} must be an object with exactly {', '.join(fields)}, got {excerpt(entry)}")
    return {f: (_flag(entry[f], f"{where}.{f}") if f == "correct" else _key(entry[f], f"{where}.{f}"))
            for f in fields}


#: This kernel's guest progress (one page, one kernel, one visitor).
guest_progress = GuestProgress()


def cookie_value(name: str, environ=None) -> "str | None":
    """A cookie of the page (``HTTP_COOKIE``, passed by the sign-in server), or None."""
    environ = os.environ if environ is None else environ
    for part in environ.get("HTTP_COOKIE", "").split(";"):
        key, sep, value = part.strip().partition("=")
        if sep and key == name and value:
            return value.strip('"')
    return None


ACCOUNT_CSS = """<style>
.golf-account{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:14px;color:#1b1b1b;
 background:#eef3ef;border-radius:8px;padding:4px 10px;margin:0 0 8px;max-width:1100px}
.golf-account .golf-whoami{line-height:30px}
.golf-account a{color:#1f5fa8}
.golf-account form{display:inline;margin:0}
.golf-account button.golf-signout,.golf-account a.golf-signout{font:inherit;padding:3px 12px;margin-left:10px;
 background:#fff;border:1px solid #9aa8a0;border-radius:4px;color:#1b1b1b;cursor:pointer;text-decoration:none}
.golf-account .golf-account-problem{color:#7f1d1d}
.golf-account a.golf-progress-download{display:inline-block;line-height:28px;padding:0 12px;margin-right:8px;
 background:#fff;border:1px solid #9aa8a0;border-radius:4px;color:#1b1b1b;text-decoration:none}
.golf-account .golf-progress-message{font-size:13px;color:#45524b}
</style>"""


class AccountBar(w.VBox):
    """Who is signed in (``golf-whoami``), sign out (``golf-signout``), the store's problem, and for
    guests *Download/Upload my progress*. ``session``/``environ`` default to this page's (in a
    preheated kernel, once its request arrives: ``ready`` is set then)."""

    def __init__(self, session: "PageSession | None" = None, *, environ=None,
                 progress: "GuestProgress | None" = None) -> None:
        self.environ = os.environ if environ is None else environ
        ahead = session is None and environ is None and awaiting_request()
        self.ready = threading.Event()
        self.session = PageSession() if ahead else session if session is not None else page_session(environ)
        self.progress = guest_progress if progress is None else progress
        self.whoami = w.HTML()
        self.whoami.add_class("golf-whoami")
        self.signout = w.HTML()
        self.signout.add_class("golf-signout-box")
        self.problem = w.HTML()
        self.problem.add_class("golf-account-problem")
        self.download = w.HTML()
        self.download.add_class("golf-progress-download-box")
        self.upload = FilePicker(accept=".json,application/json", description="Upload my progress", icon="upload",
                                 layout=w.Layout(width="auto"))
        self.upload.add_class("golf-progress-upload")
        self.message = w.HTML()
        self.message.add_class("golf-progress-message")
        self.guest_box = w.HBox([self.download, self.upload, self.message],
                                layout=w.Layout(flex_flow="row wrap", align_items="center"))
        super().__init__([w.HTML(ACCOUNT_CSS), w.HBox([self.whoami, self.signout],
                                                      layout=w.Layout(align_items="center")),
                          self.problem, self.guest_box])
        self.add_class("golf-account")
        self.upload.observe(self._on_upload, names="value")
        self.progress.on_change(self._show_download)
        if ahead:
            self.guest_box.layout.display = "none"
            threading.Thread(target=self._on_request, name="golflab-account", daemon=True).start()
        else:
            self.refresh()
            self.ready.set()

    def _on_request(self) -> None:
        try:
            self.session = page_session()
            self.refresh()
        finally:
            self.ready.set()

    @property
    def hub_user(self) -> "str | None":
        return self.environ.get("JUPYTERHUB_USER") or None

    def refresh(self) -> None:
        """Show the session as it is now (after an app's ``keep`` set or cleared a problem)."""
        session, hub, base = self.session, self.hub_user, account_base(self.environ)
        user = session.user
        role = f" ({escape(user.role)})" if user is not None else ""
        if hub:
            self.whoami.value = f"Signed in through JupyterHub as <b>{escape(hub)}</b>{role}"
        elif user is not None:
            self.whoami.value = f"Signed in as <b>{escape(user.name)}</b>{role}"
        elif base:
            link = signin_url(base, this_page(self.environ))
            self.whoami.value = (f'You are not signed in, so your progress is not kept. '
                                 f'<a class="golf-signin" href="{escape(link)}">Sign in</a> to keep it.')
        else:
            self.whoami.value = ("You are not signed in, so your progress is not kept: "
                                 "download it below before you leave.")
        self.signout.value = self._signout_html(base) if user is not None and not hub and base else ""
        self.problem.value = escape(session.problem) if session.problem else ""
        self.problem.layout.display = None if session.problem else "none"
        self.guest_box.layout.display = "none" if session.keeps_progress else None
        self._show_download()

    def _signout_html(self, base: str) -> str:
        xsrf = cookie_value(XSRF_COOKIE, self.environ)
        if not xsrf:  # the sign-out page asks once more, with its own XSRF field
            return f'<a class="golf-signout" href="{escape(signout_url(base))}">Sign out</a>'
        return (f'<form method="post" action="{escape(signout_url(base))}">'
                f'<input type="hidden" name="_xsrf" value="{escape(xsrf)}">'
                '<button type="submit" class="golf-signout">Sign out</button></form>')

    def _show_download(self) -> None:
        data = base64.b64encode(self.progress.to_json().encode()).decode()
        self.download.value = ('<a class="golf-progress-download" download="golflab-progress.json" '
                               f'href="data:application/json;base64,{data}" '
                               f'title="{escape(self.progress.summary())}">\u2b07 Download my progress</a>')

    def _on_upload(self, change) -> None:
        files = change["new"]
        if not files:
            return
        try:
            self.progress.load(bytes(files[0]["content"]))
        except ValueError as exc:
            self.message.value = f"That file was not loaded, nothing changed: {escape(str(exc))}"
        else:
            self.message.value = f"Loaded. This visit now holds {escape(self.progress.summary())}."
        finally:
            self.upload.value = ()


__all__ = ["AccountBar", "GuestProgress", "cookie_value", "guest_progress", "parse", "this_page"]
