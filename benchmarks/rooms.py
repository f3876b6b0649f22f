"""Rooms under load: 10 rooms x 4 players at once on one class store, each player's page
following its room's log; the time from a move to every other page showing it, and the moves
lost or duplicated.

    .venv/bin/python benchmarks/rooms.py [--rooms 10] [--players 4] [--holes 1] [--think 0.3]
                                         [--url URL | --postgres]  (default: a fresh SQLite file)

``--postgres`` starts a throw-away PostgreSQL cluster from Debian's packages (as the tests do,
``tests/support/services.py``) and runs on it.

A "page" here is the room board the app shows (``golflab_widgets.rooms.board.GolfRoomBoard``)
running its own following code (``RoomFollower``: ``room.refresh()`` every 0.15 s, the
``room.claim`` heartbeat every 2 s) on an asyncio loop, without a browser: the widget's state
changes are made but go nowhere. Each of ``--players`` processes holds one page per room (so
the four pages of a room are four processes, as four Voila kernels would be), each with its own
store connection. A page whose turn it is waits ``--think`` seconds and clicks a random legal
move through ``board.act`` (the click handler's path); seat 1's page deals the next hole.

A move is "shown" on a page when that page's board has redrawn with it; its time is measured
from the first page that had it (the page that appended it). Printed: the median and 95th
percentile of (move, other page) delays, and, from the store's log at the end against every
page's log and its accepted clicks: moves lost (a click accepted but not in the log, or a page
missing a move) and duplicated (a move in the log twice or a log entry no page played). Goal 0.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ROOM_DONE_TIMEOUT = 600.0  # seconds: a room still playing then is reported, not waited for


def setup(url: str, rooms: int, players: int, holes: int, seed: int) -> list[str]:
    """Users, rooms (every seat a learner), everyone joined, each room started; the room codes."""
    from golflab import Rules
    from golflab.classroom import Store

    store = Store(url)
    codes = []
    for r in range(rooms):
        users = [store.ensure_user(f"bench_r{r}_p{p}") for p in range(players)]
        room = store.create_room(users[0], Rules(rounds=holes), seats=players, seed=seed + r)
        for user in users[1:]:
            store.join_room(room.code, user)
        room.start(by=users[0])
        codes.append(room.code)
    store.close()
    return codes


async def play_page(board, think: float, rng: random.Random, seen: dict, accepted: list) -> None:
    """One learner at their page: follows the room (the board's own task) and plays their turns."""
    follower = board.follower
    shown = board.redraw

    def on_change() -> None:
        shown()
        now = time.time()
        for seq in range(len(board.room.log)):
            seen.setdefault(seq, now)

    follower.on_change = on_change
    follower.start()
    start = time.monotonic()
    while board.room.state == "playing" and time.monotonic() - start < ROOM_DONE_TIMEOUT:
        table = board.room.table
        mine = table.seat_to_move == board.seat or (table.between and board.seat == 1)
        if not mine or not board.holds_seat:
            await asyncio.sleep(0.05)
            continue
        await asyncio.sleep(think)
        table = board.room.table
        legal = table.legal() if (table.seat_to_move == board.seat or table.between) else []
        if not legal:
            continue
        action = rng.choice(legal)
        if board.act(action):
            accepted.append(action)
        on_change()  # the clicking page shows its own move at once
    while follower.running:  # the last redraw
        await asyncio.sleep(0.05)
    on_change()


def worker(url: str, codes: list[str], seat: int, think: float, seed: int, out) -> None:
    """One process: the pages of ``seat`` in every room."""
    from golflab_widgets.rooms.board import GolfRoomBoard

    from golflab.classroom import Store

    store = Store(url)

    async def main():
        pages = []
        for r, code in enumerate(codes):
            user = store.user(f"bench_r{r}_p{seat}")
            board = GolfRoomBoard(store.room(code), seat, user, follow=False)
            pages.append((code, board, {}, []))
        await asyncio.gather(*(play_page(b, think, random.Random(seed * 100 + r * 10 + seat), seen, acc)
                               for r, (code, b, seen, acc) in enumerate(pages)))
        return [(code, seen, acc, [tuple(e) for e in b.room.log], b.room.state) for code, b, seen, acc in pages]

    out.put((seat, asyncio.run(main())))
    store.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--holes", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.3, help="seconds a player takes per move")
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--url", default=None, help="the class store (default: a fresh SQLite file)")
    parser.add_argument("--postgres", action="store_true", help="on a throw-away PostgreSQL cluster")
    args = parser.parse_args(argv)
    if args.postgres:
        sys.path.insert(0, str(ROOT / "tests"))
        from services import postgres_server

        with postgres_server() as pg:
            run(args, pg.url)
        return
    run(args, args.url or f"sqlite:///{tempfile.mkdtemp(prefix='golflab-rooms-')}/rooms.db")


def run(args, url: str) -> None:
    codes = setup(url, args.rooms, args.players, args.holes, args.seed)
    print(f"{args.rooms} rooms x {args.players} players, {args.holes} hole(s), think {args.think}s, store {url}")
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    began, load = time.time(), os.getloadavg()
    procs = [ctx.Process(target=worker, args=(url, codes, seat, args.think, args.seed, out))
             for seat in range(args.players)]
    for p in procs:
        p.start()
    results = dict(out.get() for _ in procs)
    for p in procs:
        p.join()
    wall = time.time() - began

    from golflab.classroom import Store

    store = Store(url)
    delays, lost, duplicated, unfinished, moves = [], 0, 0, 0, 0
    for r, code in enumerate(codes):
        log = [tuple(e) for e in store.room(code).log]
        moves += len(log)
        pages = [results[seat][r] for seat in range(args.players)]
        if any(state != "over" for *_x, state in pages):
            unfinished += 1
        for seq in range(len(log)):
            times = [seen[seq] for _c, seen, _a, _l, _s in pages if seq in seen]
            lost += args.players - len(times)  # a page that never showed this move
            first = min(times)
            delays.extend(t - first for t in times if t != first or times.count(first) > 1)
        for seat, (_c, _seen, accepted, page_log, _s) in enumerate(pages):
            if page_log != log:
                lost += max(0, len(log) - len(page_log))
                duplicated += max(0, len(page_log) - len(log))
            played = [a for s, a, cpu in log if not cpu and (s == seat or (s is None and seat == 1))]
            lost += max(0, len(accepted) - len(played))
            duplicated += max(0, len(played) - len(accepted))
    store.close()
    print(f"{moves} moves in {wall:.1f} s; rooms unfinished: {unfinished}; machine load average "
          f"{load[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end ({os.cpu_count()} CPUs)")
    if delays:
        print(f"move -> every other page showing it: median {statistics.median(delays) * 1000:.0f} ms, "
              f"95th percentile {percentile(delays, 0.95) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms "
              f"({len(delays)} (move, page) pairs)")
    print(f"moves lost: {lost}; moves duplicated: {duplicated}")


if __name__ == "__main__":
    main()
