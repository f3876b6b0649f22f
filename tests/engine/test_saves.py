"""Real saves of every version (``tests/saves``, written by the code of that version) load and
replay today: a rule option added without raising the save version (its ``since``) makes
them unloadable, and fails here."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from golflab import Game, Phase, game, savefile

SAVES = sorted((Path(__file__).resolve().parents[1] / "saves").glob("v*.json"))


def _version(path: Path) -> int:
    return json.loads(path.read_text())["version"]


def _play_out(g: Game, seed: int) -> Game:
    """Play ``g`` to its end with random legal actions."""
    rng = random.Random(seed)
    while g.phase is not Phase.GAME_OVER:
        if g.phase is Phase.ROUND_OVER:
            g.next_round()
        else:
            g.apply(rng.choice(g.legal_actions()))
    return g


def test_a_real_save_of_every_version_is_kept():
    """Raising ``savefile.VERSION`` (a new option's ``since``) needs a save of the new version here
    (``tests/saves/make_save.py`` writes one)."""
    assert {_version(p) for p in SAVES} == set(savefile.VERSIONS)


@pytest.mark.parametrize("path", SAVES, ids=[p.stem for p in SAVES])
def test_a_real_save_loads_replays_and_plays_on(path):
    text = path.read_text()
    data = json.loads(text)
    restored = Game.from_json(text)
    assert restored.history == data["history"] and restored.totals == data["state"]["totals"]
    assert restored.round == data["state"]["round"]
    if data["version"] == savefile.VERSION:
        assert restored.to_json() == text  # today's code writes that save exactly so
    again = Game.from_json(restored.to_json())
    assert _play_out(again, 1).to_json() == _play_out(restored, 1).to_json()


def test_an_option_without_its_since_makes_the_old_saves_fail(monkeypatch):
    """What a forgotten version bump does: ``knock_early`` declared as if every save held it."""
    options = tuple(dataclasses.replace(o, since=1) if o.name == "knock_early" else o for o in game.OPTIONS)
    monkeypatch.setattr(game, "OPTIONS", options)
    oldest = next(p for p in SAVES if "knock_early" not in json.loads(p.read_text())["rules"])
    with pytest.raises(ValueError, match="knock_early"):
        Game.from_json(oldest.read_text())
