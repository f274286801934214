"""The native engine: decode each target and run every rule that reads its kind of file.

Engines never print and never exit; they return a ScanResult.
"""
from __future__ import annotations

import os
import posixpath

import time
from dataclasses import dataclass, field
from functools import partial
from typing import Iterable, Iterator

from .. import __version__
from ..agent_map import skill_root_of
from ..document import Document, classify
from ..findings import ENGINE, file_finding
from ..matching.prefilter import ensure_prefilter
from ..models import EngineRun, EngineStatus, Finding, NotScanned, ScannedFile, ScanResult, Severity, Span
from ..inert import visible
from ..matching import rx
from ..rules import Rule, catalog
from ..rules.base import Hit
from ..runs import (COMPOSER_INSTALL_EVENTS, GO_MODULE, go_generate_as_shell, JUSTFILE_NAMES, MAKEFILE_NAMES, TASKFILE_NAMES, composer_as_shell, dockerfile_as_shell, is_dockerfile,
                    justfile_as_shell, makefile_as_shell, taskfile_as_shell)
from ..rune import state_as_prose, yaml_state_as_prose
from ..targets import LISTED_FAILING, Limits, Target, TargetSet
from ..scripts.skill_files import admit, data_script, skill_context
from ..textio import Decoded, asset_by_name, decode_blob, read_file
from .skill_links import SkillDoc, correlate, correlate_runs
from .unread import finding_for
from .workers import MIN_TARGETS_PER_WORKER, map_stream, map_targets

MAX_HITS_PER_RULE = 50  # per file; the rest are counted in one note, never dropped silently
# Below this many targets, building the word prefilter (from its saved conditions) costs more
# than it saves. Not above the count at which a streamed scan forks its first worker
# (workers.MIN_TARGETS_PER_WORKER per process), so that workers inherit the prefilter.
PREFILTER_MIN_TARGETS = 2 * MIN_TARGETS_PER_WORKER


def load(root: str, target: Target, limits: Limits) -> Decoded | NotScanned:
    if target.blob is not None:
        out = decode_blob(target.path, target.blob, limits.max_file_bytes)
    else:
        out = read_file(root, target.path, limits.max_file_bytes)
    if isinstance(out, NotScanned) and out.reason == "too-large" and limits.data_script_max_bytes > limits.max_file_bytes \
            and classify(target.path, "")[0] == "script":
        # over the cap: read whole only when it is a generated module of encoded data (scripts/skill_files.data_script)
        big = decode_blob(target.path, target.blob, limits.data_script_max_bytes) if target.blob is not None \
            else read_file(root, target.path, limits.data_script_max_bytes)
        if isinstance(big, Decoded) and data_script(target.path, big.text, limits):
            return big
    return out


_APPLICABLE: dict[tuple[int, str, str], tuple[tuple[Rule, ...], tuple[Rule, ...]]] = {}


def _applicable(rules: Iterable[Rule], doc: Document) -> Iterable[Rule]:
    """The rules that read this kind and language of document, worked out once per rule table
    (the catalog is one tuple for the life of the process) instead of asked per rule per file."""
    if not isinstance(rules, tuple):
        return [r for r in rules if r.applies(doc)]
    key = (id(rules), doc.kind, doc.language)
    known = _APPLICABLE.get(key)
    if known is None or known[0] is not rules:  # `is`: an id can be reused by a later table
        if len(_APPLICABLE) > 256:  # tests build many small tables; keep the memo bounded
            _APPLICABLE.clear()
        known = _APPLICABLE[key] = (rules, tuple(r for r in rules if r.applies(doc)))
    return known[1]


def scan_document(doc: Document, rules: Iterable[Rule], kind: str = "explicit") -> list[Finding]:
    findings: list[Finding] = []
    for r in _applicable(rules, doc):
        for n, hit in enumerate(r.check(doc)):
            if n >= MAX_HITS_PER_RULE:
                findings[-1].properties["more-hits-in-file"] = "capped at %d" % MAX_HITS_PER_RULE
                break
            findings.append(to_finding(r, doc, hit, kind))
    return findings


def to_finding(r: Rule, doc: Document, hit: Hit, kind: str = "explicit", engine: str = ENGINE) -> Finding:
    start_line, start_col = doc.position(hit.start)
    end_line, end_col = doc.position(max(hit.end, hit.start))
    excerpt = hit.excerpt if hit.excerpt is not None else doc.text[hit.start:hit.end]
    props = {"file-kind": kind, "language": doc.language, **hit.properties}
    return Finding(
        rule_id=r.id,
        title=r.title,
        message=hit.message or r.title,
        severity=hit.severity if hit.severity is not None else r.severity,
        confidence=hit.confidence if hit.confidence is not None else r.confidence,
        category=r.category,
        path=doc.path,
        span=Span(start_line, start_col, end_line, end_col),
        excerpt=visible(excerpt),
        engine=engine,
        properties=props,
    )


def mark_new(findings: list[Finding], changed_lines: frozenset[int] | None) -> None:
    if changed_lines is None:
        return
    for f in findings:
        end = f.span.end_line or f.span.start_line
        f.new = any(line in changed_lines for line in range(f.span.start_line, end + 1))


@dataclass
class TargetOutcome:
    """What scanning one target produced; picklable, so a worker process can return it."""

    findings: list[Finding] = field(default_factory=list)
    not_scanned: list[NotScanned] = field(default_factory=list)
    scanned: ScannedFile | None = None
    skill_md_text: str | None = None  # the text of a SKILL.md, for linking its scripts
    script_skill_root: str | None = None  # the skill folder of a scanned script


def _dev_container_build(run_by: str | None) -> bool:
    """Is the file run by a dev container's settings (devcontainer.json builds its Dockerfile)?"""
    return run_by is not None and posixpath.basename(run_by).lower() in ("devcontainer.json", ".devcontainer.json")


def scan_target(root: str, target: Target, limits: Limits, linkable: frozenset[str] | None = None) -> TargetOutcome:
    """Scan one target. `linkable`: the skill folders whose SKILL.md text is sent back for
    linking scripts (see _may_ship_scripts); None: every skill's."""
    out = TargetOutcome()
    loaded = load(root, target, limits)
    if isinstance(loaded, NotScanned):
        if loaded.reason == "binary" and target.kind == "skill" and scan_archive(root, target, limits, loaded, out):
            return out
        out.not_scanned.append(loaded)
        # What an agent loads and we could not read fails. No line of it can be "old": a binary's
        # diff has no lines, so the finding keeps new=None and counts under fail-on-new-only.
        found = finding_for(loaded, target.kind)
        if found is not None:
            out.findings.append(found)
        return out
    # An @-imported file is read as the agent reads it: text in its instructions (a script stays a script).
    imported = bool(target.imported_by) and classify(target.path, loaded.text)[0] != "script"
    # A file a setting runs with no extension or shebang (a file BASH_ENV sources) is shell.
    sourced = target.run_by is not None and classify(target.path, loaded.text) == ("prose", "text")
    # A skill's own Makefile is there for the skill to run (`make -C <skill folder> setup`): shell too.
    made = (target.run_by is not None or target.kind == "skill") and posixpath.basename(target.path) in MAKEFILE_NAMES and not imported
    # composer.json that an agent file's `composer install` runs: the shell its scripts run.
    composed = target.run_by is not None and posixpath.basename(target.path) == "composer.json" and not imported
    # A justfile or Taskfile an agent file's `just X` / `task X` runs: the shell its recipes run.
    base = posixpath.basename(target.path)
    recipes = justfile_as_shell if base in JUSTFILE_NAMES else taskfile_as_shell if base in TASKFILE_NAMES else None
    if recipes is None and is_dockerfile(base) and _dev_container_build(target.run_by):
        recipes = dockerfile_as_shell  # a Dockerfile a devcontainer.json builds: its RUN/CMD/ENTRYPOINT lines are shell
    if recipes is None or target.run_by is None or imported:
        recipes = None
    else:
        composed = True
    # An agent-memory state file in JSON or YAML (`.rune/state.json`, `.rune/state.yaml`): its values are what the agent acts on next session.
    state = target.kind == "rune" and target.path.lower().endswith((".json", ".yml", ".yaml")) and not imported
    # A Go file a module's `go generate ./...` reaches for a directive that runs a remote module: its directives' commands.
    generated = target.run_by is not None and target.path.endswith(".go") and posixpath.basename(target.run_by) == GO_MODULE and not imported
    if generated:
        recipes, composed = go_generate_as_shell, True
    # composer.json run by itself: the events `composer install` fires, not every script
    events = COMPOSER_INSTALL_EVENTS if target.run_by == target.path else None
    text = makefile_as_shell(loaded.text) if made else recipes(loaded.text) if recipes else composer_as_shell(loaded.text, events) if composed \
        else (yaml_state_as_prose(loaded.text) if target.path.lower().endswith((".yml", ".yaml")) else state_as_prose(loaded.text)) \
        if state else loaded.text
    doc = Document(target.path, text,
                   kind="prose" if imported or state else "script" if sourced or made or composed else None,
                   language="shell" if sourced or made or composed else "markdown" if state else None)
    gate = admit(target, doc, loaded, limits)  # script cap, unknown languages, archives by name
    out.findings.extend(gate.findings)
    if gate.not_scanned is not None:
        out.not_scanned.append(gate.not_scanned)
    if not gate.scan:
        return out
    if doc.kind == "script":  # only script analyses read it: a prose file would re-read its SKILL.md for nothing
        doc.context = skill_context(root, target)  # what the skill's SKILL.md documents
        if target.run_by or target.kind == "config":
            handed = _credential_handed(root, target, limits)
            if handed:
                doc.context = {**doc.context, "input_credential": handed}
        elif doc.context.get("argv_credentials"):  # the skill's SKILL.md runs it with credential files as arguments
            from ..scripts.anylang import credential_in
            paths = " ".join(p for _, p in doc.context["argv_credentials"])
            doc.context = {**doc.context, "input_credential": credential_in(paths) or "-"}
        listed = _credentials_listed_beside(root, target, doc.text, limits)
        if listed:
            doc.context = {**doc.context, "listed_credentials": listed}
    if posixpath.basename(target.path) == "tasks.json" and posixpath.basename(posixpath.dirname(target.path)) == ".vscode":
        debug = _debug_tasks(root, posixpath.join(posixpath.dirname(target.path), "launch.json"), limits)
        if debug:  # the tasks a debug configuration beside it runs are graded as folder-open tasks are
            doc.context = {"debug_tasks": debug}
    out.scanned = ScannedFile(target.path, loaded.sha256, target.kind, doc.language, loaded.size)
    if target.skill_root is not None:
        if _is_skill_md(target.path):
            if linkable is None or target.skill_root in linkable:
                out.skill_md_text = loaded.text
        elif doc.kind == "script":
            out.script_skill_root = target.skill_root
    found = scan_document(doc, catalog(), target.kind)
    if recipes is dockerfile_as_shell:
        # What a dev container's image build runs, runs inside the container being built: the
        # download of a pinned tool there is not the host's. Reported, at medium at most (the
        # host-side initializeCommand of devcontainer.json is graded as any command).
        for f in found:
            if f.severity > Severity.MEDIUM:
                f.properties["lowered-because"] = "runs inside the dev container's image build"
                f.severity = Severity.MEDIUM
    if loaded.invalid_bytes:
        for f in found:
            f.properties["invalid-utf8"] = True
    if loaded.via is not None:  # read through a link inside the repository, as the agent reads it
        for f in found:
            f.properties["via-link"] = loaded.via
            f.message += f" (read through a link to {loaded.via})"
    if target.imported_by:
        for f in found:
            f.properties["imported-by"] = " -> ".join(target.imported_by)
    if target.run_by is not None:
        for f in found:
            f.properties["run-by"] = target.run_by
    mark_new(found, target.changed_lines)
    out.findings.extend(found)
    return out


def scan_archive(root: str, target: Target, limits: Limits, loaded: NotScanned, out: TargetOutcome) -> bool:
    """Scan the members of an archive a skill ships (scanner/engines/archives.py), each as a file of the
    skill at `archive!member` (an agent unpacks a skill's archive; an AGENTS.md that is gzip it
    cannot read at all, which stays IG954); False when it is no archive we read (the caller reports the
    binary as before). What cannot be read inside is one IG952 finding on the archive, and a
    member that is not text is reported as the file itself would be (finding_for)."""
    from .archives import member_path, read_archive, readable_kind
    from ..scripts.language import compiled_or_archive
    from ..textio import read_raw

    data = target.blob if target.blob is not None else read_raw(root, target.path, MAX_ARCHIVE_READ)
    if data is None:
        return False
    kind = readable_kind(loaded.detail, data[:512])
    if kind is None:
        return False
    contents = read_archive(data, kind, limits.max_file_bytes, target.path)
    if contents.members:
        out.not_scanned.append(NotScanned(target.path, "archive", f"{loaded.detail} read in memory: {len(contents.members)} "
                                          f"member(s) scanned" + (f", {len(contents.problems)} problem(s)" if contents.problems else ""),
                                          loaded.sha256))
    else:
        out.not_scanned.append(loaded)
    if contents.problems or not contents.members:  # what is not read inside fails as the archive did
        found = finding_for(loaded, target.kind)
        if found is not None:
            shown = "; ".join(contents.problems[:5]) or "no member to read"
            if len(contents.problems) > 5:
                shown += f"; and {len(contents.problems) - 5} more"
            found.message += f"; could not be read whole: {shown}"
            found.properties["archive-problems"] = len(contents.problems)
            out.findings.append(found)
    for member in contents.members:
        path = member_path(target.path, member.name)
        if _apple_double(member.name, member.data):
            # Finder's zip keeps each file's extended attributes in a `__MACOSX/._name` twin: no
            # agent loads it; its header says what it is (its magic and version, not its name alone).
            out.not_scanned.append(NotScanned(path, "metadata", "macOS AppleDouble attributes of a zipped file (not loaded by agents)"))
            continue
        decoded = decode_blob(path, member.data, limits.max_file_bytes)
        if isinstance(decoded, NotScanned):
            out.not_scanned.append(decoded)
            found = finding_for(decoded, target.kind)  # an executable, a nested archive, binary data
            if found is not None:
                found.properties["archive"] = target.path
                out.findings.append(found)
            continue
        doc = Document(path, decoded.text)
        found = []
        named = compiled_or_archive(member.name)
        if named and target.kind == "skill" and member.data:  # as admit() does for a file of the skill
            found.append(file_finding("IG952", path, f"{named} shipped in a skill folder (by its file name)",
                                      sha256=decoded.sha256, detected_by="file name"))
        if doc.kind == "script":
            doc.context = skill_context(root, target)
        found += scan_document(doc, catalog(), target.kind)
        for f in found:
            f.properties["archive"] = target.path
        out.findings.extend(found)
    return True


MAX_ARCHIVE_READ = 32 * 1024 * 1024
_APPLE_DOUBLE = b"\x00\x05\x16\x07\x00\x02\x00\x00"  # magic and version 2 (RFC 1740)


def _apple_double(name: str, data: bytes) -> bool:
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return base.startswith("._") and data[:8] == _APPLE_DOUBLE and len(data) <= 1 << 20


def _is_skill_md(path: str) -> bool:
    return path.rsplit("/", 1)[-1].lower() == "skill.md"


def _may_ship_scripts(targets: list[Target]) -> frozenset[str]:
    """Skill folders with a file that can be a script: its name says so, or a shebang would.
    Only their SKILL.md can name a flagged script, and holding the text of every SKILL.md until
    the scan ends was a fifth of a big scan's memory (1,500 texts in the benign corpus, of which
    183 skills can ship a script)."""
    return frozenset(t.skill_root for t in targets if t.skill_root is not None and not _is_skill_md(t.path)
                     and classify(t.path, "#!")[0] == "script")


def _before_fork() -> None:
    """Load here, once, what rules and script analyses otherwise load on first use in every
    process: the workers forked next share these pages with this process instead of holding a
    copy each (the package lists and their buckets were some 15 MB per process)."""
    from ..rune.packages import preload
    from ..scripts.python import exhaustion, shapes  # noqa: F401
    from ..scripts.shell import flow as shell_flow, shapes as shell_shapes  # noqa: F401
    from ..scripts.tokens import flow as token_flow  # noqa: F401
    from ..scripts.shell.base import _parser

    preload()
    _parser()


def _kept(ts: TargetSet, steps: Iterable[list[Target]]) -> Iterator[Target]:
    for step in steps:
        ts.targets.extend(step)  # the whole step first: see _chunk_scanner
        if len(ts.targets) >= PREFILTER_MIN_TARGETS:
            ensure_prefilter()  # before the first chunk is cut, so before any worker is forked
        yield from step


def _chunk_scanner(ts: TargetSet):
    """The scanner of each chunk of a stream, with the skill folders that can ship a script among
    the targets found so far. A skill folder the walk takes as one (under .claude/skills, or
    holding SKILL.md) comes in one step, and _kept adds a whole step to ts.targets before its
    first target is cut into a chunk, so such a folder is complete when its chunk is cut. A
    SKILL.md at the top of the tree, or one whose name's case the walk does not take, has the
    rest of its folder in later steps: scan() reads it again at the end if it turns out needed."""
    counted = 0
    linkable: set[str] = set()

    def fn_for(chunk: list[Target]):
        nonlocal counted
        linkable.update(_may_ship_scripts(ts.targets[counted:]))
        counted = len(ts.targets)
        return partial(scan_target, linkable=frozenset(linkable))
    return fn_for


def scan(ts: TargetSet, limits: Limits = Limits(), jobs: int = 1, steps: Iterable[list[Target]] | None = None) -> ScanResult:
    """Scan every target; `jobs` > 1 spreads big scans over worker processes, same results.
    `steps`: ts's targets still being found (targets.discover_steps); they are scanned as they
    come and added to ts.targets, and ts is complete when this returns."""
    started = time.perf_counter()
    catalog()  # verified once here, so forked workers inherit the checked rule table
    if steps is not None:
        outcomes = map_stream(_chunk_scanner(ts), ts.root, _kept(ts, steps), limits, jobs, _before_fork)
        linkable = _may_ship_scripts(ts.targets)  # the whole tree's, now that the walk has ended
    else:
        if len(ts.targets) >= PREFILTER_MIN_TARGETS:
            ensure_prefilter()  # likewise inherited
        linkable = _may_ship_scripts(ts.targets)
        outcomes = map_targets(partial(scan_target, linkable=linkable), ts.root, ts.targets, limits, jobs, _before_fork)
    result = ScanResult(not_scanned=list(ts.not_scanned))
    for path, link_target in ts.links:
        result.findings.append(file_finding("IG951", path, f"symbolic link to {link_target!r} leaves the repository", link_target))
    # What the walk could not list or follow where agents load files, and what the Action's scope
    # listed at agent paths without reading it (submodules, blobs over the cap): findings as well
    # as notes.
    listed = [n for n in ts.not_scanned if n.reason in LISTED_FAILING and n not in ts.failing
              and not (n.reason == "too-large" and n.sha256 is None and asset_by_name(n.path))]  # a big image, unread
    for ns in [*ts.failing, *listed]:
        found = finding_for(ns, "skill" if skill_root_of(ns.path + "/x", ts.skill_roots) is not None else "explicit")
        if found is not None:
            result.findings.append(found)
    skill_docs: list[SkillDoc] = []
    script_paths: dict[str, str] = {}  # scanned script -> its skill folder
    for target, out in zip(ts.targets, outcomes):
        result.findings.extend(out.findings)
        result.not_scanned.extend(out.not_scanned)
        if out.scanned is not None:
            result.scanned.append(out.scanned)
        text = out.skill_md_text
        if text is None and out.scanned is not None and target.skill_root in linkable and _is_skill_md(target.path):
            # Cut into a chunk before its folder's script was found: a SKILL.md at the top of
            # the tree, or in a folder the walk does not take as one skill (see _chunk_scanner).
            loaded = load(ts.root, target, limits)
            text = None if isinstance(loaded, NotScanned) else loaded.text
        if text is not None:
            skill_docs.append(SkillDoc(target.skill_root, Document(target.path, text)))
        if out.script_skill_root is not None:
            script_paths[target.path] = out.script_skill_root
    linked = correlate(skill_docs, result.findings, script_paths)
    linked += _run_links(ts, result.findings, limits)
    linked += _payload_files(ts, result.findings, result.scanned, limits)
    linked += _listed_config_files(ts, result.findings, limits)
    for f in linked:
        target_lines = next((t.changed_lines for t in ts.targets if t.path == f.path), None)
        mark_new([f], target_lines)
    result.findings.extend(linked)
    result.engines.append(EngineRun(ENGINE, EngineStatus.OK, __version__, seconds=time.perf_counter() - started))
    return result


def _run_links(ts: TargetSet, findings: list[Finding], limits: Limits) -> list[Finding]:
    """IG953 on the agent files that run a script whose findings name an attack (skill_links.correlate_runs).
    Runners are read again only when such a finding exists (rare: nothing more on a clean tree)."""
    run_by = {t.path: t.run_by for t in ts.targets if t.run_by is not None}
    if not run_by or not any(f.path in run_by and f.severity >= Severity.HIGH for f in findings):
        return []
    runners: dict[str, Document] = {}
    for by in set(run_by.values()):
        runner = next((t for t in ts.targets if t.path == by), None)
        if runner is None:
            continue
        loaded = load(ts.root, runner, limits)
        if not isinstance(loaded, NotScanned):
            runners[by] = Document(by, loaded.text)
    return correlate_runs(runners, findings, run_by)


# A file a script names by a literal that is data, not code: where a loader keeps what it decodes and runs.
_DATA_REF = rx(r"[\"'`]((?:\./)?(?:[\w.-]{1,80}/){0,4}[\w.-]{1,80}\.(?:json|jsonc|ya?ml|toml|ini|cfg|conf|txt|csv|tsv|xml|svg|md|dat|b64|lst|list|html|css|properties|env))[\"'`]")
_DECODES = rx(r"(?i)(?:b64decode|base64|\batob\s*\(|frombase64string)")
_B64_RUN = rx(r"[A-Za-z0-9+/]{40,}={0,2}")
MAX_PAYLOAD_BLOBS = 50


def _payload_files(ts: TargetSet, findings: list[Finding], scanned: list[ScannedFile], limits: Limits) -> list[Finding]:
    """A script that decodes and runs content (IG702) while it names a data file of its own skill
    (`assets/palette.json`) that holds a base64 string: that string is the code it runs. The data
    file is reported too, with the string decoded and graded as the loader's language: the
    payload lives there, and a reviewer of the script alone sees only `exec(b64decode(...))`."""
    import base64
    import binascii
    from itertools import islice

    # IG702: decoded content run; IG705: eval of a value computed at run time, counted when the
    # script decodes base64 too and the string it names decodes to code graded medium or above
    loaders = {f.path: f for f in sorted(findings, key=lambda f: f.rule_id != "IG702")
               if f.rule_id in ("IG702", "IG705") and f.suppressed_by is None}
    if not loaders:
        return []
    langs = {s.path: s.language for s in scanned}
    by_path = {t.path: t for t in ts.targets}
    out: list[Finding] = []
    done: set[str] = set()
    for path, loader in sorted(loaders.items()):
        target = by_path.get(path)
        if target is None:
            continue
        root = target.skill_root if target.skill_root is not None else posixpath.dirname(posixpath.dirname(path))
        loaded = load(ts.root, target, limits)
        if isinstance(loaded, NotScanned) or (loader.rule_id == "IG705" and _DECODES.search(loaded.text[:500_000].encode("utf-8", "surrogatepass")) is None):
            continue
        names = {m.group(1).decode("utf-8", "replace").rsplit("../", 1)[-1].removeprefix("./")
                 for m in islice(_DATA_REF.finditer(loaded.text[:500_000].encode("utf-8", "surrogatepass")), 200)}
        if not names:
            continue
        inside = [t for t in ts.targets if (not root or t.path.startswith(root.rstrip("/") + "/")) and t.path != path
                  and t.path not in done and classify(t.path, "")[0] != "script"]
        for data_target in inside[:2000]:
            if not any(data_target.path == n or data_target.path.endswith("/" + n) for n in names):
                continue
            got = load(ts.root, data_target, limits)
            if isinstance(got, NotScanned):
                continue
            data = got.text.encode("utf-8", "surrogatepass")
            best: tuple[Severity, str, int] | None = None
            for m in islice(_B64_RUN.finditer(data), MAX_PAYLOAD_BLOBS):
                blob = m.group(0)
                try:
                    decoded = base64.b64decode(blob + b"=" * (-len(blob) % 4), validate=True).decode("utf-8")
                except (binascii.Error, ValueError, UnicodeDecodeError):
                    continue
                if len(decoded) < 20 or sum(ch.isprintable() or ch in "\n\r\t" for ch in decoded) < 0.95 * len(decoded):
                    continue  # an image, a key, a hash: not text an interpreter runs
                lang = langs.get(path) or "python"
                graded = scan_document(Document(data_target.path, decoded, kind="script", language=lang), catalog(), target.kind)
                worst = max((f for f in graded if f.severity >= Severity.MEDIUM), key=lambda f: f.severity, default=None)
                if worst is None and loader.rule_id != "IG702":
                    continue
                sev = max(Severity.HIGH, worst.severity) if worst else Severity.HIGH
                what = f"; decoded as {lang}: {worst.message}" if worst else f"; decoded: {decoded[:80]!r}"
                if best is None or sev > best[0]:
                    best = (sev, what, m.start())
            if best is None:
                continue
            done.add(data_target.path)
            doc = Document(data_target.path, got.text)
            line, col = doc.position(len(data[:best[2]].decode("utf-8", "replace")))
            f = file_finding("IG702", data_target.path,
                             f"holds base64-encoded code that {path} decodes and runs{best[1]}", doc.line_text(line).strip()[:200],
                             loader=path)
            f.severity = best[0]
            f.span = Span(line, col, line, col + 40)
            out.append(f)
    return out


def _listed_config_files(ts: TargetSet, findings: list[Finding], limits: Limits) -> list[Finding]:
    """A data file of an agent's files that lists credential files which a script beside it reads
    and sends out (the script's IG703 names it as its source): the list is what decides what
    leaves, and a reviewer of the generic script alone sees only "upload what the list says". The
    data file is reported too, at the script's severity."""
    from ..scripts.common import is_credential_path

    by_path = {t.path: t for t in ts.targets}
    out: list[Finding] = []
    done: set[str] = set()
    for f in findings:
        if f.rule_id != "IG703" or f.suppressed_by is not None or f.severity < Severity.MEDIUM:
            continue
        src = f.properties.get("source")
        if not src or f.properties.get("script-analysis") != "any-language" or src in done or src not in by_path or src == f.path:
            continue
        got = load(ts.root, by_path[src], limits)
        if isinstance(got, NotScanned):
            continue
        done.add(src)
        doc = Document(src, got.text)
        line = next((no for no, text in enumerate(doc.lines[:2000], 1) if is_credential_path(text[:400])), 1)
        dest = f.properties.get("destination", "")
        g = file_finding("IG703", src, f"lists credential files that {f.path} reads and sends out ({dest})",
                         doc.line_text(line).strip()[:200], script=f.path)
        g.severity = f.severity
        g.span = Span(line, 1, line, 1 + len(doc.line_text(line)))
        out.append(g)
    return out


# A data file a script names by a literal (`path.join(__dirname, "audit.config.json")`, `open("targets.yml")`).
_SIDE_CONFIG = rx(r"[\"'`]((?:\./)?[\w.-]{1,80}\.(?:json|jsonc|ya?ml|toml|ini|cfg|conf|txt|list))[\"'`]")
_HOST_WORD = rx(r"(?i)[\"'\s:=/]((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,24}))[\"'\s:/,]")
_NOT_TLD = frozenset({"json", "jsonc", "yml", "yaml", "toml", "ini", "cfg", "conf", "txt", "list", "py", "js", "ts", "sh", "rb", "md",
                      "pem", "key", "db", "sqlite", "lock", "log", "env", "local", "internal", "localhost", "example", "test"})


def _credentials_listed_beside(root: str, target, text: str, limits) -> dict | None:
    """A side configuration the script reads by name, beside it, that lists credential stores
    (`"attach": [".npmrc", ".git-credentials"]`): {family, config, hosts it names}. Only for a
    script that builds paths on the home folder: the list is what it reads there."""
    from ..scripts.anylang import credentials_listed, reads_home
    from ..textio import Decoded, read_file

    if not reads_home(text):
        return None
    folder = posixpath.dirname(target.path)
    seen: set[str] = set()
    for m in _SIDE_CONFIG.finditer(text[:200_000].encode("utf-8", "surrogatepass")):
        name = m.group(1).decode("utf-8", "replace").removeprefix("./")
        loaded = None
        for path in _side_config_paths(root, target, folder, name):
            if path in seen or path == target.path:
                continue
            seen.add(path)
            got = read_file(root, path, min(limits.max_file_bytes, 256 * 1024))
            if isinstance(got, Decoded):
                loaded = got
                break
        if len(seen) > 12:
            break
        if loaded is None:
            continue
        fam = credentials_listed(loaded.text)
        if fam:
            hosts = []
            for h in _HOST_WORD.finditer(loaded.text[:20_000].encode("utf-8", "surrogatepass")):
                host = h.group(1).decode("utf-8", "replace").lower()
                if host.rsplit(".", 1)[-1] not in _NOT_TLD and host not in hosts and len(hosts) < 10:
                    hosts.append(host)
            return {"family": fam, "config": path, "hosts": hosts}
    return None


def _side_config_paths(root: str, target, folder: str, name: str) -> list[str]:
    """Where a data file a script names by its bare name may sit: beside the script, and, in a
    skill, at the skill's top or in one of its top folders (`scripts/x.py` reading
    `Path(__file__).parent.parent / "config" / "targets.json"`). Bounded: 20 folders."""
    out = [posixpath.join(folder, name) if folder else name]
    skill = target.skill_root
    if skill is None or "/" in name:
        return out
    out.append(posixpath.join(skill, name) if skill else name)
    try:
        entries = sorted(os.listdir(os.path.join(root, skill)))[:20]
    except OSError:
        return out
    for e in entries:
        sub = posixpath.join(skill, e) if skill else e
        if os.path.isdir(os.path.join(root, sub)) and not os.path.islink(os.path.join(root, sub)):
            out.append(posixpath.join(sub, name))
    return list(dict.fromkeys(out))


def _debug_tasks(root: str, launch_path: str, limits) -> list[str]:
    """Task labels the launch.json at `launch_path` runs before or after a debug session."""
    from ..rules.settings_keys import debug_task_labels
    from ..rules.settings_read import load as load_settings

    loaded = read_file(root, launch_path, min(limits.max_file_bytes, 1024 * 1024))
    if not isinstance(loaded, Decoded):
        return []
    data, _ = load_settings(Document(launch_path, loaded.text))
    return debug_task_labels(data)


def _credential_handed(root: str, target, limits) -> str:
    """The credential store the command that runs this script hands it (`gawk -f x.awk ~/.kube/config`,
    `python x.py < ~/.npmrc`): the script's input is that credential, whatever its own text names."""
    from ..scripts.anylang import credential_in
    from ..textio import Decoded, read_file

    import os

    from ..runs import is_runner

    runners = [target.run_by] if target.run_by else []
    if not runners:  # a script at an agent location (.cursor/hooks/x.awk): the settings files above it that run hooks
        d = posixpath.dirname(target.path)
        for _ in range(3):
            try:
                names = sorted(os.listdir(os.path.join(root, d) if d else root))[:200]
            except OSError:
                names = []
            runners += [posixpath.join(d, n) if d else n for n in names if is_runner(posixpath.join(d, n) if d else n)]
            if not d:
                break
            d = posixpath.dirname(d)
    name = posixpath.basename(target.path)
    for runner in runners[:5]:
        loaded = read_file(root, runner, limits.max_file_bytes)
        if not isinstance(loaded, Decoded):
            continue
        for line in loaded.text.split("\n")[:5000]:
            if name in line and len(line) < 4000:
                fam = credential_in(line.split(name, 1)[1])
                if fam:
                    return fam
    return ""
