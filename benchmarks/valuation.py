"""Which valuation should the coach teach: each candidate's regret and the time of one hint.

Candidates (``golflab.coach.valuation.value``, the options raced as a hint races them, within
``hints.HINT_ROLLOUTS``): the rollouts look 2 or 3 table rounds ahead, or to the end of the
hole (``valuation.END_OF_HOLE``), *draw* and *take* valued by the rollout policy's use of the
card (``policy``) or as a chance node over the drawn card, each card by its best use: the best
by one-step EV (``chance, EV use``) or the best of three raced on rollouts (``chance, 3 uses``,
as the Expert's search chose them).

Positions: decisions with a choice from games of four CPU personalities
(``coach_precision.positions``). For each position, references value every option on
``--samples`` determinizations drawn from an independent seed (the observation's seed xor
``REFERENCE_SEED``, its best uses too): the *same-horizon* reference with the candidate's own
horizon and treatment of *draw*, and the *end-of-hole* reference, rollouts to the end of the
hole with *draw* a chance node (``valuation.reference``: the best use of the drawn
card, what a player following the coach then does). Regret: the reference's points lost by
the candidate's first option against the reference's best; ``>=0.5``: positions where that
loss is half a point or more; ``draw``: the mean regret on the draw decisions alone. Time:
the CPU time of one hint (cache emptied; median of ``--repeats`` runs), its median and 95th
percentile over the positions.

``nice -n 19 python benchmarks/valuation.py --positions 40 --samples 400`` (defaults 20 and
300; ``--seed`` the positions' first game seed, ``--json FILE`` every number kept, ``--pool A B``
the table of several ``--json`` runs joined: run two with other ``--seed``s on two cores).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

from coach_precision import end_reference, pct, positions

from golflab.coach import card_use, hints, rollouts, valuation

REFERENCE_SEED = 0x5EED_E0D
HORIZONS = (("2 rounds", 2), ("3 rounds", 3), ("end of hole", valuation.END_OF_HOLE))
TREATMENTS = (("policy", 0), ("chance, EV use", 1), ("chance, 3 uses", 3))


def reference(obs, samples: int, horizon: int, chance: int) -> dict[str, float]:
    """Every option's value on ``samples`` determinizations from the independent seed
    (``coach_precision.end_reference`` at ``horizon``)."""
    return end_reference(obs, samples, REFERENCE_SEED, horizon, chance)


def hint_first(obs, horizon: int, chance: int, repeats: int) -> tuple[str, float]:
    """The candidate's first option and the median CPU seconds of one hint (cache emptied)."""
    legal = tuple(a.notation for a in obs.legal_actions)
    times, first = [], None
    for _ in range(repeats):
        hints.clear_cache()
        start = time.process_time()
        first = hints.evaluate(obs, legal, None, hints.HINT_ROLLOUTS, horizon=horizon, chance=chance)[0].action
        times.append(time.process_time() - start)
    return first, statistics.median(times)


def regret(ref: dict[str, float], choice: str) -> float:
    return ref[choice] - min(ref.values())


def measure(count: int, samples: int, repeats: int, seed: int) -> list[dict]:
    """One row per position: its draw flag and, per candidate, choice, regrets and time."""
    obs_list = positions(count, seed)
    rollouts.KERNEL_MIN_ROLLOUTS = 0  # the compiled kernel from the first hint
    hint_first(obs_list[0], 2, False, 1)  # load the kernel before timing
    rows, start = [], time.perf_counter()
    for i, obs in enumerate(obs_list):
        chance_here = valuation.is_chance_node(obs)
        end = end_reference(obs, samples, REFERENCE_SEED)
        row = {"position": i, "draw": chance_here, "candidates": {}}
        same_refs: dict = {(valuation.END_OF_HOLE, card_use.USES if chance_here else 0): end}
        for label, horizon in HORIZONS:
            for name, chance in TREATMENTS:
                key = (horizon, chance if chance_here else 0)
                if key not in same_refs:
                    same_refs[key] = reference(obs, samples, *key)
                choice, cpu = hint_first(obs, horizon, chance, repeats)
                row["candidates"][f"{label}, {name}"] = {
                    "choice": choice, "cpu": cpu, "same": regret(same_refs[key], choice), "end": regret(end, choice)}
        rows.append(row)
        print(f"position {i + 1}/{count} ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return rows


def table(rows: list[dict]) -> str:
    """The table of the module's docstring, one line per candidate."""
    lines = ["| valuation | regret, same horizon | >=0.5 | regret, end of hole | >=0.5 | draw decisions, end "
             "| CPU ms median | p95 |", "|---|---|---|---|---|---|---|---|"]
    n, draws = len(rows), [r for r in rows if r["draw"]]
    for name in rows[0]["candidates"]:
        got = [r["candidates"][name] for r in rows]
        same, end = [g["same"] for g in got], [g["end"] for g in got]
        cpu = [1000 * g["cpu"] for g in got]
        on_draws = [r["candidates"][name]["end"] for r in draws]
        lines.append(
            f"| {name} | {statistics.mean(same):.3f} | {sum(x >= 0.5 for x in same)}/{n} | {statistics.mean(end):.3f} "
            f"| {sum(x >= 0.5 for x in end)}/{n} | {statistics.mean(on_draws) if on_draws else 0:.3f} ({len(draws)}) "
            f"| {statistics.median(cpu):.0f} | {pct(cpu, 0.95):.0f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--samples", type=int, default=300, help="determinizations per option of a reference")
    parser.add_argument("--repeats", type=int, default=1, help="timed runs of each hint (the median is kept)")
    parser.add_argument("--seed", type=int, default=100, help="the first game seed of the positions")
    parser.add_argument("--json", help="write every row to this file")
    parser.add_argument("--pool", nargs="+", metavar="FILE", help="print the table of these --json files joined")
    args = parser.parse_args(argv)
    if args.pool:
        pooled = []
        for path in args.pool:
            with open(path) as f:
                pooled += json.load(f)
        print(f"{len(pooled)} positions from {', '.join(args.pool)}")
        print(table(pooled))
        return
    rows = measure(args.positions, args.samples, args.repeats, args.seed)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f)
    print(f"{args.positions} positions (seed {args.seed}), references {args.samples} samples per option "
          f"(seed xor {REFERENCE_SEED:#x}), hint budget {hints.HINT_ROLLOUTS} rollouts; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(table(rows))


if __name__ == "__main__":
    main()
