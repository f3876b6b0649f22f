"""The games a room can hold, behind one small interface the room's log drives:
``seat_to_move`` (None while nobody is: a hole or deal over, or the game over), ``legal()``,
``apply(action)`` (``"next"`` deals the next hole or deal), ``cpu_action(name, seed)``, ``over``,
``view(seat)`` (what that seat may see), ``players``, ``cpu_covers_away`` (a CPU plays an away
player's turns) and ``rated`` (the end moves table ratings). Golf and Codepiece here; a teacher's
study (``study_game``) is made by ``Store.create_study`` only."""

from __future__ import annotations

from golflab.actions import IllegalActionError
from golflab.ai import CPUPlayer
from golflab.codepiece import CodepieceCPU, CodepieceMatch
from golflab.game import Game, Phase
from golflab.rules import Rules

from .study_game import StudyRoomGame

NEXT = "next"  # the log's action for "deal the next hole (or deal)"
GAMES = ("golf", "codepiece")
CODEPIECE_SEATS = 4
CODEPIECE_DEALS = (1, 8)  # the fewest and most deals a Codepiece room may play


class GolfRoomGame:
    kind = "golf"
    cpu_covers_away = rated = True

    def __init__(self, players: "list[str]", rules: dict, seed: int) -> None:
        self.game = Game(players=players, rules=Rules.from_dict(rules), seed=seed)

    @property
    def players(self) -> tuple:
        return tuple(self.game.players)

    @property
    def over(self) -> bool:
        return self.game.phase == Phase.GAME_OVER

    @property
    def between(self) -> bool:
        """A hole is over and the next one is not dealt yet."""
        return self.game.phase == Phase.ROUND_OVER

    @property
    def seat_to_move(self) -> "int | None":
        return None if self.over or self.between else self.game.current_player

    def legal(self) -> list[str]:
        return [NEXT] if self.between else [str(a) for a in self.game.legal_actions()]

    def apply(self, action: str) -> None:
        if action == NEXT:
            self.game.next_round()
        else:
            self.game.apply(action)

    def cpu_action(self, name: str, seed: int) -> str:
        seat = self.game.current_player
        return str(CPUPlayer(name, seed=seed).choose(self.game.observation(seat)))

    def view(self, seat: int):
        return self.game.observation(seat)

    @property
    def totals(self) -> list[int]:
        return list(self.game.totals)

    def ranks(self) -> list[int]:
        """Places at the end, 1 the best (golf: fewest points)."""
        totals = self.totals
        return [1 + sum(t < mine for t in totals) for mine in totals]


class CodepieceRoomGame:
    kind = "codepiece"
    cpu_covers_away = rated = True

    def __init__(self, players: "list[str]", rules: dict, seed: int) -> None:
        self.match = CodepieceMatch(deals=rules.get("deals", 4), seed=seed)
        self._players = tuple(players)

    @property
    def players(self) -> tuple:
        return self._players

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def between(self) -> bool:
        return self.match.deal_over and not self.match.over

    @property
    def seat_to_move(self) -> "int | None":
        return None if self.match.deal_over else self.match.game.current_player

    def legal(self) -> list[str]:
        return [NEXT] if self.between else ([] if self.over else list(self.match.game.legal_actions()))

    def apply(self, action: str) -> None:
        if action == NEXT:
            self.match.next_deal()
        else:
            self.match.apply(action)

    def cpu_action(self, name: str, seed: int) -> str:
        game = self.match.game
        return CodepieceCPU(seed=seed).choose(game.state(game.current_player))

    def view(self, seat: int) -> dict:
        return self.match.game.state(seat)

    @property
    def totals(self) -> list[int]:
        return list(self.match.scores)

    def ranks(self) -> list[int]:
        """Places at the end, 1 the best (Codepiece: the most points; partners share a place)."""
        totals = self.totals
        return [1 + sum(t > mine for t in totals) for mine in totals]


def new_room_game(kind: str, players: "list[str]", rules: dict, seed: int):
    if kind == "golf":
        return GolfRoomGame(players, rules, seed)
    if kind == "codepiece":
        return CodepieceRoomGame(players, rules, seed)
    if kind == StudyRoomGame.kind:
        return StudyRoomGame(players, rules, seed)
    raise ValueError(f"a room plays one of {', '.join(GAMES)}, got {kind!r}")


__all__ = ["CODEPIECE_SEATS", "GAMES", "NEXT", "CodepieceRoomGame", "GolfRoomGame", "IllegalActionError",
           "new_room_game"]
