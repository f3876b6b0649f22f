"""What the teacher's dashboard and the admin command line share: a new password to hand to a
learner and times in words ("2 hours ago", "in 3 days"). (How many learners finished each
assignment is ``Store.assignment_progress``.)"""

from __future__ import annotations

import secrets

#: Letters and digits that read back unambiguously (no 0/O, 1/l/I, 5/S, 2/Z, 8/B).
PASSWORD_LETTERS = "abcdefghjkmnpqrtuvwxy34679"
PASSWORD_LENGTH = 10
_UNITS = ((365 * 86_400, "year"), (30 * 86_400, "month"), (7 * 86_400, "week"), (86_400, "day"),
          (3_600, "hour"), (60, "minute"))


def new_password(length: int = PASSWORD_LENGTH) -> str:
    """A random password a teacher can read out (about 47 bits at the default length)."""
    return "".join(secrets.choice(PASSWORD_LETTERS) for _ in range(length))


def span_words(seconds: float) -> str:
    """A length of time in the largest unit it fills, rounded: ``2 hours``, ``1 day`` (6 days 23 hours
    is ``7 days``), ``less than a minute``."""
    seconds = abs(seconds)
    for size, unit in _UNITS:
        if seconds >= size:
            n = int(seconds / size + 0.5)
            return f"{n} {unit}{'' if n == 1 else 's'}"
    return "less than a minute"


def when(at: "float | None", now: float, never: str = "never") -> str:
    """``at`` against ``now`` in words: ``2 hours ago``, ``in 3 days``, ``just now``; ``never`` for None."""
    if at is None:
        return never
    delta = now - at
    if abs(delta) < 60:
        return "just now"
    return f"{span_words(delta)} ago" if delta > 0 else f"in {span_words(delta)}"
