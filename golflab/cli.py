"""The command line: ``python -m golflab simulate ...``, ``sweep ...`` and ``rules``.

Bad input (an unknown personality, a bad rule name or value, a bad ``DEFAULT_*``
environment variable, a bad number, an empty file name or address, argparse's own
complaints) is one line on stderr naming what is wrong and what is allowed, with exit
code 2 and no traceback (with no command, the usage line comes first). Output that
cannot be written (stdout closed, a full disk) is one line, exit code 1. Ctrl-C is one
line, exit code 130; SIGTERM likewise, exit code 143; either way nothing half-written is
left behind. ``simulate`` keeps only running totals and writes ``--csv`` rows as they
come, so its memory does not grow with ``--games``. ``sweep`` (``golflab.sweep``)
resumes an interrupted run from its ``--out`` file.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from .ai import CPU_NAMES_TEXT, personality_names
from .cli_output import (
    CsvRounds,
    OutputError,
    Terminated,
    UsageError,
    complain,
    discard_stdout,
    flush,
    on_sigterm,
    say,
    sigterm_held,
    watching,
    write,
)
from .rules import RULE_HELP, Rules
from .ruletext import parse_rule, parse_rule_value  # noqa: F401 (parse_rule_value: read from here too)
from .sim.games import resolve_players

EXIT_OUTPUT = 1  # the output could not be written
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C
EXIT_TERMINATED = 143  # 128 + SIGTERM


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own errors: one line, exit 2
        raise UsageError(f"{message} (see {self.prog} --help)")

    def print_help(self, file=None) -> None:  # argparse drops a write error: report it
        if file is None:
            write(self.format_help())
        else:
            super().print_help(file)


def parse_rules(items: Sequence[str]) -> Rules:
    """Rules from ``name=value`` items; a bad name or value is a UsageError."""
    options = {}
    for item in items:
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UsageError(f"--rule expects name=value (for example flip_mode=always), got {item!r}")
        if name not in RULE_HELP:
            raise UsageError(f"unknown rule {name!r}: allowed rules are {', '.join(RULE_HELP)}")
        options[name] = parse_rule(name, raw)
    try:
        return Rules(**options)
    except ValueError as exc:  # a bad value, or a bad DEFAULT_* variable in the environment
        raise UsageError(f"bad rule: {exc}" if options else str(exc)) from None


def _whole_number(name: str, minimum: int | None = None):
    """An argparse type: a whole number (at least ``minimum``) of at most the digits Python
    converts (``sys.get_int_max_str_digits``); anything else is refused saying so."""
    what = f"{name} must be a whole number" + (f" >= {minimum}" if minimum is not None else "")

    def convert(text: str) -> int:
        digits = text.strip().lstrip("+-")
        limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
        if digits.isdigit() and limit and len(digits) > limit:
            raise argparse.ArgumentTypeError(f"{what} of at most {limit} digits, got one of {len(digits)} digits")
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what}, got {text!r}") from None
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(f"{what}, got {value}")
        return value

    return convert


def _positive(name: str):
    return _whole_number(name, 1)


def _given(name: str, what: str):
    """An argparse type: a non-empty ``what`` (an empty one is refused, not ignored; so is a
    NUL character, which no file name or address holds)."""

    def convert(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{name} needs {what}, got {text!r}")
        if "\x00" in text:
            raise argparse.ArgumentTypeError(f"{name} needs {what} without a NUL character, got {text!r}")
        return text

    return convert


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="golflab", description="6-Card Golf: simulate CPU personalities, list the rules.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sim = sub.add_parser("simulate", help="play many games between CPU personalities and summarise them",
                         description="Play GAMES complete games between CPU personalities and print a "
                                     "per-personality summary (mean round score, win rates, go-out rate, "
                                     "turns per round, blunders and mistakes).")
    sim.add_argument("--players", required=True,
                     help=f"2-6 comma-separated CPU players from {CPU_NAMES_TEXT}; e.g. Sofia,Maya or "
                          "\"Level 3,Maya\" (a name may repeat)")
    sim.add_argument("--games", type=_positive("--games"), default=100, help="number of games (default 100)")
    sim.add_argument("--seed", type=_whole_number("seed"), default=0, help="master seed (default 0)")
    sim.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                     help="a rule option, repeatable: e.g. flip_mode=always, rounds=1, knock_bonus=true "
                          "(see `golflab rules`)")
    sim.add_argument("--processes", type=_positive("--processes"), default=1, help="worker processes (default 1)")
    sim.add_argument("--json", action="store_true", help="print the summary and quality counters as JSON")
    sim.add_argument("--csv", metavar="FILE", type=_given("--csv", "a file name"),
                     help="also write one row per player per hole to FILE (CSV)")
    sim.add_argument("--no-analysis", action="store_true", help="skip grading decisions (faster)")
    sweep = sub.add_parser("sweep", help="summarise a grid of house-rule combinations x lineups into a table",
                           description="Play GAMES games for every combination of the --grid rule values with "
                                       "each --players lineup and write one row per personality per cell to "
                                       "--out (CSV; .parquet needs pyarrow). Rerun the same command after an "
                                       "interruption: finished cells are kept, not recomputed.")
    sweep.add_argument("--players", required=True, action="append", metavar="LINEUP",
                       help=f"2-6 comma-separated CPU players from {CPU_NAMES_TEXT}, e.g. Sofia,Maya; "
                            "repeatable (one lineup each)")
    sweep.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2",
                       help="a rule and the values to sweep, repeatable: e.g. flip_mode=never,always")
    sweep.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                       help="a rule option fixed for every cell, repeatable (see `golflab rules`)")
    sweep.add_argument("--games", type=_positive("--games"), default=100, help="games per cell (default 100)")
    sweep.add_argument("--seed", type=_whole_number("seed"), default=0, help="master seed of every cell (default 0)")
    sweep.add_argument("--out", required=True, metavar="FILE", type=_given("--out", "a file name"),
                       help="the table to write (and resume): .csv or .parquet")
    where = sweep.add_mutually_exclusive_group()
    where.add_argument("--processes", type=_positive("--processes"), default=1,
                       help="local worker processes (default 1)")
    where.add_argument("--scheduler", metavar="ADDRESS", type=_given("--scheduler", "an address"),
                       help="a Dask scheduler's address, e.g. tcp://host:8786")
    sweep.add_argument("--no-analysis", action="store_true", help="skip grading decisions (faster)")
    sub.add_parser("rules", help="list the rule options with their help text",
                   description="List the rule options (for --rule) with defaults and help text.")
    sub.add_parser("class", add_help=False,  # dispatched in main, listed here for --help
                   help="classes, invite codes and learners in the class store (see golflab class --help)")
    return parser


def _rules_text() -> str:
    defaults = parse_rules([]).to_dict()  # the environment's defaults: a bad one is a UsageError
    width = max(map(len, RULE_HELP))
    return "\n".join(f"{name:<{width}}  default {defaults[name]!s:<6}  {text}" for name, text in RULE_HELP.items())


def _lineup(text: str) -> list:
    """A ``--players`` value as personalities; a bad one is a UsageError."""
    try:
        personality_names(text, where=" in --players")
        return resolve_players(text.split(","))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _simulate(args) -> int:
    from .sim.run import auto_progress
    from .simulation import summarize  # local: the simulation (about 60 ms to import) only for this command

    rules = parse_rules(args.rule)
    players = _lineup(args.players)
    complete, csv = False, None
    try:
        with sigterm_held():  # a SIGTERM before `csv` holds the file would leave the file
            csv = CsvRounds(args.csv) if args.csv is not None else None
        result = summarize(players, args.games, rules=rules, seed=args.seed, processes=args.processes,
                           analyze=not args.no_analysis, rounds=csv, progress=watching(auto_progress(None)))
        complete = True
    except ValueError as exc:  # e.g. a deck too small for the table
        raise UsageError(str(exc)) from None
    finally:
        if csv is not None:
            csv.finish(complete)
    if args.json:
        say(json.dumps(result.to_dict(), indent=2))
        return 0
    summary = result.summary().dropna(axis=1, how="all")  # no grade counts without analysis
    lines = [f"{args.games} games · {', '.join(result.players)} · seed {args.seed} · {rules.describe()}",
             summary.to_string(index=False, float_format=lambda x: f"{x:.3f}")]
    if result.quality.total_decisions:
        q = result.quality
        rates = q.rates()
        lines.append(f"\n{q.total_turns} turns, {q.total_decisions} decisions graded: "
                     + ", ".join(f"{n.lower()} {c}" for n, c in q.grades.items()))
        lines.append("named cases per turn: " + ", ".join(f"{k} {getattr(q, k)} ({v:.3%})" for k, v in rates.items()))
    say("\n".join(lines))
    return 0


def _client(address: str):
    """A Dask distributed Client connected to ``address``; UsageError if it cannot be."""
    try:
        from distributed import Client  # local: optional (Dask), only with --scheduler
    except ImportError:
        raise UsageError("--scheduler needs Dask distributed: pip install distributed") from None
    try:
        return Client(address, timeout="10s")
    except (OSError, ValueError, TypeError) as exc:  # unreachable, or not an address
        raise UsageError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from None


def _sweep(args) -> int:
    from .sweep import SweepBar, check_out, make_cells, parse_grid, run_sweep  # local: only for this command

    try:
        check_out(args.out)  # at once: before any work
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    fixed = {k: v for k, v in parse_rules(args.rule).to_dict().items()
             if k in {item.partition("=")[0].strip() for item in args.rule}}
    lineups = [_lineup(text) for text in args.players]
    try:
        grid = parse_grid(args.grid, parse_rule)
        cells = make_cells(lineups, fixed, grid)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    client = _client(args.scheduler) if args.scheduler is not None else None
    bar = SweepBar()
    try:
        skipped = run_sweep(cells, grid, args.games, args.seed, args.out, processes=args.processes,
                            executor=client, analyze=not args.no_analysis, progress=watching(bar))
    except ValueError as exc:  # e.g. --out holds another sweep
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write --out {args.out}: {exc.strerror or exc}") from None
    finally:
        bar.close()
        if client is not None:
            client.close()
    kept = f" ({skipped} kept from an earlier run)" if skipped else ""
    say(f"{len(cells)} cells{kept} · {args.games} games each · seed {args.seed} -> {args.out}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0; 1 if the output cannot be written; 2
    for bad input; 130 after Ctrl-C, 143 after SIGTERM)."""
    if argv is None:
        argv = sys.argv[1:]
    if list(argv[:1]) == ["class"]:  # the class store's admin commands: golflab.classroom.cli
        from .classroom.cli import main as class_main  # local: SQLAlchemy only for these commands

        return class_main(list(argv[1:]))
    restore = on_sigterm()
    try:
        return _main(argv)
    finally:
        restore()


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit:  # after --help: flushed here
            flush()
            raise
        if args.command == "rules":
            say(_rules_text())
            code = 0
        elif args.command == "simulate":
            code = _simulate(args)
        elif args.command == "sweep":
            code = _sweep(args)
        else:  # no command: usage and the error on stderr, as argparse does
            if sys.stderr is not None:
                parser.print_usage(sys.stderr)
            raise UsageError(f"a command is required: simulate, sweep or rules (see {parser.prog} --help)")
        flush()
        return code
    except UsageError as exc:
        complain(f"golflab: error: {exc}")
        return EXIT_USAGE
    except OutputError as exc:
        complain(f"golflab: error: cannot write the output: {exc}")
        return EXIT_OUTPUT
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: worker processes are already terminated
        if isinstance(exc, Terminated):
            complain("golflab: terminated")
            return EXIT_TERMINATED
        complain("golflab: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (e.g. `golflab rules | head -1`): not an error
        discard_stdout()
        return 0
