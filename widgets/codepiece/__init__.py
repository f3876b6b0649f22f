"""The Codepiece table: ``board`` (``CodepieceTable``), ``view`` (its HTML) and ``words`` (what the
learner reads; the twin of the golf table's ``table.words``).
"""

from __future__ import annotations

from golflab.lazy import lazy_exports

__all__, __getattr__ = lazy_exports(__name__, {"CodepieceTable": ".board"})
