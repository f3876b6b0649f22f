"""Codepiece saves lose nothing (issue 23, points 1 and 2): a match follows its deals however
they are played (``match.apply`` or ``match.game.apply``), a save always loads back equal to
what saved it, and a bad or hostile save (mutated, deeply nested, a null seed, a huge
action) is a short ValueError saying what is wrong. ``CodepieceGame`` saves the same way."""

from __future__ import annotations

import json
import random
import re

import pytest

from golflab import IllegalActionError
from golflab.codepiece import CodepieceGame, CodepieceMatch
from golflab.codepiece.saves import max_chars
from golflab.excerpt import excerpt

MESSAGE_LIMIT = 400  # characters: an error message quotes user input in part only
MATCH = '{"format": "golflab-codepiece-match", "version": 1, "deals": 2, "seed": 1, "first_dealer": 0, '


def same_match(a: CodepieceMatch, b: CodepieceMatch) -> None:
    assert a.to_json() == b.to_json() and a.history == b.history
    assert (a.scores, a.results, a.deal_number, a.over, a.winner()) == (b.scores, b.results, b.deal_number, b.over,
                                                                        b.winner())
    assert [a.game.state(s) for s in range(4)] == [b.game.state(s) for s in range(4)]


def same_game(a: CodepieceGame, b: CodepieceGame) -> None:
    assert a.to_json() == b.to_json() and a.history == b.history and a.seed == b.seed
    assert [a.state(s) for s in range(4)] == [b.state(s) for s in range(4)]


def play_through_game(match: CodepieceMatch) -> None:
    """Finish the deal in play as the contract allows: through ``match.game`` (the deal in play)."""
    while match.game.phase != "over":
        match.game.apply(match.cpu_action())


def refused(load, text) -> str:
    with pytest.raises(ValueError) as err:
        load(text)
    assert not isinstance(err.value, RecursionError)
    message = str(err.value)
    assert len(message) < MESSAGE_LIMIT, message[:200]
    return message


# ------------------------------------------------------------- point 1: play around the match
def test_a_deal_played_through_match_game_is_scored_and_saved():
    m = CodepieceMatch(deals=4, seed=5)
    play_through_game(m)
    assert m.deal_over and m.scores == m.game.payoffs != [0, 0, 0, 0]
    assert m.results[0]["payoffs"] == m.game.payoffs and m.results[0]["deal"] == 1
    m.next_deal()
    assert m.scores == m.results[0]["payoffs"] and len(m.history[0]) > 4 and m.history[1] == []
    same_match(CodepieceMatch.from_json(m.to_json()), m)


def test_one_move_played_around_the_match_mid_deal_is_in_the_save():
    m = CodepieceMatch(deals=2, seed=5)
    m.apply(m.cpu_action())
    m.game.apply(m.cpu_action())
    m.apply(m.cpu_action())
    assert len(m.history[0]) == 3
    loaded = CodepieceMatch.from_json(m.to_json())
    same_match(loaded, m)
    assert loaded.game.current_player == m.game.current_player


def test_a_one_deal_match_finished_through_game_is_over_with_a_winner_and_restores_over():
    m = CodepieceMatch(deals=1, seed=5)
    play_through_game(m)
    assert m.over and m.winner() in (0, 1) and m.team_scores[m.winner()] > 0
    loaded = CodepieceMatch.from_json(m.to_json())
    assert loaded.over and loaded.game.phase == "over" and loaded.winner() == m.winner()
    same_match(loaded, m)


def test_a_match_played_both_ways_at_random_saves_equal_after_every_move():
    rng = random.Random(23)
    m = CodepieceMatch(deals=3, seed=11)
    plain = CodepieceMatch(deals=3, seed=11)  # the same moves, all through the match
    while True:
        while not m.deal_over:
            action = m.cpu_action()
            (m.apply if rng.random() < 0.5 else m.game.apply)(action)
            plain.apply(action)
            if rng.random() < 0.2:
                same_match(CodepieceMatch.from_json(m.to_json()), m)
        same_match(m, plain)
        same_match(CodepieceMatch.from_json(m.to_json()), m)
        if m.over:
            break
        m.next_deal()
        plain.next_deal()
    assert len(m.results) == 3 and m.team_scores[0] != 0


def test_the_deal_in_play_cannot_be_swapped_behind_the_match():
    m = CodepieceMatch(seed=5)
    with pytest.raises(AttributeError):
        m.game = CodepieceGame(seed=1)
    with pytest.raises(AttributeError):
        m.history = []


# ------------------------------------------------------------------ point 2: hostile loads
def test_deep_nesting_is_a_value_error_not_a_recursion_error():
    refused(CodepieceMatch.from_json, "[" * 200_000)
    assert "nested too deeply" in refused(CodepieceMatch.from_json, "[" * 100_000)
    inner = '{"format": "golflab-codepiece-match", "version": 1, "deals": 1, "seed": 1, "history": %s}'
    assert "nested too deeply" in refused(CodepieceMatch.from_json, inner % ("[" * 50_000 + "]" * 50_000))
    assert "nested too deeply" in refused(CodepieceGame.from_json, "[" * 60_000)


def test_a_null_seed_is_refused_not_replaced_by_a_random_one():
    text = MATCH.replace('"seed": 1', '"seed": null') + '"history": [[]]}'
    assert "seed is null" in refused(CodepieceMatch.from_json, text)
    game = json.loads(CodepieceGame(seed=3).to_json())
    game["seed"] = None
    assert "seed must be the whole number that dealt the cards, got null" in refused(CodepieceGame.from_json,
                                                                                     json.dumps(game))


@pytest.mark.parametrize("size", [100_000, 10_000_000])
def test_a_huge_action_gives_a_short_error(size):
    save = json.loads(CodepieceMatch(deals=2, seed=1).to_json())
    save["history"] = [["x" * size]]
    message = refused(CodepieceMatch.from_json, json.dumps(save))
    assert ("too large" in message) if size > max_chars(100) else ("characters)" in message and "move 1" in message)


def test_a_huge_action_played_directly_gives_a_short_error_and_changes_nothing():
    for target in (CodepieceGame(seed=1), CodepieceMatch(seed=1)):
        before = target.to_json()
        with pytest.raises(IllegalActionError) as err:
            target.apply("AS" * 5_000_000)
        assert len(str(err.value)) < MESSAGE_LIMIT and "10,000,002 characters" in str(err.value)
        assert target.to_json() == before


@pytest.mark.parametrize("text, words", [
    (None, "expected the JSON text"),
    (b"\xff\xfe", "not the JSON text to_json"),
    ('{"format": "golflab-codepiece-match", "version": true, "deals": 1, "seed": 1, "history": [[]]}',
     "version True is not supported"),
    (MATCH + '"history": [[]], "extra": 1}', "unknown key\\(s\\) 'extra'"),
    (MATCH.replace('"deals": 2', '"deals": true') + '"history": [[]]}', "deals must be a whole number from 1 "
                                                                        "to 100, got true or false"),
    (MATCH.replace('"seed": 1', '"seed": 1.0') + '"history": [[]]}', "seed must be a whole number from 0 to "
                                                                     "9223372036854775807, got a decimal number"),
    (MATCH.replace('"seed": 1', '"seed": "1"') + '"history": [[]]}', "seed must be .*, got '1'"),
    (MATCH.replace('"seed": 1', '"seed": 9223372036854775808') + '"history": [[]]}', "seed must be a whole"),
    (MATCH.replace('"seed": 1', '"seed": ' + "9" * 4000) + '"history": [[]]}', "got 9{60}... \\(4,000 characters"),
    (MATCH.replace('"seed": 1', '"seed": ' + "9" * 5000) + '"history": [[]]}', "not the JSON text .*4300 digits"),
    (MATCH.replace('"first_dealer": 0', '"first_dealer": null') + '"history": [[]]}', "first_dealer must be"),
    (MATCH + '"history": []}', "one list of actions per deal"),
    (MATCH + '"history": {"0": []}}', "one list of actions per deal"),
    (MATCH + '"history": [null]}', "deal 1 of the save must be a list of action strings, got null"),
    (MATCH + '"history": [["pass", 3]]}', "deal 1 of the save, move 2 must be an action string, got a whole"),
    (MATCH + '"history": [[" pass"]]}', "move 1 of deal 1 of the save \\(' pass'\\) is not written as a save "
                                        "writes it \\('pass'\\)"),
])
def test_a_bad_match_save_says_what_is_wrong(text, words):
    assert re.search(words, refused(CodepieceMatch.from_json, text))


# ------------------------------------------------------------------ CodepieceGame saves
def test_a_game_saves_and_continues_identically_after_every_move():
    game = CodepieceGame(seed=9, dealer=2)
    while True:
        loaded = CodepieceGame.from_json(game.to_json())
        same_game(loaded, game)
        if game.phase == "over":
            break
        action = game.legal_actions()[len(game.history) % len(game.legal_actions())]
        game.apply(action)
        loaded.apply(action)
        same_game(loaded, game)
    assert game.payoffs is not None and len(game.history) > 4


def test_a_set_deal_saves_its_hands():
    rotation = [[str(c) for c in CodepieceGame(seed=0).hand(s)] for s in range(4)][::-1]
    game = CodepieceGame.from_hands(rotation, dealer=1)
    game.apply("pass")
    data = json.loads(game.to_json())
    assert "seed" not in data and data["hands"] == rotation
    same_game(CodepieceGame.from_json(game.to_json()), game)


def _game_save(**changes) -> str:
    data = json.loads(CodepieceGame(seed=4).apply("pass").to_json())
    data.update(changes)
    return json.dumps({k: v for k, v in data.items() if v != "DROP"})


HANDS = [[str(c) for c in CodepieceGame(seed=4).hand(s)] for s in range(4)]


@pytest.mark.parametrize("text, words", [
    ("not json", "not a saved Codepiece deal: it is not the JSON text"),
    ('{"format": "golflab-codepiece-match", "version": 1}', "not a saved Codepiece deal"),
    (_game_save(version=2), "version 2 is not supported"),
    (_game_save(history="DROP"), "lacks history"),
    (_game_save(seed="DROP"), "either its seed or its hands .* not neither"),
    (_game_save(hands=HANDS), "not both"),
    (_game_save(seed=True), "seed must be the whole number that dealt the cards, got true or false"),
    (_game_save(dealer=4), "dealer must be a whole number from 0 to 3, got 4"),
    (_game_save(history=["bid_7"]), "move 1 of the save cannot be replayed: illegal action 'bid_7'"),
    (_game_save(history=["pass"] * 58), "move 5 of the save cannot be replayed"),
    (_game_save(seed="DROP", hands=HANDS[:3]), "the save's hands are not a deal: Codepiece needs exactly 4 hands"),
    (_game_save(seed="DROP", hands=[HANDS[0]] * 4), "repeated"),
    (_game_save(seed="DROP", hands=[h[::-1] for h in HANDS]), "not written as a save writes them"),
    (_game_save(seed="DROP", hands=[[c * 2 for c in h] for h in HANDS]), "4 lists of 13 card codes"),
    ("x" * (max_chars(1) + 1), "too large"),
])
def test_a_bad_game_save_says_what_is_wrong(text, words):
    assert re.search(words, refused(CodepieceGame.from_json, text))


# ------------------------------------------------------------------ mutated saves (fuzz kept)
def _mutations(text: str, rng: random.Random, count: int):
    pieces = ['"', "[", "]", "{", "}", ",", ":", "0", "9", "-", "null", "true", " ", '"pass"', '"AS"', "1e9", "\\"]
    for _ in range(count):
        at = rng.randrange(len(text))
        kind = rng.randrange(4)
        if kind == 0:
            yield text[:at] + text[at + 1:]
        elif kind == 1:
            yield text[:at] + rng.choice(pieces) + text[at:]
        elif kind == 2:
            yield text[:at] + rng.choice(pieces) + text[at + 1:]
        else:
            end = min(len(text), at + rng.randrange(1, 40))
            yield text[:at] + text[end:]


def _values(data, rng: random.Random, count: int):
    """Copies of ``data`` with one value anywhere replaced by a hostile one."""
    hostile = [None, True, False, -1, 0, 2**63, 1.5, "", "pass", "x" * 500, [], {}, [[]], {"a": 1}, "AS"]
    paths = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, path + (i,))

    walk(data, ())
    for _ in range(count):
        path, value = rng.choice(paths[1:]), rng.choice(hostile)
        copy = json.loads(json.dumps(data))
        node = copy
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        yield json.dumps(copy)


def _check_load(load, text):
    """Either a short ValueError, or a save equal to what it loaded (and loading it again gives the same)."""
    try:
        loaded = load(text)
    except ValueError as exc:
        assert not isinstance(exc, RecursionError) and len(str(exc)) < MESSAGE_LIMIT, str(exc)[:200]
        return False
    assert json.loads(loaded.to_json()) == json.loads(text)
    assert load(loaded.to_json()).to_json() == loaded.to_json()
    return True


def _played_match() -> CodepieceMatch:
    m = CodepieceMatch(deals=3, seed=2)
    play_through_game(m)
    m.next_deal()
    for _ in range(9):
        m.apply(m.cpu_action())
    return m


@pytest.mark.parametrize("cls, save", [
    (CodepieceMatch, lambda: _played_match().to_json()),
    (CodepieceGame, lambda: CodepieceGame(seed=7).apply("pass").apply("bid_9").to_json()),
], ids=["match", "game"])
def test_mutated_saves_are_refused_clearly_or_load_equal(cls, save):
    load, text = cls.from_json, save()
    rng = random.Random(2023)
    results = [_check_load(load, t) for t in _mutations(text, rng, 2000)]
    results += [_check_load(load, t) for t in _values(json.loads(text), rng, 1000)]
    assert results.count(True) > 5 and results.count(False) > 2000  # both kinds were met


def test_excerpt_cuts_long_values_and_says_how_long():
    assert excerpt("pass") == "'pass'"
    assert excerpt("x" * 1000) == "'" + "x" * 59 + "... (1,002 characters)"
    assert excerpt(10**5000) == "a whole number of about 5,001 digits"
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert excerpt(deep) == "a list nested too deeply to show"
