"""What the native engine must decide about a file in a skill folder (or a script named on the
command line) before and beyond running rules on it: the script size cap, files of no known
language, archives and compiled code by name, and the skill's own SKILL.md as context."""
from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from functools import lru_cache

from ..document import classify
from ..matching import rx
from ..models import Finding, NotScanned
from ..textio import Decoded, read_file
from .common import documented_hosts
from .language import compiled_or_archive

SCRIPT_KINDS = ("skill", "explicit")

# A string literal that is one long run of the base64/base64url/hex alphabet (an optional data: URI
# head before it): encoded data, not code or text. No spaces, dots or colons: prose and URLs are not.
_BLOB = rx(r"""["'`](?:data:[\w/+.-]{1,60};base64,)?[A-Za-z0-9+/=_-]{200,}["'`]""")


def data_script(path: str, text: str, limits) -> bool:
    """A generated module of encoded data (634 icons as base64 SVG in one dict): a script by its
    name, at most limits.data_script_max_bytes, whose text outside its long encoded literals is
    within limits.script_max_bytes. Its blobs cost the analyses next to nothing (docs/limits.md:
    8 MB of them in 2-3 s and 110 MB, where 4 MB of code took 30 s and 700 MB), so it is read
    whole, as any script under the cap; anything else over a cap stays a failing finding."""
    if classify(path, "")[0] != "script":
        return False
    data = text.encode("utf-8", "surrogatepass")
    if len(data) > limits.data_script_max_bytes:
        return False
    blobs = 0
    for m in _BLOB.finditer(data):
        blobs += m.end() - m.start()
    return len(data) - blobs <= limits.script_max_bytes


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
    if doc.kind == "script" and loaded.size > limits.script_max_bytes and not data_script(target.path, loaded.text, limits):
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
