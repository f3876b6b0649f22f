"""The position notation (``golflab.Position``, grammar in docs/position-notation.md): an exact
round trip over positions taken from played games, impossible positions refused saying what is
impossible, and fuzzed text that is one clear ValueError, never another exception."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from golflab import Card, Game, Phase, Position, Rules
from golflab.ai import CPUPlayer

DOC = Path(__file__).resolve().parents[2] / "docs" / "position-notation.md"
#: The observation fields a position keeps exactly (DESIGN.md, "Positions").
KEPT = ("seat", "phase", "round", "current_player", "grids", "discard_top", "drawn", "draw_pile_size",
        "legal_actions", "totals")
RULE_SETS = [
    Rules(rounds=2),
    Rules(rounds=2, flip_mode="always", jokers="standard", knock_penalty=True),
    Rules(rounds=2, flip_mode="endgame", initial_flips=1, flip_as_action=True, knock_early=True),
    Rules(rounds=1, initial_flips=0, jokers="lucky_swing", decks=1, max_turns=10),
]
LINEUPS = [["Sofia", "Maya"], ["Sofia", "Maya", "Kenji"], ["Priya", "Marcus", "Kenji", "River", "Diego"]]


def played_moments(rules: Rules, players: list, seed: int):
    """The game at every moment of a CPU game (after every action and between holes)."""
    game = Game(players, rules, seed=seed)
    bots = [CPUPlayer(p, seed=seed + s) for s, p in enumerate(players)]
    while True:
        yield game
        if game.is_over:
            return
        if game.phase == "round_over":
            game.next_round()
        else:
            game.apply(bots[game.current_player].choose(game.observation(game.current_player)))


def moments(limit_games: int = 12):
    for k in range(limit_games):
        yield from played_moments(RULE_SETS[k % len(RULE_SETS)], LINEUPS[k % len(LINEUPS)], seed=k)


def test_every_moment_of_played_games_round_trips_exactly_from_every_seat():
    """Every seat's view of every moment of games under varied rules and 2, 3 and 5 seats: the
    text reads back to an equal position and is written back the same; its observation is the
    game's in every field a position keeps."""
    stages = set()
    count = 0
    for game in moments():
        for seat in range(game.num_players):
            obs = game.observation(seat)
            pos = Position.of(obs)
            text = str(pos)
            assert "\n" not in text
            back = Position.parse(text)
            assert back == pos, text
            assert str(back) == text
            mine = back.observation()
            assert {f: getattr(mine, f) for f in KEPT} == {f: getattr(obs, f) for f in KEPT}, text
            stages.add((pos.stage, pos.finisher is not None, pos.seat == pos.mover))
            count += 1
    assert count > 2000
    # every stage met, from the mover's view and another seat's, in play and in the final turns
    assert {s for s, _, _ in stages} == {"turn up", "draw", "holds", "took", "flip", "hole over", "game over"}
    assert ("holds", True, False) in stages and ("draw", True, True) in stages


def test_a_game_from_a_position_stands_there_and_plays_on():
    """``Game.from_position`` takes a position or its text: the game shows the position's seat
    what the position shows, deals unknown cards from what the decks leave (the same seed, the same
    deal), and plays on to the end of the game."""
    for k, game in enumerate(moments(4)):
        if k % 7:
            continue
        pos = game.position()
        assert pos == Position.of(game.observation(game.current_player))
        rebuilt = Game.from_position(str(pos), seed=k)
        assert Position.of(rebuilt.observation(pos.seat)) == pos
        again = Game.from_position(pos, seed=k)
        assert [again.grid(s) for s in range(again.num_players)] == [rebuilt.grid(s) for s in range(again.num_players)]
        bots = [CPUPlayer("Sofia", seed=s) for s in range(rebuilt.num_players)]
        while not rebuilt.is_over:
            if rebuilt.phase == Phase.ROUND_OVER:
                rebuilt.next_round()
            else:
                rebuilt.apply(bots[rebuilt.current_player].choose(rebuilt.observation(rebuilt.current_player)))


def test_a_known_face_down_card_is_dealt_there_and_shown_to_no_seat():
    text = "KH 5D (QS) ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D"
    pos = Position.parse(text)
    assert str(pos) == text
    assert pos.observation().grids[0][2] is None
    for seed in range(3):
        game = Game.from_position(pos, seed=seed)
        assert game.grid(0)[2] == Card.parse("QS") and game.held == Card.parse("8D")
        assert game.observation(1).legal_actions[-1] == "discard"


def test_a_game_from_a_position_names_its_seats_as_asked_and_refuses_names_that_do_not_fit():
    pos = Position.parse("KH 5D (QS) ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D")
    assert list(pos.game(3).players) == ["Seat 0", "Seat 1"]
    game = pos.game(3, players=["You", "Sofia"])
    assert list(game.players) == ["You", "Sofia"]
    assert [game.grid(s) for s in range(2)] == [pos.game(3).grid(s) for s in range(2)]  # the same deal
    for bad in (["You"], ["You", "You"], ["You", ""], "You", ["You", "Sofia", "Maya"]):
        with pytest.raises(ValueError, match="players must be 2 distinct names, one for each seat"):
            pos.game(3, players=bad)


def test_the_examples_in_the_docs_read_and_write_back_exactly():
    lines = [line.strip() for line in DOC.read_text().splitlines()]
    examples = [line for line in lines if re.match(r"^(\?|\(|[2-9TJQKA][SHDC]|JK)\s", line) and ";" in line]
    assert len(examples) >= 4
    for text in examples:
        assert str(Position.parse(text)) == text


def test_typing_is_forgiving_in_spacing_and_card_spelling_and_writes_the_one_form():
    typed = "  kh 5d ? ?  ? 2c/9s ? ? ? 7h ? ;discard 10s ;deck 38;  seat 1 holds 8d  ; rules flip_mode=always "
    assert str(Position.parse(typed)) == ("KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard TS; deck 38; seat 1 holds 8D; "
                                          "rules flip_mode=always")


BASE = "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 39; seat 1 to draw"


@pytest.mark.parametrize("text, says", [
    ("KH 5D ? ? ? 2C / KH ? ? ? 7H ?; discard 4S; deck 39; seat 1 to draw",
     "KH is there 2 times, but 1 deck(s) with jokers none hold it 1 time(s)"),
    ("JK 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 39; seat 1 to draw", "JK is there 1 times"),
    ("KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 30; seat 1 to draw",
     "the cards do not add up: 1 deck(s) hold 52 cards, the grids hold 12, the discard pile 1 and the deck 30: "
     "the deck would hold 39"),
    ("KH 5D 3C 4C 6C 2C / 9S ? ? ? 7H ?; discard 4S; deck 39; seat 1 to draw",
     "seat 0 has every card face up, so it went out: write ', seat 0 went out'"),
    ("KH 5D 3C 4C 6C 2C / 9S ? ? ? 7H ?; discard 4S; deck 39; seat 0 to draw",
     "seat 0 is to move with every card face up"),
    (BASE.replace("to draw", "to flip"), "a flip after a discard needs flip_mode always or endgame"),
    (BASE.replace("to draw", "to flip") + "; rules flip_mode=endgame",
     "under flip_mode endgame a flip comes only when some seat has at most 1 face-down card"),
    (BASE + "; hole 10, totals 0 0", "hole 10 in a game of 9 hole(s)"),
    (BASE.replace("to draw", "ended the hole"), "when a hole is over every card is face up"),
    (BASE.replace("to draw", "holds ?").replace("deck 39", "deck 38"), "seat 1 sees the card it drew: write which"),
    (BASE.replace("to draw", "holds 8D, seen by seat 0").replace("deck 39", "deck 38"),
     "seat 0 cannot see the card seat 1 drew: write 'holds ?'"),
    (BASE.replace("discard 4S", "discard empty").replace("deck 39", "deck 40"),
     "the discard pile is empty only just after its only card was taken"),
    ("KH ? ? ? ? ? / 9S ? ? ? ? ?; discard 4S; deck 39; seat 0 to turn up",
     "seat 0 turns up first in hole 1, so when seat 0 turns up, seat 1 has 0 card(s) face up, not 1"),
    ("KH ? ? ? ? ? / ? ? ? ? ? ?; discard 4S; deck 39; seat 1 to turn up",
     "seat 0 has 2 card(s) face up, not 1"),
    ("KH ? ? ? ? ? / 9S ? ? ? ? ?; discard 4S; deck 39; seat 0 to draw",
     "seat 0 has fewer than the 2 face-up cards every seat turns up at the start"),
])
def test_an_impossible_position_is_refused_saying_what_is_impossible(text, says):
    with pytest.raises(ValueError, match="^impossible position: .*" + re.escape(says)):
        Position.parse(text)


@pytest.mark.parametrize("text, says", [
    ("", "expected at least four parts"),
    ("KH 5D ? ? ? 2C; discard 4S; deck 38; seat 0 to draw", "2 to 6 separated by '/', got 1"),
    ("KH 5D ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 to draw", "seat 0's grid must hold 6 cards"),
    ("KH 5D ? ? ? 2X / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 to draw", "seat 0, position 5: '2X' is not a card"),
    (BASE.replace("deck 39", "deck many"), "the deck must be a whole number, got 'many'"),
    (BASE.replace("discard", "pile"), "the second part must be 'discard'"),
    (BASE.replace("seat 1 to draw", "seat 7 to draw"), "seat must be from 0 to 1, got 7"),
    (BASE.replace("to draw", "to dance"), "the turn says 'to dance'"),
    (BASE + "; rules flip_mode=sometimes", "bad rule: "),
    (BASE + "; rules colour=red", "rules are written name=value"),
    (BASE + "; rules rounds=3 rounds=4", "the rule rounds is written twice"),
    (BASE + "; hole 2, totals 1", "one number for each of the 2 seats"),
    (BASE + "; rules rounds=2; hole 2, totals 0 0", "unexpected part"),
    (BASE + ", seat 0 went dancing", "after the turn may come"),
])
def test_text_that_is_not_a_position_says_which_part_is_wrong(text, says):
    with pytest.raises(ValueError, match="^not a position: .*" + re.escape(says)):
        Position.parse(text)


def _corrupt(text: str, rng: random.Random) -> str:
    """One seeded corruption of a position's text."""
    how = rng.randrange(7)
    if how == 0:  # cut short
        return text[: rng.randrange(len(text))]
    if how == 1:  # change characters
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            chars[rng.randrange(len(chars))] = rng.choice(";/,()?= -0123456789KQJTASHDCxé\x00\n")
        return "".join(chars)
    words = text.split(" ")
    if how == 2:  # drop a word
        del words[rng.randrange(len(words))]
    elif how == 3:  # repeat a word
        i = rng.randrange(len(words))
        words.insert(i, words[i])
    elif how == 4:  # swap two words
        i, j = rng.randrange(len(words)), rng.randrange(len(words))
        words[i], words[j] = words[j], words[i]
    elif how == 5:  # a word replaced by something odd
        words[rng.randrange(len(words))] = rng.choice(["", "9" * 5000, "-1", "1e9", "(KH", "()", "??", "JK", "10",
                                                      "seat", "rules", "hole", "x=y", "decks=0", "None", "٣"])
    else:  # a part repeated or dropped
        parts = text.split("; ")
        i = rng.randrange(len(parts))
        parts.insert(i, parts[i]) if rng.random() < 0.5 else parts.pop(i)
        return "; ".join(parts)
    return " ".join(words)


def test_fuzzed_positions_are_one_clear_value_error_or_a_position_that_round_trips():
    rng = random.Random(41)
    texts = [str(Position.of(g.observation(rng.randrange(g.num_players)))) for g in moments(6)]
    refused = accepted = 0
    for _ in range(3000):
        bad = _corrupt(rng.choice(texts), rng)
        try:
            pos = Position.parse(bad)
        except ValueError as exc:
            refused += 1
            message = str(exc)
            assert message.startswith(("not a position: ", "impossible position: ")), (bad, message)
            assert "\n" not in message and len(message) < 600, (bad, message)
        else:  # accepted: then it is a possible position, written back in its one form
            accepted += 1
            assert Position.parse(str(pos)) == pos
            pos.observation()
    assert refused > 2000 and accepted > 0
    for thing in [None, 7, b"KH", ["KH"], Rules(), "x" * 100_000, "\x00", ";;;", "; ; ; ;"]:
        with pytest.raises(ValueError, match="^not a position: "):
            Position.parse(thing)


def test_position_of_takes_an_observation_or_a_game_and_nothing_else():
    game = Game(3, Rules(), seed=1)
    assert Position.of(game) == Position.of(game.observation(0)) == game.position()
    assert game.position(2).seat == 2
    with pytest.raises(ValueError, match="Position.of takes an Observation or a Game"):
        Position.of("KH")
    with pytest.raises(ValueError, match="from_position takes an Observation, a Position or its text"):
        Game.from_position(42)
