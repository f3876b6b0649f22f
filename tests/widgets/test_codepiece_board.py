"""The Codepiece table driven from Python: a whole match by clicks, only legal buttons
enabled, the status words (follow suit, overtake), refusals that change nothing, pacing."""

import asyncio
import random

import pytest
from golflab_widgets.codepiece.board import CodepieceTable
from golflab_widgets.codepiece.words import move_words, play_rule, seat_names, situation

from golflab.codepiece import CARD_ORDER, CodepieceGame
from tests.support.plain_words import problems, seen, widget_problems

ROTATION = [[str(c) for c in CARD_ORDER[seat::4]] for seat in range(4)]  # seat i gets every 4th card


def press(table, action):
    if action == "pass":
        table.pass_button.click()
    elif action.startswith("bid_"):
        table.bid_buttons[int(action[4:])].click()
    elif action.startswith("trump_"):
        table.trump_buttons[action[-1]].click()
    else:
        table.cards[action].click()


def enabled(table):
    cards = {c for c in table.state()["hand"] if not table.cards[c].disabled}
    bids = {f"bid_{b}" for b, btn in table.bid_buttons.items() if not btn.disabled}
    other = {"pass"} if not table.pass_button.disabled else set()
    trumps = {f"trump_{s}" for s, btn in table.trump_buttons.items() if not btn.disabled}
    return cards | bids | other | trumps


def test_a_whole_match_is_played_by_clicks_with_only_legal_buttons_enabled():
    table = CodepieceTable(deals=4, seed=21, cpu_delay=0)
    rng = random.Random(3)
    seen, dealers = set(), [table.match.dealer]
    for _ in range(400):
        state = table.state()
        if table.awaiting == "match-over":
            break
        if table.awaiting == "deal-over":
            assert "You score" in table.status_text and "cp-summary" in table.summary.value
            assert table.next_deal_button.layout.display is None
            table.next_deal_button.click()
            dealers.append(table.match.dealer)
            continue
        assert table.awaiting in ("bid", "trump", "card")
        assert enabled(table) == set(state["legal_actions"])
        assert [b.description for b in table.hand.children] == [table.cards[c].description for c in state["hand"]]
        marks = {c: {"cp-legal", "cp-dim"} & set(table.cards[c]._dom_classes) for c in state["hand"]}
        if table.awaiting == "card":  # legal cards marked, the others dimmed
            assert marks == {c: {"cp-legal" if c in state["legal_actions"] else "cp-dim"} for c in state["hand"]}
        else:  # while bidding the hand is shown plainly
            assert not any(marks.values())
        seen.add(table.awaiting)
        press(table, rng.choice(state["legal_actions"]))
    assert table.awaiting == "match-over" and table.match.over
    assert seen >= {"bid", "card"} and dealers == [0, 1, 2, 3]
    assert "The match is over" in table.summary.value and table.errors == []
    assert "Deal 1: You bid " in "\n".join(table.log_lines) or "Deal 1: You pass." in table.log_lines
    assert any(line.startswith("Deal 4: ") and " plays the " in line for line in table.log_lines)
    assert "D1 You: bid_" in "\n".join(table.notation_lines) or "D1 You: pass" in table.notation_lines
    assert table.match.scores == [sum(r["payoffs"][s] for r in table.match.results) for s in range(4)]


def test_the_status_says_who_must_follow_and_overtake():
    g = CodepieceGame.from_hands(ROTATION, dealer=3)
    for a in ("bid_8", "pass", "pass", "pass", "trump_S", "9H"):
        g.apply(a)
    text, awaiting = situation(g.state(1), seat_names(1))
    assert awaiting == "card"
    assert text == "Your turn: you must follow hearts, and you must overtake: the 9 of hearts is winning for them."
    g.apply("TH")
    assert "the 10 of hearts is winning for them" in play_rule(g.state(2), seat_names(2))
    g.apply("JH").apply("QH")  # seat 3's queen wins; seat 3 leads next
    assert situation(g.state(0), seat_names(0)) == ("Right is playing\u2026", "cpu")
    assert play_rule(g.state(3), seat_names(3)) == "you lead: play any card"


def test_the_status_when_the_partner_wins_or_the_player_is_void():
    hands = [list(h) for h in ROTATION]
    g = CodepieceGame.from_hands(hands, dealer=3)
    for a in ("bid_8", "pass", "pass", "pass", "trump_C", "AS", "3S"):
        g.apply(a)
    rule = play_rule(g.state(2), seat_names(2))  # seat 0, seat 2's partner, leads the ace
    assert rule == "you must follow spades; the ace of spades is winning for your partner, so you need not overtake"
    state = dict(g.state(2), hand=["2H", "3C"], legal_actions=["3C"], current_trick=[(1, "9D")])
    assert play_rule(state, seat_names(2)) == ("you have no diamonds, and you must overtake: the 9 of diamonds is "
                                               "winning for them (play a trump)")


def test_an_illegal_click_is_refused_and_changes_nothing():
    table = CodepieceTable(seed=4, cpu_delay=0)
    assert table.awaiting == "bid"
    assert table.game.bid is None  # seed 4: the three CPU players pass; you deal and bid last
    assert table.status_text.endswith("You bid last: if you pass too, Left must play 7.")
    before = table.save()
    table.trump_buttons["S"].click()
    assert "cp-refused" in table.status._dom_classes and "cannot trump spades now" in table.status_text
    card = table.state()["hand"][0]
    table.cards[card].click()
    assert "cannot play the " in table.status_text and table.save() == before
    table.play("XY")
    assert table.status_text.startswith("That is not a move you can make now.") and table.save() == before
    table.next_deal_button.click()
    assert "still being played" in table.status_text and table.save() == before


def test_the_last_trick_stays_on_the_felt_until_the_next_lead():
    table = CodepieceTable(seed=5, cpu_delay=0)
    for _ in range(60):
        if table.game.completed_tricks and not table.game.current_trick:
            break
        press(table, table.state()["legal_actions"][0])
    assert "Last trick: won by" in table.felt.value
    assert table.felt.value.count("cp-played") == 4 and "cp-wins" in table.felt.value


def test_new_match_asks_twice_and_save_load_resumes():
    table = CodepieceTable(seed=6, cpu_delay=0)
    press(table, "pass")
    saved = table.save()
    other = CodepieceTable(seed=99, cpu_delay=0)
    other.load(saved)
    assert other.state() == table.state() and other.save() == saved
    table.new_match_button.click()
    assert "Press New match again" in table.status_text and table.save() == saved
    table.new_match_button.click()
    assert table.match.seed != 6 and table.awaiting == "bid"  # a new match: the three CPU seats bid first
    assert len(table.match.history) == 1 and len(table.match.history[0]) == 3
    with pytest.raises(ValueError, match="not a saved Codepiece match"):
        other.load('{"format": "x"}')
    assert other.save() == saved


def test_cpu_moves_are_paced_on_the_event_loop():
    async def scenario():
        table = CodepieceTable(seed=8, human_seat=3, cpu_delay=0.01)  # seats 1 and 2 bid before you
        first = (table.awaiting, table.pacer.active)
        for _ in range(2000):
            if table.awaiting != "cpu":
                break
            await asyncio.sleep(0.005)
        return first, table

    (awaiting, active), table = asyncio.run(scenario())
    assert (awaiting, active) == ("cpu", True)
    assert table.awaiting == "bid" and table.game.current_player == 3 and len(table.match.history[0]) == 2


def test_the_cpu_delay_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("GOLFLAB_CPU_DELAY", "0")
    assert CodepieceTable(seed=1).cpu_delay == 0
    monkeypatch.setenv("GOLFLAB_CPU_DELAY", "soon")
    with pytest.raises(ValueError, match="GOLFLAB_CPU_DELAY"):
        CodepieceTable(seed=1)
    with pytest.raises(ValueError, match="human_seat must be a seat 0-3"):
        CodepieceTable(seed=1, human_seat=4, cpu_delay=0)


def test_the_table_is_told_in_words_through_a_whole_deal_with_notation_behind_details():
    table = CodepieceTable(deals=2, seed=21, cpu_delay=0)
    rng, states = random.Random(3), set()
    for _ in range(200):
        assert not widget_problems(table), (table.awaiting, widget_problems(table)[:3])
        states.add(table.awaiting)
        if table.awaiting == "match-over":
            break
        if table.awaiting == "deal-over":
            table.next_deal_button.click()
            continue
        state = table.state()
        wrong = next((c for c in state["hand"] if c not in state["legal_actions"]), "trump_S")
        table.play(wrong)  # a refusal is words too
        assert "cp-refused" in table.status._dom_classes and not problems(table.status_text), table.status_text
        table.play(rng.choice(state["legal_actions"]))
    assert states >= {"bid", "card", "deal-over", "match-over"}
    log = seen(table.log_box.value)
    assert log.startswith("Deal over.") and "Trick 1 goes to " in log and "Deal 2: Left deals." in log
    assert "seat" not in log and "seed" not in log and "D1" not in log
    details = table.log_box.value.split('<details class="golf-details">')[1].split("</details>")[0]
    assert "seed 21, you are seat 0" in details and "D2 You: " in details  # notation, behind Details


def test_moves_are_sentences_whose_verb_agrees_with_the_player():
    assert move_words("You", "bid_9") == "You bid 9" and move_words("Left", "bid_9") == "Left bids 9"
    assert move_words("Right", "pass") == "Right passes" and move_words("You", "pass") == "You pass"
    assert move_words("Partner", "trump_H") == "Partner chooses hearts as trump"
    assert move_words("You", "QS") == "You play the queen of spades"
