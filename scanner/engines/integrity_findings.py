"""The integrity engine: trusted baselines, signatures and `.rune/` authorship as findings.

Two modes:
- working tree (CLI `scan`, pushes): the store, files and signatures of the checkout, with the
  git-aware classification of scanner/integrity/classify.py;
- change (pull requests, `change=ChangeContext(...)`): the store is read from the BASE commit
  and compared with the HEAD commit's files, so a pull request cannot approve its own edit. An
  edit to a trusted file is a finding whose severity follows provenance (an author outside the
  trusted set raises it to high), and an edit to the store itself is a protected change.
Engines never print or exit; a store that cannot be read makes the engine FAILED, not clean.
Authorship of `.rune/` files is judged by the Action's provenance (IG901/IG902) in pull requests
and by `instruction-guard rune` (IG805) on a checkout, not here, so no commit is reported twice.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Callable

from .. import __version__, gitutil
from ..config import Config
from ..integrity.check import check_tree
from ..integrity.classify import CHANGED_IN_COMMIT, NEW_UNTRUSTED, FileStatus
from ..errors import UsageError
from ..integrity.store import SIG_SUFFIX, StoreError, TrustStore, loads
from ..models import EngineRun, EngineStatus, Finding, ScanResult, Severity
from ..targets import TargetSet
from ..findings import file_finding

ENGINE = "integrity"


@dataclass(frozen=True)
class ChangeContext:
    base: str  # commit whose trust store and configuration are authoritative
    head: str  # commit whose files are checked
    # email -> trusted? (the Action passes provenance's TrustedAuthors.trusts); None: base history
    trusts: Callable[[str], bool] | None = None
    # Paths the change touches (the pull request's diff). When given, only these are compared with
    # the base store: `base` is the base branch's tip, which may have moved on since the branch was cut.
    changed: frozenset[str] | None = None
    history: bool = True  # base..head commits are in the clone (False: a shallow clone; no authorship)
    # Base files read elsewhere (the contents API at `base`, when the base commit could not be
    # fetched): path -> bytes, or None for absent. None: read them from git at `base`.
    base_files: dict[str, bytes | None] | None = None


def active(root: str, config: Config, change: ChangeContext | None = None) -> bool:
    """Run when a trust store exists in the checkout, or for a change (whose base may hold one)."""
    import os

    return change is not None or os.path.lexists(os.path.join(root, config.trust_store))


def scan(ts: TargetSet, config: Config, change: ChangeContext | None = None) -> ScanResult:
    started = time.perf_counter()
    result = ScanResult()
    try:
        if change is not None:
            _scan_change(ts, config, change, result)
        else:
            _scan_tree(ts, config, result)
    except (UsageError, gitutil.GitError) as exc:  # StoreError and SigningError are UsageErrors
        result.engines.append(EngineRun(ENGINE, EngineStatus.FAILED, __version__, str(exc), time.perf_counter() - started))
        return result
    result.engines.append(EngineRun(ENGINE, EngineStatus.OK, __version__, "; ".join(result.notes[-1:]),
                                    time.perf_counter() - started))
    return result


# -- working tree -------------------------------------------------------------------------------

def _status_finding(s: FileStatus, config: Config, untrusted_emails: set[str]) -> Finding:
    commits = [{"sha": c.sha, "author": c.author_name, "email": c.author_email} for c in s.commits]
    props = {"state": s.state, "trusted-sha256": s.trusted.sha256 if s.trusted else None,
             "current-sha256": s.current_sha256, "commits": commits}
    if s.trusted:
        props["approved-by"] = s.trusted.approved_by
    if s.state == NEW_UNTRUSTED:
        return file_finding("IG923", s.path, f"{s.path} is an agent file that is not in {config.trust_store}", **props)
    rule_id = "IG922" if s.removed else "IG921"
    f = file_finding(rule_id, s.path, f"{s.path}: {s.detail}", **props)
    f.engine = ENGINE
    if s.state == CHANGED_IN_COMMIT and any(c.author_email in untrusted_emails for c in s.commits):
        f.severity = Severity.HIGH
        f.properties["external-author"] = True
    return f


def _scan_tree(ts: TargetSet, config: Config, result: ScanResult) -> None:
    report = check_tree(ts.root, config)
    if report.store is not None:
        trusted = _trusted_for_tree(ts.root, config)
        untrusted_emails = set()
        if trusted is not None:
            untrusted_emails = {c.author_email for s in report.statuses for c in s.commits if not trusted.trusts(c.author_email)}
        for s in report.statuses:
            if s.mismatch or s.state == NEW_UNTRUSTED:
                f = _status_finding(s, config, untrusted_emails)
                f.engine = ENGINE
                result.findings.append(f)
        for c in report.signatures:
            result.findings.extend(_signature_findings(c))
        ok = sum(1 for s in report.statuses if not s.mismatch and s.state != NEW_UNTRUSTED)
        result.notes.append(f"integrity: {ok} trusted file(s) match {config.trust_store}; {len(report.mismatches)} do not")
    else:
        result.notes.append(f"integrity: no trust store at {config.trust_store}; baselines not checked")


def _trusted_for_tree(root: str, config: Config):
    from ..rune.authorship import trusted_set

    try:
        return trusted_set(root, config, None)
    except gitutil.GitError:
        return None


def _signature_findings(c) -> list[Finding]:
    from ..integrity import signing

    if c.outcome == signing.GOOD:
        return []
    rule_id = "IG925" if c.failed else "IG926"
    f = file_finding(rule_id, c.path, f"{c.path}: {c.detail}", outcome=c.outcome, key=c.fingerprint)
    f.engine = ENGINE
    return [f]


# -- pull request -------------------------------------------------------------------------------

def _store_at(repo: str, rev: str, path: str, given: dict[str, bytes | None] | None = None) -> tuple[TrustStore | None, bytes | None]:
    blob = given.get(path) if given is not None else gitutil.read_blob(repo, rev, path)
    if blob is None:
        return None, None
    return loads(blob, f"{path}@{rev[:12]}"), blob


def _scan_change(ts: TargetSet, config: Config, change: ChangeContext, result: ScanResult) -> None:
    repo = ts.root
    base_store, base_bytes = _store_at(repo, change.base, config.trust_store, change.base_files)
    head_blob = gitutil.read_blob(repo, change.head, config.trust_store)
    if change.changed is not None and config.trust_store not in change.changed:
        head_blob = base_bytes  # the change leaves the store alone (the base tip's may be newer)
    if change.history:
        trusts = change.trusts or _base_history_trust(repo, change.base, config)
        commits = gitutil.log_authors(repo, f"{change.base}..{change.head}")
    else:  # no history in the clone: authorship unknown, and never a reason to lower a finding
        trusts, commits = (lambda email: False), []
    touching: dict[str, list[gitutil.Commit]] = {}
    for c in commits:
        for p in c.paths:
            touching.setdefault(p, []).append(c)

    def external(path: str) -> list[gitutil.Commit]:
        return [c for c in touching.get(path, []) if not trusts(c.author_email)]

    head_store = None
    if head_blob is not None and head_blob != base_bytes:
        outsiders = external(config.trust_store)
        what = "added" if base_bytes is None else ("removed" if head_blob is None else "changed")
        f = file_finding("IG924", config.trust_store,
                         f"{config.trust_store} {what} by this change; the base commit's store was used"
                         + (f"; by author(s) outside the trusted set: {_who(outsiders)}" if outsiders else ""),
                         external_author=bool(outsiders))
        f.engine, f.new = ENGINE, True
        if outsiders:
            f.severity = Severity.HIGH
        result.findings.append(f)
        try:
            head_store = loads(head_blob, f"{config.trust_store}@{change.head[:12]}")
        except StoreError as exc:
            result.notes.append(f"integrity: the change's trust store is unreadable ({exc})")
        result.findings.extend(_change_signature(repo, change, config, head_blob))
    elif head_blob is None and base_bytes is not None:
        f = file_finding("IG924", config.trust_store, f"{config.trust_store} deleted by this change; the base commit's store was used")
        f.engine, f.new, f.severity = ENGINE, True, Severity.HIGH if external(config.trust_store) else Severity.MEDIUM
        result.findings.append(f)
    if base_store is None:
        result.notes.append(f"integrity: no trust store at {config.trust_store} in the base commit; baselines not checked")
        return
    paths = sorted(p for p in base_store.entries if change.changed is None or p in change.changed)
    entries = {e.path: e for e in gitutil.ls_tree_entries(repo, change.head, paths)}
    blobs = gitutil.read_objects(repo, [e.sha for e in entries.values() if e.type == "blob"])
    ok = 0
    for path in paths:
        trusted = base_store.entries[path]
        entry = entries.get(path)
        data = blobs.get(entry.sha) if entry is not None else None
        current = hashlib.sha256(data).hexdigest() if data is not None else None
        if current == trusted.sha256:
            ok += 1
            continue
        outsiders = external(path)
        by = _who(touching.get(path, []))
        if data is None:
            f = file_finding("IG922", path, f"{path}: removed by this change" + (f" ({by})" if by else ""), state="removed")
        else:
            f = file_finding("IG921", path, f"{path}: changed by this change" + (f" in {by}" if by else "")
                             + "; the base commit's trust store does not approve it", state="changed-in-change",
                             **{"trusted-sha256": trusted.sha256, "current-sha256": current})
        f.engine, f.new = ENGINE, True
        f.properties["commits"] = [{"sha": c.sha, "email": c.author_email} for c in touching.get(path, [])[:20]]
        if outsiders:
            f.severity = Severity.HIGH
            f.properties["external-author"] = True
        elif change.history and head_store is not None and current is not None \
                and (head_store.get(path) or _NONE).sha256 == current:
            # Trusted authors re-approving their own edit in the same change: still shown, lower.
            f.severity = Severity.LOW
            f.properties["re-approved-in-change"] = True
        result.findings.append(f)
    for t in ts.targets:
        if t.kind != "guard" and t.path not in base_store.entries and t.path != config.trust_store:
            f = file_finding("IG923", t.path, f"{t.path} is an agent file that is not in the base commit's trust store")
            f.engine = ENGINE
            result.findings.append(f)
    what = "changed " if change.changed is not None else ""
    result.notes.append(f"integrity: {ok} of {len(paths)} {what}trusted file(s) match the base commit's store")


class _NoEntry:
    sha256 = ""


_NONE = _NoEntry()


def _who(commits: list[gitutil.Commit]) -> str:
    return ", ".join(f"{c.sha[:10]} by {c.author_email}" for c in commits[:5])


def _base_history_trust(repo: str, base: str, config: Config) -> Callable[[str], bool]:
    from ..rune.authorship import trusted_set

    trusted = trusted_set(repo, config, base)
    return (lambda email: False) if trusted is None else (lambda email: trusted.trusts(email))


def _change_signature(repo: str, change: ChangeContext, config: Config, head_store: bytes) -> list[Finding]:
    """A store changed by the pull request must carry a signature by a key the BASE configuration lists."""
    from ..integrity import signing

    keys = signing.public_keys(config.public_keys)
    sig = gitutil.read_blob(repo, change.head, config.trust_store + SIG_SUFFIX)
    check = signing.verify_bytes(config.trust_store, head_store, sig, keys)
    if check.outcome == signing.UNSIGNED and not keys:
        return []
    found = _signature_findings(check)
    for f in found:
        f.new = True
    return found
