"""Skill instructions (and agent files) that send the agent to a dangerous script.

A SKILL.md that says "run scripts/setup.sh" looks harmless on its own; the danger is in the
script. When a script in the same skill folder draws a finding of medium or above and the
SKILL.md names it, the SKILL.md line that names it is reported too (IG953, the script's severity
up to high where the script's finding names an attack, else up to medium), so the instruction an
agent obeys is flagged where a reviewer reads it. Flagged
scripts the SKILL.md ships without naming are reported once on its first line, at most medium.
The scripts' own findings stay as they are. An agent file that tells the agent to run a repository
script (`bash scripts/setup.sh`, found by targets.agent_run_targets) is linked the same way when the
script's findings name an attack at high or above (correlate_runs). A mention whose sentence, or the
sentence after it, forbids running the script outright ("called by the nightly workflow only. Do not
run it locally.") is no order to run it: it links nothing (a skill's script then counts as shipped
unnamed, at most medium); a condition that reopens the run ("without asking first") or another
mention that orders it keeps the link.
"""
from __future__ import annotations

import posixpath
from dataclasses import dataclass

from ..document import Document
from ..models import Finding, Severity, Span
from ..inert import visible
from ..rules import get_rule
from ..matching import text_rx

RULE_ID = "IG953"
SCRIPT_KINDS = frozenset({"script"})
# Script findings that name an attack (code fetched or decoded and run, credentials or host data
# sent out, a reverse shell, persistence, tampering, destruction): a SKILL.md naming such a script
# inherits its severity up to high. Other findings (a sensitive file read, a computed eval, shell
# injection, reconnaissance, resource use) are weaknesses or weak signals: inherited at most medium,
# so a benign skill whose helper reads ~/.ssh/config does not fail CI on its instructions.
ATTACK_RULES = frozenset({
    "IG701", "IG702", "IG703", "IG704", "IG708", "IG710", "IG711", "IG712", "IG713", "IG714", "IG715", "IG723",
    "IG613", "IG727", "IG740", "IG741", "IG742", "IG743",
})


def _names_attack(f: Finding) -> bool:
    return f.rule_id in ATTACK_RULES or f.rule_id.startswith(("IG4", "IG5"))


@dataclass(frozen=True)
class SkillDoc:
    root: str  # skill folder, repository-relative ('' for the repository root)
    doc: Document


# "Do not run it locally", "never execute this script": a prohibition on running what the sentence names.
_FORBIDS_RUN = text_rx(r"(?i)\b(?:never|do\s+not|don'?t|must\s+not|mustn'?t|should\s+not|shouldn'?t|not\s+to)\s+(?:ever\s+|manually\s+|directly\s+|yourself\s+)?"
                       r"(?:run|execute|invoke|call|launch|source|start)\b([^.!?\n]{0,120})")
# ... unless a condition reopens it ("do not run it without asking first", "unless the user asks").
_REOPENS = text_rx(r"(?i)\b(?:unless|without|until|except|before|other\s+than|only\s+(?:if|when|after))\b")
MAX_MENTIONS = 50


def _run_forbidden(doc: Document, at: int, length: int) -> bool:
    """The sentence naming the file, or the one after it, forbids running it outright: the text keeps
    the agent off the script (a CI-only job, a human's procedure), so the script's findings are not an
    order the file gives."""
    text = doc.text
    lo = max(0, at - 300)
    head = text[lo:at]
    cut = max(head.rfind(". "), head.rfind("! "), head.rfind("? "), head.rfind("\n\n"))
    start = lo + cut + 1 if cut >= 0 else lo
    tail = text[at + length:at + length + 400]
    ends = [i for i in (tail.find(". "), tail.find(".\n"), tail.find("\n\n")) if i >= 0]
    first = min(ends) if ends else len(tail)
    more = [i for i in (tail.find(". ", first + 1), tail.find(".\n", first + 1), tail.find("\n\n", first)) if i >= 0]
    end = at + length + (min(more) if more and tail[first:first + 2] != "\n\n" else first)
    for m in _FORBIDS_RUN.finditer(text[start:end]):
        if _REOPENS.search(m.group(1)) is None:
            return True
    return False


def _mention(doc: Document, rel: str, obeyed: bool = False) -> int | None:
    """Offset of the first mention of a bundled file by its path in the skill, or its file name;
    with `obeyed`, the first one no prohibition on running it surrounds."""
    text = doc.text
    for needle in dict.fromkeys((rel, posixpath.basename(rel))):
        start = 0
        seen = 0
        while seen < MAX_MENTIONS:
            i = text.find(needle, start)
            if i < 0:
                break
            before = text[i - 1] if i else " "
            after = text[i + len(needle)] if i + len(needle) < len(text) else " "
            # A whole name: not the tail of a longer name or path segment, not a longer name's head.
            if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
                seen += 1
                if not obeyed or not _run_forbidden(doc, i, len(needle)):
                    return i
            start = i + 1
    return None


def correlate(skill_docs: list[SkillDoc], findings: list[Finding], script_paths: dict[str, str]) -> list[Finding]:
    """Findings on SKILL.md lines that name a bundled script with a medium+ finding.

    script_paths maps a scanned script's path to its skill folder.
    """
    worst: dict[str, list[Finding]] = {}
    for f in findings:
        if f.path in script_paths and f.severity >= Severity.MEDIUM and f.suppressed_by is None:
            worst.setdefault(f.path, []).append(f)
    if not worst:
        return []
    rule = get_rule(RULE_ID)
    out: list[Finding] = []
    for sd in skill_docs:
        unnamed: list[tuple[str, list[Finding]]] = []
        for script, found in sorted(worst.items()):
            if script_paths[script] != sd.root:
                continue
            rel = posixpath.relpath(script, sd.root or ".")
            at = _mention(sd.doc, rel, obeyed=True)
            if at is None:
                unnamed.append((rel, found))
                continue
            line, col = sd.doc.position(at)
            attacks = [f for f in found if _names_attack(f)]
            top = max(attacks or found, key=lambda f: f.severity)
            cap = Severity.HIGH if attacks else Severity.MEDIUM
            rules = ", ".join(sorted({f.rule_id for f in found}))
            out.append(Finding(
                rule_id=rule.id, title=rule.title,
                message=f"the skill tells the agent to use {rel}, which has {len(found)} finding(s) ({rules}): {top.message}",
                severity=min(top.severity, cap), confidence=top.confidence, category=top.category,
                path=sd.doc.path, span=Span(line, col, line, col + len(rel)),
                excerpt=visible(sd.doc.line_text(line).strip()), engine="native",
                properties={"script": script, "script-rules": rules, "language": sd.doc.language},
            ))
        if unnamed:
            out.append(_ships_unnamed(rule, sd, unnamed))
    return out


def correlate_runs(runners: dict[str, Document], findings: list[Finding], run_by: dict[str, str]) -> list[Finding]:
    """Findings on the lines of agent files that tell the agent to run a repository script (`bash
    scripts/x.sh`; targets.agent_run_targets) whose own findings name an attack at high or above.

    A "known false positive" note, a "harmless telemetry" label or a setup step framing the run
    changes nothing the script does: the instruction is what the agent obeys, so it is reported
    where a reviewer reads it, at the script's severity up to high. run_by maps a scanned script to
    the file that runs it; runners holds those files' documents."""
    worst: dict[str, list[Finding]] = {}
    for f in findings:
        if f.path in run_by and f.severity >= Severity.HIGH and f.suppressed_by is None and _names_attack(f):
            worst.setdefault(f.path, []).append(f)
    rule = get_rule(RULE_ID)
    out: list[Finding] = []
    for script, found in sorted(worst.items()):
        doc = runners.get(run_by[script])
        if doc is None:
            continue
        at = _mention(doc, script, obeyed=True)
        if at is None:
            continue
        line, col = doc.position(at)
        top = max(found, key=lambda f: f.severity)
        rules = ", ".join(sorted({f.rule_id for f in found}))
        out.append(Finding(
            rule_id=rule.id, title=rule.title,
            message=f"the file tells the agent to run {script}, which has {len(found)} finding(s) ({rules}): {top.message}",
            severity=min(top.severity, Severity.HIGH), confidence=top.confidence, category=top.category,
            path=doc.path, span=Span(line, col, line, col + len(script)),
            excerpt=visible(doc.line_text(line).strip()), engine="native",
            properties={"script": script, "script-rules": rules, "language": doc.language, "run": True},
        ))
    return out


def _ships_unnamed(rule, sd: SkillDoc, unnamed: list[tuple[str, list[Finding]]]) -> Finding:
    """One finding on the SKILL.md for flagged scripts it ships without naming them.

    The agent that loads the skill can still run them, so the skill is reported, but the link is
    weaker than an instruction that names the script: at most medium.
    """
    found = [f for _, fs in unnamed for f in fs]
    top = max(found, key=lambda f: f.severity)
    names = ", ".join(rel for rel, _ in unnamed)
    rules = ", ".join(sorted({f.rule_id for f in found}))
    return Finding(
        rule_id=rule.id, title=rule.title,
        message=f"the skill ships {names} with {len(found)} finding(s) ({rules}): {top.message}",
        severity=min(top.severity, Severity.MEDIUM), confidence=top.confidence, category=top.category,
        path=sd.doc.path, span=Span(1, 1), excerpt=visible(sd.doc.line_text(1).strip()), engine="native",
        properties={"script": names, "script-rules": rules, "named": False, "language": sd.doc.language},
    )
