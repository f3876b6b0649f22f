"""The ``golflab`` command: the engine's commands (``golflab.cli``) and the apps' own.

* ``golflab serve [--port N] [--ip ADDRESS] [--open] [--preheat play,learn] [--base-url PATH]``:
  every app (``serving.serve``; needs the ``apps`` extra, imported only for this command).
* ``golflab notebooks DIR``: the app notebooks copied into DIR (``app_files.copy_notebooks``).
* ``golflab --version``.

Anything else goes to ``golflab.cli`` (``simulate``, ``sweep``, ``rules``, ``class``), so the engine
itself never imports the widgets or Jupyter. Problems are one line on stderr: exit code 2 for bad
input, 1 for what stopped the command.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from golflab import __version__
from golflab import cli as engine_cli

from .app_files import DEFAULT_PREHEAT, AppFilesMissing, app_names, copy_notebooks

APPS_HELP = """
the apps (pip install "golflab[apps]"):
  serve               serve every app in a browser (see golflab serve --help)
  notebooks DIR       copy the app notebooks into DIR, to read and change them in JupyterLab
  --version           print golflab's version"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise _Usage(f"{message} (see {self.prog} --help)")


class _Usage(Exception):
    pass


def _port(text: str) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"--port needs a port number from 1 to 65535, got {text!r}")
    return int(text)


def _base_url(text: str) -> str:
    if not text.startswith("/") or any(c.isspace() or c in "?#\\" for c in text):
        raise argparse.ArgumentTypeError(f"--base-url needs a path that starts with / (no spaces, ?, # or \\), "
                                         f"got {text!r}")
    return text if text.endswith("/") else text + "/"


def preheat_names(text: str, known: "list[str]") -> list[str]:
    """``--preheat``'s apps: comma-separated app names (``play`` or ``play.ipynb``), ``all`` or
    ``none``; an unknown name is a ``ValueError`` naming the apps there are."""
    words = [w.strip().removesuffix(".ipynb") for w in text.split(",") if w.strip()]
    if words in (["all"], ["none"]):
        return list(known) if words == ["all"] else []
    unknown = [w for w in words if w not in known]
    if unknown or not words:
        raise ValueError(f"--preheat: no app named {', '.join(unknown) or repr(text)}; the apps are "
                         f"{', '.join(known)} (or all, or none)")
    return list(dict.fromkeys(words))


def _serve(argv: Sequence[str]) -> int:
    parser = _Parser(prog="golflab serve", description="Serve every golflab app (sign-in, preheated kernels, "
                     "culling, offline pages) until Ctrl-C. The first line printed names the class store.")
    parser.add_argument("--port", type=_port, default=8866, help="the port (default 8866)")
    parser.add_argument("--ip", default="localhost",
                        help="the address to listen on (default localhost; 0.0.0.0 for a class on this network)")
    parser.add_argument("--open", action="store_true", help="open the landing page in a browser")
    parser.add_argument("--preheat", default=",".join(DEFAULT_PREHEAT), metavar="APPS",
                        help="apps given a kernel started ahead, comma-separated, or all, or none (default "
                             f"{','.join(DEFAULT_PREHEAT)}: what a class opens first; each costs memory)")
    parser.add_argument("--base-url", default="/", type=_base_url, metavar="PATH",
                        help="the path the apps are served under (default /; the JupyterLab launcher's proxy "
                             "gives its own)")
    args = parser.parse_args(argv)
    try:
        preheat = preheat_names(args.preheat, app_names())
    except ValueError as exc:
        raise _Usage(str(exc)) from None
    try:
        from .serving import serve
    except ImportError as exc:
        print(f"golflab serve: the apps extra is not installed ({exc.name or exc} is missing): "
              'pip install "golflab[apps]"', file=sys.stderr, flush=True)
        return 1
    return serve(port=args.port, ip=args.ip, open_browser=args.open, preheat=preheat, base_url=args.base_url)


def _notebooks(argv: Sequence[str]) -> int:
    parser = _Parser(prog="golflab notebooks", description="Copy the app notebooks into DIR (made if missing), "
                     "to read and change them in JupyterLab. Files golflab did not write are never replaced.")
    parser.add_argument("dir", metavar="DIR", help="the folder to copy them into")
    args = parser.parse_args(argv)
    try:
        copied = copy_notebooks(args.dir)
    except (FileExistsError, NotADirectoryError, PermissionError) as exc:
        print(f"golflab notebooks: {exc}", file=sys.stderr, flush=True)
        return 1
    print(f"golflab: copied {len(copied)} notebooks into {args.dir}", flush=True)
    return 0


def main(argv: "Sequence[str] | None" = None) -> int:
    """Run the ``golflab`` command; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] in (["--version"], ["-V"]):
            print(f"golflab {__version__}", flush=True)
            return 0
        if argv[:1] == ["serve"]:
            return _serve(argv[1:])
        if argv[:1] == ["notebooks"]:
            return _notebooks(argv[1:])
    except _Usage as exc:
        print(f"golflab: error: {exc}", file=sys.stderr, flush=True)
        return 2
    except AppFilesMissing as exc:
        print(f"golflab: {exc}", file=sys.stderr, flush=True)
        return 1
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    if argv[:1] in (["-h"], ["--help"]):
        try:
            engine_cli.main(argv)
        except SystemExit as exc:  # argparse ends its help so
            print(APPS_HELP, flush=True)
            return exc.code if isinstance(exc.code, int) else 0
    return engine_cli.main(argv)


__all__ = ["APPS_HELP", "main", "preheat_names"]
