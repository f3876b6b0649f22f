"""Who is signed in, at the top of every app: ``AccountBar()``.

* ``golf-whoami``: the signed-in name and role (on JupyterHub: the Hub's user), or for a guest the
  plain sentence that progress is not kept, with a *Sign in* link when this server has the sign-in
  page (``GolflabVoila``; not on Binder).
* ``golf-signout`` beside it: a button posting to the server's sign-out page with the page's
  ``_xsrf`` cookie (a link to the sign-out page when the kernel did not see that cookie); none on
  JupyterHub, whose own logout applies.
* ``golf-account-problem``: why progress cannot be kept, when the store fails.
* For anyone whose progress is not kept: *Download my progress* (``golf-progress-download``) and
  *Upload my progress* (``golf-progress-upload``), a JSON file of what ``guest.guest_progress`` holds.

In a kernel Voila started ahead of its page (preheating) the bar does not hold the notebook up:
it is built at once and shows the page's learner as soon as the request arrives, so the app's
next cells (an explorer's first charts) run before the learner opens the page.

A guest's progress is ``guest.guest_progress``, this kernel's record of their lesson answers,
puzzle results and finished games.
"""

from __future__ import annotations

import base64
import os
import threading
from html import escape

import ipywidgets as w

from ..server.account_links import account_base, signin_url, signout_url, this_page
from . import guest
from .file_picker import FilePicker
from .guest import GuestProgress, parse  # noqa: F401 (their old place, kept importable)
from .session import PageSession, awaiting_request, page_session

XSRF_COOKIE = "_xsrf"


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
        self.progress = guest.guest_progress if progress is None else progress
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


__all__ = ["AccountBar", "GuestProgress", "cookie_value", "parse", "this_page"]
