"""CodepieceMatch: dealer rotation, running scores (the sum of payoffs, partners equal),
JSON save and exact replay, clear errors that change nothing; engine additions it uses."""

import json

import pytest

from golflab import IllegalActionError
from golflab.codepiece import CodepieceGame, CodepieceMatch, beats, trick_winner


def play_out_deal(match):
    while not match.deal_over:
        match.apply(match.cpu_action())


def play_match(match):
    play_out_deal(match)
    while not match.over:
        match.next_deal()
        play_out_deal(match)
    return match


def test_the_dealer_moves_one_seat_clockwise_each_deal():
    match = CodepieceMatch(deals=6, seed=3, first_dealer=2)
    dealers = [match.dealer]
    play_out_deal(match)
    while not match.over:
        match.next_deal()
        dealers.append(match.dealer)
        assert match.game.current_player == (match.dealer + 1) % 4  # bidding starts at the dealer's left
        play_out_deal(match)
    assert dealers == [2, 3, 0, 1, 2, 3]
    assert [r["dealer"] for r in match.results] == dealers


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_scores_are_the_sum_of_payoffs_and_partners_score_alike(seed):
    match = CodepieceMatch(deals=4, seed=seed)
    running = [0, 0, 0, 0]
    play_out_deal(match)
    while True:
        running = [a + b for a, b in zip(running, match.game.payoffs)]
        assert match.scores == running
        assert match.scores[0] == match.scores[2] and match.scores[1] == match.scores[3]
        assert match.team_scores == [running[0], running[1]]
        if match.over:
            break
        match.next_deal()
        assert match.scores == running  # nothing scored for a deal in play
        play_out_deal(match)
    assert len(match.results) == 4 and match.deal_number == 4
    assert match.winner() in (None, 0, 1)


def test_the_same_seed_plays_the_same_match():
    a, b = play_match(CodepieceMatch(seed=8)), play_match(CodepieceMatch(seed=8))
    assert a.history == b.history and a.scores == b.scores
    assert play_match(CodepieceMatch(seed=9)).history != a.history


def test_a_saved_match_replays_exactly_and_continues_the_same_way():
    whole = play_match(CodepieceMatch(deals=3, seed=5))
    part = CodepieceMatch(deals=3, seed=5)
    play_out_deal(part)
    part.next_deal()
    for _ in range(20):
        part.apply(part.cpu_action())
    loaded = CodepieceMatch.from_json(part.to_json())
    assert loaded.history == part.history and loaded.scores == part.scores
    assert loaded.game.state(0) == part.game.state(0) and loaded.dealer == part.dealer
    play_match(loaded)
    assert loaded.history == whole.history and loaded.scores == whole.scores
    assert CodepieceMatch.from_json(whole.to_json()).to_json() == whole.to_json()


SAVE = '{"format": "golflab-codepiece-match", "version": 1, "deals": %d, "seed": 1, "first_dealer": 0, "history": %s}'


@pytest.mark.parametrize("text, words", [
    ("not json", "JSON text"),
    ('{"format": "something else"}', "not a saved Codepiece match"),
    ('{"format": "golflab-codepiece-match", "version": 9}', "version 9"),
    ('{"format": "golflab-codepiece-match", "version": 1, "deals": 4}', "lacks seed, first_dealer, history"),
    (SAVE % (0, '[]'), "deals must be a whole number from 1"),
    (SAVE % (2, '[["pass", "bid_7"]]'), "move 2 of deal 1 of the save .* legal actions are pass, bid_8"),
    (SAVE % (2, '[["pass"], []]'), "deal 1 of the save stops before the deal is over"),
    (SAVE % (1, '[[], []]'), "holds 2 deals but the match has only 1"),
])
def test_a_bad_save_is_refused_with_what_is_wrong(text, words):
    with pytest.raises(ValueError, match=words):
        CodepieceMatch.from_json(text)


def test_refused_actions_change_nothing():
    match = CodepieceMatch(deals=2, seed=4)
    before = match.to_json()
    with pytest.raises(IllegalActionError, match="legal actions are pass, bid_8"):
        match.apply("bid_7")
    with pytest.raises(IllegalActionError, match="still being played"):
        match.next_deal()
    assert match.to_json() == before
    play_out_deal(match)
    done = match.to_json()
    with pytest.raises(IllegalActionError, match="call next_deal"):
        match.apply("pass")
    with pytest.raises(IllegalActionError, match="nobody is to move"):
        match.cpu_action()
    assert match.to_json() == done and len(match.results) == 1
    match.next_deal()
    play_out_deal(match)
    with pytest.raises(IllegalActionError, match="the match is over"):
        match.next_deal()
    with pytest.raises(IllegalActionError, match="the match is over"):
        match.apply("pass")


@pytest.mark.parametrize("kwargs, words", [
    (dict(deals=0), "deals must be"), (dict(deals=True), "deals must be"), (dict(seed=-1), "seed must be"),
    (dict(seed="7"), "seed must be"), (dict(first_dealer=4), "first_dealer must be"),
    (dict(seed=2**63), "seed must be a whole number from 0 to 9223372036854775807, got 9223372036854775808"),
])
def test_bad_match_settings_say_what_is_allowed(kwargs, words):
    with pytest.raises(ValueError, match=words):
        CodepieceMatch(**kwargs)


def test_state_shows_the_played_tricks_but_never_another_hand():
    game = CodepieceGame(seed=6)
    match = CodepieceMatch(seed=6)
    while len(match.game.completed_tricks) < 2:
        match.apply(match.cpu_action())
    state = match.game.state(1)
    assert [len(t) for t, _won in state["completed_tricks"]] == [4, 4]
    json.dumps(state)  # plain data
    others = {str(c) for s in (0, 2, 3) for c in match.game.hand(s)}
    assert not others & set(state["hand"]) and "hands" not in state
    assert game.state(0)["completed_tricks"] == []


def test_beats_and_trick_winner_follow_the_rules():
    assert beats("2C", "AH", "H", "C") and not beats("AH", "2C", "H", "C")
    assert beats("KH", "9H", "H", "S") and not beats("AD", "9H", "H", "S")
    assert trick_winner([(1, "9H"), (2, "AD"), (3, "TH"), (0, "3H")], "S") == (3, trick_winner([(3, "TH")], None)[1])
    with pytest.raises(ValueError, match="empty trick"):
        trick_winner([], "S")
