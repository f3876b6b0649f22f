"""A table's game in play survives a reload (issue 38, point 7): tablets reload tabs left in the
background, and a learner who reloads the page finds the hole where they left it.

After every move the game in play, once the learner has played in it, is kept in the browser tab
(``widgets.tab_slot``, under ``KEY``) with whose it is: the signed-in learner's id, or nobody for
a guest; another tab starts its own game. The page reloaded with a fresh deal the learner has not
touched resumes that game when it is the same person's (signed out and in as another learner, the
game stays its player's) and says so; a finished or new game empties the slot. What the page sends
back is checked as a saved file is (``GolfTable.load``): anything else is forgotten and the new
deal stays.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING

from golflab import Phase

from ..account import learner_progress as progress
from ..tab_slot import TabSlot

if TYPE_CHECKING:
    from .golf_table import GolfTable

log = logging.getLogger(__name__)

#: The tab storage key of a table's game in play.
KEY = "golflab-table-game"


def whose() -> str:
    """Whose games this page keeps: the signed-in learner's id as text, "" for a guest."""
    user = progress.session().user
    return "" if user is None else str(user.id)


class TabResume:
    """Keeps ``table``'s game in play in ``slot`` and resumes the one found there (module docstring)."""

    def __init__(self, table: "GolfTable", slot: TabSlot) -> None:
        self.table = table
        self.slot = slot
        self.first = table.game
        self.owner: str | None = None  # known once the page has answered (its request is there by then)
        self.resumed = None  # the game resumed here, kept before the learner's next move too
        slot.on_answer(self._answered)

    def _answered(self, found: str) -> None:
        self.owner = whose()
        if found and self.table.game is self.first and not self.table.learner_has_moved:
            self._resume(found)
        self.keep()

    def _resume(self, found: str) -> None:
        try:
            kept = json.loads(found)
            if not isinstance(kept, dict) or kept.get("who") != self.owner or not isinstance(kept.get("game"), str):
                return
            self.table.load(kept["game"], resumed=True)
            self.resumed = self.table.game
        except ValueError as exc:  # not a game this table can play: forgotten, the new deal stays
            log.warning("the game kept in the tab was not resumed: %s", exc)

    def keep(self) -> None:
        """Keep the game in play in the tab once the learner has played in it (or it was resumed
        here); forget it when it is over or a new game was dealt."""
        if self.owner is None:
            return
        game = self.table.game
        in_play = ((self.table.learner_has_moved or game is self.resumed) and game.phase is not Phase.GAME_OVER
                   and not self.table.from_position)  # a game played on from a position cannot be saved
        text = json.dumps({"who": self.owner, "game": self.table.save()}) if in_play else ""
        if text != self.slot.value:
            self.slot.keep(text)


__all__ = ["KEY", "TabResume", "whose"]
