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

# Each command and the module that registers it (register(subparsers), setting `func(args) -> int`
# on its parser), so that a run imports only its own command's module: importing every command's
# dependencies (trust stores, rune state, evaluation) would slow every start, a pre-commit hook's
# included (figures: docs/performance.md). tests/test_skeleton.py checks it against what each module registers.
COMMAND_OWNERS: dict[str, str] = {
    "scan": "scanner.commands.scan",
    "rules": "scanner.commands.rules",
    **dict.fromkeys(("trust", "approve", "verify", "status", "sign", "keygen"), "scanner.commands.trust"),
    "rune": "scanner.commands.rune",
    "eval": "scanner.commands.eval",
    **dict.fromkeys(("session-check", "unsign"), "scanner.commands.session"),
}
COMMAND_MODULES: tuple[str, ...] = tuple(dict.fromkeys(COMMAND_OWNERS.values()))


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of argv's command when argv starts with one; of every command otherwise (no
    command, a mistyped one, --help first), so that usage lists them all."""
    parser = argparse.ArgumentParser(
        prog="instruction-guard",
        description="Find hidden and hostile instructions in coding-agent files.",
    )
    parser.add_argument("--version", action="version", version=f"instruction-guard {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    owner = COMMAND_OWNERS.get(argv[0]) if argv else None  # an option first (--help): all of them
    for name in (owner,) if owner else COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv)
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
