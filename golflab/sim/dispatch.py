"""Which engine plays a run: the Python reference or the compiled kernel (``golflab.kernel``),
as the one switch (``kernel.use_compiled``) allows. Either way the games are the same."""

from __future__ import annotations

import sys

from .. import fastev, kernel
from ..rules import Rules

#: Fewest games a run hands to the compiled kernel while it is not yet loaded in this
#: process (loading takes about a second; the Python reference plays some 100 games a second).
KERNEL_MIN_GAMES = 100


def uses_kernel(personalities, rules: Rules, games: int, analyze: bool) -> bool:
    """Whether the compiled kernel (``golflab.kernel``) plays a run: when the one switch says it
    may (``kernel.use_compiled``: enabled here, these rules and seats implemented), and when it
    is already loaded here or the run is big enough to pay for loading it (with ``analyze`` the
    kernel gives the actions and the reference replays them, to grade each decision). Either
    way the games are the same."""
    if not kernel.use_compiled(rules, personalities):
        return False
    return "golflab.kernel.engine" in sys.modules or games >= (KERNEL_MIN_GAMES // 4 if analyze else KERNEL_MIN_GAMES)


def compiled_grading(rules: Rules) -> bool:
    """Whether ``golflab.gradedgames`` grades a kernel run under ``rules`` (else the kernel
    gives the actions and the reference replays and grades them): the one switch's ``GRADE``
    part (``kernel.use_compiled``, through ``fastev.kernel``)."""
    return fastev.kernel(rules) is not None
