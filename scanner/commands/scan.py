"""`instruction-guard scan`: scan a checkout (or named paths) and report."""
from __future__ import annotations

import argparse
import os
import sys

from ..config import parse_engines, parse_fail_on
from ..errors import UsageError
from ..pipeline import find_config, scan_tree
from ..policy import decide
from ..report import jsonout, text


def register(sub) -> None:
    p = sub.add_parser("scan", help="scan agent files in a checkout, or the paths given")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: every agent file under the current folder)")
    p.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    p.add_argument("--output", "-o", metavar="FILE", help="write the report here instead of standard output")
    p.add_argument("--sarif", metavar="FILE", help="also write SARIF to FILE")
    p.add_argument("--fail-on", metavar="SEVERITY", help="critical, high (default), medium, low, info or never")
    p.add_argument("--config", metavar="FILE", help="configuration file (default: .github/instruction-guard.yml)")
    p.add_argument("--engines", metavar="LIST", help="native, cisco or native,cisco (cisco:auto runs it only when installed)")
    p.add_argument("--root", metavar="DIR", help="repository root for relative paths (default: current folder)")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    p.add_argument("--jobs", metavar="N", type=_jobs, default=0, help="worker processes (default: one per core; 1: no workers)")
    p.add_argument("--virustotal", action="store_true",
                   help="look up the sha256 of every bundled skill file on VirusTotal (hash only; key from $VT_API_KEY "
                        "or the variable named by virustotal.key-env)")
    p.add_argument("--judge", action="store_true",
                   help="ask an LLM about each agent file in scope (advisory; provider, model and key variable from "
                        "the configuration's judge settings; the key from $OPENAI_API_KEY by default)")
    p.set_defaults(func=run)


def _jobs(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= 64:
        raise argparse.ArgumentTypeError(f"--jobs takes a whole number from 1 to 64, not {value!r}")
    return int(value)


def resolve_root(args) -> str:
    if args.root:
        return os.path.abspath(args.root)
    if len(args.paths) == 1 and os.path.isdir(args.paths[0]):
        root = os.path.abspath(args.paths[0])
        args.paths = []
        return root
    return os.getcwd()


def run(args) -> int:
    root = resolve_root(args)
    for p in args.paths:
        if not os.path.lexists(os.path.join(root, p)):
            raise UsageError(f"{p}: no such file or folder")
    config = find_config(root, args.config)
    if args.fail_on:
        config = _replace(config, fail_on=parse_fail_on(args.fail_on))
    if args.engines:
        engines, mode = parse_engines(args.engines, "--engines")
        config = _replace(config, engines=engines, cisco_mode=mode)
    if args.jobs:
        config = _replace(config, jobs=args.jobs)
    if args.virustotal or config.virustotal.enabled:
        config = _replace(config, virustotal=with_virustotal_key(config.virustotal, os.environ))
    if args.judge or config.judge.enabled:
        config = _replace(config, judge=with_judge_key(config.judge, os.environ))
    result = scan_tree(root, args.paths, config)
    verdict = decide(result, config.fail_on, config.fail_on_new_only)
    if args.format == "sarif" or args.sarif:
        from ..report import sarif  # only when asked: sarif-om and attrs take 0.1 s to import
    if args.format == "sarif":
        body = sarif.dumps(sarif.document(result))
    elif args.format == "json":
        body = jsonout.render(result, verdict)
    else:
        out_is_tty = args.output is None and sys.stdout.isatty()
        color = args.color == "always" or (args.color == "auto" and out_is_tty)
        body = text.render(result, verdict, color=color)
    if args.sarif:
        _write(args.sarif, sarif.dumps(sarif.document(result)))
    if args.output:
        _write(args.output, body)
    else:
        sys.stdout.write(body)
    return 1 if verdict.failed else 0


def with_virustotal_key(settings, env):
    """Enable the lookup with its key and cache: the CLI and entrypoint are the only places that
    read the environment. The key never comes from configuration or the command line."""
    cache_home = env.get("INSTRUCTION_GUARD_CACHE_DIR") or os.path.join(
        env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "instruction-guard")
    return _replace(settings, enabled=True, api_key=env.get(settings.key_env, ""),
                    cache_file=settings.cache_file or os.path.join(cache_home, "virustotal.json"))


def with_judge_key(settings, env):
    """Enable the judge with its key (from the variable the configuration names) and its cache."""
    cache_home = env.get("INSTRUCTION_GUARD_CACHE_DIR") or os.path.join(
        env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "instruction-guard")
    return _replace(settings, enabled=True, api_key=env.get(settings.key_env, ""),
                    cache_file=settings.cache_file or os.path.join(cache_home, "judge.json"))


def _replace(config, **changes):
    from dataclasses import replace

    return replace(config, **changes)


def _write(path: str, body: str) -> None:
    try:
        parent = os.path.dirname(os.path.abspath(path))
        os.makedirs(parent, exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(body)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write ({exc.strerror})") from None
