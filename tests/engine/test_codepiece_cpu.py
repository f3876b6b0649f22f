"""CodepieceCPU: legal over many deals and phases, reads only its own state, plays with its
partner in mind, counts played cards, and beats a random-play team on duplicate deals."""

from collections import Counter

import pytest

from golflab.codepiece import (
    CodepieceCPU,
    CodepieceGame,
    CodepieceRandom,
    best_trump,
    estimate_tricks,
    high_card_points,
    trick_winner,
)
from golflab.codepiece.selfplay import bid_records, duplicate_points, made_by, play_deal
from golflab.strategy import mean_ci

SUIT_HANDS = [[r + s for r in "23456789TJQKA"] for s in "SHDC"]


def play_state(seat, hand, trick, legal, completed=(), trump="C", declarer=0):
    """A trick-play state as ``CodepieceGame.state`` shows it (the CPU reads nothing else)."""
    return {"seat": seat, "phase": "play", "current_player": seat, "dealer": 3, "hand": list(hand),
            "legal_actions": list(legal), "bid": 8, "declarer": declarer, "trump": trump, "tricks_won": [0, 0],
            "current_trick": list(trick), "completed_tricks": [(list(t), w) for t, w in completed],
            "bidding_history": [], "winner": None, "payoffs": None}


def test_cpu_plays_only_legal_actions_over_many_deals_and_phases():
    phases, forced_overtakes, decisions = Counter(), 0, 0
    for deal in range(150):
        game = CodepieceGame(seed=deal, dealer=deal % 4)
        while game.phase != "over":
            seat = game.current_player
            state = game.state(seat)
            action = CodepieceCPU(seed=deal * 100 + len(game.history)).choose(state)
            assert action in state["legal_actions"], (deal, game.history, action)
            phases[state["phase"]] += 1
            if state["phase"] == "play" and state["current_trick"]:
                led = state["current_trick"][0][1][1]
                following = [c for c in state["hand"] if c[1] == led] or state["hand"]
                forced_overtakes += len(state["legal_actions"]) < len(following)
            decisions += 1
            game.apply(action)
        assert game.payoffs is not None
    assert set(phases) == {"bidding", "trump", "play"}
    assert forced_overtakes > 100 and decisions > 150 * 30


def test_cpu_decides_only_from_its_own_state():
    """Seat 1's view is the same when the other three hands are shuffled among themselves."""
    a = CodepieceGame.from_hands(SUIT_HANDS, dealer=0)
    b = CodepieceGame.from_hands([SUIT_HANDS[2], SUIT_HANDS[1], SUIT_HANDS[3], SUIT_HANDS[0]], dealer=0)
    assert a.state(1) == b.state(1)
    assert CodepieceCPU(seed=4).choose(a.state(1)) == CodepieceCPU(seed=4).choose(b.state(1))
    with pytest.raises(ValueError, match="nothing to do"):
        CodepieceCPU().choose(a.state(2))  # not seat 2's turn: no legal actions in its state


def test_cpu_is_deterministic_from_its_seed():
    def deal(seed):
        return play_deal(CodepieceGame(seed=11), [CodepieceCPU(seed + s) for s in range(4)]).history
    assert deal(5) == deal(5)


def test_cpu_bids_on_strength_and_passes_a_weak_hand():
    strong = CodepieceGame.from_hands(SUIT_HANDS, dealer=3)  # seat 0, all spades, bids first
    assert CodepieceCPU().choose(strong.state(0)) == "bid_13"
    weak = ["2S", "3S", "4S", "2H", "3H", "5H", "2D", "3D", "6D", "7D", "2C", "4C", "8C"]
    rest = [c for c in (r + s for s in "SHDC" for r in "23456789TJQKA") if c not in weak]
    game = CodepieceGame.from_hands([weak, rest[:13], rest[13:26], rest[26:]], dealer=3)
    assert high_card_points(weak) == 0
    assert CodepieceCPU().choose(game.state(0)) == "pass"


def test_cpu_outbids_its_partner_only_with_a_better_hand():
    def bidding(hand, high, holder):
        return {"seat": 2, "phase": "bidding", "current_player": 2, "hand": hand, "bid": high, "declarer": holder,
                "legal_actions": ["pass"] + [f"bid_{b}" for b in range(high + 1, 14)]}
    fair = ["AS", "KS", "QS", "5S", "AH", "4H", "3D", "4D", "5D", "6C", "7C", "8C", "9C"]
    assert CodepieceCPU().choose(bidding(fair, 9, 0)) == "pass"  # seat 0 is seat 2's partner
    assert CodepieceCPU().choose(bidding(SUIT_HANDS[0], 9, 0)) == "bid_13"
    assert CodepieceCPU().choose(bidding(SUIT_HANDS[0], 9, 1)) == "bid_13"  # seat 1 is an opponent


def test_cpu_chooses_the_trump_its_hand_takes_most_tricks_with():
    hand = ["AH", "KH", "QH", "9H", "5H", "3H", "AS", "4S", "KD", "7D", "2D", "3C", "4C"]
    assert best_trump(hand)[0] == "H"
    assert estimate_tricks(hand, "H") > estimate_tricks(hand, "S")
    state = {"seat": 0, "phase": "trump", "current_player": 0, "hand": hand,
             "legal_actions": ["trump_S", "trump_H", "trump_D", "trump_C"]}
    assert CodepieceCPU().choose(state) == "trump_H"
    with pytest.raises(ValueError, match="trump must be one of"):
        estimate_tricks(hand, "X")


def test_cpu_does_not_overtake_a_partner_whose_card_holds():
    # seat 0 led the ace of spades; seat 1 followed; seat 2 (partner) holds KS and 4S
    state = play_state(2, ["KS", "4S", "9H"], [(0, "AS"), (1, "3S")], ["KS", "4S"])
    assert CodepieceCPU().choose(state) == "4S"


def test_cpu_overtakes_a_partner_whose_card_would_fall():
    # partner (seat 0) leads the 9 of spades; an opponent plays after seat 2, and KS, AS are out
    state = play_state(2, ["QS", "4S", "9H"], [(0, "9S"), (1, "3S")], ["QS", "4S"],
                       completed=[([(0, "AS"), (1, "2S"), (2, "5S"), (3, "6S")], 0),
                                  ([(0, "KS"), (1, "7S"), (2, "8S"), (3, "TS")], 0)])
    assert CodepieceCPU().choose(state) == "QS"  # the last spade out (JS) cannot beat the queen


def test_cpu_counts_played_cards_to_find_sure_winners():
    hand = ["KS", "5S", "2H", "3H", "4H", "6H"]
    gone_ace = [([(1, "AS"), (2, "7S"), (3, "8S"), (0, "9S")], 1)]
    assert CodepieceCPU().choose(play_state(0, hand, [], hand, completed=gone_ace)) == "KS"
    assert CodepieceCPU().choose(play_state(0, hand + ["9S"], [], hand + ["9S"])) == "2H"  # AS still out


def test_cpu_leads_what_its_partner_can_ruff():
    # partner (seat 2) showed it has no diamonds (it threw a heart on a diamond lead)
    done = [([(1, "AD"), (2, "3H"), (3, "4D"), (0, "5D")], 1)]
    hand = ["7D", "9D", "TS", "JS", "QS", "8H"]
    assert CodepieceCPU().choose(play_state(0, hand, [], hand, completed=done, trump="C")) == "7D"


def test_cpu_wins_cheaply_when_the_overtake_rule_forces_it():
    state = play_state(1, ["TH", "AH", "2C"], [(0, "9H")], ["TH", "AH"], trump="C", declarer=1)
    assert CodepieceCPU().choose(state) == "AH"  # the ace will hold; the ten may fall to KH, QH, JH
    state = play_state(1, ["QH", "KH", "AH", "2C"], [(0, "9H")], ["QH", "KH", "AH"], trump="C", declarer=1)
    assert CodepieceCPU().choose(state) == "QH"  # holding the K and A, the queen is as good and cheaper
    assert trick_winner([(0, "9H"), (1, "AH"), (2, "2C")], "C")[0] == 2


def test_cpu_team_beats_a_random_team_on_duplicate_deals():
    mean, low, _high = mean_ci(duplicate_points(40, seed=3))
    assert low > 10, mean


def test_bid_records_say_how_often_bids_are_made():
    rows = bid_records(60, seed=2)
    assert len(rows) == 60 and all(r["bid"] in range(7, 14) for r in rows)
    assert all(r["made"] == (r["tricks"] >= r["bid"]) for r in rows)
    assert all(r["forced"] == (r["bid"] == 7) for r in rows)
    table = made_by(rows, lambda r: r["bid"])
    assert sum(g["deals"] for g in table) == 60
    assert all(0 <= g["low"] <= g["rate"] <= g["high"] <= 1 for g in table)
    assert bid_records(5, seed=2) == rows[:5]


def test_a_hand_never_counts_more_trump_tricks_than_trumps():
    """Defect: ruffs were counted on top of every trump, so 9 trumps were worth 10 tricks
    (and 13 spades 15): the CPU bid 10 on a hand that takes 9."""
    nine = ["3S", "4S", "5S", "8S", "TS", "JS", "QS", "KS", "AS", "7H", "TD", "QD", "3C"]
    assert estimate_tricks(nine, "S") <= 9 + 0.1 + 1e-9  # nine trumps and a queen in a doubleton
    assert estimate_tricks(SUIT_HANDS[0], "S") == 13


@pytest.mark.parametrize("cls", [CodepieceCPU, CodepieceRandom])
def test_a_bad_player_seed_says_what_is_allowed(cls):
    with pytest.raises(ValueError, match="seed must be a whole number or None"):
        cls(seed="1")
