"""Rooms under load: 10 rooms x 4 players at once on one class store, each player's page
following its room's log; the time from a move to every other page showing it, the moves
lost or duplicated, and the database statements the pages sent per second.

    .venv/bin/python benchmarks/rooms.py [--rooms 10] [--players 4] [--holes 1] [--think 0.3]
                                         [--url URL | --postgres] [--follow poll|listen|both]
                                         [--seconds N] [--timeout S] [--pages-per-process N] [--profile DIR]
                                         (default: a fresh SQLite file)

    .venv/bin/python benchmarks/rooms.py --postgres --rooms 75 --think 1 --seconds 60   # a school's 75 rooms

``--postgres`` starts a throw-away PostgreSQL cluster from Debian's packages (the tests' helper,
``tests/support/services.py``) and runs on it. ``--follow`` (PostgreSQL): the pages ``poll`` the
room every 0.15 s, ``listen`` (LISTEN/NOTIFY, with the 2 s safety poll), or ``both``, one after
the other on fresh rooms (a fresh database of the cluster with ``--postgres``), then their ratio.

A "page" here is the room board the app shows (``golflab_widgets.rooms.board.GolfRoomBoard``)
running its own following code (``RoomFollower``: on PostgreSQL it hears of changes and polls
every 2 s, else ``room.refresh()`` every 0.15 s; the ``room.claim`` heartbeat every 2 s) on an
asyncio loop, without a browser: the widget's state changes are made but go nowhere. Each of
``--players`` processes holds one page per room (so the four pages of a room are four processes,
as four Voila kernels would be), each process with its own store (its pooled connections and, to
listen, one connection of its own that its pages share, where a class has one per kernel). A
process's pages share its event loop, so one page's wait for the database holds up the others,
which a Voila kernel, one page per process, never does: ``--pages-per-process N`` spreads each
seat's pages over processes of at most N pages (more processes, closer to a class). A page whose
turn it is waits ``--think`` seconds and clicks a random legal move through ``board.act`` (the
click handler's path); seat 1's page deals the next hole.

The pages play whole games (``--timeout`` seconds at most), or with ``--seconds N`` for N seconds:
the processes start together (a barrier, once every page is built) and stop clicking together,
then each page follows until it shows every move in the store.

A move is "shown" on a page when that page's board has redrawn with it; its time is measured
from the first page that had it (the page that appended it). Printed: the median and 95th
percentile of (move, other page) delays, and, from the store's log at the end against every
page's log and its accepted clicks: moves lost (a click accepted but not in the log, or a page
missing a move) and duplicated (a move in the log twice or a log entry no page played). Goal 0.
Statements are those the pages' stores sent while they played (SQLAlchemy's ``before_cursor_execute``),
per second and per move.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import cProfile
import json
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

ROOM_DONE_TIMEOUT = 600.0  # seconds (--timeout): a room still playing then is reported, not waited for
LANDING_SECONDS = 2.0  # after the time is up: the store's moves unchanged this long, every click has landed
CATCH_UP_SECONDS = 300.0  # then at most this long for a page to show them (else they count as lost)


def setup(url: str, rooms: int, players: int, holes: int, seed: int) -> list[str]:
    """Users, rooms (every seat a learner), everyone joined, each room started; the room codes."""
    from golflab import Rules
    from golflab.classroom import Store

    store = Store(url)
    codes = []
    teacher = store.ensure_user("bench_teacher", role="teacher")  # a room is open to its host's classmates
    for r in range(rooms):
        users = [store.ensure_user(f"bench_r{r}_p{p}") for p in range(players)]
        invite = store.create_invite(store.create_class(f"bench {r}", teacher), by=teacher, max_uses=players)
        for user in users:
            store.join_class(user, invite)
        room = store.create_room(users[0], Rules(rounds=holes), seats=players, seed=seed + r)
        for user in users[1:]:
            store.join_room(room.code, user)
        room.start(by=users[0])
        codes.append(room.code)
    store.close()
    return codes


async def play_page(board, think: float, rng: random.Random, seen: dict, accepted: list, until: float,
                    woken: "collections.Counter | None" = None) -> None:
    """One learner at their page: follows the room (the board's own task) and plays their turns until
    the game is over or ``until`` (``time.monotonic()``); then it shows every move made before it stops."""
    from golflab.classroom.rooms import count_moves

    follower = board.follower
    shown = board.redraw

    def on_change(by: "str | None" = None) -> None:
        shown()
        if woken is not None and len(board.room.log) > len(seen):  # why the page read a new move
            woken[by or follower.woken_by or "opening"] += 1
        now = time.time()
        for seq in range(len(board.room.log)):
            seen.setdefault(seq, now)

    follower.on_change = on_change
    follower.start()
    while board.room.state == "playing" and time.monotonic() < until:
        table = board.room.table
        mine = table.seat_to_move == board.seat or (table.between and board.seat == 1)
        if not mine or not board.holds_seat:
            await asyncio.sleep(0.05)
            continue
        await asyncio.sleep(think)
        if time.monotonic() >= until:  # the time ran out while thinking: no click
            break
        table = board.room.table
        legal = table.legal() if (table.seat_to_move == board.seat or table.between) else []
        if not legal:
            continue
        action = rng.choice(legal)
        if board.act(action):
            accepted.append(action)
        on_change("own click")  # the clicking page shows its own move at once
    if not follower.done:  # the time is up with the room playing: no more clicks; show the moves made till now
        made, landed = -1, count_moves(board.room.store, board.room.code)
        while landed != made:  # until no click of another process lands any more
            made = landed
            await asyncio.sleep(LANDING_SECONDS)
            landed = count_moves(board.room.store, board.room.code)
        caught_up = time.monotonic() + CATCH_UP_SECONDS
        while len(board.room.log) < made and time.monotonic() < caught_up:
            await asyncio.sleep(0.05)
        follower.stop()
    while follower.running:  # the last redraw
        await asyncio.sleep(0.05)
    on_change()


@contextlib.contextmanager
def counting_statements(engine):
    """A list that grows by one for every statement ``engine`` sends inside the block."""
    from sqlalchemy import event

    statements: list = []

    def count(*_args) -> None:
        statements.append(1)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)


def worker(url: str, rooms: "list[tuple[int, str]]", seat: int, think: float, seed: int, listen: bool,
           seconds: float, ready, out, profile: "str | None" = None) -> None:
    """One process: the pages of ``seat`` in ``rooms`` (index, code) (``profile``: a folder for its
    cProfile statistics, ``seat<N>-<first room>.pstats``)."""
    from golflab_widgets.rooms.board import GolfRoomBoard

    from golflab.classroom import Store

    store = Store(url)

    async def main():
        pages, woken = [], collections.Counter()
        for r, code in rooms:
            user = store.user(f"bench_r{r}_p{seat}")
            board = GolfRoomBoard(store.room(code), seat, user, follow=False)
            board.follower.listen = listen
            pages.append((r, board, {}, []))
        ready.wait()  # every process has its pages: the clicks start (and, with --seconds, stop) together
        began = time.monotonic()
        with counting_statements(store.engine) as statements:  # while the pages play
            await asyncio.gather(*(play_page(b, think, random.Random(seed * 100 + r * 10 + seat), seen, acc,
                                             began + seconds, woken)
                                   for r, b, seen, acc in pages))
        return {r: (b.room.code, seen, acc, [tuple(e) for e in b.room.log], b.room.state)
                for r, b, seen, acc in pages}, len(statements), time.monotonic() - began, dict(woken)

    profiler = cProfile.Profile() if profile else None
    if profiler:
        profiler.enable()
    out.put((seat, *asyncio.run(main())))
    if profiler:
        profiler.disable()
        profiler.dump_stats(Path(profile) / f"seat{seat}-{rooms[0][0]}.pstats")
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
    parser.add_argument("--timeout", type=float, default=ROOM_DONE_TIMEOUT,
                        help="seconds a page plays before its room is reported unfinished")
    parser.add_argument("--seconds", type=float, default=None,
                        help="play this long, not whole games: the pages stop together, then show every move")
    parser.add_argument("--pages-per-process", type=int, default=0, metavar="N",
                        help="at most N pages in one process (default: one process holds a seat's page in every "
                             "room; a Voila kernel holds one page)")
    parser.add_argument("--profile", default=None, metavar="DIR",
                        help="write each page process's cProfile statistics to DIR/seat<N>.pstats (slows the pages)")
    parser.add_argument("--url", default=None, help="the class store (default: a fresh SQLite file)")
    parser.add_argument("--postgres", action="store_true", help="on a throw-away PostgreSQL cluster")
    parser.add_argument("--follow", choices=("poll", "listen", "both"), default="both",
                        help="how the pages follow a room on PostgreSQL (SQLite always polls)")
    args = parser.parse_args(argv)
    modes = ("poll", "listen") if args.follow == "both" else (args.follow,)
    import machine  # beside this script

    print(machine.line(), flush=True)  # the latencies depend on the machine's spare CPU
    if args.postgres:
        from tests.support.services import postgres_server

        # a page process keeps a few pooled connections and one listening connection
        with postgres_server({"max_connections": str(max(200, 8 * args.players + 50))}) as pg:
            report({mode: run(args, pg.new_database(f"rooms_{mode}"), mode) for mode in modes})
        return
    url = args.url or f"sqlite:///{tempfile.mkdtemp(prefix='golflab-rooms-')}/rooms.db"
    report({mode: run(args, url, mode) for mode in (modes if url.startswith("postgresql") else ("poll",))})


def report(figures: dict) -> None:
    """The polling and the listening runs side by side: statements per second and latency, as ratios."""
    if len(figures) == 2 and all(figures.values()):
        poll, listen = figures["poll"], figures["listen"]
        print("polling / LISTEN: statements per second "
              f"{poll['statements_per_s']:.0f} / {listen['statements_per_s']:.0f} = "
              f"{poll['statements_per_s'] / listen['statements_per_s']:.2f}, per move "
              f"{poll['statements_per_move']} / {listen['statements_per_move']} = "
              f"{poll['statements_per_move'] / listen['statements_per_move']:.2f}; median latency "
              f"{poll['median_ms']:.0f} / {listen['median_ms']:.0f} ms = "
              f"{poll['median_ms'] / listen['median_ms']:.2f}; "
              f"95th percentile {poll['p95_ms']:.0f} / {listen['p95_ms']:.0f} ms = "
              f"{poll['p95_ms'] / listen['p95_ms']:.2f}")
    print(json.dumps(figures))


def run(args, url: str, mode: str) -> dict:
    """One run with the pages following by ``mode`` (poll or listen); its figures."""
    codes = setup(url, args.rooms, args.players, args.holes, args.seed)
    print(f"{args.rooms} rooms x {args.players} players, {args.holes} hole(s), think {args.think}s, "
          f"following by {mode}, store {url}", flush=True)
    ctx = mp.get_context("spawn")
    per, rooms = args.pages_per_process or len(codes), list(enumerate(codes))
    chunks = [rooms[i:i + per] for i in range(0, len(rooms), per)]
    out, ready = ctx.Queue(), ctx.Barrier(args.players * len(chunks))
    began, load = time.time(), os.getloadavg()
    procs = [ctx.Process(target=worker,
                         args=(url, chunk, seat, args.think, args.seed, mode == "listen", args.seconds or args.timeout,
                               ready, out, args.profile))
             for seat in range(args.players) for chunk in chunks]
    for p in procs:
        p.start()
    results, sent, rate, woken = collections.defaultdict(dict), 0, 0.0, collections.Counter()  # statements; per s
    for _ in procs:
        seat, pages, count, seconds, woke = out.get()
        results[seat].update(pages)
        sent, rate = sent + count, rate + count / seconds
        woken.update(woke)
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
    print(f"{moves} moves in {wall:.1f} s; rooms still playing at the end: {unfinished}; machine load average "
          f"{load[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end ({os.cpu_count()} CPUs)")
    figures = {"woken": dict(woken), "moves": moves, "lost": lost, "duplicated": duplicated, "unfinished": unfinished,
               "seconds": round(wall, 1), "statements_per_s": round(rate, 1),
               "statements_per_move": round(sent / max(1, moves), 1),
               "load": [round(load[0], 1), round(os.getloadavg()[0], 1)]}
    if delays:
        figures.update(median_ms=round(statistics.median(delays) * 1000), p95_ms=round(percentile(delays, 0.95) * 1000),
                       max_ms=round(max(delays) * 1000))
        print(f"move -> every other page showing it: median {figures['median_ms']} ms, "
              f"95th percentile {figures['p95_ms']} ms, max {figures['max_ms']} ms "
              f"({len(delays)} (move, page) pairs)")
    print(f"a page showed a new move after: {', '.join(f'{k} {v}' for k, v in woken.most_common())}")
    print(f"moves lost: {lost}; moves duplicated: {duplicated}; database statements: {rate:.0f} per second, "
          f"{figures['statements_per_move']} per move", flush=True)
    return figures


if __name__ == "__main__":
    main()
