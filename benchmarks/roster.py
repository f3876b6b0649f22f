"""The teacher's dashboard for a class of 30 and 300 learners on PostgreSQL: how many SQL
statements and how long the roster, the CSV export and the stuck list take, and the whole
dashboard widget (``ClassDashboard``: opened, then Refresh pressed), as a teacher's page runs it.

    .venv/bin/python benchmarks/roster.py [--sizes 30 300] [--runs 5]

Starts a PostgreSQL cluster from Debian's packages (as the tests do), fills one class per size
(each learner: 4 exercise attempts, 6 puzzle attempts, 2 kept game rows), then times each call
(median of ``--runs``) and counts its statements (SQLAlchemy's ``before_cursor_execute``). The
dashboard's figure includes drawing its table and charts in the kernel (not in the browser).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from golflab_widgets.account.dashboard import ClassDashboard  # noqa: E402
from golflab_widgets.account.session import PageSession  # noqa: E402
from rooms import counting_statements  # noqa: E402  (benchmarks/rooms.py, beside this script)
from sqlalchemy import insert  # noqa: E402

from golflab.classroom import Store, schema  # noqa: E402
from tests.support.services import postgres_server  # noqa: E402


def fill(store: Store, size: int):
    teacher = store.create_user("mrs_lee", role="teacher")
    klass = store.create_class("6B", teacher=teacher)
    invite = store.create_invite(klass, by=teacher, max_uses=size)
    game = {"seat": 0, "seed": "1", "players": '["a", "b"]', "rules": "{}", "scores": "[10, 12]", "holes": 9,
            "points": 10, "accuracy": 80.0, "blunders": 1, "room": None, "save": "{}"}
    for i in range(size):
        kid = store.create_user(f"kid{i:03d}")
        store.join_class(kid, invite)
        for j in range(4):
            store.record_exercise(kid, f"lesson{j % 2}", f"item{j}", j % 3 == 0, lesson_items=2, skill="pairs")
        for j in range(6):
            store.record_puzzle(kid, f"p{j}", (i + j) % 3 == 0, skill="knocking")
        store.transaction(lambda conn, kid=kid: conn.execute(insert(schema.games), [
            {**game, "user_id": kid.id, "played_at": 1.0 + n} for n in range(2)]))
    return teacher, klass


def measure(store: Store, call, runs: int) -> dict:
    with counting_statements(store.engine) as statements:
        call()
    seconds = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - began)
    return {"statements": len(statements), "median_ms": round(statistics.median(seconds) * 1000, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 300])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results = {}
    with postgres_server() as pg:
        for size in args.sizes:
            store = Store(pg.new_database(f"roster_{size}"))
            teacher, klass = fill(store, size)
            results[size] = {name: measure(store, lambda m=getattr(store, name), k=klass, t=teacher: m(k, by=t),
                                           args.runs) for name in ("roster", "export_csv", "stuck")}
            session = PageSession(store, teacher)
            results[size]["dashboard opened"] = measure(store, lambda s=session: ClassDashboard(s), args.runs)
            dashboard = ClassDashboard(session)
            results[size]["dashboard refreshed"] = measure(store, dashboard.refresh, args.runs)
            store.close()
            print(f"{size} learners: " + ", ".join(f"{k} {v['statements']} statements, {v['median_ms']} ms"
                                                   for k, v in results[size].items()), flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
