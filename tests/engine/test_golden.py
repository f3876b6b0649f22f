"""Golden playthroughs: recorded games replayed so that any drift in behaviour shows.

Each ``tests/golden/*.txt`` is a readable transcript: the seed, players and rules, then each
hole's deal, every action (with the card it drew, took or replaced), the hole's scores, and
the final totals. The test replays the recorded actions and rebuilds the transcript; it must
match the file exactly, so a change in dealing, shuffling, legality, turn order or scoring
shows up as a diff.

The actions come from a seeded random player (``STALLER`` seats always discard and skip).
To re-record after an intended rule change, run::

    .venv/bin/python tests/engine/test_golden.py --regen

and review the diff before committing it.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest

from golflab import Game, Phase, Rules

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

#: name -> (seed, players, rule options, seats that stall)
CASES = {
    "two_players_defaults": (101, 2, {"rounds": 2}, ()),
    "six_players_always_eagle_eye": (202, ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"],
                                     {"rounds": 1, "flip_mode": "always", "jokers": "eagle_eye", "wolfpack": True}, ()),
    "three_players_endgame_lucky_swing_knock": (303, 3, {"rounds": 2, "initial_flips": 1, "flip_mode": "endgame",
                                                         "jokers": "lucky_swing", "knock_penalty": True,
                                                         "knock_bonus": True}, ()),
    "four_players_house_rules": (404, 4, {"rounds": 2, "initial_flips": 0, "jokers": "standard", "super_kings": True,
                                          "ten_penny": True, "blackjack": True, "underdog_bonus": True,
                                          "tied_shame": True}, ()),
    "five_players_stalled_hole": (505, 5, {"rounds": 1, "decks": 1, "max_turns": 10}, (0, 1, 2, 3, 4)),
    "four_players_section12_rules": (606, 4, {"rounds": 2, "jokers": "standard", "one_eyed_jacks": True,
                                              "negative_pairs_keep_value": True, "four_of_a_kind": True,
                                              "flip_as_action": True, "knock_early": True}, ()),
}

_ACTION_LINE = re.compile(r"^  (\d) (flip \d|swap \d|draw|take|discard|skip|knock)\b")


def transcript(name: str, seed: int, players, options: dict, actions: list[str]) -> str:
    """Replay ``actions`` and write the readable transcript."""
    rules = Rules(**options)
    game = Game(players, rules, seed)
    out = [f"# golflab golden playthrough: {name}",
           "# replayed by tests/engine/test_golden.py; re-record with: python tests/engine/test_golden.py --regen",
           f"seed: {seed}", f"players: {json.dumps(list(game.players))}",
           f"rules: {json.dumps(rules.changes(), sort_keys=True)}", ""]
    todo = list(actions)
    while True:
        out.append(f"hole {game.round} (first player {game.first_player})")
        for s in range(game.num_players):
            out.append(f"  deal {s}: {' '.join(map(str, game.grid(s)))}")
        out.append(f"  discard: {game.discard_pile[-1]}  draw pile: {game.draw_pile_size}")
        while game.awaiting is not None:
            if not todo:
                raise ValueError(f"{name}: the recorded actions end in the middle of hole {game.round}")
            seat, action = game.current_player, todo.pop(0)
            phase, size = game.phase, game.draw_pile_size
            top = game.discard_pile[-1] if game.discard_pile else None
            grid = game.grid(seat)
            held = game.held
            down = [i for i, up in enumerate(game.face_up(seat)) if not up]
            game.apply(action)
            note = ""
            if action == "draw":
                note = f"-> {game.held}" if game.held is not None else "-> nothing left: hole over"
                if size == 0:
                    note += " (reshuffled)"
            elif action == "take":
                note = f"-> {top}"
            elif action.startswith("swap"):
                note = f"{held} for {grid[int(action.split()[1])]}"
            elif action.startswith("flip"):
                note = f"-> {game.grid(seat)[int(action.split()[1])]}"
            elif action == "discard":
                note = f"{held}"
            elif action == "knock":
                note = "-> " + " ".join(str(game.grid(seat)[i]) for i in down)
            line = f"  {seat} {action:<8} {note}".rstrip()
            if game.phase is not phase:
                line += f"   [{game.phase.value}]"
            out.append(line)
        result = game.round_results[-1]
        out.append(f"  finisher: {result.finisher}")
        for s in range(game.num_players):
            adj = " ".join([*(f"{b.rule} {b.points:+d}" for b in result.hands[s].bonuses),
                            *(f"{a.rule} {a.points:+d}" for a in result.adjustments_for(s))])
            out.append(f"  hand {s}: {' '.join(map(str, game.grid(s)))}  = {result.hand_scores[s]}"
                       f"{'  ' + adj if adj else ''}  -> {result.scores[s]}")
        out.append(f"  scores: {' '.join(map(str, result.scores))}   hole winners: "
                   f"{' '.join(map(str, result.winners))}")
        out.append("")
        if game.phase is Phase.GAME_OVER:
            break
        game.next_round()
    if todo:
        raise ValueError(f"{name}: {len(todo)} recorded actions are left after the game ended")
    out.append(f"totals: {' '.join(map(str, game.totals))}")
    out.append(f"holes won: {' '.join(map(str, game.holes_won))}")
    out.append(f"winners: {' '.join(map(str, game.winners))}")
    return "\n".join(out) + "\n"


def record(name: str) -> str:
    """Play the case with its seeded random player and return the transcript."""
    seed, players, options, stallers = CASES[name]
    game = Game(players, Rules(**options), seed)
    rng = random.Random(seed * 7 + 1)
    actions = []
    while not game.is_over:
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
            continue
        acts = game.legal_actions()
        stall = [a for a in acts if a.kind in ("discard", "skip")] if game.current_player in stallers else []
        action = str(stall[0] if stall else acts[rng.randrange(len(acts))])
        game.apply(action)
        actions.append(action)
    return transcript(name, seed, players, options, actions)


def recorded_actions(text: str) -> list[str]:
    return [m.group(2) for m in map(_ACTION_LINE.match, text.splitlines()) if m]


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough_replays_exactly(name):
    text = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    seed, players, options, _ = CASES[name]
    header = dict(line.split(": ", 1) for line in text.splitlines()[2:5])
    assert int(header["seed"]) == seed and json.loads(header["rules"]) == Rules(**options).changes()
    assert transcript(name, seed, players, options, recorded_actions(text)) == text


def test_golden_files_cover_the_options():
    texts = {name: (GOLDEN / f"{name}.txt").read_text(encoding="utf-8") for name in CASES}
    assert len(list(GOLDEN.glob("*.txt"))) == len(CASES)
    every = "\n".join(texts.values())
    for needle in ("[final_turn]", "skip", "flip", "take", "(reshuffled)", "finisher: None",
                   "knock_penalty +10", "knock_bonus -5", "underdog_bonus -3", "JK", " knock "):
        assert needle in every, needle
    assert {len(json.loads(t.splitlines()[3].split(": ", 1)[1])) for t in texts.values()} >= {2, 6}


def test_recorded_actions_read_every_action_line():
    text = "hole 1\n  0 flip 3   -> KH\n  1 draw     -> 5C\n  1 swap 2   5C for 9D   [final_turn]\n"
    assert recorded_actions(text) == ["flip 3", "draw", "swap 2"]


if __name__ == "__main__":
    if sys.argv[1:] != ["--regen"]:
        sys.exit("usage: python tests/engine/test_golden.py --regen   (re-records tests/golden/*.txt)")
    GOLDEN.mkdir(exist_ok=True)
    for case in sorted(CASES):
        (GOLDEN / f"{case}.txt").write_text(record(case), encoding="utf-8")
        print("wrote", GOLDEN / f"{case}.txt")
