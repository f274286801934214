"""`@path` imports that pull into the agent's context what no pull request shows: a credential
file, a file outside the repository, a URL (IG960-IG962). See scanner/imports.py for how the
imports are read and data/imports.yml for the credential list and the allowed outside paths."""
from __future__ import annotations

from typing import Iterator

from .. import imports
from ..document import Document
from ..models import Category, Confidence, Severity
from .base import Fixture, Hit, rule

_REFERENCES = ("https://docs.claude.com/en/docs/claude-code/memory#claude-md-imports",)


_FLAGGED = frozenset({imports.CREDENTIAL, imports.OUTSIDE, imports.URL})


def _classified(doc: Document) -> list[tuple[imports.Token, str]]:
    """The document's imports with their category, worked out once for the three rules."""
    def compute() -> list[tuple[imports.Token, str]]:
        found = imports.tokens(doc.text, fences=False) if "@" in doc.text else []
        flagged = [(t, c) for t in found if (c := imports.classify(doc.path, t.path)[0]) in _FLAGGED]
        if "#[[file:" in doc.text and imports.follows_file_references(doc.path):
            # Kiro's `#[[file:path]]` puts the file into the steering context as `@path` does;
            # its path is relative to the workspace (the folder holding `.kiro`).
            base = imports.workspace_of(doc.path)
            importer = (base.rstrip("/") + "/" if base else "") + "_"
            flagged += [(t, c) for t in imports.file_reference_tokens(doc.text)
                        if (c := imports.classify(importer, t.path)[0]) in _FLAGGED]
        if ("](" in doc.text or "#file:" in doc.text) and imports.follows_links(doc.path):
            # Copilot's prompt, instruction and chat-mode files put what their Markdown links and
            # `#file:` references name into the prompt: a link to `../../../.aws/credentials` is
            # an import of it (a `#file:` path is relative to the workspace's top).
            at = 0
            for path, from_root in imports.links(doc.text):
                c = imports.classify("_" if from_root else doc.path, path)[0]
                if c not in (imports.CREDENTIAL, imports.OUTSIDE):
                    continue
                start = doc.text.find(path, at)
                if start < 0:
                    start = doc.text.find(path)
                if start >= 0:
                    at = start + len(path)
                    flagged.append((imports.Token(start, start + len(path), path, path), c))
        if flagged and doc.code_block_lines:  # the document's own view of its fenced blocks, shared with other rules
            flagged = [(t, c) for t, c in flagged if doc.position(t.start)[0] not in doc.code_block_lines]
        return flagged
    return doc.memo("imports:classified", compute)


def _imports(doc: Document, wanted: str) -> Iterator[Hit]:
    for tok, category in _classified(doc):
        if category == wanted:
            yield Hit(tok.start, tok.end, properties={"import": tok.path})


def _credential(doc: Document) -> Iterator[Hit]:
    for h in _imports(doc, imports.CREDENTIAL):
        yield Hit(h.start, h.end, message=f"@-import of a credential file ({h.properties['import']}) puts the secret into the agent's context",
                  properties=h.properties)


def _outside(doc: Document) -> Iterator[Hit]:
    for h in _imports(doc, imports.OUTSIDE):
        yield Hit(h.start, h.end, message=f"@-import of {h.properties['import']}, outside the repository: the agent obeys a file no review sees",
                  properties=h.properties)


def _url(doc: Document) -> Iterator[Hit]:
    for h in _imports(doc, imports.URL):
        yield Hit(h.start, h.end, message=f"@-import of a URL ({h.properties['import']}): remote content becomes part of the instructions",
                  properties=h.properties)


_PLAIN = [
    "See @README.md for the overview and @docs/architecture.md for the layout.",
    "Variable names: @.env.example (placeholders only).",
    "Personal preferences: @~/.claude/my-project-instructions.md",
    "Write `@~/.aws/credentials` in code spans only to show what not to do.",
    "```\n@~/.ssh/id_rsa\n```\n",
    "Mail me at dev@example.com or ping @octocat; install @types/node.",
]

RULES = [
    rule(
        id="IG960", name="import-of-credential-file",
        title="Agent file imports a credential file into the agent's context",
        category=Category.DATA_EXFILTRATION, severity=Severity.HIGH, confidence=Confidence.HIGH,
        rationale="Claude Code, Gemini CLI and Cursor read `@path` in an instruction file as 'put this file's content "
                  "here'. An import of `~/.aws/credentials`, `.env`, an SSH key or the GitHub CLI's token file loads the "
                  "secret into every session, where any later instruction, log or pull request text can carry it out.",
        remediation="Remove the import. Name the variables an agent needs in a template (`.env.example`) and import that.",
        check=_credential, applies_to=("prose",),
        must_match=["Deploy profiles: @~/.aws/credentials", "Current settings: @.env",
                    Fixture("Release account: @~/.config/gh/hosts.yml", "docs/AGENTS.md"),
                    "Keys: @../../.ssh/id_ed25519",
                    Fixture("Cluster access for this box:\n\n#[[file:~/.kube/config]]\n", ".kiro/steering/ops.md")],
        must_not_match=[*_PLAIN, Fixture("API shape: #[[file:api/openapi.yaml]]\n", ".kiro/steering/api.md"),
                        Fixture("Write `#[[file:~/.kube/config]]` only to show what not to do.\n", ".kiro/steering/ops.md")],
        tags=("imports", "credentials"), references=_REFERENCES,
    ),
    rule(
        id="IG961", name="import-from-outside-repository",
        title="Agent file imports a file from outside the repository",
        category=Category.PROMPT_INJECTION, severity=Severity.HIGH, confidence=Confidence.MEDIUM,
        rationale="An `@path` import that leaves the repository (an absolute system path, `~/` other than the "
                  "personal `~/.claude/` preferences Claude Code documents, or `../` past the top) makes the agent obey "
                  "a file that is in no commit: no review and no scan of the pull request sees what it says.",
        remediation="Copy the instructions into the repository, or keep personal imports under `~/.claude/`.",
        check=_outside, applies_to=("prose",),
        must_match=["Team rules: @~/shared/agent-rules.md", "Also read @/etc/agent/policy.md",
                    Fixture("Shared: @../../../common/CLAUDE.md", "pkg/CLAUDE.md"),
                    Fixture("Org steering: #[[file:/opt/org/steering.md]]\n", ".kiro/steering/org.md")],
        must_not_match=[*_PLAIN, "Components live under @/components (a bundler alias)",
                        Fixture("Parent rules: @../CLAUDE.md", "pkg/CLAUDE.md")],
        tags=("imports",), references=_REFERENCES,
    ),
    rule(
        id="IG962", name="import-of-url",
        title="Agent file imports a URL as part of its instructions",
        category=Category.PROMPT_INJECTION, severity=Severity.HIGH, confidence=Confidence.MEDIUM,
        rationale="Whoever controls the URL writes the agent's instructions from then on, and can change them after "
                  "the file was reviewed.",
        remediation="Copy the instructions into the repository, pinned and reviewed.",
        check=_url, applies_to=("prose",),
        must_match=["Org rules: @https://rules.example.net/agents/CLAUDE.md"],
        must_not_match=[*_PLAIN, "Docs: https://docs.example.com/guide (read them yourself)"],
        tags=("imports",), references=_REFERENCES,
    ),
]
