"""When a missed puzzle comes back, as plain values: missed, it is due again after
``REVIEW_DAYS[0]`` days; each right answer at a review moves it one stage on, and past the last
stage it is retired."""

from __future__ import annotations

#: Seconds in a day: the store's clock counts seconds, its limits and due dates days.
DAY = 86_400.0
#: Missed puzzles come back after these many days (then they are retired once solved).
REVIEW_DAYS = (1, 3, 7)


def next_stage(stage: "int | None", correct: bool) -> "int | None":
    """The review stage after an answer (``stage``: the puzzle's stage now, None when it is not
    under review); None: not (or no longer) under review."""
    if not correct:
        return 0
    if stage is None or stage + 1 >= len(REVIEW_DAYS):
        return None
    return stage + 1


def days_until_due(stage: "int | None") -> "int | None":
    """Days until a puzzle at ``stage`` is due again (None: not under review)."""
    return None if stage is None else REVIEW_DAYS[stage]
