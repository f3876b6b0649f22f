"""The page's request in a kernel Voila started ahead of it (preheated) and in one it did not."""

import voila.utils
from golflab_widgets import classroom_session
from golflab_widgets.classroom_session import page_session, request_environ
from golflab_widgets.progress import requested_game


def _fake_request(monkeypatch, **request):
    calls = []

    def wait_for_request(url=None):
        calls.append(url)
        for key, value in request.items():
            monkeypatch.setenv(key, value)

    monkeypatch.setattr(voila.utils, "wait_for_request", wait_for_request)
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
