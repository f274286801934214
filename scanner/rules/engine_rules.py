"""Rules raised by engines from facts about files rather than from their text.

They carry no text matcher (check=None); their engines' tests prove them.
"""
from __future__ import annotations

from ..models import Category, Confidence, Severity
from .base import rule

RULES = [
    rule(
        id="IG951", name="link-leaves-repository",
        title="Symbolic link in an agent file location points outside the repository",
        category=Category.HIDDEN_CONTENT, severity=Severity.HIGH, confidence=Confidence.HIGH,
        rationale="An agent that follows the link reads a file no reviewer of this repository can see, "
                  "such as a home-directory secret or a file planted elsewhere on the machine.",
        remediation="Replace the link with the file's content, or remove it.",
        check=None,
    ),
    rule(
        id="IG952", name="binary-in-skill",
        title="Compiled binary or archive shipped in a skill folder",
        category=Category.MALICIOUS_CODE, severity=Severity.HIGH, confidence=Confidence.MEDIUM,
        rationale="Skill instructions can tell an agent to run bundled files. A binary or archive cannot be "
                  "reviewed as text, and ClawHavoc-style skills shipped password-protected archives and droppers.",
        remediation="Ship source a reviewer can read, or fetch a pinned, checksummed release from the vendor.",
        check=None,
    ),
]
