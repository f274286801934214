"""The trust family: `trust`, `approve`, `verify`, `status`, `sign`, `keygen`.

- trust FILE...    record a first baseline (refuses a file already trusted with other content,
                   and one whose scan has a high or critical finding unless --force; with --all
                   such files are skipped, listed, and the exit code is 1)
- approve FILE...  re-baseline trusted files after a review of their change
- verify [FILE...] check without writing; exit 1 when a trusted file no longer matches or a
                   signature fails
- status           the trust table
- sign FILE --key  write FILE.sig, a detached Ed25519 signature
- keygen --out KEY write a new private key (mode 0600) and print its public line
"""
from __future__ import annotations

import json
import os
import sys

from ..config import Config
from ..errors import UsageError
from ..integrity.check import IntegrityReport, agent_files, check_tree
from ..integrity.classify import NEW_UNTRUSTED, OK
from ..integrity.store import TrustStore, entry_for, load, normalize_path, read_bytes, save
from ..pipeline import find_config
from ..inert import path as shown
from ..inert import visible


def terminal_safe(text: str) -> str:
    return visible(text, 300)


def _common(p) -> None:
    p.add_argument("--root", metavar="DIR", help="repository root (default: current folder)")
    p.add_argument("--config", metavar="FILE", help="configuration file (default: .github/instruction-guard.yml)")
    p.add_argument("--store", metavar="FILE", help="trust store path relative to the root (default: integrity.store)")


def register(sub) -> None:
    p = sub.add_parser("trust", help="record a first trusted baseline of agent files")
    p.add_argument("files", nargs="*", metavar="FILE")
    p.add_argument("--all", action="store_true", help="every agent file the catalog finds that is not yet trusted")
    p.add_argument("--by", metavar="WHO", help="approver (default: git user.name <user.email>)")
    p.add_argument("--force", action="store_true", help="trust files even when the scan finds high or critical findings in them")
    _common(p)
    p.set_defaults(func=run_trust)

    p = sub.add_parser("approve", help="re-baseline trusted files after reviewing their change")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--by", metavar="WHO", help="approver (default: git user.name <user.email>)")
    _common(p)
    p.set_defaults(func=run_approve)

    p = sub.add_parser("verify", help="check trusted files against the store without writing; exit 1 on a mismatch")
    p.add_argument("files", nargs="*", metavar="FILE")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--strict", action="store_true", help="also fail when agent files are not in the store")
    _common(p)
    p.set_defaults(func=run_verify)

    p = sub.add_parser("status", help="print the trust table")
    p.add_argument("--format", choices=("text", "json"), default="text")
    _common(p)
    p.set_defaults(func=run_status)

    p = sub.add_parser("sign", help="write FILE.sig, a detached Ed25519 signature of FILE (usually the trust store)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--key", required=True, metavar="KEY", help="Ed25519 private key (PEM PKCS#8 or OpenSSH)")
    p.add_argument("--passphrase-env", metavar="VAR", help="environment variable holding the key's passphrase")
    _common(p)
    p.set_defaults(func=run_sign)

    p = sub.add_parser("keygen", help="write a new Ed25519 private key and print its public line for configuration")
    p.add_argument("--out", required=True, metavar="KEY")
    p.set_defaults(func=run_keygen)


def _setup(args) -> tuple[str, Config]:
    root = os.path.abspath(args.root or os.getcwd())
    if not os.path.isdir(root):
        raise UsageError(f"{root}: not a directory")
    config = find_config(root, args.config)
    if args.store:
        from dataclasses import replace

        config = replace(config, trust_store=normalize_path(root, args.store))
    return root, config


def _approver(root: str, given: str | None) -> str:
    if given:
        return given
    from .. import gitutil

    try:
        name = gitutil.run_git(root, "config", "user.name", ok_codes=(0, 1)).decode().strip()
        email = gitutil.run_git(root, "config", "user.email", ok_codes=(0, 1)).decode().strip()
    except gitutil.GitError:
        name = email = ""
    if name or email:
        return f"{name} <{email}>".strip() if email else name
    return os.environ.get("USER") or "unknown"


def _keys(root: str, files: list[str]) -> list[str]:
    return sorted(dict.fromkeys(normalize_path(root, f) for f in files))


def run_trust(args) -> int:
    root, config = _setup(args)
    store = load(root, config.trust_store) or TrustStore()
    paths = _keys(root, args.files)
    if args.all:
        paths += [p for p in agent_files(root, config) if p not in store.entries and p not in paths]
    if not paths:
        raise UsageError("name the files to trust, or pass --all")
    who = _approver(root, args.by)
    for path in paths:
        _must_read(root, path)  # a folder or a missing file is a usage error before anything is scanned
    flagged = {} if args.force else _flagged(root, paths, config)
    if flagged and not args.all:
        path, why = next(iter(flagged.items()))
        raise UsageError(f"{path}: not trusted: {why}; review it, then trust it with --force")
    added = 0
    for path in paths:
        if path in flagged:
            print(f"skipped  {shown(path)}  ({flagged[path]}; review it, then `trust --force {shown(path)}`)")
            continue
        data = _must_read(root, path)
        current = entry_for(path, data, who)
        old = store.get(path)
        if old is not None and old.sha256 != current.sha256:
            raise UsageError(f"{path}: already trusted with other content; review the change, then run `approve {path}`")
        if old is None:
            store.record(current)
            added += 1
            print(f"trusted  {shown(path)}  sha256:{current.sha256[:16]}")
        else:
            print(f"already  {shown(path)}  (unchanged)")
    save(root, config.trust_store, store)
    print(f"{added} file(s) added to {config.trust_store}; commit it so the baseline is reviewed")
    if flagged:
        print(f"{len(flagged)} file(s) with high or critical findings were not trusted")
        return 1
    return 0


def _flagged(root: str, paths: list[str], config: Config) -> dict[str, str]:
    """The paths whose scan has an active high or critical finding: a baseline says "reviewed and
    safe", which a file with such a finding is not, so trusting it takes --force."""
    from dataclasses import replace

    from ..models import Severity
    from ..pipeline import scan_tree

    result = scan_tree(root, paths, replace(config, engines=("native",), cisco_mode="off"))
    found: dict[str, list[str]] = {}
    for f in result.active_findings():
        if f.severity >= Severity.HIGH and f.path in paths:
            found.setdefault(f.path, []).append(f.rule_id)
    return {p: f"{len(ids)} high or critical finding(s): {', '.join(sorted(set(ids)))}" for p, ids in found.items()}


def run_approve(args) -> int:
    root, config = _setup(args)
    store = load(root, config.trust_store)
    if store is None:
        raise UsageError(f"{config.trust_store}: no trust store yet; run `instruction-guard trust FILE...` first")
    who = _approver(root, args.by)
    changed = 0
    for path in _keys(root, args.files):
        old = store.get(path)
        if old is None:
            raise UsageError(f"{path}: not trusted yet; use `instruction-guard trust {path}` for a first baseline")
        data = read_bytes(root, path)
        if data is None:
            store.remove(path)
            changed += 1
            print(f"removed  {shown(path)}  (the file is gone; its baseline is dropped)")
            continue
        new = entry_for(path, data, who)
        if new.sha256 == old.sha256:
            print(f"same     {shown(path)}  (already matches its baseline)")
            continue
        store.record(new)
        changed += 1
        print(f"approved {shown(path)}  sha256:{old.sha256[:16]} -> {new.sha256[:16]}")
    save(root, config.trust_store, store)
    print(f"{changed} baseline(s) updated in {config.trust_store}")
    return 0


def _must_read(root: str, path: str) -> bytes:
    if os.path.isdir(os.path.join(root, path)):
        raise UsageError(f"{path}: a folder; name files (or use --all)")
    data = read_bytes(root, path)
    if data is None:
        raise UsageError(f"{path}: no such file")
    return data


def report_json(report: IntegrityReport) -> dict:
    return {
        "store": report.store_path,
        "store_found": report.store is not None,
        "failed": report.failed,
        "files": [
            {"path": s.path, "state": s.state, "detail": s.detail, "current_sha256": s.current_sha256,
             "trusted_sha256": s.trusted.sha256 if s.trusted else None,
             "approved_by": s.trusted.approved_by if s.trusted else None,
             "commits": [{"sha": c.sha, "author": c.author_name, "email": c.author_email, "date": c.date} for c in s.commits],
             "more_commits": s.more_commits}
            for s in report.statuses
        ],
        "signatures": [{"path": c.path, "outcome": c.outcome, "detail": c.detail, "key": c.key_name,
                        "fingerprint": c.fingerprint} for c in report.signatures],
    }


def run_verify(args) -> int:
    root, config = _setup(args)
    paths = _keys(root, args.files) if args.files else None
    report = check_tree(root, config, paths)
    if report.store is None:
        raise UsageError(f"{config.trust_store}: no trust store; run `instruction-guard trust FILE...` to create one")
    if paths:
        unknown = [p for p in paths if p not in report.store.entries]
        if unknown:
            raise UsageError(f"{unknown[0]}: not in the trust store")
    untrusted = [s for s in report.statuses if s.state == NEW_UNTRUSTED]
    failed = report.failed or (args.strict and bool(untrusted))
    from ..integrity.agent_edits import agent_edits

    by_agent = agent_edits(root, report)
    if args.format == "json":
        doc = report_json(report)
        doc["agent_edits"] = {p: v for p, v in sorted(by_agent.items())}
        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 1 if failed else 0
    ok = sum(1 for s in report.statuses if s.state == OK)
    for s in report.statuses:
        if s.state == OK:
            continue
        print(f"{s.state:<18} {shown(s.path)}: {terminal_safe(s.detail)}")
        for c in s.commits:
            print(f"{'':<18}   {c.short} {terminal_safe(c.author_name)} <{terminal_safe(c.author_email)}> {c.date}")
        if s.more_commits:
            print(f"{'':<18}   ... and {s.more_commits} older commit(s)")
        if s.path in by_agent:
            print(f"{'agent-edited':<18} {shown(s.path)}: changed by a coding agent (IG910): "
                  + terminal_safe(", ".join(by_agent[s.path][:5])))
    for c in report.signatures:
        print(f"signature {c.outcome:<13} {shown(c.path)}: {terminal_safe(c.detail)}")
    print(f"{ok} trusted file(s) match; {len(report.mismatches)} do not; {len(untrusted)} agent file(s) not trusted"
          + ("; verify FAILED" if failed else ""))
    return 1 if failed else 0


def run_status(args) -> int:
    root, config = _setup(args)
    store = load(root, config.trust_store)
    if store is None:
        raise UsageError(f"{config.trust_store}: no trust store; run `instruction-guard trust FILE...` to create one")
    report = check_tree(root, config)
    if args.format == "json":
        json.dump(report_json(report), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    width = max([len("FILE")] + [len(shown(s.path)) for s in report.statuses])
    print(f"{'FILE':<{width}}  {'STATE':<18} {'SHA256':<16}  {'APPROVED BY':<28} APPROVED AT")
    for s in report.statuses:
        t = s.trusted
        print(f"{shown(s.path):<{width}}  {s.state:<18} {(t.sha256[:16] if t else '-'):<16}  "
              f"{terminal_safe(t.approved_by if t else '-'):<28} {t.approved_at if t else '-'}")
    for c in report.signatures:
        print(f"signature of {shown(c.path)}: {c.outcome} ({terminal_safe(c.detail)})")
    return 0


def run_sign(args) -> int:
    from ..integrity import signing

    root, config = _setup(args)
    path = normalize_path(root, args.file)
    data = _must_read(root, path)
    passphrase = None
    if args.passphrase_env:
        value = os.environ.get(args.passphrase_env)
        if value is None:
            raise UsageError(f"--passphrase-env: {args.passphrase_env} is not set")
        passphrase = value.encode()
    key = signing.load_private_key(args.key, passphrase)
    target = os.path.join(root, path + signing.SIG_SUFFIX)
    with open(target, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(signing.sign_bytes(data, key))
    fp = signing.fingerprint(key.public_key())
    print(f"signed {shown(path)} with key {fp}; wrote {shown(path + signing.SIG_SUFFIX)}")
    listed = {signing.fingerprint(k) for k in signing.public_keys(config.public_keys).values()}
    if fp not in listed:
        print(f"note: key {fp} is not in integrity.public-keys; add this line to verify with it:\n  {signing.public_line(key.public_key())}")
    return 0


def run_keygen(args) -> int:
    from ..integrity import signing

    if os.path.lexists(args.out):
        raise UsageError(f"{args.out}: exists; refusing to overwrite a key")
    parent = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(parent):
        raise UsageError(f"{args.out}: no folder {parent}; create it first")
    key = signing.generate_key()
    try:
        fd = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise UsageError(f"{args.out}: cannot write ({exc.strerror})") from None
    with os.fdopen(fd, "wb") as fh:
        fh.write(signing.private_pem(key))
    print(f"wrote a private key to {args.out} (keep it secret; mode 0600)")
    print("add its public half to .github/instruction-guard.yml:")
    print("integrity:\n  public-keys:")
    print(f"    {os.path.splitext(os.path.basename(args.out))[0]}: \"{signing.public_line(key.public_key())}\"")
    return 0
