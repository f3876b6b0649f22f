"""The coach beside the golf table: ``panel`` (``Coach``: hints, grades, the review) and
``replay`` (``ReplayViewer``: a recorded game stepped through move by move, also from *My games*).
"""

from __future__ import annotations

from golflab.lazy import lazy_exports

__all__, __getattr__ = lazy_exports(__name__, {"Coach": ".panel", "ReplayViewer": ".replay"})
