"""Scrolling the page to a widget from the kernel.

An HTML widget runs no scripts, but an image's error handler does: each call puts a fresh broken
image whose handler scrolls its closest ancestor matching a selector to the top of the window.
"""

from __future__ import annotations

import json
from html import escape

import ipywidgets as w


class Scroller(w.HTML):
    """An invisible widget that scrolls its closest ``selector`` ancestor into view on ``now()``."""

    def __init__(self, selector: str) -> None:
        super().__init__(layout=w.Layout(height="0px", overflow="hidden"))
        self.selector = selector
        self.scrolls = 0

    def now(self) -> None:
        """Scroll the ancestor's top into view (once per call)."""
        self.scrolls += 1
        handler = f"this.closest({json.dumps(self.selector)}).scrollIntoView({{block:'start'}})"
        self.value = (f'<img alt="" src="data:," data-scroll="{self.scrolls}" style="display:none" '
                      f'onerror="{escape(handler)}">')
