"""What the native engine must decide about a file in a skill folder (or a script named on the
command line) before and beyond running rules on it: the script size cap, files of no known
language, archives and compiled code by name, and the skill's own SKILL.md as context."""
from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from functools import lru_cache

from ..models import Finding, NotScanned
from ..textio import Decoded, read_file
from .common import documented_hosts
from .language import compiled_or_archive

SCRIPT_KINDS = ("skill", "explicit")


@dataclass
class Admission:
    scan: bool = True  # run the rules on the text
    not_scanned: NotScanned | None = None
    findings: list[Finding] = field(default_factory=list)


def admit(target, doc, loaded: Decoded, limits) -> Admission:
    """Apply the per-script cap and report what cannot be analysed; never a silent pass."""
    from ..findings import file_finding

    out = Admission()
    if target.kind not in SCRIPT_KINDS:
        return out
    named = compiled_or_archive(target.path)
    if named and target.kind == "skill":
        out.findings.append(file_finding("IG952", target.path, f"{named} shipped in a skill folder (by its file name)",
                                         sha256=loaded.sha256, detected_by="file name"))
    if doc.kind == "script" and loaded.size > limits.script_max_bytes:
        from ..engines.unread import finding_for

        out.scan = False
        out.not_scanned = NotScanned(target.path, "too-large",
                                     f"{loaded.size} bytes is over the {limits.script_max_bytes}-byte script cap", loaded.sha256)
        found = finding_for(out.not_scanned, target.kind)  # a script the agent runs and we did not read
        if found is not None:
            out.findings.append(found)
        return out
    if target.kind == "skill" and (doc.kind == "other" or doc.language == "unknown"):
        out.not_scanned = NotScanned(target.path, "unknown-language",
                                     f"no analyser for {doc.language!r} files; only language-neutral text rules ran", loaded.sha256)
    return out


def skill_context(root: str, target) -> dict:
    """Context for script rules: the hosts the skill's own SKILL.md names."""
    if not target.skill_root and target.skill_root != "":
        return {}
    # skill_dir lets skill_chain read the skill's sibling scripts together (bounded, links not followed).
    return {"skill_hosts": _skill_hosts(root, target.skill_root or ""), "skill_dir": (root, target.skill_root or "")}


@lru_cache(maxsize=256)
def _skill_hosts(root: str, skill_root: str) -> frozenset[str]:
    for name in ("SKILL.md", "skill.md", "Skill.md"):
        loaded = read_file(root, posixpath.join(skill_root, name) if skill_root else name, 512 * 1024)
        if isinstance(loaded, Decoded):
            return documented_hosts(loaded.text)
    return frozenset()
