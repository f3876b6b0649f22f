"""``TabSlot``: a short text kept in this browser tab (``sessionStorage``) under a key, so that the
page reloaded in the same tab finds it again (a tablet reloads tabs left in the background), while
another tab, or the next person at a shared computer after the tab was closed, starts afresh.

The kernel writes ``value`` (an empty string removes the key); the page answers once, as it draws
the slot, with what it held before (``found``, then ``answered`` is True). The slot draws nothing.
Whatever the page sends is untrusted: its reader must check it (``GolfTable.load`` does) and
``found`` is cut to ``MAX_CHARS``. A browser that keeps no storage (storage turned off) answers an
empty ``found`` and keeps nothing, and the page works as before.
"""

from __future__ import annotations

from typing import Callable

import anywidget
import traitlets

#: The most characters a slot keeps or reads back (a saved golf game is a few kilobytes).
MAX_CHARS = 200_000

_ESM = """
function storage() {
  try { return window.sessionStorage; } catch (e) { return null; }
}
function render({ model, el }) {
  el.style.display = "none";
  const key = model.get("key");
  const store = storage();
  const write = () => {
    if (!store) return;
    const value = model.get("value");
    try {
      if (value) store.setItem(key, value); else store.removeItem(key);
    } catch (e) { /* full or refused: nothing is kept, the page goes on */ }
  };
  if (!model.get("answered")) {
    let found = "";
    try { found = (store && store.getItem(key)) || ""; } catch (e) { found = ""; }
    model.set("found", found.slice(0, MAX));
    model.set("answered", true);
    model.save_changes();
  }
  model.on("change:value", write);
  return () => model.off("change:value", write);
}
export default { render };
""".replace("MAX", str(MAX_CHARS))


class TabSlot(anywidget.AnyWidget):
    """A text kept in this browser tab under ``key`` (see the module docstring)."""

    _esm = _ESM
    key = traitlets.Unicode().tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)
    found = traitlets.Unicode("").tag(sync=True)
    answered = traitlets.Bool(False).tag(sync=True)

    def __init__(self, key: str, **kwargs) -> None:
        if not isinstance(key, str) or not key.strip():
            raise ValueError(f"a tab slot needs a key (a non-empty text), got {key!r}")
        super().__init__(key=key, **kwargs)

    def on_answer(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(found)`` once, when the page has said what it held (at once if it has)."""
        if self.answered:
            callback(self.found[:MAX_CHARS])
            return

        def answered(change) -> None:
            if change["new"]:
                self.unobserve(answered, names="answered")
                callback(self.found[:MAX_CHARS])

        self.observe(answered, names="answered")

    def keep(self, text: str) -> None:
        """Keep ``text`` in the tab ("" forgets it); a text over ``MAX_CHARS`` is not kept."""
        self.value = text if len(text) <= MAX_CHARS else ""


__all__ = ["MAX_CHARS", "TabSlot"]
