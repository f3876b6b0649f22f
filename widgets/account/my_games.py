"""``MyGames`` (``golf-my-games``): the signed-in learner's kept games, newest first, each opening in
the replay viewer.

Each row (``golf-my-games-row``) gives the date, holes, points, place and the coach's accuracy.
On the landing page a row links to ``replay.ipynb?game=<id>`` (``golf-my-games-open``); given a
``ReplayViewer`` (the replay app), a row's button opens the game in it, and the ``game`` asked
for on the app's address opens at once. A guest reads that games are kept once signed in.
"""

from __future__ import annotations

from html import escape

import ipywidgets as w

from . import learner_progress as progress

MY_GAMES_CSS = """<style>
.golf-my-games{max-width:900px;font:14px/1.45 system-ui,sans-serif}
.golf-my-games-row{align-items:center;border-bottom:1px solid #e0e0e0}
.golf-my-games .golf-cell{display:inline-block;min-width:110px;padding:2px 6px}
.golf-my-games-head .golf-cell{font-weight:600}
.golf-my-games-open{font-weight:600}
</style>"""
GUEST_WORDS = "Your finished games are kept here once you sign in."
COLUMNS = ("Played", "Holes", "Your points", "Place", "Accuracy")


def _cells(values) -> str:
    return "".join(f'<span class="golf-cell">{escape(str(v))}</span>' for v in values)


def row_values(record) -> tuple[str, ...]:
    """One kept game as the list shows it: when, holes, points, place, accuracy."""
    accuracy = "\u2014" if record.accuracy is None else f"{record.accuracy:g}"
    return (progress.when_words(record.played_at), str(record.holes), str(record.points),
            progress.place_words(record.points, record.scores), accuracy)


class MyGames(w.VBox):
    """The learner's kept games. ``viewer``: a ``ReplayViewer`` to open them in (None: links to
    ``replay_page``). ``limit``: the newest games listed."""

    def __init__(self, viewer=None, *, replay_page: str = "replay.ipynb", limit: int = 50) -> None:
        self.viewer = viewer
        self.replay_page = replay_page
        self.limit = limit
        self.message = w.HTML()
        self.message.add_class("golf-my-games-message")
        self.rows = w.VBox()
        self.records: list = []
        super().__init__([w.HTML(MY_GAMES_CSS + "<h2 style='font-size:1.17em'>My games</h2>"), self.message, self.rows])
        self.add_class("golf-my-games")
        self.refresh()
        asked = progress.requested_game() if viewer is not None else None
        if asked is not None:
            self.open_game(asked)

    def refresh(self) -> None:
        """Read the list again (e.g. after a game was kept)."""
        session = progress.session()
        records = progress.my_games(self.limit) if session.signed_in else None
        self.records = records or []
        if records is None:
            self.message.value = escape(session.problem or GUEST_WORDS)
        elif not records:
            self.message.value = ("No games kept yet: finish a game at the table (Play golf, or Learn with a "
                                  "coach) and it shows here.")
        else:
            self.message.value = f"{len(records)} game{'s' if len(records) != 1 else ''}, newest first."
        head = w.HBox([w.HTML(_cells(COLUMNS))])
        head.add_class("golf-my-games-head")
        self.rows.children = ([head] if self.records else []) + [self._row(r) for r in self.records]

    def _row(self, record) -> w.HBox:
        if self.viewer is None:
            opener = w.HTML(f'<a class="golf-my-games-open" href="{escape(self.replay_page)}?game={record.id}" '
                            f'target="_self">Replay</a>')
        else:
            opener = w.Button(description="Replay", icon="film", tooltip="Open this game in the replay viewer",
                              layout=w.Layout(width="auto"))
            opener.add_class("golf-my-games-open")
            opener.on_click(lambda _b, rid=record.id: self.open_game(rid))
        row = w.HBox([w.HTML(_cells(row_values(record))), opener])
        row.add_class("golf-my-games-row")
        return row

    def open_game(self, record_id) -> bool:
        """Open kept game ``record_id`` in the viewer; another learner's (or none) is refused in words."""
        if self.viewer is None:
            raise ValueError("this list has no replay viewer to open a game in: give MyGames(viewer=...)")
        return self.viewer.open_kept(record_id)
