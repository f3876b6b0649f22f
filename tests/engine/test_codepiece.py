"""Codepiece, one test per rule of the Codepiece spec, plus random-play invariants."""

import json
import random

import pytest

from golflab import IllegalActionError
from golflab.codepiece import CARD_ORDER, CodepieceGame, one_hot

SUIT_HANDS = [  # each seat holds one whole suit: S, H, D, C
    [r + s for r in "23456789TJQKA"] for s in "SHDC"
]


HANDS = [
    ["AH", "3H", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS"],
    ["KH", "2H", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"],
    ["QH", "4H", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC"],
    ["JH", "5H", "6H", "7H", "8H", "9H", "TH", "KS", "AS", "KD", "AD", "KC", "AC"],
]


def bid_and_trump(game, bids, trump):
    for b in bids:
        game.apply(b)
    game.apply(f"trump_{trump}")
    return game


def mixed_hands():
    """Seat 0: AS KS 2H ...; a deal built so that follow-suit and overtake cases arise."""
    deck = [str(c) for c in CARD_ORDER]
    rng = random.Random(5)
    rng.shuffle(deck)
    return [deck[i * 13:(i + 1) * 13] for i in range(4)]


def test_deal_gives_thirteen_cards_to_each_seat_from_one_deck():
    g = CodepieceGame(seed=3)
    hands = [g.hand(s) for s in range(4)]
    assert all(len(h) == 13 for h in hands)
    assert sorted(str(c) for h in hands for c in h) == sorted(str(c) for c in CARD_ORDER)


def test_same_seed_deals_the_same_hands():
    assert [CodepieceGame(seed=9).hand(s) for s in range(4)] == [CodepieceGame(seed=9).hand(s) for s in range(4)]


def test_bidding_starts_left_of_the_dealer_and_each_player_bids_once():
    g = CodepieceGame(seed=1, dealer=2)
    order = []
    for _ in range(4):
        order.append(g.current_player)
        g.apply("pass")
    assert order == [3, 0, 1, 2]
    assert g.phase == "trump"


def test_a_bid_must_beat_the_highest_bid_and_seven_is_never_voluntary():
    g = CodepieceGame(seed=1)
    assert g.legal_actions() == ["pass", "bid_8", "bid_9", "bid_10", "bid_11", "bid_12", "bid_13"]
    g.apply("bid_10")
    assert g.legal_actions() == ["pass", "bid_11", "bid_12", "bid_13"]
    with pytest.raises(IllegalActionError, match="bid_10"):
        g.apply("bid_10")
    with pytest.raises(IllegalActionError):
        g.apply("bid_7")


def test_a_player_may_outbid_their_partner():
    g = CodepieceGame(seed=1, dealer=0)  # order: seats 1, 2, 3, 0; seat 3 is seat 1's partner
    g.apply("bid_8").apply("pass").apply("bid_9").apply("pass")
    assert g.declarer == 3 and g.bid == 9


def test_highest_bidder_wins_the_auction_and_chooses_trump():
    g = CodepieceGame(seed=1, dealer=0)
    g.apply("bid_8").apply("bid_11").apply("pass").apply("pass")
    assert (g.phase, g.declarer, g.bid, g.current_player) == ("trump", 2, 11, 2)
    assert g.legal_actions() == ["trump_S", "trump_H", "trump_D", "trump_C"]
    g.apply("trump_H")
    assert g.trump == "H" and g.phase == "play"


def test_all_pass_forces_the_first_bidder_to_take_seven():
    g = CodepieceGame(seed=1, dealer=1)
    for _ in range(4):
        g.apply("pass")
    assert (g.declarer, g.bid) == (2, 7)


def test_declarer_leads_the_first_trick():
    g = bid_and_trump(CodepieceGame(seed=4, dealer=0), ["pass", "pass", "bid_9", "pass"], "S")
    assert g.current_player == 3


def test_must_follow_suit_when_holding_it():
    g = bid_and_trump(CodepieceGame.from_hands(HANDS, dealer=0), ["bid_8", "pass", "pass", "pass"], "C")
    g.apply("2D")  # seat 1 leads a diamond; seat 2 holds none, seat 3 holds KD and AD
    g.apply("2C")
    assert set(g.legal_actions()) == {"KD", "AD"}  # seat 2 trumped: neither beats it, both legal


def test_void_player_may_play_any_card_including_trump():
    g = bid_and_trump(CodepieceGame.from_hands(SUIT_HANDS), ["bid_8", "pass", "pass", "pass"], "D")
    g.apply("2H")  # seat 1 declares and leads a heart; seat 2 holds only diamonds (trump)
    assert g.current_player == 2
    assert set(g.legal_actions()) <= {c for c in SUIT_HANDS[2]}


def test_partner_winning_leaves_the_follow_suit_choice_free():
    # spades are trump; seat 1 declares and leads 2H. Seat 2 (diamonds only) and seat 3
    # (clubs only) are void; seat 3's partner is winning, so any club is legal.
    g = bid_and_trump(CodepieceGame.from_hands(SUIT_HANDS), ["bid_8", "pass", "pass", "pass"], "S")
    g.apply("2H").apply("2D")
    assert g.legal_actions() == SUIT_HANDS[3]
    g.apply("2C")
    # seat 0 (an opponent) holds only spades: every one of them beats the 2H
    assert g.legal_actions() == SUIT_HANDS[0]


def test_overtake_must_beat_the_winning_card_when_possible():
    g = bid_and_trump(CodepieceGame.from_hands(HANDS, dealer=0), ["bid_8", "pass", "pass", "pass"], "C")
    g.apply("KH")  # seat 1 leads the king of hearts; seat 2 is its opponent
    assert g.current_player == 2
    # seat 2 holds QH, 4H: neither beats the king, so any heart is legal
    assert set(g.legal_actions()) == {"QH", "4H"}
    g.apply("4H")
    # seat 3 (partner of 1, which is winning): any heart
    assert set(g.legal_actions()) == {"JH", "5H", "6H", "7H", "8H", "9H", "TH"}
    g.apply("5H")
    # seat 0 (opponent of seat 1) holds AH, 3H: it must play the ace, which beats the king
    assert g.legal_actions() == ["AH"]


def test_no_obligation_to_overtake_when_partner_is_winning():
    g = bid_and_trump(CodepieceGame.from_hands(HANDS, dealer=3), ["bid_8", "pass", "pass", "pass"], "C")
    g.apply("AH")  # seat 0 declares, leads the ace of hearts
    g.apply("KH")  # seat 1
    g.apply("QH")  # seat 2: partner seat 0 winning, any heart was allowed
    assert set(g.legal_actions()) == {"JH", "5H", "6H", "7H", "8H", "9H", "TH"}


def test_leading_a_trick_is_unrestricted():
    g = bid_and_trump(CodepieceGame(seed=8), ["bid_8", "pass", "pass", "pass"], "H")
    assert sorted(g.legal_actions()) == sorted(str(c) for c in g.hand(g.current_player))


def test_any_trump_beats_any_non_trump_and_the_trick_winner_leads_next():
    g = bid_and_trump(CodepieceGame.from_hands(SUIT_HANDS), ["bid_8", "pass", "pass", "pass"], "C")
    g.apply("AH")  # seat 1 leads the ace of hearts
    g.apply("2D")
    g.apply("2C")  # seat 3's lowest club is trump: it wins
    g.apply("2S")
    assert g.tricks_won == [0, 1] and g.current_player == 3
    assert g.completed_tricks[-1][1] == 3


def test_highest_card_of_the_led_suit_wins_without_trump():
    hands = mixed_hands()
    g = bid_and_trump(CodepieceGame.from_hands(hands), ["bid_8", "pass", "pass", "pass"], "S")
    while g.phase == "play" and not g.completed_tricks:
        g.apply(g.legal_actions()[0])
    trick, winner = g.completed_tricks[0]
    led = trick[0][1].suit
    trumps = [(s, c) for s, c in trick if c.suit == "S"]
    order = "23456789TJQKA"
    pool = trumps or [(s, c) for s, c in trick if c.suit == led]
    assert winner == max(pool, key=lambda sc: order.index(sc[1].rank))[0]


def test_defenders_win_as_soon_as_they_hold_fourteen_minus_bid_tricks():
    # seat 0 declares 13 with hearts trump, but seat 1 holds every heart: it trumps the first
    # trick, and with 14 - 13 = 1 trick the defenders have won at once.
    g = bid_and_trump(CodepieceGame.from_hands(SUIT_HANDS), ["pass", "pass", "pass", "bid_13"], "H")
    assert (g.declarer, g.bid) == (0, 13)
    g.apply("2S").apply("2H").apply("2D").apply("2C")
    assert g.phase == "over" and g.winner == 1 and len(g.completed_tricks) == 1
    assert g.payoffs == [-26, 26, -26, 26]


def test_payoffs_defenders_succeed_double_the_bid():
    g = bid_and_trump(CodepieceGame.from_hands(SUIT_HANDS), ["bid_8", "pass", "pass", "pass"], "S")
    # seat 1 declares with spades trump but holds only hearts; seat 0 holds every spade
    while g.phase == "play":
        g.apply(g.legal_actions()[0])
    assert g.winner == 0
    assert g.payoffs == [16, -16, 16, -16]
    assert g.tricks_won[0] == 6  # the deal ends as soon as the defenders hold 14 - 8


def test_payoffs_bidding_side_succeeds_the_bid():
    g = bid_and_trump(CodepieceGame.from_hands(SUIT_HANDS), ["pass", "pass", "pass", "bid_8"], "S")
    while g.phase == "play":
        g.apply(g.legal_actions()[0])
    assert g.winner == 0 and g.payoffs == [8, -8, 8, -8]
    assert len(g.completed_tricks) == 13


def test_state_never_shows_other_hands_and_has_the_contract_keys():
    g = CodepieceGame(seed=2)
    st = g.state(0)
    for key in ("phase", "current_player", "hand", "legal_actions", "bid", "declarer", "trump",
                "tricks_won", "current_trick", "bidding_history", "winner", "payoffs"):
        assert key in st
    others = {str(c) for s in (1, 2, 3) for c in g.hand(s)}
    assert not others & set(json.dumps(st).replace('"', " ").split())
    assert st["tricks_won"][0] == 0 and st["tricks_won"][1] == 0


def test_illegal_action_is_refused_and_changes_nothing():
    g = CodepieceGame(seed=2)
    before = g.state(g.current_player), list(g.history)
    for bad in ("bid_7", "bid_14", "trump_S", "AS", "nonsense", ""):
        with pytest.raises(IllegalActionError, match="legal actions are"):
            g.apply(bad)
    assert (g.state(g.current_player), g.history) == before


def test_one_hot_has_52_entries():
    v = one_hot(["AS", "2S", "TD"])
    assert len(v) == 52 and sum(v) == 3 and v[0] == 1 and v[12] == 1
    with pytest.raises(ValueError):
        one_hot(["JK"])


def test_from_hands_rejects_bad_deals():
    with pytest.raises(ValueError, match="4 hands"):
        CodepieceGame.from_hands(SUIT_HANDS[:3])
    bad = [list(h) for h in SUIT_HANDS]
    bad[0][0] = "3H"
    with pytest.raises(ValueError, match="repeated: 3H"):
        CodepieceGame.from_hands(bad)


def test_random_deals_keep_invariants():
    rng = random.Random(0)
    for seed in range(300):
        g = CodepieceGame(seed=seed, dealer=seed % 4)
        while g.phase != "over":
            legal = g.legal_actions()
            assert legal, "a live phase always has legal actions"
            g.apply(rng.choice(legal))
            in_hands = sum(len(g.hand(s)) for s in range(4))
            played = 4 * len(g.completed_tricks) + len(g.current_trick)
            assert in_hands + played == 52
        bidders = g.declarer % 2
        assert g.tricks_won[1 - bidders] >= 14 - g.bid or g.tricks_won[bidders] >= g.bid
        assert sum(g.payoffs) == 0
