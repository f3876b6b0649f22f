"""Each explorer's result for its default inputs, computed ahead (``precomputed.json``
beside this file), so that an app's first render does not wait for a simulation.

The file holds, per explorer class, the text of its default inputs (``repr`` of
``inputs()``) and its ``compute`` result (pandas frames, stored column by column with their
dtypes and ``attrs`` so that they load back identical). An explorer uses it only for
exactly those inputs. ``tests/widgets/test_explorers.py`` recomputes every entry with the
explorer's own ``compute`` and checks that the file is identical, so a change to the engine
or a study that changes a result fails CI until the file is regenerated:

    .venv/bin/python -m golflab_widgets.explorers.precomputed
"""

from __future__ import annotations

import functools
import importlib
import json
from pathlib import Path
from typing import Any, Hashable, Mapping

PATH = Path(__file__).with_name("precomputed.json")
#: The explorers whose default result is shipped: (module in this package, class name).
EXPLORERS = (("tiers", "TierExplorer"), ("pairing", "PairingExplorer"), ("turns", "TurnCountExplorer"),
             ("personalities", "PersonalityExplorer"), ("house_rules", "HouseRulesLab"),
             ("codepiece_bids", "CodepieceBidExplorer"))


def explorer_classes() -> list[type]:
    """The explorer classes of ``EXPLORERS``."""
    return [getattr(importlib.import_module(f"{__package__}.{module}"), name) for module, name in EXPLORERS]


def encode(result: Mapping[str, Any]) -> dict:
    """A JSON-ready form of an explorer result (a dict of DataFrames with a RangeIndex)."""
    import pandas as pd

    out = {}
    for name, frame in result.items():
        if not frame.index.equals(pd.RangeIndex(len(frame))):
            raise ValueError(f"{name}: only frames with a default index (0, 1, ...) can be stored")
        out[name] = {"columns": [str(c) for c in frame.columns], "dtypes": [str(t) for t in frame.dtypes],
                     "data": [frame[c].tolist() for c in frame.columns], "attrs": dict(frame.attrs)}
    return out


def decode(data: Mapping[str, Any]) -> dict:
    """The result that ``encode`` stored: the same frames, dtypes and ``attrs``."""
    import pandas as pd

    result = {}
    for name, part in data.items():
        frame = pd.DataFrame({c: pd.Series(v, dtype=t) for c, t, v in zip(part["columns"], part["dtypes"],
                                                                            part["data"])},
                             columns=part["columns"])
        frame.attrs.update(part["attrs"])
        result[name] = frame
    return result


def entry(cls: type) -> dict:
    """``{"inputs": ..., "result": ...}``: ``cls``'s default inputs and their result, computed now."""
    explorer = cls(auto=False)
    key = explorer.inputs()
    return {"inputs": repr(key), "result": encode(explorer.compute(key))}


def generate() -> str:
    """The text of ``precomputed.json``, computed now for every explorer of ``EXPLORERS``."""
    entries = sorted((cls.__name__, entry(cls)) for cls in explorer_classes())
    lines = (f"{json.dumps(name)}: {json.dumps(found, sort_keys=True, separators=(',', ':'))}"
             for name, found in entries)
    return "{\n" + ",\n".join(lines) + "\n}\n"  # one explorer a line


@functools.lru_cache(maxsize=1)
def shipped() -> dict:
    """The entries of ``precomputed.json`` (empty when the file is missing)."""
    try:
        return json.loads(PATH.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def _entry_for(explorer, key: Hashable) -> dict | None:
    cls = type(explorer)
    if not any(cls.__module__ == f"{__package__}.{module}" and cls.__name__ == name for module, name in EXPLORERS):
        return None
    found = shipped().get(cls.__name__)
    return found if found is not None and found["inputs"] == repr(key) else None


def available(explorer, key: Hashable) -> bool:
    """Whether ``lookup`` finds a result (without loading it: no pandas needed)."""
    return _entry_for(explorer, key) is not None


def lookup(explorer, key: Hashable) -> dict | None:
    """The shipped result when ``explorer`` is one of ``EXPLORERS`` (not a subclass) and
    ``key`` its default inputs; None otherwise."""
    found = _entry_for(explorer, key)
    return None if found is None else decode(found["result"])


if __name__ == "__main__":
    PATH.write_text(generate(), encoding="utf-8")
    print(f"wrote {PATH}")
