"""Sign-in throttling (issue 37, Medium 6): by name and source together, the try counted in the
same transaction as the check, so a stranger never locks a user out and parallel guesses cannot
pass the limit (OWASP's authentication cheat sheet: throttle, never lock the owner out)."""

from __future__ import annotations

import pytest

from golflab.classroom import Store, throttle
from tests.support.classroom_workers import guess, run_at_once

STRANGER, TEACHER = "198.51.100.66", "192.0.2.5"


@pytest.fixture
def teacher(store):
    return store.create_user("mrs_lee", password="teach-123", role="teacher")


def wrong(store, source, device=None) -> str:
    with pytest.raises(ValueError) as caught:
        store.sign_in("mrs_lee", "not-her-password", source=source, device=device)
    return str(caught.value)


def test_a_strangers_guesses_each_time_the_lock_ends_never_lock_the_teacher_out(store, clock, teacher):
    """The probe of the issue: one wrong guess each time the lock ends, 25 in about 4 hours."""
    refused = 0
    for _ in range(25):
        said = wrong(store, STRANGER)
        if "too many" in said:
            clock.now += throttle.MAX_LOCK_SECONDS + 1
            wrong(store, STRANGER)
        try:
            store.sign_out(store.sign_in("mrs_lee", "teach-123", source=TEACHER))
        except ValueError:
            refused += 1
        clock.now += 600
    assert refused == 0
    assert "too many" in wrong(store, STRANGER)  # the stranger's own source still waits


def test_on_a_shared_address_the_teachers_own_browser_still_signs_in(store, teacher):
    store.sign_out(store.sign_in("mrs_lee", "teach-123", source=TEACHER, device="her-browser-cookie"))
    for _ in range(throttle.FREE_FAILURES + 3):  # a pupil behind the school's one address
        wrong(store, TEACHER)
    assert "too many" in wrong(store, TEACHER)
    assert "too many" in wrong(store, TEACHER, device="a-cookie-of-the-pupils")  # an untrusted device
    assert store.user_for(store.sign_in("mrs_lee", "teach-123", source=TEACHER, device="her-browser-cookie"))


def test_a_trusted_device_guessing_wrong_is_throttled_too(store, teacher):
    store.sign_out(store.sign_in("mrs_lee", "teach-123", device="her-browser-cookie"))
    for _ in range(throttle.FREE_FAILURES):
        assert "too many" not in wrong(store, None, device="her-browser-cookie")
    assert "too many" in wrong(store, None, device="her-browser-cookie")


def test_a_right_password_clears_only_its_own_sources_count(store, teacher):
    for _ in range(throttle.FREE_FAILURES):
        wrong(store, STRANGER)
    store.sign_in("mrs_lee", "teach-123", source=TEACHER)
    assert "too many" in wrong(store, STRANGER)


def test_parallel_guesses_from_processes_cannot_pass_the_limit(database_url):
    store = Store(database_url)
    store.create_user("mrs_lee", password="teach-123", role="teacher")
    answers = [a for run in run_at_once(guess, [(database_url, "mrs_lee", 3)] * 6) for a in run]
    assert answers.count("checked") == throttle.FREE_FAILURES and answers.count("waits") == 18 - throttle.FREE_FAILURES
    store.close()


def test_wait_after_doubles_from_the_free_failures_up_to_the_most():
    assert [throttle.wait_after(n) for n in (1, 4, 5, 6, 7, 40)] == [0, 0, 30, 60, 120, 900]
