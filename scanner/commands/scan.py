"""`instruction-guard scan`: scan a checkout (or named paths) and report."""
from __future__ import annotations

import argparse
import os
import sys

from ..config import parse_engines, parse_fail_on, with_judge_key, with_virustotal_key
from ..errors import UsageError
from ..pipeline import find_config, scan_tree
from ..policy import decide
from ..report import jsonout, text
from ..inert import path as shown


def register(sub) -> None:
    p = sub.add_parser("scan", help="scan agent files in a checkout, or the paths given")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: every agent file under the current folder); - reads one document from standard input")
    p.add_argument("--as", dest="as_kind", metavar="KIND", help="with -: scan standard input as " + ", ".join(STDIN_KINDS)
                   + " (default instruction), or as if it were the file named, such as .claude/settings.json")
    p.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    p.add_argument("--output", "-o", metavar="FILE", help="write the report here instead of standard output")
    p.add_argument("--sarif", metavar="FILE", help="also write SARIF to FILE")
    p.add_argument("--fail-on", metavar="SEVERITY", help="critical, high (default), medium, low, info or never")
    p.add_argument("--config", metavar="FILE", help="configuration file (default: .github/instruction-guard.yml)")
    p.add_argument("--engines", metavar="LIST", help="native, cisco or native,cisco (cisco:auto runs it only when installed)")
    p.add_argument("--staged", action="store_true",
                   help="scan what `git commit` would record, scoped as a pull request is (the pre-commit hook)")
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


# Standard input, scanned as one document named <stdin>: each kind is scanned as the file it
# stands for would be (its rules follow the name); any other --as value is itself such a name.
STDIN_KINDS: dict[str, tuple[str, str]] = {
    "instruction": ("AGENTS.md", "instruction"),
    "skill": ("SKILL.md", "skill"),
    "rune": (".rune/state.md", "rune"),
    "config": (".claude/settings.json", "config"),
    "script": ("script", "skill"),  # its language from its #! line, else from what its lines are written in
}
STDIN_NAME = "<stdin>"
STDIN_PATHS = ("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")


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
    stdin = any(p in STDIN_PATHS for p in args.paths)
    if stdin and len(args.paths) > 1:
        raise UsageError(f"{args.paths[0] if args.paths[0] in STDIN_PATHS else '-'}: standard input is scanned alone; name no other path with it")
    if args.staged and (args.paths or stdin):
        raise UsageError("--staged: the index decides what is scanned; name no path with it")
    if args.as_kind and not stdin:
        raise UsageError("--as: only with - (standard input); files are scanned as their names say")
    if stdin:
        args.paths = []
        if args.root is None:
            args.root = os.getcwd()  # the configuration's folder; nothing under it is scanned
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
    if stdin:
        result = scan_stdin(args.as_kind or "instruction", config)
    elif args.staged:
        from .staged import scan_staged
        result = scan_staged(root, config)
    else:
        result = scan_tree(root, args.paths, config)
    verdict = decide(result, config.fail_on, config.fail_on_new_only)
    if args.staged and not result.scanned and not result.not_scanned:
        print("instruction-guard: the staged change touches no agent file; nothing to scan", file=sys.stderr)
    elif not result.scanned:
        verdict = _nothing_scanned(root, args.paths, config, result, verdict, stdin)
    if args.format == "sarif" or args.sarif:
        from ..report import sarif  # only when asked: sarif-om and attrs are slow to import
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


def _nothing_scanned(root: str, paths: list[str], config, result, verdict, stdin: bool = False):
    """A run that scanned no file is never a silent pass. No agent file at all is not an error (a
    repository without agent files has nothing to guard): one line on standard error says so and
    the verdict stands, exit 0. Agent files found of which none could be scanned (all binary,
    over a cap, unreadable, or no requested engine reads them) fail the run, exit 1, unless
    fail-on is never."""
    from ..pipeline import targets_for
    from ..policy import Verdict

    from ..engines.cisco_sarif import ENGINE as CISCO

    if any(e.name == CISCO and e.status.value == "ok" for e in result.engines):
        return verdict  # Cisco's engine read the skills (it lists no scanned files of its own)
    if stdin:
        found = {STDIN_NAME}
    else:
        ts = targets_for(root, paths, config)  # walked again only when nothing was scanned
        found = {t.path for t in ts.targets} | {n.path for n in ts.not_scanned} | {n.path for n in result.not_scanned}
    if not found:
        print(f"instruction-guard: no agent file found under {shown(root)}; nothing to scan", file=sys.stderr)
        return verdict
    reason = f"none of the {len(found)} agent file(s) found could be scanned"
    if stdin:
        reason = "standard input could not be scanned"
    if result.not_scanned:
        n = result.not_scanned[0]
        reason += f" ({n.reason})" if stdin else f" ({len(result.not_scanned)} not scanned)"
    elif "native" not in config.engines:
        reason += f" by the engines requested ({', '.join(config.engines)})"
    if verdict.failed or config.fail_on is None:
        print(f"instruction-guard: {reason}", file=sys.stderr)
        return verdict
    return Verdict(True, verdict.highest, verdict.counted, reason)


def scan_stdin(as_kind: str, config):
    """Standard input as one document named <stdin>, scanned by the native engine as the file
    `as_kind` stands for (STDIN_KINDS, or a repository path such as .cursor/rules/x.mdc)."""
    import hashlib
    import time

    from ..agent_map import Catalog
    from ..engines import native
    from ..models import EngineRun, EngineStatus, NotScanned, ScanResult, fingerprint
    from ..policy import apply
    from ..targets import Target

    stand_in, kind = STDIN_KINDS.get(as_kind, (as_kind, ""))
    if not kind:
        name = as_kind.replace(os.sep, "/").lstrip("/")
        if not name or name.endswith("/") or any(part in ("", ".", "..") for part in name.split("/")):
            raise UsageError(f"--as: use {', '.join(STDIN_KINDS)} or a file name such as CLAUDE.md, not {as_kind!r}")
        stand_in, kind = name, Catalog(config.include, config.exclude).classify(name) or "explicit"
    started = time.perf_counter()
    cap = config.limits.max_file_bytes
    data = sys.stdin.buffer.read(cap + 1)
    result = ScanResult()
    if len(data) > cap:  # over the cap: measured and hashed as it streams, never held whole
        digest, size = hashlib.sha256(data), len(data)
        for chunk in iter(lambda: sys.stdin.buffer.read(1 << 20), b""):
            digest.update(chunk)
            size += len(chunk)
        result.not_scanned.append(NotScanned(STDIN_NAME, "too-large", f"{size} bytes is over the {cap}-byte cap", digest.hexdigest()))
        result.engines.append(EngineRun(native.ENGINE, EngineStatus.OK, _version(), seconds=time.perf_counter() - started))
        return apply(result, config)
    if as_kind == "script" and not data.startswith(b"#!"):
        stand_in = _script_name_by_content(data)
    out = native.scan_target(os.getcwd(), Target(stand_in, kind, blob=data), config.limits)
    for f in out.findings:
        f.path = STDIN_NAME
        f.fingerprint = fingerprint(f.rule_id, STDIN_NAME, f.excerpt)
        result.findings.append(f)
    result.not_scanned = [replace_path(n, STDIN_NAME) for n in out.not_scanned]
    if out.scanned is not None:
        result.scanned.append(replace_path(out.scanned, STDIN_NAME))
    result.engines.append(EngineRun(native.ENGINE, EngineStatus.OK, _version(), seconds=time.perf_counter() - started))
    return apply(result, config)


# A script on standard input with no #! line: named by the first language its lines are written in,
# so that language's analysis reads it (an unnamed script would get the language-neutral rules alone).
_SCRIPT_MARKERS = (
    ("script.py", r"(?m)^\s*(?:import [\w.]+|from [\w.]+ import |def \w+\(|class \w+[(:])"),
    ("script.ps1", r"(?im)^\s*(?:\$\w+\s*=|(?:invoke|write|get|set|new|start)-\w+)"),
    ("script.js", r"(?m)(?:\brequire\(['\"]|^\s*(?:const|let|var) \w+\s*=|^\s*import .+ from ['\"]|\bconsole\.log\()"),
    ("script.rb", r"(?m)^\s*(?:require ['\"]|puts |def \w+\s*$)"),
)


def _script_name_by_content(data: bytes) -> str:
    from ..matching import rx

    for name, pattern in _SCRIPT_MARKERS:
        if rx(pattern).search(data[:65536]) is not None:  # compiled once: one stdin document per run
            return name
    return "script.sh"


def _version() -> str:
    from .. import __version__

    return __version__


def replace_path(item, path: str):
    from dataclasses import replace

    return replace(item, path=path)


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
