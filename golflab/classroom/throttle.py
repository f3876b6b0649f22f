"""Sign-in throttling, as plain values (OWASP's authentication cheat sheet): failures are counted
per name *and* source, so a stranger's guesses lock out only the stranger's source, never the
name's owner on their own device; each try is counted as a failure in the same transaction that
checks the wait, before its password is checked, so parallel guesses cannot pass the limit.

A source is a trusted device of the user (a browser that signed in as them: its device cookie),
else the client's address; without either (the command line, a test) all tries share one source.

Wrong room codes wait by the same numbers, counted per user (a page's kernel is not told its
client's address), in the same way (``rows.throttle_row``, ``rows.count_failure``).
"""

from __future__ import annotations

import math

#: After this many failures in a row from one source, that source waits, doubling each time.
FREE_FAILURES = 5
LOCK_SECONDS, MAX_LOCK_SECONDS = 30.0, 900.0
#: A source's count starts again after this long without a failure.
FORGET_SECONDS = 86_400.0
SOURCE_MAX = 80


def wait_after(failures: int) -> float:
    """Seconds a source waits after its ``failures``-th failure in a row (0 while still free)."""
    if failures < FREE_FAILURES:
        return 0.0
    return min(MAX_LOCK_SECONDS, LOCK_SECONDS * 2 ** (failures - FREE_FAILURES))


def source_of(address: "str | None", device: "str | None") -> str:
    """The throttle's source: ``device:<hash>`` (a trusted device's hashed cookie), else
    ``address:<client address>``, else ``unknown``."""
    if device:
        return ("device:" + device)[:SOURCE_MAX]
    if isinstance(address, str) and address.strip():
        return ("address:" + "".join(c for c in address.strip() if c.isprintable()))[:SOURCE_MAX]
    return "unknown"


def next_count(failures: int, failed_at: float, now: float) -> int:
    """The failures in a row counting this try (an old run, quiet for ``FORGET_SECONDS``, starts again)."""
    return 1 if now - failed_at > FORGET_SECONDS else failures + 1


def refusal(locked_until: float, now: float, what: str = "wrong passwords for this name") -> str:
    """The words for a source that must wait (``what``: what it got wrong too often)."""
    return f"too many {what}: try again in {max(1, math.ceil(locked_until - now))} seconds"
