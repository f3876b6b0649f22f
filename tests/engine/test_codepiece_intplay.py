"""Codepiece's numbered-card path (``golflab.codepiece.intplay``) plays exactly as the string rules."""

import hashlib
import json

import pytest

from golflab.codepiece import CodepieceCPU, CodepieceGame
from golflab.codepiece import game as rules
from golflab.codepiece.fastdeal import cpu_deal
from golflab.codepiece.intplay import CODES, NUMBER, PublicRecord, beats, legal_cards
from golflab.codepiece.match import derived_seed
from golflab.codepiece.selfplay import bid_records, duplicate_points, play_deal


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def test_results_are_those_of_the_string_cpu():
    # computed with the CPU's string implementation before the numbered path replaced it
    assert digest(bid_records(300, 0)) == "44956f29523e3a67"
    assert digest(bid_records(200, 7)) == "43279e6ae4f259d8"
    assert digest(duplicate_points(60, 3)) == "209c02ac0ee58a1a"


@pytest.mark.parametrize("seed", [0, 11])
def test_cpu_deal_plays_the_game_move_for_move(seed):
    for i in range(60):
        cpu_seeds = [derived_seed(seed, i, s) for s in range(4)]
        game = CodepieceGame(seed=derived_seed(seed, i), dealer=i % 4)
        dealt = [[str(c) for c in game.hand(s)] for s in range(4)]
        play_deal(game, [CodepieceCPU(s) for s in cpu_seeds])
        deal = cpu_deal(derived_seed(seed, i), i % 4, cpu_seeds)
        assert (deal["declarer"], deal["bid"], deal["trump"], deal["tricks_won"], deal["winner"], deal["payoffs"]) == (
            game.declarer, game.bid, game.trump, game.tricks_won, game.winner, game.payoffs)
        assert deal["forced"] == all(a == "pass" for _s, a in game.bidding_history)
        assert deal["hands"] == dealt


def test_beats_matches_the_rules_for_every_pair():
    for trump in range(4):
        for led in range(4):
            for card in range(52):
                for best in range(52):
                    if card != best:
                        assert beats(card, best, led, trump) == rules.beats(
                            CODES[card], CODES[best], "SHDC"[led], "SHDC"[trump]), (card, best, led, trump)


def test_legal_cards_and_record_follow_a_played_deal():
    game = CodepieceGame(seed=5, dealer=2)
    players = [CodepieceCPU(s) for s in range(4)]
    while game.phase != "play":
        game.apply(players[game.current_player].choose(game.state(game.current_player)))
    trump = "SHDC".index(game.trump)
    record = PublicRecord()
    while game.phase == "play":
        seat = game.current_player
        hand = [NUMBER[str(c)] for c in game.hand(seat)]
        trick = [(s, NUMBER[str(c)]) for s, c in game.current_trick]
        assert [CODES[c] for c in legal_cards(hand, seat, trick, trump)] == game.legal_actions()
        action = players[seat].choose(game.state(seat))
        record.add(trick, seat, NUMBER[action])
        game.apply(action)
    played = [NUMBER[str(c)] for t, _w in game.completed_tricks for _s, c in t]
    assert record.played_mask == sum(1 << c for c in played)
    rebuilt = PublicRecord.of_tricks([[(s, NUMBER[str(c)]) for s, c in t] for t, _w in game.completed_tricks])
    assert (rebuilt.played_mask, rebuilt.voids, rebuilt.leads) == (record.played_mask, record.voids, record.leads)
