"""The page's request in a kernel Voila started ahead of it (preheated) and in one it did not, and
what a guest's page does not import."""

import os
import subprocess
import sys
import threading

import pytest
from golflab_widgets.account import session as classroom_session
from golflab_widgets.account.account_bar import AccountBar, GuestProgress
from golflab_widgets.account.learner_progress import requested_game
from golflab_widgets.account.session import page_session, request_environ
from golflab_widgets.explorers.plotly_module import in_voila
from golflab_widgets.server import page_request

from golflab.classroom import Store

pytestmark = pytest.mark.usefixtures("restored_environ")


def _fake_request(monkeypatch, **request):
    """The server answers a preheated kernel's first connection with ``request``."""
    calls = []
    request = {"SERVER_SOFTWARE": "voila/0.5.13", **request}
    for key in request:
        monkeypatch.delenv(key, raising=False)

    def ask_once(url, seconds=page_request.LISTEN_SECONDS):
        calls.append(url)
        return request

    monkeypatch.setattr(page_request, "ask_once", ask_once)
    monkeypatch.setattr(classroom_session, "request_seen", False)
    return calls


def test_a_preheated_kernel_waits_once_for_the_request(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    calls = _fake_request(monkeypatch, QUERY_STRING="game=12")
    assert requested_game() == "12"
    assert requested_game() == "12" and request_environ()["QUERY_STRING"] == "game=12"
    assert len(calls) == 1  # a second wait would hang: Voila sends the request once


def test_the_session_reads_the_cookie_of_the_request(monkeypatch):
    for name in ("HTTP_COOKIE", "JUPYTERHUB_USER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("GOLFLAB_DATABASE_URL", "sqlite://")
    calls = _fake_request(monkeypatch, HTTP_COOKIE="golflab_session=not-a-token")
    session = page_session(refresh=True)
    assert len(calls) == 1 and not session.signed_in  # the cookie was read (an unknown token: a guest)
    page_session(refresh=True)
    assert len(calls) == 1


def test_a_kernel_started_for_the_request_does_not_wait(monkeypatch):
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    monkeypatch.setenv("QUERY_STRING", "game=3")
    calls = _fake_request(monkeypatch)
    assert requested_game() == "3" and requested_game({"QUERY_STRING": ""}) is None
    assert calls == []


def _held_request(monkeypatch, **request):
    """A preheated kernel whose page's request arrives when the returned event is set."""
    arrived = threading.Event()
    calls = []
    request = {"SERVER_SOFTWARE": "voila/0.5.13", **request}
    for key in request:
        monkeypatch.delenv(key, raising=False)

    def ask_once(url, seconds=page_request.LISTEN_SECONDS):
        calls.append(url)
        assert arrived.wait(10), "the test never sent the request"
        return request

    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setattr(page_request, "ask_once", ask_once)
    monkeypatch.setattr(classroom_session, "request_seen", False)
    return arrived, calls


def test_threads_of_a_preheated_kernel_wait_for_its_one_request_together(monkeypatch):
    """Voila answers one wait per kernel: a second wait for the same request would hang."""
    monkeypatch.delenv("QUERY_STRING", raising=False)
    arrived, calls = _held_request(monkeypatch, QUERY_STRING="game=5")
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(request_environ()["QUERY_STRING"])) for _ in range(3)]
    for thread in threads:
        thread.start()
    arrived.set()
    for thread in threads:
        thread.join(10)
    assert seen == ["game=5"] * 3 and len(calls) == 1


class HandOver:
    """A lock that, as its first holder lets go while another thread waits for it, lets that thread run
    through first: the order a loaded machine can give (the holder preempted between freeing the lock
    and its next line)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.held = False
        self.exits = 0
        self.waiting = threading.Event()  # a second thread is about to take the lock
        self.second_done = threading.Event()  # ... and has let go of it

    def __enter__(self) -> None:
        if self.held:
            self.waiting.set()
        self.lock.acquire()
        self.held = True

    def __exit__(self, *exc) -> None:
        self.held = False
        self.exits += 1
        first = self.exits == 1 and self.waiting.is_set()
        self.lock.release()
        if first:
            assert self.second_done.wait(10), "the waiting thread never took the lock"
        else:
            self.second_done.set()


def test_a_thread_let_in_as_the_request_arrives_does_not_wait_for_it_again(monkeypatch):
    """The account bar's thread holds the wait while a cell asks for the request too. The request came
    and the lock is free, but the thread has not run its next line: the cell, let in, must take the
    request, not wait for another (Voila sends one; the page hung at "Executing 2 of 5")."""
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    hand_over = HandOver()
    monkeypatch.setattr(classroom_session, "_REQUEST_LOCK", hand_over)
    calls = []
    cell = []

    def ask_once(url, seconds=page_request.LISTEN_SECONDS):
        calls.append(url)
        if len(calls) == 1:  # the bar's thread waits: the cell comes and queues for the lock
            cell.append(threading.Thread(target=lambda: cell.append(request_environ()["QUERY_STRING"])))
            cell[0].start()
            assert hand_over.waiting.wait(10), "the cell never asked for the request"
        return {"QUERY_STRING": "game=8"}

    monkeypatch.setattr(page_request, "ask_once", ask_once)
    monkeypatch.setattr(classroom_session, "request_seen", False)
    assert request_environ()["QUERY_STRING"] == "game=8"
    cell[0].join(10)
    assert cell[1:] == ["game=8"] and len(calls) == 1  # a second wait would hang for good


def test_the_account_bar_lets_a_preheated_kernel_run_on_and_shows_the_learner_once_the_request_comes(
        monkeypatch, tmp_path):
    url = f"sqlite:///{tmp_path / 'class.db'}"
    store = Store(url)
    store.create_user("ann", password="ann-pass-1")
    token = store.sign_in("ann", "ann-pass-1")
    store.close()
    for name in ("HTTP_COOKIE", "JUPYTERHUB_USER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GOLFLAB_DATABASE_URL", url)
    arrived, calls = _held_request(monkeypatch, HTTP_COOKIE=f"golflab_session={token}")
    bar = AccountBar(progress=GuestProgress())  # returns before the request: the next cells run ahead
    assert not bar.ready.is_set() and bar.whoami.value == "" and bar.guest_box.layout.display == "none"
    arrived.set()
    assert bar.ready.wait(10)
    assert "Signed in as <b>ann</b>" in bar.whoami.value and bar.session.signed_in
    assert page_session() is bar.session and len(calls) == 1


def test_a_kernel_started_for_its_page_builds_the_account_bar_at_once(monkeypatch):
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    monkeypatch.delenv("HTTP_COOKIE", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    calls = _fake_request(monkeypatch)
    bar = AccountBar(progress=GuestProgress())
    assert bar.ready.is_set() and "not signed in" in bar.whoami.value and calls == []


def test_charts_use_the_shared_plotly_module_in_a_preheated_kernel_before_its_request():
    assert in_voila({"VOILA_PREHEAT": "True"}) and in_voila({"SERVER_SOFTWARE": "voila/0.5.13"})
    assert not in_voila({"VOILA_PREHEAT": "False"}) and not in_voila({})


def test_a_guest_page_does_not_import_the_store():
    """SQLAlchemy and the store take a few tenths of a second to import; a guest never needs them."""
    code = ("import sys; from golflab_widgets.account.account_bar import AccountBar; bar = AccountBar(); "
            "print(bar.session.signed_in, sorted({m.split('.')[0] for m in sys.modules} & {'sqlalchemy', 'argon2'}))")
    env = {k: v for k, v in os.environ.items() if k not in ("HTTP_COOKIE", "JUPYTERHUB_USER", "VOILA_PREHEAT")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "[]"], out.stdout + out.stderr


def test_a_preheated_kernel_that_could_not_reach_the_server_waits_again(monkeypatch):
    """A connection that could not be opened, or heard nothing, is no request: the learner would be
    taken for a guest and the page's query lost."""
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.delenv("SERVER_SOFTWARE", raising=False)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.setattr(classroom_session, "request_seen", False)
    monkeypatch.setattr(page_request.time, "sleep", lambda seconds: None)
    calls = []

    def ask_once(url, seconds=page_request.LISTEN_SECONDS):
        calls.append(url)
        return {"SERVER_SOFTWARE": "voila/0.5.13", "QUERY_STRING": "game=4"} if len(calls) == 3 else None

    monkeypatch.setattr(page_request, "ask_once", ask_once)
    assert requested_game() == "4" and len(calls) == 3
