"""Which changed trusted files a coding agent edited (IG910 outside pull requests): the commits
since each file's approved version, judged by scanner/identity.py."""
from __future__ import annotations

from .. import gitutil, identity
from .check import IntegrityReport


def agent_edits(root: str, report: IntegrityReport) -> dict[str, list[str]]:
    """path -> ["<sha> (<how>: <agent>)", ...] for mismatched files with an agent's commit since approval."""
    out: dict[str, list[str]] = {}
    for status in report.mismatches:
        for c in status.commits:
            agent, how = identity.agent_for(c.author_name, c.author_email), "author"
            if not agent:
                try:
                    trailers = gitutil.co_authors(root, c.sha)
                except gitutil.GitError:
                    trailers = []
                agent = next((a for a in map(identity.agent_in_trailer, trailers) if a), None)
                how = "co-author"
            if agent:
                out.setdefault(status.path, []).append(f"{c.short} ({how}: {agent})")
    return out
