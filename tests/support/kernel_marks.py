"""``needs_compiled``: the mark of tests that check the compiled code itself (it exists, and gives
the reference's results). They skip, saying why, where ``golflab.kernel.enabled()`` is False
(``GOLFLAB_KERNEL=0``, numba missing, an unusable cache); every other test passes both ways.
Imported as ``tests.support.kernel_marks``."""

from __future__ import annotations

import pytest

from golflab.kernel import off_reason

_OFF = off_reason()
needs_compiled = pytest.mark.skipif(_OFF is not None, reason=f"checks the compiled code, not used here: {_OFF}")
