"""Bad input to the engine gets a clear ValueError and changes nothing (issue 8, defect 5):
corrupted or foreign saves, and things that are not actions."""

from __future__ import annotations

import json
import random

import pytest

from golflab import Game, IllegalActionError, Rules
from golflab.actions import Action


def limits() -> tuple[int, int]:
    """``savefile``'s MAX_ACTIONS and MAX_SAVE_CHARS (imported here: the module is new)."""
    from golflab.savefile import MAX_ACTIONS, MAX_SAVE_CHARS

    return MAX_ACTIONS, MAX_SAVE_CHARS


def saved_game(steps: int = 9, seed: int = 3) -> Game:
    game = Game(["You", "Sofia", "Maya"], Rules(rounds=2, flip_mode="endgame"), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.phase == "round_over":
            game.next_round()
        acts = game.legal_actions()
        if not acts:
            break
        game.apply(rng.choice(acts))
    return game


def edited(game: Game, change) -> str:
    data = json.loads(game.to_json())
    change(data)
    return json.dumps(data)


# ------------------------------------------------------------------ saves
def test_deeply_nested_json_is_a_value_error_not_a_recursion_error():
    for text in ("[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000):
        with pytest.raises(ValueError, match="nested too deeply"):
            Game.from_json(text)


def test_the_tables_resume_refuses_a_deeply_nested_save_and_changes_nothing():
    from golflab_widgets.table.golf_table import GolfTable

    t = GolfTable(players=["Sofia", "Maya"], rules=Rules(rounds=2), seed=11, cpu_delay=0)
    before = t.save()
    with pytest.raises(ValueError, match="nested too deeply"):
        t.load("[" * 100_000 + "]" * 100_000)
    assert t.save() == before


def test_an_over_large_save_is_refused_by_its_size_before_reading_it():
    _, MAX_SAVE_CHARS = limits()
    text = json.dumps({"format": "golflab.game", "pad": " " * MAX_SAVE_CHARS})
    with pytest.raises(ValueError, match=f"too large.*under {MAX_SAVE_CHARS:,}"):
        Game.from_json(text)
    with pytest.raises(ValueError, match="too large"):
        Game.from_json(text.encode())


def test_the_size_limit_holds_the_longest_legal_game():
    """One hole of 6 players played to the stall guard with 3 actions a turn (draw,
    discard, skip), the longest kind of hole: 18 of them fit in the limit."""
    MAX_ACTIONS, MAX_SAVE_CHARS = limits()
    game = Game(6, Rules(rounds=1, max_turns=500, flip_mode="endgame"), seed=1)
    while game.phase != "game_over":
        acts = [str(a) for a in game.legal_actions()]
        down = game.face_up(game.current_player).count(False)
        if game.awaiting == "place":
            pos = game.face_up(game.current_player).index(False)
            game.apply("discard" if down <= 1 else f"swap {pos}")
        elif "skip" in acts:
            game.apply("skip")
        else:
            game.apply("draw" if game.awaiting == "draw" else acts[0])
    assert max(game.turns) >= 500  # it stalled
    history = len(json.dumps(game.history))
    assert len(game.history) <= MAX_ACTIONS / 18
    assert 18 * history + (len(game.to_json()) - history) < MAX_SAVE_CHARS


@pytest.mark.parametrize("change, match", [
    (lambda d: d["rules"].pop("rounds"), "rules has no 'rounds'"),
    (lambda d: d["rules"].update(use_jokers=False), "rules has 'use_jokers', which a save never writes"),
    (lambda d: d.update(version=True), "version true is not supported"),
    (lambda d: d.update(version=1.0), "version 1.0 is not supported"),
    (lambda d: d.update(seed=True), "seed must be a whole number, got true or false"),
    (lambda d: d.update(players=tuple(reversed(d["players"]))), "checksum does not match"),
    (lambda d: d["rules"].update(rounds=3), "checksum does not match"),
    (lambda d: d.update(extra=1), "unknown key"),
    (lambda d: d.pop("checksum"), "missing checksum"),
    (lambda d: d.update(checksum=12), "checksum must be a string"),
    (lambda d: d["state"].pop("totals"), "state has no 'totals'"),
    (lambda d: d["state"].update(colour="red"), "state has 'colour'"),
    (lambda d: d["state"]["face_up"][0].__setitem__(0, 1), r"state.face_up\[0\]\[0\] is a whole number"),
    (lambda d: d["state"].update(totals=[float(t) for t in d["state"]["totals"]]), "decimal number"),
    (lambda d: d["state"].update(draw_pile_size=d["state"]["draw_pile_size"] + 1), "state.draw_pile_size differs"),
    (lambda d: d["history"].__setitem__(0, d["history"][0].upper()), "history entry 0 .* is not written"),
    (lambda d: d["state"].update(round=True), "hole number"),
])
def test_a_save_is_checked_whole(change, match):
    game = saved_game()
    with pytest.raises(ValueError, match=match):
        Game.from_json(edited(game, change))


def test_reordered_players_do_not_load_with_you_on_another_seat():
    game = saved_game()
    text = edited(game, lambda d: d["players"].reverse())
    with pytest.raises(ValueError, match="players reordered"):
        Game.from_json(text)


def test_a_version_1_save_without_a_checksum_still_loads():
    game = saved_game(40)
    data = json.loads(game.to_json())
    del data["checksum"]
    data["version"] = 1
    restored = Game.from_json(json.dumps(data))
    assert restored.to_json() == game.to_json()


# ---------------------------------------------------------------- actions
@pytest.mark.parametrize("bad", [None, 5, [1], 2.5, True, ("swap", 3), {"kind": "draw"}, b"draw"])
def test_things_that_are_not_actions_are_illegal_actions(bad):
    with pytest.raises(IllegalActionError, match="not an action"):
        Action(bad)
    game = saved_game()
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="not an action"):
        game.apply(bad)
    assert game.to_json() == before


# ------------------------------------------------------------------- fuzz
def _corrupt(text: str, rng: random.Random) -> str:
    """One seeded corruption of a save: its text or its parsed structure."""
    data = json.loads(text)
    how = rng.randrange(8)
    if how == 0:  # cut the text short
        return text[: rng.randrange(len(text))]
    if how == 1:  # change characters
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            chars[rng.randrange(len(chars))] = rng.choice('{}[]",:0123456789truefalsenull xJK')
        return "".join(chars)
    if how == 2:  # bury the save in nested arrays
        depth = rng.choice([10, 1_000, 20_000])
        return "[" * depth + text + "]" * depth
    # structural edits on a random object or list inside the save
    containers = [data]
    for node in containers:  # grows as it goes: every object and list inside
        containers += [v for v in (node.values() if isinstance(node, dict) else node) if isinstance(v, (dict, list))]
    node = rng.choice(containers)
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    if not keys:
        return json.dumps(data)
    key = rng.choice(keys)
    value = node[key]
    replacements = [None, True, False, 0, 1, -1, 1.5, "", "x", [], {}, [value], {"v": value}, 10**30]
    if how == 3 and isinstance(node, dict):
        del node[key]
    elif how == 4 and isinstance(node, list):
        rng.shuffle(node)
    elif how == 5 and isinstance(value, bool):
        node[key] = int(value)
    elif how == 6 and isinstance(value, int) and not isinstance(value, bool):
        node[key] = value + rng.choice([-1, 1])
    else:
        node[key] = rng.choice(replacements)
    return json.dumps(data)


def test_fuzzed_saves_and_actions_are_value_errors_and_change_nothing():
    rng = random.Random(8)
    refused = 0
    for case in range(300):
        game = saved_game(rng.randrange(0, 120), seed=case)
        text = game.to_json()
        bad = _corrupt(text, rng)
        try:
            restored = Game.from_json(bad)
        except ValueError:
            refused += 1
        else:  # accepted only when nothing that matters was changed
            assert json.loads(restored.to_json()) == json.loads(text), bad
        assert game.to_json() == text
        thing = rng.choice([None, 0, 7, -1, 3.0, [2], {}, (), "", "swap", "swap 6", "flip -1", "drawn",
                            "take 1", b"skip", object(), Rules(), game, str(rng.random())])
        try:
            game.apply(thing)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{thing!r} was applied")
        assert game.to_json() == text
    assert refused > 250
