"""Work a teacher's page does each second on the kernel's event loop: a class table's count-down
and who joined, a study's count of followers."""

from __future__ import annotations

import asyncio
import logging
from typing import Callable

log = logging.getLogger(__name__)


def every_second(work: Callable[[], object], while_: Callable[[], bool], what: str) -> None:
    """Run ``work()`` each second while ``while_()`` holds. A failure is logged (``what`` says
    whose) and the ticking goes on: a store problem is said by the work itself."""

    def second() -> None:
        if not while_():
            return
        try:
            work()
        except Exception:
            log.exception("%s: %s", what, getattr(work, "__name__", "a timer"))
        asyncio.get_event_loop().call_later(1.0, second)

    asyncio.get_event_loop().call_later(1.0, second)
