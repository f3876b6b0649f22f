"""``LRUCache``: the explorers' results (and their studies' parts) keyed by their inputs."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Hashable


class LRUCache:
    """A small least-recently-used cache: ``get(key, make)`` returns the stored value or
    stores ``make()``. ``hits`` and ``misses`` count lookups."""

    def __init__(self, maxsize: int = 16) -> None:
        if isinstance(maxsize, bool) or not isinstance(maxsize, int) or maxsize < 1:
            raise ValueError(f"maxsize must be a whole number of at least 1, got {maxsize!r}")
        self.maxsize = maxsize
        self._data: OrderedDict = OrderedDict()
        self.hits = self.misses = 0

    def __contains__(self, key: Hashable) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value stored for ``key``, else ``make()`` stored (an exception stores nothing)."""
        if key in self._data:
            self.hits += 1
            self._data.move_to_end(key)
            return self._data[key]
        self.misses += 1
        value = make()
        self._data[key] = value
        if len(self._data) > self.maxsize:
            self._data.popitem(last=False)
        return value

    def clear(self) -> None:
        self._data.clear()
