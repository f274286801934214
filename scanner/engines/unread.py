"""A file an agent would load or run that could not be read is a finding, never only a note.

One table from a NotScanned reason to the rule it raises. The NotScanned stays listed too (with
its sha256 when known). A skill's assets (reason "asset": name and bytes agree on an image,
font, document or data format), unknown-language text (its language-neutral rules ran) and a
dangling link (the agent reads nothing there either) raise nothing. Severity is the rule's
(high); only the configuration's `severity:` override lowers it, and in a pull request that
comes from the base branch.

Also the hook for the Action's own listing of blobs (scanner/git_targets.py): a NotScanned it
builds with one of these reasons, passed through finding_for, gives the same finding.
"""
from __future__ import annotations

from ..models import Finding, NotScanned
from ..scripts.language import flags_binary

# reason -> rule id; reasons not here never raise a finding.
RULE_BY_REASON = {
    "binary": "IG954",
    "data-bytes": "IG954",
    "too-large": "IG955",
    "lfs-pointer": "IG956",
    "unreadable": "IG957",
    "not-a-file": "IG957",
    "submodule": "IG957",
    "link-outside-tree": "IG951",
    "link-loop": "IG951",
    "link-too-deep": "IG951",
    "skill-entry-cap": "IG958",
    "skill-depth-bound": "IG958",
    "skill-scan-budget": "IG958",
}
WHY = {
    "binary": "is binary, not text",
    "data-bytes": "is binary, not text",
    "too-large": "is over the size the scan reads",
    "lfs-pointer": "is a git LFS pointer",
    "unreadable": "could not be read",
    "not-a-file": "is not a regular file",
    "submodule": "is a submodule",
}


def finding_for(ns: NotScanned, kind: str = "explicit") -> Finding | None:
    """The finding a NotScanned of a target of this catalog kind raises, or None."""
    from ..findings import file_finding

    rule_id = RULE_BY_REASON.get(ns.reason)
    if rule_id is None or (ns.reason == "data-bytes" and kind == "skill"):
        # A skill's file whose bytes are a data format (a test run's SQLite `.coverage`) is data the skill
        # keeps, as a `.db` is: listed, not a finding. A file agents load by its name stays one.
        return None
    if ns.reason == "binary" and kind == "skill" and flags_binary(ns.path, ns.detail):
        rule_id = "IG952"  # compiled code or an archive shipped in a skill: the older, sharper rule
    props = {"reason": ns.reason, "file-kind": kind}
    if ns.sha256:
        props["sha256"] = ns.sha256
    if rule_id == "IG952":
        message = f"{ns.detail} shipped in a skill folder"
    elif rule_id in ("IG951", "IG958"):
        message = ns.detail
    else:
        message = f"agent {'skill file' if kind == 'skill' else 'file'} {WHY[ns.reason]}: {ns.detail}" if ns.detail else \
            f"agent file {WHY[ns.reason]}"
    if ns.sha256:
        message += f" (sha256 {ns.sha256})"
    return file_finding(rule_id, ns.path, message, **props)
