"""Plain words for the Codepiece table: card and seat names, what the learner may do now
(``you must follow hearts``, ``you must overtake: the 9 of hearts is winning for them``),
why a click was refused, and the end-of-deal result.

Pure functions of a seat's ``CodepieceGame.state`` (no widgets), so they are easy to test.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from golflab.codepiece import team_of, trick_winner
from golflab.words import subject_verb

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_NAMES = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
#: Seat names as seen from the learner's seat, clockwise: you, then your left, partner, right.
RELATIVE_NAMES = ("You", "Left", "Partner", "Right")


def seat_names(human_seat: int) -> list[str]:
    """The name of each seat 0-3 as the learner at ``human_seat`` sees it."""
    return [RELATIVE_NAMES[(s - human_seat) % 4] for s in range(4)]


def possessive(name: str) -> str:
    """``Left`` -> ``Left's``; ``You`` -> ``Your``."""
    return "Your" if name == "You" else f"{name}'s"


def tricks_words(n: int) -> str:
    return f"{n} trick{'' if n == 1 else 's'}"


def card_words(card: str) -> str:
    """``9H`` -> ``the 9 of hearts``; ``QS`` -> ``the queen of spades``."""
    card = str(card)
    return f"the {RANK_NAMES.get(card[0], card[0])} of {SUIT_NAMES[card[1]]}"


def action_words(action: str) -> str:
    """``pass`` -> ``pass``; ``bid_9`` -> ``bid 9``; ``trump_H`` -> ``trump hearts``; ``9H`` -> ``the 9 of hearts``."""
    if action.startswith("trump_"):
        return f"trump {SUIT_NAMES[action[-1]]}"
    if action.startswith("bid_"):
        return f"bid {action[4:]}"
    return action if action == "pass" else card_words(action)


def move_words(name: str, action: str) -> str:
    """One move as the log tells it: ``Left bids 9``, ``You pass``, ``Right chooses hearts as trump``,
    ``Partner plays the 9 of hearts``."""
    if action.startswith("trump_"):
        return f"{subject_verb(name, 'choose')} {SUIT_NAMES[action[-1]]} as trump"
    if action.startswith("bid_"):
        return f"{subject_verb(name, 'bid')} {action[4:]}"
    return subject_verb(name, "pass") if action == "pass" else f"{subject_verb(name, 'play')} {card_words(action)}"


def card_label(card: str) -> str:
    """``9H`` -> ``9♥`` (``T`` is shown as 10)."""
    card = str(card)
    return ("10" if card[0] == "T" else card[0]) + SUIT_SYMBOLS[card[1]]


def contract_words(state: Mapping[str, Any], names: Sequence[str]) -> str:
    """``Left bid 9, trump hearts`` (or ``... trump not chosen yet``; empty before any contract)."""
    if state["declarer"] is None:
        return ""
    trump = SUIT_NAMES[state["trump"]] if state["trump"] else "not chosen yet"
    forced = state["phase"] != "bidding" and all(a == "pass" for _s, a in state["bidding_history"])
    how = f"must play {state['bid']} (all passed)" if forced else f"bid {state['bid']}"
    return f"{names[state['declarer']]} {how}, trump {trump}"


def play_rule(state: Mapping[str, Any], names: Sequence[str]) -> str:
    """What the rules allow the seat to play now: lead anything, follow suit, overtake."""
    trick = state["current_trick"]
    if not trick:
        return "you lead: play any card"
    seat = state["seat"]
    led = trick[0][1][1]
    win_seat, win_card = trick_winner(trick, state["trump"])
    following = [c for c in state["hand"] if c[1] == led]
    suited = following or list(state["hand"])
    must_overtake = len(state["legal_actions"]) < len(suited)
    who = "your partner" if win_seat != seat and team_of(win_seat) == team_of(seat) else "them"
    first = f"you must follow {SUIT_NAMES[led]}" if following else f"you have no {SUIT_NAMES[led]}"
    if must_overtake:
        how = "" if following else " (play a trump)"
        return f"{first}, and you must overtake: {card_words(str(win_card))} is winning for {who}{how}"
    if who == "your partner":
        first = first if following else f"{first}: play any card"
        return f"{first}; {card_words(str(win_card))} is winning for your partner, so you need not overtake"
    if following:
        return f"{first}; nothing you hold in {SUIT_NAMES[led]} beats {card_words(str(win_card))}"
    return f"{first}: play any card"


def prompt(state: Mapping[str, Any], names: Sequence[str]) -> str:
    """The status line for the learner whose turn it is."""
    phase = state["phase"]
    if phase == "bidding":
        bids = [a[4:] for a in state["legal_actions"] if a.startswith("bid_")]
        high = (f"the highest bid is {state['bid']} ({names[state['declarer']]})" if state["bid"] is not None
                else "nobody has bid yet")
        offer = f"bid {bids[0]} to {bids[-1]} or pass" if len(bids) > 1 else (
            f"bid {bids[0]} or pass" if bids else "pass (13 is the highest bid)")
        first = names[(state["dealer"] + 1) % 4]
        last = f" You bid last: if you pass too, {first} must play 7." if (
            state["bid"] is None and state["dealer"] == state["seat"]) else ""
        return f"Your bid: {high}; {offer}.{last}"
    if phase == "trump":
        return f"You won the auction with {state['bid']}: choose trump."
    return f"Your turn: {play_rule(state, names)}."


def situation(state: Mapping[str, Any], names: Sequence[str]) -> tuple[str, str]:
    """``(status text, awaiting)`` for the learner's seat: awaiting is ``bid``, ``trump``,
    ``card``, ``cpu`` or ``deal-over``."""
    if state["phase"] == "over":
        return deal_result(state, names), "deal-over"
    if state["current_player"] != state["seat"]:
        mover = names[state["current_player"]]
        doing = {"bidding": "bidding", "trump": "choosing trump", "play": "playing"}[state["phase"]]
        return f"{mover} is {doing}\u2026", "cpu"
    return prompt(state, names), {"bidding": "bid", "trump": "trump", "play": "card"}[state["phase"]]


def deal_result(state: Mapping[str, Any], names: Sequence[str]) -> str:
    """``Left's 9 in hearts was made: 10 tricks to 3. You score -9.``"""
    side = team_of(state["declarer"])
    made = state["winner"] == side
    tricks = state["tricks_won"]
    verdict = (f"made with {tricks_words(tricks[side])}" if made
               else f"defeated: the defenders took {tricks_words(tricks[1 - side])}")
    return (f"Deal over. {possessive(names[state['declarer']])} {state['bid']} in {SUIT_NAMES[state['trump']]} was "
            f"{verdict}. You score {state['payoffs'][state['seat']]:+d}.")


def refusal(state: Mapping[str, Any], action: str, names: Sequence[str]) -> str:
    """Why ``action`` cannot be played now (the learner's click was refused)."""
    if state["phase"] == "over":
        return "The deal is over: press Next deal to play on."
    if state["current_player"] != state["seat"]:
        return f"Please wait: it is {names[state['current_player']]}'s turn."
    phase = state["phase"]
    if phase == "bidding":
        try:
            said = action_words(action)
            return f"You cannot {'play ' if said.startswith('the ') else ''}{said} now. {prompt(state, names)}"
        except (KeyError, IndexError):  # not a move of Codepiece at all
            return f"That is not a move you can make now. {prompt(state, names)}"
    if phase == "trump":
        return f"Choose trump first. {prompt(state, names)}"
    rule = play_rule(state, names)
    rule = rule[0].upper() + rule[1:]
    if action in state["hand"]:
        return f"You cannot play {card_words(action)}. {rule}."
    return f"That is not a card you can play now. {rule}."


# ------------------------------------------------------------------ the rules walkthrough
def player_name(seat: int) -> str:
    """``Player 1`` for seat 0 (players 1 and 3 are partners, as are 2 and 4)."""
    return f"Player {seat + 1}"


def team_name(seat: int) -> str:
    """``team 1`` (players 1 and 3) or ``team 2`` (players 2 and 4)."""
    return f"team {team_of(seat) + 1}"


def hand_words(hand: Sequence[str]) -> str:
    """``spades 2 6 10 ace; hearts 3 7 jack`` by suit, in the hand's order (card names, never letters)."""
    by_suit: dict[str, list[str]] = {}
    for card in map(str, hand):
        by_suit.setdefault(card[1], []).append(RANK_NAMES.get(card[0], card[0]))
    return "; ".join(f"{SUIT_NAMES[s]} {' '.join(ranks)}" for s, ranks in by_suit.items())


def choices_words(actions: Sequence[str]) -> str:
    """``pass, bid 8 or bid 9``: the legal actions in words."""
    said = [action_words(str(a)) for a in actions]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]


class Walkthrough:
    """The rules shown by the engine on a deal set up by hand (each player gets every fourth card),
    told in words: ``deal()``, ``bidding()``, ``follow()``, ``finish()`` in that order."""

    def __init__(self) -> None:
        from golflab.codepiece import CARD_ORDER, CodepieceGame

        self.hands = [[str(card) for card in CARD_ORDER[seat::4]] for seat in range(4)]
        self.game = CodepieceGame.from_hands(self.hands, dealer=3)

    def deal(self) -> str:
        return "\n".join(f"{player_name(s)} ({team_name(s)}) holds {hand_words(h)}." for s, h in enumerate(self.hands))

    def bidding(self) -> str:
        g = self.game
        lines = [f"{player_name(g.current_player)} may {choices_words(g.legal_actions())}."]
        g.apply("bid_8")
        lines.append(f"After a bid of 8, {player_name(g.current_player)} may {choices_words(g.legal_actions())}.")
        for _ in range(3):
            g.apply("pass")
        lines.append(f"{player_name(g.declarer)} won the auction with {g.bid} and now chooses: "
                     f"{choices_words(g.legal_actions())}.")
        return "\n".join(lines)

    def follow(self) -> str:
        g = self.game
        g.apply("trump_S")
        g.apply("9H")
        lines = [f"Spades are trump. {player_name(0)} leads {card_words('9H')}."]
        for seat in (1, 2, 3):
            hearts = [RANK_NAMES.get(c[0], c[0]) for c in self.hands[seat] if c.endswith("H")]
            legal = g.legal_actions()
            lines.append(f"{player_name(seat)} holds the hearts {' '.join(hearts)} and may play "
                         f"{choices_words(legal)}.")
            g.apply(legal[0])
        won = g.completed_tricks[-1][1]
        lines.append(f"The trick goes to {player_name(won)}: team 1 has {tricks_words(g.tricks_won[0])}, "
                     f"team 2 has {tricks_words(g.tricks_won[1])}.")
        return "\n".join(lines)

    def finish(self) -> str:
        from golflab.codepiece import CodepieceCPU
        from golflab.codepiece.selfplay import play_deal

        g = play_deal(self.game, [CodepieceCPU(seed=seat) for seat in range(4)])
        scores = ", ".join(f"{player_name(s)} {p:+d}" for s, p in enumerate(g.payoffs))
        return (f"Team 1 took {tricks_words(g.tricks_won[0])} and team 2 took {tricks_words(g.tricks_won[1])}: "
                f"team {g.winner + 1} wins the deal.\nScores: {scores}.")
