"""The command line: `instruction-guard` and `python -m scanner` are this one entry point.

Only this module (and entrypoint.py) touches the environment and exit codes:
0 nothing reached --fail-on, 1 something did, 2 usage or configuration error.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__
from .config import ConfigError
from .errors import UsageError
from .rules import RuleFixtureError

# Each module exposes register(subparsers) and sets `func(args) -> int` on its parser.
COMMAND_MODULES: tuple[str, ...] = (
    "scanner.commands.scan",
    "scanner.commands.rules",
    "scanner.commands.trust",
    "scanner.commands.rune",
    "scanner.commands.eval",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="instruction-guard",
        description="Find hidden and hostile instructions in coding-agent files.",
    )
    parser.add_argument("--version", action="version", version=f"instruction-guard {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (UsageError, ConfigError) as exc:
        print(f"instruction-guard: error: {exc}", file=sys.stderr)
        return 2
    except RuleFixtureError as exc:
        print(f"instruction-guard: internal error: {exc}", file=sys.stderr)
        return 3
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
